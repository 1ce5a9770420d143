// npm run bench:badges — group badges, cold and cached:
//   1. in process: plan + draw + encode of distinct 3-part badges (PNG and GIF), one core, p50/p99, badges/s;
//   2. over HTTP, the avatar service in a child process (so the load generator does not share its event
//      loop): cold distinct badge URLs at concurrency 1 and 64; cached, the cold URLs again at 64; cached,
//      one URL for BENCH_SECONDS at 32 connections (autocannon), then one cached avatar URL the same way
//      for a figure taken at the same moment.
// Data: the real Nitro part library and table in ../shared/realdata when present (BENCH_BADGE_ASSETS and
// BENCH_BADGE_ELEMENTS to name others), else the sample kit. Codes come from the data's own table (every
// base and symbol it has, random colours and positions); BENCH_SEED repeats a set. Prints figures only.
import { runBench, startChild, stopChild } from './child.js';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBadgeHotel, parseBadgeCode, renderBadge, type BadgeHotel } from '../src/badge/index.js';
import { freePort, percentile, ratePerSecond, runLoad, type LoadResult } from './http-load.js';
import { loadAverage, median } from './proc.js';
import { seededRandom } from './reference/figures.js';

const HERE = fileURLToPath(import.meta.url);
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const ms = (x: number) => (x < 10 ? x.toFixed(3) : x.toFixed(1));

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;

async function childMain(): Promise<void> {
  const { defaultAvatarConfig } = await import('../src/core/avatar/config.js');
  const { startAvatarService } = await import('../src/server/imager.js');
  const [assetsDir, port, elements] = process.argv.slice(3);
  const running = await startAvatarService({
    ...defaultAvatarConfig(),
    assetsDir: assetsDir!,
    badgeElementsFile: elements === '-' ? undefined : elements,
    host: '127.0.0.1',
    port: Number(port),
    workers: 1, // avatars are not measured here
    logLevel: 'warn',
  });
  process.send?.({ ready: running.url });
}

/** `count` distinct long-form codes: a base and two symbols of the table, random colours and positions. */
function distinctCodes(hotel: BadgeHotel, count: number, seed: number): string[] {
  const rnd = seededRandom(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const bases = [...hotel.elements.bases.keys()];
  const symbols = [...hotel.elements.symbols.keys()];
  const colors = [...hotel.elements.baseColors.keys()];
  const part = (l: string, id: number) =>
    `${l}${String(id).padStart(3, '0')}${String(pick(colors)).padStart(2, '0')}${Math.floor(rnd() * 9)}`;
  const out = new Set<string>();
  while (out.size < count) out.add(part('b', pick(bases)) + part('s', pick(symbols)) + part('s', pick(symbols)));
  return [...out];
}

function describe(r: LoadResult): string {
  const other = Object.entries(r.status)
    .filter(([s]) => s !== '200')
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  return (
    `${Math.round(ratePerSecond(r))} badges/s, p50 ${ms(percentile(r.latenciesMs, 50))} ms, p99 ${ms(percentile(r.latenciesMs, 99))} ms` +
    (other || r.errors ? ` (other answers: ${other || '-'}, errors ${r.errors})` : '')
  );
}

async function main(): Promise<void> {
  const say = (s: string) => console.log(s);
  const realdata = resolve(HERE, '../../../shared/realdata');
  let assetsDir = process.env.BENCH_BADGE_ASSETS;
  let elements = process.env.BENCH_BADGE_ELEMENTS;
  const scratch = await mkdtemp(join(tmpdir(), 'bench-badges-'));
  if (!assetsDir && existsSync(join(realdata, 'nitro/bundled/generic/group_badge.nitro'))) {
    assetsDir = join(realdata, 'nitro');
    elements = join(realdata, 'badge/guilds_elements.csv');
  }
  if (!assetsDir) {
    assetsDir = join(scratch, 'kit');
    const { ensureSampleKit } = await import('../src/samplekit/index.js');
    await ensureSampleKit(assetsDir);
  }
  const loaded = await loadBadgeHotel(assetsDir, { elementsFile: elements });
  if (!loaded.ok) throw new Error(loaded.reason);
  const hotel = loaded.hotel;
  const seed = env('BENCH_SEED', Date.now() % 2 ** 31);
  const inProcess = env('BENCH_BADGES', 5000);
  const c1 = env('BENCH_COLD_C1', 2000);
  const c64 = env('BENCH_COLD', 5000);
  const codes = distinctCodes(hotel, inProcess + c1 + c64, seed);
  say(
    `badge bench — assets ${assetsDir}${elements ? `, table ${elements}` : ''}: ${hotel.images.size} part images, ${hotel.elements.bases.size} bases, ${hotel.elements.symbols.size} symbols; seed ${seed}`,
  );
  say('NOTE: figures are as measured on this machine at this moment; it may be shared with other work.');
  say(`load average at start: ${loadAverage()}`);

  // 1. In process, one core: what a cold badge costs the request's thread.
  for (const format of ['png', 'gif'] as const) {
    const times: number[] = [];
    let bytes = 0;
    for (const [i, code] of codes.slice(0, inProcess).entries()) {
      const t0 = performance.now();
      const p = parseBadgeCode(code);
      if (!p.ok) throw new Error(p.reason);
      const r = renderBadge(hotel, p.parts, format);
      const t = performance.now() - t0;
      if (i >= 200) times.push(t); // the first ones warm the JIT
      bytes += r.image ? r.body.length : 0;
    }
    times.sort((a, b) => a - b);
    const total = times.reduce((s, x) => s + x, 0);
    say(
      `in process, ${format.toUpperCase()}: parse + plan + draw + encode p50 ${ms(percentile(times, 50))} ms, p99 ${ms(percentile(times, 99))} ms, ${Math.round((times.length / total) * 1000)} badges/s on one core, ${Math.round(bytes / inProcess)} bytes average`,
    );
  }

  // 2. Over HTTP.
  const port = await freePort();
  const { proc, url: base } = await startChild(HERE, [assetsDir, String(port), elements ?? '-']);
  try {
    const paths = (list: string[], ext: string) => list.map((c) => `/habbo-imaging/badge/${c}.${ext}`);
    // warm the JIT on codes not measured
    await runLoad({ base, paths: paths(distinctCodes(hotel, 500, seed + 1), 'png'), connections: 8 });
    const cold1 = await runLoad({ base, paths: paths(codes.slice(inProcess, inProcess + c1), 'png'), connections: 1 });
    say(`HTTP cold, concurrency 1 (${c1} distinct PNGs): ${describe(cold1)}`);
    const cold64List = paths(codes.slice(inProcess + c1), 'png');
    const cold64 = await runLoad({ base, paths: cold64List, connections: 64 });
    say(`HTTP cold, concurrency 64 (${c64} distinct PNGs): ${describe(cold64)}`);
    const cachedMany = await runLoad({ base, paths: cold64List, connections: 64 });
    say(`HTTP cached, the same ${c64} URLs again at 64: ${describe(cachedMany)}`);
    const autocannon = ((await import('autocannon' as string)) as { default: Autocannon }).default;
    // One cached badge URL and, for a figure taken at the same moment, one cached avatar URL of the same
    // service: alternated over BENCH_CACHED_ROUNDS rounds so a change in the machine's load hits both.
    const hot = `${base}/habbo-imaging/badge/${codes[inProcess]!}.gif`;
    const avatar = `${base}/avatar.png?figure=hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40&size=l`;
    for (const u of [hot, avatar]) await (await fetch(u)).arrayBuffer();
    const badgeRates: number[] = [];
    const avatarRates: number[] = [];
    const ratios: number[] = [];
    const p99s: number[] = [];
    for (let round = 0; round < env('BENCH_CACHED_ROUNDS', 3); round++) {
      const b = await autocannon({ url: hot, connections: 32, duration: env('BENCH_SECONDS', 5) });
      const a = await autocannon({ url: avatar, connections: 32, duration: env('BENCH_SECONDS', 5) });
      if (b.non2xx || b.errors || a.non2xx || a.errors)
        say(
          `  round ${round}: badge non-2xx ${b.non2xx} errors ${b.errors}; avatar non-2xx ${a.non2xx} errors ${a.errors}`,
        );
      badgeRates.push(b.requests.average);
      avatarRates.push(a.requests.average);
      ratios.push(b.requests.average / a.requests.average);
      p99s.push(b.latency.p99);
    }
    say(
      `HTTP cached, one badge URL, 32 connections: ${Math.round(median(badgeRates))} req/s median of ${badgeRates.map(Math.round).join(' / ')}, p99 ${median(p99s)} ms`,
    );
    say(
      `  one cached avatar URL in the same rounds: ${Math.round(median(avatarRates))} req/s (${avatarRates.map(Math.round).join(' / ')}); badge/avatar per round ${ratios.map((r) => r.toFixed(2)).join(' / ')}`,
    );
    say(`load average at end: ${loadAverage()}`);
  } finally {
    await stopChild(proc);
    await rm(scratch, { recursive: true, force: true });
  }
}

runBench(main, childMain);
