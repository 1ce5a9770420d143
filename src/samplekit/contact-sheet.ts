// A contact sheet of the kit: every sprite of every bundle (furni and figure libraries) on one PNG,
// each numbered, with a text legend mapping numbers to library and asset names. For looking at the
// art, not for tests' pixels.
import { type AssetLibrary, readAssetLibrary } from '../formats/asset-library.js';
import { type RgbaImage, createImage } from '../imaging/image.js';
import { drawSprite } from '../imaging/composite.js';
import { encodePngCompact } from '../imaging/png-compact.js';
import { drawText, textWidth } from './pixel-font.js';
import { type KitFile } from './kit-file.js';

export interface ContactSheet {
  png: Buffer;
  legend: string;
  sprites: number;
}

export interface ContactSheetOptions {
  /** Row width in pixels (default 1800). */
  width?: number;
  /** Libraries whose name matches are left out (the generated benchmark items repeat a few sets). */
  skip?: (libraryName: string) => boolean;
}

const LABEL = 0x000000ff;
const HEADER = 0x202080ff;

export async function buildContactSheet(
  files: Iterable<KitFile> | AsyncIterable<KitFile>,
  opts: ContactSheetOptions = {},
): Promise<ContactSheet> {
  const rowWidth = opts.width ?? 1800;
  const libs: { path: string; lib: AssetLibrary | null; error?: string }[] = [];
  for await (const f of files) {
    if (!f.path.endsWith('.nitro')) continue;
    try {
      const lib = await readAssetLibrary(f.data, f.path);
      if (opts.skip?.(lib.name)) continue;
      libs.push({ path: f.path, lib });
    } catch (e) {
      libs.push({ path: f.path, lib: null, error: (e as Error).message });
    }
  }
  libs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  // Layout first (positions only), then draw once the canvas size is known.
  type Cell = { x: number; y: number; img: RgbaImage; label: string };
  const cells: Cell[] = [];
  const headers: { x: number; y: number; text: string }[] = [];
  const legend: string[] = [];
  let x = 0;
  let y = 0;
  let rowH = 0;
  let n = 0;
  const newRow = () => {
    if (x > 0) {
      y += rowH + 4;
      x = 0;
      rowH = 0;
    }
  };
  libs.forEach((entry, li) => {
    newRow();
    const head = `L${li} ${entry.lib ? '' : 'UNREADABLE'}`.trim();
    headers.push({ x: 2, y: y + 2, text: head });
    legend.push(`L${li} ${entry.path}${entry.error ? `  (not readable: ${entry.error})` : ''}`);
    y += 10;
    if (!entry.lib) return;
    for (const name of [...entry.lib.sprites.keys()].sort()) {
      const img = entry.lib.sprites.get(name)!;
      const label = String(n);
      const w = Math.max(img.width, textWidth(label)) + 6;
      const h = img.height + 9;
      if (x > 0 && x + w > rowWidth) {
        y += rowH + 4;
        x = 0;
        rowH = 0;
      }
      cells.push({ x: x + 3, y, img, label });
      legend.push(`  ${n} ${name} ${img.width}x${img.height}`);
      x += w;
      rowH = Math.max(rowH, h);
      n++;
    }
  });
  const height = y + rowH + 4;
  const width = Math.max(rowWidth, ...cells.map((c) => c.x + c.img.width + 3));
  const sheet = createImage(width, Math.max(1, height));
  // Grey checkerboard: white, black and transparent parts of a sprite all stay visible.
  for (let py = 0; py < sheet.height; py++) {
    for (let px = 0; px < sheet.width; px++) {
      const v = ((px >> 3) + (py >> 3)) & 1 ? 0xa8 : 0x98;
      const i = (py * sheet.width + px) * 4;
      sheet.data[i] = v;
      sheet.data[i + 1] = v;
      sheet.data[i + 2] = v + 12;
      sheet.data[i + 3] = 255;
    }
  }
  for (const h of headers) drawText(sheet, h.text, h.x, h.y, HEADER);
  for (const c of cells) {
    drawSprite(sheet, c.img, c.x, c.y);
    drawText(sheet, c.label, c.x, c.y + c.img.height + 2, LABEL);
  }
  return { png: encodePngCompact(sheet), legend: legend.join('\n') + '\n', sprites: n };
}
