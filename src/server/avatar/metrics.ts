// The avatar service's /metrics: requests and latency by route and the cache tier of each image
// (recorded on the request paths, see ../metrics.ts), render times (reported by the pool), and the
// rest read from one snapshot of the service's stats per scrape: fallbacks, renders, the render queue,
// the caches, user lookups, Redis and the hotel in service. Names and meanings: docs/operations.md.
import client from 'prom-client';
import { HttpMetrics, METRIC_PREFIX, serviceRegistry, type ServiceRegistry } from '../../http/metrics.js';
import { type ImageSource } from '../../core/cache/image-cache.js';
import { FALLBACK_REASONS, type FallbackReason } from '../../core/avatar/fallback.js';
import { type ImageCacheStats } from '../../core/cache/image-cache.js';
import { type RenderPoolStats } from '../../core/render/render-pool.js';
import { type SharedCacheStats } from '../../core/cache/shared-cache.js';
import { type SharedStoreStatus } from '../../core/cache/shared-store.js';
import { type DatabaseHealth, type QueryObservation, type QueryStats } from '../../database/index.js';
import { type UserLookupStats } from '../../core/avatar/user-lookup.js';

/**
 * The `route` label values; the last is everything else (unknown paths, CONNECT). The classic imager's
 * paths count under their name without the extension (`/habbo-imaging/avatarimage` covers `.png` and
 * `.gif` too).
 */
export const AVATAR_ROUTES = [
  '/avatar.png',
  '/avatar',
  '/habbo-imaging/avatarimage',
  '/habbo-imaging/head',
  '/habbo-imaging/avatar',
  '/habbo-imaging/badge',
  '/habbo-imaging/badge-fill',
  '/habbo-imaging/effect',
  '/habbo-imaging/handitem',
  '/render',
  '/render/badge',
  '/habbo-imaging/room',
  '/render/room',
  '/thumbnail',
  '/habbo-imaging/furni',
  '/habbo-imaging/furniture',
  '/habbo-imaging/pet.png',
  '/healthz',
  '/version',
  '/metrics',
  'other',
] as const;
const OTHER = AVATAR_ROUTES.length - 1;
const ROUTE_OF_PATH = new Map<string, number>(AVATAR_ROUTES.slice(0, OTHER).map((r, i) => [r, i]));
for (const ext of ['.png', '.gif']) {
  ROUTE_OF_PATH.set(`/habbo-imaging/avatarimage${ext}`, 2);
  ROUTE_OF_PATH.set(`/habbo-imaging/head${ext}`, 3);
}

/** The cache tiers an image can come from (the `x-imager-cache` header, the request line's `cache`). */
export const AVATAR_TIERS: readonly ImageSource[] = ['memory', 'disk', 'redis', 'render'];

const COMMA_AVATAR = AVATAR_ROUTES.indexOf('/habbo-imaging/avatar');
const BADGE = AVATAR_ROUTES.indexOf('/habbo-imaging/badge');
const BADGE_FILL = AVATAR_ROUTES.indexOf('/habbo-imaging/badge-fill');
const RENDER_BADGE = AVATAR_ROUTES.indexOf('/render/badge');
const ROOM_FOLDERS = ['/habbo-imaging/room', '/render/room', '/thumbnail'] as const;
const PART_FOLDERS = ['/habbo-imaging/effect', '/habbo-imaging/handitem'] as const;

/**
 * The route index of a raw request target (a badge path counts under its folder, code and all, as does
 * the comma form's figure).
 */
export function avatarRoute(target: string): number {
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  const exact = ROUTE_OF_PATH.get(path);
  if (exact !== undefined) return exact;
  if (path.startsWith('/habbo-imaging/badge/')) return BADGE;
  if (path.startsWith('/habbo-imaging/badge-fill/')) return BADGE_FILL;
  if (path.startsWith('/habbo-imaging/avatar/')) return COMMA_AVATAR;
  // The name-in-path form (`/habbo-imaging/avatarimage/<name>.png`) counts as the classic route.
  if (path.startsWith('/habbo-imaging/avatarimage/')) return ROUTE_OF_PATH.get('/habbo-imaging/avatarimage') ?? OTHER;
  if (path.startsWith('/render/badge/')) return RENDER_BADGE;
  // Furni on demand: the path form counts under its folder, classname and all.
  if (path.startsWith('/habbo-imaging/furniture/')) return AVATAR_ROUTES.indexOf('/habbo-imaging/furniture');
  if (path === '/habbo-imaging/furni/') return AVATAR_ROUTES.indexOf('/habbo-imaging/furni');
  // Rooms, effects and hand items count under their folder, id and all.
  for (const folder of PART_FOLDERS) if (path.startsWith(`${folder}/`)) return AVATAR_ROUTES.indexOf(folder);
  for (const folder of ROOM_FOLDERS) if (path.startsWith(`${folder}/`)) return AVATAR_ROUTES.indexOf(folder);
  return OTHER;
}

/**
 * The hotel in service, as /metrics reports it. Today a service loads one hotel at start (generation 1);
 * live reload updates this: `generation` +1 and `loadedAtMs` at each swap, `reloadFailures` +1 for each
 * hotel that failed to load and was not swapped in.
 */
export interface HotelState {
  generation: number;
  loadedAtMs: number;
  reloadFailures: number;
}

/** What one scrape reads (the same parts as /healthz). */
export interface AvatarStatsSnapshot {
  renders: { inFlight: number; fallbacks: Record<FallbackReason, number> };
  pool: RenderPoolStats;
  cache: ImageCacheStats;
  users: UserLookupStats;
  redis: (SharedStoreStatus & SharedCacheStats) | null;
  hotel: HotelState;
  /** Rooms' counts (RoomService.stats; null when rooms are off). */
  rooms: Record<string, number> | null;
  /** Furni on demand's counts (HotelFurniService.stats). */
  furni: Record<string, number>;
  /** The pet picture's counts (PetService.stats). */
  pets: Record<string, number>;
  /** The hotel's database (null without --database). */
  database: { health: DatabaseHealth; queries: Record<string, QueryStats> } | null;
}

/** Query time buckets, seconds: a keyed lookup is ~1 ms, the deadline 1 s by default. */
const QUERY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** Render time buckets, seconds (a cached-library still is ~1 ms, a long effect loop at size l far more). */
const RENDER_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20];

export interface AvatarMetrics extends ServiceRegistry {
  http: HttpMetrics;
  /** For the render pool: a successful render's time in its worker. */
  rendered(seconds: number): void;
  /** For the database client: one query's time (the wait for a connection included). */
  queried(o: QueryObservation): void;
}

export function createAvatarMetrics(opts: {
  snapshot: () => AvatarStatsSnapshot;
  version: string;
  commit: string;
  renderer: string;
}): AvatarMetrics {
  // Taken at the start of each scrape, before any collect() below reads it.
  let s!: AvatarStatsSnapshot;
  const base = serviceRegistry(
    'avatar',
    { version: opts.version, commit: opts.commit, renderer: opts.renderer },
    () => {
      s = opts.snapshot();
    },
  );
  const registers = [base.registry];
  const http = new HttpMetrics(base.registry, AVATAR_ROUTES, {
    name: `${METRIC_PREFIX}avatar_cache_outcomes_total`,
    help:
      'Images answered (200 or 304: avatars and group badges, which share the caches), by the cache tier that ' +
      'had them: memory, disk, redis, or render (rendered for this request)',
    values: AVATAR_TIERS,
  });
  const gauge = (name: string, help: string, read: () => number) =>
    new client.Gauge({
      name: METRIC_PREFIX + name,
      help,
      registers,
      collect() {
        this.set(read());
      },
    });
  const counter = (name: string, help: string, read: () => number) =>
    new client.Counter({
      name: METRIC_PREFIX + name,
      help,
      registers,
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  const labelled = (
    kind: 'gauge' | 'counter',
    name: string,
    help: string,
    label: string,
    read: () => Record<string, number>,
  ) => {
    const config = { name: METRIC_PREFIX + name, help, labelNames: [label], registers };
    if (kind === 'gauge') {
      return new client.Gauge({
        ...config,
        collect() {
          for (const [value, n] of Object.entries(read())) this.set({ [label]: value }, n);
        },
      });
    }
    return new client.Counter({
      ...config,
      collect() {
        this.reset();
        for (const [value, n] of Object.entries(read())) this.inc({ [label]: value }, n);
      },
    });
  };

  labelled(
    'counter',
    'avatar_fallbacks_total',
    'Requests answered with the 302 fallback, by reason (docs/avatar-service.md, "Fallback redirect")',
    'reason',
    () => Object.fromEntries(FALLBACK_REASONS.map((r) => [r, s.renders.fallbacks[r] ?? 0])),
  );

  // Renders.
  const renderTime = new client.Histogram({
    name: `${METRIC_PREFIX}avatar_render_duration_seconds`,
    help: 'Time of a successful render in its worker thread: drawing and encoding (queue wait not included)',
    buckets: RENDER_BUCKETS,
    registers,
  });
  labelled(
    'counter',
    'avatar_renders_total',
    'Avatar renders finished by the worker threads (/render pages included; furni on demand and rooms count ' +
      'apart): result="ok"; "rejected": the figure cannot be ' +
      'drawn by this hotel (malformed, unknown set, nothing to draw); "failed": a library that does not load, a ' +
      'timeout, a crashed worker',
    'result',
    () => ({
      ok: s.pool.byKind.avatar.rendered,
      rejected: s.pool.byKind.avatar.rejected,
      failed: s.pool.byKind.avatar.failed,
    }),
  );
  gauge(
    'avatar_renders_in_flight',
    'Distinct images being rendered or waited for now (requests for the same image join one)',
    () => s.renders.inFlight,
  );
  gauge('avatar_render_queue_depth', 'Render jobs waiting for a worker', () => s.pool.queued);
  gauge('avatar_render_queue_limit', 'Render jobs allowed to wait before "busy" (--queue)', () => s.pool.maxQueue);
  labelled(
    'counter',
    'avatar_render_rejections_total',
    'Render jobs refused as busy (a "busy" fallback): reason="queue_full" on arrival, "queue_timeout" after ' +
      '--queue-wait-ms',
    'reason',
    () => ({
      queue_full: s.pool.refusedQueueFull,
      queue_timeout: s.pool.refusedQueueWait,
    }),
  );
  // Rooms (/habbo-imaging/room, /thumbnail): drawn on the main thread, rows read from the database or files.
  const room = (k: string) => s.rooms?.[k] ?? 0;
  counter('avatar_room_renders_total', 'Room pictures drawn and encoded (thumbnails included)', () => room('renders'));
  counter('avatar_room_reads_total', "Reads of a room's rows (at most one per room per --room-reread)", () =>
    room('reads'),
  );
  counter('avatar_room_read_errors_total', "Reads of a room's rows that failed or missed their deadline", () =>
    room('readErrors'),
  );
  counter('avatar_room_stale_total', 'Room answers that were the last image held (x-imager-stale)', () =>
    room('stale'),
  );
  counter('avatar_room_unavailable_total', 'Room answers 503: no data and no image held, or no render turn', () =>
    room('unavailable'),
  );
  gauge('avatar_room_renders_in_progress', 'Room renders running now (at most --room-jobs)', () => room('rendering'));
  // Furni on demand (/habbo-imaging/furni, /habbo-imaging/furniture): drawn on the main thread from the bundles.
  const furni = (k: string) => s.furni?.[k] ?? 0;
  counter('avatar_furni_renders_total', 'Furni pictures drawn (a background, zoom or crop of one is an encode)', () =>
    furni('renders'),
  );
  counter('avatar_furni_encodes_total', 'Furni answers encoded (PNG) from a drawn picture', () => furni('encodes'));
  counter(
    'avatar_furni_not_found_total',
    'Furni answers 404: no such classname or id, no bundle, nothing visible',
    () => furni('notFound'),
  );
  // The pet picture (/habbo-imaging/pet.png): drawn in the render workers from the hotel's pet libraries.
  const pet = (k: string) => s.pets?.[k] ?? 0;
  labelled(
    'counter',
    'avatar_pet_renders_total',
    'Pet pictures finished by the worker threads: result="ok"; "rejected": no library for the type, nothing to ' +
      'draw; "failed": a library that breaks the renderer, a timeout, a crashed worker',
    'result',
    () => ({ ok: s.pool.byKind.pet.rendered, rejected: s.pool.byKind.pet.rejected, failed: s.pool.byKind.pet.failed }),
  );
  counter('avatar_pet_bad_requests_total', 'Pet answers 400: no figure or id, a malformed figure or id', () =>
    pet('badRequests'),
  );
  counter(
    'avatar_pet_not_found_total',
    'Pet answers 404: no such id, a type without a library, nothing to draw, pets off',
    () => pet('notFound'),
  );
  counter('avatar_pet_unavailable_total', 'Pet answers 503: the workers busy, a timeout, the database away', () =>
    pet('unavailable'),
  );
  gauge('avatar_render_workers', 'Render worker threads ready', () => s.pool.ready);
  gauge('avatar_render_workers_busy', 'Render worker threads with a job', () => s.pool.busy);
  counter(
    'avatar_render_worker_restarts_total',
    'Render workers replaced after a crash or a render past --render-timeout-ms',
    () => s.pool.restarts,
  );

  // Memory held by the caches.
  labelled(
    'gauge',
    'avatar_library_cache_bytes',
    'Decoded library sprites held by the render workers together, kind="figure" or "effect" (as each worker last ' +
      'reported)',
    'kind',
    () => ({
      figure: s.pool.libraryBytes.figure,
      effect: s.pool.libraryBytes.effect,
    }),
  );
  gauge(
    'avatar_library_cache_limit_bytes',
    'The figure library budget of all workers together (--library-budget); effect libraries get an eighth more',
    () => s.pool.libraryBytesPerWorker * s.pool.workers,
  );
  labelled(
    'gauge',
    'avatar_image_cache_bytes',
    'Bytes held by the image caches, tier="memory" or "disk"',
    'tier',
    () => ({ memory: s.cache.memory.bytes, disk: s.cache.disk.bytes }),
  );
  labelled(
    'gauge',
    'avatar_image_cache_entries',
    'Images held by the image caches, tier="memory" or "disk"',
    'tier',
    () => ({ memory: s.cache.memory.entries, disk: s.cache.disk.entries }),
  );
  labelled(
    'gauge',
    'avatar_image_cache_limit_bytes',
    'Image cache budgets: tier="memory" --memory-budget, tier="disk" --disk-budget (0 without --cache-dir)',
    'tier',
    () => ({
      memory: s.cache.memory.maxBytes,
      disk: s.cache.disk.dir === null ? 0 : s.cache.disk.maxBytes,
    }),
  );
  counter('avatar_disk_cache_errors_total', 'Disk image cache reads or writes that failed', () => s.cache.disk.errors);

  // ?user= lookups.
  labelled(
    'counter',
    'avatar_user_lookups_total',
    'Username lookups by how they were answered: source="cache" (this instance), "redis" (another instance asked), ' +
      '"api" (the user API was asked)',
    'source',
    () => ({
      cache: s.users.hits,
      redis: s.users.sharedHits,
      api: s.users.lookups,
    }),
  );
  counter(
    'avatar_user_api_failures_total',
    'User API lookups that did not give a figure (unknown name, timeout, unreachable, bad answer)',
    () => s.users.failures,
  );

  // Redis (0 without --redis).
  gauge('avatar_redis_up', '1 when the shared Redis cache takes commands, else 0 (also 0 without --redis)', () =>
    s.redis?.available ? 1 : 0,
  );
  counter('avatar_redis_errors_total', 'Redis commands that failed or timed out', () => s.redis?.errors ?? 0);

  // The hotel in service.
  gauge(
    'avatar_hotel_generation',
    'Hotels loaded into service since start: 1 after start, +1 at each live reload swap',
    () => s.hotel.generation,
  );
  gauge(
    'avatar_hotel_loaded_timestamp_seconds',
    'When the hotel in service was loaded (Unix time)',
    () => s.hotel.loadedAtMs / 1000,
  );
  counter(
    'avatar_hotel_reload_failures_total',
    'Changed hotels that failed to load and were not swapped in (the previous one kept serving)',
    () => s.hotel.reloadFailures,
  );

  // The hotel's database (0 and empty without --database).
  gauge(
    'avatar_database_up',
    '1 when the hotel database answered its last query or ping, else 0 (also 0 without --database)',
    () => (s.database?.health.reachable ? 1 : 0),
  );
  gauge(
    'avatar_database_pool_in_use',
    'Database connections running a query now',
    () => s.database?.health.pool.inUse ?? 0,
  );
  gauge(
    'avatar_database_pool_open',
    'Database connections open (at most --database-pool)',
    () => s.database?.health.pool.open ?? 0,
  );
  gauge(
    'avatar_database_pool_waiting',
    'Queries waiting for a free database connection',
    () => s.database?.health.pool.waiting ?? 0,
  );
  const queryTime = new client.Histogram({
    name: `${METRIC_PREFIX}avatar_database_query_duration_seconds`,
    help:
      'Time of a database query by catalogue name (docs/database.md), the wait for a connection included; ' +
      'failed ones too',
    labelNames: ['query'],
    buckets: QUERY_BUCKETS,
    registers,
  });
  new client.Counter({
    name: `${METRIC_PREFIX}avatar_database_query_errors_total`,
    help:
      'Database queries that failed, by catalogue name and kind: unavailable, timeout, busy, ' +
      'query (a table or column missing), closed',
    labelNames: ['query', 'kind'],
    registers,
    collect() {
      this.reset();
      for (const [query, q] of Object.entries(s.database?.queries ?? {}))
        for (const [kind, n] of Object.entries(q.errors)) this.inc({ query, kind }, n ?? 0);
    },
  });

  return {
    ...base,
    http,
    rendered: (seconds) => renderTime.observe(seconds),
    queried: (o) => queryTime.observe({ query: o.query }, o.ms / 1000),
  };
}
