// Hostile files for the decode-budget tests: compressed streams that inflate to far more than they
// weigh, built in milliseconds. A 1 MiB run of zeros deflated with a full flush ends on a byte boundary
// with an empty window, so the same bytes repeated K times are a valid deflate stream of K MiB of zeros.
import { readFileSync, writeFileSync } from 'node:fs';
import { constants, crc32, deflateRawSync } from 'node:zlib';

const MiB = 1024 * 1024;

/** Raw deflate of `mib` MiB of zeros (valid, final block included). */
function zerosRaw(mib: number): Buffer {
  const chunk = deflateRawSync(Buffer.alloc(MiB), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const end = deflateRawSync(Buffer.alloc(0));
  return Buffer.concat([...Array.from({ length: mib }, () => chunk), end]);
}

/** A zlib stream (RFC 1950) inflating to `mib` MiB of zeros, checksum and all. */
export function zlibBomb(mib: number): Buffer {
  const adler = Buffer.alloc(4);
  // Adler-32 of n zeros: a stays 1, b gains 1 a byte.
  adler.writeUInt32BE(((((mib * MiB) % 65521) << 16) | 1) >>> 0);
  return Buffer.concat([Buffer.from([0x78, 0xda]), zerosRaw(mib), adler]);
}

/** A gzip member (RFC 1952) inflating to `mib` MiB of zeros, CRC and size included. */
export function gzipBomb(mib: number): Buffer {
  const zero = Buffer.alloc(MiB);
  let crc = 0;
  for (let i = 0; i < mib; i++) crc = crc32(zero, crc);
  const tail = Buffer.alloc(8);
  tail.writeUInt32LE(crc >>> 0, 0);
  tail.writeUInt32LE((mib * MiB) % 2 ** 32, 4);
  return Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]), zerosRaw(mib), tail]);
}

/** `.nitro` container bytes around members already packed, any name (the writer refuses unsafe ones). */
export function rawBundle(members: [string, Uint8Array][]): Buffer {
  const parts: Buffer[] = [Buffer.from([members.length >> 8, members.length & 0xff])];
  for (const [name, data] of members) {
    const head = Buffer.alloc(2 + name.length + 4);
    head.writeUInt16BE(name.length, 0);
    head.write(name, 2, 'latin1');
    head.writeUInt32BE(data.length, 2 + name.length);
    parts.push(head, Buffer.from(data));
  }
  return Buffer.concat(parts);
}

/** Packed members of a `.nitro` file as they are (no inflating). */
function packedMembers(bundle: Buffer): [string, Buffer][] {
  const out: [string, Buffer][] = [];
  let o = 2;
  for (let i = bundle.readUInt16BE(0); i > 0; i--) {
    const n = bundle.readUInt16BE(o);
    const name = bundle.toString('latin1', o + 2, o + 2 + n);
    const len = bundle.readUInt32BE(o + 2 + n);
    out.push([name, bundle.subarray(o + 6 + n, o + 6 + n + len)]);
    o += 6 + n + len;
  }
  return out;
}

/** Rewrites a `.nitro` file with its JSON member replaced by a zlib stream inflating to `mib` MiB (the bomb: 1536). */
export function bombNitroFile(file: string, mib = 1536): void {
  const members = packedMembers(readFileSync(file)).map(([name, data]): [string, Uint8Array] => [
    name,
    name.endsWith('.json') ? zlibBomb(mib) : data,
  ]);
  writeFileSync(file, rawBundle(members));
}
