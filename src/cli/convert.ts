// `hotel-imager convert`: a Flash-era hotel folder → the Nitro layout (gamedata JSON, .nitro bundles).
import { type Command } from 'commander';
import { convertFlashToNitro, type ConvertReport } from '../convert/flash-to-nitro.js';
import { boolean, wholeNumber } from '../settings/values.js';
import { explainFsError, prepareWritableFolder } from '../util/fs-error.js';
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

export const CONVERT_OPTIONS = {
  from: option({
    flag: '--from <dir>',
    env: 'HOTEL_IMAGER_CONVERT_FROM',
    help: 'Flash layout folder: gamedata/, gordon/ (figure SWFs), hof_furni/[<revision>/]*.swf',
    required: true,
  }),
  to: option({
    flag: '--to <dir>',
    env: 'HOTEL_IMAGER_CONVERT_TO',
    help: 'Nitro layout folder to write: gamedata/*.json, bundled/figure/, bundled/furniture/',
    required: true,
  }),
  jobs: option({
    flag: '--jobs <n>',
    env: 'HOTEL_IMAGER_CONVERT_JOBS',
    help: 'files converted at once',
    parse: wholeNumber({ min: 1 }),
    default: 2,
    aliases: [{ flag: '--concurrency <n>' }],
  }),
  strict: option({
    flag: '--strict',
    env: 'HOTEL_IMAGER_CONVERT_STRICT',
    help:
      `also exit with status ${EXIT_FAILED} when a furnidata row could not be read (a file that could not be ` +
      `converted always does)`,
    parse: boolean,
    default: false,
  }),
  decodeBudget: DECODE_BUDGET_OPTION,
  followSymlinks: FOLLOW_SYMLINKS_OPTION,
};

export function printConvertSummary(
  r: ConvertReport,
  out: (line: string) => void = (l) => process.stdout.write(l + '\n'),
): void {
  const effects = r.effects.length ? `, ${r.effects.length} effect libraries` : '';
  const badges = r.badges?.length ? `, group badges (${r.badges.map((b) => b.target).join(', ')})` : '';
  out(
    `converted: ${r.gamedata.length} gamedata documents, ${r.figures.length} figure libraries, ` +
      `${r.furniture.length} furni${effects}${badges}`,
  );
  if (r.superseded.length)
    out(`left out ${r.superseded.length} superseded SWFs (another revision or release folder was chosen)`);
  if (r.skipped.length) out(`skipped ${r.skipped.length} SWFs that are not figure libraries`);
  if (r.furnidataProblems.length) {
    out(`furnidata: ${r.furnidataProblems.length} rows could not be read:`);
    for (const p of r.furnidataProblems.slice(0, 20)) out(`  line ${p.line}: ${p.reason} — ${p.excerpt}`);
  }
  if (r.failed.length) {
    out(`failed: ${r.failed.length} files could not be converted:`);
    for (const f of r.failed.slice(0, 50)) out(`  ${f.source}: ${f.reason}`);
    if (r.failed.length > 50) out(`  … ${r.failed.length - 50} more in convert-report.json`);
  }
}

/** `out` and `err` receive the summary lines and progress lines (tests pass their own). */
export function registerConvertCommand(
  program: Command,
  out: (line: string) => void = (l) => process.stdout.write(l + '\n'),
  err: (line: string) => void = (l) => process.stderr.write(l + '\n'),
): void {
  const cmd = program
    .command('convert')
    .description('convert a Flash-era hotel folder (gamedata XML/txt, gordon/, hof_furni/) to the Nitro layout');
  addOptions(cmd, CONVERT_OPTIONS).action(async (_o: unknown, command: Command) => {
    const o = readOptions(command, CONVERT_OPTIONS);
    const folders = [
      { folder: o.to, what: 'the Nitro folder to write', flag: '--to', env: CONVERT_OPTIONS.to.spec.env },
      { folder: o.from, what: 'the Flash hotel folder', flag: '--from', env: CONVERT_OPTIONS.from.spec.env },
    ];
    // A read-only or foreign destination is one error before anything is read.
    await prepareWritableFolder(folders[0]!);
    setDecodeBudget(o.decodeBudget);
    let last = 0;
    const report = await withOutsideLinks(o.followSymlinks, () =>
      convertFlashToNitro({
        from: o.from,
        to: o.to,
        concurrency: o.jobs,
        onProgress: (p) => {
          const now = Date.now();
          if (p.done === p.total || now - last >= 2000) {
            last = now;
            err(`convert: ${p.done}/${p.total} libraries`);
          }
        },
      }),
    ).catch((e: unknown) => {
      throw explainFsError(e, folders);
    });
    printConvertSummary(report, out);
    // A file left unconverted is a hotel written in part: the job partly failed.
    if (report.failed.length > 0) {
      err(
        `exit ${EXIT_FAILED}: ${report.failed.length === 1 ? 'a file was' : `${report.failed.length} files were`} ` +
          `not converted (listed above); the rest is in ${o.to}`,
      );
      process.exitCode = EXIT_FAILED;
    } else if (o.strict && report.furnidataProblems.length > 0) process.exitCode = EXIT_FAILED;
  });
}
