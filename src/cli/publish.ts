// `hotel-imager publish`: uploads a built corpus folder to s3://BUCKET/PREFIX for `serve furni --corpus
// s3://…` (see src/storage/publish.ts for the order that keeps running services consistent).
import { type Command, InvalidArgumentError, Option } from 'commander';
import cliProgress from 'cli-progress';
import type { PublishProgress, PublishSummary } from '../storage/publish.js';
import { DEFAULT_GRACE_MS, DEFAULT_KEEP_PREVIOUS, DEFAULT_PUBLISH_CONCURRENCY } from '../storage/publish-settings.js';
import { parseS3Url } from '../storage/s3-settings.js';
import { addS3Options, s3Settings, type S3Flags } from './s3-options.js';

function wholeNumber(min: number) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`expected a whole number ≥ ${min}`);
    return n;
  };
}

function s3Url(v: string): string {
  try {
    parseS3Url(v);
  } catch (e) {
    throw new InvalidArgumentError((e as Error).message);
  }
  return v;
}

/** "90", "90s", "15m", "1h", "2d" → milliseconds. */
export function parseDuration(v: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(v);
  if (!m) throw new InvalidArgumentError('expected a duration such as 0, 90s, 15m, 1h or 2d');
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] ?? 's']!;
  return Math.round(Number(m[1]) * unit);
}

function progressReporter(): { onProgress: (p: PublishProgress) => void; stop: () => void } {
  const mib = (n: number) => (n / 1048576).toFixed(1);
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: 'publish [{bar}] {value}/{total} objects | {mb}/{totalMb} MiB | eta {eta_formatted}', stream: process.stderr, hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      onProgress: (p) => {
        const payload = { mb: mib(p.bytes), totalMb: mib(p.totalBytes) };
        if (!started) {
          bar.start(p.total, p.done, payload);
          started = true;
        } else bar.update(p.done, payload);
      },
      stop: () => started && bar.stop(),
    };
  }
  // Not a terminal (CI, logs): the first report, one line every 5 s, and the last.
  let last = 0;
  return {
    onProgress: (p) => {
      const now = Date.now();
      if (p.done === 0 || p.done === p.total || now - last >= 5000) {
        last = now;
        process.stderr.write(`publish: ${p.done}/${p.total} objects, ${mib(p.bytes)}/${mib(p.totalBytes)} MiB\n`);
      }
    },
    stop: () => undefined,
  };
}

export function printPublishSummary(s: PublishSummary, out: (line: string) => void = (l) => process.stdout.write(l + '\n')): void {
  out(`${s.location}: ${s.files} files, ${s.objects} distinct objects`);
  out(`uploaded ${s.uploaded} (${(s.uploadedBytes / 1048576).toFixed(1)} MiB), ${s.unchanged} unchanged, ${s.resumed} already uploaded by an interrupted publish`);
  out(s.corpusJsonWritten ? 'corpus.json replaced' : 'corpus.json already current');
  out(`removed ${s.deletedObjects} objects and ${s.deletedManifests} old corpus.json copies; ${s.retainedManifests} corpus.json copies retained`);
}

export function registerPublishCommand(program: Command): void {
  const cmd = program
    .command('publish')
    .description('upload a built furni corpus to an S3 bucket for `serve furni --corpus s3://…` (incremental, resumable)')
    .requiredOption('--corpus <dir>', 'corpus folder written by `hotel-imager build`')
    .requiredOption('--to <s3url>', 'destination, s3://BUCKET/PREFIX', s3Url)
    .option('--concurrency <n>', 'uploads in flight at once', wholeNumber(1), DEFAULT_PUBLISH_CONCURRENCY)
    .option('--keep-previous <n>', 'previous corpus.json versions whose objects are kept', wholeNumber(0), DEFAULT_KEEP_PREVIOUS)
    .addOption(new Option('--grace <duration>', 'how long objects of a replaced corpus.json stay (0, 90s, 15m, 1h, 2d)').argParser(parseDuration).default(DEFAULT_GRACE_MS, '1h'));
  addS3Options(cmd).action(async (o: S3Flags & { corpus: string; to: string; concurrency: number; keepPrevious: number; grace: number }) => {
    const progress = progressReporter();
    // Ctrl-C stops starting uploads; corpus.json is not touched, and the next publish resumes.
    const abort = new AbortController();
    const onSignal = () => abort.abort(new Error('publish interrupted; the bucket still serves its previous corpus.json, run publish again to resume'));
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    let summary: PublishSummary;
    // Loaded here: the S3 SDK costs ~20 MB and a noticeable start-up time that other commands need not pay.
    const { publishCorpus } = await import('../storage/publish.js');
    try {
      summary = await publishCorpus({
        corpus: o.corpus,
        to: o.to,
        s3: s3Settings(o),
        concurrency: o.concurrency,
        keepPrevious: o.keepPrevious,
        graceMs: o.grace,
        signal: abort.signal,
        onProgress: progress.onProgress,
      });
    } finally {
      progress.stop();
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    printPublishSummary(summary);
  });
}
