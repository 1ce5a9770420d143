// Avatar service settings: defaults, environment variables, flags (flags win), and clear errors;
// and a folder with no hotel, or a worker that cannot build the hotel, fails with a message, not a hang.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultAvatarConfig } from '../../../src/core/avatar/config.js';
import { avatarConfigFromFlags, defaultSampleKitDir } from '../../../src/cli/serve-avatar.js';

const avatarConfigFromEnv = (env: NodeJS.ProcessEnv) => avatarConfigFromFlags({}, env);
import { RenderPool } from '../../../src/core/render/render-pool.js';
import { scanAvatarHotel } from '../../../src/avatar/index.js';

test('defaults: port 8081, the public Habbo imager and API, limits that never trip on page traffic', () => {
  const d = defaultAvatarConfig();
  assert.equal(d.port, 8081);
  assert.equal(d.fallbackUrl, 'https://www.habbo.com/habbo-imaging/avatarimage');
  assert.equal(d.userApiBase, 'https://www.habbo.com');
  assert.equal(d.assetsDir, undefined);
  assert.equal(d.userCacheTtlMs, 3_600_000);
  assert.ok(d.clientBurst >= 500 && d.maxQueue >= 64);
  assert.equal(d.budgetRenders, 0);
});

test('environment variables set every setting; flags win over them', () => {
  const env = {
    HOTEL_IMAGER_AVATAR_PORT: '9000',
    HOTEL_IMAGER_AVATAR_ASSETS: '/srv/hotel',
    HOTEL_IMAGER_FALLBACK_URL: 'http://127.0.0.1:1/img',
    HOTEL_IMAGER_USER_API: 'http://127.0.0.1:2',
    HOTEL_IMAGER_AVATAR_CACHE_MB: '64',
    HOTEL_IMAGER_AVATAR_CACHE_DIR: '/var/cache/avatars',
    HOTEL_IMAGER_RENDER_WORKERS: '3',
    HOTEL_IMAGER_CLIENT_RATE: '5',
    HOTEL_IMAGER_RENDER_BUDGET: '100',
    HOTEL_IMAGER_TRUST_PROXY: 'yes',
    HOTEL_IMAGER_LOG_LEVEL: 'warn',
  };
  const fromEnv = avatarConfigFromEnv(env);
  assert.equal(fromEnv.port, 9000);
  assert.equal(fromEnv.assetsDir, '/srv/hotel');
  assert.equal(fromEnv.fallbackUrl, 'http://127.0.0.1:1/img');
  assert.equal(fromEnv.userApiBase, 'http://127.0.0.1:2');
  assert.equal(fromEnv.memoryCacheBytes, 64 * 1024 * 1024);
  assert.equal(fromEnv.diskCacheDir, '/var/cache/avatars');
  assert.equal(fromEnv.workers, 3);
  assert.equal(fromEnv.clientRatePerSecond, 5);
  assert.equal(fromEnv.budgetRenders, 100);
  assert.equal(fromEnv.trustProxy, true);
  assert.equal(fromEnv.logLevel, 'warn');
  const flags = avatarConfigFromFlags({ port: '9100', workers: '1', cacheMb: '8', trustProxy: true }, env);
  assert.equal(flags.port, 9100);
  assert.equal(flags.workers, 1);
  assert.equal(flags.memoryCacheBytes, 8 * 1024 * 1024);
  assert.equal(flags.assetsDir, '/srv/hotel', 'untouched settings keep the environment value');
});

test('the hotel check interval: 2 s as the furni service, from the environment or the flag, 0 = off, else at least 100 ms', () => {
  assert.equal(defaultAvatarConfig().checkIntervalMs, 2000);
  assert.equal(avatarConfigFromEnv({ HOTEL_IMAGER_AVATAR_CHECK_INTERVAL_MS: '0' }).checkIntervalMs, 0);
  assert.equal(
    avatarConfigFromFlags({ checkInterval: '500' }, { HOTEL_IMAGER_AVATAR_CHECK_INTERVAL_MS: '0' }).checkIntervalMs,
    500,
  );
  assert.throws(
    () => avatarConfigFromFlags({ checkInterval: '10' }, {}),
    /^UsageError: --check-interval must be 0 \(no polling\) or a whole number of milliseconds ≥ 100, got "10"$/,
  );
  assert.throws(
    () => avatarConfigFromEnv({ HOTEL_IMAGER_AVATAR_CHECK_INTERVAL_MS: 'often' }),
    /HOTEL_IMAGER_AVATAR_CHECK_INTERVAL_MS must be 0 \(no polling\)/,
  );
});

test('bad settings are refused with the name of the setting', () => {
  assert.throws(
    () => avatarConfigFromEnv({ HOTEL_IMAGER_AVATAR_PORT: 'eighty' }),
    /^UsageError: HOTEL_IMAGER_AVATAR_PORT must be a port number from 0 to 65535, got "eighty"$/,
  );
  assert.throws(
    () => avatarConfigFromEnv({ HOTEL_IMAGER_FALLBACK_URL: 'not a url' }),
    /HOTEL_IMAGER_FALLBACK_URL must be an absolute http:\/\/ or https:\/\/ URL/,
  );
  assert.throws(() => avatarConfigFromFlags({ workers: '0' }, {}), /--workers must be a whole number ≥ 1, got "0"/);
  assert.throws(
    () => avatarConfigFromFlags({ logLevel: 'loud' }, {}),
    /--log-level must be one of fatal, error, warn, info, debug, trace, silent, got "loud"/,
  );
});

test('the sample kit goes under HOTEL_IMAGER_CACHE, else the XDG cache folder', () => {
  assert.equal(defaultSampleKitDir({ HOTEL_IMAGER_CACHE: '/c' }), join('/c', 'sample-kit'));
  assert.equal(defaultSampleKitDir({ XDG_CACHE_HOME: '/x' }), join('/x', 'hotel-imager', 'sample-kit'));
});

test('a folder without a hotel is refused before any worker starts, saying why; a worker that cannot build the hotel fails the pool', async () => {
  const empty = await mkdtemp(join(tmpdir(), 'no-hotel-'));
  const kitDir = await mkdtemp(join(tmpdir(), 'pool-bad-'));
  try {
    await assert.rejects(
      scanAvatarHotel(empty),
      /has neither gamedata\/FigureData\.json \(Nitro layout\) nor gamedata\/figuredata\.xml/,
    );
    const { ensureSampleKit } = await import('../../../src/samplekit/index.js');
    await ensureSampleKit(kitDir);
    const snap = await scanAvatarHotel(kitDir);
    const broken = {
      ...snap,
      sources: { ...snap.sources, figureData: null as unknown as typeof snap.sources.figureData },
    };
    await assert.rejects(
      RenderPool.start({
        hotel: { generation: 1, snapshot: broken },
        workers: 1,
        maxQueue: 1,
        maxQueueWaitMs: 1000,
        renderTimeoutMs: 1000,
      }),
      /render worker could not load the assets/,
    );
  } finally {
    await rm(empty, { recursive: true, force: true });
    await rm(kitDir, { recursive: true, force: true });
  }
});

test('memory defaults: one library budget split across the workers, the whole service well under 1 GB', async () => {
  const d = defaultAvatarConfig();
  const MiB = 1024 * 1024;
  assert.equal(d.libraryCacheBytes, 256 * MiB, 'all workers together');
  assert.ok(d.libraryCacheBytes + d.memoryCacheBytes <= 512 * MiB, 'caches leave room for the threads under 1 GB');
  assert.equal(avatarConfigFromEnv({ HOTEL_IMAGER_AVATAR_LIBRARY_CACHE_MB: '96' }).libraryCacheBytes, 96 * MiB);
  assert.throws(() => avatarConfigFromFlags({ workers: '4', libraryCacheMb: '2' }, {}), /library cache/);
  const kitDir = await mkdtemp(join(tmpdir(), 'pool-kit-'));
  try {
    const { ensureSampleKit } = await import('../../../src/samplekit/index.js');
    await ensureSampleKit(kitDir);
    for (const [workers, total, each] of [
      [2, 64 * MiB, 32 * MiB],
      [3, undefined, Math.floor((256 * MiB) / 3)],
    ] as const) {
      const pool = await RenderPool.start({
        hotel: { generation: 1, snapshot: await scanAvatarHotel(kitDir) },
        workers,
        libraryCacheBytes: total,
        maxQueue: 1,
        maxQueueWaitMs: 1000,
        renderTimeoutMs: 10_000,
      });
      try {
        assert.equal(pool.stats().libraryBytesPerWorker, each, `${workers} workers share ${total ?? 'the default'}`);
      } finally {
        await pool.close();
      }
    }
  } finally {
    await rm(kitDir, { recursive: true, force: true });
  }
});
