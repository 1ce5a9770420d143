// A synchronous PNG codec for the common small-image case (8-bit RGBA/RGB/palette, non-interlaced).
// Each call through sharp hands work to the thread pool and back, which costs far more than the work
// itself for the tiny sprites and stills the furni build handles by the thousand. Anything this codec
// does not cover returns null from the decoder so the caller can fall back to sharp.
import { deflateSync, inflateSync, crc32 } from 'node:zlib';
import { type RgbaImage } from './image.js';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)) >>> 0, 8 + data.length);
  return out;
}

/**
 * Encodes straight RGBA as an 8-bit RGBA PNG: no row filter (pixel art compresses best unfiltered),
 * zlib at `level` (default 9). Same pixels → same bytes.
 */
export function encodePngSync(img: RgbaImage, level = 9): Buffer {
  const { width, height, data } = img;
  if (width === 0 || height === 0) throw new RangeError('cannot encode an empty image');
  const stride = width * 4;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) raw.set(data.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level })), chunk('IEND', new Uint8Array(0))]);
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/**
 * Decodes an 8-bit, non-interlaced PNG of colour type 6 (RGBA), 2 (RGB, no tRNS) or 3 (palette) to
 * straight RGBA. Returns null for anything else (other depths, grey, interlace, a bad CRC, a stream
 * that does not inflate to the expected size) so the caller can hand it to a full decoder.
 */
export function decodePngSync(buf: Uint8Array): RgbaImage | null {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.length < 8 + 25 || !b.subarray(0, 8).equals(SIGNATURE)) return null;
  let o = 8;
  let width = 0;
  let height = 0;
  let colorType = -1;
  let palette: Buffer | undefined;
  let trns: Buffer | undefined;
  const idat: Buffer[] = [];
  let ended = false;
  while (o + 12 <= b.length) {
    const len = b.readUInt32BE(o);
    if (o + 12 + len > b.length) return null;
    const type = b.toString('latin1', o + 4, o + 8);
    const body = b.subarray(o + 8, o + 8 + len);
    if ((crc32(b.subarray(o + 4, o + 8 + len)) >>> 0) !== b.readUInt32BE(o + 8 + len)) return null;
    if (type === 'IHDR') {
      if (len !== 13) return null;
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      colorType = body[9]!;
      if (body[8] !== 8 || body[10] !== 0 || body[11] !== 0 || body[12] !== 0) return null;
      if (colorType !== 6 && colorType !== 2 && colorType !== 3) return null;
    } else if (type === 'PLTE') palette = body;
    else if (type === 'tRNS') trns = body;
    else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') {
      ended = true;
      break;
    }
    o += 12 + len;
  }
  if (!ended || width === 0 || height === 0 || idat.length === 0) return null;
  if (colorType === 2 && trns) return null;
  if (colorType === 3 && !palette) return null;
  const bpp = colorType === 6 ? 4 : colorType === 2 ? 3 : 1;
  const stride = width * bpp;
  let raw: Buffer;
  try {
    raw = inflateSync(Buffer.concat(idat));
  } catch {
    return null;
  }
  if (raw.length !== (stride + 1) * height) return null;
  // Unfilter in place: row y's bytes start at y*(stride+1)+1.
  for (let y = 0; y < height; y++) {
    const at = y * (stride + 1) + 1;
    const prev = at - (stride + 1);
    const filter = raw[at - 1]!;
    if (filter > 4) return null;
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? raw[at + i - bpp]! : 0;
      const up = y > 0 ? raw[prev + i]! : 0;
      const c = i >= bpp && y > 0 ? raw[prev + i - bpp]! : 0;
      const x = raw[at + i]!;
      raw[at + i] = (filter === 0 ? x : filter === 1 ? x + a : filter === 2 ? x + up : filter === 3 ? x + ((a + up) >> 1) : x + paeth(a, up, c)) & 0xff;
    }
  }
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const at = y * (stride + 1) + 1;
    const d = y * width * 4;
    if (colorType === 6) out.set(raw.subarray(at, at + stride), d);
    else if (colorType === 2) {
      for (let x = 0; x < width; x++) {
        out[d + x * 4] = raw[at + x * 3]!;
        out[d + x * 4 + 1] = raw[at + x * 3 + 1]!;
        out[d + x * 4 + 2] = raw[at + x * 3 + 2]!;
        out[d + x * 4 + 3] = 255;
      }
    } else {
      for (let x = 0; x < width; x++) {
        const idx = raw[at + x]!;
        if (idx * 3 + 2 >= palette!.length) return null;
        out[d + x * 4] = palette![idx * 3]!;
        out[d + x * 4 + 1] = palette![idx * 3 + 1]!;
        out[d + x * 4 + 2] = palette![idx * 3 + 2]!;
        out[d + x * 4 + 3] = trns && idx < trns.length ? trns[idx]! : 255;
      }
    }
  }
  return { width, height, data: out };
}
