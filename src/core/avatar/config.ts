// Avatar service settings: the defaults and the whole-configuration check. The command line reads
// flags and environment variables (src/cli/serve-avatar.ts); every setting is in docs/avatar-service.md.
import { availableParallelism } from 'node:os';
import {
  BadValueError,
  milliseconds,
  parseSetting,
  port,
  redisUrl,
  url,
  wholeNumber,
  type Parser,
} from '../../settings/values.js';
import { DEFAULT_DECODE_BUDGET_BYTES } from '../../imaging/decode-budget.js';
import { DEFAULT_HOST, ownAddresses } from '../../http/http-server.js';
import { type LogLevel } from '../../http/request-log.js';
import { DEFAULT_USER_TIMEOUT_MS } from './user-lookup.js';
import { DEFAULT_DATABASE_POOL, DEFAULT_DATABASE_TIMEOUT_MS, parseDatabaseUrl } from '../../database/index.js';

export interface AvatarServiceConfig {
  host: string;
  port: number;
  /** Hotel assets (Nitro or Flash layout); undefined = the built-in sample kit. */
  assetsDir?: string;
  fallbackUrl: string;
  userApiBase: string;
  userLookupTimeoutMs: number;
  /** How long a name's figure is kept; the `?user=` image's Cache-Control never promises longer. */
  userCacheTtlMs: number;
  userNegativeTtlMs: number;
  memoryCacheBytes: number;
  diskCacheDir?: string;
  diskCacheBytes: number;
  /**
   * Bytes of decoded figure libraries kept by all render workers together: each worker gets an equal
   * share, so adding workers does not multiply the service's memory.
   */
  libraryCacheBytes: number;
  /**
   * The decode budget for the hotel's asset files (src/util/decode-budget.ts), set for the service and its render
   * workers.
   */
  decodeBudgetBytes: number;
  /** Follow symbolic links that lead out of the assets folder (src/hotel/files.ts). */
  followSymlinks: boolean;
  workers: number;
  maxQueue: number;
  maxQueueWaitMs: number;
  renderTimeoutMs: number;
  clientRatePerSecond: number;
  clientBurst: number;
  budgetRenders: number;
  budgetWindowMs: number;
  failureTtlMs: number;
  trustProxy: boolean;
  logLevel: LogLevel;
  /** redis://[user:pass@]host:port/db shared by every instance (L2 cache, render locks); undefined = none. */
  redisUrl?: string;
  /** How long a rendered image stays in Redis (Redis' own eviction bounds the bytes). */
  redisImageTtlMs: number;
  /** Longest wait for one Redis command before the instance goes on without it. */
  redisTimeoutMs: number;
  /** Life of a render lock: the longest another instance waits for this one's render. */
  redisLockMs: number;
  /** Group badge parts kept outside the asset folder (group_badge.nitro and/or badgepart_* images). */
  badgePartsDir?: string;
  /** The guilds_elements export (CSV or JSON); default gamedata/guilds_elements.csv in the asset folder. */
  badgeElementsFile?: string;
  /**
   * The hotel's stored room thumbnails (`<room id>.png`) for the thumbnail route (server/room/); undefined =
   * always rendered.
   */
  roomThumbnailsDir?: string;
  /** How long a room's rows are trusted before they are read again (ms, at most 30 s). */
  roomRereadMs: number;
  /** Room renders at once on the main thread. */
  roomRenderJobs: number;
  /** Most items read and drawn per room. */
  roomMaxItems: number;
  /**
   * The Shockwave-era figure list pre-v18 numeric figures convert through; default
   * gamedata/figuredata_oldschool.xml in the asset folder.
   */
  legacyFigureFile?: string;
  /**
   * The hotel's database (mysql://user:password@host:port/db, docs/database.md): `?user=` names and group badge
   * elements are read from it (the user API is not asked); undefined = none.
   */
  databaseUrl?: string;
  /** An operator's query overrides (`-- name: <query>` blocks), checked at start. */
  databaseQueriesFile?: string;
  /** Connections to the database at most. */
  databasePool: number;
  /** Longest wait for one query, the wait for a connection included. */
  databaseTimeoutMs: number;
  /**
   * How often the asset folder is looked at for a changed hotel (a change is loaded once two looks in a
   * row agree); 0 = never (SIGHUP still reloads).
   */
  checkIntervalMs: number;
}

const MiB = 1024 * 1024;

/** A name's figure from the user API is kept about an hour (the spec's mapping cache). */
export const DEFAULT_USER_CACHE_MS = 60 * 60 * 1000;
/** From the hotel's own database: a look a player changes shows within a minute. */
export const DEFAULT_DATABASE_USER_CACHE_MS = 60 * 1000;

export function defaultAvatarConfig(): AvatarServiceConfig {
  return {
    host: DEFAULT_HOST,
    port: 8081,
    fallbackUrl: 'https://www.habbo.com/habbo-imaging/avatarimage',
    userApiBase: 'https://www.habbo.com',
    userLookupTimeoutMs: DEFAULT_USER_TIMEOUT_MS,
    userCacheTtlMs: DEFAULT_USER_CACHE_MS,
    userNegativeTtlMs: 60 * 1000,
    memoryCacheBytes: 256 * MiB,
    diskCacheBytes: 2048 * MiB,
    // With the 256 MiB image cache and ~50 MB per worker thread this keeps a 2-core instance near
    // 0.6 GB at worst (see docs/avatar-service.md, "Memory").
    libraryCacheBytes: 256 * MiB,
    decodeBudgetBytes: DEFAULT_DECODE_BUDGET_BYTES,
    followSymlinks: false,
    workers: availableParallelism(),
    maxQueue: 1024,
    maxQueueWaitMs: 10_000,
    renderTimeoutMs: 20_000,
    clientRatePerSecond: 200,
    clientBurst: 2000,
    budgetRenders: 0,
    budgetWindowMs: 60_000,
    failureTtlMs: 60_000,
    trustProxy: false,
    logLevel: 'info',
    redisImageTtlMs: 7 * 24 * 60 * 60 * 1000,
    redisTimeoutMs: 75,
    redisLockMs: 5000,
    roomRereadMs: 10_000,
    // Measured in docs/rooms.md ("Where renders run"): two keep a 2-core machine's answers flowing.
    roomRenderJobs: 2,
    roomMaxItems: 5000,
    databasePool: DEFAULT_DATABASE_POOL,
    databaseTimeoutMs: DEFAULT_DATABASE_TIMEOUT_MS,
    // As the furni service looks at its corpus.
    checkIntervalMs: 2000,
  };
}

/** 0 (no polling) or at least 100 ms: each look stats every library file, too much to do continuously. */
export const checkInterval: Parser<number> = (text) => {
  const expected = '0 (no polling) or a whole number of milliseconds ≥ 100';
  let n: number;
  try {
    n = milliseconds()(text);
  } catch {
    throw new BadValueError(expected);
  }
  if (n > 0 && n < 100) throw new BadValueError(expected);
  return n;
};

/**
 * A fallback URL on this machine at the service's own port names the service itself: every render that
 * fails would redirect to a URL that fails again, until the browser gives up. Refused at start.
 */
function refuseSelfFallback(cfg: AvatarServiceConfig): void {
  const u = new URL(cfg.fallbackUrl);
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  if (cfg.port === 0 || port !== cfg.port) return;
  const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const own = ownAddresses();
  own.add(cfg.host.toLowerCase());
  if (!own.has(host) && !/^127\./.test(host) && !host.endsWith('.localhost')) return;
  throw new Error(
    `--fallback-url (HOTEL_IMAGER_FALLBACK_URL) ${cfg.fallbackUrl} points at this service itself (${host}, ` +
      `port ${port}): ` +
      'every render that fails would redirect back here and fail again. Point it at another imager: the classic ' +
      `one (${defaultAvatarConfig().fallbackUrl}, the default) or the hotel's own`,
  );
}

/**
 * Checks a whole configuration (the command line checks each value as it reads it; this also covers
 * configurations built in code). Bad values use the one sentence shape of settings/values.ts, named by
 * the configuration key.
 */
export function validateAvatarConfig(cfg: AvatarServiceConfig): AvatarServiceConfig {
  parseSetting('port', String(cfg.port), port);
  parseSetting('workers', String(cfg.workers), wholeNumber({ min: 1 }));
  if (cfg.libraryCacheBytes < cfg.workers * MiB) {
    throw new Error(
      `the library cache (${cfg.libraryCacheBytes} bytes) needs at least 1 MiB per render worker (${cfg.workers} ` +
        `workers)`,
    );
  }
  parseSetting(
    'fallbackUrl',
    cfg.fallbackUrl,
    url(['http:', 'https:'], 'https://www.habbo.com/habbo-imaging/avatarimage'),
  );
  parseSetting('userApiBase', cfg.userApiBase, url(['http:', 'https:'], 'https://www.habbo.com'));
  refuseSelfFallback(cfg);
  if (cfg.redisUrl !== undefined) parseSetting('redisUrl', cfg.redisUrl, redisUrl);
  parseSetting('redisTimeoutMs', String(cfg.redisTimeoutMs), milliseconds(1));
  parseSetting('redisLockMs', String(cfg.redisLockMs), milliseconds(10));
  parseSetting('redisImageTtlMs', String(cfg.redisImageTtlMs), milliseconds(1000));
  parseSetting('checkIntervalMs', String(cfg.checkIntervalMs), checkInterval);
  parseSetting('roomRereadMs', String(cfg.roomRereadMs), wholeNumber({ min: 0, max: 30_000 }));
  parseSetting('roomRenderJobs', String(cfg.roomRenderJobs), wholeNumber({ min: 1, max: 64 }));
  parseSetting('roomMaxItems', String(cfg.roomMaxItems), wholeNumber({ min: 1, max: 20_000 }));
  if (cfg.databaseUrl !== undefined) parseDatabaseUrl(cfg.databaseUrl);
  else if (cfg.databaseQueriesFile !== undefined)
    throw new Error('--database-queries (HOTEL_IMAGER_DATABASE_QUERIES) needs --database (HOTEL_IMAGER_DATABASE)');
  parseSetting('databasePool', String(cfg.databasePool), wholeNumber({ min: 1, max: 64 }));
  parseSetting('databaseTimeoutMs', String(cfg.databaseTimeoutMs), milliseconds(10));
  return cfg;
}
