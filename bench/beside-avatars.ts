// npm run bench:beside-avatars [-- --assets <hotel folder>] — what furni on demand and rooms cost the avatars
// beside them. The avatar service (two render workers) in a child process, on the sample kit or a hotel folder
// with Nitro furni bundles; one warm avatar URL (a memory hit) under wrk (-t1 -c8):
//   1. alone;
//   2. while two connections ask for furni never drawn before (every bundle, directions 2 and 4: each request
//      reads and decodes the bundle or draws a new view, then encodes), for as long as wrk runs (another
//      `frame` is another drawing, so the list never runs out);
//   3. while two connections ask for room 1 (the kit's room file, or `--room <id>` of a folder's rooms/) over
//      a new background each time (each request draws and encodes the room).
// Prints the avatar latency of each run, the side requests' latency, the service's RSS and the machine's load.
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
  const { defaultAvatarConfig } = await import('../src/core/avatar/config.js');
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
    console.log(`avatar alone: ${alone.rps.toFixed(0)} req/s, p50 ${alone.p50}, p90 ${alone.p90}, p99 ${alone.p99}`);
    // Every request a new picture (another frame is another drawing), more than the run can ask for.
    const furni: string[] = [];
    for (let frame = 0; furni.length < 200_000; frame++)
      for (const dir of [2, 4])
        for (const cn of classnames)
          furni.push(`/habbo-imaging/furniture?class=${encodeURIComponent(cn)}&direction=${dir}&frame=${frame}`);
    await beside(url, 'furni on demand', furni, o);
    const room = process.argv.includes('--room') ? process.argv[process.argv.indexOf('--room') + 1] : '1';
    const rooms = Array.from(
      { length: 100_000 },
      (_, i) => `/habbo-imaging/room/${room}.png?bg=${(i + 1).toString(16).padStart(6, '0')}`,
    );
    await beside(url, `room ${room}`, rooms, o);
    const rss = rssOf(proc.pid!);
    console.log(`load after: ${loadAverage()}; the service's RSS ${rss.rssMb} MB, peak ${rss.peakMb} MB`);
  } finally {
    await stopChild(proc);
  }
}

/** The avatar under wrk while two connections ask for `paths` (each a new picture) for as long. */
async function beside(
  url: string,
  what: string,
  paths: string[],
  o: { threads: number; connections: number; seconds: number },
): Promise<void> {
  const side = runLoad({ base: url, paths, connections: 2, stopAtMs: performance.now() + o.seconds * 1000 });
  const a = await wrk(url + AVATAR, o);
  const s = await side;
  console.log(`avatar beside ${what}: ${a.rps.toFixed(0)} req/s, p50 ${a.p50}, p90 ${a.p90}, p99 ${a.p99}`);
  const lat = s.latenciesMs;
  const statuses = Object.entries(s.status)
    .map(([status, n]) => `${n}× ${status}`)
    .join(', ');
  console.log(
    `  ${what} (2 connections, ${s.requests} requests, ${statuses}): p50 ${percentile(lat, 50).toFixed(1)} ms, ` +
      `p90 ${percentile(lat, 90).toFixed(1)} ms, max ${lat[lat.length - 1]?.toFixed(0)} ms`,
  );
}

runBench(main, childMain);
