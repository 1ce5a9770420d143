// Starting and stopping the furniture asset service: what `serve furni` and `start` call.
import { type FastifyInstance } from 'fastify';
import { readBuildInfo, readPackageVersion } from '../../http/build-info.js';
import { DEFAULT_HOST, localUrl } from '../../http/http-server.js';
import { stdoutLineStream } from '../../http/log-stream.js';
import { type LogLevel } from '../../http/request-log.js';
import { createFurniApp } from './app.js';
import { createFurniMetrics } from './metrics.js';
import { DiskCorpusSource } from '../../storage/disk-corpus-source.js';
import { isS3Url, type S3Settings } from '../../storage/s3-settings.js';
import { CorpusStore } from '../../core/furni/corpus-store.js';
import { PlayerPage } from './player-page.js';
import { DEFAULT_VARIANT_OPTIONS, VariantService, type VariantOptions } from '../../core/furni/variants.js';

export { createFurniApp, FURNI_SERVICE_NAME } from './app.js';
export { CorpusStore } from '../../core/furni/corpus-store.js';

export const DEFAULT_FURNI_PORT = 8080;
export const DEFAULT_MEMORY_BUDGET = 256 * 1024 * 1024;
export const DEFAULT_CHECK_INTERVAL_MS = 2000;

export interface FurniServerOptions {
  /** A corpus folder, or s3://BUCKET/PREFIX of a corpus published with `hotel-imager publish`. */
  corpus: string;
  /** Endpoint, addressing and timeout for an s3:// corpus. */
  s3?: S3Settings;
  port?: number;
  host?: string;
  logLevel?: LogLevel;
  memoryBudget?: number;
  /** How often corpus.json is checked for a rebuild, in ms. */
  checkIntervalMs?: number;
  /** The build record /version reports; build-info.json next to the compiled code when absent (see build-info.ts). */
  buildInfoFile?: string;
  /**
   * On-demand reserved names (contract F2.6: `__s32`, `__st<n>`, `__d<n>`, `__f<n>`, `.apng`), with these
   * settings over DEFAULT_VARIANT_OPTIONS; absent or false: every reserved name stays 404.
   */
  variants?: Partial<VariantOptions> | boolean;
  /** The bundle player page /player/<classname>; default: on when variants are. */
  player?: boolean;
  /** Log destination; stdout through a buffered line writer when absent. */
  logStream?: { write(line: string): unknown };
  /** Take the client address (request log, variant rate limit) from X-Forwarded-For; default false. */
  trustProxy?: boolean;
}

export interface RunningFurniServer {
  app: FastifyInstance;
  store: CorpusStore;
  /** Base URL, e.g. http://127.0.0.1:8080 */
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startFurniServer(opts: FurniServerOptions): Promise<RunningFurniServer> {
  const logLevel = opts.logLevel ?? 'info';
  // The store logs through the app's logger, which exists only once the app does; bridge the two.
  let app: FastifyInstance | undefined;
  // The S3 SDK is loaded only for a bucket corpus (~20 MB and a noticeable start-up time otherwise).
  const source = isS3Url(opts.corpus)
    ? new (await import('../../storage/s3-corpus-source.js')).S3CorpusSource(opts.corpus, opts.s3)
    : new DiskCorpusSource(opts.corpus);
  const store = new CorpusStore({
    source,
    memoryBudget: opts.memoryBudget ?? DEFAULT_MEMORY_BUDGET,
    checkIntervalMs: opts.checkIntervalMs ?? DEFAULT_CHECK_INTERVAL_MS,
    log: {
      info: (o, m) => app?.log.info(o, m),
      warn: (o, m) => app?.log.warn(o, m),
      error: (o, m) => app?.log.error(o, m),
    },
  });
  const ownStream = opts.logStream ? undefined : stdoutLineStream();
  const buildInfo = readBuildInfo(opts.buildInfoFile !== undefined ? { buildInfoFile: opts.buildInfoFile } : {});
  const version = readPackageVersion();
  let variants: VariantService | undefined;
  const metrics = createFurniMetrics({ store, variants: () => variants, version, commit: buildInfo.commit });
  if (opts.variants) {
    variants = new VariantService(
      store,
      { ...DEFAULT_VARIANT_OPTIONS, ...(opts.variants === true ? {} : opts.variants) },
      { warn: (o, m) => app?.log.warn(o, m), error: (o, m) => app?.log.error(o, m) },
      { rendered: metrics.variantRendered },
    );
  }
  const player = opts.player ?? !!opts.variants;
  app = createFurniApp({
    store,
    ...(variants ? { variants } : {}),
    ...(player ? { player: new PlayerPage(store) } : {}),
    buildInfo,
    version,
    log: { level: logLevel, stream: opts.logStream ?? ownStream! },
    metrics,
    trustProxy: opts.trustProxy ?? false,
  });
  await store.open();
  store.startWatching();
  const host = opts.host ?? DEFAULT_HOST;
  try {
    await app.listen({ port: opts.port ?? DEFAULT_FURNI_PORT, host });
  } catch (e) {
    store.stop();
    await app.close();
    ownStream?.flushSync();
    throw e;
  }
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : (opts.port ?? DEFAULT_FURNI_PORT);
  const started = app;
  return {
    app: started,
    store,
    port,
    url: localUrl(host, port),
    close: async () => {
      store.stop();
      await started.close();
      ownStream?.flushSync();
    },
  };
}
