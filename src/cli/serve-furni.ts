// `hotel-imager serve furni`: the static furniture asset service over a built corpus. Settings come
// from flags, then environment variables, then defaults (see docs/furni-service.md).
import { type Command, InvalidArgumentError, Option } from 'commander';
import { parseLogLevel, type LogLevel } from '../server/request-log.js';
import {
  DEFAULT_CHECK_INTERVAL_MS,
  DEFAULT_FURNI_PORT,
  DEFAULT_MEMORY_BUDGET,
  startFurniServer,
  type FurniServerOptions,
  type RunningFurniServer,
} from '../server/furni/index.js';
import { DEFAULT_VARIANT_OPTIONS } from '../server/furni/variants.js';
import { addS3Options, flag, s3Settings, type S3Flags } from './s3-options.js';
import { stopOnSignals } from './shutdown.js';

const SIZE_UNITS: Record<string, number> = {
  '': 1, b: 1, k: 1024, kb: 1024, kib: 1024, m: 1024 ** 2, mb: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3, gib: 1024 ** 3,
};

/** "268435456", "256M", "256MiB", "1g" → bytes (binary units). */
export function parseByteSize(v: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(v);
  const unit = m ? SIZE_UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new InvalidArgumentError('expected a byte count such as 268435456, 256M or 1GiB');
  return Math.floor(Number(m[1]) * unit);
}

function port(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('expected a port number 0-65535');
  return n;
}

function positiveMs(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 10) throw new InvalidArgumentError('expected milliseconds ≥ 10');
  return n;
}

function count(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number ≥ 0');
  return n;
}

interface ServeFurniFlags {
  corpus: string;
  port: number;
  host: string;
  logLevel: LogLevel;
  memoryBudget: number;
  checkInterval: number;
  variants: boolean;
  variantsCacheDir?: string;
  variantsMemory: number;
  variantsRate: number;
  variantsBurst: number;
  variantsBudget: number;
  variantsTimeout: number;
  player?: boolean;
  trustProxy?: boolean;
}

function level(v: string): LogLevel {
  try {
    return parseLogLevel(v);
  } catch (e) {
    throw new InvalidArgumentError((e as Error).message);
  }
}

/**
 * Starts the service and stops it cleanly on SIGINT/SIGTERM (unless `signals` is false: a caller
 * running several services closes them all from one handler, see shutdown.ts).
 */
export async function runFurniService(opts: FurniServerOptions, { signals = true }: { signals?: boolean } = {}): Promise<RunningFurniServer> {
  const running = await startFurniServer(opts);
  const health = await running.store.health();
  if (!health.ok) {
    running.app.log.error({ corpus: running.store.location, error: health.error }, 'serving without a usable corpus: every asset is 404 until corpus.json loads');
  }
  running.app.log.info(
    { url: running.url, corpus: running.store.location, files: health.corpus?.files ?? 0 },
    `furni service listening on ${running.url}`,
  );
  if (signals) stopOnSignals([running.close]);
  return running;
}

/** Adds `furni` under the `serve` command group. */
export function registerServeFurniCommand(serve: Command): void {
  const cmd = serve
    .command('furni')
    .description('serve a built furni corpus: /furni-renders/, /catalog-thumbs/, /hof_furni/, /healthz, /version, /metrics')
    .addOption(new Option('--corpus <dir|s3url>', 'corpus folder written by `hotel-imager build`, or s3://BUCKET/PREFIX written by `hotel-imager publish`').env('HOTEL_IMAGER_FURNI_CORPUS').makeOptionMandatory())
    .addOption(new Option('--port <n>', 'TCP port').env('HOTEL_IMAGER_FURNI_PORT').argParser(port).default(DEFAULT_FURNI_PORT))
    .addOption(new Option('--host <addr>', 'address to listen on').env('HOTEL_IMAGER_FURNI_HOST').default('0.0.0.0'))
    .addOption(
      new Option('--log-level <level>', 'fatal, error, warn, info (one line per request), debug, trace or silent')
        .env('HOTEL_IMAGER_LOG_LEVEL')
        .argParser(level)
        .default('info'),
    )
    .addOption(
      new Option('--memory-budget <bytes>', 'bytes of hot files kept in memory, e.g. 268435456, 256M, 1G; 0 = always read from disk')
        .env('HOTEL_IMAGER_FURNI_MEMORY_BUDGET')
        .argParser(parseByteSize)
        .default(DEFAULT_MEMORY_BUDGET, '256M'),
    )
    .addOption(
      new Option('--check-interval <ms>', 'how often corpus.json is checked for a finished rebuild or a new publish')
        .env('HOTEL_IMAGER_FURNI_CHECK_INTERVAL_MS')
        .argParser(positiveMs)
        .default(DEFAULT_CHECK_INTERVAL_MS),
    )
    .addOption(new Option('--variants', 'render the reserved names (__s32, __st<n>, __d<n>, __f<n>, .apng) on demand from the bundles').env('HOTEL_IMAGER_FURNI_VARIANTS').default(false))
    .addOption(new Option('--variants-cache-dir <dir>', 'also keep rendered variants in this folder').env('HOTEL_IMAGER_FURNI_VARIANTS_CACHE_DIR'))
    .addOption(
      new Option('--variants-memory <bytes>', 'bytes of rendered variants kept in memory').env('HOTEL_IMAGER_FURNI_VARIANTS_MEMORY').argParser(parseByteSize).default(DEFAULT_VARIANT_OPTIONS.memoryBudget, '64M'),
    )
    .addOption(new Option('--variants-rate <n>', 'uncached variant renders per second per client (0: no limit)').env('HOTEL_IMAGER_FURNI_VARIANTS_RATE').argParser(count).default(DEFAULT_VARIANT_OPTIONS.clientRate.perSecond))
    .addOption(new Option('--variants-burst <n>', 'uncached variant renders a client may do at once').env('HOTEL_IMAGER_FURNI_VARIANTS_BURST').argParser(count).default(DEFAULT_VARIANT_OPTIONS.clientRate.burst))
    .addOption(new Option('--variants-budget <n>', 'uncached variant renders per minute for the whole service (0: no limit)').env('HOTEL_IMAGER_FURNI_VARIANTS_BUDGET').argParser(count).default(DEFAULT_VARIANT_OPTIONS.budget.renders))
    .addOption(new Option('--variants-timeout <ms>', 'a variant render slower than this answers 503').env('HOTEL_IMAGER_FURNI_VARIANTS_TIMEOUT_MS').argParser(positiveMs).default(DEFAULT_VARIANT_OPTIONS.timeoutMs))
    .addOption(new Option('--player', 'serve the bundle player page /player/<classname> (on with --variants)').env('HOTEL_IMAGER_FURNI_PLAYER'))
    .addOption(
      new Option('--trust-proxy [bool]', 'take the client address (request log, variant rate limit) from X-Forwarded-For: only behind a proxy that sets it')
        .env('HOTEL_IMAGER_TRUST_PROXY')
        .argParser(flag),
    );
  addS3Options(cmd).action(async (o: ServeFurniFlags & S3Flags) => {
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
      trustProxy: o.trustProxy === true,
    });
  });
}
