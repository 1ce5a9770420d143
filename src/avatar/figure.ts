// Figure string → the parts to draw: sets, colours, colorindex, hidden layers and mandatory defaults.
import { AvatarRenderError } from './errors.js';
import { type FigureDataDoc, type FigureDataSet, type FigureDataSetType } from '../formats/gamedata/figure-types.js';

export interface FigureIndex {
  setTypes: Map<string, FigureDataSetType>;
  sets: Map<string, Map<number, FigureDataSet>>;
  /** palette id → colour id → 0xRRGGBB */
  palettes: Map<number, Map<number, number>>;
  /** palette id → first selectable non-club colour id (for mandatory defaults). */
  defaultColour: Map<number, number>;
}

export function indexFigureData(doc: FigureDataDoc): FigureIndex {
  const setTypes = new Map<string, FigureDataSetType>();
  const sets = new Map<string, Map<number, FigureDataSet>>();
  for (const st of doc.setTypes ?? []) {
    setTypes.set(st.type, st);
    const m = new Map<number, FigureDataSet>();
    for (const s of st.sets ?? []) m.set(Number(s.id), s);
    sets.set(st.type, m);
  }
  const palettes = new Map<number, Map<number, number>>();
  const defaultColour = new Map<number, number>();
  for (const p of doc.palettes ?? []) {
    const m = new Map<number, number>();
    for (const c of p.colors ?? []) {
      const rgb = parseInt(String(c.hexCode).replace(/^#/, ''), 16);
      m.set(Number(c.id), Number.isFinite(rgb) ? rgb & 0xffffff : 0xffffff);
      if (!defaultColour.has(Number(p.id)) && c.selectable !== false && !c.club) defaultColour.set(Number(p.id), Number(c.id));
    }
    palettes.set(Number(p.id), m);
  }
  return { setTypes, sets, palettes, defaultColour };
}

export interface FigureEntry {
  setType: string;
  setId: number;
  colours: number[];
}

/** Splits `hr-100-61.hd-180-1` into entries; a malformed triple is a bad figure. */
export function parseFigureString(figure: string): FigureEntry[] {
  const out: FigureEntry[] = [];
  const seen = new Set<string>();
  for (const piece of String(figure ?? '').split('.')) {
    const p = piece.trim();
    if (!p) continue;
    const bits = p.split('-');
    const setType = bits[0]!.toLowerCase();
    if (!/^[a-z]{1,8}$/.test(setType) || bits.length < 2 || !/^\d{1,9}$/.test(bits[1]!)) {
      throw new AvatarRenderError('bad-figure', `figure part "${p}" is not <type>-<set>[-<colour>…]`);
    }
    const colours: number[] = [];
    for (const c of bits.slice(2)) {
      if (c === '') continue;
      if (!/^\d{1,9}$/.test(c)) throw new AvatarRenderError('bad-figure', `figure part "${p}" has a non-numeric colour`);
      colours.push(Number(c));
    }
    // A repeated set type: the first one counts, as the game client does.
    if (seen.has(setType)) continue;
    seen.add(setType);
    out.push({ setType, setId: Number(bits[1]), colours });
  }
  if (out.length === 0) throw new AvatarRenderError('bad-figure', 'figure string names no parts');
  return out;
}

export interface FigurePart {
  /** Part type (`ch`, `ls`, `hd`…). */
  type: string;
  id: number;
  /** Multiply colour 0xRRGGBB, or undefined for none. */
  tint: number | undefined;
  setType: string;
  setId: number;
}

export interface ResolvedFigure {
  /** Every part of every worn set, in figure order, hidden layers removed. */
  parts: FigurePart[];
  /** Part types hidden by a worn set. */
  hidden: Set<string>;
}

function genderOf(entries: FigureEntry[], idx: FigureIndex): 'm' | 'f' {
  for (const e of entries) {
    const g = idx.sets.get(e.setType)?.get(e.setId)?.gender?.toUpperCase();
    if (g === 'M') return 'm';
    if (g === 'F') return 'f';
  }
  return 'm';
}

function defaultSet(st: FigureDataSetType, gender: 'm' | 'f', drawable: (set: FigureDataSet) => boolean): FigureDataSet | undefined {
  const g = gender.toUpperCase();
  // Only sets the hotel can draw: a default whose library is missing would fail a figure that never asked for it.
  const sets = st.sets.filter(drawable);
  return (
    sets.find((s) => (s.gender === g || s.gender === 'U') && !s.club && s.selectable !== false) ??
    sets.find((s) => s.gender === g || s.gender === 'U') ??
    sets[0]
  );
}

/**
 * Resolves the figure: unknown set ids fail (`unknown-set`) so the service can fall back to the
 * upstream imager; unknown set types are ignored; missing mandatory set types get their default set,
 * chosen among the sets `drawable` accepts (those with a figure library).
 */
export function resolveFigure(figure: string, idx: FigureIndex, drawable: (set: FigureDataSet) => boolean = () => true): ResolvedFigure {
  const entries = parseFigureString(figure).filter((e) => idx.setTypes.has(e.setType));
  const gender = genderOf(entries, idx);
  const present = new Set(entries.map((e) => e.setType));
  for (const st of idx.setTypes.values()) {
    if (present.has(st.type) || !(st[`mandatory_${gender}_0` as const] ?? false)) continue;
    const s = defaultSet(st, gender, drawable);
    if (!s) continue;
    const colour = idx.defaultColour.get(Number(st.paletteId));
    entries.push({ setType: st.type, setId: Number(s.id), colours: colour === undefined ? [] : [colour] });
  }
  const parts: FigurePart[] = [];
  const hidden = new Set<string>();
  for (const e of entries) {
    const st = idx.setTypes.get(e.setType)!;
    const set = idx.sets.get(e.setType)!.get(e.setId);
    if (!set) throw new AvatarRenderError('unknown-set', `set ${e.setType}-${e.setId} is not in the figure data`);
    for (const h of set.hiddenLayers ?? []) if (h?.partType) hidden.add(h.partType);
    const palette = idx.palettes.get(Number(st.paletteId));
    for (const p of set.parts ?? []) {
      const ci = Number(p.colorindex ?? 0);
      let tint: number | undefined;
      // Eyes are never tinted.
      if (ci > 0 && p.type !== 'ey') {
        const colourId = e.colours[ci - 1];
        if (colourId !== undefined) tint = palette?.get(colourId);
      }
      parts.push({ type: p.type, id: Number(p.id), tint, setType: e.setType, setId: e.setId });
    }
  }
  return { parts: parts.filter((p) => !hidden.has(p.type)), hidden };
}
