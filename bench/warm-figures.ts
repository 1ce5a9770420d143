// The warm-library workload of issue 28, for bench:serve and bench:stages: popular clothing whose
// libraries are already in memory, in a pose not rendered before. Five common figures (fixed sets, so
// the libraries they load stay the same) × 8 directions × 8 head directions × the 7 gestures, size m;
// each URL takes colours drawn afresh from the sets' palettes (seeded), so every URL is new, also to a
// reference imager that caches its renders on disk across runs.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom, type FigureDataJson, type FigureMapJson } from './reference/figures.js';

/** One request of the workload: our query and the classic imager's (its size n is our m). */
export interface WarmPose {
  figure: string;
  direction: number;
  headDirection: number;
  gesture: string;
}

const GESTURES = ['std', 'sml', 'sad', 'agr', 'srp', 'spk', 'eyb'];
/** Sets seen on most avatars in real hotels, preferred where the hotel has them; the first drawable sets fill in. */
const COMMON: Record<string, number[]> = {
  hd: [180, 190, 185, 195, 200],
  hr: [100, 828, 115, 165, 893],
  ch: [210, 215, 3030, 255, 3321],
  lg: [270, 285, 280, 3320, 275],
  sh: [290, 300, 305, 295, 3068],
};
export const WARM_FIGURE_COUNT = 5;

export function warmPath(p: WarmPose): string {
  return `/avatar.png?figure=${p.figure}&direction=${p.direction}&head_direction=${p.headDirection}&action=std&gesture=${p.gesture}&size=m`;
}

export function warmReferencePath(p: WarmPose): string {
  return `/?figure=${p.figure}&direction=${p.direction}&head_direction=${p.headDirection}&size=n&action=std&gesture=${p.gesture}`;
}

/** Hands out poses of the workload, never the same URL twice. */
export class WarmPoses {
  /** Per figure: each part type's set id and that set type's selectable colours. */
  private readonly figures: { type: string; id: number; colours: number[] }[][];
  private readonly seen = new Set<string>();
  private readonly random: () => number;
  private combo = 0;
  private readonly order: number[];

  constructor(assetsDir: string, seed: number) {
    const doc = JSON.parse(readFileSync(join(assetsDir, 'gamedata', 'FigureData.json'), 'utf8')) as FigureDataJson;
    const map = JSON.parse(readFileSync(join(assetsDir, 'gamedata', 'FigureMap.json'), 'utf8')) as FigureMapJson;
    const files = new Set(readdirSync(join(assetsDir, 'bundled', 'figure')).map((f) => f.replace(/\.nitro$/, '')));
    const present = new Set<string>();
    for (const lib of map.libraries) if (files.has(lib.id)) for (const p of lib.parts) present.add(`${p.type}:${p.id}`);
    const palettes = new Map(
      doc.palettes.map((p) => [p.id, p.colors.filter((c) => c.selectable !== false).map((c) => c.id)]),
    );
    const perType: { type: string; ids: number[]; colours: number[] }[] = [];
    for (const type of Object.keys(COMMON)) {
      const st = doc.setTypes.find((s) => s.type === type);
      if (!st) continue;
      const drawable = st.sets
        .filter((s) => s.gender !== 'F' && s.parts.every((p) => present.has(`${p.type}:${p.id}`)))
        .map((s) => s.id);
      const ids = [
        ...COMMON[type]!.filter((id) => drawable.includes(id)),
        ...drawable.filter((id) => !COMMON[type]!.includes(id)),
      ].slice(0, WARM_FIGURE_COUNT);
      const colours = palettes.get(st.paletteId) ?? [];
      if (ids.length > 0 && colours.length > 0) perType.push({ type, ids, colours });
    }
    if (perType.length === 0) throw new Error(`${assetsDir} has no drawable hd/hr/ch/lg/sh set`);
    this.figures = Array.from({ length: WARM_FIGURE_COUNT }, (_, i) =>
      perType.map((t) => ({ type: t.type, id: t.ids[i % t.ids.length]!, colours: t.colours })),
    );
    this.random = seededRandom(seed);
    // Every figure × direction × head direction × gesture once before any repeats (with new colours).
    const combos = WARM_FIGURE_COUNT * 8 * 8 * GESTURES.length;
    this.order = Array.from({ length: combos }, (_, i) => i);
    for (let i = combos - 1; i > 0; i--) {
      const j = Math.floor(this.random() * (i + 1));
      [this.order[i], this.order[j]] = [this.order[j]!, this.order[i]!];
    }
  }

  /** The figure strings' sets without colours (what loads the libraries), for the report. */
  describe(): string[] {
    return this.figures.map((f) => f.map((p) => `${p.type}-${p.id}`).join('.'));
  }

  take(count: number): WarmPose[] {
    const out: WarmPose[] = [];
    for (let misses = 0; out.length < count; ) {
      let c = this.order[this.combo++ % this.order.length]!;
      const gesture = GESTURES[c % GESTURES.length]!;
      c = Math.floor(c / GESTURES.length);
      const headDirection = c % 8;
      c = Math.floor(c / 8);
      const direction = c % 8;
      const parts = this.figures[Math.floor(c / 8)]!;
      const figure = parts
        .map((p) => `${p.type}-${p.id}-${p.colours[Math.floor(this.random() * p.colours.length)]!}`)
        .join('.');
      const pose = { figure, direction, headDirection, gesture };
      const url = warmPath(pose);
      if (this.seen.has(url)) {
        if (++misses > 100 * count) throw new Error('the warm figures ran out of new colours');
        continue;
      }
      this.seen.add(url);
      out.push(pose);
    }
    return out;
  }
}
