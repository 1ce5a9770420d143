// npm run bench:furni-on-demand [-- --assets <hotel folder>] — what furni on demand costs the avatars beside it.
// The avatar service (two render workers) in a child process, on the sample kit or a hotel folder with Nitro
// furni bundles; one warm avatar URL (a memory hit) under wrk (-t1 -c8):
//   1. alone;
//   2. while two connections ask for furni never drawn before (every bundle, directions 2 and 4: each request
//      reads and decodes the bundle or draws a new view, then encodes), for as long as wrk runs
//      (another `frame` is another drawing, so the list never runs out)
// Prints the avatar latency of both runs, the furni requests' latency and the machine's load. Figures only.
import { readdir } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBench, startChild, stopChild } from './child.js';
import { ensureWrk, freePort, percentile, runLoad, wrk } from './http-load.js';
import { loadAverage, rssOf } from './proc.js';

const HERE = fileURLToPath(import.meta.url);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const AVATAR = '/habbo-imaging/avatarimage?figure=hd-180-1.hr-100-61.ch-210-66.lg-270-82.sh-290-80&direction=2';

async function childMain(): Promise<void> {
  const { defaultAvatarConfig } = await import('../src/imager/config.js');
  const { startAvatarService } = await import('../src/server/imager.js');
  const [assetsDir, port] = process.argv.slice(3);
  const running = await startAvatarService({
    ...defaultAvatarConfig(),
    assetsDir: assetsDir!,
    host: '127.0.0.1',
    port: Number(port),
    workers: 2,
    logLevel: 'warn',
    checkIntervalMs: 0,
    // The bench's own requests are the load: no per-client rate or budget in the way.
    clientRatePerSecond: 1_000_000,
    clientBurst: 1_000_000,
    budgetRenders: 1_000_000_000,
  });
  process.send?.({ ready: running.url });
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--assets');
  let assets = at > 0 ? process.argv[at + 1]! : '';
  if (!assets) {
    const { ensureSampleKit } = await import('../src/samplekit/index.js');
    assets = join(await mkdtemp(join(tmpdir(), 'bench-fod-')), 'kit');
    await ensureSampleKit(assets);
  }
  const classnames = (await readdir(join(assets, 'bundled/furniture')))
    .filter((f) => f.endsWith('.nitro'))
    .map((f) => f.slice(0, -'.nitro'.length))
    .sort();
  ensureWrk();
  console.log(`assets: ${assets} (${classnames.length} bundles); load before: ${loadAverage()}`);
  const { proc, url } = await startChild(HERE, [assets, String(await freePort())]);
  try {
    const warm = await fetch(url + AVATAR);
    await warm.arrayBuffer();
    if (warm.status !== 200) throw new Error(`the avatar answered ${warm.status}`);
    const o = { threads: 1, connections: 8, seconds: SECONDS };
    const alone = await wrk(url + AVATAR, o);
    console.log(
      `avatar alone:            ${alone.rps.toFixed(0)} req/s, p50 ${alone.p50}, p90 ${alone.p90}, p99 ${alone.p99}`,
    );
    // Every request a new picture (another frame is another drawing), more than the run can ask for.
    const paths: string[] = [];
    for (let frame = 0; paths.length < 200_000; frame++)
      for (const dir of [2, 4])
        for (const cn of classnames)
          paths.push(`/habbo-imaging/furniture?class=${encodeURIComponent(cn)}&direction=${dir}&frame=${frame}`);
    const furni = runLoad({ base: url, paths, connections: 2, stopAtMs: performance.now() + SECONDS * 1000 });
    const beside = await wrk(url + AVATAR, o);
    const f = await furni;
    const loadAfter = loadAverage();
    console.log(
      `avatar beside furni:     ${beside.rps.toFixed(0)} req/s, p50 ${beside.p50}, p90 ${beside.p90}, p99 ${beside.p99}`,
    );
    const lat = f.latenciesMs;
    console.log(
      `furni on demand (2 connections, ${f.requests} requests, ${Object.entries(f.status)
        .map(([s, n]) => `${n}× ${s}`)
        .join(', ')}): ` +
        `p50 ${percentile(lat, 50).toFixed(1)} ms, p90 ${percentile(lat, 90).toFixed(1)} ms, ` +
        `max ${lat[lat.length - 1]?.toFixed(0)} ms`,
    );
    const rss = rssOf(proc.pid!);
    console.log(`load after: ${loadAfter}; the service's RSS ${rss.rssMb} MB, peak ${rss.peakMb} MB`);
  } finally {
    await stopChild(proc);
  }
}

runBench(main, childMain);
