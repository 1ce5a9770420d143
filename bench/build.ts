// npm run bench:build — the furni build at scale, each phase in its own process (so a peak RSS is that
// phase's alone). Two modes:
//
// Sample kit (default): a generated 17,000-item kit, built from scratch on all cores (items/s, CPU per
// item, peak RSS), then an unchanged rebuild. Targets: ≥ 100 items/s, peak RSS < 1.5 GB, rebuild < 10 s.
//
// Real data: `npm run bench:build -- --nitro DIR` (or BENCH_NITRO=DIR), DIR a Nitro hotel folder kept
// outside the repository (bundled/furniture/*.nitro; gamedata/FurnitureData.json if it has one, else a
// stand-in listing every bundle is generated into the benchmark folder, see real-furnidata.ts):
//   1. CPU per item by stage, one thread, over every BENCH_STAGE_EVERY-th bundle (default 10);
//   2. the build from scratch on all cores: items/s, CPU per item, peak RSS, outcome counts by reason;
//   3. an unchanged rebuild;
//   4. output bytes per render and icon, and a sample (BENCH_OPTIPNG_FILES renders, default 1000, 0 =
//      all; half as many icons) against optipng -o2 on the same pixels.
// Targets: ≥ 100 items/s, peak RSS ≤ 1 GB, unchanged rebuild < 10 s, PNGs within 10 % of optipng -o2.
// BENCH_JOBS (threads) and BENCH_DIR (work folder, default $TMPDIR/hotel-imager-bench-build) apply to both.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 17_000);
const dir = process.env.BENCH_DIR ?? join(tmpdir(), 'hotel-imager-bench-build');
const kitDir = join(dir, `kit-${ITEMS}`);
const jobs = Number(process.env.BENCH_JOBS ?? availableParallelism());
const flag = process.argv.indexOf('--nitro');
const nitro =
  flag >= 0
    ? resolve(process.argv[flag + 1] ?? '')
    : process.env.BENCH_NITRO
      ? resolve(process.env.BENCH_NITRO)
      : undefined;
const outDir = join(dir, nitro ? 'real-corpus' : 'corpus');

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
  /** Non-ok outcomes: "status: reason" (file paths and names taken out) → count, with a few examples. */
  reasons: Record<string, { count: number; examples: string[] }>;
}

/** Where the furnidata for a real-data run comes from: the hotel's own file, or a generated stand-in. */
function realFurnidataPath(): string {
  const own = join(nitro!, 'gamedata', 'FurnitureData.json');
  return existsSync(own) ? own : join(dir, 'real-furnidata.json');
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
  if (name === 'furnidata') {
    const path = realFurnidataPath();
    if (path !== join(dir, 'real-furnidata.json')) return console.log(JSON.stringify({ path, generated: false }));
    const { generateFurnidata, listingKey } = await import('./real-furnidata.js');
    const furniDir = join(nitro!, 'bundled', 'furniture');
    const keyFile = `${path}.key`;
    const key = listingKey(furniDir);
    if (existsSync(path) && existsSync(keyFile) && readFileSync(keyFile, 'utf8') === key)
      return console.log(JSON.stringify({ path, generated: false, cached: true }));
    const g = generateFurnidata(furniDir);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path, g.json);
    writeFileSync(keyFile, key);
    console.log(
      JSON.stringify({
        path,
        generated: true,
        bundles: g.bundles,
        variantRows: g.variantRows,
        unreadable: g.unreadable,
      }),
    );
    return;
  }
  if (name === 'stages') {
    const { measureStages } = await import('./build-stages.js');
    const { readFurnidata } = await import('../src/hotel/furni.js');
    const { allFurniRows, splitClassname } = await import('../src/formats/furnidata.js');
    const file = realFurnidataPath();
    const { data } = await readFurnidata(readFileSync(file), file, file.endsWith('.xml') ? 'xml' : 'json');
    const colours = new Map<string, number[]>();
    for (const { row } of allFurniRows(data)) {
      const { base, colorId } = splitClassname(row.classname);
      if (!colours.has(base)) colours.set(base, []);
      if (colorId !== undefined) colours.get(base)!.push(colorId);
    }
    const every = Math.max(1, Number(process.env.BENCH_STAGE_EVERY ?? 10));
    const furniDir = join(nitro!, 'bundled', 'furniture');
    const items = readdirSync(furniDir)
      .filter((n) => n.endsWith('.nitro'))
      .sort()
      .filter((_, i) => i % every === 0)
      .map((n) => ({ file: join(furniDir, n), colours: colours.get(n.slice(0, -'.nitro'.length)) ?? [] }));
    console.log(JSON.stringify(await measureStages(items)));
    return;
  }
  if (name === 'optipng') {
    const { compareWithOptipng } = await import('./png-vs-optipng.js');
    console.log(
      JSON.stringify(await compareWithOptipng(outDir, Number(process.env.BENCH_OPTIPNG_FILES ?? 1000), jobs)),
    );
    return;
  }
  const { runBuild } = await import('../src/corpus/run.js');
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const s = await runBuild(
    nitro
      ? { assets: nitro, furnidata: realFurnidataPath(), out: outDir, jobs }
      : { assets: kitDir, out: outDir, jobs },
  );
  const seconds = (performance.now() - t0) / 1000;
  const reasons: PhaseResult['reasons'] = {};
  for (const [cn, e] of Object.entries(s.report.items)) {
    if (e.status === 'ok') continue;
    const key = `${e.status}: ${(e.reason ?? '').replace(/\/\S+\//g, '…/').replace(new RegExp(cn.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g'), '<cn>')}`;
    const r = (reasons[key] ??= { count: 0, examples: [] });
    r.count++;
    if (r.examples.length < 4) r.examples.push(cn);
  }
  const result: PhaseResult = {
    seconds,
    items: s.rebuilt + s.unchanged,
    rebuilt: s.rebuilt,
    unchanged: s.unchanged,
    classnames: Object.keys(s.report.items).length,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    cpuSeconds: ((u) => (u.user + u.system) / 1e6)(process.cpuUsage(c0)),
    loadAvg: loadavg()[0]!,
    counts: {
      ...s.report.counts,
      renders: s.corpus.counts.renders,
      icons: s.corpus.counts.icons,
      bundles: s.corpus.counts.bundles,
    },
    reasons,
  };
  console.log(JSON.stringify(result));
}

function run(name: string): string {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--phase', name, ...(nitro ? ['--nitro', nitro] : [])],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 26 },
  );
  if (r.status !== 0) throw new Error(`bench phase ${name} failed with status ${r.status}`);
  return r.stdout.trim().split('\n').pop()!;
}

/** Total bytes of the files in a corpus folder (recursively) and how many there are. */
function folderBytes(folder: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const e of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    files++;
    bytes += statSync(join(e.parentPath, e.name)).size;
  }
  return { files, bytes };
}

const ok = (b: boolean) => (b ? 'ok' : 'MISSED');

function printBuild(full: PhaseResult): number {
  const rate = full.rebuilt / full.seconds;
  console.log(
    `from scratch: ${full.rebuilt} items (${full.classnames} classnames) in ${full.seconds.toFixed(1)} s = ${rate.toFixed(0)} items/s; peak RSS ${full.maxRssMb.toFixed(0)} MB`,
  );
  const cpuMs = (full.cpuSeconds * 1000) / Math.max(1, full.rebuilt);
  console.log(
    `  CPU ${full.cpuSeconds.toFixed(0)} s = ${cpuMs.toFixed(1)} ms per item → about ${((jobs * 1000) / cpuMs).toFixed(0)} items/s on ${jobs} idle cores; 1-min load average at the end ${full.loadAvg.toFixed(1)} (shared machine: wall-clock figures are pessimistic when it is above ${jobs})`,
  );
  console.log(
    `  published ${full.counts.renders} renders, ${full.counts.icons} icons, ${full.counts.bundles} bundles; ${full.counts.ok} ok, ${full.counts.failed} failed, ${full.counts.skipped} skipped`,
  );
  for (const [reason, r] of Object.entries(full.reasons).sort((a, b) => b[1].count - a[1].count))
    console.log(
      `    ${String(r.count).padStart(5)} ${reason} (${r.examples.join(', ')}${r.count > r.examples.length ? ', …' : ''})`,
    );
  return rate;
}

const at = process.argv.indexOf('--phase');
if (at >= 0) {
  await phase(process.argv[at + 1]!);
} else if (!nitro) {
  console.log(`bench:build — ${ITEMS} items, ${jobs} worker threads, kit in ${kitDir}`);
  const kit = JSON.parse(run('kit')) as { written: boolean; files: number; seconds: number };
  console.log(
    `sample kit: ${kit.files} files (${kit.written ? `generated in ${kit.seconds.toFixed(1)} s` : 'already present'})`,
  );
  rmSync(outDir, { recursive: true, force: true });
  const full = JSON.parse(run('build')) as PhaseResult;
  const rate = printBuild(full);
  const again = JSON.parse(run('build')) as PhaseResult;
  console.log(
    `unchanged rebuild: ${again.rebuilt} rebuilt, ${again.unchanged} unchanged in ${again.seconds.toFixed(1)} s; peak RSS ${again.maxRssMb.toFixed(0)} MB`,
  );
  console.log(
    `targets: ≥ 100 items/s ${ok(rate >= 100)}, peak RSS < 1536 MB ${ok(full.maxRssMb < 1536)}, unchanged rebuild < 10 s ${ok(again.seconds < 10)}`,
  );
} else {
  if (!existsSync(join(nitro, 'bundled', 'furniture'))) throw new Error(`${nitro} has no bundled/furniture folder`);
  console.log(
    `bench:build (real data) — ${nitro}, ${jobs} worker threads, work folder ${dir}; load average at the start ${loadavg()[0]!.toFixed(1)}`,
  );
  const fd = JSON.parse(run('furnidata')) as {
    path: string;
    generated: boolean;
    cached?: boolean;
    bundles?: number;
    variantRows?: number;
    unreadable?: number;
  };
  if (fd.generated)
    console.log(
      `furnidata: none in the hotel folder; generated a stand-in (${fd.bundles} bundles, ${fd.variantRows} colour rows from the colour tables, revision 1) at ${fd.path}`,
    );
  else console.log(`furnidata: ${fd.path}${fd.cached ? ' (generated stand-in, reused)' : ''}`);
  const stages = JSON.parse(run('stages')) as { items: number; msPerItem: Record<string, number> };
  const stageTotal = Object.values(stages.msPerItem).reduce((a, b) => a + b, 0);
  console.log(
    `CPU per item by stage (one thread, ${stages.items} items, every ${process.env.BENCH_STAGE_EVERY ?? 10}th bundle): ${stageTotal.toFixed(1)} ms`,
  );
  for (const [s, ms] of Object.entries(stages.msPerItem))
    console.log(
      `  ${s.padEnd(34)} ${ms.toFixed(2).padStart(6)} ms  ${((100 * ms) / stageTotal).toFixed(0).padStart(3)} %`,
    );
  rmSync(outDir, { recursive: true, force: true });
  const full = JSON.parse(run('build')) as PhaseResult;
  const rate = printBuild(full);
  const again = JSON.parse(run('build')) as PhaseResult;
  console.log(
    `unchanged rebuild: ${again.rebuilt} rebuilt, ${again.unchanged} unchanged in ${again.seconds.toFixed(1)} s; peak RSS ${again.maxRssMb.toFixed(0)} MB`,
  );
  const renders = folderBytes(join(outDir, 'furni-renders'));
  const icons = folderBytes(join(outDir, 'catalog-thumbs'));
  const bundles = folderBytes(join(outDir, 'hof_furni'));
  console.log(
    `output: renders ${(renders.bytes / 1e6).toFixed(1)} MB (${Math.round(renders.bytes / Math.max(1, renders.files))} bytes per render), icons ${(icons.bytes / 1e6).toFixed(1)} MB (${Math.round(icons.bytes / Math.max(1, icons.files))} per icon), bundles ${(bundles.bytes / 1e6).toFixed(1)} MB (${Math.round(bundles.bytes / Math.max(1, bundles.files))} per bundle)`,
  );
  const cmp = JSON.parse(run('optipng')) as Awaited<
    ReturnType<typeof import('./png-vs-optipng.js').compareWithOptipng>
  >;
  let pngOk = false;
  if (typeof cmp === 'string') console.log(cmp);
  else {
    pngOk = cmp.ratio <= 1.1;
    console.log(
      `PNG vs optipng -o2 (${cmp.renders.files} renders, ${cmp.icons.files} icons): ours ${cmp.oursBytes} bytes, optipng ${cmp.optipngBytes} → ours ${((cmp.ratio - 1) * 100).toFixed(1)} % larger (renders ${((cmp.renders.ours / cmp.renders.optipng - 1) * 100).toFixed(1)} %, icons ${((cmp.icons.ours / cmp.icons.optipng - 1) * 100).toFixed(1)} %)`,
    );
  }
  console.log(
    `targets: ≥ 100 items/s ${ok(rate >= 100)}, peak RSS ≤ 1024 MB ${ok(full.maxRssMb <= 1024)}, unchanged rebuild < 10 s ${ok(again.seconds < 10)}, PNGs within 10 % of optipng -o2 ${ok(pngOk)}`,
  );
}
