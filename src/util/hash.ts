// The one SHA-256 helper: content digests (corpus files, cache keys, asset identities) are all hex.
import { createHash } from 'node:crypto';

/** SHA-256 of bytes or text (UTF-8), as 64 lowercase hex digits. */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}
