// APNG assembly from PNG-encoded frames: same signature and IHDR as a PNG, an acTL (loop forever),
// and per frame an fcTL (full canvas, 1/6 s, replace) followed by the frame's image data (IDAT for
// the first frame, fdAT for the rest). Deterministic: same frames → same bytes.
import { deflateSync } from 'node:zlib';
import { encodePng, type PngOptions } from './codec.js';
import { type RgbaImage } from './image.js';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(buf: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  for (let i = 0; i < buf.length; i++) c = CRC_TABLE[(c ^ buf[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

export interface PngChunk {
  type: string;
  data: Buffer;
}

/** Splits a PNG file into its chunks (CRC checked). */
export function readPngChunks(png: Uint8Array): PngChunk[] {
  const buf = Buffer.from(png.buffer, png.byteOffset, png.length);
  if (buf.length < 8 || !buf.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG file');
  const out: PngChunk[] = [];
  let pos = 8;
  while (pos + 12 <= buf.length) {
    const len = buf.readUInt32BE(pos);
    if (pos + 12 + len > buf.length) throw new Error(`PNG chunk at ${pos} runs past the end`);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    const crc = buf.readUInt32BE(pos + 8 + len);
    if (crc32(buf.subarray(pos + 4, pos + 8 + len)) !== crc) throw new Error(`PNG chunk ${type} has a bad CRC`);
    out.push({ type, data });
    pos += 12 + len;
    if (type === 'IEND') break;
  }
  return out;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export interface ApngOptions extends PngOptions {
  /** Frame delay as a fraction; default 1/6 s (166.67 ms). */
  delayNum?: number;
  delayDen?: number;
  /** 0 = loop forever. */
  plays?: number;
}

/** Builds an APNG from already-encoded PNG frames of one size. */
export function assembleApng(pngFrames: Uint8Array[], opts: ApngOptions = {}): Buffer {
  if (pngFrames.length === 0) throw new RangeError('an APNG needs at least one frame');
  const delayNum = opts.delayNum ?? 1;
  const delayDen = opts.delayDen ?? 6;
  const parsed = pngFrames.map((f) => readPngChunks(f));
  const ihdr = parsed[0]!.find((c) => c.type === 'IHDR');
  if (!ihdr) throw new Error('first frame has no IHDR');
  const width = ihdr.data.readUInt32BE(0);
  const height = ihdr.data.readUInt32BE(4);
  const parts: Buffer[] = [SIGNATURE, chunk('IHDR', ihdr.data)];
  const actl = Buffer.alloc(8);
  actl.writeUInt32BE(pngFrames.length, 0);
  actl.writeUInt32BE(opts.plays ?? 0, 4);
  parts.push(chunk('acTL', actl));
  // Palette and transparency (indexed frames share frame 0's), before any image data.
  for (const c of parsed[0]!) if (c.type === 'PLTE' || c.type === 'tRNS') parts.push(chunk(c.type, c.data));
  let seq = 0;
  parsed.forEach((chunks, i) => {
    const h = chunks.find((c) => c.type === 'IHDR')!;
    if (!h.data.equals(ihdr.data)) throw new Error(`frame ${i} differs in size or format from frame 0`);
    const fctl = Buffer.alloc(26);
    fctl.writeUInt32BE(seq++, 0);
    fctl.writeUInt32BE(width, 4);
    fctl.writeUInt32BE(height, 8);
    fctl.writeUInt32BE(0, 12);
    fctl.writeUInt32BE(0, 16);
    fctl.writeUInt16BE(delayNum, 20);
    fctl.writeUInt16BE(delayDen, 22);
    fctl.writeUInt8(0, 24); // dispose: none (every frame covers the whole canvas)
    fctl.writeUInt8(0, 25); // blend: source, so transparent pixels replace the previous frame
    parts.push(chunk('fcTL', fctl));
    for (const c of chunks) {
      if (c.type !== 'IDAT') continue;
      if (i === 0) parts.push(chunk('IDAT', c.data));
      else {
        const s = Buffer.alloc(4);
        s.writeUInt32BE(seq++, 0);
        parts.push(chunk('fdAT', Buffer.concat([s, c.data])));
      }
    }
  });
  parts.push(chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}

/** Encodes RGBA frames (all one size) as an APNG. */
export async function encodeApng(frames: RgbaImage[], opts: ApngOptions = {}): Promise<Buffer> {
  const pngs = await Promise.all(frames.map((f) => encodePng(f, opts)));
  return assembleApng(pngs, opts);
}

/**
 * Indexed PNG (colour type 3) for frames that together use at most 256 colours, which avatars
 * nearly always do: a quarter of the RGBA bytes to deflate, so faster and smaller. Every fully
 * transparent pixel maps to entry 0; entries follow first appearance in scan order (deterministic).
 * Returns null when the frames need more than 256 colours.
 */
export function encodeIndexedFrames(frames: RgbaImage[], level = 6): Buffer[] | null {
  const first = frames[0]!;
  const index = new Map<number, number>([[0, 0]]);
  const colours: number[] = [0];
  const indexed: Uint8Array[] = [];
  for (const f of frames) {
    if (f.width !== first.width || f.height !== first.height) throw new Error('frames differ in size');
    const px = new Uint32Array(f.data.buffer, f.data.byteOffset, f.width * f.height);
    const stride = f.width + 1;
    const raw = new Uint8Array(stride * f.height);
    let prev = 0;
    let prevIndex = 0;
    for (let y = 0; y < f.height; y++) {
      // filter byte 0 (none) per row (already zero), then one index per pixel
      const row = y * f.width;
      const out = y * stride + 1;
      for (let x = 0; x < f.width; x++) {
        let v = px[row + x]!;
        // the Uint32 view is little-endian on every platform Node runs on: alpha is the top byte
        if (v >>> 24 === 0) v = 0;
        if (v !== prev) {
          let i = index.get(v);
          if (i === undefined) {
            if (colours.length === 256) return null;
            i = colours.length;
            index.set(v, i);
            colours.push(v);
          }
          prev = v;
          prevIndex = i;
        }
        raw[out + x] = prevIndex;
      }
    }
    indexed.push(raw);
  }
  const plte = Buffer.alloc(colours.length * 3);
  const trns = Buffer.alloc(colours.length);
  colours.forEach((v, i) => {
    // v is the little-endian view of R,G,B,A bytes
    plte[i * 3] = v & 0xff;
    plte[i * 3 + 1] = (v >>> 8) & 0xff;
    plte[i * 3 + 2] = (v >>> 16) & 0xff;
    trns[i] = (v >>> 24) & 0xff;
  });
  let last = trns.length;
  while (last > 0 && trns[last - 1] === 255) last--;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(first.width, 0);
  ihdr.writeUInt32BE(first.height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 3; // indexed colour
  return indexed.map((raw) =>
    Buffer.concat([
      SIGNATURE,
      chunk('IHDR', ihdr),
      chunk('PLTE', plte),
      ...(last > 0 ? [chunk('tRNS', trns.subarray(0, last))] : []),
      chunk('IDAT', deflateSync(raw, { level })),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

/** PNG for one frame, APNG for several; indexed when the frames fit 256 colours, else RGBA via sharp. */
export async function encodeFrames(frames: RgbaImage[], opts: ApngOptions = {}): Promise<Buffer> {
  if (frames.length === 0) throw new RangeError('no frames to encode');
  const indexed = encodeIndexedFrames(frames, opts.compressionLevel ?? 6);
  if (indexed) return frames.length === 1 ? indexed[0]! : assembleApng(indexed, opts);
  return frames.length === 1 ? encodePng(frames[0]!, opts) : encodeApng(frames, opts);
}
