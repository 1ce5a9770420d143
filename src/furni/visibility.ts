// What a layer draws that can be seen. Real bundles mark "off" frames with sprites that exist but show
// nothing: fully transparent 1×1 images, near-transparent ones (alpha 3, 6, 13), single opaque black
// pixels, black sprites under ink ADD (which add no light). Judging
// "visible" by the asset existing, or by any pixel with alpha > 0, lets those frames count as layers
// and turns stills into specks; this module is the one definition the state choice and the drawing share.
import { type RgbaImage } from '../imaging/image.js';
import { type Ink } from '../imaging/composite.js';

/**
 * A drawn pixel can be seen when its alpha is at least this (of 255; about 6 %). Below it a pixel
 * changes what is behind it by at most 15 levels per channel, which nobody sees; real "off" frames
 * use 3 to 13. The alpha is the one drawn: sprite alpha × layer alpha, and for ink ADD × the pixel's
 * brightest channel (the light it adds: black adds nothing).
 */
export const SEEN_ALPHA = 16;

/**
 * A layer is visible when it draws at least this many seen pixels. A single pixel is how real bundles
 * often mark an empty frame (762 opaque black 1×1 sprites in the public set), not a part of the item.
 */
export const MIN_SEEN_PIXELS = 2;

const cache = new WeakMap<RgbaImage, Map<string, number>>();

/** Pixels of `image`, drawn at layer alpha `alpha` (0–255) with `ink`, whose drawn alpha is at least SEEN_ALPHA. */
export function seenPixels(image: RgbaImage, alpha: number, ink: Ink): number {
  const layerAlpha = Math.max(0, Math.min(255, Math.round(alpha)));
  const key = `${layerAlpha}:${ink === 'add' ? 'add' : ''}`;
  let perImage = cache.get(image);
  const hit = perImage?.get(key);
  if (hit !== undefined) return hit;
  const d = image.data;
  // Integer form of a·(layerAlpha/255)[·(max/255)] ≥ SEEN_ALPHA, so the count is exact.
  let n = 0;
  if (ink === 'add') {
    const need = SEEN_ALPHA * 255 * 255;
    for (let i = 0; i < d.length; i += 4) {
      const a = d[i + 3]!;
      if (a === 0) continue;
      if (a * layerAlpha * Math.max(d[i]!, d[i + 1]!, d[i + 2]!) >= need) n++;
    }
  } else {
    const need = SEEN_ALPHA * 255;
    for (let i = 3; i < d.length; i += 4) if (d[i]! * layerAlpha >= need) n++;
  }
  if (!perImage) cache.set(image, (perImage = new Map()));
  perImage.set(key, n);
  return n;
}

/** Whether a layer drawing `image` at `alpha` with `ink` shows enough to count (see MIN_SEEN_PIXELS). */
export function isVisibleLayer(image: RgbaImage, alpha: number, ink: Ink): boolean {
  return seenPixels(image, alpha, ink) >= MIN_SEEN_PIXELS;
}
