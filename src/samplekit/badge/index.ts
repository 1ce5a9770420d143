// The sample kit's group badge parts and element table, drawn procedurally (no Habbo art), written in
// both layouts a hotel keeps them in:
//   Nitro  bundled/generic/group_badge.nitro             frames `badgepart_<name>.png`, as the client's
//   Flash  c_images/Badgeparts/badgepart_<name>.png|gif   loose files (some GIF, some PNG)
//   both   gamedata/guilds_elements.csv                   the emulator table's CSV export, no header
// The parts exercise every rule of the client's layout: 39×39 and odd-sized bases (39×38), a band and a
// bar wider than a cell and a stalk taller than one (pushed back inside the canvas), symbols of odd and
// even sizes (centring floors), two-image parts (the second drawn untinted), `t` ids (100+) and a 3-digit
// id, a table row whose image is missing (skipped) and one whose first image is missing (the second is
// then tinted). Every image has an outline and a mark on its left, so a wrong place, flip or tint shows.
// Alpha is 0 or 255 everywhere, so the GIF and PNG files are the same pixels. Same call → same bytes.
import { writeBadgePartLibrary } from '../../formats/badge-parts.js';
import { encodeGif } from '../../imaging/gif.js';
import { createImage, type RgbaImage } from '../../imaging/image.js';
import { drawSprite } from '../../imaging/composite.js';
import { encodePngCompact } from '../../imaging/png-compact.js';
import { ellipse, paint, poly, rect, type PaintOp, type Shape } from '../avatar/raster.js';
import { type KitFile } from '../kit-file.js';

export const BADGE_TABLE_PATH = 'gamedata/guilds_elements.csv';
export const BADGE_LIBRARY_PATH = 'bundled/generic/group_badge.nitro';
export const BADGE_FLASH_DIR = 'c_images/Badgeparts';

/** Light fills: the client multiplies the first image by the part's colour, so it is drawn near white. */
const WHITE = 0xffffff;
const LIGHT = 0xd8d8d8;
const GOLD = 0xf0c040;
const SHINE = 0xfff4c8;

/** A light two-tone pattern so a tinted area still shows its shape. */
const stripes = (x: number, y: number) => ((x + y) % 6 < 3 ? WHITE : LIGHT);

interface KitPartImage {
  name: string;
  width: number;
  height: number;
  ops: PaintOp[];
  /** The Flash layout stores it as a GIF (else PNG). */
  gif?: boolean;
}

function image(part: KitPartImage): RgbaImage {
  const drawn = paint(part.ops);
  const out = createImage(part.width, part.height);
  if (drawn) drawSprite(out, drawn.image, drawn.left, drawn.top);
  return out;
}

const op = (shapes: Shape[], fill: PaintOp['fill'], overlay = false): PaintOp => ({ shapes, fill, overlay });

/** Every image of the kit, by name (without `badgepart_` and extension). */
export const KIT_BADGE_IMAGES: KitPartImage[] = [
  { name: 'kit_base_square', width: 39, height: 39, ops: [op([rect(1, 1, 37, 37)], stripes)] },
  { name: 'kit_base_circle', width: 39, height: 39, gif: true, ops: [op([ellipse(19.5, 19.5, 18.5, 18.5)], stripes)] },
  {
    name: 'kit_base_shield_part2',
    width: 39,
    height: 39,
    ops: [
      op(
        [
          poly([
            [3, 2],
            [36, 2],
            [36, 20],
            [19.5, 37],
            [3, 20],
          ]),
        ],
        stripes,
      ),
    ],
  },
  {
    name: 'kit_base_shield_part1',
    width: 39,
    height: 39,
    gif: true,
    ops: [op([rect(3, 2, 33, 5)], GOLD), op([rect(8, 3, 6, 2)], SHINE, true)],
  },
  {
    name: 'kit_base_ring',
    width: 39,
    height: 38,
    ops: [op([ellipse(19.5, 19, 18.5, 18)], LIGHT), op([ellipse(19.5, 19, 10, 9.5)], WHITE, true)],
  },
  { name: 'kit_base_band', width: 39, height: 13, ops: [op([rect(0, 1, 39, 11)], stripes)] },
  {
    name: 'kit_symbol_star',
    width: 13,
    height: 13,
    ops: [
      op(
        [
          poly([
            [6.5, 0],
            [8.2, 4.6],
            [13, 4.8],
            [9.2, 7.8],
            [10.6, 12.6],
            [6.5, 9.9],
            [2.4, 12.6],
            [3.8, 7.8],
            [0, 4.8],
            [4.8, 4.6],
          ]),
        ],
        WHITE,
      ),
    ],
  },
  {
    name: 'kit_symbol_cross',
    width: 11,
    height: 11,
    gif: true,
    ops: [op([rect(4, 0, 3, 11), rect(0, 4, 11, 3)], WHITE)],
  },
  {
    name: 'kit_symbol_arrow',
    width: 8,
    height: 13,
    ops: [
      op(
        [
          poly([
            [0, 3],
            [4, 3],
            [4, 0],
            [8, 6.5],
            [4, 13],
            [4, 10],
            [0, 10],
          ]),
        ],
        WHITE,
      ),
    ],
  },
  {
    name: 'kit_symbol_heart_part2',
    width: 16,
    height: 15,
    ops: [
      op(
        [
          ellipse(4.5, 4.5, 4.5, 4.5),
          ellipse(11.5, 4.5, 4.5, 4.5),
          poly([
            [0.3, 6],
            [15.7, 6],
            [8, 15],
          ]),
        ],
        WHITE,
      ),
    ],
  },
  { name: 'kit_symbol_heart_part1', width: 16, height: 15, gif: true, ops: [op([ellipse(4, 4, 1.6, 1.6)], SHINE)] },
  { name: 'kit_symbol_dot', width: 5, height: 5, ops: [op([ellipse(2.5, 2.5, 2.5, 2.5)], WHITE)] },
  { name: 'kit_symbol_bar', width: 39, height: 7, gif: true, ops: [op([rect(0, 0, 39, 7)], stripes)] },
  { name: 'kit_symbol_stalk', width: 7, height: 27, ops: [op([rect(0, 0, 7, 27)], stripes)] },
  { name: 'kit_symbol_ghost', width: 9, height: 10, ops: [op([ellipse(4.5, 4.5, 4.5, 4.5), rect(0, 4, 9, 6)], WHITE)] },
  {
    name: 'kit_symbol_crown_part2',
    width: 21,
    height: 14,
    ops: [
      op(
        [
          poly([
            [0, 2],
            [5, 8],
            [10.5, 0],
            [16, 8],
            [21, 2],
            [19, 14],
            [2, 14],
          ]),
        ],
        WHITE,
      ),
    ],
  },
  {
    name: 'kit_symbol_crown_part1',
    width: 21,
    height: 14,
    gif: true,
    ops: [op([ellipse(10.5, 10, 2, 2), ellipse(5, 11, 1.5, 1.5), ellipse(16, 11, 1.5, 1.5)], 0xd03030)],
  },
  {
    name: 'kit_symbol_moon',
    width: 12,
    height: 17,
    ops: [op([ellipse(6, 8.5, 6, 8.5)], WHITE), op([ellipse(9, 7.5, 5, 7)], LIGHT, true)],
  },
  { name: 'kit_symbol_block', width: 10, height: 12, gif: true, ops: [op([rect(0, 0, 10, 12)], stripes)] },
];

/** guilds_elements rows: [id, firstvalue, secondvalue, type]; names as real tables write them (`.gif`). */
export const KIT_BADGE_ROWS: [number, string, string, string][] = [
  [1, 'kit_base_square.gif', '', 'base'],
  [2, 'kit_base_circle.gif', '', 'base'],
  [3, 'kit_base_shield_part2.gif', 'kit_base_shield_part1.gif', 'base'],
  [4, 'kit_base_ring.gif', '', 'base'],
  [5, 'kit_base_band.gif', '', 'base'],
  [1, 'kit_symbol_star.gif', '', 'symbol'],
  [2, 'kit_symbol_cross.gif', '', 'symbol'],
  [3, 'kit_symbol_arrow.gif', '', 'symbol'],
  [4, 'kit_symbol_heart_part2.gif', 'kit_symbol_heart_part1.gif', 'symbol'],
  [5, 'kit_symbol_dot.gif', '', 'symbol'],
  [6, 'kit_symbol_bar.gif', '', 'symbol'],
  [7, 'kit_symbol_stalk.gif', '', 'symbol'],
  // No image in the kit: the client draws nothing for it.
  [8, 'kit_symbol_missing.gif', '', 'symbol'],
  // First image missing: the client tints the second.
  [9, 'kit_symbol_absent.gif', 'kit_symbol_ghost.gif', 'symbol'],
  [101, 'kit_symbol_crown_part2.gif', 'kit_symbol_crown_part1.gif', 'symbol'],
  [154, 'kit_symbol_moon.gif', '', 'symbol'],
  [250, 'kit_symbol_block.gif', '', 'symbol'],
];

/** Colour ids → hex, as `base_color` (what the client tints with), `symbol_color` and `background_color` rows. */
export const KIT_BADGE_COLORS: [number, string][] = [
  [1, 'ffd601'],
  [2, 'ec7600'],
  [3, '84de00'],
  [4, '589a00'],
  [5, '50c1fb'],
  [6, '006fcf'],
  [7, 'ff98e3'],
  [8, 'f334bf'],
  [9, 'ff2d2d'],
  [10, 'af0a0a'],
  [11, 'ffffff'],
  [12, 'c0c0c0'],
  [13, '373737'],
];

export function badgeTableCsv(): string {
  const q = (v: string | number) => `"${v}"`;
  const lines: string[] = [];
  for (const [id, first, second, type] of KIT_BADGE_ROWS)
    lines.push([q(id), q(first), second ? q(second) : '', q(type), q(1)].join(','));
  for (const type of ['base_color', 'symbol_color', 'background_color']) {
    for (const [id, hex] of KIT_BADGE_COLORS) lines.push([q(id), q(hex), '', q(type), q(1)].join(','));
  }
  return lines.join('\n') + '\n';
}

/** The kit's part images by texture name (`badgepart_<name>`). */
export function badgePartImages(): Map<string, RgbaImage> {
  return new Map(KIT_BADGE_IMAGES.map((p) => [`badgepart_${p.name}`, image(p)]));
}

/** group_badge.nitro as the Nitro client ships it: one spritesheet, frames `badgepart_<name>.png`, no assets. */
export async function badgePartLibrary(): Promise<Buffer> {
  return writeBadgePartLibrary(badgePartImages());
}

export async function badgeKitFiles(layout: 'nitro' | 'flash'): Promise<KitFile[]> {
  const files: KitFile[] = [{ path: BADGE_TABLE_PATH, data: Buffer.from(badgeTableCsv(), 'utf8') }];
  if (layout === 'nitro') {
    files.push({ path: BADGE_LIBRARY_PATH, data: await badgePartLibrary() });
    return files;
  }
  const images = badgePartImages();
  for (const p of KIT_BADGE_IMAGES) {
    const img = images.get(`badgepart_${p.name}`)!;
    const data = p.gif ? encodeGif([img], [0]) : encodePngCompact(img);
    files.push({ path: `${BADGE_FLASH_DIR}/badgepart_${p.name}.${p.gif ? 'gif' : 'png'}`, data });
  }
  return files;
}
