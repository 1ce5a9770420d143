// `hotel-imager serve avatar`: the /avatar.png imager service. Settings come from flags, then
// environment variables, then defaults (see docs/avatar-service.md).
import { homedir } from 'node:os';
import { join } from 'node:path';
import { type Command } from 'commander';
import { ensureSampleKit } from '../samplekit/index.js';
import { applySetting, avatarConfigFromEnv, validateAvatarConfig, type AvatarServiceConfig } from '../server/avatar/config.js';
import { startAvatarService } from '../server/avatar/index.js';
import { redactRedisUrl } from '../server/avatar/redis-store.js';
import { stopOnSignals } from './shutdown.js';

interface Flag {
  flag: string;
  key: keyof AvatarServiceConfig;
  kind: 'int' | 'mib' | 'string' | 'bool' | 'level';
  help: string;
}

const FLAGS: Flag[] = [
  { flag: '--assets <dir>', key: 'assetsDir', kind: 'string', help: 'hotel assets folder, Nitro or Flash layout (default: the built-in sample kit)' },
  { flag: '--port <n>', key: 'port', kind: 'int', help: 'TCP port (default 8081)' },
  { flag: '--host <addr>', key: 'host', kind: 'string', help: 'address to listen on (default 0.0.0.0)' },
  { flag: '--fallback-url <url>', key: 'fallbackUrl', kind: 'string', help: 'upstream imager for 302 fallbacks (default https://www.habbo.com/habbo-imaging/avatarimage)' },
  { flag: '--user-api <url>', key: 'userApiBase', kind: 'string', help: 'base of the public user API for ?user= (default https://www.habbo.com)' },
  { flag: '--user-timeout-ms <n>', key: 'userLookupTimeoutMs', kind: 'int', help: 'longest wait for the user API, answer body included (default 1500)' },
  { flag: '--user-cache-ms <n>', key: 'userCacheTtlMs', kind: 'int', help: 'how long a name → figure mapping is kept (default 3600000 = 1 h)' },
  { flag: '--user-negative-cache-ms <n>', key: 'userNegativeTtlMs', kind: 'int', help: 'how long an unknown name is remembered (default 60000)' },
  { flag: '--cache-mb <n>', key: 'memoryCacheBytes', kind: 'mib', help: 'memory image cache budget in MiB (default 256)' },
  { flag: '--cache-dir <dir>', key: 'diskCacheDir', kind: 'string', help: 'disk image cache directory, survives restarts (default: none)' },
  { flag: '--disk-cache-mb <n>', key: 'diskCacheBytes', kind: 'mib', help: 'disk image cache budget in MiB (default 2048)' },
  { flag: '--library-cache-mb <n>', key: 'libraryCacheBytes', kind: 'mib', help: 'decoded figure libraries kept by all render workers together (split evenly), MiB (default 256)' },
  { flag: '--workers <n>', key: 'workers', kind: 'int', help: 'render worker threads (default: number of cores)' },
  { flag: '--queue <n>', key: 'maxQueue', kind: 'int', help: 'renders allowed to wait for a worker before "busy" (default 1024)' },
  { flag: '--queue-wait-ms <n>', key: 'maxQueueWaitMs', kind: 'int', help: 'longest wait for a worker before "busy" (default 10000)' },
  { flag: '--render-timeout-ms <n>', key: 'renderTimeoutMs', kind: 'int', help: 'longest single render (default 20000)' },
  { flag: '--client-rate <n>', key: 'clientRatePerSecond', kind: 'int', help: 'uncached renders per second per client, 0 = no limit (default 200)' },
  { flag: '--client-burst <n>', key: 'clientBurst', kind: 'int', help: 'uncached renders a client may do at once (default 2000)' },
  { flag: '--budget <n>', key: 'budgetRenders', kind: 'int', help: 'uncached renders per budget window for the instance, 0 = no budget (default 0)' },
  { flag: '--budget-window-ms <n>', key: 'budgetWindowMs', kind: 'int', help: 'budget window (default 60000)' },
  { flag: '--failure-cache-ms <n>', key: 'failureTtlMs', kind: 'int', help: 'how long a failed render is answered from memory (default 60000)' },
  { flag: '--trust-proxy', key: 'trustProxy', kind: 'bool', help: 'take the client address from X-Forwarded-For (behind a CDN or proxy)' },
  { flag: '--redis <url>', key: 'redisUrl', kind: 'string', help: 'redis://HOST:PORT/DB shared by every instance: images, user names, failures, render locks (default: none)' },
  { flag: '--redis-ttl-ms <n>', key: 'redisImageTtlMs', kind: 'int', help: 'how long a rendered image stays in Redis (default 604800000 = 7 days)' },
  { flag: '--redis-timeout-ms <n>', key: 'redisTimeoutMs', kind: 'int', help: 'longest wait for one Redis command before going on without it (default 75)' },
  { flag: '--redis-lock-ms <n>', key: 'redisLockMs', kind: 'int', help: 'render lock life, the longest wait for another instance\'s render (default 5000)' },
  { flag: '--reload-interval-ms <n>', key: 'reloadIntervalMs', kind: 'int', help: 'how often the assets folder is checked for a changed hotel, loaded without a restart once two checks agree; 0 = only on SIGHUP (default 2000)' },
  { flag: '--log-level <level>', key: 'logLevel', kind: 'level', help: 'fatal, error, warn, info (one line per request), debug, trace or silent (default info)' },
];

function optionName(flag: string): string {
  const long = flag.split(' ')[0]!.slice(2);
  return long.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/** Where the built-in sample kit is written when no --assets is given. */
export function defaultSampleKitDir(env: NodeJS.ProcessEnv = process.env): string {
  const root = env.HOTEL_IMAGER_CACHE ?? join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'hotel-imager');
  return join(root, 'sample-kit');
}

/** Defaults, then environment, then flags. */
export function avatarConfigFromFlags(options: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): AvatarServiceConfig {
  const cfg = avatarConfigFromEnv(env);
  for (const f of FLAGS) {
    const value = options[optionName(f.flag)];
    if (value === undefined) continue;
    applySetting(cfg, f.key, f.kind, value === true ? 'true' : String(value), f.flag.split(' ')[0]!);
  }
  return validateAvatarConfig(cfg);
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
  let assetsDir = cfg.assetsDir;
  if (assetsDir === undefined) {
    assetsDir = defaultSampleKitDir();
    await ensureSampleKit(assetsDir);
  }
  const running = await startAvatarService({ ...cfg, assetsDir });
  running.app.log.info(
    { url: running.url, assets: assetsDir, workers: cfg.workers, cacheDir: cfg.diskCacheDir ?? null, redis: cfg.redisUrl === undefined ? null : redactRedisUrl(cfg.redisUrl) },
    `avatar service listening on ${running.url} — try ${running.url}/avatar.png?figure=hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40`,
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

/** Adds `avatar` under the `serve` command group. */
export function registerServeAvatarCommand(serve: Command): void {
  const cmd = serve
    .command('avatar')
    .description('serve /avatar.png, a drop-in replacement for the Habbo imager, rendered from the hotel’s own assets');
  for (const f of FLAGS) cmd.option(f.flag, f.help);
  cmd.action(async (options: Record<string, unknown>) => {
    await runAvatarService(avatarConfigFromFlags(options));
  });
}
