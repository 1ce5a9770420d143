// The compositing inner loop shared by the furni and avatar renderers: draw one sprite onto a canvas
// with flip, tint, layer alpha and ink. Canvas and sprite are straight RGBA; maths is integer and
// deterministic (same inputs, same bytes).
import { type RgbaImage } from './image.js';

/** Ink (blend mode) names as the visualization data spells them, lower-cased. */
export type Ink = 'normal' | 'add' | 'subtract' | 'darken' | 'copy';

export interface DrawOptions {
  /** Mirror the sprite around its vertical centre before drawing. */
  flipH?: boolean;
  /** Per-channel multiply colour 0xRRGGBB (c' = c * tint / 255); alpha is kept. */
  tint?: number;
  /** Layer alpha 0-255 multiplied into the sprite's alpha. */
  alpha?: number;
  ink?: Ink;
}

/** Parses an ink value from furni data ("ADD", "33", undefined…) into an Ink. Unknown values draw normally. */
export function parseInk(v: string | number | undefined): Ink {
  if (v === undefined || v === null) return 'normal';
  const s = String(v).trim().toLowerCase();
  switch (s) {
    case 'add':
    case '33':
      return 'add';
    case 'subtract':
    case '34': // not seen in real data; accepted for symmetry with ADD
      return 'subtract';
    case 'darken':
      return 'darken';
    case 'copy':
      return 'copy';
    default:
      return 'normal';
  }
}

const div255 = (v: number) => (v + 128 + ((v + 128) >> 8)) >> 8;

/**
 * Draws `src` with its top-left at (dx, dy) on `dst` (clipped to the canvas).
 * normal/copy: source-over. add: premultiplied sum, clamped (PIXI/Flash ADD). subtract: premultiplied
 * destination minus source, clamped at 0, destination alpha kept. darken: separable W3C blend
 * B = min(Cb, Cs), then source-over (a transparent backdrop shows the sprite as it is).
 */
export function drawSprite(dst: RgbaImage, src: RgbaImage, dx: number, dy: number, opts: DrawOptions = {}): void {
  const ink = opts.ink ?? 'normal';
  const layerAlpha = opts.alpha === undefined ? 255 : Math.max(0, Math.min(255, Math.round(opts.alpha)));
  if (layerAlpha === 0) return;
  const tint = opts.tint ?? 0xffffff;
  const tr = (tint >> 16) & 0xff;
  const tg = (tint >> 8) & 0xff;
  const tb = tint & 0xff;
  const tinted = (tint & 0xffffff) !== 0xffffff;
  const x0 = Math.max(0, dx);
  const y0 = Math.max(0, dy);
  const x1 = Math.min(dst.width, dx + src.width);
  const y1 = Math.min(dst.height, dy + src.height);
  if (x1 <= x0 || y1 <= y0) return;
  if (
    (ink === 'normal' || ink === 'copy') &&
    layerAlpha === 255 &&
    src.data.byteOffset % 4 === 0 &&
    dst.data.byteOffset % 4 === 0
  ) {
    drawOver(dst, src, dx, dy, x0, y0, x1, y1, !!opts.flipH, tinted ? tint : -1);
    return;
  }
  const s = src.data;
  const d = dst.data;
  const sw = src.width;
  for (let y = y0; y < y1; y++) {
    const sy = y - dy;
    for (let x = x0; x < x1; x++) {
      const sx = opts.flipH ? sw - 1 - (x - dx) : x - dx;
      const si = (sy * sw + sx) * 4;
      let sa = s[si + 3]!;
      if (sa === 0) continue;
      if (layerAlpha !== 255) sa = div255(sa * layerAlpha);
      if (sa === 0) continue;
      let sr = s[si]!;
      let sg = s[si + 1]!;
      let sb = s[si + 2]!;
      if (tinted) {
        sr = div255(sr * tr);
        sg = div255(sg * tg);
        sb = div255(sb * tb);
      }
      const di = (y * dst.width + x) * 4;
      const da = d[di + 3]!;
      if (ink === 'add') {
        // premultiplied: out = src·a + dst·a_d, clamped; alpha = a + a_d clamped
        const oa = Math.min(255, sa + da);
        const pr = Math.min(255 * 255, sr * sa + d[di]! * da);
        const pg = Math.min(255 * 255, sg * sa + d[di + 1]! * da);
        const pb = Math.min(255 * 255, sb * sa + d[di + 2]! * da);
        d[di] = Math.min(255, Math.round(pr / oa));
        d[di + 1] = Math.min(255, Math.round(pg / oa));
        d[di + 2] = Math.min(255, Math.round(pb / oa));
        d[di + 3] = oa;
        continue;
      }
      if (ink === 'subtract') {
        if (da === 0) continue;
        const pr = Math.max(0, d[di]! * da - sr * sa);
        const pg = Math.max(0, d[di + 1]! * da - sg * sa);
        const pb = Math.max(0, d[di + 2]! * da - sb * sa);
        d[di] = Math.round(pr / da);
        d[di + 1] = Math.round(pg / da);
        d[di + 2] = Math.round(pb / da);
        continue;
      }
      if (ink === 'darken' && da > 0) {
        // mix the blend result into the source by the backdrop's coverage
        sr = div255((255 - da) * sr + da * Math.min(sr, d[di]!));
        sg = div255((255 - da) * sg + da * Math.min(sg, d[di + 1]!));
        sb = div255((255 - da) * sb + da * Math.min(sb, d[di + 2]!));
      }
      if (sa === 255 || da === 0) {
        if (sa === 255) {
          d[di] = sr;
          d[di + 1] = sg;
          d[di + 2] = sb;
          d[di + 3] = 255;
          continue;
        }
        d[di] = sr;
        d[di + 1] = sg;
        d[di + 2] = sb;
        d[di + 3] = sa;
        continue;
      }
      // source-over in straight alpha: oa = sa + da(1 - sa)
      const dw = da * (255 - sa); // destination weight ×255
      const oa255 = sa * 255 + dw; // ×255
      d[di] = Math.round((sr * sa * 255 + d[di]! * dw) / oa255);
      d[di + 1] = Math.round((sg * sa * 255 + d[di + 1]! * dw) / oa255);
      d[di + 2] = Math.round((sb * sa * 255 + d[di + 2]! * dw) / oa255);
      d[di + 3] = div255(oa255);
    }
  }
}

/**
 * `drawSprite`'s normal ink at full layer alpha (every avatar layer), a pixel at a time as one 32-bit
 * word: the same arithmetic and bytes, without the per-pixel branches on ink and alpha. An opaque or
 * onto-nothing pixel is copied whole when untinted. `tint` -1 = none.
 */
function drawOver(
  dst: RgbaImage,
  src: RgbaImage,
  dx: number,
  dy: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  flip: boolean,
  tint: number,
): void {
  // The Uint32 views are little-endian on every platform Node runs on: red is the low byte, alpha the top.
  const s32 = new Uint32Array(src.data.buffer, src.data.byteOffset, src.width * src.height);
  const d32 = new Uint32Array(dst.data.buffer, dst.data.byteOffset, dst.width * dst.height);
  const sw = src.width;
  const dw = dst.width;
  const tr = (tint >> 16) & 0xff;
  const tg = (tint >> 8) & 0xff;
  const tb = tint & 0xff;
  const step = flip ? -1 : 1;
  for (let y = y0; y < y1; y++) {
    let si = (y - dy) * sw + (flip ? sw - 1 - (x0 - dx) : x0 - dx);
    let di = y * dw + x0;
    for (let x = x0; x < x1; x++, si += step, di++) {
      let v = s32[si]!;
      const sa = v >>> 24;
      if (sa === 0) continue;
      if (tint >= 0)
        v =
          ((sa << 24) |
            (div255(((v >>> 16) & 0xff) * tb) << 16) |
            (div255(((v >>> 8) & 0xff) * tg) << 8) |
            div255((v & 0xff) * tr)) >>>
          0;
      if (sa === 255) {
        d32[di] = v;
        continue;
      }
      const dv = d32[di]!;
      const da = dv >>> 24;
      if (da === 0) {
        d32[di] = v;
        continue;
      }
      // source-over in straight alpha, as drawSprite: oa = sa + da(1 - sa)
      const w = da * (255 - sa);
      const oa255 = sa * 255 + w;
      const k = sa * 255;
      const r = Math.round(((v & 0xff) * k + (dv & 0xff) * w) / oa255);
      const g = Math.round((((v >>> 8) & 0xff) * k + ((dv >>> 8) & 0xff) * w) / oa255);
      const b = Math.round((((v >>> 16) & 0xff) * k + ((dv >>> 16) & 0xff) * w) / oa255);
      d32[di] = ((div255(oa255) << 24) | (b << 16) | (g << 8) | r) >>> 0;
    }
  }
}
