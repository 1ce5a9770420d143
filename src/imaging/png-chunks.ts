// PNG chunk framing (length, type, data, CRC-32), shared by the indexed encoder and APNG assembly.
import { crc32 } from 'node:zlib';

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface PngChunk {
  type: string;
  data: Buffer;
}

export function pngChunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)) >>> 0, 8 + data.length);
  return out;
}

/** Splits a PNG file into its chunks, checking every CRC; stops after IEND. */
export function readPngChunks(png: Uint8Array): PngChunk[] {
  const buf = Buffer.from(png.buffer, png.byteOffset, png.length);
  if (buf.length < 8 || !buf.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('not a PNG file');
  const out: PngChunk[] = [];
  let pos = 8;
  while (pos + 12 <= buf.length) {
    const len = buf.readUInt32BE(pos);
    if (pos + 12 + len > buf.length) throw new Error(`PNG chunk at ${pos} runs past the end`);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (crc32(buf.subarray(pos + 4, pos + 8 + len)) >>> 0 !== buf.readUInt32BE(pos + 8 + len))
      throw new Error(`PNG chunk ${type} has a bad CRC`);
    out.push({ type, data });
    pos += 12 + len;
    if (type === 'IEND') break;
  }
  return out;
}
