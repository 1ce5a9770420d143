// Figures for the reference comparison: a seeded sample of real-looking figures built from the hotel's
// own FigureData (gender-consistent, colours from each set type's palette), plus the repro figures of
// issue 13. Reads the Nitro JSON documents directly, not the renderer's model, so the instrument does not
// move when the renderer changes.

/** The parts of FigureData.json / FigureMap.json this sampler reads. */
export interface FigureDataJson {
  palettes: { id: number; colors: { id: number; selectable?: boolean }[] }[];
  setTypes: {
    type: string;
    paletteId: number;
    mandatory_m_0?: boolean;
    mandatory_m_1?: boolean;
    mandatory_f_0?: boolean;
    mandatory_f_1?: boolean;
    sets: {
      id: number;
      gender?: string;
      club?: number;
      selectable?: boolean;
      parts: { id: number; type: string; colorindex?: number }[];
      hiddenLayers?: { partType: string }[];
    }[];
  }[];
}
export interface FigureMapJson {
  libraries: { id: string; parts: { id: number | string | null; type: string }[] }[];
}

export type Gender = 'M' | 'F';
export type FigureKind = 'repro' | 'complete' | 'hat' | 'missing';

/** One `type-id[-colour…]` token of a figure string, kept verbatim (real strings carry `-` and `undefined`). */
export interface FigureToken {
  type: string;
  id: number;
  raw: string;
}

export interface SampledFigure {
  figure: string;
  kind: FigureKind;
  gender: Gender;
  /** Mandatory set types (hd, ch, lg) the figure leaves out. */
  missing: string[];
}

export function parseFigureTokens(figure: string): FigureToken[] {
  return figure
    .split('.')
    .filter((t) => t.length > 0)
    .map((raw) => ({ type: raw.split('-')[0]!, id: Number(raw.split('-')[1]), raw }));
}

export function formatFigure(tokens: FigureToken[]): string {
  return tokens.map((t) => t.raw).join('.');
}

/** The figures issue 13 names, always compared. */
export const REPRO_FIGURES = [
  'hd-180-1.ch-215-66.lg-270-82.sh-290-80',
  'hd-180-1.hr-110-42.ch-215-66.lg-270-82',
  'hd-180-1.ch-3110-65-62.lg-270-82',
  'hd-180-1.ha-3614-75-1333.ch-210-66.lg-270-82',
  'hd-180-1.hr-100-61',
  'hd-180-1.ch-215-66',
  'ch-210-66.lg-270-82.sh-290-91.hr-100-61',
  'hd-180-1.ch-4142-1414-1421.lg-270-82',
  'hd-180-1.ea-4161-1327.ch-215-66.lg-270-82',
  'hd-180-1.lg-270-82.ch-210-66.lg-280-110',
  'hd-180-1.ch-3110-65.lg-270-82',
  'hd-180-1.hr-890-45-.ch-210-66.lg-270-82.ca-1810-undefined',
];

const MANDATORY = ['hd', 'ch', 'lg'];
const BODY = ['hr', 'hd', 'ch', 'lg', 'sh'];
const EXTRAS = ['ha', 'he', 'ea', 'fa', 'ca', 'wa', 'cc', 'cp'];

type SetJson = FigureDataJson['setTypes'][number]['sets'][number];

/** Seeded PRNG (mulberry32): same seed, same sequence, on every platform. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Sets the wardrobe offers and the hotel has a library for, by type and gender; palettes; set lookup. */
export class FigureCatalog {
  private readonly pools = new Map<string, SetJson[]>();
  private readonly palettes = new Map<number, number[]>();
  private readonly paletteOf = new Map<string, number>();
  private readonly sets = new Map<string, SetJson>();

  constructor(
    readonly data: FigureDataJson,
    map: FigureMapJson,
    hasLibrary: (name: string) => boolean,
  ) {
    const mapped = new Set<string>();
    for (const lib of map.libraries ?? []) {
      if (!hasLibrary(lib.id)) continue;
      for (const p of lib.parts ?? []) mapped.add(`${p.type}-${p.id}`);
    }
    for (const p of data.palettes ?? [])
      this.palettes.set(
        Number(p.id),
        (p.colors ?? []).filter((c) => c.selectable !== false).map((c) => Number(c.id)),
      );
    for (const st of data.setTypes ?? []) {
      this.paletteOf.set(st.type, Number(st.paletteId));
      for (const s of st.sets ?? []) {
        this.sets.set(`${st.type}-${s.id}`, s);
        if (s.selectable === false || !(s.parts ?? []).some((p) => mapped.has(`${p.type}-${p.id}`))) continue;
        for (const g of ['M', 'F'] as const) {
          if (s.gender !== g && s.gender !== 'U') continue;
          const key = `${st.type}/${g}`;
          const pool = this.pools.get(key) ?? [];
          pool.push(s);
          this.pools.set(key, pool);
        }
      }
    }
  }

  pool(type: string, gender: Gender): SetJson[] {
    return this.pools.get(`${type}/${gender}`) ?? [];
  }

  set(type: string, id: number): SetJson | undefined {
    return this.sets.get(`${type}-${id}`);
  }

  /** Colour slots a set uses (its highest colorindex; at least one, as wardrobe strings always carry one). */
  colourSlots(type: string, id: number): number {
    return Math.max(1, ...(this.set(type, id)?.parts ?? []).map((p) => Number(p.colorindex ?? 0)));
  }

  colours(type: string): number[] {
    return this.palettes.get(this.paletteOf.get(type) ?? -1) ?? [];
  }

  /** Gender of a figure as the client reads it: the first gendered set worn, else M. */
  genderOf(tokens: FigureToken[]): Gender {
    for (const t of tokens) {
      const g = this.set(t.type, t.id)?.gender;
      if (g === 'M' || g === 'F') return g;
    }
    return 'M';
  }

  /** Mandatory set types (either club level) the figure does not wear. */
  missingMandatory(tokens: FigureToken[], gender: Gender): string[] {
    const worn = new Set(tokens.map((t) => t.type));
    const g = gender.toLowerCase() as 'm' | 'f';
    return MANDATORY.filter((type) => {
      const st = this.data.setTypes.find((s) => s.type === type);
      return !worn.has(type) && !!st && !!(st[`mandatory_${g}_0`] || st[`mandatory_${g}_1`]);
    });
  }

  /**
   * The figure with the defaults the client gives its missing mandatory types spelled out (the types
   * mandatory at the client's club level, `mandatory_<g>_1`; the first club-0 set of the gender or U in
   * FigureData order; colour id 0), so the reference, which picks male defaults for everyone, draws the
   * same sets. Null when nothing is missing but hd (the placeholder head is not in FigureData).
   */
  withClientDefaults(tokens: FigureToken[], gender: Gender): string | null {
    const worn = new Set(tokens.map((t) => t.type));
    const g = gender.toLowerCase() as 'm' | 'f';
    const added: string[] = [];
    for (const st of this.data.setTypes) {
      if (worn.has(st.type) || st.type === 'hd' || !st[`mandatory_${g}_1`]) continue;
      const set = (st.sets ?? []).find((s) => !s.club && (s.gender === gender || s.gender === 'U'));
      if (set) added.push(`${st.type}-${set.id}-0`);
    }
    return added.length > 0 ? [...tokens.map((t) => t.raw), ...added].join('.') : null;
  }

  /** A token for `set` worn with colours from its type's palette; `oneColourOnly` leaves a second slot empty. */
  token(type: string, set: SetJson, rnd: () => number, oneColourOnly = false): FigureToken {
    const palette = this.colours(type);
    const slots = oneColourOnly ? 1 : this.colourSlots(type, set.id);
    const colours =
      palette.length === 0 ? [] : Array.from({ length: slots }, () => palette[Math.floor(rnd() * palette.length)]!);
    return { type, id: set.id, raw: [type, set.id, ...colours].join('-') };
  }
}

function pick<T>(list: T[], rnd: () => number): T | undefined {
  return list.length === 0 ? undefined : list[Math.floor(rnd() * list.length)];
}

/**
 * `count` distinct figures, deterministic for (`seed`, FigureData): 55% complete outfits (hr hd ch lg sh,
 * each extra set type with probability 0.2), 20% the same with a hat that hides layers, 25% without hd,
 * ch, lg or ch+lg. One set in twenty that has a second colour slot is worn with one colour only, as
 * strings in the wild are.
 */
export function sampleFigures(catalog: FigureCatalog, seed: number, count: number): SampledFigure[] {
  const rnd = seededRandom(seed);
  const out = new Map<string, SampledFigure>();
  const hats = (g: Gender) => catalog.pool('ha', g).filter((s) => (s.hiddenLayers ?? []).length > 0);
  for (let guard = 0; out.size < count && guard < count * 20; guard++) {
    const gender: Gender = rnd() < 0.5 ? 'M' : 'F';
    const r = rnd();
    const kind: FigureKind = r < 0.55 ? 'complete' : r < 0.75 ? 'hat' : 'missing';
    const tokens: FigureToken[] = [];
    const wear = (type: string, set: SetJson | undefined) => {
      if (set) tokens.push(catalog.token(type, set, rnd, catalog.colourSlots(type, set.id) > 1 && rnd() < 0.05));
    };
    for (const type of BODY) {
      if (type === 'hr' && rnd() < 0.05) continue;
      if (type === 'sh' && rnd() < 0.1) continue;
      wear(type, pick(catalog.pool(type, gender), rnd));
    }
    for (const type of EXTRAS) {
      if (kind === 'hat' && type === 'ha') continue;
      if (rnd() < 0.2) wear(type, pick(catalog.pool(type, gender), rnd));
    }
    if (kind === 'hat') wear('ha', pick(hats(gender), rnd));
    let kept = tokens;
    if (kind === 'missing') {
      const m = rnd();
      const drop = m < 1 / 3 ? ['hd'] : m < 2 / 3 ? ['ch'] : m < 5 / 6 ? ['lg'] : ['ch', 'lg'];
      kept = tokens.filter((t) => !drop.includes(t.type));
    }
    const figure = formatFigure(kept);
    if (!figure || out.has(figure)) continue;
    out.set(figure, { figure, kind, gender, missing: catalog.missingMandatory(kept, gender) });
  }
  return [...out.values()];
}

/** The repro figures, with the gender and missing parts the catalog reads from them. */
export function reproFigures(catalog: FigureCatalog): SampledFigure[] {
  return REPRO_FIGURES.map((figure) => {
    const tokens = parseFigureTokens(figure);
    const gender = catalog.genderOf(tokens);
    return { figure, kind: 'repro' as const, gender, missing: catalog.missingMandatory(tokens, gender) };
  });
}
