// `hotel-imager serve furni`: the static furniture asset service over a built corpus. Settings come
// from flags, then environment variables, then defaults (see docs/furni-service.md).
import { stat } from 'node:fs/promises';
import { type Command } from 'commander';
import { LOG_LEVELS } from '../http/request-log.js';
import {
  DEFAULT_CHECK_INTERVAL_MS,
  DEFAULT_FURNI_PORT,
  DEFAULT_MEMORY_BUDGET,
  startFurniServer,
  type FurniServerOptions,
  type RunningFurniServer,
} from '../server/furni/index.js';
import { DEFAULT_HOST, describeBind } from '../http/http-server.js';
import { DEFAULT_VARIANT_OPTIONS } from '../core/furni/variants.js';
import { boolean, byteSize, milliseconds, oneOf, port, wholeNumber } from '../settings/values.js';
import { isS3Url } from '../storage/s3-settings.js';
import { explainFsError, prepareWritableFolder } from '../util/fs-error.js';
import { setDecodeBudget } from '../imaging/decode-budget.js';
import { addOptions, DECODE_BUDGET_OPTION, explainPortInUse, option, readOptions } from './options.js';
import { S3_OPTIONS, s3Settings } from './s3-options.js';
import { stopOnSignals } from './shutdown.js';

export const SERVE_FURNI_OPTIONS = {
  corpus: option({
    flag: '--corpus <dir|s3url>',
    env: 'HOTEL_IMAGER_FURNI_CORPUS',
    help: 'corpus folder written by `hotel-imager build`, or s3://BUCKET/PREFIX written by `hotel-imager publish`',
    required: true,
  }),
  port: option({
    flag: '--port <n>',
    env: 'HOTEL_IMAGER_FURNI_PORT',
    help: 'TCP port',
    parse: port,
    default: DEFAULT_FURNI_PORT,
  }),
  host: option({
    flag: '--host <addr>',
    env: 'HOTEL_IMAGER_FURNI_HOST',
    help: 'address to listen on (0.0.0.0: every interface; 127.0.0.1: this machine only)',
    default: DEFAULT_HOST,
  }),
  logLevel: option({
    flag: '--log-level <level>',
    env: 'HOTEL_IMAGER_LOG_LEVEL',
    help: 'fatal, error, warn, info (one line per request), debug, trace or silent',
    parse: oneOf(LOG_LEVELS),
    default: 'info',
  }),
  memoryBudget: option({
    flag: '--memory-budget <size>',
    env: 'HOTEL_IMAGER_FURNI_MEMORY_BUDGET',
    help: 'bytes of hot files kept in memory, e.g. 268435456, 256M, 1G; 0 = always read from disk',
    parse: byteSize,
    default: DEFAULT_MEMORY_BUDGET,
    defaultText: '256M',
  }),
  checkInterval: option({
    flag: '--check-interval <ms>',
    env: 'HOTEL_IMAGER_FURNI_CHECK_INTERVAL_MS',
    help: 'how often corpus.json is checked for a finished rebuild or a new publish',
    parse: milliseconds(10),
    default: DEFAULT_CHECK_INTERVAL_MS,
  }),
  variants: option({
    flag: '--variants',
    env: 'HOTEL_IMAGER_FURNI_VARIANTS',
    help: 'render the reserved names (__s32, __st<n>, __d<n>, __f<n>, .apng) on demand from the bundles',
    parse: boolean,
    default: false,
  }),
  variantsCacheDir: option({
    flag: '--variants-cache-dir <dir>',
    env: 'HOTEL_IMAGER_FURNI_VARIANTS_CACHE_DIR',
    help: 'also keep rendered variants in this folder',
    defaultText: 'memory only',
  }),
  variantsMemory: option({
    flag: '--variants-memory <size>',
    env: 'HOTEL_IMAGER_FURNI_VARIANTS_MEMORY',
    help: 'bytes of rendered variants kept in memory',
    parse: byteSize,
    default: DEFAULT_VARIANT_OPTIONS.memoryBudget,
    defaultText: '64M',
  }),
  variantsRate: option({
    flag: '--variants-rate <n>',
    env: 'HOTEL_IMAGER_FURNI_VARIANTS_RATE',
    help: 'uncached variant renders per second per client (0: no limit)',
    parse: wholeNumber(),
    default: DEFAULT_VARIANT_OPTIONS.clientRate.perSecond,
  }),
  variantsBurst: option({
    flag: '--variants-burst <n>',
    env: 'HOTEL_IMAGER_FURNI_VARIANTS_BURST',
    help: 'uncached variant renders a client may do at once',
    parse: wholeNumber(),
    default: DEFAULT_VARIANT_OPTIONS.clientRate.burst,
  }),
  variantsBudget: option({
    flag: '--variants-budget <n>',
    env: 'HOTEL_IMAGER_FURNI_VARIANTS_BUDGET',
    help: 'uncached variant renders per minute for the whole service (0: no limit)',
    parse: wholeNumber(),
    default: DEFAULT_VARIANT_OPTIONS.budget.renders,
  }),
  variantsTimeout: option({
    flag: '--variants-timeout <ms>',
    env: 'HOTEL_IMAGER_FURNI_VARIANTS_TIMEOUT_MS',
    help: 'a variant render slower than this answers 503',
    parse: milliseconds(10),
    default: DEFAULT_VARIANT_OPTIONS.timeoutMs,
  }),
  player: option({
    flag: '--player',
    env: 'HOTEL_IMAGER_FURNI_PLAYER',
    help: 'serve the bundle player page /player/<classname>',
    parse: boolean,
    defaultText: 'on with --variants',
  }),
  trustProxy: option({
    flag: '--trust-proxy',
    env: 'HOTEL_IMAGER_TRUST_PROXY',
    help:
      'take the client address (request log, variant rate limit) from X-Forwarded-For: only behind a proxy that ' +
      'sets it',
    parse: boolean,
    default: false,
  }),
  decodeBudget: DECODE_BUDGET_OPTION,
  ...S3_OPTIONS,
};

/**
 * Starts the service and stops it cleanly on SIGINT/SIGTERM (unless `signals` is false: a caller
 * running several services closes them all from one handler, see shutdown.ts).
 */
export async function runFurniService(
  opts: FurniServerOptions,
  { signals = true }: { signals?: boolean } = {},
): Promise<RunningFurniServer> {
  const running = await startFurniServer(opts);
  const health = await running.store.health();
  if (!health.ok) {
    running.app.log.error(
      { corpus: running.store.location, error: health.error },
      'serving without a usable corpus: every asset is 404 until corpus.json loads',
    );
  }
  running.app.log.info(
    { url: running.url, corpus: running.store.location, files: health.corpus?.files ?? 0 },
    `furni service listening on ${running.url} (bound to ${describeBind(opts.host ?? DEFAULT_HOST, running.port)})`,
  );
  if (signals) stopOnSignals([running.close]);
  return running;
}

/**
 * A corpus folder that does not exist is a mistake (a typo would otherwise look like a service that
 * waits forever); an existing folder without a corpus yet is served once a build finishes there.
 */
async function checkCorpusFolder(corpus: string): Promise<void> {
  const setting = `--corpus or ${SERVE_FURNI_OPTIONS.corpus.spec.env}`;
  let s;
  try {
    s = await stat(corpus);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
      throw explainFsError(e, [
        { folder: corpus, what: 'the corpus folder', flag: '--corpus', env: SERVE_FURNI_OPTIONS.corpus.spec.env },
      ]);
    throw new Error(
      `the corpus folder ${corpus} (${setting}) does not exist. Fix the path, or build a corpus there first ` +
        `(hotel-imager build --assets DIR --out ${corpus}); an existing empty folder is served as soon as a build ` +
        `finishes in it`,
    );
  }
  if (!s.isDirectory())
    throw new Error(
      `the corpus ${corpus} (${setting}) is a file, not a folder: give the folder \`hotel-imager build --out\` wrote`,
    );
}

/** Adds `furni` under the `serve` command group. */
export function registerServeFurniCommand(serve: Command): void {
  const cmd = serve
    .command('furni')
    .description(
      'serve a built furni corpus: /furni-renders/, /catalog-thumbs/, /hof_furni/, /healthz, /version, /metrics',
    );
  addOptions(cmd, SERVE_FURNI_OPTIONS).action(async (_o: unknown, command: Command) => {
    const o = readOptions(command, SERVE_FURNI_OPTIONS);
    setDecodeBudget(o.decodeBudget);
    if (!isS3Url(o.corpus)) await checkCorpusFolder(o.corpus);
    if (o.variants && o.variantsCacheDir) {
      await prepareWritableFolder({
        folder: o.variantsCacheDir,
        what: 'the variant cache folder',
        flag: '--variants-cache-dir',
        env: SERVE_FURNI_OPTIONS.variantsCacheDir.spec.env,
      });
    }
    await runFurniService({
      corpus: o.corpus,
      s3: s3Settings(o),
      port: o.port,
      host: o.host,
      logLevel: o.logLevel,
      memoryBudget: o.memoryBudget,
      checkIntervalMs: o.checkInterval,
      variants: o.variants
        ? {
            memoryBudget: o.variantsMemory,
            clientRate: { perSecond: o.variantsRate, burst: o.variantsBurst },
            budget: { renders: o.variantsBudget, windowMs: 60_000 },
            timeoutMs: o.variantsTimeout,
            ...(o.variantsCacheDir ? { cacheDir: o.variantsCacheDir } : {}),
          }
        : false,
      ...(o.player !== undefined ? { player: o.player } : {}),
      trustProxy: o.trustProxy,
    }).catch((e: unknown) => {
      throw explainPortInUse(e, {
        service: 'furni',
        port: o.port,
        flag: '--port',
        env: 'HOTEL_IMAGER_FURNI_PORT',
        command: 'hotel-imager serve furni',
      });
    });
  });
}
