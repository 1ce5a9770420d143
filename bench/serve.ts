// npm run bench:serve — the avatar service under load on loopback (autocannon):
//   1. cached: one URL, req/s and p99;
//   2. cold: 64 concurrent distinct URLs, renders/s and how many fell back (302);
//   3. memory: RSS of the service process after 10,000 distinct renders;
//   4. cold again on a fresh service with the default limits: what the per-client rate does to one
//      local client rendering in bulk (passes 1-3 turn that limit off to measure the renderer and pool).
// The service runs in a child process (this file with --child) so the load generator does not share
// its event loop. Figures come from the asset folder's own FigureData, so every URL is a real render.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  '2xx': number;
  '3xx': number;
  '4xx': number;
  '5xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;

const HERE = fileURLToPath(import.meta.url);

async function childMain(): Promise<void> {
  const { defaultAvatarConfig } = await import('../src/server/avatar/config.js');
  const { startAvatarService } = await import('../src/server/avatar/index.js');
  const [assetsDir, port, cacheMb, limits] = process.argv.slice(3);
  const defaults = defaultAvatarConfig();
  const running = await startAvatarService({
    ...defaults,
    assetsDir: assetsDir!,
    host: '127.0.0.1',
    port: Number(port),
    memoryCacheBytes: Number(cacheMb) * 1024 * 1024,
    logLevel: 'warn',
    // One local client rendering in bulk is exactly what the per-client limit exists to stop: the
    // measuring passes turn it off; the last pass keeps the defaults to show what they do.
    clientRatePerSecond: limits === 'default' ? defaults.clientRatePerSecond : 0,
  });
  process.send?.({ ready: running.url });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

interface FigureDataDoc {
  palettes: { id: number; colors: { id: number; selectable?: boolean }[] }[];
  setTypes: { type: string; paletteId: number; sets: { id: number; gender: string; parts: { id: number; type: string }[] }[] }[];
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

/** Distinct, valid figure strings: hd/hr/ch/lg/sh sets × colours from the hotel's FigureData. */
function distinctFigures(assetsDir: string, count: number): string[] {
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
  // Every part type drawn at random (seeded, so runs compare): the renders spread over the hotel's
  // libraries as real traffic does, instead of walking one part type while the others stay fixed.
  let seed = 0x5eed;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = 0; figures.length < count && i < count * 20; i++) {
    const parts = types.map((list) => list[Math.floor(random() * list.length)]!);
    const fig = parts.join('.');
    if (!seen.has(fig)) {
      seen.add(fig);
      figures.push(fig);
    }
  }
  // Few sets in a small kit: vary the pose too so every URL is still a distinct render.
  const poses = ['', '&direction=4', '&direction=3&action=wav', '&size=m', '&action=sit', '&direction=6&gesture=sml', '&size=s', '&headonly=1'];
  const urls: string[] = [];
  for (const p of poses) for (const f of figures) urls.push(`/avatar.png?figure=${f}${p}`);
  if (urls.length < count) {
    for (let i = 0; urls.length < count; i++) urls.push(`${urls[i % urls.length]}&v=${Math.floor(i / urls.length)}`);
  }
  return urls.slice(0, count);
}

function rssOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
}

/** CPU seconds (user + system, all threads) the process has used so far. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
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
  const cacheMb = Number(process.env.BENCH_CACHE_MB ?? 256);
  const startService = async (limits: 'off' | 'default') => {
    const port = await freePort();
    const proc = spawn(process.execPath, ['--import', 'tsx', HERE, '--child', assetsDir!, String(port), String(cacheMb), limits], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      proc.once('message', (m: { ready?: string }) => (m.ready ? resolve(m.ready) : reject(new Error('bad message'))));
      proc.once('exit', (code) => reject(new Error(`service exited with code ${code}`)));
    });
    return { proc, url };
  };
  const stopService = async (proc: ReturnType<typeof spawn>) => {
    if (proc.exitCode !== null) return;
    const gone = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGTERM');
    await gone;
  };
  const first = await startService('off');
  let child = first.proc;
  const base = first.url;
  type Health = { renders: { fallbacks: Record<string, number> }; cache: { memory: { entries: number; bytes: number } } };
  const healthOf = async (url: string) => (await (await fetch(url + '/healthz')).json()) as Health;
  const reasons = (h: Health) => Object.entries(h.renders.fallbacks).filter(([, n]) => n > 0).map(([r, n]) => `${r} ${n}`).join(', ') || 'none';
  const lines: string[] = [];
  const say = (s: string) => {
    lines.push(s);
    console.log(s);
  };
  try {
    say(`avatar service bench — assets ${assetsDir}, workers = cores (${(await import('node:os')).availableParallelism()}), memory cache ${cacheMb} MiB`);
    say('NOTE: figures are as measured on this machine at this moment; it may be shared with other work.');
    say(`load average at start: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);

    // 1. Cached: one URL, warmed first.
    const hotPath = '/avatar.png?figure=hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40&direction=2&size=l';
    const warm = await fetch(base + hotPath);
    if (warm.status !== 200) throw new Error(`warm-up answered ${warm.status}`);
    await warm.arrayBuffer();
    let cpu0 = cpuSeconds(child.pid!);
    const cached = await autocannon({ url: base + hotPath, connections: 32, duration: Number(process.env.BENCH_SECONDS ?? 10) });
    let cpu = cpuSeconds(child.pid!) - cpu0;
    say(
      `cached: ${Math.round(cached.requests.average)} req/s, p50 ${cached.latency.p50} ms, p99 ${cached.latency.p99} ms, ` +
        `non-2xx ${cached.non2xx}, errors ${cached.errors} (target ≥ 10,000 req/s); ` +
        `service CPU ${cpu.toFixed(1)} s = ${Math.round(cached.requests.total / cpu)} requests per CPU-second`,
    );

    // 2. Cold: 64 concurrent distinct URLs.
    const total = 10_000;
    const urls = distinctFigures(assetsDir, total);
    const coldCount = Number(process.env.BENCH_COLD ?? 2000);
    let next = 0;
    cpu0 = cpuSeconds(child.pid!);
    const cold = await autocannon({
      url: base,
      connections: 64,
      amount: coldCount,
      timeout: 30,
      requests: [{ setupRequest: (req: { path: string }) => ({ ...req, path: urls[next++ % urls.length]! }) }],
    });
    cpu = cpuSeconds(child.pid!) - cpu0;
    // Only a 200 is a render: a 302 fallback is the absence of one.
    say(
      `cold: ${coldCount} distinct URLs at 64 concurrent: ${Math.round(cold['2xx'] / cold.duration)} renders/s (200s only), ` +
        `p50 ${cold.latency.p50} ms, p99 ${cold.latency.p99} ms, 200s ${cold['2xx']}, fallbacks (302) ${cold['3xx']}, ` +
        `other ${cold['4xx'] + cold['5xx']}, errors ${cold.errors} (targets ≥ 200 renders/s, 0 fallbacks); ` +
        `service CPU ${cpu.toFixed(1)} s = ${Math.round(cold['2xx'] / cpu)} renders per CPU-second`,
    );

    // 3. Memory after 10,000 distinct renders (the rest of the list).
    const rest = total - coldCount;
    const more = await autocannon({
      url: base,
      connections: 64,
      amount: rest,
      timeout: 30,
      requests: [{ setupRequest: (req: { path: string }) => ({ ...req, path: urls[next++ % urls.length]! }) }],
    });
    const health = await healthOf(base);
    const mem = rssOf(child.pid!);
    say(
      `memory: after ${next} distinct URLs (${Math.round(more['2xx'] / more.duration)} renders/s in this pass, fallbacks ${more['3xx']}): ` +
        `RSS ${mem.rssMb} MB, peak ${mem.peakMb} MB, image cache ${health.cache.memory.entries} entries / ` +
        `${Math.round(health.cache.memory.bytes / 1024 / 1024)} MiB (target RSS < 1 GB); fallback reasons: ${reasons(health)}`,
    );
    await stopService(child);

    // 4. The same cold load on a fresh service with the default per-client limit (200/s, burst 2000).
    const second = await startService('default');
    child = second.proc;
    const defaultCount = Number(process.env.BENCH_DEFAULT_COLD ?? 3000);
    next = 0;
    const limited = await autocannon({
      url: second.url,
      connections: 64,
      amount: defaultCount,
      timeout: 30,
      requests: [{ setupRequest: (req: { path: string }) => ({ ...req, path: urls[next++ % urls.length]! }) }],
    });
    const h2 = await healthOf(second.url);
    say(
      `cold with the default limits: ${defaultCount} distinct URLs at 64 concurrent from one client: ` +
        `${Math.round(limited['2xx'] / limited.duration)} renders/s, 200s ${limited['2xx']}, fallbacks (302) ${limited['3xx']} ` +
        `(reasons: ${reasons(h2)}), in ${limited.duration.toFixed(1)} s`,
    );
  } finally {
    await stopService(child);
    await rm(scratch, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') {
  childMain().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
} else {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
