// In-thread PNG decode and the avatar's indexed encode. sharp hands every call to libuv's thread pool
// and back, which costs more than the work itself for the tiny sprites, stills and avatar frames we
// handle by the thousand: pngjs decodes synchronously; stills and icons are encoded by png-compact.ts.
import { deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { type RgbaImage } from './image.js';
import { PNG_SIGNATURE, pngChunk } from './png-chunks.js';

export function isPng(buf: Uint8Array): boolean {
  return buf.length >= 8 && Buffer.from(buf.buffer, buf.byteOffset, 8).equals(PNG_SIGNATURE);
}

/** Any PNG (every colour type and depth, interlaced or not) to straight 8-bit RGBA; throws on a corrupt file. */
export function decodePngSync(buf: Uint8Array): RgbaImage {
  const png = PNG.sync.read(Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength));
  return { width: png.width, height: png.height, data: new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.length) };
}

/**
 * Indexed PNGs (colour type 3) sharing one palette, for frames that together use at most 256 colours,
 * which avatars nearly always do: a quarter of the RGBA bytes to deflate, so faster and smaller. Every
 * fully transparent pixel maps to entry 0; entries follow first appearance in scan order
 * (deterministic). Returns null when the frames need more than 256 colours.
 */
export function encodeIndexedPngs(frames: RgbaImage[], level = 6): Buffer[] | null {
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
      PNG_SIGNATURE,
      pngChunk('IHDR', ihdr),
      pngChunk('PLTE', plte),
      ...(last > 0 ? [pngChunk('tRNS', trns.subarray(0, last))] : []),
      pngChunk('IDAT', deflateSync(raw, { level })),
      pngChunk('IEND', Buffer.alloc(0)),
    ]),
  );
}
