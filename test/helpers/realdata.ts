// Real Habbo data lives beside the repo in ../shared/realdata; a user's clone has none.
// Tests that need it call realdataDir() and skip, saying so, when it is absent.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';
import { createImage, type RgbaImage } from '../../src/imaging/image.js';
import { drawSprite } from '../../src/imaging/composite.js';
import { encodePngCompact } from '../../src/imaging/png-compact.js';

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const REALDATA = process.env.HOTEL_IMAGER_REALDATA ?? join(repoRoot, '..', 'shared', 'realdata');

/** The path below realdata, or a skip message for `test(name, { skip })`. */
export function realdata(sub: string): { path: string; skip: string | false } {
  const path = join(REALDATA, sub);
  return existsSync(path) ? { path, skip: false } : { path, skip: `real data not present at ${path}; skipping` };
}

// Contact sheets of real renders, for looking at (never commit them: real art). Written only when
// REALDATA_SHEETS names a folder, e.g. REALDATA_SHEETS=/tmp/look.

export const SHEETS = process.env.REALDATA_SHEETS;

/**
 * Lays cells out left to right on a light-blue background (transparent pixels show as background), one
 * line per inner array, wrapped at `maxWidth`; each cell keeps its own size. `scale` enlarges small renders.
 */
export function contactSheet(rows: RgbaImage[][], scale = 1, maxWidth = 1800): RgbaImage {
  const gap = 3;
  const placed: { img: RgbaImage; x: number; y: number }[] = [];
  let y = 0;
  let width = 1;
  for (const row of rows) {
    let x = 0;
    let lineH = 0;
    for (const img of row) {
      if (x > 0 && x + img.width > maxWidth) {
        y += lineH + gap;
        x = 0;
        lineH = 0;
      }
      placed.push({ img, x, y });
      x += img.width + gap;
      lineH = Math.max(lineH, img.height);
      width = Math.max(width, x);
    }
    y += lineH + gap * 3;
  }
  const out = createImage(width, Math.max(1, y));
  for (let i = 0; i < out.data.length; i += 4) out.data.set([255, 255, 255, 255], i);
  for (const { img, x, y: top } of placed) {
    const bg = createImage(img.width, img.height);
    for (let i = 0; i < bg.data.length; i += 4) bg.data.set([205, 220, 235, 255], i);
    drawSprite(out, bg, x, top);
    drawSprite(out, img, x, top);
  }
  if (scale === 1) return out;
  const big = createImage(out.width * scale, out.height * scale);
  for (let yy = 0; yy < big.height; yy++)
    for (let xx = 0; xx < big.width; xx++) {
      const s = (Math.floor(yy / scale) * out.width + Math.floor(xx / scale)) * 4;
      big.data.set(out.data.subarray(s, s + 4), (yy * big.width + xx) * 4);
    }
  return big;
}

/** Writes a sheet (and a text legend of what each row holds) to $REALDATA_SHEETS when it is set. */
export function writeSheet(name: string, rows: RgbaImage[][], legend: string[], scale = 1): void {
  if (!SHEETS) return;
  mkdirSync(SHEETS, { recursive: true });
  writeFileSync(join(SHEETS, `${name}.png`), encodePngCompact(contactSheet(rows, scale)));
  writeFileSync(join(SHEETS, `${name}.txt`), legend.join('\n') + '\n');
}
