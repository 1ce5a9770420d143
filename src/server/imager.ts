// Composition of the avatar service: the imager core (src/core/: the hotel in service and its reloads,
// the render pool, the cache tiers, the user lookup, the limits, the badges, rooms, furni on demand and the pet
// picture) behind its routes (server/avatar/, server/badge/, server/room/, server/hotel-furni/ and server/pet/,
// mounted here so none of them imports another).
import { type FastifyInstance } from 'fastify';
import { avatarFolderSignature, RENDERER_VERSION, scanAvatarHotel } from '../avatar/index.js';
import { readBuildInfo, readPackageVersion } from '../http/build-info.js';
import { type RawRouteContext } from '../http/respond.js';
import { openBadges, type Badges } from '../core/badge/index.js';
import { healthBody, type HealthCheck, type HealthIdentity } from '../http/health.js';
import { checkPortFree, localUrl } from '../http/http-server.js';
import { stdoutLineStream } from '../http/log-stream.js';
import { setDecodeBudget } from '../imaging/decode-budget.js';
import { setFollowOutsideLinks } from '../hotel/files.js';
import { AvatarService, type AvatarRenderer } from '../core/avatar/avatar-service.js';
import { type AvatarServiceConfig } from '../core/avatar/config.js';
import { HotelReloader, logLibraryProblems, ServedHotel, type ReloadResult } from '../core/avatar/hotel-reload.js';
import { HotUrls } from '../core/cache/hot-urls.js';
import { ImageCache } from '../core/cache/image-cache.js';
import { ClientRateLimiter, RenderBudget } from '../http/limits.js';
import { createAvatarMetrics, type AvatarMetrics, type HotelState } from './avatar/metrics.js';
import { RedisSharedStore } from '../core/cache/redis-store.js';
import { RenderPool } from '../core/render/render-pool.js';
import { buildAvatarApp } from './avatar/routes.js';
import { createBadgeHandler } from './badge/badge-handler.js';
import { createConvertHandler } from './avatar/convert-handler.js';
import { LegacyFigures } from '../core/avatar/legacy-figures.js';
import { openRooms, type Rooms } from '../core/room/index.js';
import { openHotelFurni, type HotelFurni } from '../core/hotel-furni/index.js';
import { createFurniHandler } from './hotel-furni/furni-handler.js';
import { openPets, type Pets } from '../core/pet/index.js';
import { createPetHandler } from './pet/pet-handler.js';
import { type FurniBundles, openFurniBundles } from '../furni/bundles.js';
import { roomAssetsSource } from '../room/index.js';
import { createRoomHandler } from './room/room-handler.js';
import { SharedAvatarCache } from '../core/cache/shared-cache.js';
import { type SharedStore } from '../core/cache/shared-store.js';
import { DEFAULT_USER_LOOKUP, UserLookup } from '../core/avatar/user-lookup.js';
import { databaseUserSource } from '../core/avatar/user-database.js';
import { openHotelDatabase } from '../core/database.js';
import { type HotelDatabase } from '../database/index.js';
import { userCacheControl } from '../core/avatar/avatar-service.js';

/** The avatar service's name in /healthz, /version and the logs. */
export const AVATAR_SERVICE_NAME = 'hotel-imager-avatar';

export interface AvatarServiceInstance {
  app: FastifyInstance;
  service: AvatarService;
  pool: RenderPool;
  cache: ImageCache;
  /** The hotel in service and its reloads: `hotels.stats()` has the generation, reload failures and last error. */
  hotels: HotelReloader;
  /** Group badges (/habbo-imaging/badge): their service, health and reload. */
  badges: Badges;
  /** Pre-v18 numeric figures: the data they convert through, and its reload. */
  legacyFigures: LegacyFigures;
  /** Rooms (/habbo-imaging/room, /thumbnail, /render/room) when the hotel has them. */
  rooms?: Rooms;
  /** Furni on demand (/habbo-imaging/furni, /habbo-imaging/furniture) from the hotel's bundles. */
  furni: HotelFurni;
  /** The pet picture (/habbo-imaging/pet.png) from the hotel's pet libraries; off (404) without bundled/pet/. */
  pets: Pets;
  /** The hotel's database when `databaseUrl` is set. */
  database?: HotelDatabase;
  config: AvatarServiceConfig & { assetsDir: string };
  /** Reads the assets folder now and swaps the new hotel in when it changed and loads (what SIGHUP does). */
  reload(): Promise<ReloadResult>;
  /** The hotel in service as /metrics reports it (read from `hotels` at each call). */
  readonly hotelState: HotelState;
  metrics: AvatarMetrics;
  /** Stops the HTTP server (if listening), the folder polling and the render workers. */
  close(): Promise<void>;
}

/**
 * The URL shortcut to the memory cache gets an eighth of the image cache's budget (at least 1 MiB): at
 * typical URL lengths that is a key for about as many URLs as the cache holds images.
 */
export function hotUrlBytes(memoryCacheBytes: number): number {
  return Math.max(1024 * 1024, Math.floor(memoryCacheBytes / 8));
}

export interface OpenAvatarServiceOptions {
  /** Log destination (JSON lines); stdout through the process's buffered line writer when absent. */
  logStream?: { write(line: string): unknown };
  /** Wraps the pool-backed renderer (tests use this to force failures the real renderer cannot produce). */
  wrapRenderer?: (renderer: AvatarRenderer) => AvatarRenderer;
  /**
   * A shared store to use instead of the one `redisUrl` names (several in-process services share one); not closed with
   * the service.
   */
  sharedStore?: SharedStore;
}

/** Loads the assets, starts the workers and builds the app; does not listen. */
export async function openAvatarService(
  config: AvatarServiceConfig & { assetsDir: string },
  opts: OpenAvatarServiceOptions = {},
): Promise<AvatarServiceInstance> {
  const startedAt = Date.now();
  setDecodeBudget(config.decodeBudgetBytes);
  setFollowOutsideLinks(config.followSymlinks);
  // The folder is read once, here; every render worker builds its hotel from this reading.
  const signature = await avatarFolderSignature(config.assetsDir);
  const snapshot = await scanAvatarHotel(config.assetsDir);
  const cache = new ImageCache({
    memoryBytes: config.memoryCacheBytes,
    diskDir: config.diskCacheDir,
    diskBytes: config.diskCacheBytes,
  });
  await cache.open();
  // Made once the parts it reads exist (below); no render finishes before the app does.
  let metrics: AvatarMetrics | undefined;
  const pool = await RenderPool.start({
    hotel: { generation: 1, snapshot },
    libraryCacheBytes: config.libraryCacheBytes,
    workers: config.workers,
    maxQueue: config.maxQueue,
    maxQueueWaitMs: config.maxQueueWaitMs,
    renderTimeoutMs: config.renderTimeoutMs,
    onRendered: (seconds) => metrics?.rendered(seconds),
  });
  const first = new ServedHotel(1, snapshot);
  // Late-bound: the reloader logs through the app, and tells the service and the URL map of a swap.
  let onSwap: (served: ServedHotel) => void = () => undefined;
  let app: FastifyInstance | undefined;
  // Lines said before the app (and its logger) exists are kept and said once it does.
  const early: [level: 'info' | 'warn' | 'error', msg: string, fields: Record<string, unknown>][] = [];
  const log = (level: 'info' | 'warn' | 'error', msg: string, fields: Record<string, unknown>) => {
    if (app) app.log[level](fields, msg);
    else early.push([level, msg, fields]);
  };
  const hotels = new HotelReloader({
    assetsDir: config.assetsDir,
    pool,
    first,
    firstSignature: signature,
    intervalMs: config.checkIntervalMs,
    log,
    onSwap: (served) => onSwap(served),
  });
  let renderer: AvatarRenderer = {
    hotel: () => hotels.current(),
    render: (req, hotel) => pool.render(req, hotel.generation),
    renderDebug: (req, hotel) => pool.renderDebug(req, hotel.generation),
    newerHotel: (generation, ms) => hotels.newerThan(generation, ms),
  };
  if (opts.wrapRenderer) renderer = opts.wrapRenderer(renderer);
  // Redis (or a given store) behind the memory and disk caches: images, names, failures, render locks.
  const ownStore =
    opts.sharedStore === undefined && config.redisUrl !== undefined
      ? new RedisSharedStore({ url: config.redisUrl, commandTimeoutMs: config.redisTimeoutMs, log })
      : undefined;
  const store = opts.sharedStore ?? ownStore;
  const shared =
    store && new SharedAvatarCache(store, { imageTtlMs: config.redisImageTtlMs, lockMs: config.redisLockMs });
  // The hotel's database, when configured: opened (and an operator's queries checked) before anything
  // that answers requests; a database that is away is logged and does not stop the start.
  let database: HotelDatabase | undefined;
  if (config.databaseUrl !== undefined) {
    try {
      database = await openHotelDatabase(config, log);
    } catch (err) {
      await pool.close();
      await ownStore?.close();
      throw err;
    }
  }
  const users = new UserLookup(
    {
      apiBase: config.userApiBase,
      ...(database ? { source: databaseUserSource(database) } : {}),
      timeoutMs: config.userLookupTimeoutMs,
      ttlMs: config.userCacheTtlMs,
      negativeTtlMs: config.userNegativeTtlMs,
      // A database back from an outage is asked again within a second or two.
      errorTtlMs: Math.min(config.userNegativeTtlMs, database ? 2000 : 10_000),
      maxBytes: DEFAULT_USER_LOOKUP.maxBytes,
    },
    shared,
  );
  let badges: Badges;
  try {
    badges = await openBadges(config, { cache, shared, log, database });
  } catch (err) {
    await pool.close();
    await ownStore?.close();
    await database?.close();
    throw err;
  }
  const legacyFigures = new LegacyFigures(config.assetsDir, config.legacyFigureFile);
  await legacyFigures.reload();
  // Rooms when there is somewhere to read them from (the database, or the kit's room files) and the hotel has a
  // room visualization; otherwise the service runs without them and /healthz says why.
  let rooms: Rooms | undefined;
  let roomsOff = '';
  // Avatars and furni on demand draw against the same per-client rate and instance budget.
  const budget = new RenderBudget({ renders: config.budgetRenders, windowMs: config.budgetWindowMs });
  const clientRate = new ClientRateLimiter({ perSecond: config.clientRatePerSecond, burst: config.clientBurst });
  // The furni bundle folder: rooms draw from its loader on this thread; furni on demand takes its signature and
  // sends the drawing to the render workers, which read the bundles into caches of their own.
  let bundles: FurniBundles | undefined;
  const currentBundles = async () => (bundles = await openFurniBundles(config.assetsDir, bundles));
  let furni: HotelFurni;
  let pets: Pets;
  try {
    furni = await openHotelFurni(config.assetsDir, currentBundles, {
      cache,
      shared,
      log,
      limit: (client) => clientRate.take(client) && budget.take(),
      render: (work) => pool.renderFurni(work),
    });
    const opened = await openRooms(config, {
      cache,
      shared,
      database,
      bundles: currentBundles,
      // Its digests name the bots' figures; the workers draw them with their hotel of the generation in service.
      avatarHotel: () => hotels.current().hotel,
      render: (room, assets, options) => pool.renderRoom({ room, ...roomAssetsSource(assets), options }),
      log,
    });
    if (opened.ok) rooms = opened.rooms;
    else roomsOff = opened.reason;
    pets = await openPets(config.assetsDir, {
      cache,
      shared,
      log,
      limit: (client) => clientRate.take(client) && budget.take(),
      render: (work) => pool.renderPet(work),
      ...(database ? { database } : {}),
    });
  } catch (err) {
    await pool.close();
    await ownStore?.close();
    badges.close();
    await database?.close();
    throw err;
  }
  const hot = new HotUrls(hotUrlBytes(config.memoryCacheBytes), first.generation);
  const service = new AvatarService({
    renderer,
    cache,
    users,
    userCacheControl: userCacheControl(config.userCacheTtlMs),
    clientRate,
    budget,
    fallbackUrl: config.fallbackUrl,
    failureTtlMs: config.failureTtlMs,
    // As long as a request may wait for a render worker.
    changedWaitMs: config.maxQueueWaitMs,
    shared,
    log,
  });
  onSwap = (served) => {
    hot.reset(served.generation);
    service.hotelSwapped();
    // Bots are drawn with the avatar hotel: its identity is part of the room assets'.
    void rooms?.reload();
  };
  const hotelState = (): HotelState => {
    const h = hotels.stats();
    return { generation: h.generation, loadedAtMs: Date.parse(h.loadedAt), reloadFailures: h.reload.reloadFailures };
  };
  const build = readBuildInfo();
  const version = readPackageVersion();
  metrics = createAvatarMetrics({
    snapshot: () => ({
      renders: service.stats(),
      pool: pool.stats(),
      cache: cache.stats(),
      users: users.stats(),
      redis: shared ? shared.stats() : null,
      hotel: hotelState(),
      rooms: rooms ? rooms.service.stats() : null,
      furni: furni.service.stats(),
      pets: pets.service.stats(),
      database: database ? { health: database.health(), queries: database.queryStats() } : null,
    }),
    version,
    commit: build.commit,
    renderer: RENDERER_VERSION,
  });
  database?.onQuery((o) => metrics?.queried(o));
  const identity: HealthIdentity = { service: AVATAR_SERVICE_NAME, version, build, startedAtMs: startedAt };
  const health = () => {
    const poolStats = pool.stats();
    const workers: HealthCheck = { ok: poolStats.ready > 0, ready: poolStats.ready, workers: poolStats.workers };
    if (!workers.ok) workers.error = `no render worker is ready (0 of ${poolStats.workers})`;
    return healthBody(
      identity,
      { workers },
      {
        buildInfoSource: build.source,
        rendererVersion: RENDERER_VERSION,
        // generation and reload.reloadFailures / lastError: what a reload did (hotel-reload.ts).
        assets: { dir: config.assetsDir, loaded: true, ...hotels.stats(), workersReady: poolStats.ready },
        cache: { ...cache.stats(), hotUrls: hot.stats() },
        renders: service.stats(),
        pool: poolStats,
        users: users.stats(),
        // Redis down is not unhealthy: the instance answers from memory and renders locally meanwhile.
        redis: shared ? shared.stats() : null,
        badges: badges.health(),
        legacyFigures: legacyFigures.health(),
        rooms: rooms ? rooms.health() : { enabled: false, reason: roomsOff },
        furni: furni.health(),
        pets: pets.health(),
        // A database away is not unhealthy: ?figure= images are untouched, ?user= falls back meanwhile.
        database: database ? { ...database.health(), queries: database.queryStats() } : null,
        limits: {
          clientRatePerSecond: config.clientRatePerSecond,
          clientBurst: config.clientBurst,
          clients: clientRate.stats(),
          budget: budget.stats(),
        },
      },
    );
  };
  const ownStream = opts.logStream ? undefined : stdoutLineStream();
  app = buildAvatarApp({
    service,
    hot,
    health,
    logLevel: config.logLevel,
    logStream: opts.logStream ?? ownStream!,
    trustProxy: config.trustProxy,
    metrics,
    rawRoutes: [
      (ctx) => createBadgeHandler({ service: badges.service, ...ctx }),
      (ctx) => createConvertHandler({ legacy: legacyFigures, ...ctx }),
      ...(rooms ? [(ctx: RawRouteContext) => createRoomHandler({ service: rooms.service, ...ctx })] : []),
      (ctx) => createFurniHandler({ service: furni.service, ...ctx }),
      (ctx) => createPetHandler({ service: pets.service, ...ctx }),
    ],
    rewriteQuery: (query) => legacyFigures.rewrite(query),
  });
  for (const [level, msg, fields] of early.splice(0)) app.log[level](fields, msg);
  badges.announce();
  if (rooms) rooms.announce();
  else log('info', 'rooms are off', { reason: roomsOff });
  pets.announce();
  const built = app;
  logLibraryProblems(first, log);
  // Badge data is watched with the hotel and reloaded with it (its files, and where they would appear).
  hotels.addCompanion({ name: 'badges', paths: () => badges.watchPaths(), reload: () => badges.reload() });
  hotels.addCompanion({
    name: 'legacy-figures',
    paths: () => legacyFigures.watchPaths(),
    reload: () => legacyFigures.reload(),
  });
  hotels.addCompanion({ name: 'furni', paths: () => furni.watchPaths(), reload: () => furni.reload() });
  hotels.addCompanion({ name: 'pets', paths: () => pets.watchPaths(), reload: () => pets.reload() });
  if (rooms) hotels.addCompanion({ name: 'rooms', paths: () => rooms.watchPaths(), reload: () => rooms.reload() });
  // The database's table is asked whether it changed as often as the folder is looked at (2 s by default).
  badges.watchDatabase(config.checkIntervalMs || 2000);
  await hotels.start();
  return {
    app: built,
    service,
    pool,
    cache,
    hotels,
    badges,
    legacyFigures,
    rooms,
    furni,
    pets,
    ...(database ? { database } : {}),
    config,
    reload: () => hotels.reload('signal'),
    get hotelState() {
      return hotelState();
    },
    metrics,
    close: async () => {
      hotels.close();
      badges.close();
      await built.close();
      await pool.close();
      await cache.flush();
      await shared?.flush();
      await ownStore?.close();
      await database?.close();
      ownStream?.flushSync();
    },
  };
}

/** Opens the service and listens on the configured host and port; resolves to the base URL. */
export async function startAvatarService(
  config: AvatarServiceConfig & { assetsDir: string },
  opts: OpenAvatarServiceOptions = {},
): Promise<AvatarServiceInstance & { url: string }> {
  // A port in use is said before the hotel loads (seconds to minutes for a large one), not after.
  await checkPortFree(config.host, config.port);
  const instance = await openAvatarService(config, opts);
  try {
    await instance.app.listen({ host: config.host, port: config.port });
  } catch (err) {
    await instance.close();
    throw err;
  }
  const addr = instance.app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  // The instance itself (a spread would freeze `hotelState` at its value now).
  return Object.assign(instance, { url: localUrl(config.host, port) });
}
