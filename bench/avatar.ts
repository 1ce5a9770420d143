// Avatar renderer benchmark: 500 distinct figures, libraries warm, no output cache.
// Measures render + encode per request for a size-l still and a size-l animated wave, on one core; when
// the hotel has effects, also a size-l still with an effect (each figure another of the hotel's fx
// effects) and the 16-tick dance 4 loop as an APNG.
// Data: ../shared/realdata/nitro when present (or AVATAR_BENCH_HOTEL=<dir>), else the sample kit.
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeAvatar, loadAvatarHotel, renderAvatar, type AvatarHotel, type AvatarRequest } from '../src/avatar/index.js';
import { avatarKitFiles } from '../src/samplekit/avatar/index.js';

const FIGURES = Number(process.env.AVATAR_BENCH_FIGURES ?? 500);

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
    [...(hotel.figure.sets.get(type)?.values() ?? [])].filter((s) => s.parts.some((p) => hotel.libraries.librariesFor(p.type, p.id).length > 0)).map((s) => s.id).sort((a, b) => a - b);
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

async function measure(hotel: AvatarHotel, figs: string[], over: Partial<AvatarRequest>, per: (i: number) => Partial<AvatarRequest> = () => ({})) {
  const render: number[] = [];
  const total: number[] = [];
  let frames = 0;
  const t0 = process.hrtime.bigint();
  for (const [i, figure] of figs.entries()) {
    const r: AvatarRequest = { figure, direction: i % 8, headDirection: i % 8, size: 'l', action: '', gesture: '', headOnly: false, animated: false, frames: 0, ...over, ...per(i) };
    const a = process.hrtime.bigint();
    const out = await renderAvatar(hotel, r);
    const b = process.hrtime.bigint();
    await encodeAvatar(out);
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
    await renderAvatar(hotel, { figure, direction: 2, headDirection: 2, size: 'l', action: 'wav', gesture: '', headOnly: false, animated: true, frames: 0 });
    figs.push(figure);
  } catch {
    refused++;
  }
}
const fxIds = hotel.effects.names().filter((n) => n.startsWith('fx.')).map((n) => Number(n.slice(3))).sort((a, b) => a - b);
const withEffect = (i: number): Partial<AvatarRequest> => ({ effect: fxIds[i % fxIds.length] });
if (fxIds.length > 0) for (const [i, figure] of figs.entries()) await renderAvatar(hotel, { figure, direction: 2, headDirection: 2, size: 'l', action: '', gesture: '', headOnly: false, animated: true, frames: 0, ...withEffect(i) });
const still = await measure(hotel, figs, {});
const wave = await measure(hotel, figs, { action: 'wav', animated: true });
const effect = fxIds.length > 0 ? await measure(hotel, figs, {}, withEffect) : undefined;
const dance = hotel.effects.get('dance', '4') ? await measure(hotel, figs, { dance: 4, animated: true }) : undefined;
const f = (n: number) => n.toFixed(2);
console.log(`avatar bench — ${label}; hotel loaded in ${loadMs} ms; ${figs.length} distinct figures (${refused} refused: a set without sprites); ${hotel.libraries.size} libraries warm; no output cache; one core`);
console.log(`size l still     render+encode p50 ${f(still.p50)} ms  p99 ${f(still.p99)} ms  (render only p50 ${f(still.renderP50)} / p99 ${f(still.renderP99)})  ${still.perSecond.toFixed(0)} renders/s`);
console.log(`size l wav anim  render+encode p50 ${f(wave.p50)} ms  p99 ${f(wave.p99)} ms  (render only p50 ${f(wave.renderP50)} / p99 ${f(wave.renderP99)})  ${wave.perSecond.toFixed(0)} renders/s, ${wave.frames.toFixed(1)} frames each`);
if (effect) console.log(`size l + effect  render+encode p50 ${f(effect.p50)} ms  p99 ${f(effect.p99)} ms  (render only p50 ${f(effect.renderP50)} / p99 ${f(effect.renderP99)})  ${effect.perSecond.toFixed(0)} renders/s (${fxIds.length} effects in turn, still)`);
if (dance) console.log(`size l dance 4   render+encode p50 ${f(dance.p50)} ms  p99 ${f(dance.p99)} ms  (render only p50 ${f(dance.renderP50)} / p99 ${f(dance.renderP99)})  ${dance.perSecond.toFixed(0)} renders/s, ${dance.frames.toFixed(1)} frames each (APNG)`);
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB; target p50 ≤ 5 ms for the still: ${still.p50 <= 5 ? 'met' : 'NOT met'} (shared machine: figures as measured)`);
await cleanup?.();
