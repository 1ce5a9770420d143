// The Shockwave-era figure data (`figuredata_oldschool.xml`, the registration's figure list of the
// pre-v18 client): per gender, one element per clothing entry named by its part type, holding the old
// sprite id, the parts it draws and its colour list. Pre-v18 numeric figures name a sprite and an index
// into that list (avatar/legacy-figure.ts). Shape as Avatara4j's `LegacyFiguredataReader` reads it:
//   <genders><female><ch><sprite>630</sprite><parts><rs>1</rs><ch>2</ch></parts>
//     <colours><colour>666666</colour>…</colours></ch>…</female><male>…</male></genders>
import { FormatError } from '../errors.js';
import { child, parseXml } from '../xml/xml-tree.js';

export interface LegacyFigureEntry {
  /** `female` or `male` (the element the entry sits in). */
  gender: string;
  /** The entry's element name: its set type (`hr`, `hd`, `ch`, `lg`, `sh`). */
  type: string;
  sprite: number;
  /** The part types it draws, with their ids (`rs` 1, `ch` 2, `ls` 1). */
  parts: { type: string; id: number }[];
  /** The colours a numeric figure's colour index (1 = first) picks from, as 6 hex digits. */
  colours: string[];
}

export function parseLegacyFigureDataXml(xml: string, file = 'figuredata_oldschool.xml'): LegacyFigureEntry[] {
  const root = parseXml(xml, 'legacy figure data', file);
  if (root.name !== 'genders')
    throw new FormatError('legacy figure data', file, `the root is <${root.name}>, not <genders>`);
  const entries: LegacyFigureEntry[] = [];
  for (const gender of root.children) {
    for (const el of gender.children) {
      const sprite = Number.parseInt(child(el, 'sprite')?.text ?? '', 10);
      if (!Number.isFinite(sprite)) continue; // an entry without a sprite names nothing a figure can point at
      entries.push({
        gender: gender.name,
        type: el.name,
        sprite,
        parts: (child(el, 'parts')?.children ?? []).map((p) => ({ type: p.name, id: Number.parseInt(p.text, 10) })),
        colours: (child(el, 'colours')?.children ?? []).filter((c) => c.name === 'colour').map((c) => c.text),
      });
    }
  }
  return entries;
}
