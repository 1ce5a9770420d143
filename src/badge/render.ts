// Draws a planned badge and encodes it. Straight RGBA, integer maths (imaging/composite.ts): the same
// code and data always give the same bytes.
import { drawSprite } from '../imaging/composite.js';
import { encodeGif } from '../imaging/gif.js';
import { createImage, type RgbaImage } from '../imaging/image.js';
import { encodePngCompact } from '../imaging/png-compact.js';
import { encodeIndexedPngs } from '../imaging/png.js';
import { type BadgeCodePart, type BadgeLayout } from './code.js';
import { planBadge, type BadgePlan } from './layout.js';
import { type BadgeHotel } from './model.js';

/**
 * Part of every badge cache key and ETag: bump it when the pixels or bytes of an unchanged code and
 * unchanged data change.
 */
export const BADGE_RENDERER_VERSION = 'badge-1';

export type BadgeFormat = 'png' | 'gif';
export const BADGE_CONTENT_TYPES: Record<BadgeFormat, string> = { png: 'image/png', gif: 'image/gif' };

/** The plan's layers drawn in order on a transparent canvas (the tint multiplies, alpha is kept). */
export function drawBadge(hotel: BadgeHotel, plan: BadgePlan): RgbaImage {
  const canvas = createImage(plan.width, plan.height);
  for (const l of plan.layers) {
    drawSprite(canvas, hotel.images.get(l.image)!, plan.originX + l.x, plan.originY + l.y, { tint: l.tint });
  }
  return canvas;
}

/**
 * The `badge-fill` picture (what the game client's `group_logo_url_template` and the Shockwave client
 * load): the Shockwave client draws it with background-transparent ink, which keys out white, so every
 * transparent pixel becomes opaque white and every opaque white pixel becomes (254, 254, 254) to stay
 * visible (Quackster/Badger `FixTransparency`, run by Havana's and Minerva's `badge-fill` routes).
 * Partly transparent pixels are kept as they are, as there.
 */
export function fillBadge(image: RgbaImage): void {
  const d = image.data;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i + 3] === 0) {
      d[i] = 255;
      d[i + 1] = 255;
      d[i + 2] = 255;
      d[i + 3] = 255;
    } else if (d[i] === 255 && d[i + 1] === 255 && d[i + 2] === 255 && d[i + 3] === 255) {
      d[i] = 254;
      d[i + 1] = 254;
      d[i + 2] = 254;
    }
  }
}

/**
 * PNG: indexed when the badge has at most 256 RGBA values (always, on real data), as avatar stills are
 * (half the time of png-compact's level-9 palette writer for the same size on real badges), else RGBA;
 * lossless. GIF: one frame, a pixel opaque from alpha 128 up, else the transparent index (imaging/gif.ts).
 */
export function encodeBadge(image: RgbaImage, format: BadgeFormat): Buffer {
  if (format === 'gif') return encodeGif([image], [0]);
  return encodeIndexedPngs([image], 6)?.[0] ?? encodePngCompact(image);
}

export interface BadgeRender {
  plan: BadgePlan;
  image: RgbaImage;
  body: Buffer;
}

/** Plans, draws and encodes; undefined when no part of the code draws anything (the plan says why). */
export function renderBadge(
  hotel: BadgeHotel,
  parts: readonly BadgeCodePart[],
  format: BadgeFormat,
  options: { layout?: BadgeLayout; fill?: boolean } = {},
): BadgeRender | { plan: BadgePlan; image?: undefined } {
  const plan = planBadge(hotel, parts, options.layout);
  if (plan.layers.length === 0) return { plan };
  const image = drawBadge(hotel, plan);
  if (options.fill) fillBadge(image);
  return { plan, image, body: encodeBadge(image, format) };
}
