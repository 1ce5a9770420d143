// A small SWF writer: builds asset-library SWFs (bitmaps in every format, binary data, symbol classes
// with aliases) as FWS, CWS (zlib) or ZWS (LZMA). Pure (buffers in, buffers out) and deterministic.
// The reader's tests use it on files we make, and the sample kit writes its Flash layout with it.
import { deflateSync } from 'node:zlib';
import { compressSync as lzmaCompress } from '@napi-rs/lzma/lzma';
import { type RgbaImage } from '../../imaging/image.js';

export type SwfBitmap =
  /** DefineBitsLossless (20, no alpha) or DefineBitsLossless2 (36, alpha); format 4 exists only in 20. */
  | { kind: 'lossless'; id: number; format: 3 | 4 | 5; alpha: boolean; image: RgbaImage }
  /** DefineBitsJPEG2 (21): JPEG/PNG/GIF bytes, optionally behind the old erroneous FF D9 FF D8 header. */
  | { kind: 'jpeg2'; id: number; data: Uint8Array; erroneousHeader?: boolean }
  /** DefineBitsJPEG3 (35): JPEG bytes plus one alpha byte a pixel (zlib-compressed by the writer). */
  | { kind: 'jpeg3'; id: number; data: Uint8Array; alpha: Uint8Array };

export interface SwfContent {
  version?: number;
  bitmaps?: SwfBitmap[];
  binaries?: { id: number; data: Uint8Array | string }[];
  /** SymbolClass entries in order; repeat an id to give it several names. */
  symbols?: { id: number; name: string }[];
  /** Raw tags written before the End tag (e.g. unknown codes the reader must skip). */
  extraTags?: { code: number; body: Uint8Array }[];
}

export function tag(code: number, body: Uint8Array, forceLong = false): Buffer {
  if (body.length < 0x3f && !forceLong) {
    const h = Buffer.alloc(2);
    h.writeUInt16LE((code << 6) | body.length);
    return Buffer.concat([h, body]);
  }
  const h = Buffer.alloc(6);
  h.writeUInt16LE((code << 6) | 0x3f);
  h.writeUInt32LE(body.length, 2);
  return Buffer.concat([h, body]);
}

function u16(v: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(v);
  return b;
}

/**
 * Flash stores alpha bitmaps premultiplied. Of the stored values near c·a/255, take one that a reader
 * un-premultiplying with rounding (round(p·255/a)) turns back into exactly c, when one exists: then a
 * semi-transparent pixel survives the trip whenever the format can hold it.
 */
function pm(c: number, a: number): number {
  if (a === 0) return 0;
  const p = Math.round((c * a) / 255);
  for (const q of [p, p - 1, p + 1]) if (q >= 0 && q <= a && Math.min(255, Math.round((q * 255) / a)) === c) return q;
  return p;
}

function losslessBody(b: Extract<SwfBitmap, { kind: 'lossless' }>): Buffer {
  const { image, format, alpha } = b;
  const { width, height, data } = image;
  const head = [u16(b.id), Buffer.from([format]), u16(width), u16(height)];
  let pixels: Buffer;
  if (format === 3) {
    const colours: number[] = [];
    const indexOf = new Map<number, number>();
    const stride = (width + 3) & ~3;
    const idx = Buffer.alloc(stride * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const p = (y * width + x) * 4;
        const key =
          ((data[p]! << 24) | (data[p + 1]! << 16) | (data[p + 2]! << 8) | (alpha ? data[p + 3]! : 255)) >>> 0;
        let i = indexOf.get(key);
        if (i === undefined) {
          i = colours.length;
          if (i > 255) throw new RangeError('format 3 holds at most 256 colours');
          colours.push(key);
          indexOf.set(key, i);
        }
        idx[y * stride + x] = i;
      }
    }
    if (colours.length === 0) colours.push(0);
    const table = Buffer.alloc(colours.length * (alpha ? 4 : 3));
    colours.forEach((k, i) => {
      const r = k >>> 24,
        g = (k >>> 16) & 255,
        bl = (k >>> 8) & 255,
        a = k & 255;
      if (alpha) table.set([pm(r, a), pm(g, a), pm(bl, a), a], i * 4);
      else table.set([r, g, bl], i * 3);
    });
    head.push(Buffer.from([colours.length - 1]));
    pixels = Buffer.concat([table, idx]);
  } else if (format === 4) {
    if (alpha) throw new RangeError('format 4 exists only in DefineBitsLossless (no alpha)');
    const stride = (width * 2 + 3) & ~3;
    pixels = Buffer.alloc(stride * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const p = (y * width + x) * 4;
        pixels.writeUInt16BE(
          ((data[p]! >> 3) << 10) | ((data[p + 1]! >> 3) << 5) | (data[p + 2]! >> 3),
          y * stride + x * 2,
        );
      }
    }
  } else {
    pixels = Buffer.alloc(width * height * 4);
    for (let i = 0; i < width * height; i++) {
      const p = i * 4;
      const a = alpha ? data[p + 3]! : 255;
      if (alpha) pixels.set([a, pm(data[p]!, a), pm(data[p + 1]!, a), pm(data[p + 2]!, a)], p);
      else pixels.set([0, data[p]!, data[p + 1]!, data[p + 2]!], p);
    }
  }
  return Buffer.concat([...head, deflateSync(pixels)]);
}

function bitmapTag(b: SwfBitmap): Buffer {
  if (b.kind === 'lossless') return tag(b.alpha ? 36 : 20, losslessBody(b), true);
  if (b.kind === 'jpeg2') {
    const data = b.erroneousHeader
      ? Buffer.concat([Buffer.from([0xff, 0xd9, 0xff, 0xd8]), b.data])
      : Buffer.from(b.data);
    return tag(21, Buffer.concat([u16(b.id), data]), true);
  }
  const len = Buffer.alloc(4);
  len.writeUInt32LE(b.data.length);
  return tag(35, Buffer.concat([u16(b.id), len, b.data, deflateSync(b.alpha)]), true);
}

/** The uncompressed file (FWS) for the content. */
export function buildSwfBody(content: SwfContent): Buffer {
  const tags: Buffer[] = [];
  // FileAttributes and SetBackgroundColor: real files start with them; the reader must skip them.
  tags.push(tag(69, Buffer.from([0x08, 0, 0, 0])));
  tags.push(tag(9, Buffer.from([255, 255, 255])));
  for (const b of content.bitmaps ?? []) tags.push(bitmapTag(b));
  for (const bin of content.binaries ?? []) {
    const data = typeof bin.data === 'string' ? Buffer.from(bin.data, 'utf8') : Buffer.from(bin.data);
    tags.push(tag(87, Buffer.concat([u16(bin.id), Buffer.alloc(4), data]), true));
  }
  for (const t of content.extraTags ?? []) tags.push(tag(t.code, t.body));
  if (content.symbols?.length) {
    const parts: Buffer[] = [u16(content.symbols.length)];
    for (const s of content.symbols) parts.push(u16(s.id), Buffer.from(s.name + '\0', 'utf8'));
    tags.push(tag(76, Buffer.concat(parts)));
  }
  tags.push(tag(1, Buffer.alloc(0))); // ShowFrame
  tags.push(Buffer.from([0, 0])); // End
  // RECT with nbits 15: (0, 0)-(1000, 1000) twips, 5 + 60 bits → 9 bytes.
  const rect = Buffer.from([0x78, 0x00, 0x00, 0x1f, 0x40, 0x00, 0x00, 0x7d, 0x00]);
  const movie = Buffer.concat([rect, u16(24 << 8), u16(1), ...tags]);
  const head = Buffer.alloc(8);
  head.write('FWS', 0, 'latin1');
  head[3] = content.version ?? 10;
  head.writeUInt32LE(8 + movie.length, 4);
  return Buffer.concat([head, movie]);
}

export function writeSwf(content: SwfContent, compression: 'none' | 'zlib' | 'lzma' = 'zlib'): Buffer {
  const plain = buildSwfBody(content);
  if (compression === 'none') return plain;
  const head = Buffer.from(plain.subarray(0, 8));
  if (compression === 'zlib') {
    head.write('CWS', 0, 'latin1');
    return Buffer.concat([head, deflateSync(plain.subarray(8))]);
  }
  // ZWS: "ZWS", version, u32 uncompressed length, u32 compressed length, 5 LZMA props, LZMA data.
  const alone = lzmaCompress(plain.subarray(8)); // props(5) + u64 size + data
  const data = alone.subarray(13);
  const zhead = Buffer.alloc(17);
  zhead.write('ZWS', 0, 'latin1');
  zhead[3] = plain[3]!;
  zhead.writeUInt32LE(plain.length, 4);
  zhead.writeUInt32LE(data.length, 8);
  alone.copy(zhead, 12, 0, 5);
  return Buffer.concat([zhead, data]);
}

/** An image from a per-pixel function, for building test bitmaps. */
export function makeImage(
  width: number,
  height: number,
  px: (x: number, y: number) => [number, number, number, number],
): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(px(x, y), (y * width + x) * 4);
  return { width, height, data };
}
