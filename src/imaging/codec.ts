// PNG/WebP decode and encode through sharp (libvips). Fixed options keep the bytes deterministic.
import sharp, { type Sharp } from 'sharp';
import { type RgbaImage } from './image.js';
import { decodePngSync, isPng } from './png.js';

// One libvips thread per call: our callers already run in parallel (worker threads, request handlers).
sharp.concurrency(1);
sharp.cache(false);

export async function decodeImage(data: Uint8Array): Promise<RgbaImage> {
  // PNGs (spritesheets, sprites) decode in-thread; JPEG, WebP and the rest go to libvips.
  if (isPng(data)) return decodePngSync(data);
  const { data: raw, info } = await sharp(data).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 4) throw new Error(`expected 4 channels after decoding, got ${info.channels}`);
  return { width: info.width, height: info.height, data: new Uint8Array(raw.buffer, raw.byteOffset, raw.length) };
}

function rawInput(img: RgbaImage): Sharp {
  if (img.width === 0 || img.height === 0) throw new RangeError('cannot encode an empty image');
  return sharp(Buffer.from(img.data.buffer, img.data.byteOffset, img.data.length), {
    raw: { width: img.width, height: img.height, channels: 4 },
  });
}

export interface PngOptions {
  /** zlib level 0-9; 9 for published files, lower for live renders. */
  compressionLevel?: number;
}

export async function encodePng(img: RgbaImage, opts: PngOptions = {}): Promise<Buffer> {
  return rawInput(img)
    .png({ compressionLevel: opts.compressionLevel ?? 9, adaptiveFiltering: false, palette: false })
    .toBuffer();
}

export async function encodeWebpLossless(img: RgbaImage): Promise<Buffer> {
  return rawInput(img).webp({ lossless: true, effort: 4, exact: true }).toBuffer();
}
