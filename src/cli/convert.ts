// `hotel-imager convert`: a Flash-era hotel folder → the Nitro layout (gamedata JSON, .nitro bundles).
import { type Command, InvalidArgumentError } from 'commander';
import { convertFlashToNitro, type ConvertReport } from '../convert/flash-to-nitro.js';

function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number ≥ 1');
  return n;
}

export function printConvertSummary(r: ConvertReport, out: (line: string) => void = (l) => process.stdout.write(l + '\n')): void {
  out(`converted: ${r.gamedata.length} gamedata documents, ${r.figures.length} figure libraries, ${r.furniture.length} furni${r.effects.length ? `, ${r.effects.length} effect libraries` : ''}${r.badges?.length ? `, group badges (${r.badges.map((b) => b.target).join(', ')})` : ''}`);
  if (r.superseded.length) out(`left out ${r.superseded.length} superseded SWFs (another revision or release folder was chosen)`);
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
  program
    .command('convert')
    .description('convert a Flash-era hotel folder (gamedata XML/txt, gordon/, hof_furni/) to the Nitro layout')
    .requiredOption('--from <dir>', 'Flash layout folder: gamedata/, gordon/ (figure SWFs), hof_furni/[<revision>/]*.swf')
    .requiredOption('--to <dir>', 'Nitro layout folder to write: gamedata/*.json, bundled/figure/, bundled/furniture/')
    .option('--concurrency <n>', 'files converted at once', positiveInt, 2)
    .option('--strict', 'exit with status 2 when any file could not be converted')
    .action(async (o: { from: string; to: string; concurrency: number; strict?: boolean }) => {
      let last = 0;
      const report = await convertFlashToNitro({
        from: o.from,
        to: o.to,
        concurrency: o.concurrency,
        onProgress: (p) => {
          const now = Date.now();
          if (p.done === p.total || now - last >= 2000) {
            last = now;
            err(`convert: ${p.done}/${p.total} libraries`);
          }
        },
      });
      printConvertSummary(report, out);
      if (o.strict && (report.failed.length > 0 || report.furnidataProblems.length > 0)) process.exitCode = 2;
    });
}
