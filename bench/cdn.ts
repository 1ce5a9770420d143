// npm run bench:cdn — the furni asset service against nginx on the same corpus, same load generator,
// loopback only, bounded in time:
//   1. cached 200: one hot render URL;            req/s and p99 for each server, and the ratio
//   2. 304: the same URL with its If-None-Match;  req/s and p99 for each server, and the ratio
//   3. spread 200: random URLs over the whole corpus (wrk only), same figures
//   4. memory: RSS of the service sampled every 5 s through a 60 s spread run (flat or not)
// nginx (Debian package) and wrk are installed with apt-get when missing (needs root); autocannon
// (a dev dependency) can be chosen instead of wrk with --generator autocannon, but as a single Node
// thread it saturates before either server does, which flatters the ratio.
// Both servers get one process/worker and a buffered access log to a file. Besides req/s (which on a
// 2-core machine also measures the load generator and whatever else runs there), each run records the
// server's CPU time per request (/proc/<pid>/stat, nginx's workers included): its ratio is the
// throughput ratio the two would reach on a dedicated core, and other load barely moves it.
//
// Flags: --corpus DIR (default: a generated corpus of --files PNG-sized files), --files N (3000),
//        --duration S (5 per run), --rounds N (3 runs per server and scenario; medians reported),
//        --soak S (60), --connections N (50), --generator wrk|autocannon,
//        --pin (servers on CPU 0, generator on CPU 1 via taskset: steadier on an idle machine, but on a
//        loaded one the scheduler's share for a pinned single-threaded nginx worker distorts the ratio)
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, readFileSync, writeFileSync, mkdirSync, chmodSync, openSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAverage } from './proc.js';
import { corpusJson, fakePng } from '../test/server/furni/fixture.js';
import { freePort } from './http-load.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

interface Args {
  corpus?: string;
  files: number;
  duration: number;
  rounds: number;
  soak: number;
  connections: number;
  generator: 'wrk' | 'autocannon';
  pin: boolean;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { files: 3000, duration: 5, rounds: 3, soak: 60, connections: 50, generator: 'wrk', pin: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--pin') {
      a.pin = true;
      continue;
    }
    const v = argv[++i];
    if (v === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--corpus') a.corpus = resolve(v);
    else if (flag === '--files') a.files = Math.max(10, Number(v));
    else if (flag === '--duration') a.duration = Math.max(1, Number(v));
    else if (flag === '--rounds') a.rounds = Math.max(1, Math.floor(Number(v)));
    else if (flag === '--soak') a.soak = Math.max(0, Number(v));
    else if (flag === '--connections') a.connections = Math.max(1, Number(v));
    else if (flag === '--generator' && (v === 'wrk' || v === 'autocannon')) a.generator = v;
    else throw new Error(`unknown flag ${flag} ${v}`);
  }
  return a;
}

function has(cmd: string): string | undefined {
  for (const dir of ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin', '/sbin', '/bin']) {
    if (existsSync(join(dir, cmd))) return join(dir, cmd);
  }
  return undefined;
}

let aptUpdated = false;
/** The Debian package's binary, installing the package if missing. */
function ensureTool(bin: string, packages: string[]): string {
  const found = has(bin);
  if (found) return found;
  if (process.getuid?.() !== 0)
    throw new Error(`${bin} is not installed and this is not root: apt-get install ${packages[0]}`);
  for (const pkg of packages) {
    console.log(`installing ${pkg} (apt-get)…`);
    if (!aptUpdated) {
      spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
      aptUpdated = true;
    }
    spawnSync('apt-get', ['install', '-y', '-qq', pkg], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    const now = has(bin);
    if (now) return now;
  }
  throw new Error(`could not install ${bin} (tried ${packages.join(', ')})`);
}

/** A corpus shaped like the real one: ~70% renders (1–8 KiB), ~20% icons (~0.5 KiB), ~10% bundles (20–60 KiB). */
function generateCorpus(dir: string, n: number): void {
  const files: Record<string, Buffer> = {};
  for (let i = 0; i < n; i++) {
    const r = i % 10;
    if (r < 7)
      files[`furni-renders/bench_item_${i}${i % 3 === 0 ? `*${i % 7}` : ''}.png`] = fakePng(
        i,
        1024 + (((i * 2654435761) >>> 0) % 7168),
      );
    else if (r < 9) files[`catalog-thumbs/bench_item_${i}.png`] = fakePng(i, 400 + (i % 300));
    else
      files[`hof_furni/${60000 + (i % 50)}/bench_item_${i}.bundle`] = fakePng(i, 20480 + (((i * 40503) >>> 0) % 40960));
  }
  for (const [p, data] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true, mode: 0o755 });
    writeFileSync(join(dir, p), data);
  }
  writeFileSync(
    join(dir, 'corpus.json'),
    corpusJson(files, { builtAt: new Date().toISOString(), rendererVersion: 'bench' }),
  );
}

async function waitForHttp(url: string, ms = 20000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      const r = await fetch(url);
      await r.arrayBuffer();
      if (r.status < 500) return;
    } catch {
      // not up yet
    }
    if (Date.now() > until) throw new Error(`${url} did not come up`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function rssKiB(pid: number): number {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}

interface LoadResult {
  rps: number;
  p99ms: number;
  non2xx3xx: number;
  errors: number;
  requests: number;
  /** Server CPU time (all its threads / worker processes) per request answered, in microseconds. */
  cpuUsPerRequest: number;
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;

/** utime + stime of a process and its direct children (nginx's workers), in seconds. */
function cpuSeconds(pid: number): number {
  const own = (p: number) => {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    } catch {
      return 0;
    }
  };
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    // no children file: count the process alone
  }
  return own(pid) + children.reduce((sum, c) => sum + own(c), 0);
}

let pinning = false;
function pin(cpu: string, cmd: string, args: string[]): [string, string[]] {
  return pinning && has('taskset') ? ['taskset', ['-c', cpu, cmd, ...args]] : [cmd, args];
}

function wrkLatencyMs(text: string): number {
  const m = /\s99%\s+([\d.]+)(us|ms|s)\b/.exec(text);
  if (!m) return NaN;
  const v = Number(m[1]);
  return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
}

async function runWrk(
  wrk: string,
  url: string,
  headers: Record<string, string>,
  seconds: number,
  connections: number,
  script?: string,
): Promise<LoadResult> {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '--timeout', '5s'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  if (script) args.push('-s', script);
  args.push(url);
  const [cmd, full] = pin('1', wrk, args);
  const out = await new Promise<string>((res, rej) => {
    const p = spawn(cmd, full, { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    p.stdout.on('data', (d: Buffer) => (text += d.toString()));
    p.on('error', rej);
    p.on('exit', () => res(text));
  });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const non = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = sock ? sock.slice(1).reduce((s, x) => s + Number(x), 0) : 0;
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
  return { rps, p99ms: wrkLatencyMs(out), non2xx3xx: non, errors, requests, cpuUsPerRequest: NaN };
}

async function runAutocannon(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  connections: number,
): Promise<LoadResult> {
  const autocannon = createRequire(import.meta.url)('autocannon') as (o: Record<string, unknown>) => Promise<{
    requests: { average: number; total: number };
    latency: { p99: number };
    non2xx: number;
    errors: number;
    '3xx': number;
  }>;
  const r = await autocannon({ url, headers, duration: seconds, connections });
  return {
    rps: r.requests.average,
    p99ms: r.latency.p99,
    non2xx3xx: r.non2xx - r['3xx'],
    errors: r.errors,
    requests: r.requests.total,
    cpuUsPerRequest: NaN,
  };
}

function nginxConfig(dir: string, corpus: string, port: number): string {
  const asRoot = process.getuid?.() === 0 ? 'user root root;' : '';
  return `# nginx as a static origin for the same corpus, configured the usual way for speed.
${asRoot}
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
events { worker_connections 4096; }
http {
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  access_log ${dir}/nginx-access.log combined buffer=64k flush=1s;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  open_file_cache max=20000 inactive=60s;
  open_file_cache_valid 60s;
  types { image/png png; application/octet-stream bundle; }
  default_type application/octet-stream;
  server {
    listen 127.0.0.1:${port};
    root ${corpus};
    location / {
      add_header Cache-Control "public, max-age=31536000, immutable";
      add_header Access-Control-Allow-Origin "*";
    }
  }
}
`;
}

/** Median req/s and median p99 of several runs; error counts summed. */
function medianResult(runs: LoadResult[]): LoadResult {
  const med = (xs: number[]) => {
    const s = [...xs].sort((x, y) => x - y);
    return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  return {
    rps: med(runs.map((r) => r.rps)),
    p99ms: med(runs.map((r) => r.p99ms)),
    non2xx3xx: runs.reduce((n, r) => n + r.non2xx3xx, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    requests: runs.reduce((n, r) => n + r.requests, 0),
    cpuUsPerRequest: med(runs.map((r) => r.cpuUsPerRequest)),
  };
}

function fmt(r: LoadResult): string {
  const extra = r.non2xx3xx || r.errors ? ` (${r.non2xx3xx} bad statuses, ${r.errors} socket errors)` : '';
  return `${Math.round(r.rps).toString().padStart(7)} req/s  p99 ${r.p99ms.toFixed(2).padStart(7)} ms  CPU ${r.cpuUsPerRequest.toFixed(1).padStart(5)} µs/req${extra}`;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  pinning = args.pin;
  const nginx = ensureTool('nginx', ['nginx', 'nginx-light']);
  const wrk = args.generator === 'wrk' ? ensureTool('wrk', ['wrk']) : undefined;
  const work = await mkdtemp(join(tmpdir(), 'bench-cdn-'));
  chmodSync(work, 0o755);
  const children: ChildProcess[] = [];
  const cleanup = () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  };
  process.on('SIGINT', () => {
    cleanup();
    process.exit(130);
  });
  try {
    let corpus = args.corpus;
    if (!corpus) {
      corpus = join(work, 'corpus');
      generateCorpus(corpus, args.files);
    }
    const manifest = JSON.parse(readFileSync(join(corpus, 'corpus.json'), 'utf8')) as {
      files: Record<string, { size: number; sha256: string }>;
    };
    const keys = Object.keys(manifest.files).filter((k) =>
      /^(furni-renders|catalog-thumbs)\/[^/]+\.png$|^hof_furni\/[^/]+\/[^/]+\.bundle$/.test(k),
    );
    const hotKey = keys.find((k) => k.startsWith('furni-renders/'));
    if (!hotKey) throw new Error(`${corpus}: no renders listed in corpus.json`);
    const totalBytes = keys.reduce((s, k) => s + manifest.files[k]!.size, 0);
    const urlPath = (k: string) => '/' + k.split('/').map(encodeURIComponent).join('/');

    const ourPort = await freePort();
    const nginxPort = await freePort();
    // The compiled service, as `npm start` and the hotel-imager binary run it (npm run bench:cdn builds first).
    const cli = join(repo, 'dist/cli/main.js');
    if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build first`);
    const [svcCmd, svcArgs] = pin('0', process.execPath, [
      cli,
      'serve',
      'furni',
      '--corpus',
      corpus,
      '--port',
      String(ourPort),
      '--host',
      '127.0.0.1',
      '--log-level',
      'info',
      '--memory-budget',
      String(Math.max(64 * 1024 * 1024, totalBytes * 2)),
    ]);
    const ourLog = openSync(join(work, 'service-access.log'), 'w');
    const svc = spawn(svcCmd, svcArgs, { cwd: repo, stdio: ['ignore', ourLog, 'inherit'] });
    children.push(svc);
    writeFileSync(join(work, 'nginx.conf'), nginxConfig(work, corpus, nginxPort));
    const [ngCmd, ngArgs] = pin('0', nginx, ['-c', join(work, 'nginx.conf'), '-p', work]);
    const ng = spawn(ngCmd, ngArgs, { stdio: ['ignore', 'inherit', 'inherit'] });
    children.push(ng);
    const ours = `http://127.0.0.1:${ourPort}`;
    const theirs = `http://127.0.0.1:${nginxPort}`;
    await Promise.all([waitForHttp(`${ours}/healthz`), waitForHttp(`${theirs}/`)]);
    const svcPid = svc.pid!;

    // Each server's own ETag for the hot file (nginx's is mtime-size, ours the sha256).
    const hot = urlPath(hotKey);
    const etag = async (base: string) => {
      const r = await fetch(base + hot);
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`${base}${hot}: ${r.status}`);
      return r.headers.get('etag') ?? '';
    };
    const [ourTag, theirTag] = [await etag(ours), await etag(theirs)];
    // wrk picks a random corpus path per request for the spread runs.
    const script = join(work, 'spread.lua');
    writeFileSync(
      script,
      `local paths = {\n${keys.map((k) => `  ${JSON.stringify(urlPath(k))},`).join('\n')}\n}\n` +
        `math.randomseed(42)\nrequest = function() return wrk.format("GET", paths[math.random(#paths)]) end\n`,
    );

    const pidOf = (base: string) => (base === ours ? svc.pid! : ng.pid!);
    const load = async (
      base: string,
      path: string,
      headers: Record<string, string>,
      seconds: number,
      spread = false,
    ) => {
      const cpu0 = cpuSeconds(pidOf(base));
      const r = await (args.generator === 'wrk'
        ? runWrk(wrk!, base + path, headers, seconds, args.connections, spread ? script : undefined)
        : runAutocannon(base + path, headers, seconds, args.connections));
      r.cpuUsPerRequest = ((cpuSeconds(pidOf(base)) - cpu0) * 1e6) / r.requests;
      return r;
    };

    console.log(
      `corpus: ${corpus} (${keys.length} files, ${(totalBytes / 1048576).toFixed(1)} MiB); hot file ${hotKey}`,
    );
    console.log(
      `generator: ${args.generator}, ${args.connections} connections, ${args.rounds} rounds of ${args.duration} s per server and scenario; ` +
        `${pinning && has('taskset') ? 'servers pinned to CPU 0, generator to CPU 1' : 'no taskset: nothing pinned'}; loadavg before: ${loadAverage()}`,
    );
    // Warm both (our memory cache, nginx's open_file_cache and the page cache).
    await load(ours, hot, {}, 2);
    await load(theirs, hot, {}, 2);

    const scenarios: [string, (base: string) => Promise<LoadResult>][] = [
      ['cached 200', (b) => load(b, hot, {}, args.duration)],
      ['304', (b) => load(b, hot, { 'If-None-Match': b === ours ? ourTag : theirTag }, args.duration)],
    ];
    if (args.generator === 'wrk') scenarios.push(['spread 200', (b) => load(b, '/', {}, args.duration, true)]);
    const results: { name: string; ours: LoadResult; nginx: LoadResult; roundRatios: number[] }[] = [];
    for (const [name, run] of scenarios) {
      // Several short rounds, alternating which server goes first, and medians: on a shared machine the
      // background load drifts, and this keeps the drift from landing on one server.
      const ourRuns: LoadResult[] = [];
      const nginxRuns: LoadResult[] = [];
      for (let round = 0; round < args.rounds; round++) {
        if (round % 2 === 0) {
          ourRuns.push(await run(ours));
          nginxRuns.push(await run(theirs));
        } else {
          nginxRuns.push(await run(theirs));
          ourRuns.push(await run(ours));
        }
      }
      const a = medianResult(ourRuns);
      const b = medianResult(nginxRuns);
      const roundRatios = ourRuns.map((r, i) => r.rps / nginxRuns[i]!.rps);
      results.push({ name, ours: a, nginx: b, roundRatios });
      console.log(
        `${name.padEnd(11)} service ${fmt(a)}\n${''.padEnd(11)} nginx   ${fmt(b)}\n${''.padEnd(11)} ratio   ` +
          `${((a.rps / b.rps) * 100).toFixed(0)}% of nginx req/s (medians of ${args.rounds}; per round ${roundRatios.map((x) => `${(x * 100).toFixed(0)}%`).join(' ')})\n` +
          `${''.padEnd(11)} CPU     ${((b.cpuUsPerRequest / a.cpuUsPerRequest) * 100).toFixed(0)}% of nginx's capacity per core (nginx CPU per request ÷ ours; unaffected by other load)`,
      );
    }

    let rss: { t: number; kib: number }[] = [];
    if (args.soak > 0) {
      const samples: { t: number; kib: number }[] = [{ t: 0, kib: rssKiB(svcPid) }];
      const t0 = Date.now();
      const timer = setInterval(
        () => samples.push({ t: Math.round((Date.now() - t0) / 1000), kib: rssKiB(svcPid) }),
        5000,
      );
      const soak = await (args.generator === 'wrk'
        ? load(ours, '/', {}, args.soak, true)
        : load(ours, hot, {}, args.soak));
      clearInterval(timer);
      samples.push({ t: Math.round((Date.now() - t0) / 1000), kib: rssKiB(svcPid) });
      rss = samples;
      const mib = (k: number) => (k / 1024).toFixed(1);
      const afterWarm = samples.filter((s) => s.t >= 10);
      const lo = Math.min(...afterWarm.map((s) => s.kib));
      const hi = Math.max(...afterWarm.map((s) => s.kib));
      console.log(
        `memory     ${args.soak} s ${args.generator === 'wrk' ? 'spread' : 'cached'} run at ${Math.round(soak.rps)} req/s: RSS MiB ${samples.map((s) => `${s.t}s=${mib(s.kib)}`).join(' ')}`,
      );
      // Flat: the last third of the run averages no more than the first third (after warm-up) plus GC noise.
      const third = Math.max(1, Math.floor(afterWarm.length / 3));
      const avg = (xs: { kib: number }[]) => xs.reduce((sum, x) => sum + x.kib, 0) / xs.length;
      const growth = avg(afterWarm.slice(-third)) - avg(afterWarm.slice(0, third));
      const verdict = growth <= Math.max(16 * 1024, avg(afterWarm.slice(0, third)) * 0.05) ? 'flat' : 'GROWING';
      console.log(
        `${''.padEnd(11)}after 10 s: ${mib(lo)}–${mib(hi)} MiB, last third vs first third ${growth >= 0 ? '+' : ''}${mib(growth)} MiB → ${verdict} (cache budget covers the ${(totalBytes / 1048576).toFixed(1)} MiB corpus); nginx RSS ${mib(rssKiB(ng.pid!))} MiB`,
      );
    }
    console.log(`loadavg after: ${loadAverage()} (the machine may be shared: compare ratios, not absolutes)`);
    writeFileSync(join(work, 'results.json'), JSON.stringify({ args, results, rss }, null, 2));
  } finally {
    cleanup();
    await new Promise((r) => setTimeout(r, 300));
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
