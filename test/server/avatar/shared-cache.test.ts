// Several avatar instances sharing one cache (issue 17): rendered images, user names and render failures
// pass between instances; N requests for one cold URL across instances render it once; a store that
// is down, hangs or restarts never costs a 5xx or a long wait, and is used again once back.
// Every sharing test runs twice: on the in-process store (always) and on a real Redis (the Debian
// redis-server, started here on a free loopback port; skipped with a reason when it is absent).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodePng } from '../../../src/imaging/codec.js';
import { createImage } from '../../../src/imaging/image.js';
import { ensureSampleKit } from '../../../src/samplekit/index.js';
import { type AvatarServiceConfig } from '../../../src/core/avatar/config.js';
import {
  startAvatarService,
  type AvatarServiceInstance,
  type OpenAvatarServiceOptions,
} from '../../../src/server/imager.js';
import { SharedAvatarCache } from '../../../src/core/cache/shared-cache.js';
import { MemorySharedStore } from '../../../src/core/cache/shared-store.js';
import { freePort, REDIS_SKIP, startRedis, type TestRedis } from '../../helpers/redis-server.js';
import { startFakeUserApi, testAvatarConfig, type FakeApi } from './fixtures.js';

const FIG = 'hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40';
type Svc = AvatarServiceInstance & { url: string };

let scratch: string;
let kit: string;
let api: FakeApi;
const started: Svc[] = [];

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'avatar-shared-'));
  kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  api = await startFakeUserApi({ Bob: FIG, Alice: 'hd-180-1.ch-210-66.lg-270-82' });
});

after(async () => {
  for (const s of started) await s.close();
  await api.close();
  await rm(scratch, { recursive: true, force: true });
});

async function start(over: Partial<AvatarServiceConfig> = {}, opts: OpenAvatarServiceOptions = {}): Promise<Svc> {
  const s = await startAvatarService(testAvatarConfig(kit, api.base, over), opts);
  started.push(s);
  return s;
}

async function get(base: string, path: string) {
  const res = await fetch(base + path, { redirect: 'manual' });
  const body = Buffer.from(await res.arrayBuffer());
  return {
    status: res.status,
    cache: res.headers.get('x-imager-cache'),
    fallback: res.headers.get('x-imager-fallback'),
    etag: res.headers.get('etag'),
    body,
  };
}

const renders = (s: Svc) => s.service.stats().renders;
const health = async (s: Svc) =>
  (await (await fetch(`${s.url}/healthz`)).json()) as {
    status: string;
    redis: null | (Record<string, unknown> & { state: string; available: boolean });
  };
const apiHits = (name: string) => api.hits.filter((n) => n.toLowerCase() === name.toLowerCase()).length;

/** Two instances on one shared store: the in-process one, or Redis at `url`. */
interface Pair {
  a: Svc;
  b: Svc;
}

const backends: {
  name: string;
  skip: string | false;
  pair: (tag: string) => Promise<Pair>;
  redis?: () => TestRedis;
}[] = [];
{
  const store = new MemorySharedStore();
  backends.push({
    name: 'in-process store',
    skip: false,
    pair: async () => ({ a: await start({}, { sharedStore: store }), b: await start({}, { sharedStore: store }) }),
  });
  let redis: TestRedis | undefined;
  backends.push({
    name: 'Redis',
    skip: REDIS_SKIP,
    redis: () => redis!,
    pair: async () => {
      redis ??= await startRedis();
      return { a: await start({ redisUrl: redis.url }), b: await start({ redisUrl: redis.url }) };
    },
  });
  after(async () => redis?.stop());
}

for (const backend of backends) {
  describe(`two instances sharing a cache (${backend.name})`, { skip: backend.skip }, () => {
    let pair: Pair;
    before(async () => {
      pair = await backend.pair(backend.name);
    });

    test("a render on one instance is the other one's cache hit: same bytes, same ETag, no second render", async () => {
      const { a, b } = pair;
      const path = `/avatar.png?figure=${FIG}&size=m&direction=3&t=share`;
      const before = renders(a) + renders(b);
      const first = await get(a.url, path);
      assert.equal(first.status, 200);
      assert.equal(first.cache, 'render');
      const second = await get(b.url, path);
      assert.equal(second.status, 200);
      assert.equal(second.cache, 'redis', 'the other instance answers from the shared cache');
      assert.ok(second.body.equals(first.body), 'identical bytes');
      assert.equal(second.etag, first.etag);
      assert.equal(renders(a) + renders(b), before + 1);
      // Then from its own memory (L1 in front of the shared cache).
      assert.equal((await get(b.url, path)).cache, 'memory');
    });

    test('GIF and effect answers are shared too (same bytes and content type, no second render)', async () => {
      const { a, b } = pair;
      for (const q of ['action=wav&img_format=gif', 'dance=2&animated=1', 'effect=2&animated=1&img_format=gif']) {
        const path = `/avatar.png?figure=${FIG}&size=m&direction=2&${q}&t=share-fmt`;
        const before = renders(a) + renders(b);
        const first = await get(a.url, path);
        assert.equal(first.status, 200, q);
        const second = await get(b.url, path);
        assert.equal(second.cache, 'redis', `${q}: from the shared cache`);
        assert.ok(second.body.equals(first.body), `${q}: identical bytes`);
        assert.equal(renders(a) + renders(b), before + 1, `${q}: rendered once`);
      }
    });

    test('a name looked up by one instance is known to the other; so is an unknown name', async () => {
      const { a, b } = pair;
      const tag = backend.name.length; // distinct names per backend: the API stand-in is shared
      const name = tag % 2 ? 'Alice' : 'Bob';
      const hits = apiHits(name);
      const rendersB = renders(b);
      const one = await get(a.url, `/avatar.png?user=${name}&size=s`);
      assert.equal(one.status, 200);
      assert.equal(apiHits(name), hits + 1);
      const two = await get(b.url, `/avatar.png?user=${name.toUpperCase()}&size=s`);
      assert.equal(two.status, 200);
      assert.ok(two.body.equals(one.body));
      assert.equal(apiHits(name), hits + 1, 'the second instance did not ask the API');
      assert.equal(two.cache, 'redis');
      assert.equal(renders(b), rendersB, 'and rendered nothing');

      const ghost = `ghost${tag}`;
      assert.equal((await get(a.url, `/avatar.png?user=${ghost}`)).fallback, 'user-unresolved');
      assert.equal((await get(b.url, `/avatar.png?user=${ghost}`)).fallback, 'user-unresolved');
      assert.equal(apiHits(ghost), 1, 'an unknown name is asked once across instances');
    });

    test('a failed render is remembered for both instances', async () => {
      const { a, b } = pair;
      const path = `/avatar.png?figure=hd-99999999-1.ch-210-66&t=${backend.name.length}`;
      const before = renders(b);
      assert.equal((await get(a.url, path)).fallback, 'render-failed');
      const other = await get(b.url, path);
      assert.equal(other.status, 302);
      assert.equal(other.fallback, 'render-failed-cached');
      assert.equal(renders(b), before);
    });

    test('64 concurrent identical cold requests across two instances render once', async () => {
      const { a, b } = pair;
      const path = `/avatar.png?figure=${FIG}&size=l&action=wav&animated=1&t=coalesce`;
      const before = renders(a) + renders(b);
      const answers = await Promise.all(Array.from({ length: 64 }, (_, i) => get(i % 2 ? b.url : a.url, path)));
      assert.deepEqual([...new Set(answers.map((r) => r.status))], [200]);
      assert.equal(new Set(answers.map((r) => r.body.toString('base64'))).size, 1, 'one image for all');
      assert.equal(renders(a) + renders(b) - before, 1, 'one render across both instances');
    });
  });
}

describe('a shared store that fails', () => {
  test('a lock holder that dies releases by expiry: the waiter renders after the lock life', async () => {
    const store = new MemorySharedStore();
    const one = new SharedAvatarCache(store, { imageTtlMs: 60_000, lockMs: 150 });
    const two = new SharedAvatarCache(store, { imageTtlMs: 60_000, lockMs: 150 });
    const key = 'k'.repeat(64);
    const holder = await one.claim(key, 'h');
    assert.equal(holder.kind, 'render');
    // `one` never releases (it died): `two` waits, then takes the expired lock and renders.
    const t0 = Date.now();
    const waiter = await two.claim(key, 'h');
    assert.equal(waiter.kind, 'render');
    assert.ok(waiter.kind === 'render' && waiter.token, 'the waiter holds the lock now');
    assert.ok(Date.now() - t0 >= 100, 'it waited for the lock to expire');
    assert.equal(two.stats().renderWaitGaveUp, 1);
  });

  test("a waiter gets the holder's image as soon as it is stored", async () => {
    const store = new MemorySharedStore();
    const one = new SharedAvatarCache(store, { imageTtlMs: 60_000, lockMs: 5000 });
    const two = new SharedAvatarCache(store, { imageTtlMs: 60_000, lockMs: 5000 });
    const key = 'e'.repeat(64);
    const holder = await one.claim(key, 'h');
    assert.equal(holder.kind, 'render');
    const waiting = two.claim(key, 'h');
    const png = await encodePng(createImage(3, 2));
    setTimeout(() => one.release(key, holder.kind === 'render' ? holder.token : undefined, { image: png }), 30);
    const got = await waiting;
    assert.equal(got.kind, 'image');
    assert.ok(got.kind === 'image' && got.body.equals(png));
  });

  test('a store that is down: every answer from memory or a local render, no 5xx', async () => {
    const store = new MemorySharedStore();
    store.up = false;
    const a = await start({}, { sharedStore: store });
    const path = `/avatar.png?figure=${FIG}&size=s&t=down`;
    const first = await get(a.url, path);
    assert.equal(first.status, 200);
    assert.equal(first.cache, 'render');
    assert.equal((await get(a.url, path)).cache, 'memory');
    assert.equal((await get(a.url, `/avatar.png?user=Bob&t=down`)).status, 200);
    const h = await health(a);
    assert.equal(h.status, 'ok', 'a shared store down is not an unhealthy instance');
    assert.equal(h.redis?.available, false);
  });

  test('--redis pointing where nothing listens: the instance starts, serves, and /healthz says why', async () => {
    const a = await start({ redisUrl: `redis://127.0.0.1:${await freePort()}/0` });
    const path = `/avatar.png?figure=${FIG}&size=m&t=nothing-listens`;
    const t0 = Date.now();
    assert.equal((await get(a.url, path)).cache, 'render');
    assert.equal((await get(a.url, path)).cache, 'memory');
    assert.equal((await get(a.url, `/avatar.png?user=Bob&size=l&t=nothing-listens`)).status, 200);
    assert.ok(Date.now() - t0 < 4000, 'no wait on the missing Redis');
    const h = await health(a);
    assert.equal(h.status, 'ok');
    assert.equal(h.redis?.available, false);
    assert.notEqual(h.redis?.state, 'ready');
    assert.match(String(h.redis?.lastError), /ECONNREFUSED/);
  });

  describe('Redis killed, frozen and restarted under load', { skip: REDIS_SKIP }, () => {
    let redis: TestRedis;
    let a: Svc;
    let b: Svc;
    before(async () => {
      redis = await startRedis();
      a = await start({ redisUrl: redis.url, redisTimeoutMs: 75 });
      b = await start({ redisUrl: redis.url, redisTimeoutMs: 75 });
      const deadline = Date.now() + 10_000;
      while (!((await health(a)).redis?.available && (await health(b)).redis?.available)) {
        assert.ok(Date.now() < deadline, 'both instances connect to Redis');
        await new Promise((r) => setTimeout(r, 50));
      }
    });
    after(async () => redis?.stop());

    test('killed mid-load: 0 5xx, every request answered; used again once it is back', async () => {
      const statuses: number[] = [];
      let sent = 0;
      const total = 240;
      // Eight clients, alternating instances, over 60 URLs (each asked four times: cold then warm).
      const client = async (c: number) => {
        while (sent < total) {
          const i = sent++;
          if (i === 80) await redis.kill();
          const r = await get((i + c) % 2 ? b.url : a.url, `/avatar.png?figure=${FIG}&size=s&t=kill${i % 60}`);
          statuses.push(r.status);
        }
      };
      await Promise.all(Array.from({ length: 8 }, (_, c) => client(c)));
      assert.equal(statuses.length, total);
      assert.equal(statuses.filter((s) => s >= 500).length, 0, 'no 5xx');
      assert.deepEqual([...new Set(statuses)], [200], 'every request got its image');
      const down = await health(a);
      assert.equal(down.redis?.available, false);
      assert.notEqual(down.redis?.state, 'ready');

      await redis.restart();
      const deadline = Date.now() + 10_000;
      while (!((await health(a)).redis?.available && (await health(b)).redis?.available)) {
        assert.ok(Date.now() < deadline, 'both instances reconnect by themselves within 10 s');
        await new Promise((r) => setTimeout(r, 50));
      }
      const path = `/avatar.png?figure=${FIG}&size=m&t=back`;
      assert.equal((await get(a.url, path)).cache, 'render');
      assert.equal((await get(b.url, path)).cache, 'redis', 'the restarted Redis is shared again');
    });

    test('frozen (accepts nothing, closes nothing): cold and warm requests are answered without waiting on it', async () => {
      redis.freeze();
      try {
        const t0 = Date.now();
        const cold = await get(a.url, `/avatar.png?figure=${FIG}&size=s&t=frozen`);
        const user = await get(b.url, `/avatar.png?user=Alice&size=m&t=frozen`);
        const ms = Date.now() - t0;
        assert.equal(cold.status, 200);
        assert.equal(cold.cache, 'render');
        assert.equal(user.status, 200);
        // The lock wait alone would be 5 s: what bounds these is the 75 ms command timeout.
        assert.ok(ms < 4000, `answered in ${ms} ms`);
        assert.equal((await health(a)).redis?.available, false, 'paused after the timeout');
      } finally {
        redis.thaw();
      }
      const deadline = Date.now() + 10_000;
      while (!(await health(a)).redis?.available) {
        assert.ok(Date.now() < deadline, 'available again after the pause');
        await new Promise((r) => setTimeout(r, 50));
      }
    });
  });
});

test('--redis takes redis://HOST:PORT/DB; anything else is a clear error', async () => {
  const { avatarConfigFromFlags } = await import('../../../src/cli/serve-avatar.js');
  const fromEnv = (env: Record<string, string>) => avatarConfigFromFlags({}, env);
  assert.equal(fromEnv({ HOTEL_IMAGER_REDIS: 'redis://10.0.0.5:6380/2' }).redisUrl, 'redis://10.0.0.5:6380/2');
  assert.equal(fromEnv({}).redisUrl, undefined);
  assert.throws(
    () => fromEnv({ HOTEL_IMAGER_REDIS: 'http://10.0.0.5:6380' }),
    /HOTEL_IMAGER_REDIS must be a redis:\/\/HOST:PORT\/DB address/,
  );
  assert.throws(() => fromEnv({ HOTEL_IMAGER_REDIS: 'redis://h:1/x' }), /whose DB is a number, got "redis:\/\/h:1\/x"/);
  assert.throws(
    () => fromEnv({ HOTEL_IMAGER_REDIS: 'redis://h:1/0', HOTEL_IMAGER_REDIS_TIMEOUT_MS: '0' }),
    /HOTEL_IMAGER_REDIS_TIMEOUT_MS must be a whole number of milliseconds ≥ 1/,
  );
});
