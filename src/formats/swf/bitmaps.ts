// Pixel decoding for the SWF bitmap tags. Output is always straight (non-premultiplied) RGBA.
import { type RgbaImage, createImage } from '../../imaging/image.js';
import { decodeImage } from '../../imaging/codec.js';
import { SwfFormatError } from './swf-error.js';
import {
  decodeBudget,
  describeBytes,
  InflateBudgetError,
  inflateWithin,
  overBudget,
} from '../../imaging/decode-budget.js';

export const TAG_DEFINE_BITS_LOSSLESS = 20;
export const TAG_DEFINE_BITS_LOSSLESS2 = 36;
export const TAG_DEFINE_BITS_JPEG2 = 21;
export const TAG_DEFINE_BITS_JPEG3 = 35;

/** Flash stores alpha bitmaps premultiplied; undo it, rounding to the nearest value. Alpha 0 → all zero. */
function unpremultiply(c: number, a: number): number {
  if (a === 0) return 0;
  if (a === 255) return c;
  const v = Math.round((c * 255) / a);
  return Math.min(v, 255);
}

/**
 * Inflates `what` (a SWF body, a bitmap's pixels) stopping at `maxOutputLength`, the size its own header
 * gives: inflating past it is refused before more is allocated, whatever the stream would make.
 */
export function inflateOrThrow(
  data: Uint8Array,
  file: string,
  offset: number,
  what: string,
  maxOutputLength: number,
): Buffer {
  try {
    return inflateWithin(data, maxOutputLength);
  } catch (e) {
    if (e instanceof InflateBudgetError)
      throw new SwfFormatError(
        file,
        `${what}: inflates past the ${describeBytes(maxOutputLength)} its header gives; refused`,
        offset,
      );
    throw new SwfFormatError(file, `${what}: bad zlib stream (${(e as Error).message})`, offset);
  }
}

/**
 * DefineBitsLossless (20) / DefineBitsLossless2 (36) body after the character id.
 * `body` starts at the format byte; `offset` is its position in the (decompressed) file for errors.
 */
export function decodeLossless(code: number, body: Uint8Array, file: string, offset: number): RgbaImage {
  const withAlpha = code === TAG_DEFINE_BITS_LOSSLESS2;
  if (body.length < 5) throw new SwfFormatError(file, `bitmap tag too short (${body.length} bytes)`, offset);
  const format = body[0]!;
  const width = body[1]! | (body[2]! << 8);
  const height = body[3]! | (body[4]! << 8);
  let pos = 5;
  let tableSize = 0;
  if (format === 3) {
    if (body.length < 6) throw new SwfFormatError(file, 'palette bitmap without a colour table size', offset);
    tableSize = body[5]! + 1;
    pos = 6;
  } else if (format !== 5 && !(format === 4 && !withAlpha)) {
    throw new SwfFormatError(file, `unsupported bitmap format ${format} in tag ${code}`, offset);
  }
  if (width === 0 || height === 0) return createImage(width, height);
  // Check the size a header claims before allocating for it: a corrupt header must not exhaust memory.
  const { pixels } = decodeBudget();
  if (width * height > pixels)
    throw new SwfFormatError(file, overBudget(`bitmap ${width}x${height}`, `${pixels} pixels an image`), offset);
  // The pixel data's size follows from the header; inflating stops there, whatever the stream holds.
  const expected =
    format === 3
      ? tableSize * (withAlpha ? 4 : 3) + ((width + 3) & ~3) * height
      : format === 4
        ? ((width * 2 + 3) & ~3) * height
        : width * height * 4;
  const px = inflateOrThrow(body.subarray(pos), file, offset + pos, `bitmap ${width}x${height}`, expected);
  const need = (n: number) => {
    if (px.length < n)
      throw new SwfFormatError(
        file,
        `bitmap ${width}x${height} format ${format}: pixel data has ${px.length} bytes, needs ${n}`,
        offset + pos,
      );
  };
  const img = createImage(width, height);
  const out = img.data;
  if (format === 3) {
    const entry = withAlpha ? 4 : 3;
    const stride = (width + 3) & ~3;
    need(tableSize * entry + stride * height);
    const palette = new Uint8Array(256 * 4); // indexes past the table stay transparent
    for (let i = 0; i < tableSize; i++) {
      const p = i * entry;
      const a = withAlpha ? px[p + 3]! : 255;
      palette[i * 4] = unpremultiply(px[p]!, a);
      palette[i * 4 + 1] = unpremultiply(px[p + 1]!, a);
      palette[i * 4 + 2] = unpremultiply(px[p + 2]!, a);
      palette[i * 4 + 3] = a;
    }
    const base = tableSize * entry;
    for (let y = 0; y < height; y++) {
      let s = base + y * stride;
      let d = y * width * 4;
      for (let x = 0; x < width; x++, s++, d += 4) {
        const p = px[s]! * 4;
        out[d] = palette[p]!;
        out[d + 1] = palette[p + 1]!;
        out[d + 2] = palette[p + 2]!;
        out[d + 3] = palette[p + 3]!;
      }
    }
  } else if (format === 4) {
    const stride = (width * 2 + 3) & ~3;
    need(stride * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const s = y * stride + x * 2;
        const v = (px[s]! << 8) | px[s + 1]!;
        const r = (v >> 10) & 31;
        const g = (v >> 5) & 31;
        const b = v & 31;
        const d = (y * width + x) * 4;
        out[d] = (r << 3) | (r >> 2);
        out[d + 1] = (g << 3) | (g >> 2);
        out[d + 2] = (b << 3) | (b >> 2);
        out[d + 3] = 255;
      }
    }
  } else {
    need(width * height * 4);
    const n = width * height;
    for (let i = 0, s = 0; i < n; i++, s += 4) {
      const d = i * 4;
      const a = withAlpha ? px[s]! : 255;
      out[d] = unpremultiply(px[s + 1]!, a);
      out[d + 1] = unpremultiply(px[s + 2]!, a);
      out[d + 2] = unpremultiply(px[s + 3]!, a);
      out[d + 3] = a;
    }
  }
  return img;
}

/** Old encoders put an EOI+SOI pair (FF D9 FF D8) before the real SOI; decoders choke on it. */
function stripErroneousJpegHeader(data: Uint8Array): Uint8Array {
  if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd9 && data[2] === 0xff && data[3] === 0xd8)
    return data.subarray(4);
  return data;
}

function isJpeg(data: Uint8Array): boolean {
  return data.length >= 2 && data[0] === 0xff && data[1] === 0xd8;
}

/**
 * DefineBitsJPEG2 (21) / DefineBitsJPEG3 (35) body after the character id. The image may be JPEG, PNG or
 * GIF (SWF 8+); JPEG3's zlib alpha plane applies to JPEG data only. Colour is kept as stored, as
 * nitro-converter does, so converted bundles match the Nitro path.
 */
export async function decodeJpegTag(code: number, body: Uint8Array, file: string, offset: number): Promise<RgbaImage> {
  let imageData: Uint8Array = body;
  let alphaData: Uint8Array | undefined;
  let alphaOffset = 0;
  if (code === TAG_DEFINE_BITS_JPEG3) {
    if (body.length < 4) throw new SwfFormatError(file, 'DefineBitsJPEG3 too short', offset);
    const len = (body[0]! | (body[1]! << 8) | (body[2]! << 16) | (body[3]! << 24)) >>> 0;
    if (4 + len > body.length)
      throw new SwfFormatError(file, `DefineBitsJPEG3 image length ${len} runs past the tag`, offset);
    imageData = body.subarray(4, 4 + len);
    alphaData = body.subarray(4 + len);
    alphaOffset = offset + 4 + len;
  }
  imageData = stripErroneousJpegHeader(imageData);
  let img: RgbaImage;
  try {
    img = await decodeImage(imageData);
  } catch (e) {
    throw new SwfFormatError(file, `embedded image does not decode: ${(e as Error).message}`, offset);
  }
  if (alphaData && alphaData.length > 0 && isJpeg(imageData)) {
    const n = img.width * img.height;
    const alpha = inflateOrThrow(alphaData, file, alphaOffset, 'JPEG alpha plane', Math.max(1, n));
    if (alpha.length < n)
      throw new SwfFormatError(file, `JPEG alpha plane has ${alpha.length} bytes, needs ${n}`, alphaOffset);
    for (let i = 0; i < n; i++) img.data[i * 4 + 3] = alpha[i]!;
  }
  return img;
}
