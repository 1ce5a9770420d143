/** The one pixel type every module shares: straight (not premultiplied) RGBA, row-major, 4 bytes a pixel. */
export interface RgbaImage {
  /** Width in pixels. */
  readonly width: number;
  /** Height in pixels. */
  readonly height: number;
  /** width × height × 4 bytes: red, green, blue, alpha, row after row from the top left. */
  readonly data: Uint8Array;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function createImage(width: number, height: number): RgbaImage {
  checkSize(width, height);
  return { width, height, data: new Uint8Array(width * height * 4) };
}

function checkSize(width: number, height: number): void {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0) {
    throw new RangeError(`invalid image size ${width}x${height}`);
  }
}

/** Makes a transparent image of a size (`createImage`, or an `ImageScratch`'s). */
export type MakeImage = (width: number, height: number) => RgbaImage;

/** The most images of one size an `ImageScratch` keeps for reuse (an animation's frames and canvases). */
const SCRATCH_PER_SIZE = 64;

/**
 * Transparent images whose memory is used again: `image` hands them out, `release` takes back every one
 * handed out since the last release. For a caller that keeps none of them (the render worker encodes
 * what it drew, then releases). A render's canvases were most of the memory it allocated, and V8 counts
 * ArrayBuffer memory towards its full-GC limit: allocated afresh, they made each render worker run a
 * full GC every ~800 renders, and its helper threads mark the heap for each.
 */
export class ImageScratch {
  private readonly free = new Map<number, Uint8Array[]>();
  private readonly lent: Uint8Array[] = [];

  /** A transparent `width` × `height` image (as `createImage`), valid until `release`. */
  readonly image: MakeImage = (width, height) => {
    checkSize(width, height);
    const bytes = width * height * 4;
    let data = this.free.get(bytes)?.pop();
    if (data) data.fill(0);
    else data = new Uint8Array(bytes);
    this.lent.push(data);
    return { width, height, data };
  };

  /** Every image handed out since the last release may be handed out again: their holders must be done with them. */
  release(): void {
    for (const data of this.lent) {
      let list = this.free.get(data.length);
      if (!list) this.free.set(data.length, (list = []));
      if (list.length < SCRATCH_PER_SIZE) list.push(data);
    }
    this.lent.length = 0;
  }
}

/** Copies a rectangle out of an image; parts outside the source stay transparent. */
export function cropImage(src: RgbaImage, rect: Rect): RgbaImage {
  const out = createImage(rect.width, rect.height);
  for (let y = 0; y < rect.height; y++) {
    const sy = rect.y + y;
    if (sy < 0 || sy >= src.height) continue;
    const x0 = Math.max(0, -rect.x);
    const x1 = Math.min(rect.width, src.width - rect.x);
    if (x1 <= x0) continue;
    const from = (sy * src.width + rect.x + x0) * 4;
    out.data.set(src.data.subarray(from, from + (x1 - x0) * 4), (y * rect.width + x0) * 4);
  }
  return out;
}

export function flipHorizontal(src: RgbaImage): RgbaImage {
  const out = createImage(src.width, src.height);
  const s = src.data;
  const d = out.data;
  for (let y = 0; y < src.height; y++) {
    const row = y * src.width;
    for (let x = 0; x < src.width; x++) {
      const si = (row + x) * 4;
      const di = (row + src.width - 1 - x) * 4;
      d[di] = s[si]!;
      d[di + 1] = s[si + 1]!;
      d[di + 2] = s[si + 2]!;
      d[di + 3] = s[si + 3]!;
    }
  }
  return out;
}

/** Bounding box of the pixels whose alpha is above zero, or null for a fully transparent image. */
export function alphaBounds(img: RgbaImage): Rect | null {
  let minX = img.width;
  let minY = img.height;
  let maxX = -1;
  let maxY = -1;
  const d = img.data;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      if (d[(y * img.width + x) * 4 + 3]! > 0) {
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
    }
  }
  if (maxX < 0) return null;
  return { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
}

export function hasVisiblePixel(img: RgbaImage): boolean {
  const d = img.data;
  for (let i = 3; i < d.length; i += 4) if (d[i]! > 0) return true;
  return false;
}

/** Integer nearest-neighbour upscale (size l is exactly 2x of size m). */
export function scaleNearest(src: RgbaImage, factor: number, make: MakeImage = createImage): RgbaImage {
  if (!Number.isInteger(factor) || factor < 1)
    throw new RangeError(`scale factor must be a positive integer, got ${factor}`);
  const out = make(src.width * factor, src.height * factor);
  const s32 = new Uint32Array(src.data.buffer, src.data.byteOffset, src.width * src.height);
  const d32 = new Uint32Array(out.data.buffer, out.data.byteOffset, out.width * out.height);
  // Each source row is widened once; the rows below it are copies (size l is every avatar's 2x).
  for (let y = 0; y < src.height; y++) {
    const srow = y * src.width;
    const drow = y * factor * out.width;
    for (let x = 0; x < src.width; x++) {
      const v = s32[srow + x]!;
      const d = drow + x * factor;
      for (let k = 0; k < factor; k++) d32[d + k] = v;
    }
    for (let k = 1; k < factor; k++) d32.copyWithin(drow + k * out.width, drow, drow + out.width);
  }
  return out;
}

/** A flat colour: 0xRRGGBB and its alpha, 0–255. */
export interface FlatColor {
  rgb: number;
  alpha: number;
}

/**
 * A background colour as the imagers' `bg=` gives it, read as vortex-imager's `readColor` (the one that
 * defined it): `RRGGBB` (opaque) or `AARRGGBB`, `#` allowed, any case; anything else, and a fully
 * transparent colour, is none. The avatar, furni and room `bg=` all mean this.
 * @example parseBackgroundColor('80ff0000') // { rgb: 0xff0000, alpha: 0x80 }
 */
export function parseBackgroundColor(value: string | undefined): FlatColor | undefined {
  const text = (value ?? '').trim().replace(/^#/, '');
  if (!/^(?:[0-9a-f]{6}|[0-9a-f]{8})$/i.test(text)) return undefined;
  const n = Number.parseInt(text, 16);
  const color = text.length === 6 ? { rgb: n, alpha: 255 } : { rgb: n % 0x1000000, alpha: Math.floor(n / 0x1000000) };
  return color.alpha === 0 ? undefined : color;
}

/** Highest `zoom=` of the furni and room URLs (vortex-imager caps its zoom at 4). */
export const MAX_ZOOM = 4;
/** Most pixels a zoomed answer may have: a larger zoom is lowered until the picture fits. */
export const MAX_OUTPUT_PIXELS = 4096 * 4096;

/**
 * `zoom=` (or `scale=`) as vortex-imager's `readZoom` reads it for furni and rooms, in whole numbers
 * (nearest neighbour keeps the pixel art): a number from 1 is truncated and capped at MAX_ZOOM; anything
 * else, fractions below 1 included, is `fallback` (the zoom the URL's `size` implies).
 */
export function parseZoom(value: string | undefined, fallback: number): number {
  const n = value === undefined || value.trim() === '' ? Number.NaN : Number(value);
  return Number.isFinite(n) && n >= 1 ? Math.min(MAX_ZOOM, Math.trunc(n)) : fallback;
}

/** The zoom an image is drawn at: the asked one, lowered until the result fits MAX_OUTPUT_PIXELS (at least 1). */
export function effectiveZoom(width: number, height: number, zoom: number): number {
  let z = Math.max(1, Math.min(MAX_ZOOM, Math.trunc(zoom)));
  while (z > 1 && width * z * height * z > MAX_OUTPUT_PIXELS) z--;
  return z;
}

/**
 * The image over a flat colour 0xRRGGBB of alpha 0–255 (straight-alpha source-over): over an opaque colour
 * every pixel is opaque, c·a/255 + colour·(255 − a)/255.
 * @example overColor(picture, 0xffffff, 255) // on white
 */
export function overColor(img: RgbaImage, rgb: number, alpha = 255): RgbaImage {
  const out = createImage(img.width, img.height);
  const br = (rgb >> 16) & 255;
  const bg = (rgb >> 8) & 255;
  const bb = rgb & 255;
  const s = img.data;
  const d = out.data;
  if (s.byteOffset % 4 === 0 && img.width * img.height * 4 === s.length) {
    // The same sums a pixel at a time on 32-bit words (overColorWord).
    const s32 = new Uint32Array(s.buffer, s.byteOffset, s.length / 4);
    const d32 = new Uint32Array(d.buffer, d.byteOffset, s32.length);
    const over = overColorWord(rgb, alpha);
    for (let i = 0; i < s32.length; i++) d32[i] = over(s32[i]!);
    return out;
  }
  for (let i = 0; i < s.length; i += 4) {
    const a = s[i + 3]!;
    // Weights in 0..255²: the pixel's a·255 and the colour's alpha·(255 − a).
    const under = alpha * (255 - a);
    const total = a * 255 + under;
    if (total === 0) continue;
    d[i] = Math.round((s[i]! * a * 255 + br * under) / total);
    d[i + 1] = Math.round((s[i + 1]! * a * 255 + bg * under) / total);
    d[i + 2] = Math.round((s[i + 2]! * a * 255 + bb * under) / total);
    d[i + 3] = Math.round(total / 255);
  }
  return out;
}

/**
 * `overColor` for one pixel as a little-endian 32-bit word (alpha the top byte), the same sums: an opaque pixel
 * is itself, and a pixel the same as the one before (most of a picture's runs) gives the same word.
 */
export function overColorWord(rgb: number, alpha = 255): (v: number) => number {
  const br = (rgb >> 16) & 255;
  const bg = (rgb >> 8) & 255;
  const bb = rgb & 255;
  let last = -1;
  let lastOut = 0;
  return (v) => {
    if (v >>> 24 === 255) return v;
    if (v === last) return lastOut;
    last = v;
    const a = v >>> 24;
    const under = alpha * (255 - a);
    const total = a * 255 + under;
    lastOut =
      total === 0
        ? 0
        : ((Math.round(total / 255) << 24) |
            (Math.round((((v >>> 16) & 255) * a * 255 + bb * under) / total) << 16) |
            (Math.round((((v >>> 8) & 255) * a * 255 + bg * under) / total) << 8) |
            Math.round(((v & 255) * a * 255 + br * under) / total)) >>>
          0;
    return lastOut;
  };
}

export function imagesEqual(a: RgbaImage, b: RgbaImage): boolean {
  return (
    a.width === b.width &&
    a.height === b.height &&
    Buffer.from(a.data.buffer, a.data.byteOffset, a.data.length).equals(
      Buffer.from(b.data.buffer, b.data.byteOffset, b.data.length),
    )
  );
}
