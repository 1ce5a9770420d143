// Reading what pre-v18 numeric figures convert through: the Shockwave-era figure list
// (`--legacy-figuredata FILE`, else gamedata/figuredata_oldschool.xml in the asset folder, the name
// Avatara4j gives it) and the hotel's own palettes (gamedata/FigureData.json, else figuredata.xml).
// Without the figure list a hotel answers no numeric figure, and says why.
import { dirname, join } from 'node:path';
import { type FigureDataDoc } from '../formats/gamedata/figure-types.js';
import { parseFigureDataXml } from '../formats/gamedata/figure-xml.js';
import { parseLegacyFigureDataXml, type LegacyFigureEntry } from '../formats/gamedata/legacy-figure-xml.js';
import { type FigureDataPalette } from '../formats/gamedata/figure-types.js';
import { isFile, readAssetFile } from './files.js';

export const DEFAULT_LEGACY_FIGURE_FILE = 'gamedata/figuredata_oldschool.xml';

export type LegacyFigureSources =
  | { ok: true; entries: LegacyFigureEntry[]; palettes: FigureDataPalette[]; files: string[] }
  | { ok: false; reason: string; files: string[] };

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export async function readLegacyFigureSources(assetsDir: string, file?: string): Promise<LegacyFigureSources> {
  const table = file ?? join(assetsDir, DEFAULT_LEGACY_FIGURE_FILE);
  const json = join(assetsDir, 'gamedata', 'FigureData.json');
  const xml = join(assetsDir, 'gamedata', 'figuredata.xml');
  const files = [table, json, xml];
  if (!(await isFile(table))) {
    return {
      ok: false,
      reason: `no Shockwave-era figure list (${table}; --legacy-figuredata names another)`,
      files,
    };
  }
  try {
    const entries = parseLegacyFigureDataXml(
      (await readAssetFile(table, file === undefined ? assetsDir : dirname(table))).toString('utf8'),
      table,
    );
    let palettes: FigureDataPalette[];
    if (await isFile(json)) {
      const doc = JSON.parse(
        (await readAssetFile(json, assetsDir)).toString('utf8').replace(/^\uFEFF/, ''),
      ) as FigureDataDoc;
      palettes = Array.isArray(doc.palettes) ? doc.palettes : [];
    } else if (await isFile(xml)) {
      palettes = parseFigureDataXml((await readAssetFile(xml, assetsDir)).toString('utf8'), xml).palettes;
    } else return { ok: false, reason: `no figure data (${json} or ${xml}) to find colours in`, files };
    return { ok: true, entries, palettes, files };
  } catch (e) {
    return { ok: false, reason: message(e), files };
  }
}
