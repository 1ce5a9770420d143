// Contact sheet of the kit's figure libraries: every sprite (aliases skipped) in a grid, one block per
// library, on a light checker so white and transparent pixels tell apart. For looking, not for tests.
import { readAssetLibrary } from '../../formats/asset-library.js';
import { drawSprite } from '../../imaging/composite.js';
import { type RgbaImage, createImage } from '../../imaging/image.js';
import { type KitFile } from '../kit-file.js';

const CELL = 64;
const COLS = 32;
const GAP = 6;

export async function avatarContactSheet(files: KitFile[]): Promise<RgbaImage> {
  const figure = files
    .filter((f) => f.path.startsWith('bundled/figure/') && f.path.endsWith('.nitro'))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  const blocks: RgbaImage[][] = [];
  for (const f of figure) {
    const lib = await readAssetLibrary(f.data, f.path);
    blocks.push([...lib.sprites.keys()].sort().map((k) => lib.sprites.get(k)!));
  }
  const rowsPer = blocks.map((b) => Math.max(1, Math.ceil(b.length / COLS)));
  const height = rowsPer.reduce((s, r) => s + r * CELL + GAP, 0);
  const sheet = createImage(COLS * CELL, height);
  // checker background
  for (let y = 0; y < sheet.height; y++) {
    for (let x = 0; x < sheet.width; x++) {
      const v = ((x >> 3) + (y >> 3)) % 2 ? 0xe8 : 0xd0;
      const i = (y * sheet.width + x) * 4;
      sheet.data[i] = v;
      sheet.data[i + 1] = v;
      sheet.data[i + 2] = v + 8;
      sheet.data[i + 3] = 255;
    }
  }
  let top = 0;
  blocks.forEach((sprites, b) => {
    sprites.forEach((img, i) => {
      const cx = (i % COLS) * CELL;
      const cy = top + Math.floor(i / COLS) * CELL;
      drawSprite(sheet, img, cx + Math.max(0, (CELL - img.width) >> 1), cy + Math.max(0, (CELL - img.height) >> 1));
    });
    top += rowsPer[b]! * CELL;
    // separator line between libraries
    for (let y = top; y < top + GAP && y < sheet.height; y++) {
      for (let x = 0; x < sheet.width; x++) {
        const i = (y * sheet.width + x) * 4;
        sheet.data[i] = 0x40;
        sheet.data[i + 1] = 0x40;
        sheet.data[i + 2] = 0x90;
        sheet.data[i + 3] = 255;
      }
    }
    top += GAP;
  });
  return sheet;
}
