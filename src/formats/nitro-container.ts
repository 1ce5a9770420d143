// The `.nitro` container: big-endian u16 file count; per file u16 name length, ASCII name,
// u32 data length, compressed data. Same layout as the bundles real Nitro hotels serve. The data is
// a zlib stream, or in some real bundles (posters) a gzip member: the client's inflater (pako) tells
// them apart by the header, and so do we. We write zlib (gzip only to reproduce such bundles).
import { deflateSync, gzipSync } from 'node:zlib';
import { FormatError } from './errors.js';
import { unsafeNameMessage, unsafeNameReason } from '../util/safe-name.js';
import {
  decodeBudget,
  describeBytes,
  InflateBudgetError,
  inflateWithin,
  overBudget,
} from '../imaging/decode-budget.js';

export class NitroBundleError extends FormatError {
  constructor(file: string, reason: string, offset?: number) {
    super('nitro bundle', file, reason, offset);
    this.name = 'NitroBundleError';
  }
}

/** A gzip member starts 1f 8b (RFC 1952); a zlib stream never does (its first byte's low nibble is 8). */
function isGzip(data: Uint8Array): boolean {
  return data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b;
}

/**
 * Reads the files of a bundle (`file` only names it in errors); `only` limits which are inflated, the rest are skipped.
 */
export function readNitroBundle(
  buf: Uint8Array,
  file = '<buffer>',
  only?: (name: string) => boolean,
): Map<string, Buffer> {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.length);
  if (b.length < 2) throw new NitroBundleError(file, 'truncated: no file count', 0);
  const count = b.readUInt16BE(0);
  if (count === 0) throw new NitroBundleError(file, 'bad file count 0', 0);
  const budget = decodeBudget();
  if (count > budget.members)
    throw new NitroBundleError(
      file,
      overBudget(`its count of ${count} files`, `${budget.members} files a bundle`, true),
      0,
    );
  let o = 2;
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (o + 2 > b.length)
      throw new NitroBundleError(file, `truncated: file ${i + 1} of ${count} has no name length`, o);
    const nameLength = b.readUInt16BE(o);
    o += 2;
    if (nameLength === 0 || o + nameLength > b.length) {
      throw new NitroBundleError(file, `name length ${nameLength} of file ${i + 1} runs past the end`, o - 2);
    }
    const name = b.toString('latin1', o, o + nameLength);
    const unsafe = unsafeNameReason(name);
    if (unsafe)
      throw new NitroBundleError(file, unsafeNameMessage(`file ${i + 1} of ${count}, named`, name, unsafe), o - 2);
    o += nameLength;
    if (o + 4 > b.length) throw new NitroBundleError(file, `truncated: ${name} has no data length`, o);
    const dataLength = b.readUInt32BE(o);
    o += 4;
    if (o + dataLength > b.length) {
      throw new NitroBundleError(file, `data of ${name} (${dataLength} bytes) runs past the end`, o - 4);
    }
    if (only && !only(name)) {
      o += dataLength;
      continue;
    }
    let data: Buffer;
    const packed = b.subarray(o, o + dataLength);
    const gzip = isGzip(packed);
    try {
      data = inflateWithin(packed, budget.bytes, gzip);
    } catch (e) {
      if (e instanceof InflateBudgetError)
        throw new NitroBundleError(file, overBudget(`${name} inflated`, `${describeBytes(budget.bytes)} a member`), o);
      throw new NitroBundleError(
        file,
        `data of ${name} (${gzip ? 'gzip' : 'zlib'}) does not inflate: ${(e as Error).message}`,
        o,
      );
    }
    o += dataLength;
    if (files.has(name)) throw new NitroBundleError(file, `duplicate file name ${name}`, o);
    files.set(name, data);
  }
  if (o !== b.length) throw new NitroBundleError(file, `${b.length - o} trailing bytes after ${count} files`, o);
  return files;
}

export interface NitroWriteOptions {
  /** How each file is packed: zlib (what we publish) or gzip (as some real bundles are). Default zlib. */
  compression?: 'zlib' | 'gzip';
}

/** Writes a bundle; files keep the order given so output is deterministic. */
export function writeNitroBundle(files: Iterable<[string, Uint8Array]>, opts: NitroWriteOptions = {}): Buffer {
  const pack = (data: Uint8Array) =>
    opts.compression === 'gzip' ? gzipSync(data, { level: 9 }) : deflateSync(data, { level: 9 });
  return frameNitroBundle([...files].map(([name, data]): [string, Uint8Array] => [name, pack(data)]));
}

/** The container framing around files that are already packed (zlib or gzip), in the order given. */
export function frameNitroBundle(packed: [string, Uint8Array][]): Buffer {
  const parts: Uint8Array[] = [];
  for (const [name, z] of packed) {
    if (!/^[\x20-\x7e]+$/.test(name) || name.length > 0xffff)
      throw new RangeError(`invalid bundle file name ${JSON.stringify(name)}`);
    const unsafe = unsafeNameReason(name);
    if (unsafe) throw new RangeError(unsafeNameMessage('bundle file name', name, unsafe));
    const head = Buffer.alloc(2 + name.length + 4);
    head.writeUInt16BE(name.length, 0);
    head.write(name, 2, 'latin1');
    head.writeUInt32BE(z.length, 2 + name.length);
    parts.push(head, z);
  }
  if (packed.length === 0 || packed.length > 0xffff)
    throw new RangeError(`a bundle holds 1 to 65535 files, got ${packed.length}`);
  const countBuf = Buffer.alloc(2);
  countBuf.writeUInt16BE(packed.length, 0);
  return Buffer.concat([countBuf, ...parts]);
}
