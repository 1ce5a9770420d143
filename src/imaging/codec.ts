// PNG/WebP decode and encode through sharp (libvips). Fixed options keep the bytes deterministic.
import sharp, { type OutputInfo, type Sharp } from 'sharp';
import { type RgbaImage } from './image.js';
import { decodePngSync, isPng } from './png.js';
import { decodeBudget, overBudget } from './decode-budget.js';

// One libvips thread per call: our callers already run in parallel (worker threads, request handlers).
sharp.concurrency(1);
sharp.cache(false);

/**
 * Decodes through libvips within the decode budget's pixels: libvips reads the header first and refuses
 * a larger image before allocating it (its own default allows 268 M pixels, a gigabyte of RGBA).
 */
async function decodeWithSharp(data: Uint8Array): Promise<RgbaImage> {
  const { pixels } = decodeBudget();
  let out: { data: Buffer; info: OutputInfo };
  try {
    out = await sharp(data, { limitInputPixels: pixels }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  } catch (e) {
    if (/pixel limit/i.test((e as Error).message))
      throw new RangeError(overBudget('the image', `${pixels} pixels an image`));
    throw e;
  }
  const { data: raw, info } = out;
  if (info.channels !== 4) throw new Error(`expected 4 channels after decoding, got ${info.channels}`);
  return { width: info.width, height: info.height, data: new Uint8Array(raw.buffer, raw.byteOffset, raw.length) };
}

export async function decodeImage(data: Uint8Array): Promise<RgbaImage> {
  // PNGs (spritesheets, sprites) decode in-thread; JPEG, WebP and the rest go to libvips.
  if (isPng(data)) return decodePngSync(data);
  return decodeWithSharp(data);
}

/**
 * Decodes through libvips whatever its size: for spritesheets (tens of thousands of pixels) libvips's C
 * decoder costs about half of pngjs's in-thread one, hand-off included. 16-bit PNGs still go to pngjs,
 * which scales them to 8 bits (libvips would clip).
 */
export async function decodeImageNative(data: Uint8Array): Promise<RgbaImage> {
  if (isPng(data) && (data.length < 25 || data[24] !== 8)) return decodePngSync(data);
  return decodeWithSharp(data);
}

/** Our own decoded or drawn pixels going out (sharp's default pixel limit stands: nothing here is read from a file). */
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

/**
 * Lossless WebP (furni bundle atlases). Effort 1 with quality 50: on real furni atlases effort 4 cost
 * about twice the CPU for the same size, and quality 50 (in lossless mode: how hard the encoder searches)
 * another sixth less for 4 % more bytes; the atlas encode is still the largest part of building an item.
 */
export async function encodeWebpLossless(img: RgbaImage): Promise<Buffer> {
  return rawInput(img).webp({ lossless: true, effort: 1, quality: 50, exact: true }).toBuffer();
}

/**
 * A PNG of `box` × `box` with the image centred in it: scaled down (area-averaged, aspect kept) when larger,
 * never enlarged; transparent around it. For thumbnails of a fixed size.
 */
export async function encodePngInSquare(img: RgbaImage, box: number, opts: PngOptions = {}): Promise<Buffer> {
  const scale = Math.min(1, box / img.width, box / img.height);
  const width = Math.max(1, Math.min(box, Math.round(img.width * scale)));
  const height = Math.max(1, Math.min(box, Math.round(img.height * scale)));
  let inner = rawInput(img);
  if (width !== img.width || height !== img.height)
    inner = sharp(await inner.resize(width, height, { fit: 'fill', kernel: 'mitchell' }).raw().toBuffer(), {
      raw: { width, height, channels: 4 },
    });
  const left = Math.floor((box - width) / 2);
  const top = Math.floor((box - height) / 2);
  return inner
    .extend({
      left,
      right: box - width - left,
      top,
      bottom: box - height - top,
      background: { r: 0, g: 0, b: 0, alpha: 0 },
    })
    .png({ compressionLevel: opts.compressionLevel ?? 9, adaptiveFiltering: false, palette: false })
    .toBuffer();
}
