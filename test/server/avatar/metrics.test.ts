// The avatar service's /metrics and request lines, on the sample kit: after known requests the scraped
// counters and histograms (parsed strictly, test/helpers/prom-text.ts) say what was answered, from which
// cache tier, why each fallback happened, what the renderer and its queue did; instances in one process
// keep their own counts; request and fallback lines carry the request id, the query, the cache tier
// and the client, which behind --trust-proxy (and only then) is the X-Forwarded-For address, for the
// log and for the per-client render limit alike.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { RENDERER_VERSION } from '../../../src/avatar/index.js';
import { type AvatarServiceConfig } from '../../../src/core/avatar/config.js';
import {
  startAvatarService,
  type AvatarServiceInstance,
  type OpenAvatarServiceOptions,
} from '../../../src/server/imager.js';
import { MemorySharedStore } from '../../../src/core/cache/shared-store.js';
import { readPackageVersion } from '../../../src/http/build-info.js';
import { LOG_URL_PART_MAX } from '../../../src/http/request-log.js';
import { ensureSampleKit } from '../../../src/samplekit/index.js';
import { histogramCounts, parsePrometheusText, sampleValue, type Family } from '../../helpers/prom-text.js';
import { startFakeUserApi, testAvatarConfig, type FakeApi } from './fixtures.js';

const FIG = 'hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40';
/** A group badge the sample kit's badge parts draw (as in badge-http.test.ts). */
const BADGE = 'b03034s04094s02110s03118';

let scratch: string;
let kit: string;
let api: FakeApi;
const started: Service[] = [];

type Service = AvatarServiceInstance & { url: string; lines: () => Record<string, unknown>[] };

async function start(over: Partial<AvatarServiceConfig> = {}, opts: OpenAvatarServiceOptions = {}): Promise<Service> {
  const text: string[] = [];
  const logStream = new PassThrough();
  logStream.on('data', (c: Buffer) => text.push(c.toString('utf8')));
  const s = await startAvatarService(testAvatarConfig(kit, api.base, { logLevel: 'info', ...over }), {
    logStream,
    ...opts,
  });
  const svc: Service = {
    ...s,
    lines: () =>
      text
        .join('')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
  started.push(svc);
  return svc;
}

async function stop(s: Service): Promise<void> {
  started.splice(started.indexOf(s), 1);
  await s.close();
}

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'avatar-metrics-'));
  kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  api = await startFakeUserApi({ Bob: FIG }, {});
});

after(async () => {
  for (const s of started) await stop(s);
  await api.close();
  await rm(scratch, { recursive: true, force: true });
});

const get = (s: Service, path: string, init: RequestInit = {}) => fetch(s.url + path, { redirect: 'manual', ...init });

async function scrape(s: Service): Promise<Map<string, Family>> {
  const res = await get(s, '/metrics');
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  assert.equal(res.headers.get('cache-control'), 'no-store');
  return parsePrometheusText(await res.text());
}

const requests = (m: Map<string, Family>, route: string, status: number) =>
  sampleValue(m, 'hotel_imager_http_requests_total', { route, status: String(status) }) ?? 0;
const value = (m: Map<string, Family>, name: string, labels: Record<string, string> = {}) =>
  sampleValue(m, name, labels);

/** Request lines (msg "request") once `n` of them are written. */
async function requestLines(s: Service, n: number): Promise<Record<string, unknown>[]> {
  for (let i = 0; i < 200; i++) {
    const lines = s.lines().filter((l) => l.msg === 'request');
    if (lines.length >= n) return lines;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`fewer than ${n} request lines`);
}

test('/metrics after known requests: routes and statuses, latency, cache tiers, fallbacks, renders, caches, hotel', async () => {
  const s = await start();
  const first = await scrape(s);
  const [info] = first.get('hotel_imager_build_info')!.samples;
  assert.deepEqual(
    { ...info!.labels, commit: undefined },
    { service: 'avatar', version: readPackageVersion(), commit: undefined, renderer: RENDERER_VERSION },
  );
  assert.equal(value(first, 'hotel_imager_avatar_hotel_generation'), 1);
  assert.equal(value(first, 'hotel_imager_avatar_hotel_reload_failures_total'), 0);
  assert.ok(Math.abs(value(first, 'hotel_imager_avatar_hotel_loaded_timestamp_seconds')! - Date.now() / 1000) < 120);
  assert.equal(requests(first, '/avatar.png', 200), 0);

  const img = await get(s, `/avatar.png?figure=${FIG}`);
  assert.equal(img.status, 200);
  assert.equal(img.headers.get('x-imager-cache'), 'render');
  const etag = img.headers.get('etag')!;
  await img.arrayBuffer();
  const again = await get(s, `/avatar.png?figure=${FIG}`);
  assert.equal(again.headers.get('x-imager-cache'), 'memory');
  await again.arrayBuffer();
  assert.equal((await get(s, `/avatar.png?figure=${FIG}`, { headers: { 'if-none-match': etag } })).status, 304);
  assert.equal((await get(s, `/avatar?figure=${FIG}&direction=4`)).status, 200);
  const unknown = await get(s, '/avatar.png?user=Nobody');
  assert.equal(unknown.status, 302);
  assert.equal(unknown.headers.get('x-imager-fallback'), 'user-unresolved');
  assert.equal((await get(s, '/avatar.png?user=Bob')).status, 200);
  assert.equal((await get(s, '/avatar.png')).status, 400);
  assert.equal((await get(s, '/avatar.png', { method: 'OPTIONS' })).status, 204);
  assert.equal((await get(s, '/avatar.png', { method: 'DELETE' })).status, 405);
  assert.equal((await get(s, '/healthz')).status, 200);
  assert.equal((await get(s, '/nowhere')).status, 404);
  assert.equal((await get(s, `/render?figure=${FIG}`)).status, 200);
  assert.equal((await get(s, `/habbo-imaging/avatarimage.gif?figure=${FIG}`)).status, 200);
  assert.equal((await get(s, `/habbo-imaging/head?figure=${FIG}`)).status, 200);
  const badge = await get(s, `/habbo-imaging/badge/${BADGE}.png`);
  assert.equal(badge.status, 200);
  assert.equal(badge.headers.get('x-imager-cache'), 'render');
  await badge.arrayBuffer();

  const m = await scrape(s);
  assert.equal(requests(m, '/avatar.png', 200), 3, 'render, memory, ?user=Bob');
  assert.equal(requests(m, '/avatar.png', 304), 1);
  assert.equal(requests(m, '/avatar.png', 302), 1);
  assert.equal(requests(m, '/avatar.png', 400), 1);
  assert.equal(requests(m, '/avatar.png', 204), 1);
  assert.equal(requests(m, '/avatar.png', 405), 1);
  assert.equal(requests(m, '/avatar', 200), 1);
  assert.equal(requests(m, '/healthz', 200), 1);
  assert.equal(requests(m, '/render', 200), 1);
  assert.equal(requests(m, '/habbo-imaging/avatarimage', 200), 1, 'the classic paths count under their name');
  assert.equal(requests(m, '/habbo-imaging/head', 200), 1);
  assert.equal(requests(m, '/habbo-imaging/badge', 200), 1, 'every badge code under one label');
  assert.equal(requests(m, '/metrics', 200), 1);
  assert.equal(requests(m, 'other', 404), 1);
  const lat = histogramCounts(m, 'hotel_imager_http_request_duration_seconds', { route: '/avatar.png' });
  assert.equal(lat.count, 8);
  assert.equal(lat.under('+Inf'), 8);
  assert.ok(lat.sum > 0);
  // Images by tier: five renders (the figure; the /avatar URL's direction 4; the GIF; the head; the badge), memory
  // three times (the second GET, the 304, and ?user=Bob, whose figure is that image's: keys use the
  // resolved figure).
  const tier = (t: string) => value(m, 'hotel_imager_avatar_cache_outcomes_total', { tier: t });
  assert.equal(tier('memory'), 3);
  assert.equal(tier('render'), 5);
  assert.equal(tier('disk'), 0);
  assert.equal(tier('redis'), 0);
  assert.equal(value(m, 'hotel_imager_avatar_fallbacks_total', { reason: 'user-unresolved' }), 1);
  assert.equal(value(m, 'hotel_imager_avatar_fallbacks_total', { reason: 'busy' }), 0);
  // The pool rendered those four and the /render page.
  assert.equal(value(m, 'hotel_imager_avatar_renders_total', { result: 'ok' }), 5);
  assert.equal(value(m, 'hotel_imager_avatar_renders_total', { result: 'failed' }), 0);
  const renderTime = histogramCounts(m, 'hotel_imager_avatar_render_duration_seconds');
  assert.equal(renderTime.count, 5);
  assert.ok(renderTime.sum > 0);
  assert.equal(value(m, 'hotel_imager_avatar_render_queue_depth'), 0);
  assert.equal(value(m, 'hotel_imager_avatar_render_queue_limit'), 1024);
  assert.equal(value(m, 'hotel_imager_avatar_render_workers'), 1);
  assert.ok(
    value(m, 'hotel_imager_avatar_library_cache_bytes', { kind: 'figure' })! > 0,
    'the worker holds the libraries it drew from',
  );
  assert.equal(value(m, 'hotel_imager_avatar_library_cache_limit_bytes'), s.config.libraryCacheBytes);
  assert.equal(value(m, 'hotel_imager_avatar_image_cache_entries', { tier: 'memory' }), 5);
  assert.equal(value(m, 'hotel_imager_avatar_image_cache_bytes', { tier: 'memory' }), s.cache.stats().memory.bytes);
  assert.equal(value(m, 'hotel_imager_avatar_user_lookups_total', { source: 'api' }), 2, 'Nobody and Bob');
  assert.equal(value(m, 'hotel_imager_avatar_user_api_failures_total'), 1);
  assert.equal(value(m, 'hotel_imager_avatar_redis_up'), 0);
  // The hotel in service (live reload moves these: test/server/avatar/reload.test.ts).
  const later = await scrape(s);
  assert.equal(value(later, 'hotel_imager_avatar_hotel_generation'), 1);
  assert.equal(value(later, 'hotel_imager_avatar_hotel_reload_failures_total'), 0);
  assert.equal(requests(later, '/metrics', 200), 2);
  await stop(s);
});

test('a second instance on the same disk cache: its own counts, the disk tier', async () => {
  const diskCacheDir = join(scratch, 'disk-cache');
  const a = await start({ diskCacheDir });
  assert.equal((await get(a, `/avatar.png?figure=${FIG}&size=l`)).status, 200);
  await stop(a); // flushes the disk cache
  const b = await start({ diskCacheDir });
  const res = await get(b, `/avatar.png?figure=${FIG}&size=l`);
  assert.equal(res.headers.get('x-imager-cache'), 'disk');
  const m = await scrape(b);
  assert.equal(value(m, 'hotel_imager_avatar_cache_outcomes_total', { tier: 'disk' }), 1);
  assert.equal(value(m, 'hotel_imager_avatar_cache_outcomes_total', { tier: 'render' }), 0);
  assert.equal(requests(m, '/avatar.png', 200), 1, 'b counts only its own request');
  assert.equal(value(m, 'hotel_imager_avatar_image_cache_entries', { tier: 'disk' }), 1);
  await stop(b);
});

test('two instances sharing a store (as on one Redis): the second answers from the redis tier', async () => {
  const store = new MemorySharedStore();
  const a = await start({}, { sharedStore: store });
  const b = await start({}, { sharedStore: store });
  const first = await get(a, `/avatar.png?figure=${FIG}&direction=6`);
  assert.equal(first.headers.get('x-imager-cache'), 'render');
  await first.arrayBuffer();
  await stop(a); // waits for its background writes to the store
  const res = await get(b, `/avatar.png?figure=${FIG}&direction=6`);
  assert.equal(res.headers.get('x-imager-cache'), 'redis');
  await res.arrayBuffer();
  const m = await scrape(b);
  assert.equal(value(m, 'hotel_imager_avatar_cache_outcomes_total', { tier: 'redis' }), 1);
  assert.equal(value(m, 'hotel_imager_avatar_cache_outcomes_total', { tier: 'render' }), 0);
  assert.equal(value(m, 'hotel_imager_avatar_redis_up'), 1);
  store.up = false;
  assert.equal(value(await scrape(b), 'hotel_imager_avatar_redis_up'), 0);
  await stop(b);
});

test('render queue rejections are counted as busy fallbacks, by reason', async () => {
  const s = await start({ workers: 1, maxQueue: 0 });
  const all = await Promise.all(
    Array.from({ length: 8 }, (_, i) => get(s, `/avatar.png?figure=${FIG}&size=l&action=wav&animated=1&n=${i}`)),
  );
  await Promise.all(all.map((r) => r.arrayBuffer()));
  const busy = all.filter((r) => r.headers.get('x-imager-fallback') === 'busy').length;
  assert.ok(busy > 0, all.map((r) => r.status).join(','));
  const m = await scrape(s);
  assert.equal(value(m, 'hotel_imager_avatar_render_rejections_total', { reason: 'queue_full' }), busy);
  assert.equal(value(m, 'hotel_imager_avatar_render_rejections_total', { reason: 'queue_timeout' }), 0);
  assert.equal(value(m, 'hotel_imager_avatar_fallbacks_total', { reason: 'busy' }), busy);
  assert.equal(requests(m, '/avatar.png', 302), busy);
  assert.equal(requests(m, '/avatar.png', 200), 8 - busy);
  await stop(s);
});

test('renders_total: a figure this hotel cannot draw is "rejected", not a render failure; HELP texts name current flags', async () => {
  const s = await start();
  // A set the hotel does not have: the fallback redirect, counted as rejected.
  const unknown = await get(s, '/avatar.png?figure=hd-99999999-1.ch-210-66');
  assert.equal(unknown.status, 302);
  assert.equal(unknown.headers.get('x-imager-fallback'), 'render-failed');
  const res = await get(s, '/metrics');
  const text = await res.text();
  const m = parsePrometheusText(text);
  assert.equal(value(m, 'hotel_imager_avatar_renders_total', { result: 'rejected' }), 1);
  assert.equal(value(m, 'hotel_imager_avatar_renders_total', { result: 'failed' }), 0);
  assert.equal(value(m, 'hotel_imager_avatar_renders_total', { result: 'ok' }), 0);
  assert.match(
    text,
    /# HELP hotel_imager_avatar_library_cache_limit_bytes The figure library budget of all workers together \(--library-budget\)/,
  );
  assert.match(
    text,
    /# HELP hotel_imager_avatar_image_cache_limit_bytes Image cache budgets: tier="memory" --memory-budget, tier="disk" --disk-budget/,
  );
  // No HELP text names a flag of the "Older names" table.
  for (const old of ['--cache-mb', '--disk-cache-mb', '--library-cache-mb', '--workers', '--concurrency'])
    assert.ok(!text.includes(old), old);
  await stop(s);
});

test('request lines: reqId, path, query (cut), status, cache tier, client; the fallback line has the same reqId', async () => {
  const s = await start();
  await (await get(s, `/avatar.png?figure=${FIG}&direction=2`)).arrayBuffer();
  await (await get(s, `/avatar.png?figure=${FIG}&direction=2`)).arrayBuffer();
  await (await get(s, '/avatar.png?user=Nobody&pad=' + 'x'.repeat(1000))).arrayBuffer();
  await (await get(s, '/healthz?probe=1')).arrayBuffer();
  const lines = await requestLines(s, 4);
  const shape = [
    'level',
    'time',
    'pid',
    'hostname',
    'reqId',
    'method',
    'path',
    'query',
    'status',
    'bytes',
    'ms',
    'cache',
    'client',
    'msg',
  ];
  for (const l of lines) assert.deepEqual(Object.keys(l), shape, JSON.stringify(l));
  assert.deepEqual(
    lines.map((l) => [l.path, l.status, l.cache, l.client]),
    [
      ['/avatar.png', 200, 'render', '127.0.0.1'],
      ['/avatar.png', 200, 'memory', '127.0.0.1'],
      ['/avatar.png', 302, null, '127.0.0.1'],
      ['/healthz', 200, null, '127.0.0.1'],
    ],
  );
  assert.equal(lines[0]!.query, `figure=${FIG}&direction=2`);
  assert.equal((lines[2]!.query as string).length, LOG_URL_PART_MAX + 1, 'cut, with a mark');
  assert.ok((lines[2]!.query as string).endsWith('…'));
  assert.equal(lines[3]!.query, 'probe=1');
  assert.equal(new Set(lines.map((l) => l.reqId)).size, 4);
  const fallback = s.lines().find((l) => l.msg === 'avatar fallback');
  assert.ok(fallback);
  assert.equal(fallback.reqId, lines[2]!.reqId);
  assert.equal(fallback.reason, 'user-unresolved');
  await stop(s);
});

for (const trustProxy of [false, true]) {
  test(`--trust-proxy ${trustProxy ? 'on' : 'off'}: the client of the log and of the per-client render limit`, async () => {
    // One render per client (a token comes back each second: the requests go out together, well within it).
    const s = await start({ trustProxy, clientRatePerSecond: 1, clientBurst: 1 });
    const from = (addr: string, n: number) =>
      get(s, `/avatar.png?figure=${FIG}&direction=${n}`, { headers: { 'x-forwarded-for': `${addr}, 10.9.9.9` } });
    const [a1, a2, b1] = await Promise.all([from('203.0.113.1', 1), from('203.0.113.1', 2), from('203.0.113.2', 3)]);
    for (const r of [a1!, a2!, b1!]) await r.arrayBuffer();
    const limited = (r: Response) => r.headers.get('x-imager-fallback') === 'rate-limited';
    // Behind a trusted proxy these are two clients: one of the first's two renders is refused, the
    // second client's is not. Without trust all three are 127.0.0.1: one render, two refused.
    assert.equal([a1!, a2!].filter(limited).length, 1, [a1, a2, b1].map((r) => r!.status).join(','));
    assert.equal(limited(b1!), !trustProxy);
    await (await get(s, '/healthz', { headers: { 'x-forwarded-for': '198.51.100.5' } })).arrayBuffer();
    const lines = await requestLines(s, 4);
    const images = lines.filter((l) => l.path === '/avatar.png');
    const byDirection = (n: number) => images.find((l) => String(l.query).endsWith(`direction=${n}`))!.client;
    if (trustProxy) {
      assert.deepEqual([byDirection(1), byDirection(2), byDirection(3)], ['203.0.113.1', '203.0.113.1', '203.0.113.2']);
      assert.equal(
        lines.find((l) => l.path === '/healthz')!.client,
        '198.51.100.5',
        'Fastify routes follow the same rule',
      );
    } else {
      for (const l of lines) assert.equal(l.client, '127.0.0.1');
    }
    const refusals = s.lines().filter((l) => l.msg === 'avatar fallback' && l.reason === 'rate-limited');
    assert.equal(refusals.length, trustProxy ? 1 : 2);
    for (const r of refusals)
      assert.match(String(r.detail), trustProxy ? /client 203\.0\.113\.1 / : /client 127\.0\.0\.1 /);
    await stop(s);
  });
}
