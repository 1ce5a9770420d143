// The furni service's /metrics: requests and latency by route (recorded on the hot paths, see
// src/http/metrics.ts), where answered files came from, the corpus in service, storage errors, the memory
// cache and the on-demand variants. Everything but the request counters is read from the store and the
// variant service when Prometheus scrapes (collect()), so serving pays nothing for it.
// Names and meanings: docs/operations.md.
import client from 'prom-client';
import { RENDERER_VERSION as FURNI_RENDERER_VERSION } from '../../furni/version.js';
import { HttpMetrics, METRIC_PREFIX, serviceRegistry, type ServiceRegistry } from '../../http/metrics.js';
import { FURNI_TIERS } from '../../core/furni/asset-answer.js';
import { type CorpusStore, type CorpusStoreStats } from '../../core/furni/corpus-store.js';
import { type VariantService } from '../../core/furni/variants.js';

/** The `route` label values; the last is everything else (404s, probes, CONNECT, bad requests). */
export const FURNI_ROUTES = [
  '/furni-renders/',
  '/catalog-thumbs/',
  '/hof_furni/',
  '/player/',
  '/healthz',
  '/version',
  '/metrics',
  'other',
] as const;
const OTHER = FURNI_ROUTES.length - 1;

/** The route index of a raw request target (asset folders first: they are nearly every request). */
export function furniRoute(target: string): number {
  if (target.startsWith('/furni-renders/')) return 0;
  if (target.startsWith('/catalog-thumbs/')) return 1;
  if (target.startsWith('/hof_furni/')) return 2;
  if (target.startsWith('/player/')) return 3;
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  const at = (FURNI_ROUTES as readonly string[]).indexOf(path);
  return at < 4 ? OTHER : at;
}

/** Variant render time buckets, seconds (a still is a few ms, a long animation up to the timeout). */
const VARIANT_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface FurniMetrics extends ServiceRegistry {
  http: HttpMetrics;
  /** For VariantService's hooks: a finished render's seconds. */
  variantRendered(seconds: number): void;
}

export function createFurniMetrics(opts: {
  store: CorpusStore;
  /** Read on each scrape: the variant service is built after the metrics (it takes their hook). */
  variants: () => VariantService | undefined;
  version: string;
  commit: string;
}): FurniMetrics {
  const { store } = opts;
  // One look at the store and the variant service per scrape, read by every collect() below.
  let stats: CorpusStoreStats = store.stats();
  let variantStats: ReturnType<VariantService['health']> | undefined;
  const base = serviceRegistry(
    'furni',
    { version: opts.version, commit: opts.commit, renderer: FURNI_RENDERER_VERSION },
    () => {
      stats = store.stats();
      variantStats = opts.variants()?.health();
    },
  );
  const registers = [base.registry];
  const http = new HttpMetrics(base.registry, FURNI_ROUTES, {
    name: `${METRIC_PREFIX}furni_cache_outcomes_total`,
    help:
      'Files answered with a body (200), by where the bytes came from: memory, storage (the corpus folder or ' +
      'bucket), variant_disk or render (on-demand variants)',
    values: FURNI_TIERS,
  });
  const gauge = (name: string, help: string, read: () => number | undefined) =>
    new client.Gauge({
      name: METRIC_PREFIX + name,
      help,
      registers,
      collect() {
        const v = read();
        if (v === undefined) this.reset();
        else this.set(v);
      },
    });

  gauge(
    'furni_corpus_generation',
    'corpus.json tables loaded since start: 0 before the first, +1 for each rebuild or publish picked up',
    () => stats.generation,
  );
  gauge('furni_corpus_loaded_timestamp_seconds', 'When the corpus in service was loaded (Unix time)', () =>
    seconds(stats.loadedAtMs),
  );
  gauge('furni_corpus_built_timestamp_seconds', 'When the corpus in service was built (its builtAt, Unix time)', () =>
    seconds(stats.builtAtMs),
  );
  new client.Gauge({
    name: `${METRIC_PREFIX}furni_corpus_files`,
    help: 'Files the corpus in service lists, by kind (render, icon, bundle, animation)',
    labelNames: ['kind'],
    registers,
    collect() {
      this.reset();
      for (const [kind, n] of Object.entries(stats.files)) this.set({ kind }, n);
    },
  });
  gauge('furni_storage_up', '1 when the last read of corpus.json reached the storage (folder or bucket), else 0', () =>
    stats.reachable ? 1 : 0,
  );
  new client.Counter({
    name: `${METRIC_PREFIX}furni_storage_errors_total`,
    help:
      'Failed storage reads: op="read" a listed file (reason missing, outside, changed or io), op="manifest" a ' +
      'corpus.json check (unreachable, unreadable or invalid; counted at every check while it lasts)',
    labelNames: ['op', 'reason'],
    registers,
    collect() {
      this.reset();
      const { errors } = stats;
      for (const [op, reasons] of Object.entries(errors)) {
        for (const [reason, n] of Object.entries(reasons as Record<string, number>)) this.inc({ op, reason }, n);
      }
    },
  });
  gauge('furni_memory_cache_bytes', 'Bytes of file bodies held in the memory cache', () => stats.memory.bytes);
  gauge('furni_memory_cache_files', 'Files held in the memory cache', () => stats.memory.files);
  gauge('furni_memory_cache_limit_bytes', 'The memory cache budget (--memory-budget)', () => stats.memory.budget);

  // Variants: present (as 0) with --variants off too, so dashboards need no special case.
  const variantRenders = new client.Histogram({
    name: `${METRIC_PREFIX}furni_variant_render_duration_seconds`,
    help: 'Time of an on-demand variant render: bundle decode (when not in memory), render and encode',
    buckets: VARIANT_BUCKETS,
    registers,
  });
  new client.Counter({
    name: `${METRIC_PREFIX}furni_variant_renders_total`,
    help: 'On-demand variants rendered (--variants)',
    registers,
    collect() {
      this.reset();
      this.inc(variantStats?.rendered ?? 0);
    },
  });
  new client.Counter({
    name: `${METRIC_PREFIX}furni_variant_refusals_total`,
    help:
      'Variant requests not rendered: reason="invalid" (the item has no such state, direction or frame: 404), ' +
      '"limited" (rate, budget or queue: 429), "timeout" (503)',
    labelNames: ['reason'],
    registers,
    collect() {
      this.reset();
      const s = variantStats;
      this.inc({ reason: 'invalid' }, s?.refused ?? 0);
      this.inc({ reason: 'limited' }, s?.limited ?? 0);
      this.inc({ reason: 'timeout' }, s?.timedOut ?? 0);
    },
  });
  gauge('furni_variant_renders_running', 'Variant renders running now', () => variantStats?.running ?? 0);
  gauge('furni_variant_queue_depth', 'Variant renders waiting for a slot', () => variantStats?.queued ?? 0);
  new client.Gauge({
    name: `${METRIC_PREFIX}furni_variant_cache_bytes`,
    help: 'Bytes held by the variant caches: kind="files" rendered files, kind="models" decoded bundles',
    labelNames: ['kind'],
    registers,
    collect() {
      const s = variantStats;
      this.set({ kind: 'files' }, s?.cachedBytes ?? 0);
      this.set({ kind: 'models' }, s?.modelBytes ?? 0);
    },
  });

  return { ...base, http, variantRendered: (s) => variantRenders.observe(s) };
}

function seconds(ms: number | undefined): number | undefined {
  return ms === undefined ? undefined : ms / 1000;
}
