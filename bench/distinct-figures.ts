// Distinct valid figures drawn from a hotel's own FigureData, for the avatar service benchmarks
// (bench:serve, bench:reload).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from './reference/figures.js';

export interface FigureDataDoc {
  palettes: { id: number; colors: { id: number; selectable?: boolean }[] }[];
  setTypes: {
    type: string;
    paletteId: number;
    sets: { id: number; gender: string; parts: { id: number; type: string }[] }[];
  }[];
}

interface FigureMapDoc {
  libraries: { id: string; parts: { id: number; type: string }[] }[];
}

/** Parts whose library file is present: a partial asset folder still yields only renderable sets. */
function availableParts(assetsDir: string): Set<string> {
  const map = JSON.parse(readFileSync(join(assetsDir, 'gamedata', 'FigureMap.json'), 'utf8')) as FigureMapDoc;
  const files = new Set(readdirSync(join(assetsDir, 'bundled', 'figure')).map((f) => f.replace(/\.nitro$/, '')));
  const parts = new Set<string>();
  for (const lib of map.libraries) {
    if (!files.has(lib.id)) continue;
    for (const p of lib.parts) parts.add(`${p.type}:${p.id}`);
  }
  return parts;
}

/** Up to `count` distinct valid figure strings: hd/hr/ch/lg/sh sets × colours, drawn at random from `seed`. */
export function distinctFigures(assetsDir: string, count: number, seed: number): string[] {
  const doc = JSON.parse(readFileSync(join(assetsDir, 'gamedata', 'FigureData.json'), 'utf8')) as FigureDataDoc;
  const palettes = new Map(doc.palettes.map((p) => [p.id, p.colors.map((c) => c.id)]));
  const present = availableParts(assetsDir);
  const pick = (type: string) => {
    const st = doc.setTypes.find((s) => s.type === type);
    if (!st) return [] as string[];
    const colours = palettes.get(st.paletteId) ?? [1];
    const sets = st.sets
      .filter((s) => s.gender !== 'F' && s.parts.every((p) => present.has(`${p.type}:${p.id}`)))
      .map((s) => s.id);
    const out: string[] = [];
    for (const c of colours) for (const s of sets) out.push(`${type}-${s}-${c}`);
    return out;
  };
  const types = ['ch', 'lg', 'hd', 'hr', 'sh'].map(pick).filter((l) => l.length > 0);
  const figures: string[] = [];
  const seen = new Set<string>();
  // Every part type drawn at random: the renders spread over the hotel's libraries as real traffic does.
  const random = seededRandom(seed);
  for (let i = 0; figures.length < count && i < count * 20; i++) {
    const fig = types.map((list) => list[Math.floor(random() * list.length)]!).join('.');
    if (!seen.has(fig)) {
      seen.add(fig);
      figures.push(fig);
    }
  }
  return figures;
}
