// npm run bench:serve — the avatar service under load on loopback:
//   1. cached: one URL, 32 connections, req/s and p99 (autocannon);
//   2. cold, size m: distinct figures at concurrency 1 and 64, renders/s and p50/p99 — and, when the
//      reference imager is up (BENCH_REFERENCE, default http://127.0.0.1:3030), the same figures at the
//      same concurrency against it, pass by pass in one run, with the ratio; in the same rounds the warm
//      workload (issue 28, warm-figures.ts): five common figures whose libraries are loaded, in poses and
//      colours never asked before, with the service's CPU per request (all threads, and its main thread);
//   3. memory: RSS after 10,000 distinct renders;
//   4. optional (BENCH_HOSTILE=<n>): n distinct 12 KB URLs, RSS and cache bytes as they go (plateau);
//   5. cold, size l, concurrency 1, on a fresh service: its own time per request (request log `ms`);
//   6. cold again on a fresh service with the default per-client limit (passes 1-5 turn it off).
// BENCH_PASSES=1-2 stops after pass 2 (while working on the render path).
// The service runs in a child process (this file with --child) so the load generator does not share
// its event loop. Figures come from the asset folder's own FigureData, so every URL is a real render;
// a fresh seed per run (BENCH_SEED to repeat one) keeps them cold for a reference that caches on disk.
import { type ChildProcess } from 'node:child_process';
import { runBench, startChild, stopChild } from './child.js';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, percentile, ratePerSecond, runLoad, type Autocannon, type LoadResult } from './http-load.js';
import { distinctFigures } from './distinct-figures.js';
import { cpuSeconds, loadAverage, median, rssOf, threadCpuSeconds } from './proc.js';
import { warmPath, warmReferencePath, WarmPoses } from './warm-figures.js';

const HERE = fileURLToPath(import.meta.url);
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

async function childMain(): Promise<void> {
  const { defaultAvatarConfig } = await import('../src/core/avatar/config.js');
  const { startAvatarService } = await import('../src/server/imager.js');
  const [assetsDir, port, cacheMb, limits, logLevel] = process.argv.slice(3);
  const defaults = defaultAvatarConfig();
  const running = await startAvatarService({
    ...defaults,
    assetsDir: assetsDir!,
    host: '127.0.0.1',
    port: Number(port),
    memoryCacheBytes: Number(cacheMb) * 1024 * 1024,
    logLevel: logLevel === 'info' ? 'info' : 'warn',
    // One local client rendering in bulk is exactly what the per-client limit exists to stop: the
    // measuring passes turn it off; the last pass keeps the defaults to show what they do.
    clientRatePerSecond: limits === 'default' ? defaults.clientRatePerSecond : 0,
  });
  process.send?.({ ready: running.url });
}

/** Hands out figures in order; a small kit runs out, then the URLs differ by an ignored parameter. */
class FigurePool {
  private next = 0;
  constructor(private readonly figures: string[]) {}

  /** `count` (figure, variant) pairs never handed out before. */
  take(count: number): { figure: string; variant: number }[] {
    const out: { figure: string; variant: number }[] = [];
    for (let i = 0; i < count; i++, this.next++) {
      out.push({
        figure: this.figures[this.next % this.figures.length]!,
        variant: Math.floor(this.next / this.figures.length),
      });
    }
    return out;
  }
}

const POSE = 'direction=2&head_direction=2&action=std&gesture=std';
const oursPath = (size: string) => (f: { figure: string; variant: number }) =>
  `/avatar.png?figure=${f.figure}&${POSE}&size=${size}${f.variant ? `&v=${f.variant}` : ''}`;
/** The classic imager's query; its size n is our m (64 × 110). */
const referencePath = (f: { figure: string }) => `/?figure=${f.figure}&${POSE}&size=n`;

const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(0));

function describe(r: LoadResult): string {
  const other = Object.entries(r.status)
    .filter(([s]) => s !== '200')
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  return (
    `${Math.round(ratePerSecond(r))} renders/s, p50 ${ms(percentile(r.latenciesMs, 50))} ms, p99 ${ms(percentile(r.latenciesMs, 99))} ms` +
    (other || r.errors ? ` (not rendered: ${other || '-'}, errors ${r.errors})` : '')
  );
}

/** Whether something answers a render at `base` (the reference imager may take a while to come up). */
async function referenceUp(base: string, figure: string): Promise<boolean> {
  try {
    const res = await fetch(base + referencePath({ figure }), { signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    return res.status === 200 && (res.headers.get('content-type') ?? '').startsWith('image/png');
  } catch {
    return false;
  }
}

interface Child {
  proc: ChildProcess;
  url: string;
  /** Request-log `ms` values of 200 answers since the last call, when started with info logs. */
  serverMs: () => number[];
}

async function main(): Promise<void> {
  const autocannon = ((await import('autocannon' as string)) as { default: Autocannon }).default;
  let assetsDir = process.env.BENCH_ASSETS;
  const scratch = await mkdtemp(join(tmpdir(), 'bench-serve-'));
  if (!assetsDir) {
    assetsDir = join(scratch, 'kit');
    const { ensureSampleKit } = await import('../src/samplekit/index.js');
    await ensureSampleKit(assetsDir);
  }
  const cacheMb = env('BENCH_CACHE_MB', 256);
  const rounds = env('BENCH_ROUNDS', 3);
  const c1Count = env('BENCH_COLD_C1', 1000);
  const c64Count = env('BENCH_COLD', 3000);
  const warmC1Count = env('BENCH_WARM_C1', 2000);
  const warmC64Count = env('BENCH_WARM', 3000);
  const seed = env('BENCH_SEED', Date.now() % 2 ** 31);
  const referenceBase = process.env.BENCH_REFERENCE ?? 'http://127.0.0.1:3030';

  const startService = async (limits: 'off' | 'default', logLevel: 'warn' | 'info' = 'warn'): Promise<Child> => {
    const port = await freePort();
    const logFile = join(scratch, `service-${port}.log`);
    const logFd = logLevel === 'info' ? openSync(logFile, 'w') : undefined;
    // Request lines go to a file, read after the pass: a pipe would wake this process on every line.
    const started = startChild(HERE, [assetsDir!, String(port), String(cacheMb), limits, logLevel], logFd ?? 'inherit');
    if (logFd !== undefined) closeSync(logFd);
    let seen = 0;
    const serverMs = () => {
      const lines = readFileSync(logFile, 'utf8').split('\n');
      const out: number[] = [];
      for (const line of lines.slice(seen)) {
        if (!line.includes('"msg":"request"')) continue;
        const entry = JSON.parse(line) as { status: number; ms: number; path: string };
        if (entry.status === 200 && entry.path.startsWith('/avatar')) out.push(entry.ms);
      }
      seen = Math.max(0, lines.length - 1);
      return out;
    };
    const { proc, url } = await started;
    return { proc, url, serverMs };
  };
  type Health = {
    renders: { fallbacks: Record<string, number> };
    cache: { memory: { entries: number; bytes: number }; hotUrls: { entries: number; bytes: number } };
  };
  const healthOf = async (url: string) => (await (await fetch(url + '/healthz')).json()) as Health;
  const reasons = (h: Health) =>
    Object.entries(h.renders.fallbacks)
      .filter(([, n]) => n > 0)
      .map(([r, n]) => `${r} ${n}`)
      .join(', ') || 'none';
  const say = (s: string) => console.log(s);

  const totalFigures = 2000 + rounds * (c1Count + c64Count) + 10_000 + 3000 + env('BENCH_DEFAULT_COLD', 3000);
  const figures = new FigurePool(distinctFigures(assetsDir, totalFigures, seed));
  let child = await startService('off');
  const children: ChildProcess[] = [child.proc];
  try {
    say(
      `avatar service bench — assets ${assetsDir}, workers = cores (${availableParallelism()}), memory cache ${cacheMb} MiB, figure seed ${seed}`,
    );
    say('NOTE: figures are as measured on this machine at this moment; it may be shared with other work.');
    say(`load average at start: ${loadAverage()}`);
    const base = child.url;

    // 1. Cached: one URL, warmed first.
    const hotPath = '/avatar.png?figure=hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40&direction=2&size=l';
    const warm = await fetch(base + hotPath);
    if (warm.status !== 200) throw new Error(`warm-up answered ${warm.status}`);
    await warm.arrayBuffer();
    let cpu0 = cpuSeconds(child.proc.pid!);
    const cached = await autocannon({ url: base + hotPath, connections: 32, duration: env('BENCH_SECONDS', 10) });
    let cpu = cpuSeconds(child.proc.pid!) - cpu0;
    say(
      `cached: ${Math.round(cached.requests.average)} req/s, p50 ${cached.latency.p50} ms, p99 ${cached.latency.p99} ms, ` +
        `non-2xx ${cached.non2xx}, errors ${cached.errors} (target ≥ 30,000 req/s); ` +
        `service CPU ${cpu.toFixed(1)} s = ${Math.round(cached.requests.total / cpu)} requests per CPU-second`,
    );

    // 2. Cold, size m, ours and (when up) the reference, on the same figures at the same concurrency.
    const probe = figures.take(1)[0]!.figure;
    const withReference = referenceBase !== 'off' && (await referenceUp(referenceBase, probe));
    say(
      withReference
        ? `reference imager at ${referenceBase}: measured beside ours on the same figures`
        : referenceBase === 'off'
          ? 'reference imager: off; ours only'
          : `reference imager: not answering at ${referenceBase} (BENCH_REFERENCE=off to skip); ours only`,
    );
    // Both sides load the libraries these figures need before anything is timed.
    const warmSet = figures.take(2000);
    await runLoad({ base, paths: warmSet.map(oursPath('m')), connections: 64 });
    if (withReference) await runLoad({ base: referenceBase, paths: warmSet.map(referencePath), connections: 16 });
    // The warm workload's figures load their libraries on both sides before anything is timed.
    const warmPoses = new WarmPoses(assetsDir, seed);
    say(
      `warm workload: figures ${warmPoses.describe().join(', ')} × 8 directions × 8 head directions × 7 gestures, new colours in every URL`,
    );
    const warmUp = warmPoses.take(500);
    await runLoad({ base, paths: warmUp.map(warmPath), connections: 64 });
    if (withReference) await runLoad({ base: referenceBase, paths: warmUp.map(warmReferencePath), connections: 16 });
    type Row = {
      ours: number[];
      ref: number[];
      oursP50: number[];
      oursP99: number[];
      refP50: number[];
      refP99: number[];
      cpu: number[];
      cpuUs: number[];
      mainUs: number[];
    };
    const table: Record<string, Row> = {};
    const workloads = [
      {
        name: 'cold',
        take: (n: number) => figures.take(n),
        ours: oursPath('m'),
        ref: referencePath,
        counts: [c1Count, c64Count],
      },
      {
        name: 'warm',
        take: (n: number) => warmPoses.take(n),
        ours: warmPath,
        ref: warmReferencePath,
        counts: [warmC1Count, warmC64Count],
      },
    ] as const;
    for (let round = 1; round <= rounds; round++) {
      for (const w of workloads) {
        for (const [connections, count] of [
          [1, w.counts[0]],
          [64, w.counts[1]],
        ] as const) {
          const take = w.take as (n: number) => unknown[];
          if (w.name === 'warm') {
            // The cold passes may have pushed the warm figures' libraries out of the library budget: back in, untimed.
            const again = take(100);
            await runLoad({ base, paths: again.map(w.ours as (x: unknown) => string), connections: 16 });
            if (withReference)
              await runLoad({
                base: referenceBase,
                paths: again.map(w.ref as (x: unknown) => string),
                connections: 16,
              });
          }
          const set = take(count);
          const load = loadAverage();
          cpu0 = cpuSeconds(child.proc.pid!);
          const main0 = threadCpuSeconds(child.proc.pid!).main;
          const ours = await runLoad({ base, paths: set.map(w.ours as (x: unknown) => string), connections });
          cpu = cpuSeconds(child.proc.pid!) - cpu0;
          const mainCpu = threadCpuSeconds(child.proc.pid!).main - main0;
          const rendered = ours.status[200] ?? 0;
          const row = (table[`${w.name} size m, c=${connections}`] ??= {
            ours: [],
            ref: [],
            oursP50: [],
            oursP99: [],
            refP50: [],
            refP99: [],
            cpu: [],
            cpuUs: [],
            mainUs: [],
          });
          row.ours.push(ratePerSecond(ours));
          row.oursP50.push(percentile(ours.latenciesMs, 50));
          row.oursP99.push(percentile(ours.latenciesMs, 99));
          row.cpu.push(rendered / cpu);
          row.cpuUs.push((cpu / rendered) * 1e6);
          row.mainUs.push((mainCpu / rendered) * 1e6);
          let line =
            `round ${round}, ${w.name}, c=${connections}, ${count} size-m URLs (load ${load}): ours ${describe(ours)}; ` +
            `${Math.round(rendered / cpu)} renders per CPU-second (${Math.round((cpu / rendered) * 1e6)} µs each, main thread ${Math.round((mainCpu / rendered) * 1e6)} µs)`;
          if (withReference) {
            const ref = await runLoad({
              base: referenceBase,
              paths: set.map(w.ref as (x: unknown) => string),
              connections,
            });
            row.ref.push(ratePerSecond(ref));
            row.refP50.push(percentile(ref.latenciesMs, 50));
            row.refP99.push(percentile(ref.latenciesMs, 99));
            line += `; reference ${describe(ref)}; ratio ${(ratePerSecond(ours) / ratePerSecond(ref)).toFixed(2)}×`;
          }
          say(line);
        }
      }
    }
    for (const [name, row] of Object.entries(table)) {
      let line =
        `${name}, median of ${rounds}: ours ${Math.round(median(row.ours))} renders/s (p50 ${ms(median(row.oursP50))} ms, p99 ${ms(median(row.oursP99))} ms, ` +
        `${Math.round(median(row.cpu))} renders per CPU-second = ${Math.round(median(row.cpuUs))} µs CPU each, main thread ${Math.round(median(row.mainUs))} µs)`;
      if (row.ref.length > 0) {
        const ratios = row.ours.map((o, i) => o / row.ref[i]!);
        line += `; reference ${Math.round(median(row.ref))} renders/s (p50 ${ms(median(row.refP50))} ms, p99 ${ms(median(row.refP99))} ms); ratio ${median(ratios).toFixed(2)}× (target ≥ 2×)`;
      }
      say(line);
    }

    if (process.env.BENCH_PASSES === '1-2') {
      say(`load average at the end: ${loadAverage()} (BENCH_PASSES=1-2: passes 3-6 skipped)`);
      return;
    }

    // 3. Memory after 10,000 distinct renders (mixed poses and sizes, as pages ask).
    const poses = ['', '&size=m', '&direction=4&action=wav', '&size=s', '&action=sit', '&headonly=1'];
    const mixed = figures
      .take(10_000)
      .map((f, i) => `/avatar.png?figure=${f.figure}${poses[i % poses.length]}${f.variant ? `&v=${f.variant}` : ''}`);
    const more = await runLoad({ base, paths: mixed, connections: 64 });
    const health = await healthOf(base);
    const mem = rssOf(child.proc.pid!);
    say(
      `memory: after 10,000 more distinct URLs (${Math.round(ratePerSecond(more))} renders/s in this pass): RSS ${mem.rssMb} MB, peak ${mem.peakMb} MB, ` +
        `image cache ${health.cache.memory.entries} entries / ${Math.round(health.cache.memory.bytes / 1024 / 1024)} MiB (target RSS < 1 GB); fallback reasons: ${reasons(health)}`,
    );

    // 4. Hostile URLs: distinct 12 KB URLs of one figure, RSS as they go.
    const hostileCount = env('BENCH_HOSTILE', 0);
    if (hostileCount > 0) {
      const pad = 'x'.repeat(12_000);
      const step = Math.ceil(hostileCount / 10);
      const samples: string[] = [];
      for (let done = 0; done < hostileCount; done += step) {
        const n = Math.min(step, hostileCount - done);
        const paths = Array.from(
          { length: n },
          (_, i) => `/avatar.png?figure=hd-180-1.ch-210-66.lg-270-82&size=s&cb=${done + i}&pad=${pad}`,
        );
        await runLoad({ base, paths, connections: 16 });
        samples.push(`${done + n}: ${rssOf(child.proc.pid!).rssMb} MB`);
      }
      const h = await healthOf(base);
      say(
        `hostile: ${hostileCount} distinct 12 KB URLs, RSS ${samples.join(', ')}; image cache ${Math.round(h.cache.memory.bytes / 1048576)} MiB, ` +
          `URL map ${h.cache.hotUrls.entries} URLs / ${Math.round(h.cache.hotUrls.bytes / 1048576)} MiB (target RSS ≤ caches + 250 MB, level)`,
      );
    }
    await stopChild(child.proc);

    // 5. Size l, cold, one at a time: the service's own time per request (request log), fresh service.
    child = await startService('off', 'info');
    children.push(child.proc);
    await runLoad({ base: child.url, paths: figures.take(2000).map(oursPath('l')), connections: 64 });
    child.serverMs();
    const large = await runLoad({ base: child.url, paths: figures.take(1000).map(oursPath('l')), connections: 1 });
    await new Promise((r) => setTimeout(r, 200)); // the last log lines
    const serverMs = child.serverMs().sort((a, b) => a - b);
    say(
      `cold size l at c=1: ${describe(large)} at the client; server-side (request log) p50 ${ms(percentile(serverMs, 50))} ms, ` +
        `p99 ${ms(percentile(serverMs, 99))} ms over ${serverMs.length} renders (target p50 ≤ 1 ms)`,
    );
    await stopChild(child.proc);

    // 6. The same cold load on a fresh service with the default per-client limit (200/s, burst 2000).
    child = await startService('default');
    children.push(child.proc);
    const defaultCount = env('BENCH_DEFAULT_COLD', 3000);
    const started = performance.now();
    const limited = await runLoad({
      base: child.url,
      paths: figures.take(defaultCount).map(oursPath('m')),
      connections: 64,
    });
    const h2 = await healthOf(child.url);
    say(
      `cold with the default limits: ${defaultCount} distinct URLs at 64 concurrent from one client: ` +
        `200s ${limited.status[200] ?? 0}, fallbacks (302) ${limited.status[302] ?? 0} (reasons: ${reasons(h2)}), in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    say(`load average at the end: ${loadAverage()}`);
  } finally {
    for (const proc of children) await stopChild(proc);
    await rm(scratch, { recursive: true, force: true });
  }
}

runBench(main, childMain);
