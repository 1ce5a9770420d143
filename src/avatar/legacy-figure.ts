// Pre-v18 numeric figures (`1000118001270012900121001`, what Shockwave-era hotels stored and old CMS
// databases still hold), turned into a figure string through the hotel's own figure data. The mapping is
// Alcosmos's converter as Avatara and Avatara4j run it (`FigureConverter.convertOldToNew`; Minerva serves
// it as its imager's convert path, which the convert route, server/avatar/convert-handler.ts, answers too):
// - 25 digits: hair sprite (3) and colour index (2), then head, legs, shoes, shirt the same way;
// - a sprite id is the set id of the new figure data (the v18 sets kept the old sprite numbers), except
//   shoes 730, which became set 3206;
// - a colour index (1 = first) picks from the old sprite's colour list in the Shockwave-era figure data
//   (`figuredata_oldschool.xml`: the first entry with that sprite that draws a part of the set type and
//   has that many colours), and that hex is the first colour of the hotel's palettes (in file order) with
//   the same hex, whose id the figure string carries;
// - a hair sprite that had a hat drawn into it gets that hat (`takeCareOfHats`): the `HATS` table below.
// Where the converters give `null` (a colour the tables lack: they write `hr-100-null`, or throw on the
// hat's colour) we leave the colour out, which the renderer draws as the client does a part without one.
import { type LegacyFigureEntry } from '../formats/gamedata/legacy-figure-xml.js';
import { type FigureDataPalette } from '../formats/gamedata/figure-types.js';

/** Exactly 25 digits: the converters read five sprite (3) + colour (2) pairs and nothing else. */
export const LEGACY_FIGURE = /^\d{25}$/;

export function isLegacyFigure(figure: string): boolean {
  return LEGACY_FIGURE.test(figure);
}

/**
 * Hair sprites of the old client that carried a hat, and the v18 parts that draw it (Avatara4j
 * `FigureConverter.takeCareOfHats`; `c` is the hair's converted colour). Any other hair has no hat (Avatara,
 * the C# original, wrote `ha-0-<c>`, a set no figure data has; Avatara4j dropped it, and so do we).
 */
const HATS: ReadonlyMap<number, string> = new Map([
  [120, 'ha-1001-0'],
  [140, 'ha-1002-c'],
  [525, 'ha-1002-c'],
  [150, 'ha-1003-c'],
  [535, 'ha-1003-c'],
  [160, 'ha-1004-c'],
  [565, 'ha-1004-c'],
  [570, 'ha-1005-c'],
  [175, 'ha-1006-0'],
  [585, 'ha-1006-0'],
  [176, 'ha-1007-0.fa-1202-70'],
  [580, 'ha-1007-0.fa-1202-70'],
  [177, 'ha-1008-0'],
  [590, 'ha-1008-0'],
  [178, 'ha-1009-1321'],
  [595, 'ha-1009-1321'],
  [130, 'ha-1010-c'],
  [801, 'hr-829-c.fa-1201-62.ha-1011-c'],
  [800, 'ha-1012-c'],
  [810, 'ha-1012-c'],
  [802, 'ha-1013-c'],
  [811, 'ha-1013-c'],
]);

/** The numeric figure's pairs in the order it writes them. */
const SLOTS = ['hr', 'hd', 'lg', 'sh', 'ch'] as const;
/** The order the converters write the figure string in. */
const ORDER = ['hr', 'hd', 'ch', 'lg', 'sh'] as const;

export interface LegacyFigureData {
  /** The Shockwave-era figure list. */
  entries: readonly LegacyFigureEntry[];
  /** The hotel's palettes, in file order. */
  palettes: readonly FigureDataPalette[];
}

export type LegacyConversion = { ok: true; figure: string; missing: string[] } | { ok: false; reason: string };

function colourId(data: LegacyFigureData, type: string, sprite: number, index: number): number | undefined {
  if (index < 1) return undefined;
  const entry = data.entries.find(
    (e) => e.sprite === sprite && e.parts.some((p) => p.type === type) && e.colours.length >= index,
  );
  const hex = entry?.colours[index - 1]?.toLowerCase();
  if (hex === undefined) return undefined;
  for (const palette of data.palettes) {
    const found = palette.colors.find((c) => c.hexCode.toLowerCase() === hex);
    if (found) return found.id;
  }
  return undefined;
}

/** A numeric figure as a figure string, or why it is not one; `missing` lists colours the tables lack. */
export function convertLegacyFigure(figure: string, data: LegacyFigureData): LegacyConversion {
  if (!isLegacyFigure(figure)) {
    return { ok: false, reason: `${JSON.stringify(figure.slice(0, 40))} is not a pre-v18 figure (25 digits)` };
  }
  const parts = new Map<string, { set: number; colour: number | undefined }>();
  const missing: string[] = [];
  SLOTS.forEach((type, i) => {
    const sprite = Number.parseInt(figure.slice(i * 5, i * 5 + 3), 10);
    const index = Number.parseInt(figure.slice(i * 5 + 3, i * 5 + 5), 10);
    const colour = colourId(data, type, sprite, index);
    if (colour === undefined) missing.push(`${type} sprite ${sprite} colour ${index}`);
    parts.set(type, { set: type === 'sh' && sprite === 730 ? 3206 : sprite, colour });
  });
  const written = ORDER.map((type) => {
    const p = parts.get(type)!;
    return p.colour === undefined ? `${type}-${p.set}` : `${type}-${p.set}-${p.colour}`;
  });
  const hair = parts.get('hr')!;
  const hat = HATS.get(hair.set);
  if (hat !== undefined) {
    const c = hair.colour === undefined ? '' : `-${hair.colour}`;
    written.push(hat.replace(/-c(?=\.|$)/g, c));
  }
  return { ok: true, figure: written.join('.'), missing };
}
