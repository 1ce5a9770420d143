// npm run bench:redis — two avatar instances behind a random load balancer, without and with the shared
// Redis cache, on one mixed workload: renders done per 1,000 requests (the cost a second instance adds
// when each renders and caches alone), user-API lookups per 1,000, and latency p50/p99.
//
// Workload (seeded, identical for both setups): BENCH_REQUESTS (default 4,000) requests, each to one of
// the two instances at random, 16 connections per instance. 90 % are `?figure=` URLs drawn from 2,000
// distinct ones with a Zipf(1) popularity (a few hot avatars, a long tail seen once), 10 % `?user=` for
// 100 names (resolved by a local stand-in for the user API). Each setup starts on fresh instances and a
// fresh Redis (cold caches). Instances run as child processes (`hotel-imager serve avatar`, one render
// worker each), so the load generator does not share their event loop. Needs the Debian redis-server.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile, runLoad, type LoadResult } from './http-load.js';
import { freePort, REDIS_SKIP, startRedis } from '../test/helpers/redis-server.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const FIGURE_URLS = 2000;
const USERS = 100;
const FIG = 'hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40';
const USER_FIGURES = [
  FIG,
  'hd-180-1.ch-210-66.lg-270-82',
  'hd-180-1.ch-210-66.lg-270-82.hr-100-40',
  'hd-180-1.lg-270-82.sh-290-80',
];

/** mulberry32: a small seeded PRNG, so both setups get the same request list. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function workload(seed: number): { instance: 0 | 1; path: string }[] {
  const rand = rng(seed);
  // Zipf(1) over FIGURE_URLS ranks: cumulative weights 1/k.
  const cumulative: number[] = [];
  let total = 0;
  for (let k = 1; k <= FIGURE_URLS; k++) cumulative.push((total += 1 / k));
  const pick = () => {
    const x = rand() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const out: { instance: 0 | 1; path: string }[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const instance = rand() < 0.5 ? 0 : 1;
    if (rand() < 0.1) {
      out.push({ instance, path: `/avatar.png?user=user${Math.floor(rand() * USERS)}&size=m` });
    } else {
      const r = pick();
      out.push({
        instance,
        path: `/avatar.png?figure=${FIG}&direction=${r % 8}&size=${'lms'[(r >> 3) % 3]}&gesture=${['std', 'sml', 'sad'][(r >> 5) % 3]}&v=${r}`,
      });
    }
  }
  return out;
}

async function waitHealthy(base: string, redis: boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const h = (await (await fetch(`${base}/healthz`)).json()) as {
        status: string;
        redis: { available: boolean } | null;
      };
      if (h.status === 'ok' && (!redis || h.redis?.available)) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${base} did not become healthy`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function renders(base: string): Promise<number> {
  return ((await (await fetch(`${base}/healthz`)).json()) as { renders: { renders: number } }).renders.renders;
}

interface Pass {
  setup: string;
  requests: number;
  renders: number;
  userLookups: number;
  p50: number;
  p99: number;
  non200: number;
  errors: number;
  wallMs: number;
}

async function pass(setup: 'alone' | 'redis', kit: string, seed: number): Promise<Pass> {
  const redis = setup === 'redis' ? await startRedis() : undefined;
  let userLookups = 0;
  const api = createServer((req, res) => {
    userLookups++;
    const name = new URL(req.url ?? '/', 'http://x').searchParams.get('name') ?? '';
    const n = Number(/^user(\d+)$/.exec(name)?.[1] ?? NaN);
    if (!Number.isInteger(n)) return void res.writeHead(404).end();
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ figureString: USER_FIGURES[n % USER_FIGURES.length] }));
  });
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  const apiBase = `http://127.0.0.1:${(api.address() as { port: number }).port}`;
  const children: ChildProcess[] = [];
  const bases: string[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const args = [
        '--import',
        'tsx',
        'src/cli/main.ts',
        'serve',
        'avatar',
        '--assets',
        kit,
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--workers',
        '1',
        '--client-rate',
        '0',
        '--user-api',
        apiBase,
        '--log-level',
        'warn',
      ];
      if (redis) args.push('--redis', redis.url);
      children.push(spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] }));
      bases.push(`http://127.0.0.1:${port}`);
    }
    await Promise.all(bases.map((b) => waitHealthy(b, redis !== undefined)));
    const list = workload(seed);
    const results: LoadResult[] = await Promise.all(
      bases.map((base, i) =>
        runLoad({ base, paths: list.filter((r) => r.instance === i).map((r) => r.path), connections: 16 }),
      ),
    );
    const latencies = results.flatMap((r) => r.latenciesMs).sort((a, b) => a - b);
    const done = (await Promise.all(bases.map(renders))).reduce((s, n) => s + n, 0);
    const non200 = results.reduce(
      (s, r) =>
        s +
        Object.entries(r.status)
          .filter(([code]) => code !== '200')
          .reduce((t, [, n]) => t + n, 0),
      0,
    );
    return {
      setup: setup === 'redis' ? 'two instances + Redis' : 'two instances alone',
      requests: list.length,
      renders: done,
      userLookups,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      non200,
      errors: results.reduce((s, r) => s + r.errors, 0),
      wallMs: Math.max(...results.map((r) => r.wallMs)),
    };
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : undefined)));
    await new Promise<void>((r) => api.close(() => r()));
    await redis?.stop();
  }
}

async function main(): Promise<void> {
  if (REDIS_SKIP) {
    console.log(`skipped: ${REDIS_SKIP}`);
    return;
  }
  const scratch = await mkdtemp(join(tmpdir(), 'bench-redis-'));
  try {
    const kit = join(scratch, 'kit');
    const { ensureSampleKit } = await import('../src/samplekit/index.js');
    await ensureSampleKit(kit);
    const distinct = new Set(workload(1).map((r) => r.path)).size;
    console.log(
      `workload: ${REQUESTS} requests, ${distinct} distinct URLs (seed 1), two instances, 16 connections each`,
    );
    console.log(
      `load before: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    const rows: Pass[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const setup of ['alone', 'redis'] as const) rows.push(await pass(setup, kit, 1));
    }
    console.log(
      '\n| setup | renders / 1,000 req | user-API lookups / 1,000 req | p50 ms | p99 ms | non-200 | errors | wall s |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
    for (const r of rows) {
      const per = (n: number) => ((n / r.requests) * 1000).toFixed(1);
      console.log(
        `| ${r.setup} | ${per(r.renders)} | ${per(r.userLookups)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.non200} | ${r.errors} | ${(r.wallMs / 1000).toFixed(1)} |`,
      );
    }
    console.log(
      `\nload after: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
