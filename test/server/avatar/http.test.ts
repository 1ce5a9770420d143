// The avatar service over a real socket: contract A4 (routes, parameters, responses), §5 (CORS),
// §7 (400s and every fallback reason), §8.1 (Cache-Control, cache keys), §9 (renderer version in the key).
// Runs on the built-in sample kit; the fallback URL and the user API point at local addresses only.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSampleKit } from '../../../src/samplekit/index.js';
import { defaultAvatarConfig, type AvatarServiceConfig } from '../../../src/core/avatar/config.js';
import {
  startAvatarService,
  type AvatarServiceInstance,
  type OpenAvatarServiceOptions,
} from '../../../src/server/imager.js';
import { pngFrameCount } from '../../../src/core/cache/png-frames.js';
import { ENTRY_OVERHEAD } from '../../../src/core/cache/image-cache.js';
import { RENDERER_VERSION, scanAvatarHotel } from '../../../src/avatar/index.js';
import { deadBase, startFakeUserApi, testAvatarConfig, TEST_FALLBACK, type FakeApi } from './fixtures.js';
import { parseAction } from '../../../src/avatar/request.js';

const FALLBACK = TEST_FALLBACK;
const FIG = 'hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40';
const FIGURE_CC = 'public, max-age=31536000, immutable, stale-while-revalidate=86400';
const USER_CC = 'public, max-age=3600, stale-while-revalidate=86400';

let scratch: string;
let kit: string;
let api: FakeApi;
let svc: AvatarServiceInstance & { url: string };
const started: (AvatarServiceInstance & { url: string })[] = [];

async function start(over: Partial<AvatarServiceConfig> = {}, opts: OpenAvatarServiceOptions = {}) {
  const s = await startAvatarService(testAvatarConfig(kit, api.base, { userLookupTimeoutMs: 300, ...over }), opts);
  started.push(s);
  return s;
}

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'avatar-http-'));
  kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  api = await startFakeUserApi({ Bob: FIG, slowpoke: FIG }, {});
  svc = await start();
});

after(async () => {
  for (const s of started) await s.close();
  await api.close();
  await rm(scratch, { recursive: true, force: true });
});

const get = (base: string, path: string, init: RequestInit = {}) => fetch(base + path, { redirect: 'manual', ...init });

function pngSize(body: Uint8Array): [number, number] {
  const v = new DataView(body.buffer, body.byteOffset, body.byteLength);
  return [v.getUint32(16), v.getUint32(20)];
}

async function image(path: string, base = svc.url) {
  const res = await get(base, path);
  const body = new Uint8Array(await res.arrayBuffer());
  return { res, body };
}

function assertFallback(res: Response, reason: string): URL {
  assert.equal(res.status, 302, `expected a 302 ${reason}`);
  assert.equal(res.headers.get('x-imager-fallback'), reason);
  assert.equal(res.headers.get('cache-control'), 'public, max-age=60');
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  const loc = new URL(res.headers.get('location')!);
  assert.equal(loc.origin + loc.pathname, FALLBACK);
  assert.equal(loc.searchParams.get('animated'), null);
  assert.equal(loc.searchParams.get('frames'), null);
  return loc;
}

test('200 image/png with ETag, x-imager-frames, CORS and the figure Cache-Control', async () => {
  const { res, body } = await image(`/avatar.png?figure=${FIG}`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/png');
  assert.match(res.headers.get('etag')!, /^"[A-Za-z0-9_-]+"$/);
  assert.equal(res.headers.get('x-imager-frames'), '1');
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  assert.equal(res.headers.get('cache-control'), FIGURE_CC);
  assert.match(res.headers.get('access-control-expose-headers')!, /x-imager-frames/);
  assert.deepEqual([...body.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.deepEqual(pngSize(body), [128, 220], 'no size → l');
});

test('/avatar is the same route as /avatar.png', async () => {
  const a = await image(`/avatar.png?figure=${FIG}&direction=3`);
  const b = await image(`/avatar?figure=${FIG}&direction=3`);
  assert.equal(b.res.status, 200);
  assert.deepEqual(b.body, a.body);
});

test('size and pose pick the canvas of §2.3 (parameters reach the renderer)', async () => {
  const cases: [string, [number, number]][] = [
    ['size=s', [33, 56]],
    ['size=m', [64, 110]],
    ['size=b', [64, 110]],
    ['size=huge', [64, 110]],
    ['size=l', [128, 220]],
    ['size=m&headonly=1', [54, 62]],
    ['size=s&headonly=true', [27, 30]],
    ['headonly=on', [108, 124]],
    ['size=m&action=lay', [110, 64]],
    ['size=s&action=lay', [56, 33]],
    ['action=lay,bogus', [220, 128]],
  ];
  for (const [q, dims] of cases) {
    const { res, body } = await image(`/avatar.png?figure=${FIG}&${q}`);
    assert.equal(res.status, 200, q);
    assert.deepEqual(pngSize(body), dims, q);
  }
});

test('direction wraps (9 = 1, -1 = 7) and non-numeric is 2: same bytes as the canonical value', async () => {
  const one = await image(`/avatar.png?figure=${FIG}&size=m&direction=1`);
  const nine = await image(`/avatar.png?figure=${FIG}&size=m&direction=9`);
  assert.deepEqual(nine.body, one.body);
  const seven = await image(`/avatar.png?figure=${FIG}&size=m&direction=7`);
  const minus = await image(`/avatar.png?figure=${FIG}&size=m&direction=-1`);
  assert.deepEqual(minus.body, seven.body);
  const two = await image(`/avatar.png?figure=${FIG}&size=m&direction=2`);
  const junk = await image(`/avatar.png?figure=${FIG}&size=m&direction=east`);
  assert.deepEqual(junk.body, two.body);
  assert.notDeepEqual(one.body, two.body);
  // head_direction follows direction unless given, and wraps the same way.
  const hd = await image(`/avatar.png?figure=${FIG}&size=m&direction=1&head_direction=9`);
  assert.deepEqual(hd.body, one.body);
});

test('If-None-Match with the ETag → 304 without a body', async () => {
  const first = await image(`/avatar.png?figure=${FIG}&size=s`);
  const etag = first.res.headers.get('etag')!;
  const res = await get(svc.url, `/avatar.png?figure=${FIG}&size=s`, { headers: { 'if-none-match': etag } });
  assert.equal(res.status, 304);
  assert.equal(res.headers.get('etag'), etag);
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  assert.equal((await res.arrayBuffer()).byteLength, 0);
  const other = await get(svc.url, `/avatar.png?figure=${FIG}&size=s`, { headers: { 'if-none-match': '"nope"' } });
  assert.equal(other.status, 200);
});

test('HEAD answers the GET headers without a body; OPTIONS is a 204 preflight', async () => {
  const g = await image(`/avatar.png?figure=${FIG}&size=m`);
  const h = await get(svc.url, `/avatar.png?figure=${FIG}&size=m`, { method: 'HEAD' });
  assert.equal(h.status, 200);
  assert.equal(h.headers.get('content-type'), 'image/png');
  assert.equal(h.headers.get('etag'), g.res.headers.get('etag'));
  assert.equal(h.headers.get('content-length'), String(g.body.length));
  assert.equal((await h.arrayBuffer()).byteLength, 0);
  for (const path of ['/avatar.png', '/avatar']) {
    const o = await get(svc.url, path, {
      method: 'OPTIONS',
      headers: { origin: 'https://site.example', 'access-control-request-method': 'GET' },
    });
    assert.equal(o.status, 204);
    assert.equal(o.headers.get('access-control-allow-origin'), '*');
    assert.match(o.headers.get('access-control-allow-methods')!, /GET/);
    assert.match(o.headers.get('access-control-allow-methods')!, /HEAD/);
  }
  const post = await get(svc.url, `/avatar.png?figure=${FIG}`, { method: 'POST' });
  assert.equal(post.status, 405);
  assert.match(post.headers.get('allow')!, /GET/);
});

test('every path answers other methods as the furni service does: 405 with Allow, OPTIONS the preflight', async () => {
  for (const path of ['/avatar.png?figure=' + FIG, '/render?figure=' + FIG, '/healthz', '/version', '/nothing-here']) {
    for (const method of ['DELETE', 'PUT', 'POST', 'PATCH']) {
      const r = await get(svc.url, path, { method });
      assert.equal(r.status, 405, `${method} ${path}`);
      assert.equal(r.headers.get('allow'), 'GET, HEAD, OPTIONS', `${method} ${path}`);
      assert.equal(r.headers.get('access-control-allow-origin'), '*');
      assert.equal(await r.text(), 'method not allowed\n');
    }
    const o = await get(svc.url, path, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://site.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'If-None-Match, X-Bad Header',
      },
    });
    assert.equal(o.status, 204, `OPTIONS ${path}`);
    assert.equal(o.headers.get('allow'), 'GET, HEAD, OPTIONS');
    assert.equal(o.headers.get('access-control-allow-methods'), 'GET, HEAD, OPTIONS');
    // Not a plain list of field names: not echoed.
    assert.equal(o.headers.get('access-control-allow-headers'), 'if-none-match');
  }
  assert.equal((await get(svc.url, '/nothing-here')).status, 404);
});

test('400 text/plain: no figure and no user; figure over 4 KiB', async () => {
  const none = await get(svc.url, '/avatar.png?direction=2');
  assert.equal(none.status, 400);
  assert.match(none.headers.get('content-type')!, /^text\/plain/);
  assert.equal(none.headers.get('access-control-allow-origin'), '*');
  assert.match(await none.text(), /figure/);
  const bare = await get(svc.url, '/avatar.png');
  assert.equal(bare.status, 400);
  const long = await get(svc.url, `/avatar.png?figure=${'hd-180-1.'.repeat(500)}`);
  assert.equal(long.status, 400);
  assert.match(long.headers.get('content-type')!, /^text\/plain/);
  assert.match(await long.text(), /4 KiB/);
});

test('cache: every parameter as sent is the key; reordered figure or a varied ignored parameter renders afresh', async () => {
  const q = `/avatar.png?figure=${FIG}&size=m&direction=4`;
  const a = await image(q);
  const again = await image(q);
  assert.equal(again.res.headers.get('x-imager-cache'), 'memory');
  assert.deepEqual(again.body, a.body);
  const reordered = await image(
    `/avatar.png?figure=hr-100-40.sh-290-80.lg-270-82.ch-210-66.hd-180-1&size=m&direction=4`,
  );
  assert.equal(reordered.res.headers.get('x-imager-cache'), 'render');
  const buster = await image(`${q}&cb=1`);
  assert.equal(buster.res.headers.get('x-imager-cache'), 'render');
  const buster2 = await image(`${q}&cb=2`);
  assert.equal(buster2.res.headers.get('x-imager-cache'), 'render');
  assert.deepEqual(buster2.body, a.body, 'an ignored parameter does not change the pixels');
  assert.equal(buster2.res.headers.get('etag'), a.res.headers.get('etag'));
});

test('animated: one entry and identical bytes for a still pose; an APNG and its own entry for wav', async () => {
  const still = await image(`/avatar.png?figure=${FIG}&action=sit&size=s`);
  const stillAnimated = await image(`/avatar.png?figure=${FIG}&action=sit&size=s&animated=1`);
  assert.equal(stillAnimated.res.headers.get('x-imager-cache'), 'memory', 'same cache entry');
  assert.deepEqual(stillAnimated.body, still.body);
  assert.equal(stillAnimated.res.headers.get('x-imager-frames'), '1');

  const wave = await image(`/avatar.png?figure=${FIG}&action=wav&size=s`);
  assert.equal(wave.res.headers.get('x-imager-frames'), '1');
  const waving = await image(`/avatar.png?figure=${FIG}&action=wav&size=s&animated=1`);
  assert.equal(waving.res.headers.get('x-imager-cache'), 'render', 'an animating pose has its own entry');
  assert.equal(waving.res.headers.get('content-type'), 'image/png');
  assert.equal(waving.res.headers.get('x-imager-frames'), '2');
  assert.equal(pngFrameCount(waving.body), 2);
  assert.deepEqual(pngSize(waving.body), [33, 56]);
  const capped = await image(`/avatar.png?figure=${FIG}&action=wav&size=s&animated=1&frames=1`);
  assert.equal(capped.res.headers.get('x-imager-frames'), '1');
  // wav under headonly collapses to a still: same entry as the plain headonly still.
  const head = await image(`/avatar.png?figure=${FIG}&action=wav&size=s&headonly=1`);
  const headAnimated = await image(`/avatar.png?figure=${FIG}&action=wav&size=s&headonly=1&animated=yes`);
  assert.equal(headAnimated.res.headers.get('x-imager-cache'), 'memory');
  assert.deepEqual(headAnimated.body, head.body);
});

test('identical concurrent cold requests render once (coalescing)', async () => {
  const before = svc.service.stats();
  const path = `/avatar.png?figure=${FIG}&direction=5&coalesce=1`;
  const all = await Promise.all(Array.from({ length: 8 }, () => image(path)));
  assert.ok(all.every((r) => r.res.status === 200));
  assert.ok(all.every((r) => Buffer.compare(r.body, all[0]!.body) === 0));
  const after = svc.service.stats();
  assert.equal(after.renders - before.renders, 1);
  // Every answer but the first render's own either joined it (source 'render') or came later from memory.
  const joined = all.filter((r) => r.res.headers.get('x-imager-cache') === 'render').length - 1;
  assert.equal(after.coalesced - before.coalesced, joined, 'the requests that joined are counted once each');
  assert.equal(all.filter((r) => r.res.headers.get('x-imager-cache') === 'memory').length, 7 - joined);
});

test('user: resolved through the public API, same pixels as the figure, user Cache-Control', async () => {
  const viaUser = await image('/avatar.png?user=Bob&size=m');
  assert.equal(viaUser.res.status, 200);
  assert.equal(viaUser.res.headers.get('cache-control'), USER_CC);
  const viaFigure = await image(`/avatar.png?figure=${FIG}&size=m`);
  assert.deepEqual(viaUser.body, viaFigure.body);
  // figure wins over user
  const both = await image(`/avatar.png?figure=hd-180-1&user=Bob&size=m`);
  assert.equal(both.res.headers.get('cache-control'), FIGURE_CC);
  assert.notDeepEqual(both.body, viaFigure.body);
});

test('user-unresolved: unknown name, slow API, API down', async () => {
  const unknown = await get(svc.url, '/avatar.png?user=nobody&size=s&direction=9&animated=1');
  const loc = assertFallback(unknown, 'user-unresolved');
  assert.equal(loc.searchParams.get('user'), 'nobody');
  assert.equal(loc.searchParams.get('direction'), '1');
  assert.equal(loc.searchParams.get('size'), 's');

  const slowApi = await startFakeUserApi({ slowpoke: FIG }, { slowMs: 6000 });
  const down = await deadBase();
  try {
    const slow = await start({ userApiBase: slowApi.base, userLookupTimeoutMs: 150 });
    const t0 = Date.now();
    assertFallback(await get(slow.url, '/avatar.png?user=slowpoke'), 'user-unresolved');
    assert.ok(Date.now() - t0 < 5000, 'the lookup timed out rather than waiting for the API');
    const dead = await start({ userApiBase: down });
    assertFallback(await get(dead.url, '/avatar.png?user=Bob'), 'user-unresolved');
  } finally {
    await slowApi.close();
  }
});

test('user: with the default timeout, an API that never answers still gets the fallback within 2 s', async () => {
  const { createServer } = await import('node:http');
  const hung = createServer(() => undefined); // accepts, never answers
  await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  try {
    const s = await start({
      userApiBase: `http://127.0.0.1:${(hung.address() as { port: number }).port}`,
      userLookupTimeoutMs: defaultAvatarConfig().userLookupTimeoutMs,
    });
    const t0 = performance.now();
    const res = await get(s.url, '/avatar.png?user=ghost&size=s');
    const took = performance.now() - t0;
    assertFallback(res, 'user-unresolved');
    assert.ok(took < 2000, `answered in ${Math.round(took)} ms`);
  } finally {
    hung.closeAllConnections();
    hung.close();
  }
});

test('render-failed for an unknown set id, then render-failed-cached; the Location carries normalised params', async () => {
  const path =
    '/avatar.png?figure=hd-99999999-1.ch-210-66&size=b&action=wave,sit,carry=2&gesture=nor&headonly=0&frames=40&animated=1';
  const first = await get(svc.url, path);
  const loc = assertFallback(first, 'render-failed');
  assert.deepEqual(
    [...loc.searchParams],
    [
      ['figure', 'hd-99999999-1.ch-210-66'],
      ['direction', '2'],
      ['head_direction', '2'],
      ['size', 'm'],
      ['action', 'sit,crr=2'],
      ['gesture', 'std'],
      ['headonly', '0'],
    ],
  );
  assertFallback(await get(svc.url, path), 'render-failed-cached');
});

test('rate-limited: one client over its uncached-render rate; cached images are never limited', async () => {
  // One token per ~17 minutes: a slow first render on a loaded machine cannot refill the bucket.
  const s = await start({ clientRatePerSecond: 0.001, clientBurst: 1 });
  assert.equal((await image(`/avatar.png?figure=${FIG}&size=s`, s.url)).res.status, 200);
  assertFallback(await get(s.url, `/avatar.png?figure=${FIG}&size=m`), 'rate-limited');
  assert.equal((await image(`/avatar.png?figure=${FIG}&size=s`, s.url)).res.status, 200, 'cache hit');
});

test('behind a proxy (--trust-proxy) the client is the X-Forwarded-For address', async () => {
  const s = await start({ clientRatePerSecond: 0.001, clientBurst: 1, trustProxy: true });
  const from = (ip: string, q: string) =>
    get(s.url, `/avatar.png?figure=${FIG}&${q}`, { headers: { 'x-forwarded-for': ip } });
  assert.equal((await from('203.0.113.1', 'size=s')).status, 200);
  assertFallback(await from('203.0.113.1', 'size=m'), 'rate-limited');
  assert.equal((await from('203.0.113.2', 'size=m')).status, 200, 'another client has its own rate');
});

test('no-budget: the instance budget for the window is spent', async () => {
  const s = await start({ budgetRenders: 1, budgetWindowMs: 60_000 });
  assert.equal((await image(`/avatar.png?figure=${FIG}&size=s`, s.url)).res.status, 200);
  assertFallback(await get(s.url, `/avatar.png?figure=${FIG}&size=m`), 'no-budget');
});

test('busy: a full render queue falls back instead of waiting, and never answers 5xx', async () => {
  const s = await start({ workers: 1, maxQueue: 0 });
  const all = await Promise.all(
    Array.from({ length: 16 }, (_, i) =>
      get(s.url, `/avatar.png?figure=${FIG}&size=l&action=wav&animated=1&busy=${i}`),
    ),
  );
  const statuses = all.map((r) => r.status);
  assert.ok(
    statuses.every((st) => st === 200 || st === 302),
    statuses.join(','),
  );
  const busy = all.filter((r) => r.status === 302);
  assert.ok(busy.length > 0, 'some requests found the queue full');
  for (const r of busy) assertFallback(r, 'busy');
  await Promise.all(all.map((r) => r.arrayBuffer()));
});

test('unexpected: any other failure is a fallback too, never a 5xx', async () => {
  const s = await start(
    {},
    {
      wrapRenderer: (real) => ({
        ...real,
        render: async (req, hotel) => {
          if (req.figure.startsWith('hd-180-1.ch-215-')) throw new TypeError('simulated defect outside the renderer');
          return real.render(req, hotel);
        },
      }),
    },
  );
  assertFallback(await get(s.url, '/avatar.png?figure=hd-180-1.ch-215-66'), 'unexpected');
  assert.equal((await image(`/avatar.png?figure=${FIG}`, s.url)).res.status, 200);
});

test('disk cache: images survive a restart, written atomically', async () => {
  const dir = join(scratch, 'disk-cache');
  const first = await start({ diskCacheDir: dir });
  const path = `/avatar.png?figure=${FIG}&size=m&direction=6`;
  const a = await image(path, first.url);
  assert.equal(a.res.headers.get('x-imager-cache'), 'render');
  await first.close();
  started.splice(started.indexOf(first), 1);
  const files = (await readdir(dir, { recursive: true })).map(String);
  assert.ok(files.some((f) => f.endsWith('.png')));
  assert.ok(!files.some((f) => f.includes('.tmp-')));
  const second = await start({ diskCacheDir: dir });
  const b = await image(path, second.url);
  assert.equal(b.res.headers.get('x-imager-cache'), 'disk');
  assert.deepEqual(b.body, a.body);
  assert.equal(b.res.headers.get('etag'), a.res.headers.get('etag'));
  assert.equal(b.res.headers.get('x-imager-frames'), '1');
});

test('/render shows the composite and every drawn layer, escaping the request', async () => {
  const res = await get(svc.url, `/render?figure=${FIG}&size=m&note=%3Cscript%3Ealert(1)%3C/script%3E`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type')!, /^text\/html/);
  const html = await res.text();
  assert.ok(!html.includes('<script>'), 'request text is escaped');
  assert.ok(html.includes('&lt;script&gt;') || html.includes('%3Cscript%3E'));
  assert.match(html, /<img[^>]+src="data:image\/png;base64,/);
  const rows = html.match(/<tr><td>\d+<\/td>/g) ?? [];
  assert.ok(rows.length >= 5, `one table row per drawn layer, got ${rows.length}`);
  const bad = await get(svc.url, '/render?figure=hd-99999999-1');
  assert.equal(bad.status, 200);
  assert.match(await bad.text(), /render failed/i);
});

test('/healthz and /version: build, renderer version, assets, cache stats', async () => {
  // docs/avatar-service.md, Routes: /version is "the same JSON" as /healthz: the same fields in the same order.
  const shape = async (path: string) =>
    Object.keys((await (await get(svc.url, path)).json()) as Record<string, unknown>);
  assert.deepEqual(await shape('/version'), await shape('/healthz'));
  for (const path of ['/healthz', '/version']) {
    const res = await get(svc.url, path);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const body = (await res.json()) as Record<string, any>;
    assert.equal(body.status, 'ok');
    assert.equal(body.service, 'hotel-imager-avatar');
    assert.match(body.commit, /^([0-9a-f]{40}|unknown)$/);
    assert.ok(!Number.isNaN(Date.parse(body.builtAt)));
    assert.equal(body.rendererVersion, RENDERER_VERSION);
    assert.equal(body.assets.loaded, true);
    assert.equal(body.assets.dir, kit);
    assert.equal(typeof body.cache.memory.entries, 'number');
    assert.ok(body.cache.memory.bytes > 0);
    assert.equal(typeof body.renders.fallbacks['render-failed'], 'number');
  }
});

test('garbage never produces a 5xx: each input gets its own documented answer', async () => {
  // 302: a figure the renderer cannot draw falls back to the upstream imager (contract A7.2); 200: what
  // is not understood is ignored (A4.1); 400: a path with a malformed escape; 404: no such path.
  const expected: [string, number][] = [
    ['/avatar.png?figure=%', 302],
    ['/avatar.png?figure=...', 302],
    ['/avatar.png?figure=hd', 302],
    ['/avatar.png?figure=hd-x-y', 302],
    ['/avatar.png?figure=hd-180-1&action=' + ','.repeat(200), 200],
    ['/avatar.png?figure=hd-180-1&direction=99999999999999999999999', 200],
    ['/avatar.png?figure=hd-180-1&frames=-1&animated=1', 200],
    ['/avatar.png?figure=%00%01', 302],
    ['/avatar.png?figure=hd-180-1&figure=ch-210-66', 200],
    ['/nope', 404],
    ['/%', 400],
    ['/avatar.png/%zz', 400],
  ];
  const got: [string, number][] = [];
  for (const [p] of expected) {
    const res = await get(svc.url, p);
    got.push([p, res.status]);
    assert.equal(res.headers.get('access-control-allow-origin'), '*', `${p} carries CORS`);
    await res.arrayBuffer();
  }
  assert.deepEqual(got, expected);
});

test('render pool: a full queue refuses at once; a dead worker fails only its job and is replaced', async () => {
  const { RenderPool, RenderBusyError, RenderCrashError } = await import('../../../src/core/render/render-pool.js');
  const pool = await RenderPool.start({
    hotel: { generation: 1, snapshot: await scanAvatarHotel(kit) },
    workers: 1,
    maxQueue: 1,
    maxQueueWaitMs: 10_000,
    renderTimeoutMs: 10_000,
  });
  try {
    const req = (direction: number) => ({
      figure: FIG,
      direction,
      headDirection: direction,
      size: 'l' as const,
      action: parseAction('wav'),
      gesture: '',
      headOnly: false,
      animated: true,
      frames: 0,
    });
    const running = pool.render(req(0));
    const queued = pool.render(req(1));
    await assert.rejects(pool.render(req(2)), RenderBusyError);
    await Promise.all([running, queued]);

    // Kill the worker under a job: that job fails as a crash, the pool starts a new worker.
    const victim = pool.render(req(3));
    const slots = (pool as unknown as { slots: { worker: { terminate(): Promise<number> } }[] }).slots;
    await slots[0]!.worker.terminate();
    await assert.rejects(victim, RenderCrashError);
    for (let i = 0; i < 100 && pool.stats().ready === 0; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(pool.stats().restarts, 1);
    const after = await pool.render(req(4));
    assert.equal(after.frames, 2);
  } finally {
    await pool.close();
  }
});

test('render pool: a busy worker holds the jobs behind its own, handed over together; when it dies, they are rendered by its replacement', async () => {
  const { RenderPool, RenderCrashError } = await import('../../../src/core/render/render-pool.js');
  const pool = await RenderPool.start({
    hotel: { generation: 1, snapshot: await scanAvatarHotel(kit) },
    workers: 1,
    maxQueue: 8,
    maxQueueWaitMs: 10_000,
    renderTimeoutMs: 10_000,
  });
  try {
    const req = (direction: number) => ({
      figure: FIG,
      direction,
      headDirection: direction,
      size: 'l' as const,
      action: parseAction('wav'),
      gesture: '',
      headOnly: false,
      animated: true,
      frames: 0,
    });
    const first = pool.render(req(0));
    const second = pool.render(req(1));
    const third = pool.render(req(2));
    // One rendering, two in line: two wait, the worker is busy.
    assert.deepEqual([pool.stats().busy, pool.stats().queued], [1, 2]);
    const slots = (pool as unknown as { slots: { jobs: unknown[]; worker: { terminate(): Promise<number> } }[] }).slots;
    const posted: unknown[] = [];
    const worker = slots[0]!.worker as unknown as { postMessage(m: unknown): void };
    const postMessage = worker.postMessage.bind(worker);
    worker.postMessage = (m: unknown) => {
      posted.push(m);
      postMessage(m);
    };
    assert.equal(slots[0]!.jobs.length, 1, 'the two behind wait for the end of this turn of the event loop');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(slots[0]!.jobs.length, 3, 'the worker holds the jobs behind its own');
    assert.deepEqual(
      posted.map((m) => (m as { jobs: { req: { direction: number } }[] }).jobs.map((j) => j.req.direction)),
      [[1, 2]],
      'both in one message',
    );
    assert.deepEqual([pool.stats().busy, pool.stats().queued], [1, 2]);
    await slots[0]!.worker.terminate();
    await assert.rejects(first, RenderCrashError);
    const [b, c] = await Promise.all([second, third]);
    assert.equal(b.frames, 2, 'the job behind the lost one is rendered, not failed');
    assert.equal(c.frames, 2);
    assert.equal(pool.stats().restarts, 1);
    assert.equal(pool.stats().queued, 0);
  } finally {
    await pool.close();
  }
});

test('render pool: a burst is shared between the workers, at most WORKER_DEPTH each, the rest in line; every job is answered', async () => {
  const { RenderPool, WORKER_DEPTH } = await import('../../../src/core/render/render-pool.js');
  const pool = await RenderPool.start({
    hotel: { generation: 1, snapshot: await scanAvatarHotel(kit) },
    workers: 2,
    maxQueue: 64,
    maxQueueWaitMs: 10_000,
    renderTimeoutMs: 10_000,
  });
  try {
    const count = 2 * WORKER_DEPTH + 7;
    const jobs = Array.from({ length: count }, (_, i) =>
      pool.render({
        figure: FIG,
        direction: i % 8,
        headDirection: (i + 3) % 8,
        size: 'm' as const,
        action: parseAction(''),
        gesture: '',
        headOnly: false,
        animated: false,
        frames: 0,
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    const slots = (pool as unknown as { slots: { jobs: unknown[] }[] }).slots;
    const held = slots.map((s) => s.jobs.length);
    assert.ok(
      held.every((n) => n <= WORKER_DEPTH),
      `each worker holds at most ${WORKER_DEPTH}: ${held}`,
    );
    assert.ok(Math.abs(held[0]! - held[1]!) <= 1, `shared evenly: ${held}`);
    assert.equal(pool.stats().queued, count - 2, 'all but the two being rendered wait');
    const out = await Promise.all(jobs);
    assert.equal(out.length, count);
    for (const o of out) assert.equal(o.frames, 1);
    assert.equal(pool.stats().queued, 0);
  } finally {
    await pool.close();
  }
});

test('memory budget: an evicted image is rendered again, never served stale from the socket fast path', async () => {
  const a = `/avatar.png?figure=${FIG}&size=m&direction=2`;
  const b = `/avatar.png?figure=${FIG}&size=m&direction=4`;
  // A budget with room for either image but not both (each entry costs its bytes plus a fixed overhead).
  const sizes = [(await image(a)).body.length, (await image(b)).body.length];
  const budget = Math.max(...sizes) + ENTRY_OVERHEAD + 16;
  const s = await start({ memoryCacheBytes: budget });
  const first = await image(a, s.url);
  assert.equal((await image(a, s.url)).res.headers.get('x-imager-cache'), 'memory');
  await image(b, s.url);
  const again = await image(a, s.url);
  assert.equal(again.res.headers.get('x-imager-cache'), 'render', 'a was evicted by b');
  assert.deepEqual(again.body, first.body, 'and renders to the same bytes');
  const stats = s.cache.stats().memory;
  assert.ok(stats.bytes <= budget, `${stats.bytes} bytes within the ${budget}-byte budget`);
});
