// The one SHA-256 helper: content digests (corpus files, cache keys, asset identities) are all hex.
import { hash } from 'node:crypto';

/** SHA-256 of bytes or text (UTF-8), as 64 lowercase hex digits (one-shot: no Hash object per call). */
export function sha256Hex(data: Uint8Array | string): string {
  return hash('sha256', data, 'hex');
}
