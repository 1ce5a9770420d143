// Where each part of a badge goes and how it is coloured, as the Nitro client composes a group badge
// (nitro-renderer `BadgeImageManager.renderGroupBadge`, `GroupBadgePart.calculatePosition`):
// - the badge is a 39×39 canvas, a 3×3 grid of 13 px cells; position p is cell (p mod 3, ⌊p / 3⌋);
// - parts are drawn in code order; a part's images are the table row's firstvalue then secondvalue
//   (`.png`/`.gif` dropped from the name, texture `badgepart_<name>`); the first image found is tinted
//   with the part's colour, any later one is drawn as it is;
// - each image is centred on its cell, pushed back inside the canvas, and floored to whole pixels;
// - a part whose id the table lacks, or an image the hotel lacks, is skipped (nothing is drawn for it).
// The client renders the container's bounds, which include the 39×39 backdrop: an image larger than the
// canvas (none in real data) grows the picture up and to the left, as here.
import { type BadgeCodePart, type BadgeLayout } from './code.js';
import { type BadgeHotel } from './model.js';

export const BADGE_WIDTH = 39;
export const BADGE_HEIGHT = 39;
export const CELL_WIDTH = 13;
export const CELL_HEIGHT = 13;

export interface BadgeLayer {
  /** Index of the part in the code. */
  part: number;
  /** The part's text in the code. */
  code: string;
  kind: 'base' | 'symbol';
  id: number;
  color: number;
  position: number;
  /** Grid cell of the position (column, row). */
  cell: [number, number];
  /** Texture name, `badgepart_<name>`. */
  image: string;
  /** 0xRRGGBB multiplied in, or undefined for an image drawn as it is. */
  tint?: number;
  /** The table's colour value the tint came from (undefined: no such colour id). */
  colorValue?: string;
  /** Top-left on the 39×39 grid (may be negative only for an image larger than the canvas). */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface BadgePlan {
  /** The picture's size and where the grid's (0, 0) lies in it (both 39 and 0 unless a part is oversized). */
  width: number;
  height: number;
  originX: number;
  originY: number;
  layers: BadgeLayer[];
  /** Parts or images that drew nothing, and why. */
  skipped: string[];
}

/** The texture a table value names: `.png` and `.gif` removed as the client does (first occurrence of each). */
export function partTexture(value: string): string {
  return `badgepart_${value.replace('.png', '').replace('.gif', '')}`;
}

/**
 * The colour the client multiplies with: `parseInt(value, 16)` given to PixiJS 6's `Sprite.tint`, which
 * packs it as (v >> 16) + (v & 0xff00) + ((v & 0xff) << 16). So a missing colour id, an empty value or
 * one the parse rejects (`#ffd601`) is NaN, which packs to 0: the image is drawn black. Values of up to 6
 * hex digits give exactly themselves.
 */
export function clientTint(value: string | undefined): number {
  const v = parseInt(value as string, 16);
  const packed = (v >> 16) + (v & 0xff00) + ((v & 0xff) << 16);
  return ((packed & 0xff) << 16) | (packed & 0xff00) | ((packed >>> 16) & 0xff);
}

/** GroupBadgePart.calculatePosition: the image centred on its cell, kept inside the canvas, floored. */
export function partPosition(position: number, width: number, height: number): [number, number] {
  const col = position % 3;
  const row = Math.floor(position / 3);
  let x = CELL_WIDTH * col + CELL_WIDTH / 2 - width / 2;
  let y = CELL_HEIGHT * row + CELL_HEIGHT / 2 - height / 2;
  if (x < 0) x = 0;
  if (x + width > BADGE_WIDTH) x = BADGE_WIDTH - width;
  if (y < 0) y = 0;
  if (y + height > BADGE_HEIGHT) y = BADGE_HEIGHT - height;
  return [Math.floor(x), Math.floor(y)];
}

/**
 * Where the Shockwave-era web groups put a part (Quackster/Badger `BadgePart.GetPosition`, which Havana's
 * and Minerva's imagers run): flush against the canvas edges, centred with integer halves, and no
 * position (-1) at the top left. One difference, on purpose: for position 6 (bottom left) Badger
 * subtracts the image's width from the height, a slip every other row avoids; we subtract its height,
 * so a part at 6 sits on the bottom edge as at 7 and 8.
 */
export function shockwavePosition(position: number, width: number, height: number): [number, number] {
  const halfX = Math.trunc((BADGE_WIDTH - width) / 2);
  const midY = Math.trunc(BADGE_HEIGHT / 2) - Math.trunc(height / 2);
  const col = position >= 0 && position <= 8 ? position % 3 : 0;
  const row = position >= 0 && position <= 8 ? Math.floor(position / 3) : 0;
  const x = col === 0 ? 0 : col === 1 ? halfX : BADGE_WIDTH - width;
  const y = row === 0 ? 0 : row === 1 ? midY : BADGE_HEIGHT - height;
  return [x, y];
}

/**
 * What the client would draw for these parts with this hotel's table and images. A Shockwave-era code
 * (`layout` 'shockwave') takes the same table rows and images, whose ids, colours and two-image parts
 * are the old web groups' own (Badger's 18 colours are the real table's base_color rows 1-18, its
 * "proxied" templates exactly the rows with a secondvalue), placed by `shockwavePosition`.
 */
export function planBadge(
  hotel: BadgeHotel,
  parts: readonly BadgeCodePart[],
  layout: BadgeLayout = 'client',
): BadgePlan {
  const layers: BadgeLayer[] = [];
  const skipped: string[] = [];
  parts.forEach((p, index) => {
    const names = (p.kind === 'base' ? hotel.elements.bases : hotel.elements.symbols).get(p.id);
    if (!names) {
      skipped.push(`part ${index} (${p.text}): the table has no ${p.kind} ${p.id}`);
      return;
    }
    let first = true;
    for (const name of names) {
      if (!name) continue;
      const image = partTexture(name);
      const img = hotel.images.get(image);
      // The client skips a missing texture before it marks the first image drawn: the next one is tinted.
      if (!img) {
        skipped.push(`part ${index} (${p.text}): no image ${image} for ${p.kind} ${p.id}`);
        continue;
      }
      const [x, y] =
        layout === 'client'
          ? partPosition(p.position, img.width, img.height)
          : shockwavePosition(p.position, img.width, img.height);
      const layer: BadgeLayer = {
        part: index,
        code: p.text,
        kind: p.kind,
        id: p.id,
        color: p.color,
        position: p.position,
        cell: p.position < 0 ? [0, 0] : [p.position % 3, Math.floor(p.position / 3)],
        image,
        x,
        y,
        width: img.width,
        height: img.height,
      };
      if (first) {
        layer.colorValue = hotel.elements.baseColors.get(p.color);
        layer.tint = clientTint(layer.colorValue);
      }
      first = false;
      layers.push(layer);
    }
  });
  let minX = 0;
  let minY = 0;
  let maxX = BADGE_WIDTH;
  let maxY = BADGE_HEIGHT;
  for (const l of layers) {
    minX = Math.min(minX, l.x);
    minY = Math.min(minY, l.y);
    maxX = Math.max(maxX, l.x + l.width);
    maxY = Math.max(maxY, l.y + l.height);
  }
  return { width: maxX - minX, height: maxY - minY, originX: -minX, originY: -minY, layers, skipped };
}
