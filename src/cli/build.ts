// `hotel-imager build`: a hotel's furni assets → the static corpus the furni service serves.
import { type Command, InvalidArgumentError, Option } from 'commander';
import cliProgress from 'cli-progress';
import { runBuild, type BuildProgress, type BuildSummary } from '../corpus/run.js';

function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number ≥ 1');
  return n;
}

function progressReporter(): { onProgress: (p: BuildProgress) => void; stop: () => void } {
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: 'build [{bar}] {value}/{total} items | {rate} items/s | {unchanged} unchanged | eta {eta_formatted}', stream: process.stderr, hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    const t0 = Date.now();
    let started = false;
    return {
      onProgress: (p) => {
        const rate = (p.done / Math.max(0.001, (Date.now() - t0) / 1000)).toFixed(0);
        if (!started) {
          bar.start(p.total, p.done, { rate, unchanged: p.unchanged });
          started = true;
        } else bar.update(p.done, { rate, unchanged: p.unchanged });
      },
      stop: () => started && bar.stop(),
    };
  }
  // Not a terminal (CI, logs): plain lines.
  return { onProgress: plainProgress((line) => process.stderr.write(line)), stop: () => undefined };
}

/** Progress as plain lines: the first report, then at most one line per interval, and the last one. */
export function plainProgress(write: (line: string) => void, intervalMs = 5000, clock: () => number = Date.now): (p: BuildProgress) => void {
  const t0 = clock();
  let last: number | undefined;
  return (p) => {
    const now = clock();
    if (p.done === p.total || last === undefined || now - last >= intervalMs) {
      last = now;
      const rate = p.done / Math.max(0.001, (now - t0) / 1000);
      write(`build: ${p.done}/${p.total} items (${p.total ? Math.floor((p.done * 100) / p.total) : 100}%), ${rate.toFixed(0)} items/s, ${p.unchanged} unchanged\n`);
    }
  };
}

export function printSummary(s: BuildSummary, out: (line: string) => void = (l) => process.stdout.write(l + '\n')): void {
  const c = s.report.counts;
  out(`${s.layout} layout: ${c.ok} ok, ${c.failed} failed, ${c.skipped} skipped (${s.rebuilt} items built, ${s.unchanged} unchanged)`);
  out(`published: ${s.corpus.counts.renders} renders, ${s.corpus.counts.icons} icons, ${s.corpus.counts.bundles} bundles`);
  const notable = Object.entries(s.report.items).filter(([, e]) => e.status !== 'ok');
  for (const [cn, e] of notable.slice(0, 50)) out(`  ${e.status} ${cn}: ${e.reason ?? ''}`);
  if (notable.length > 50) out(`  … ${notable.length - 50} more in build-report.json`);
}

export function registerBuildCommand(program: Command): void {
  program
    .command('build')
    .description('build the furni corpus (renders, catalogue icons, bundles, corpus.json) from a hotel asset folder')
    .requiredOption('--assets <dir>', 'hotel asset folder (Nitro: gamedata/ + bundled/furniture/; Flash: gamedata/ + hof_furni/)')
    .requiredOption('--out <dir>', 'corpus output folder')
    .option('--only <classname...>', 'build only these classnames (the rest of the corpus is kept)')
    .option('--jobs <n>', 'worker threads (default: all cores)', positiveInt)
    .option('--furnidata <file>', 'furnidata file (overrides the layout default)')
    .option('--furni-dir <dir>', 'folder of furni asset files (overrides the layout default)')
    .option('--strict', 'exit with status 1 when any item failed')
    .addOption(new Option('--variants <which>', 'also publish the reserved names (__s32, __st<n>, __d<n>, __f<n>, .apng) for a plain file server').choices(['all', 'animated', 'none']).default('none'))
    .action(async (o: { assets: string; out: string; only?: string[]; jobs?: number; furnidata?: string; furniDir?: string; strict?: boolean; variants: 'all' | 'animated' | 'none' }) => {
      const progress = progressReporter();
      let summary: BuildSummary;
      try {
        summary = await runBuild({ assets: o.assets, out: o.out, only: o.only, jobs: o.jobs, furnidata: o.furnidata, furniDir: o.furniDir, variants: o.variants, onProgress: progress.onProgress });
      } finally {
        progress.stop();
      }
      printSummary(summary);
      if (o.strict && summary.report.counts.failed > 0) process.exitCode = 1;
    });
}
