// Dev tool: our effect and dance renders against the reference imager (billsonnn/nitro-imager, which
// draws effects from its asset folder's bundled/effect/ when asked `effect=<id>` or `dance=<n>`).
//   bash ../shared/tools/reference-imager/setup.sh --serve <nitro dir>    # the reference (see its header)
//   npm run compare:effects -- --assets <nitro dir> [--effects 1,2,dance.1] [--out /tmp/compare-effects]
// Every effect × directions 1-7 × the first ticks of its loop × a few figures, size m (the reference's
// size n), premultiplied compare (identical / within ±3 / differing), and a cause per differing case
// from a few checks: the same render without the effect's sprites, without its avatar offset, turned by
// its direction offset. Sheets (ours | reference | diff) go to --out, outside the repository.
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadAvatarHotel, renderAvatar, type AvatarHotel, type AvatarRequest } from '../src/avatar/index.js';
import { type RgbaImage } from '../src/imaging/image.js';
import { decodePngSync } from '../src/imaging/png.js';
import { encodePngCompact } from '../src/imaging/png-compact.js';
import { comparePremultiplied, diffImage, sideBySide, type PixelDiff } from './reference/pixels.js';
import { textTable } from './reference/report.js';

const USAGE = `npm run compare:effects -- [options]
  --assets DIR       Nitro asset folder with gamedata/EffectMap.json and bundled/effect/ (default /work/data/quech)
  --reference URL    reference imager (default http://127.0.0.1:3031, env REFERENCE_URL)
  --effects LIST     effect ids (2, dance.1…); default: those of ../shared/realdata/nitro/bundled/effect
  --directions LIST  default 1-7 (the reference draws 0 as 2)
  --ticks N          ticks of each loop compared (default 4)
  --out DIR          sheets and summary (default /tmp/compare-effects)`;

const { values: o } = parseArgs({
  options: {
    assets: { type: 'string' },
    reference: { type: 'string' },
    effects: { type: 'string' },
    directions: { type: 'string' },
    ticks: { type: 'string' },
    out: { type: 'string' },
    help: { type: 'boolean' },
  },
});
if (o.help) {
  console.log(USAGE);
  process.exit(0);
}
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const assets = resolve(o.assets ?? '/work/data/quech');
const refBase = (o.reference ?? process.env.REFERENCE_URL ?? 'http://127.0.0.1:3031').replace(/\/$/, '');
const outDir = resolve(o.out ?? '/tmp/compare-effects');
if (outDir === repoRoot || outDir.startsWith(repoRoot + '/')) throw new Error('--out must be outside the repository (real art)');
const directions = (o.directions ?? '1,2,3,4,5,6,7').split(',').map(Number);
const tickCount = Number(o.ticks ?? 4);
const FIGURES = ['hd-180-1.hr-100-61.ch-210-66.lg-270-82.sh-290-80', 'hd-600-1.hr-515-45.ch-635-70.lg-716-66-62.sh-735-68'];
const REALDATA_20 = ['dance.1', 'dance.2', 'dance.3', 'dance.4', '1', '2', '3', '5', '6', '7', '9', '12', '13', '16', '29', '102', '109', '113', '158', '197'];
const effectIds = o.effects ? o.effects.split(',') : REALDATA_20;

interface Case {
  effect: string;
  figure: number;
  direction: number;
  tick: number;
  diff: PixelDiff;
  cause: string;
}

async function reference(figure: string, direction: number, effect: string, tick: number): Promise<RgbaImage> {
  const e = effect.startsWith('dance.') ? `dance=${effect.slice(6)}` : `effect=${effect}`;
  const url = `${refBase}/?figure=${encodeURIComponent(figure)}&direction=${direction}&head_direction=${direction}&size=n&action=std&gesture=std&${e}${tick > 0 ? `&frame_num=${tick}` : ''}`;
  const res = await fetch(url, { signal: AbortSignal.timeout(60_000) });
  if (!res.ok) throw new Error(`reference HTTP ${res.status} for ${url}`);
  return decodePngSync(new Uint8Array(await res.arrayBuffer()));
}

/** Our frame that shows tick `tick` of the loop (frames are runs of equal ticks). */
async function ours(hotel: AvatarHotel, figure: string, direction: number, effect: string, tick: number, over: Partial<AvatarRequest> = {}): Promise<RgbaImage> {
  const fx = effect.startsWith('dance.') ? { dance: Number(effect.slice(6)) } : { effect: Number(effect) };
  const r = await renderAvatar(hotel, { figure, direction, headDirection: direction, size: 'm', action: '', gesture: '', headOnly: false, animated: true, frames: 0, ...fx, ...over });
  const total = r.frameTicks.reduce((a, b) => a + b, 0);
  let t = tick % total;
  for (let i = 0; i < r.frames.length; i++) {
    if (t < r.frameTicks[i]!) return r.frames[i]!;
    t -= r.frameTicks[i]!;
  }
  return r.frames[0]!;
}

let unexplainedSheets = 0;

async function main(): Promise<void> {
  await mkdir(join(outDir, 'sheets'), { recursive: true });
  const hotel = await loadAvatarHotel(assets);
  const started = Date.now();
  const cases: Case[] = [];
  for (const effect of effectIds) {
    const [type, param] = effect.startsWith('dance.') ? ['dance', effect.slice(6)] : ['fx', effect];
    const fx = hotel.effects.get(type!, param!);
    if (!fx) {
      console.log(`effect ${effect}: not in ${assets}`);
      continue;
    }
    const ticks = Math.min(tickCount, Math.max(1, fx.animation.ticks.length));
    for (let fi = 0; fi < FIGURES.length; fi++) {
      const figure = FIGURES[fi]!;
      for (const d of directions) {
        for (let t = 0; t < ticks; t++) {
          const [a, b] = [await ours(hotel, figure, d, effect, t), await reference(figure, d, effect, t)];
          const diff = comparePremultiplied(a, b);
          let cause = '';
          if (diff.verdict === 'differing') cause = await explain(hotel, figure, d, effect, t, b);
          cases.push({ effect, figure: fi, direction: d, tick: t, diff, cause });
          const unexplained = cause.includes('unexplained') && unexplainedSheets++ < 30;
          if (diff.verdict === 'differing' && ((t === 0 && fi === 0 && (d === 2 || d === 4)) || unexplained)) {
            const sheet = sideBySide([a, b, diffImage(a, b)], 4);
            await writeFile(join(outDir, 'sheets', `${effect}-f${fi}-d${d}-t${t}.png`), encodePngCompact(sheet));
          }
        }
      }
    }
  }
  const rows = new Map<string, { n: number; identical: number; within: number; differing: number; causes: Map<string, number> }>();
  for (const c of cases) {
    const r = rows.get(c.effect) ?? { n: 0, identical: 0, within: 0, differing: 0, causes: new Map() };
    r.n++;
    r[c.diff.verdict]++;
    if (c.cause) r.causes.set(c.cause, (r.causes.get(c.cause) ?? 0) + 1);
    rows.set(c.effect, r);
  }
  const table = textTable(
    ['effect', 'lib', 'cases', 'identical', 'within ±3', 'differing', 'causes'],
    [...rows].map(([e, r]) => {
      const [type, param] = e.startsWith('dance.') ? ['dance', e.slice(6)] : ['fx', e];
      return [e, hotel.effects.get(type!, param!)!.library, r.n, r.identical, r.within, r.differing, [...r.causes].map(([k, v]) => `${k} ${v}`).join('; ')];
    }),
  );
  const totals = cases.reduce((m, c) => ((m[c.diff.verdict] = (m[c.diff.verdict] ?? 0) + 1), m), {} as Record<string, number>);
  const byCause = new Map<string, number>();
  for (const c of cases) if (c.cause) byCause.set(c.cause, (byCause.get(c.cause) ?? 0) + 1);
  const summary =
    `${cases.length} cases (${effectIds.length} effects × ${FIGURES.length} figures × directions ${directions.join(',')} × up to ${tickCount} ticks), ` +
    `${((Date.now() - started) / 1000).toFixed(0)} s, load ${loadavg()[0]!.toFixed(1)}\n` +
    `identical ${totals.identical ?? 0}, within ±3 ${totals.within ?? 0}, differing ${totals.differing ?? 0}\n\n${table}\n\ndiffering by cause:\n` +
    textTable(['cause', 'cases'], [...byCause].sort((a, b) => b[1] - a[1]));
  console.log(summary);
  await writeFile(join(outDir, 'summary.txt'), summary + '\n');
  await writeFile(join(outDir, 'results.jsonl'), cases.map((c) => JSON.stringify(c)).join('\n') + '\n');
}

/**
 * Why a case differs: our render re-done without one thing after another the reference may not draw (its
 * direction offset, its sprites, the avatar's lift, the added parts, the colour treatment), keeping each
 * change that brings us closer, until the renders agree. So each cause is checked, not assumed.
 */
async function explain(hotel: AvatarHotel, figure: string, d: number, effect: string, t: number, ref: RgbaImage): Promise<string> {
  const [type, param] = effect.startsWith('dance.') ? ['dance', effect.slice(6)] : ['fx', effect];
  const anim = hotel.effects.get(type!, param!)!.animation;
  const saved = { ...anim };
  const steps: [string, () => boolean][] = [
    ['no direction offset', () => anim.directionOffset !== 0 && ((anim.directionOffset = 0), true)],
    ['no effect sprites', () => anim.sprites.some((s) => s.id !== 'avatar') && ((anim.sprites = anim.sprites.filter((s) => s.id === 'avatar')), true)],
    ['no avatar lift', () => anim.sprites.some((s) => s.id === 'avatar') && ((anim.sprites = anim.sprites.filter((s) => s.id !== 'avatar')), true)],
    ['no added parts', () => anim.adds.length > 0 && ((anim.adds = []), true)],
    ['no colour treatment', () => !!anim.avatar && ((anim.avatar = undefined), true)],
  ];
  const used: string[] = [];
  let best = comparePremultiplied(await ours(hotel, figure, d, effect, t), ref).differingPixels;
  try {
    for (const [name, apply] of steps) {
      const before = { ...anim };
      if (!apply()) continue;
      const diff = comparePremultiplied(await ours(hotel, figure, d, effect, t), ref);
      if (diff.differingPixels < best) {
        used.push(name);
        best = diff.differingPixels;
        if (diff.verdict !== 'differing') return `reference: ${used.join(' + ')}`;
      } else Object.assign(anim, before);
    }
  } finally {
    Object.assign(anim, saved);
  }
  return used.length > 0 ? `reference: ${used.join(' + ')} (+ unexplained)` : 'unexplained';
}

void main();
