// `hotel-imager build`: a hotel's furni assets → the static corpus the furni service serves.
import { type Command } from 'commander';
import cliProgress from 'cli-progress';
import { isRetriedFailure, runBuild, type BuildProgress, type BuildSummary } from '../corpus/run.js';
import { SHRINK_LIMIT } from '../corpus/shrink.js';
import { boolean, oneOf, wholeNumber } from '../settings/values.js';
import { explainFsError } from '../util/fs-error.js';
import { setDecodeBudget } from '../imaging/decode-budget.js';
import { withOutsideLinks } from '../hotel/files.js';
import {
  addOptions,
  DECODE_BUDGET_OPTION,
  EXIT_FAILED,
  FOLLOW_SYMLINKS_OPTION,
  option,
  readOptions,
} from './options.js';

export const BUILD_OPTIONS = {
  assets: option({
    flag: '--assets <dir>',
    env: 'HOTEL_IMAGER_BUILD_ASSETS',
    help: 'hotel asset folder (Nitro: gamedata/ + bundled/furniture/; Flash: gamedata/ + hof_furni/)',
    required: true,
  }),
  out: option({ flag: '--out <dir>', env: 'HOTEL_IMAGER_BUILD_OUT', help: 'corpus output folder', required: true }),
  only: option<string[]>({
    flag: '--only <classname...>',
    env: 'HOTEL_IMAGER_BUILD_ONLY',
    help:
      'build only these classnames (the rest of the corpus is kept; in the variable: separated by spaces or ' +
      'commas)',
  }),
  jobs: option({
    flag: '--jobs <n>',
    env: 'HOTEL_IMAGER_BUILD_JOBS',
    help: 'worker threads; 1 builds in the main thread',
    parse: wholeNumber({ min: 1 }),
    defaultText: 'one per core',
  }),
  furnidata: option({
    flag: '--furnidata <file>',
    env: 'HOTEL_IMAGER_BUILD_FURNIDATA',
    help: 'furnidata file (overrides the layout default)',
  }),
  furniDir: option({
    flag: '--furni-dir <dir>',
    env: 'HOTEL_IMAGER_BUILD_FURNI_DIR',
    help: 'folder of furni asset files (overrides the layout default)',
  }),
  allowShrink: option({
    flag: '--allow-shrink',
    env: 'HOTEL_IMAGER_BUILD_ALLOW_SHRINK',
    help:
      `publish even when the build would take away more than ${SHRINK_LIMIT * 100} % of the published stills, or ` +
      `stills whose asset file is still there (items removed on purpose)`,
    parse: boolean,
    default: false,
  }),
  strict: option({
    flag: '--strict',
    env: 'HOTEL_IMAGER_BUILD_STRICT',
    help: `exit with status ${EXIT_FAILED} when any item failed`,
    parse: boolean,
    default: false,
  }),
  variants: option({
    flag: '--variants <which>',
    env: 'HOTEL_IMAGER_BUILD_VARIANTS',
    help:
      'also publish the reserved names (__s32, __st<n>, __d<n>, __f<n>, .apng) for a plain file server: all, ' +
      'animated or none',
    parse: oneOf(['all', 'animated', 'none'] as const),
    default: 'none',
  }),
  decodeBudget: DECODE_BUDGET_OPTION,
  followSymlinks: FOLLOW_SYMLINKS_OPTION,
};

function progressReporter(): { onProgress: (p: BuildProgress) => void; stop: () => void } {
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        format: 'build [{bar}] {value}/{total} items | {rate} items/s | {unchanged} unchanged | eta {eta_formatted}',
        stream: process.stderr,
        hideCursor: true,
      },
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
export function plainProgress(
  write: (line: string) => void,
  intervalMs = 5000,
  clock: () => number = Date.now,
): (p: BuildProgress) => void {
  const t0 = clock();
  let last: number | undefined;
  return (p) => {
    const now = clock();
    if (p.done === p.total || last === undefined || now - last >= intervalMs) {
      last = now;
      const rate = p.done / Math.max(0.001, (now - t0) / 1000);
      write(
        `build: ${p.done}/${p.total} items ` +
          `(${p.total ? Math.floor((p.done * 100) / p.total) : 100}%), ${rate.toFixed(0)} items/s, ${p.unchanged} ` +
          `unchanged\n`,
      );
    }
  };
}

export function printSummary(
  s: BuildSummary,
  out: (line: string) => void = (l) => process.stdout.write(l + '\n'),
): void {
  const c = s.report.counts;
  out(
    `${s.layout} layout: ${c.ok} ok, ${c.failed} failed, ${c.skipped} skipped (${s.rebuilt} items ` +
      `built, ${s.unchanged} unchanged)`,
  );
  out(
    `published: ${s.corpus.counts.renders} renders, ${s.corpus.counts.icons} icons, ${s.corpus.counts.bundles} bundles`,
  );
  const notable = Object.entries(s.report.items).filter(([, e]) => e.status !== 'ok');
  for (const [cn, e] of notable.slice(0, 50)) out(`  ${e.status} ${cn}: ${e.reason ?? ''}`);
  if (notable.length > 50) out(`  … ${notable.length - 50} more in build-report.json`);
}

export function registerBuildCommand(program: Command): void {
  const cmd = program
    .command('build')
    .description('build the furni corpus (renders, catalogue icons, bundles, corpus.json) from a hotel asset folder');
  addOptions(cmd, BUILD_OPTIONS).action(async (_o: unknown, command: Command) => {
    const o = readOptions(command, BUILD_OPTIONS);
    setDecodeBudget(o.decodeBudget);
    const progress = progressReporter();
    let summary: BuildSummary;
    try {
      summary = await withOutsideLinks(o.followSymlinks, () =>
        runBuild({
          assets: o.assets,
          out: o.out,
          only: o.only,
          jobs: o.jobs,
          furnidata: o.furnidata,
          furniDir: o.furniDir,
          variants: o.variants,
          allowShrink: o.allowShrink,
          onProgress: progress.onProgress,
        }),
      );
    } catch (e) {
      throw explainFsError(e, [
        { folder: o.out, what: 'the corpus folder', flag: '--out', env: BUILD_OPTIONS.out.spec.env },
        { folder: o.assets, what: 'the hotel assets folder', flag: '--assets', env: BUILD_OPTIONS.assets.spec.env },
        ...(o.furniDir
          ? [
              {
                folder: o.furniDir,
                what: 'the furni folder',
                flag: '--furni-dir',
                env: BUILD_OPTIONS.furniDir.spec.env,
              },
            ]
          : []),
        ...(o.furnidata
          ? [
              {
                folder: o.furnidata,
                what: 'the furnidata file',
                flag: '--furnidata',
                env: BUILD_OPTIONS.furnidata.spec.env,
              },
            ]
          : []),
      ]);
    } finally {
      progress.stop();
    }
    printSummary(summary);
    // Items the build could not build for a reason of its own (a full disk, a crashed worker): the job partly failed.
    const retried = Object.values(summary.report.items).filter(
      (e) => e.status === 'failed' && isRetriedFailure(e.reason),
    ).length;
    if (retried > 0) {
      // Through the program's error output (tests capture it), as commander's own messages go.
      const writeErr = command.configureOutput().writeErr ?? ((t: string) => process.stderr.write(t));
      writeErr(
        `exit ${EXIT_FAILED}: ${retried} classnames could not be built for a reason that is not the hotel's (listed ` +
          `above); they keep what they published before, and the next build retries them\n`,
      );
      process.exitCode = EXIT_FAILED;
    } else if (o.strict && summary.report.counts.failed > 0) process.exitCode = EXIT_FAILED;
  });
}
