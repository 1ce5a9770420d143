// Avatar renderer benchmark: 500 distinct figures, libraries warm, no output cache.
// Measures render + encode per request for each case of CASES (a size-l still, the animated wave as
// APNG and as GIF, one frame of it), on one core; when the hotel has effects, also a size-l still with an
// effect (each figure another of the hotel's fx effects) and the 16-tick dance 4 loop as APNG and GIF.
// Data: ../shared/realdata/nitro when present (or AVATAR_BENCH_HOTEL=<dir>), else the sample kit.
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  encodeAvatar,
  loadAvatarHotel,
  renderAvatar,
  shownFrames,
  type AvatarHotel,
  type AvatarRequest,
} from '../src/avatar/index.js';
import { avatarKitFiles } from '../src/samplekit/avatar/index.js';
import { parseAction } from '../src/avatar/request.js';
import { plainRequest, type RequestFields } from '../test/helpers/avatar-request.js';

const FIGURES = Number(process.env.AVATAR_BENCH_FIGURES ?? 500);

/**
 * What is measured: each case is the renderer's request for every figure with these fields over it
 * (size l, direction i mod 8 by default). Add a line to measure another pose, format or loop (a dance
 * GIF: `{ label: 'size l dance.1 GIF', over: { dance: 1, format: 'gif', animated: true } }`).
 * `wav` is the longest loop of the pose set (2 frames).
 */
const CASES: { label: string; over: Partial<RequestFields> }[] = [
  { label: 'size l still', over: {} },
  { label: 'size l wav APNG', over: { action: 'wav', animated: true } },
  { label: 'size l wav GIF', over: { action: 'wav', format: 'gif', animated: true } },
  { label: 'size m wav GIF', over: { action: 'wav', format: 'gif', animated: true, size: 'm' } },
  { label: 'size l wav frame_num=1', over: { action: 'wav', animated: true, frameNum: 1 } },
];

async function hotelDir(): Promise<{ dir: string; label: string; cleanup?: () => Promise<void> }> {
  const explicit = process.env.AVATAR_BENCH_HOTEL;
  if (explicit) return { dir: explicit, label: explicit };
  const real = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'realdata', 'nitro');
  if (existsSync(real)) return { dir: real, label: 'real Nitro data (../shared/realdata/nitro)' };
  const dir = await mkdtemp(join(tmpdir(), 'avatar-bench-'));
  for (const f of await avatarKitFiles()) {
    await mkdir(dirname(join(dir, f.path)), { recursive: true });
    await writeFile(join(dir, f.path), f.data);
  }
  return { dir, label: 'sample kit', cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Distinct figures from the sets the hotel can draw (the figure map names a library for one of their
 * parts, as for real clothing whose sleeves it omits): hd, hr, ch, lg, sh and sometimes a hat/accessory.
 */
function figures(hotel: AvatarHotel, n: number): string[] {
  const drawable = (type: string) =>
    [...(hotel.figure.sets.get(type)?.values() ?? [])]
      .filter((s) => s.parts.some((p) => hotel.libraries.librariesFor(p.type, p.id).length > 0))
      .map((s) => s.id)
      .sort((a, b) => a - b);
  const types = ['hd', 'hr', 'ch', 'lg', 'sh', 'ha', 'ea', 'fa', 'ca', 'wa', 'cc'];
  const sets = new Map(types.map((t) => [t, drawable(t)]));
  const colours = [1, 61, 66, 82, 80, 92, 110, 62, 1408];
  const out = new Set<string>();
  let seed = 12345;
  const rnd = (k: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % k;
  };
  for (let guard = 0; out.size < n && guard < n * 50; guard++) {
    const parts: string[] = [];
    for (const t of types) {
      const ids = sets.get(t)!;
      if (ids.length === 0) continue;
      const optional = !['hd', 'ch', 'lg'].includes(t);
      if (optional && rnd(3) !== 0) continue;
      parts.push(`${t}-${ids[rnd(ids.length)]}-${colours[rnd(colours.length)]}`);
    }
    out.add(parts.join('.'));
  }
  return [...out];
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measure(
  hotel: AvatarHotel,
  figs: string[],
  over: Partial<RequestFields>,
  per: (i: number) => Partial<RequestFields> = () => ({}),
) {
  const render: number[] = [];
  const total: number[] = [];
  let frames = 0;
  const t0 = process.hrtime.bigint();
  for (const [i, figure] of figs.entries()) {
    const r: AvatarRequest = plainRequest(figure, {
      direction: i % 8,
      headDirection: i % 8,
      size: 'l',
      ...over,
      ...per(i),
    });
    const a = process.hrtime.bigint();
    const out = shownFrames(await renderAvatar(hotel, r), r.frameNum);
    const b = process.hrtime.bigint();
    await encodeAvatar(out, r.format ?? 'png');
    const c = process.hrtime.bigint();
    frames += out.frames.length;
    render.push(Number(b - a) / 1e6);
    total.push(Number(c - a) / 1e6);
  }
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  render.sort((x, y) => x - y);
  total.sort((x, y) => x - y);
  return {
    renderP50: pct(render, 50),
    renderP99: pct(render, 99),
    p50: pct(total, 50),
    p99: pct(total, 99),
    perSecond: (figs.length / wall) * 1000,
    frames: frames / figs.length,
  };
}

const { dir, label, cleanup } = await hotelDir();
const loadStart = Date.now();
const hotel = await loadAvatarHotel(dir);
const loadMs = Date.now() - loadStart;
// Warm the libraries (and the code paths): one untimed pass over every figure. A figure with a set the
// hotel cannot draw (its sprites are in no library: the service's 302) is left out.
const figs: string[] = [];
let refused = 0;
for (const figure of figures(hotel, FIGURES)) {
  try {
    await renderAvatar(hotel, {
      figure,
      direction: 2,
      headDirection: 2,
      size: 'l',
      action: parseAction('wav'),
      gesture: '',
      headOnly: false,
      animated: true,
      frames: 0,
    });
    figs.push(figure);
  } catch {
    refused++;
  }
}
const f = (n: number) => n.toFixed(2);
console.log(
  `avatar bench — ${label}; hotel loaded in ${loadMs} ms; ${figs.length} distinct figures (${refused} refused: a set without sprites); ${hotel.libraries.size} libraries warm; no output cache; one core`,
);
let still: Awaited<ReturnType<typeof measure>> | undefined;
const line = (name: string, m: Awaited<ReturnType<typeof measure>>, extra = '') =>
  console.log(
    `${name.padEnd(24)} render+encode p50 ${f(m.p50)} ms  p99 ${f(m.p99)} ms  (render only p50 ${f(m.renderP50)} / p99 ${f(m.renderP99)})  ${m.perSecond.toFixed(0)} renders/s, ${m.frames.toFixed(1)} frames shown${extra}`,
  );
for (const c of CASES) {
  const m = await measure(hotel, figs, c.over);
  still ??= m;
  line(c.label, m);
}
if (!still) throw new Error('no bench cases');
// Effects and dances, when the hotel has them: warm every effect library first (untimed).
const fxIds = hotel.effects
  .names()
  .filter((n) => n.startsWith('fx.'))
  .map((n) => Number(n.slice(3)))
  .sort((a, b) => a - b);
const withEffect = (i: number): Partial<AvatarRequest> => ({ effect: fxIds[i % fxIds.length] });
if (fxIds.length > 0) {
  for (const [i, figure] of figs.entries())
    await renderAvatar(hotel, {
      figure,
      direction: 2,
      headDirection: 2,
      size: 'l',
      action: parseAction(''),
      gesture: '',
      headOnly: false,
      animated: true,
      frames: 0,
      ...withEffect(i),
    });
  line('size l + effect', await measure(hotel, figs, {}, withEffect), ` (${fxIds.length} effects in turn, still)`);
}
if (hotel.effects.get('dance', '4')) {
  line('size l dance 4 APNG', await measure(hotel, figs, { dance: 4, animated: true }));
  line('size l dance 4 GIF', await measure(hotel, figs, { dance: 4, animated: true, format: 'gif' }));
}
console.log(
  `peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB; target p50 ≤ 5 ms for the still: ${still.p50 <= 5 ? 'met' : 'NOT met'} (shared machine: figures as measured)`,
);
await cleanup?.();
