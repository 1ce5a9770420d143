// Figure string → the sets the avatar wears, and the parts each body part draws with their colours.
// Every rule follows the game client (nitro-renderer `src/nitro/avatar/`), named where it applies.
import { LRUCache } from 'lru-cache';
import { AvatarRenderError } from './errors.js';
import { type FigureDataDoc, type FigureDataSet, type FigureDataSetType } from '../formats/gamedata/figure-types.js';

/** One part of a set, in the client's drawing order of its set (see `orderSetParts`). */
export interface SetPart {
  type: string;
  id: number;
  /** 0 = not tinted, n = the figure's n-th colour of the set. */
  colorIndex: number;
  index: number;
}

/** A FigureData set with its parts in the client's order. */
export interface FigureSet extends FigureDataSet {
  drawParts: SetPart[];
}

export interface FigureIndex {
  setTypes: Map<string, FigureDataSetType>;
  /** set type → set id → set, in the client's set order (the stock placeholder head first). */
  sets: Map<string, Map<number, FigureSet>>;
  /** palette id → colour id → 0xRRGGBB */
  palettes: Map<number, Map<number, number>>;
  /** palette id → first selectable non-club colour id (for picking a colour in tools and tests). */
  defaultColour: Map<number, number>;
}

/**
 * The placeholder head of Nitro's stock renderer configuration (`avatar.default.figuredata`): the client
 * loads it before the hotel's FigureData, so it is the first club-0 unisex `hd` set and the head every
 * figure without `hd` gets: a plain body and head without a face, untinted. A hotel that defines set
 * 99999 itself replaces it, as the client's `injectJSON` does.
 */
export const PLACEHOLDER_HEAD: FigureDataSet = {
  id: 99999,
  gender: 'U',
  club: 0,
  colorable: true,
  selectable: false,
  parts: [
    { id: 1, type: 'bd', colorable: true, index: 0, colorindex: 1 },
    { id: 1, type: 'hd', colorable: true, index: 0, colorindex: 1 },
    { id: 1, type: 'lh', colorable: true, index: 0, colorindex: 1 },
    { id: 1, type: 'rh', colorable: true, index: 0, colorindex: 1 },
  ],
};

/**
 * `FigurePartSet`: each part is inserted before the first earlier part of the same type whose index is
 * not higher, so parts of one type run from the highest index down and, on equal index, the later-listed
 * part comes first. The client draws a body part's list from its end, so the highest index is on top and,
 * on a tie, the later-listed part.
 */
export function orderSetParts(set: FigureDataSet): SetPart[] {
  const out: SetPart[] = [];
  for (const p of set.parts ?? []) {
    if (!p || typeof p.type !== 'string') continue;
    const part: SetPart = {
      type: p.type,
      id: Number(p.id),
      colorIndex: Number(p.colorindex ?? 0) || 0,
      index: Number(p.index ?? 0) || 0,
    };
    const at = out.findIndex((e) => e.type === part.type && e.index <= part.index);
    if (at >= 0) out.splice(at, 0, part);
    else out.push(part);
  }
  return out;
}

export function indexFigureData(doc: FigureDataDoc): FigureIndex {
  const setTypes = new Map<string, FigureDataSetType>();
  const sets = new Map<string, Map<number, FigureSet>>();
  for (const st of doc.setTypes ?? []) {
    if (!st || typeof st.type !== 'string') continue;
    setTypes.set(st.type, st);
    const m = new Map<number, FigureSet>();
    const list = st.sets ?? [];
    if (st.type === 'hd' && !list.some((s) => Number(s?.id) === PLACEHOLDER_HEAD.id))
      m.set(PLACEHOLDER_HEAD.id, { ...PLACEHOLDER_HEAD, drawParts: orderSetParts(PLACEHOLDER_HEAD) });
    for (const s of list) if (s) m.set(Number(s.id), { ...s, drawParts: orderSetParts(s) });
    sets.set(st.type, m);
  }
  const palettes = new Map<number, Map<number, number>>();
  const defaultColour = new Map<number, number>();
  for (const p of doc.palettes ?? []) {
    const m = new Map<number, number>();
    for (const c of p.colors ?? []) {
      const rgb = parseInt(String(c.hexCode).replace(/^#/, ''), 16);
      m.set(Number(c.id), Number.isFinite(rgb) ? rgb & 0xffffff : 0xffffff);
      if (!defaultColour.has(Number(p.id)) && c.selectable !== false && !c.club)
        defaultColour.set(Number(p.id), Number(c.id));
    }
    palettes.set(Number(p.id), m);
  }
  return { setTypes, sets, palettes, defaultColour };
}

export interface FigureEntry {
  setType: string;
  setId: number;
  /** Colour ids as the client parses them: a piece that is not a number is NaN, which is no colour. */
  colours: number[];
}

/** `parseInt` as the client applies it to every piece: leading digits count, anything else is NaN. */
function clientInt(piece: string): number {
  return parseInt(piece, 10);
}

/**
 * Splits `hr-100-61.hd-180-1` as `AvatarFigureContainer` does: a piece needs a type and a set; colours
 * that are empty or not numbers stay as NaN (no colour); a repeated set type replaces the earlier one and
 * moves to the end (`updatePart`). A set id that is not a number cannot be rendered as given.
 */
export function parseFigureString(figure: string): FigureEntry[] {
  const byType = new Map<string, FigureEntry>();
  for (const piece of String(figure ?? '').split('.')) {
    const bits = piece.trim().split('-');
    if (bits.length < 2) continue;
    const setType = bits[0]!.trim().toLowerCase();
    if (!setType) continue;
    const setId = clientInt(bits[1]!);
    if (!Number.isFinite(setId))
      throw new AvatarRenderError('bad-figure', `figure part "${piece.trim()}" has no set id`);
    byType.delete(setType);
    byType.set(setType, { setType, setId, colours: bits.slice(2).map(clientInt) });
  }
  if (byType.size === 0) throw new AvatarRenderError('bad-figure', 'figure string names no parts');
  return [...byType.values()];
}

export interface WornSet {
  setType: string;
  setId: number;
  colours: number[];
  set: FigureSet;
  paletteId: number;
  /** Added because the set type is mandatory and the figure had none. */
  isDefault: boolean;
}

export interface ResolvedFigure {
  /** The worn sets in the client's order (figure order, repeated types moved to the end, defaults last). */
  sets: WornSet[];
  /** Part types hidden by a worn set (shared between resolutions: never changed). */
  hidden: ReadonlySet<string>;
  gender: 'M' | 'F';
}

/**
 * The figure's gender when the request names none: that of its first set with one. The client is told the
 * user's gender instead (`AvatarRenderManager.createAvatarImage`); `gender=` is that.
 */
function genderOf(entries: FigureEntry[], idx: FigureIndex): 'M' | 'F' {
  for (const e of entries) {
    const g = idx.sets.get(e.setType)?.get(e.setId)?.gender?.toUpperCase();
    if (g === 'M' || g === 'F') return g;
  }
  return 'M';
}

/** `SetType.getDefaultPartSet`: the first club-0 set of the gender or unisex, in the client's set order. */
function defaultSet(sets: Map<number, FigureSet> | undefined, gender: 'M' | 'F'): FigureSet | undefined {
  for (const s of sets?.values() ?? [])
    if ((Number(s.club ?? 0) || 0) === 0 && (s.gender === gender || s.gender === 'U')) return s;
  return undefined;
}

/**
 * A figure's worn sets without their colours (`entry`: index of the figure's entry, -1 for a default), or why it does
 * not resolve.
 */
interface ShapeSet {
  setType: string;
  setId: number;
  set: FigureSet;
  paletteId: number;
  entry: number;
}
type FigureShape =
  | { sets: ShapeSet[]; hidden: ReadonlySet<string>; gender: 'M' | 'F' }
  | { code: 'unknown-set'; message: string };

/**
 * Per FigureData index (one per loaded hotel): shapes by the figure's sets without colours. Every fresh
 * colour of a popular outfit resolves the same sets; the main thread (key) and the worker (plan) both
 * resolve each request. Bounded: figures are client input. Shapes are never changed once made.
 */
const shapes = new WeakMap<FigureIndex, LRUCache<string, FigureShape>>();
const SHAPES_PER_HOTEL = 4096;

/** `resolveFigure` without the colours: depends only on the entries' set types and ids, in order. */
function figureShape(entries: FigureEntry[], idx: FigureIndex, asked: 'M' | 'F' | undefined): FigureShape {
  const worn: FigureEntry[] = [];
  const at: number[] = [];
  for (let i = 0; i < entries.length; i++) {
    if (idx.setTypes.has(entries[i]!.setType)) {
      worn.push(entries[i]!);
      at.push(i);
    }
  }
  const gender = asked ?? genderOf(worn, idx);
  const sets: ShapeSet[] = [];
  for (let i = 0; i < worn.length; i++) {
    const e = worn[i]!;
    const set = idx.sets.get(e.setType)?.get(e.setId);
    if (!set) return { code: 'unknown-set', message: `set ${e.setType}-${e.setId} is not in the figure data` };
    sets.push({
      setType: e.setType,
      setId: e.setId,
      set,
      paletteId: Number(idx.setTypes.get(e.setType)!.paletteId),
      entry: at[i]!,
    });
  }
  const present = new Set(worn.map((e) => e.setType));
  const flag = gender === 'M' ? 'mandatory_m_1' : 'mandatory_f_1';
  for (const st of idx.setTypes.values()) {
    if (present.has(st.type) || !st[flag]) continue;
    const set = defaultSet(idx.sets.get(st.type), gender);
    if (set) sets.push({ setType: st.type, setId: Number(set.id), set, paletteId: Number(st.paletteId), entry: -1 });
  }
  return { sets, hidden: hiddenBy(sets), gender };
}

/**
 * Resolves the worn sets. Unknown set types are ignored; a set id the figure data does not know fails
 * (`unknown-set`), so the service falls back to the upstream imager. Missing mandatory set types get the
 * client's default (`AvatarRenderManager.validateAvatarFigure`): the types mandatory for the gender at the
 * club level the client asks for (`mandatory_<g>_1`), the set of `defaultSet`, colour id 0 (not in any
 * palette, so untinted). The sets are resolved once per outfit (`shapes`); the colours are the figure's.
 */
export function resolveFigure(figure: string, idx: FigureIndex, gender?: 'M' | 'F'): ResolvedFigure {
  return resolveOutfit(figure, idx, gender).figure;
}

/**
 * `resolveFigure`, with the figure's outfit: its sets as given without colours, a text equal for two
 * figures exactly when they resolve to the same sets (only their colours may differ).
 */
export function resolveOutfit(
  figure: string,
  idx: FigureIndex,
  gender?: 'M' | 'F',
): { outfit: string; figure: ResolvedFigure } {
  const entries = parseFigureString(figure);
  // Set types have no '-' or '.' (the figure is split on them), so this names the sets unambiguously.
  let outfit = '';
  for (const e of entries) outfit += `${e.setType}-${e.setId}.`;
  // A gender asked for may choose other defaults: its own outfit (no set type has a space).
  if (gender) outfit += ` ${gender}`;
  let memo = shapes.get(idx);
  if (!memo) shapes.set(idx, (memo = new LRUCache<string, FigureShape>({ max: SHAPES_PER_HOTEL })));
  let shape = memo.get(outfit);
  if (!shape) memo.set(outfit, (shape = figureShape(entries, idx, gender)));
  if ('code' in shape) throw new AvatarRenderError(shape.code, shape.message);
  const sets: WornSet[] = [];
  for (const s of shape.sets) {
    sets.push({
      setType: s.setType,
      setId: s.setId,
      colours: s.entry >= 0 ? entries[s.entry]!.colours : [0],
      set: s.set,
      paletteId: s.paletteId,
      isDefault: s.entry < 0,
    });
  }
  return { outfit, figure: { sets, hidden: shape.hidden, gender: shape.gender } };
}

function hiddenBy(sets: readonly { set: FigureSet }[]): Set<string> {
  const hidden = new Set<string>();
  for (const w of sets) for (const h of w.set.hiddenLayers ?? []) if (h?.partType) hidden.add(h.partType);
  return hidden;
}

/** The figure without the worn sets of some types (and without what those sets hid). */
export function withoutSetTypes(figure: ResolvedFigure, setTypes: ReadonlySet<string>): ResolvedFigure {
  const sets = figure.sets.filter((w) => !setTypes.has(w.setType));
  return { ...figure, sets, hidden: hiddenBy(sets) };
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

/**
 * The parts each body part draws, in the client's list order (`AvatarStructure.getParts`, which runs once
 * per body part): worn sets in order, each set's parts in its order, only the part types the body part
 * holds (`bodyPartOf`; types it gives no body part are never drawn), hidden types removed. The colour
 * follows the client exactly, quirk included: its colour variable is not reset between the parts of a
 * body part, so a part whose colour slot the figure leaves empty (`ch-3110-65` for a two-colour set) takes
 * the colour of the previous part of that body part; a colour id that is not in the palette (or not a
 * number) is no colour. Eyes are never tinted.
 */
export function partsByBodyPart(
  figure: ResolvedFigure,
  idx: FigureIndex,
  bodyPartOf: (type: string) => string | undefined,
): Map<string, FigurePart[]> {
  const out = new Map<string, FigurePart[]>();
  const colour = new Map<string, number | undefined>();
  for (const w of figure.sets) {
    const palette = idx.palettes.get(w.paletteId);
    // A set type whose palette is missing draws nothing in the client.
    if (!palette) continue;
    for (const p of w.set.drawParts) {
      const bp = bodyPartOf(p.type);
      if (bp === undefined) continue;
      if (w.colours.length > p.colorIndex - 1) {
        const id = w.colours[p.colorIndex - 1];
        colour.set(bp, id !== undefined && Number.isFinite(id) ? palette.get(id) : undefined);
      }
      if (figure.hidden.has(p.type)) continue;
      const tint = p.colorIndex > 0 && p.type !== 'ey' ? colour.get(bp) : undefined;
      let list = out.get(bp);
      if (!list) out.set(bp, (list = []));
      list.push({ type: p.type, id: p.id, tint, setType: w.setType, setId: w.setId });
    }
  }
  return out;
}
