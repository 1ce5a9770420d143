// In-thread PNG decode and the avatar's indexed encode. sharp hands every call to libuv's thread pool
// and back, which costs more than the work itself for the tiny sprites, stills and avatar frames we
// handle by the thousand: pngjs decodes synchronously; stills and icons are encoded by png-compact.ts.
import { crc32, deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { type RgbaImage } from './image.js';
import { PNG_SIGNATURE } from './png-chunks.js';
import { decodeBudget, inflateWithin, overBudget } from './decode-budget.js';

export function isPng(buf: Uint8Array): boolean {
  return buf.length >= 8 && Buffer.from(buf.buffer, buf.byteOffset, 8).equals(PNG_SIGNATURE);
}

/** Any PNG (every colour type and depth, interlaced or not) to straight 8-bit RGBA; throws on a corrupt file. */
export function decodePngSync(buf: Uint8Array): RgbaImage {
  checkPngWithinBudget(buf);
  const png = PNG.sync.read(Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength));
  return {
    width: png.width,
    height: png.height,
    data: new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.length),
  };
}

/**
 * Refuses a PNG whose header asks for more pixels than the decode budget, before pngjs allocates them.
 * pngjs caps its inflate at the header's size only for non-interlaced images, so an interlaced one's
 * pixel data is inflated here first, within twice its raw size (the seven passes add a filter byte a row).
 */
function checkPngWithinBudget(buf: Uint8Array): void {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.length < 33 || b.toString('latin1', 12, 16) !== 'IHDR') return; // pngjs reports the corrupt file itself
  const width = b.readUInt32BE(16);
  const height = b.readUInt32BE(20);
  const { pixels } = decodeBudget();
  if (width * height > pixels) throw new RangeError(overBudget(`PNG ${width}x${height}`, `${pixels} pixels an image`));
  if (b[28] !== 1) return;
  const idat: Buffer[] = [];
  for (let o = 8; o + 8 <= b.length; ) {
    const len = b.readUInt32BE(o);
    if (b.toString('latin1', o + 4, o + 8) === 'IDAT') idat.push(b.subarray(o + 8, Math.min(b.length, o + 8 + len)));
    o += 12 + len;
  }
  const rawBytes = Math.ceil((width * 64) / 8) * height + height;
  try {
    inflateWithin(Buffer.concat(idat), 2 * rawBytes + 1024);
  } catch (e) {
    if ((e as Error).name === 'InflateBudgetError')
      throw new RangeError(`PNG ${width}x${height}: its pixel data inflates past what its header allows; refused`);
    // A corrupt stream: pngjs says so in its own words.
  }
}

/** Slots of the colour → palette index table: a power of two, four times the 256 colours it can hold. */
const TABLE_SIZE = 1024;
const TABLE_MASK = TABLE_SIZE - 1;
// The table and palette are scratch, reset per call (encoding is synchronous): allocating typed arrays
// cost a third of indexing a size-m avatar.
const slotColour = new Uint32Array(TABLE_SIZE);
const slotIndex = new Int16Array(TABLE_SIZE);
const colours = new Uint32Array(256);
/**
 * zlib's output buffer: its default (16 KiB) is allocated afresh per call and is many times an avatar's
 * compressed size; a smaller one changes no byte of the stream (more chunks are joined when it overflows).
 * (A zlib stream kept and reset between images is not an option: its window keeps the last image's bytes,
 * which zlib's match search reads near the end of the input, and ~2 % of streams came out different.)
 */
export const DEFLATE_CHUNK = 2048;
let rows = new Uint8Array(0);
const plteBytes = Buffer.alloc(256 * 3);
const trnsBytes = Buffer.alloc(256);
const ihdrBytes = Buffer.alloc(13);

/** `length` zero bytes of scratch memory, valid until the next call. */
function scratchRows(length: number): Uint8Array {
  if (rows.length < length) rows = new Uint8Array(Math.max(length, 2 * rows.length));
  const out = rows.subarray(0, length);
  out.fill(0);
  return out;
}

/**
 * Indexed PNGs (colour type 3) sharing one palette, for frames that together use at most 256 colours,
 * which avatars nearly always do: a quarter of the RGBA bytes to deflate, so faster and smaller. Every
 * fully transparent pixel maps to entry 0; entries follow first appearance in scan order
 * (deterministic). Returns null when the frames need more than 256 colours. `anySize`: the frames may differ
 * in size (an APNG's sub-rectangle frames), each file with its own IHDR; else a frame of another size throws.
 */
export function encodeIndexedPngs(frames: RgbaImage[], level = 6, anySize = false): Buffer[] | null {
  const first = frames[0]!;
  // Colour → palette index in an open-addressing table on typed arrays: this lookup runs at every change
  // of colour along a row, and a Map made it most of an avatar's encode time.
  slotIndex.fill(-1);
  let count = 1;
  slotIndex[0] = 0; // entry 0 is transparent: colour 0, which hashes to slot 0
  const indexed: Uint8Array[] = [];
  for (const f of frames) {
    if (!anySize && (f.width !== first.width || f.height !== first.height)) throw new Error('frames differ in size');
    const px = new Uint32Array(f.data.buffer, f.data.byteOffset, f.width * f.height);
    const stride = f.width + 1;
    // filter byte 0 (none) per row and index 0 (transparent) everywhere until written; a still's rows
    // are deflated before this returns, so they go in scratch memory
    const raw = frames.length === 1 ? scratchRows(stride * f.height) : new Uint8Array(stride * f.height);
    let prev = 0;
    let prevIndex = 0;
    for (let y = 0; y < f.height; y++) {
      const row = y * f.width;
      const out = y * stride + 1;
      // A row the same as the one above (every other row of a 2x image) has the same indexes.
      if (y > 0 && sameRow(px, row - f.width, row, f.width)) {
        raw.copyWithin(out, out - stride, out - stride + f.width);
        continue;
      }
      for (let x = 0; x < f.width; x++) {
        const v = px[row + x]!;
        // the Uint32 view is little-endian on every platform Node runs on: alpha is the top byte, and a
        // fully transparent pixel (most of the canvas) keeps the 0 the row already holds
        if (v < 0x01000000) continue;
        if (v !== prev) {
          let home = Math.imul(v, 0x9e3779b1) >>> 22;
          let i: number;
          for (;;) {
            i = slotIndex[home]!;
            if (i < 0) {
              if (count === 256) return null;
              i = count++;
              slotIndex[home] = i;
              slotColour[home] = v;
              colours[i] = v;
              break;
            }
            if (slotColour[home] === v) break;
            home = (home + 1) & TABLE_MASK;
          }
          prev = v;
          prevIndex = i;
        }
        raw[out + x] = prevIndex;
      }
    }
    indexed.push(raw);
  }
  // The chunks are written into each file before this returns: their bytes go in scratch memory too.
  const plte = plteBytes.subarray(0, count * 3);
  const trns = trnsBytes.subarray(0, count);
  for (let i = 0; i < count; i++) {
    const v = colours[i]!;
    plte[i * 3] = v & 0xff;
    plte[i * 3 + 1] = (v >>> 8) & 0xff;
    plte[i * 3 + 2] = (v >>> 16) & 0xff;
    trns[i] = (v >>> 24) & 0xff;
  }
  let last = trns.length;
  while (last > 0 && trns[last - 1] === 255) last--;
  const ihdr = ihdrBytes;
  ihdr.writeUInt32BE(first.width, 0);
  ihdr.writeUInt32BE(first.height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 3; // indexed colour (compression, filter and interlace method stay 0)
  const chunks: [string, Uint8Array][] = [
    ['IHDR', ihdr],
    ['PLTE', plte],
  ];
  if (last > 0) chunks.push(['tRNS', trns.subarray(0, last)]);
  return indexed.map((raw, i) => {
    // (pngFile copies the chunks: the one IHDR scratch takes each frame's size in turn)
    ihdr.writeUInt32BE(frames[i]!.width, 0);
    ihdr.writeUInt32BE(frames[i]!.height, 4);
    return pngFile([...chunks, ['IDAT', deflateSync(raw, { level, chunkSize: DEFLATE_CHUNK })], ['IEND', EMPTY]]);
  });
}

const EMPTY = new Uint8Array(0);

/**
 * Whether `width` pixels at `a` and at `b` are equal (in JS: a native compare per row cost more than most rows take).
 */
function sameRow(px: Uint32Array, a: number, b: number, width: number): boolean {
  for (let i = 0; i < width; i++) if (px[a + i] !== px[b + i]) return false;
  return true;
}

/**
 * Signature and chunks written into one buffer (each chunk framed as pngChunk frames it). The buffer owns
 * its memory (not a slice of Node's shared pool), so a render worker can transfer it without a copy.
 */
function pngFile(chunks: [string, Uint8Array][]): Buffer {
  let size = PNG_SIGNATURE.length;
  for (const [, data] of chunks) size += 12 + data.length;
  const out = Buffer.allocUnsafeSlow(size);
  let at = PNG_SIGNATURE.copy(out, 0);
  for (const [type, data] of chunks) {
    out.writeUInt32BE(data.length, at);
    out.write(type, at + 4, 'latin1');
    out.set(data, at + 8);
    out.writeUInt32BE(crc32(out.subarray(at + 4, at + 8 + data.length)) >>> 0, at + 8 + data.length);
    at += 12 + data.length;
  }
  return out;
}
