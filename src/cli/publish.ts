// `hotel-imager publish`: uploads a built corpus folder to s3://BUCKET/PREFIX for `serve furni --corpus
// s3://…` (see src/storage/publish.ts for the order that keeps running services consistent).
import { type Command } from 'commander';
import cliProgress from 'cli-progress';
import { type PublishProgress, type PublishSummary } from '../storage/publish.js';
import { DEFAULT_GRACE_MS, DEFAULT_KEEP_PREVIOUS, DEFAULT_PUBLISH_CONCURRENCY } from '../storage/publish-settings.js';
import { SHRINK_LIMIT } from '../corpus/shrink.js';
import { BadValueError, boolean, duration, wholeNumber, type Parser } from '../settings/values.js';
import { parseS3Url } from '../storage/s3-settings.js';
import { addOptions, option, readOptions } from './options.js';
import { S3_OPTIONS, s3Settings } from './s3-options.js';

const s3Url: Parser<string> = (v) => {
  try {
    parseS3Url(v);
  } catch {
    throw new BadValueError('an s3://BUCKET/PREFIX address');
  }
  return v;
};

export const PUBLISH_OPTIONS = {
  corpus: option({
    flag: '--corpus <dir>',
    env: 'HOTEL_IMAGER_PUBLISH_CORPUS',
    help: 'corpus folder written by `hotel-imager build`',
    required: true,
  }),
  to: option({
    flag: '--to <s3url>',
    env: 'HOTEL_IMAGER_PUBLISH_TO',
    help: 'destination, s3://BUCKET/PREFIX',
    parse: s3Url,
    required: true,
  }),
  jobs: option({
    flag: '--jobs <n>',
    env: 'HOTEL_IMAGER_PUBLISH_JOBS',
    help: 'uploads in flight at once',
    parse: wholeNumber({ min: 1 }),
    default: DEFAULT_PUBLISH_CONCURRENCY,
    aliases: [{ flag: '--concurrency <n>' }],
  }),
  keepPrevious: option({
    flag: '--keep-previous <n>',
    env: 'HOTEL_IMAGER_PUBLISH_KEEP_PREVIOUS',
    help: 'previous corpus.json versions whose objects are kept',
    parse: wholeNumber({ min: 0 }),
    default: DEFAULT_KEEP_PREVIOUS,
  }),
  grace: option({
    flag: '--grace <duration>',
    env: 'HOTEL_IMAGER_PUBLISH_GRACE',
    help: 'how long objects of a replaced corpus.json stay (0, 90s, 15m, 1h, 2d; a bare number is seconds)',
    parse: duration('s'),
    default: DEFAULT_GRACE_MS,
    defaultText: '1h',
  }),
  allowShrink: option({
    flag: '--allow-shrink',
    env: 'HOTEL_IMAGER_PUBLISH_ALLOW_SHRINK',
    help:
      `publish even when the bucket would lose more than ${SHRINK_LIMIT * 100} % of the stills it serves (items ` +
      `removed on purpose)`,
    parse: boolean,
    default: false,
  }),
  ...S3_OPTIONS,
};

function progressReporter(): { onProgress: (p: PublishProgress) => void; stop: () => void } {
  const mib = (n: number) => (n / 1048576).toFixed(1);
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        format: 'publish [{bar}] {value}/{total} objects | {mb}/{totalMb} MiB | eta {eta_formatted}',
        stream: process.stderr,
        hideCursor: true,
      },
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

export function printPublishSummary(
  s: PublishSummary,
  out: (line: string) => void = (l) => process.stdout.write(l + '\n'),
): void {
  out(`${s.location}: ${s.files} files, ${s.objects} distinct objects`);
  out(
    `uploaded ${s.uploaded} (${(s.uploadedBytes / 1048576).toFixed(1)} MiB), ${s.unchanged} unchanged, ${s.resumed} ` +
      `already uploaded by an interrupted publish`,
  );
  out(s.corpusJsonWritten ? 'corpus.json replaced' : 'corpus.json already current');
  out(
    `removed ${s.deletedObjects} objects and ${s.deletedManifests} old corpus.json copies; ${s.retainedManifests} ` +
      `corpus.json copies retained`,
  );
}

export function registerPublishCommand(program: Command): void {
  const cmd = program
    .command('publish')
    .description(
      'upload a built furni corpus to an S3 bucket for `serve furni --corpus s3://…` (incremental, resumable)',
    );
  addOptions(cmd, PUBLISH_OPTIONS).action(async (_o: unknown, command: Command) => {
    const o = readOptions(command, PUBLISH_OPTIONS);
    const progress = progressReporter();
    // Ctrl-C stops starting uploads; corpus.json is not touched, and the next publish resumes.
    const abort = new AbortController();
    const onSignal = () =>
      abort.abort(
        new Error('publish interrupted; the bucket still serves its previous corpus.json, run publish again to resume'),
      );
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
        concurrency: o.jobs,
        keepPrevious: o.keepPrevious,
        graceMs: o.grace,
        allowShrink: o.allowShrink,
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
