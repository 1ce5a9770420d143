// `hotel-imager serve avatar`: the /avatar.png imager service. Settings come from flags, then
// environment variables, then defaults (see docs/avatar-service.md).
import { homedir } from 'node:os';
import { join } from 'node:path';
import { type Command } from 'commander';
import { ensureSampleKit } from '../samplekit/index.js';
import {
  checkInterval,
  DEFAULT_DATABASE_USER_CACHE_MS,
  DEFAULT_USER_CACHE_MS,
  defaultAvatarConfig,
  validateAvatarConfig,
  type AvatarServiceConfig,
} from '../core/avatar/config.js';
import { startAvatarService } from '../server/imager.js';
import { CLASSIC_AVATAR_PATH } from '../server/avatar/avatar-handler.js';
import { redactRedisUrl } from '../core/cache/redis-store.js';
import { checkPortFree, describeBind } from '../http/http-server.js';
import { LOG_LEVELS } from '../http/request-log.js';
import {
  boolean,
  byteSize,
  mebibytes,
  milliseconds,
  oneOf,
  port,
  redisUrl,
  url,
  wholeNumber,
} from '../settings/values.js';
import {
  addOptions,
  attributeOf,
  DECODE_BUDGET_OPTION,
  explainPortInUse,
  FOLLOW_SYMLINKS_OPTION,
  givenFlags,
  option,
  resolveOptions,
  UsageError,
  type OptionDef,
} from './options.js';
import { stopOnSignals } from './shutdown.js';
import { DatabaseConfigError } from '../core/database.js';
import { DatabaseUrlError } from '../database/index.js';
import { prepareWritableFolder } from '../util/fs-error.js';

const D = defaultAvatarConfig();
const ms = milliseconds();

/** Every flag of `serve avatar`, keyed by the configuration field it sets. */
export const SERVE_AVATAR_OPTIONS = {
  assetsDir: option({
    flag: '--assets <dir>',
    env: 'HOTEL_IMAGER_AVATAR_ASSETS',
    help: 'hotel assets folder, Nitro or Flash layout',
    defaultText: 'the built-in sample kit',
  }),
  port: option({ flag: '--port <n>', env: 'HOTEL_IMAGER_AVATAR_PORT', help: 'TCP port', parse: port, default: D.port }),
  host: option({
    flag: '--host <addr>',
    env: 'HOTEL_IMAGER_AVATAR_HOST',
    help: 'address to listen on (0.0.0.0: every interface; 127.0.0.1: this machine only)',
    default: D.host,
  }),
  fallbackUrl: option({
    flag: '--fallback-url <url>',
    env: 'HOTEL_IMAGER_FALLBACK_URL',
    help: 'upstream imager for 302 fallbacks',
    parse: url(['http:', 'https:'], D.fallbackUrl),
    default: D.fallbackUrl,
  }),
  userApiBase: option({
    flag: '--user-api <url>',
    env: 'HOTEL_IMAGER_USER_API',
    help: 'base of the public user API for ?user=',
    parse: url(['http:', 'https:'], D.userApiBase),
    default: D.userApiBase,
  }),
  userLookupTimeoutMs: option({
    flag: '--user-timeout-ms <n>',
    env: 'HOTEL_IMAGER_USER_TIMEOUT_MS',
    help: 'longest wait for the user API, answer body included',
    parse: ms,
    default: D.userLookupTimeoutMs,
  }),
  userCacheTtlMs: option({
    flag: '--user-cache-ms <n>',
    env: 'HOTEL_IMAGER_USER_CACHE_MS',
    help: "how long a name → figure mapping is kept (the ?user= image's Cache-Control max-age is no longer)",
    parse: ms,
    default: DEFAULT_USER_CACHE_MS,
    defaultText: `${DEFAULT_DATABASE_USER_CACHE_MS} = 1 min with --database, else ${DEFAULT_USER_CACHE_MS} = 1 h`,
  }),
  userNegativeTtlMs: option({
    flag: '--user-negative-cache-ms <n>',
    env: 'HOTEL_IMAGER_USER_NEGATIVE_CACHE_MS',
    help: 'how long an unknown name is remembered',
    parse: ms,
    default: D.userNegativeTtlMs,
  }),
  databaseUrl: option({
    flag: '--database <url>',
    env: 'HOTEL_IMAGER_DATABASE',
    help:
      "the hotel's MySQL/MariaDB, mysql://user:password@host:port/db (?socket=, ?ssl=: docs/database.md): " +
      '?user= looks and group badge elements are read from it; the user API is then not asked',
    defaultText: 'none',
  }),
  databaseQueriesFile: option({
    flag: '--database-queries <file>',
    env: 'HOTEL_IMAGER_DATABASE_QUERIES',
    help: 'SQL file overriding the built-in Arcturus Morningstar queries ("-- name: <query>" blocks), checked at start',
    defaultText: 'the Arcturus Morningstar queries',
  }),
  databasePool: option({
    flag: '--database-pool <n>',
    env: 'HOTEL_IMAGER_DATABASE_POOL',
    help: 'database connections at most',
    parse: wholeNumber({ min: 1, max: 64 }),
    default: D.databasePool,
  }),
  databaseTimeoutMs: option({
    flag: '--database-timeout-ms <n>',
    env: 'HOTEL_IMAGER_DATABASE_TIMEOUT_MS',
    help: 'longest wait for one database query, the wait for a free connection included',
    parse: milliseconds(10),
    default: D.databaseTimeoutMs,
  }),
  memoryCacheBytes: option({
    flag: '--memory-budget <size>',
    env: 'HOTEL_IMAGER_AVATAR_MEMORY_BUDGET',
    help: 'bytes of rendered images kept in memory, e.g. 268435456, 256M, 1G',
    parse: byteSize,
    default: D.memoryCacheBytes,
    defaultText: '256M',
    aliases: [{ flag: '--cache-mb <MiB>', env: 'HOTEL_IMAGER_AVATAR_CACHE_MB', parse: mebibytes, note: 'in MiB' }],
  }),
  diskCacheDir: option({
    flag: '--cache-dir <dir>',
    env: 'HOTEL_IMAGER_AVATAR_CACHE_DIR',
    help: 'disk image cache folder, survives restarts',
    defaultText: 'none',
  }),
  diskCacheBytes: option({
    flag: '--disk-budget <size>',
    env: 'HOTEL_IMAGER_AVATAR_DISK_BUDGET',
    help: 'bytes the disk image cache may hold, e.g. 2G',
    parse: byteSize,
    default: D.diskCacheBytes,
    defaultText: '2G',
    aliases: [
      { flag: '--disk-cache-mb <MiB>', env: 'HOTEL_IMAGER_AVATAR_DISK_CACHE_MB', parse: mebibytes, note: 'in MiB' },
    ],
  }),
  libraryCacheBytes: option({
    flag: '--library-budget <size>',
    env: 'HOTEL_IMAGER_AVATAR_LIBRARY_BUDGET',
    help: 'bytes of decoded figure libraries kept by all render workers together (split evenly; at least 1 MiB each)',
    parse: byteSize,
    default: D.libraryCacheBytes,
    defaultText: '256M',
    aliases: [
      {
        flag: '--library-cache-mb <MiB>',
        env: 'HOTEL_IMAGER_AVATAR_LIBRARY_CACHE_MB',
        parse: mebibytes,
        note: 'in MiB',
      },
    ],
  }),
  workers: option({
    flag: '--jobs <n>',
    env: 'HOTEL_IMAGER_AVATAR_JOBS',
    help: 'render worker threads',
    parse: wholeNumber({ min: 1 }),
    default: D.workers,
    defaultText: 'one per core',
    aliases: [{ flag: '--workers <n>', env: 'HOTEL_IMAGER_RENDER_WORKERS' }],
  }),
  maxQueue: option({
    flag: '--queue <n>',
    env: 'HOTEL_IMAGER_RENDER_QUEUE',
    help: 'renders allowed to wait for a worker before "busy"',
    parse: wholeNumber(),
    default: D.maxQueue,
  }),
  maxQueueWaitMs: option({
    flag: '--queue-wait-ms <n>',
    env: 'HOTEL_IMAGER_RENDER_QUEUE_WAIT_MS',
    help: 'longest wait for a worker before "busy"',
    parse: ms,
    default: D.maxQueueWaitMs,
  }),
  renderTimeoutMs: option({
    flag: '--render-timeout-ms <n>',
    env: 'HOTEL_IMAGER_RENDER_TIMEOUT_MS',
    help: 'longest single render',
    parse: ms,
    default: D.renderTimeoutMs,
  }),
  clientRatePerSecond: option({
    flag: '--client-rate <n>',
    env: 'HOTEL_IMAGER_CLIENT_RATE',
    help: 'uncached renders per second per client, 0 = no limit',
    parse: wholeNumber(),
    default: D.clientRatePerSecond,
  }),
  clientBurst: option({
    flag: '--client-burst <n>',
    env: 'HOTEL_IMAGER_CLIENT_BURST',
    help: 'uncached renders a client may do at once',
    parse: wholeNumber(),
    default: D.clientBurst,
  }),
  budgetRenders: option({
    flag: '--budget <n>',
    env: 'HOTEL_IMAGER_RENDER_BUDGET',
    help: 'uncached renders per budget window for the instance, 0 = no budget',
    parse: wholeNumber(),
    default: D.budgetRenders,
  }),
  budgetWindowMs: option({
    flag: '--budget-window-ms <n>',
    env: 'HOTEL_IMAGER_RENDER_BUDGET_WINDOW_MS',
    help: 'budget window',
    parse: ms,
    default: D.budgetWindowMs,
  }),
  failureTtlMs: option({
    flag: '--failure-cache-ms <n>',
    env: 'HOTEL_IMAGER_FAILURE_CACHE_MS',
    help: 'how long a failed render is answered from memory',
    parse: ms,
    default: D.failureTtlMs,
  }),
  trustProxy: option({
    flag: '--trust-proxy',
    env: 'HOTEL_IMAGER_TRUST_PROXY',
    help:
      'take the client address (per-client render limit, request log) from X-Forwarded-For: only behind a proxy ' +
      'that sets it',
    parse: boolean,
    default: D.trustProxy,
  }),
  redisUrl: option({
    flag: '--redis <url>',
    env: 'HOTEL_IMAGER_REDIS',
    help: 'redis://HOST:PORT/DB shared by every instance: images, user names, failures, render locks',
    parse: redisUrl,
    defaultText: 'none',
  }),
  redisImageTtlMs: option({
    flag: '--redis-ttl-ms <n>',
    env: 'HOTEL_IMAGER_REDIS_TTL_MS',
    help: 'how long a rendered image stays in Redis',
    parse: milliseconds(1000),
    default: D.redisImageTtlMs,
    defaultText: '604800000 = 7 days',
  }),
  redisTimeoutMs: option({
    flag: '--redis-timeout-ms <n>',
    env: 'HOTEL_IMAGER_REDIS_TIMEOUT_MS',
    help: 'longest wait for one Redis command before going on without it',
    parse: milliseconds(1),
    default: D.redisTimeoutMs,
  }),
  redisLockMs: option({
    flag: '--redis-lock-ms <n>',
    env: 'HOTEL_IMAGER_REDIS_LOCK_MS',
    help: "render lock life, the longest wait for another instance's render",
    parse: milliseconds(10),
    default: D.redisLockMs,
  }),
  badgeElementsFile: option({
    flag: '--badge-elements <file>',
    env: 'HOTEL_IMAGER_AVATAR_BADGE_ELEMENTS',
    help: "group badge element table: the CSV or JSON export of the emulator's guilds_elements",
    defaultText: 'gamedata/guilds_elements.csv (or .json) in the assets folder',
  }),
  legacyFigureFile: option({
    flag: '--legacy-figuredata <file>',
    env: 'HOTEL_IMAGER_AVATAR_LEGACY_FIGUREDATA',
    help: 'the Shockwave-era figure list (figuredata_oldschool.xml) that pre-v18 numeric figures convert through',
    defaultText: 'gamedata/figuredata_oldschool.xml in the assets folder',
  }),
  badgePartsDir: option({
    flag: '--badge-parts <dir>',
    env: 'HOTEL_IMAGER_AVATAR_BADGE_PARTS',
    help:
      'folder of group badge part images (group_badge.nitro and/or badgepart_*.png|gif), searched before the ' +
      'assets folder',
    defaultText: 'none',
  }),
  roomThumbnailsDir: option({
    flag: '--room-thumbnails <dir>',
    env: 'HOTEL_IMAGER_ROOM_THUMBNAILS',
    help:
      "folder of the hotel's stored room thumbnails (<room id>.png, as the emulator's camera saves " +
      'them): /thumbnail/<id>.png serves them, and renders the room where there is none',
    defaultText: 'none (every thumbnail rendered)',
  }),
  roomRereadMs: option({
    flag: '--room-reread <ms>',
    env: 'HOTEL_IMAGER_ROOM_REREAD_MS',
    help:
      "how long a room's rows are trusted before they are read again (a moved chair shows within this, " +
      'and in browsers within 60 s)',
    parse: wholeNumber({ min: 0, max: 30_000, expected: 'a whole number of milliseconds from 0 to 30000' }),
    default: D.roomRereadMs,
  }),
  roomRenderJobs: option({
    flag: '--room-jobs <n>',
    env: 'HOTEL_IMAGER_ROOM_JOBS',
    help: 'room renders at once (in the render workers; more wait in a bounded queue)',
    parse: wholeNumber({ min: 1, max: 64 }),
    default: D.roomRenderJobs,
  }),
  roomMaxItems: option({
    flag: '--room-max-items <n>',
    env: 'HOTEL_IMAGER_ROOM_MAX_ITEMS',
    help:
      'most items read and drawn per room (a room with more is drawn with its first ones, by id, and ' +
      'its debug page says so)',
    parse: wholeNumber({ min: 1, max: 20_000 }),
    default: D.roomMaxItems,
  }),
  checkIntervalMs: option({
    flag: '--check-interval <ms>',
    env: 'HOTEL_IMAGER_AVATAR_CHECK_INTERVAL_MS',
    help:
      'how often the assets folder is checked for a changed hotel (loaded without a restart once two checks ' +
      'agree); 0 = only on SIGHUP',
    parse: checkInterval,
    default: D.checkIntervalMs,
  }),
  decodeBudgetBytes: DECODE_BUDGET_OPTION,
  followSymlinks: FOLLOW_SYMLINKS_OPTION,
  logLevel: option({
    flag: '--log-level <level>',
    env: 'HOTEL_IMAGER_LOG_LEVEL',
    help: 'fatal, error, warn, info (one line per request), debug, trace or silent',
    parse: oneOf(LOG_LEVELS),
    default: D.logLevel,
  }),
} satisfies { [K in keyof AvatarServiceConfig]?: OptionDef<AvatarServiceConfig[K]> };

/** Where the built-in sample kit is written when no --assets is given. */
export function defaultSampleKitDir(env: NodeJS.ProcessEnv = process.env): string {
  const root = env.HOTEL_IMAGER_CACHE ?? join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'hotel-imager');
  return join(root, 'sample-kit');
}

/**
 * The service's configuration from flags given on the command line (commander's attribute names, e.g.
 * `{ jobs: '2', cacheMb: '64' }`) and the environment: flags win, then variables, then the defaults.
 */
export function avatarConfigFromFlags(
  given: Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env,
): AvatarServiceConfig {
  const values = resolveOptions(SERVE_AVATAR_OPTIONS, given, env);
  const cfg: AvatarServiceConfig = { ...defaultAvatarConfig() };
  for (const [key, value] of Object.entries(values))
    if (value !== undefined) (cfg as unknown as Record<string, unknown>)[key] = value;
  // Looks read from the hotel's own database are kept a minute unless said otherwise: a changed look shows.
  const cacheSpec = SERVE_AVATAR_OPTIONS.userCacheTtlMs.spec;
  if (given[attributeOf(cacheSpec.flag)] === undefined && env[cacheSpec.env] === undefined)
    cfg.userCacheTtlMs = cfg.databaseUrl !== undefined ? DEFAULT_DATABASE_USER_CACHE_MS : DEFAULT_USER_CACHE_MS;
  try {
    return validateAvatarConfig(cfg);
  } catch (e) {
    // Settings that do not fit together (a library budget below 1 MiB per worker) are the caller's to fix.
    throw new UsageError((e as Error).message);
  }
}

/**
 * Fills in the sample kit when no assets were given, starts the service and stops it on SIGINT/SIGTERM
 * (unless `signals` is false: a caller running several services closes them all, see shutdown.ts). SIGHUP
 * reloads the hotel from the assets folder at once (unless `hangup` is false).
 */
export async function runAvatarService(
  cfg: AvatarServiceConfig,
  { signals = true, hangup = true }: { signals?: boolean; hangup?: boolean } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  // Before the sample kit is written or the hotel loads: a port in use is said at once.
  await checkPortFree(cfg.host, cfg.port);
  // A cache folder the service cannot write is said at start, not as a failed write per render.
  if (cfg.diskCacheDir !== undefined) {
    await prepareWritableFolder({
      folder: cfg.diskCacheDir,
      what: 'the disk image cache',
      flag: '--cache-dir',
      env: SERVE_AVATAR_OPTIONS.diskCacheDir.spec.env,
    });
  }
  let assetsDir = cfg.assetsDir;
  if (assetsDir === undefined) {
    assetsDir = defaultSampleKitDir();
    await ensureSampleKit(assetsDir);
  }
  const running = await startAvatarService({ ...cfg, assetsDir }).catch((e: unknown) => {
    // A bad database URL or query override is the operator's to fix, like any bad setting (exit 2).
    if (e instanceof DatabaseConfigError || e instanceof DatabaseUrlError) throw new UsageError(e.message);
    throw e;
  });
  running.app.log.info(
    {
      url: running.url,
      assets: assetsDir,
      workers: cfg.workers,
      cacheDir: cfg.diskCacheDir ?? null,
      redis: cfg.redisUrl === undefined ? null : redactRedisUrl(cfg.redisUrl),
    },
    `avatar service listening on ${running.url} (bound ` +
      `to ${describeBind(cfg.host, Number(new URL(running.url).port))}) — ` +
      `try ${running.url}/avatar.png?figure=hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40`,
  );
  running.app.log.info(
    {
      userApi: cfg.databaseUrl === undefined ? cfg.userApiBase : null,
      database: running.database?.target.display ?? null,
      fallbackUrl: cfg.fallbackUrl,
    },
    upstreamsLine(cfg),
  );

  let close = running.close;
  if (hangup) {
    // The reload logs its outcome itself ("hotel reloaded", or why not).
    const reload = () => {
      running.app.log.info({ assets: assetsDir }, 'SIGHUP: reloading the hotel');
      void running.reload();
    };
    process.on('SIGHUP', reload);
    close = async () => {
      process.off('SIGHUP', reload);
      await running.close();
    };
  }
  if (signals) stopOnSignals([close]);
  return { url: running.url, close };
}

/**
 * Which outside services get what: ?user= names go to the user API, and every request this hotel cannot
 * draw is redirected to the fallback imager (302, cacheable 60 s). Both are habbo.com by default, which a
 * retro hotel may not expect, so the start says it.
 */
export function upstreamsLine(
  cfg: Pick<AvatarServiceConfig, 'userApiBase' | 'fallbackUrl'> &
    Partial<Pick<AvatarServiceConfig, 'databaseUrl' | 'userCacheTtlMs'>>,
): string {
  const d = defaultAvatarConfig();
  const note = (value: string, dflt: string, flag: string) =>
    value === dflt ? ` (the default; ${flag} changes it)` : ` (${flag})`;
  const users =
    cfg.databaseUrl !== undefined
      ? `?user= names are looked up in the hotel's database (--database; the user API is not asked), ` +
        `kept ${cfg.userCacheTtlMs ?? DEFAULT_DATABASE_USER_CACHE_MS} ms`
      : `?user= names are sent to the user API at ${cfg.userApiBase}` +
        note(cfg.userApiBase, d.userApiBase, '--user-api');
  return (
    `${users}; ` +
    `requests this hotel cannot draw are redirected ` +
    `to ${cfg.fallbackUrl}${note(cfg.fallbackUrl, d.fallbackUrl, '--fallback-url')}`
  );
}

/** Adds `avatar` under the `serve` command group. */
export function registerServeAvatarCommand(serve: Command): void {
  const cmd = serve
    .command('avatar')
    .description(
      `serve /avatar.png (and the classic ${CLASSIC_AVATAR_PATH} paths), a drop-in replacement for the Habbo ` +
        'imager, rendered from the hotel’s own assets',
    );
  addOptions(cmd, SERVE_AVATAR_OPTIONS).action(async (_o: unknown, command: Command) => {
    const cfg = avatarConfigFromFlags(givenFlags(command));
    await runAvatarService(cfg).catch((e: unknown) => {
      throw explainPortInUse(e, {
        service: 'avatar',
        port: cfg.port,
        flag: '--port',
        env: 'HOTEL_IMAGER_AVATAR_PORT',
        command: 'hotel-imager serve avatar',
      });
    });
  });
}
