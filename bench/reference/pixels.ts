// Pixel comparison for the reference run: premultiplied values (the reference draws on a premultiplied
// canvas, so a fully transparent pixel carries no colour and two of them are equal whatever their RGB),
// and the pictures that show a difference.
import { drawSprite } from '../../src/imaging/composite.js';
import { createImage, scaleNearest, type Rect, type RgbaImage } from '../../src/imaging/image.js';

/** Largest per-channel difference (premultiplied, 0-255) still counted as the same render. */
export const TOLERANCE = 3;

export type Verdict = 'identical' | 'within' | 'differing';

export interface PixelDiff {
  verdict: Verdict;
  /** Pixels with a premultiplied channel more than `tolerance` apart (all pixels when the sizes differ). */
  differingPixels: number;
  /** Largest premultiplied channel difference (255 when the sizes differ). */
  maxDelta: number;
  sizeMismatch: boolean;
}

function premultipliedDelta(a: Uint8Array, b: Uint8Array, i: number): number {
  const aa = a[i + 3]!;
  const ba = b[i + 3]!;
  let max = Math.abs(aa - ba);
  for (let c = 0; c < 3; c++) {
    const d = Math.abs(Math.round((a[i + c]! * aa) / 255) - Math.round((b[i + c]! * ba) / 255));
    if (d > max) max = d;
  }
  return max;
}

export function comparePremultiplied(a: RgbaImage, b: RgbaImage, tolerance = TOLERANCE): PixelDiff {
  if (a.width !== b.width || a.height !== b.height) {
    return {
      verdict: 'differing',
      differingPixels: Math.max(a.width * a.height, b.width * b.height),
      maxDelta: 255,
      sizeMismatch: true,
    };
  }
  let maxDelta = 0;
  let differingPixels = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    const d = premultipliedDelta(a.data, b.data, i);
    if (d > maxDelta) maxDelta = d;
    if (d > tolerance) differingPixels++;
  }
  const verdict: Verdict = maxDelta === 0 ? 'identical' : maxDelta <= tolerance ? 'within' : 'differing';
  return { verdict, differingPixels, maxDelta, sizeMismatch: false };
}

/** Visible pixels of `img` outside `rect` (what a crop to `rect` would lose). */
export function visibleOutside(img: RgbaImage, rect: Rect): number {
  let n = 0;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const inside = x >= rect.x && x < rect.x + rect.width && y >= rect.y && y < rect.y + rect.height;
      if (!inside && img.data[(y * img.width + x) * 4 + 3]! > 0) n++;
    }
  }
  return n;
}

/**
 * The difference as a picture, same size as the inputs: red where a channel is more than `tolerance`
 * apart, orange where it is 1..tolerance apart, light grey where either image draws and they agree,
 * white elsewhere. Sizes that differ compare on the overlapping area.
 */
export function diffImage(a: RgbaImage, b: RgbaImage, tolerance = TOLERANCE): RgbaImage {
  const w = Math.max(a.width, b.width);
  const h = Math.max(a.height, b.height);
  const out = createImage(w, h);
  const at = (img: RgbaImage, x: number, y: number) => (x < img.width && y < img.height ? (y * img.width + x) * 4 : -1);
  const blank = new Uint8Array(4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const ia = at(a, x, y);
      const ib = at(b, x, y);
      const pa = ia < 0 ? blank : a.data.subarray(ia, ia + 4);
      const pb = ib < 0 ? blank : b.data.subarray(ib, ib + 4);
      const d = premultipliedDelta(pa, pb, 0);
      const o = (y * w + x) * 4;
      let rgb: [number, number, number];
      if (d > tolerance) rgb = [230, 0, 0];
      else if (d > 0) rgb = [255, 170, 0];
      else if (pa[3]! > 0) {
        const lum = Math.round((pa[0]! + pa[1]! + pa[2]!) / 3);
        rgb = [190 + (lum >> 2), 190 + (lum >> 2), 190 + (lum >> 2)].map((v) => Math.min(240, v)) as [
          number,
          number,
          number,
        ];
      } else rgb = [255, 255, 255];
      out.data.set([...rgb, 255], o);
    }
  }
  return out;
}

/**
 * Panels side by side, each enlarged `scale` times (nearest neighbour) on a light-blue backdrop so that
 * transparent pixels show: for the reference run, ours | reference | diff.
 */
export function sideBySide(panels: RgbaImage[], scale: number): RgbaImage {
  const gap = 2 * scale;
  const big = panels.map((p) => scaleNearest(p, scale));
  const width = big.reduce((s, p) => s + p.width, 0) + gap * (big.length + 1);
  const height = Math.max(...big.map((p) => p.height)) + 2 * gap;
  const out = createImage(width, height);
  for (let i = 0; i < out.data.length; i += 4) out.data.set([90, 90, 90, 255], i);
  let x = gap;
  for (const p of big) {
    const backdrop = createImage(p.width, p.height);
    for (let i = 0; i < backdrop.data.length; i += 4) backdrop.data.set([205, 220, 235, 255], i);
    drawSprite(out, backdrop, x, gap);
    drawSprite(out, p, x, gap);
    x += p.width + gap;
  }
  return out;
}

/** 1 where a premultiplied channel is more than `tolerance` apart, else 0 (same-size images). */
export function differingMask(a: RgbaImage, b: RgbaImage, tolerance = TOLERANCE): Uint8Array {
  const mask = new Uint8Array(a.width * a.height);
  if (a.width !== b.width || a.height !== b.height) return mask.fill(1);
  for (let p = 0; p < mask.length; p++) mask[p] = premultipliedDelta(a.data, b.data, p * 4) > tolerance ? 1 : 0;
  return mask;
}
