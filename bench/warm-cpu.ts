// npm run bench:warm-cpu — the service CPU of a fresh size-m still on warm libraries (issue 28's workload,
// warm-figures.ts), from /proc: all threads and the main thread, per request, at concurrency 1 and 64.
// With `--against DIR` another checkout (e.g. a worktree of main) runs the same URLs in the same rounds,
// order alternating, and the ratios are printed: on a machine shared with other work, CPU per request
// measured side by side is the before/after that holds (wall-clock rates move with the load).
//
//   --against DIR     also run another checkout of hotel-imager, same URLs, same rounds
//   --rounds N (3)    --requests N (3000, per concurrency and round)
//   BENCH_ASSETS      a Nitro hotel folder (else ../shared/realdata/nitro, else the sample kit)
//
// Each service runs in its own child process from its checkout's source (tsx), workers = cores, the
// per-client limit off; the load generator (bench/http-load.ts) runs here.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { percentile, ratePerSecond, runLoad } from './http-load.js';
import { cpuSeconds, loadAverage, median, threadCpuSeconds } from './proc.js';
import { avatarConfigModule, avatarServiceModule } from './checkout-layout.js';
import { warmPath, WarmPoses } from './warm-figures.js';

const HERE_ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1]! : fallback;
}

interface Running {
  proc: ChildProcess;
  url: string;
}

/** The avatar service of checkout `root`, from its own source, in a child process. */
function startService(root: string, assetsDir: string): Promise<Running> {
  const src = (p: string) => JSON.stringify(join(root, 'src', p));
  const script = `
    const { defaultAvatarConfig } = await import(${src(avatarConfigModule(root))});
    const { startAvatarService } = await import(${src(avatarServiceModule(root))});
    const s = await startAvatarService({ ...defaultAvatarConfig(), assetsDir: ${JSON.stringify(assetsDir)}, host: '127.0.0.1', port: 0,
      clientRatePerSecond: 0, logLevel: 'warn' });
    process.send({ url: s.url });`;
  const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
  return new Promise((ok, fail) => {
    proc.once('message', (m: { url: string }) => ok({ proc, url: m.url }));
    proc.once('exit', (code) => fail(new Error(`avatar service from ${root} exited with ${code}`)));
  });
}

async function main(): Promise<void> {
  const rounds = Number(arg('rounds', '3'));
  const count = Number(arg('requests', '3000'));
  const against = process.argv.includes('--against') ? resolve(arg('against', '')) : undefined;
  const scratch = await mkdtemp(join(tmpdir(), 'bench-warm-cpu-'));
  let assetsDir = process.env.BENCH_ASSETS;
  const real = resolve(HERE_ROOT, '..', 'shared', 'realdata', 'nitro');
  if (!assetsDir && existsSync(real)) assetsDir = real;
  if (!assetsDir) {
    assetsDir = join(scratch, 'kit');
    const { ensureSampleKit } = await import('../src/samplekit/index.js');
    await ensureSampleKit(assetsDir);
  }
  const roots = against ? [HERE_ROOT, against] : [HERE_ROOT];
  const label = (root: string) => (root === HERE_ROOT ? 'this checkout' : root);
  const poses = new WarmPoses(assetsDir, Number(process.env.BENCH_SEED ?? Date.now() % 2 ** 31));
  const services = new Map<string, Running>();
  type Row = { cpuUs: number[]; mainUs: number[]; rate: number[]; p99: number[] };
  const rows = new Map<string, Row>();
  try {
    for (const root of roots) services.set(root, await startService(root, assetsDir));
    // Libraries loaded and code optimised on every side before anything is timed.
    const warmUp = poses.take(800).map(warmPath);
    for (const root of roots) await runLoad({ base: services.get(root)!.url, paths: warmUp, connections: 16 });
    console.log(
      `warm workload: ${poses.describe().join(', ')}; ${rounds} rounds × ${count} fresh URLs per concurrency; load ${loadAverage()}`,
    );
    for (let round = 1; round <= rounds; round++) {
      for (const connections of [1, 64]) {
        const paths = poses.take(count).map(warmPath);
        // Alternate the order so neither checkout always runs first.
        const order = (round + connections) % 2 === 0 ? roots : [...roots].reverse();
        for (const root of order) {
          const s = services.get(root)!;
          const load = loadAverage();
          const cpu0 = cpuSeconds(s.proc.pid!);
          const main0 = threadCpuSeconds(s.proc.pid!).main;
          const r = await runLoad({ base: s.url, paths, connections });
          const cpu = cpuSeconds(s.proc.pid!) - cpu0;
          const mainCpu = threadCpuSeconds(s.proc.pid!).main - main0;
          const ok = r.status[200] ?? 0;
          if (ok !== count)
            throw new Error(
              `${label(root)}: ${ok} of ${count} answered 200 (${JSON.stringify(r.status)}, errors ${r.errors})`,
            );
          const row = rows.get(`${connections} ${root}`) ?? { cpuUs: [], mainUs: [], rate: [], p99: [] };
          row.cpuUs.push((cpu / ok) * 1e6);
          row.mainUs.push((mainCpu / ok) * 1e6);
          row.rate.push(ratePerSecond(r));
          row.p99.push(percentile(r.latenciesMs, 99));
          rows.set(`${connections} ${root}`, row);
          console.log(
            `round ${round}, c=${connections}, ${label(root)}: ${Math.round((cpu / ok) * 1e6)} µs CPU per request (main thread ${Math.round((mainCpu / ok) * 1e6)}), ` +
              `${Math.round(ratePerSecond(r))} renders/s, p99 ${percentile(r.latenciesMs, 99).toFixed(1)} ms (load ${load})`,
          );
        }
      }
    }
    console.log('\nmedians:');
    for (const connections of [1, 64]) {
      const mine = rows.get(`${connections} ${HERE_ROOT}`)!;
      let line = `c=${connections} this checkout: ${Math.round(median(mine.cpuUs))} µs CPU per request (main thread ${Math.round(median(mine.mainUs))}), ${Math.round(median(mine.rate))} renders/s, p99 ${median(mine.p99).toFixed(1)} ms`;
      if (against) {
        const base = rows.get(`${connections} ${against}`)!;
        const ratios = mine.cpuUs.map((v, i) => v / base.cpuUs[i]!);
        line +=
          `; ${against}: ${Math.round(median(base.cpuUs))} µs (main thread ${Math.round(median(base.mainUs))}), ${Math.round(median(base.rate))} renders/s, p99 ${median(base.p99).toFixed(1)} ms` +
          `; CPU ratio ${median(ratios).toFixed(2)} (per round ${ratios.map((x) => x.toFixed(2)).join(' ')})`;
      }
      console.log(line);
    }
    console.log(`load ${loadAverage()}`);
  } finally {
    for (const s of services.values()) s.proc.kill();
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
