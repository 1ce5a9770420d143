// npm run bench:build — builds a generated 17,000-item furni corpus from scratch on all cores, prints
// items/s and peak RSS, then times an unchanged rebuild. Each phase runs in its own process so the
// peak RSS is the build's alone. Targets: ≥ 100 items/s, peak RSS < 1.5 GB, unchanged rebuild < 10 s.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 17_000);
const dir = process.env.BENCH_DIR ?? join(tmpdir(), 'hotel-imager-bench-build');
const kitDir = join(dir, `kit-${ITEMS}`);
const outDir = join(dir, 'corpus');
const jobs = Number(process.env.BENCH_JOBS ?? availableParallelism());

interface PhaseResult {
  seconds: number;
  items: number;
  rebuilt: number;
  unchanged: number;
  classnames: number;
  maxRssMb: number;
  /** CPU seconds (all threads of the build process, user + system). */
  cpuSeconds: number;
  loadAvg: number;
  counts: Record<string, number>;
}

async function phase(name: string): Promise<void> {
  if (name === 'kit') {
    const { ensureSampleKit } = await import('../src/samplekit/index.js');
    const { KIT_ITEMS } = await import('../src/samplekit/furni/index.js');
    const t0 = performance.now();
    const r = await ensureSampleKit(kitDir, { extraFurni: Math.max(0, ITEMS - KIT_ITEMS.length) });
    console.log(JSON.stringify({ written: r.written, files: r.stamp.files, seconds: (performance.now() - t0) / 1000 }));
    return;
  }
  const { runBuild } = await import('../src/corpus/run.js');
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const s = await runBuild({ assets: kitDir, out: outDir, jobs });
  const seconds = (performance.now() - t0) / 1000;
  const result: PhaseResult = {
    seconds,
    items: s.rebuilt + s.unchanged,
    rebuilt: s.rebuilt,
    unchanged: s.unchanged,
    classnames: Object.keys(s.report.items).length,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    cpuSeconds: ((u) => (u.user + u.system) / 1e6)(process.cpuUsage(c0)),
    loadAvg: loadavg()[0]!,
    counts: { ...s.report.counts, renders: s.corpus.counts.renders, icons: s.corpus.counts.icons, bundles: s.corpus.counts.bundles },
  };
  console.log(JSON.stringify(result));
}

function run(name: string): string {
  const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--phase', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`bench phase ${name} failed with status ${r.status}`);
  return r.stdout.trim().split('\n').pop()!;
}

const at = process.argv.indexOf('--phase');
if (at >= 0) {
  await phase(process.argv[at + 1]!);
} else {
  console.log(`bench:build — ${ITEMS} items, ${jobs} worker threads, kit in ${kitDir}`);
  const kit = JSON.parse(run('kit')) as { written: boolean; files: number; seconds: number };
  console.log(`sample kit: ${kit.files} files (${kit.written ? `generated in ${kit.seconds.toFixed(1)} s` : 'already present'})`);
  rmSync(outDir, { recursive: true, force: true });
  const full = JSON.parse(run('build')) as PhaseResult;
  const rate = full.rebuilt / full.seconds;
  console.log(`from scratch: ${full.rebuilt} items (${full.classnames} classnames) in ${full.seconds.toFixed(1)} s = ${rate.toFixed(0)} items/s; peak RSS ${full.maxRssMb.toFixed(0)} MB`);
  const cpuMs = (full.cpuSeconds * 1000) / Math.max(1, full.rebuilt);
  console.log(`  CPU ${full.cpuSeconds.toFixed(0)} s = ${cpuMs.toFixed(1)} ms per item → about ${((jobs * 1000) / cpuMs).toFixed(0)} items/s on ${jobs} idle cores; 1-min load average at the end ${full.loadAvg.toFixed(1)} (shared machine: wall-clock figures are pessimistic when it is above ${jobs})`);
  console.log(`  published ${full.counts.renders} renders, ${full.counts.icons} icons, ${full.counts.bundles} bundles; ${full.counts.ok} ok, ${full.counts.failed} failed, ${full.counts.skipped} skipped`);
  const again = JSON.parse(run('build')) as PhaseResult;
  console.log(`unchanged rebuild: ${again.rebuilt} rebuilt, ${again.unchanged} unchanged in ${again.seconds.toFixed(1)} s; peak RSS ${again.maxRssMb.toFixed(0)} MB`);
  const ok = (b: boolean) => (b ? 'ok' : 'MISSED');
  console.log(`targets: ≥ 100 items/s ${ok(rate >= 100)}, peak RSS < 1536 MB ${ok(full.maxRssMb < 1536)}, unchanged rebuild < 10 s ${ok(again.seconds < 10)}`);
}
