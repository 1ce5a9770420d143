// The `.nitro` container: big-endian u16 file count; per file u16 name length, ASCII name,
// u32 data length, zlib-deflated data. Same layout as the bundles real Nitro hotels serve.
import { deflateSync, inflateSync } from 'node:zlib';
import { FormatError } from './errors.js';

export class NitroBundleError extends FormatError {
  constructor(file: string, reason: string, offset?: number) {
    super('nitro bundle', file, reason, offset);
    this.name = 'NitroBundleError';
  }
}

/** Reads the files of a bundle (`file` only names it in errors); `only` limits which are inflated, the rest are skipped. */
export function readNitroBundle(buf: Uint8Array, file = '<buffer>', only?: (name: string) => boolean): Map<string, Buffer> {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.length);
  if (b.length < 2) throw new NitroBundleError(file, 'truncated: no file count', 0);
  const count = b.readUInt16BE(0);
  if (count === 0) throw new NitroBundleError(file, 'bad file count 0', 0);
  let o = 2;
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (o + 2 > b.length) throw new NitroBundleError(file, `truncated: file ${i + 1} of ${count} has no name length`, o);
    const nameLength = b.readUInt16BE(o);
    o += 2;
    if (nameLength === 0 || o + nameLength > b.length) {
      throw new NitroBundleError(file, `name length ${nameLength} of file ${i + 1} runs past the end`, o - 2);
    }
    const name = b.toString('latin1', o, o + nameLength);
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
    try {
      data = inflateSync(b.subarray(o, o + dataLength));
    } catch (e) {
      throw new NitroBundleError(file, `data of ${name} does not inflate: ${(e as Error).message}`, o);
    }
    o += dataLength;
    if (files.has(name)) throw new NitroBundleError(file, `duplicate file name ${name}`, o);
    files.set(name, data);
  }
  if (o !== b.length) throw new NitroBundleError(file, `${b.length - o} trailing bytes after ${count} files`, o);
  return files;
}

/** Writes a bundle; files keep the order given so output is deterministic. */
export function writeNitroBundle(files: Iterable<[string, Uint8Array]>): Buffer {
  const parts: Buffer[] = [];
  let count = 0;
  for (const [name, data] of files) {
    if (!/^[\x20-\x7e]+$/.test(name) || name.length > 0xffff) throw new RangeError(`invalid bundle file name ${JSON.stringify(name)}`);
    const z = deflateSync(data, { level: 9 });
    const head = Buffer.alloc(2 + name.length + 4);
    head.writeUInt16BE(name.length, 0);
    head.write(name, 2, 'latin1');
    head.writeUInt32BE(z.length, 2 + name.length);
    parts.push(head, z);
    count++;
  }
  if (count === 0 || count > 0xffff) throw new RangeError(`a bundle holds 1 to 65535 files, got ${count}`);
  const countBuf = Buffer.alloc(2);
  countBuf.writeUInt16BE(count, 0);
  return Buffer.concat([countBuf, ...parts]);
}
