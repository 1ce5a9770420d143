// What both services put on GET /metrics (Prometheus text format, prom-client): one registry per
// service instance (tests and `start` run several in one process), the Node process metrics (one set
// per process, shared by every instance in it), and the request counters of the hot paths.
//
// The hot paths (the furni fast path, the avatar memory path) answer tens of thousands of requests a
// second, each in a few tens of µs. prom-client's Counter.inc and Histogram.observe with labels hash the
// label object on every call, so a request's counter, latency and cache outcome through them would be a
// noticeable share of a cached request (docs/operations.md, "Cost"). HttpMetrics records into plain
// arrays indexed by route, status and bucket (a few ns) and hands the totals to prom-client at scrape
// time: the counters through `collect()`, the histogram as a metric object of the shape prom-client's
// Registry reads from every metric (`get()`).
import client, { type Metric, type Registry } from 'prom-client';

/** Every metric of ours starts with this. */
export const METRIC_PREFIX = 'hotel_imager_';

/**
 * Request latency buckets, seconds: from a cached answer (tens of µs) through renders (ms) to a user
 * lookup at its timeout (1.5 s) and a render at its limit (20 s).
 */
export const LATENCY_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
];

let processRegistry: Registry | undefined;

/** The Node process metrics (CPU, memory, event loop lag, GC, handles), collected once per process. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new client.Registry();
    client.collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export interface ServiceRegistry {
  /** The instance's own metrics; register them here. */
  registry: Registry;
  /** The /metrics answer: the instance's metrics and the process's. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

/**
 * A fresh registry for one service instance, with `hotel_imager_build_info` set. `beforeScrape` runs
 * once at the start of each scrape (take one snapshot of the service's stats for every collect()).
 */
export function serviceRegistry(
  service: 'avatar' | 'furni',
  build: { version: string; commit: string; renderer?: string },
  beforeScrape: () => void = () => undefined,
): ServiceRegistry {
  const registry = new client.Registry();
  const info = new client.Gauge({
    name: `${METRIC_PREFIX}build_info`,
    help: 'Always 1: the service, its package version, commit and renderer version as labels',
    labelNames: ['service', 'version', 'commit', 'renderer'],
    registers: [registry],
  });
  info.set({ service, version: build.version, commit: build.commit, renderer: build.renderer ?? '' }, 1);
  const proc = processMetrics();
  return {
    registry,
    scrape: async () => {
      beforeScrape();
      const [own, shared] = await Promise.all([registry.metrics(), proc.metrics()]);
      return { contentType: registry.contentType, body: own + '\n' + shared };
    },
  };
}

/** Status codes a counter slot exists for; anything else is counted as 0 (never sent by these services). */
const STATUS_SLOTS = 600;

/**
 * Requests by route and status, their latency by route, and (optionally) the cache tier that answered:
 * `hotel_imager_http_requests_total{route,status}`, `hotel_imager_http_request_duration_seconds{route}`
 * and `<tierMetric>{tier}`. Routes and tiers are fixed lists; record() takes their indexes.
 */
export class HttpMetrics {
  private readonly counts: Float64Array;
  private readonly buckets: Float64Array;
  private readonly sums: Float64Array;
  private readonly tiers: Float64Array;
  private readonly bounds = LATENCY_BUCKETS;

  constructor(
    registry: Registry,
    readonly routes: readonly string[],
    tiers?: { name: string; help: string; values: readonly string[] },
  ) {
    this.counts = new Float64Array(routes.length * STATUS_SLOTS);
    this.buckets = new Float64Array(routes.length * (this.bounds.length + 1));
    this.sums = new Float64Array(routes.length);
    this.tiers = new Float64Array(tiers?.values.length ?? 0);
    const self = this;
    new client.Counter({
      name: `${METRIC_PREFIX}http_requests_total`,
      help: 'HTTP requests answered, by route and status code',
      labelNames: ['route', 'status'],
      registers: [registry],
      collect() {
        this.reset();
        for (let r = 0; r < routes.length; r++) {
          for (let s = 0; s < STATUS_SLOTS; s++) {
            const n = self.counts[r * STATUS_SLOTS + s]!;
            if (n > 0) this.inc({ route: routes[r]!, status: String(s) }, n);
          }
        }
      },
    });
    registry.registerMetric(this.histogram() as unknown as Metric);
    if (tiers) {
      new client.Counter({
        name: tiers.name,
        help: tiers.help,
        labelNames: ['tier'],
        registers: [registry],
        collect() {
          this.reset();
          tiers.values.forEach((tier, i) => this.inc({ tier }, self.tiers[i]!));
        },
      });
    }
  }

  /** Index of a route name; the last route (the catch-all) for an unknown one. */
  routeIndex(route: string): number {
    const i = this.routes.indexOf(route);
    return i < 0 ? this.routes.length - 1 : i;
  }

  /** One answered request: its route's index, status, seconds from arrival to answer, and tier index (or -1). */
  record(route: number, status: number, seconds: number, tier = -1): void {
    this.counts[route * STATUS_SLOTS + (status > 0 && status < STATUS_SLOTS ? status : 0)]!++;
    const bounds = this.bounds;
    let b = 0;
    while (b < bounds.length && seconds > bounds[b]!) b++;
    this.buckets[route * (bounds.length + 1) + b]!++;
    this.sums[route]! += seconds;
    if (tier >= 0) this.tiers[tier]!++;
  }

  /**
   * `hotel_imager_http_request_duration_seconds` in the shape prom-client's Registry reads from any
   * registered metric: name, help, type and `get()` with the series (bucket lines cumulative, then
   * `+Inf`, `_sum` and `_count`, as its own Histogram gives them).
   */
  private histogram(): ScrapedMetric {
    const name = `${METRIC_PREFIX}http_request_duration_seconds`;
    const help = "Time from a request's arrival to its answer being written, by route";
    const { routes, bounds, buckets, sums } = this;
    return {
      name,
      help,
      type: 'histogram',
      aggregator: 'sum',
      reset: () => {
        buckets.fill(0);
        sums.fill(0);
      },
      get: async () => {
        const values: ScrapedValue[] = [];
        for (let r = 0; r < routes.length; r++) {
          const at = r * (bounds.length + 1);
          let total = 0;
          for (let b = 0; b <= bounds.length; b++) total += buckets[at + b]!;
          if (total === 0) continue;
          const route = routes[r]!;
          let acc = 0;
          for (let b = 0; b < bounds.length; b++) {
            acc += buckets[at + b]!;
            values.push({ metricName: `${name}_bucket`, labels: { route, le: bounds[b]! }, value: acc });
          }
          values.push({ metricName: `${name}_bucket`, labels: { route, le: '+Inf' }, value: total });
          values.push({ metricName: `${name}_sum`, labels: { route }, value: sums[r]! });
          values.push({ metricName: `${name}_count`, labels: { route }, value: total });
        }
        return { name, help, type: 'histogram', aggregator: 'sum', values };
      },
    };
  }
}

interface ScrapedValue {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

/** What prom-client's Registry reads from a registered metric (its typings name the classes only). */
interface ScrapedMetric {
  name: string;
  help: string;
  type: 'histogram';
  aggregator: 'sum';
  reset(): void;
  get(): Promise<{ name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: ScrapedValue[] }>;
}
