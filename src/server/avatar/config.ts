// Avatar service settings: defaults, then environment variables, then command-line flags.
// Every setting is documented in docs/avatar-service.md.
import { availableParallelism } from 'node:os';
import { parseLogLevel, type LogLevel } from '../request-log.js';
import { DEFAULT_USER_TIMEOUT_MS } from './user-lookup.js';

export interface AvatarServiceConfig {
  host: string;
  port: number;
  /** Hotel assets (Nitro or Flash layout); undefined = the built-in sample kit. */
  assetsDir?: string;
  fallbackUrl: string;
  userApiBase: string;
  userLookupTimeoutMs: number;
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
  /**
   * How often the asset folder is looked at for a changed hotel (a change is loaded once two looks in a
   * row agree); 0 = never (SIGHUP still reloads).
   */
  reloadIntervalMs: number;
}

const MiB = 1024 * 1024;

export function defaultAvatarConfig(): AvatarServiceConfig {
  return {
    host: '0.0.0.0',
    port: 8081,
    fallbackUrl: 'https://www.habbo.com/habbo-imaging/avatarimage',
    userApiBase: 'https://www.habbo.com',
    userLookupTimeoutMs: DEFAULT_USER_TIMEOUT_MS,
    userCacheTtlMs: 60 * 60 * 1000,
    userNegativeTtlMs: 60 * 1000,
    memoryCacheBytes: 256 * MiB,
    diskCacheBytes: 2048 * MiB,
    // With the 256 MiB image cache and ~50 MB per worker thread this keeps a 2-core instance near
    // 0.6 GB at worst (see docs/avatar-service.md, "Memory").
    libraryCacheBytes: 256 * MiB,
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
    // As the furni service looks at its corpus.
    reloadIntervalMs: 2000,
  };
}

/** Environment variable → setting. Sizes are in MiB, times in ms unless the name says otherwise. */
export const AVATAR_ENV: Record<string, { key: keyof AvatarServiceConfig; kind: 'int' | 'mib' | 'string' | 'bool' | 'level' }> = {
  HOTEL_IMAGER_AVATAR_HOST: { key: 'host', kind: 'string' },
  HOTEL_IMAGER_AVATAR_PORT: { key: 'port', kind: 'int' },
  HOTEL_IMAGER_AVATAR_ASSETS: { key: 'assetsDir', kind: 'string' },
  HOTEL_IMAGER_FALLBACK_URL: { key: 'fallbackUrl', kind: 'string' },
  HOTEL_IMAGER_USER_API: { key: 'userApiBase', kind: 'string' },
  HOTEL_IMAGER_USER_TIMEOUT_MS: { key: 'userLookupTimeoutMs', kind: 'int' },
  HOTEL_IMAGER_USER_CACHE_MS: { key: 'userCacheTtlMs', kind: 'int' },
  HOTEL_IMAGER_USER_NEGATIVE_CACHE_MS: { key: 'userNegativeTtlMs', kind: 'int' },
  HOTEL_IMAGER_AVATAR_CACHE_MB: { key: 'memoryCacheBytes', kind: 'mib' },
  HOTEL_IMAGER_AVATAR_CACHE_DIR: { key: 'diskCacheDir', kind: 'string' },
  HOTEL_IMAGER_AVATAR_DISK_CACHE_MB: { key: 'diskCacheBytes', kind: 'mib' },
  HOTEL_IMAGER_AVATAR_LIBRARY_CACHE_MB: { key: 'libraryCacheBytes', kind: 'mib' },
  HOTEL_IMAGER_RENDER_WORKERS: { key: 'workers', kind: 'int' },
  HOTEL_IMAGER_RENDER_QUEUE: { key: 'maxQueue', kind: 'int' },
  HOTEL_IMAGER_RENDER_QUEUE_WAIT_MS: { key: 'maxQueueWaitMs', kind: 'int' },
  HOTEL_IMAGER_RENDER_TIMEOUT_MS: { key: 'renderTimeoutMs', kind: 'int' },
  HOTEL_IMAGER_CLIENT_RATE: { key: 'clientRatePerSecond', kind: 'int' },
  HOTEL_IMAGER_CLIENT_BURST: { key: 'clientBurst', kind: 'int' },
  HOTEL_IMAGER_RENDER_BUDGET: { key: 'budgetRenders', kind: 'int' },
  HOTEL_IMAGER_RENDER_BUDGET_WINDOW_MS: { key: 'budgetWindowMs', kind: 'int' },
  HOTEL_IMAGER_FAILURE_CACHE_MS: { key: 'failureTtlMs', kind: 'int' },
  HOTEL_IMAGER_TRUST_PROXY: { key: 'trustProxy', kind: 'bool' },
  HOTEL_IMAGER_LOG_LEVEL: { key: 'logLevel', kind: 'level' },
  HOTEL_IMAGER_REDIS: { key: 'redisUrl', kind: 'string' },
  HOTEL_IMAGER_REDIS_TTL_MS: { key: 'redisImageTtlMs', kind: 'int' },
  HOTEL_IMAGER_REDIS_TIMEOUT_MS: { key: 'redisTimeoutMs', kind: 'int' },
  HOTEL_IMAGER_REDIS_LOCK_MS: { key: 'redisLockMs', kind: 'int' },
  HOTEL_IMAGER_AVATAR_RELOAD_INTERVAL_MS: { key: 'reloadIntervalMs', kind: 'int' },
};

export function parseNonNegativeInt(text: string, what: string): number {
  if (!/^\d+$/.test(text.trim())) throw new Error(`${what} must be a whole number ≥ 0, got "${text}"`);
  return Number(text.trim());
}

function parseBool(text: string, what: string): boolean {
  const v = text.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
  throw new Error(`${what} must be true or false, got "${text}"`);
}

/** Applies one textual setting (from the environment or a flag) to the config. */
export function applySetting(cfg: AvatarServiceConfig, key: keyof AvatarServiceConfig, kind: string, text: string, what: string): void {
  const rec = cfg as unknown as Record<string, unknown>;
  switch (kind) {
    case 'int':
      rec[key] = parseNonNegativeInt(text, what);
      break;
    case 'mib':
      rec[key] = parseNonNegativeInt(text, what) * MiB;
      break;
    case 'bool':
      rec[key] = parseBool(text, what);
      break;
    case 'level':
      rec[key] = parseLogLevel(text);
      break;
    default:
      rec[key] = text;
  }
}

export function avatarConfigFromEnv(env: NodeJS.ProcessEnv, base: AvatarServiceConfig = defaultAvatarConfig()): AvatarServiceConfig {
  const cfg = { ...base };
  for (const [name, { key, kind }] of Object.entries(AVATAR_ENV)) {
    const value = env[name];
    if (value !== undefined && value !== '') applySetting(cfg, key, kind, value, name);
  }
  return validateAvatarConfig(cfg);
}

export function validateAvatarConfig(cfg: AvatarServiceConfig): AvatarServiceConfig {
  if (cfg.port > 65535) throw new Error(`port ${cfg.port} is out of range`);
  if (cfg.workers < 1) throw new Error('at least one render worker is needed');
  if (cfg.libraryCacheBytes < cfg.workers * MiB) throw new Error(`the library cache needs at least 1 MiB per render worker (${cfg.workers} workers)`);
  for (const [what, url] of [['fallback URL', cfg.fallbackUrl], ['user API base', cfg.userApiBase]] as const) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`the ${what} "${url}" is not an absolute URL`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`the ${what} must be http or https`);
  }
  if (cfg.redisUrl !== undefined) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(cfg.redisUrl);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') || parsed.hostname === '') {
      throw new Error(`the Redis address must look like redis://HOST:PORT/DB, got "${cfg.redisUrl}"`);
    }
    if (!/^\/?\d*$/.test(parsed.pathname)) throw new Error(`the Redis database in "${cfg.redisUrl}" must be a number`);
  }
  if (cfg.redisTimeoutMs < 1) throw new Error('the Redis command timeout must be at least 1 ms');
  if (cfg.redisLockMs < 10) throw new Error('the Redis render lock must last at least 10 ms');
  if (cfg.redisImageTtlMs < 1000) throw new Error('the Redis image TTL must be at least 1000 ms');
  // Each look stats every library file: a few ms for a real hotel, too much to do continuously.
  if (cfg.reloadIntervalMs > 0 && cfg.reloadIntervalMs < 100) throw new Error('the reload interval must be 0 (no polling) or at least 100 ms');
  return cfg;
}
