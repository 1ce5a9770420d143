// The badge routes over a real socket, on the sample kit: the URL forms (extension, hash, ?b=), the
// headers a page and a CDN depend on, the methods, the 404/400 answers and their reasons, the caches
// (memory, disk, shared) under the data's identity, badges off, the options, the debug page, a reload.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSampleKit, writeSampleKit } from '../../../src/samplekit/index.js';
import { startAvatarService, type AvatarServiceInstance } from '../../../src/server/imager.js';
import { type AvatarServiceConfig } from '../../../src/core/avatar/config.js';
import { MemorySharedStore } from '../../../src/core/cache/shared-store.js';
import { type OpenAvatarServiceOptions } from '../../../src/server/imager.js';
import { decodeImage } from '../../../src/imaging/codec.js';
import { readGif } from '../../helpers/gif-reader.js';
import { deadBase, testAvatarConfig } from '../avatar/fixtures.js';

const IMMUTABLE = 'public, max-age=31536000, immutable, stale-while-revalidate=86400';
const CODE = 'b03034s04094s02110s03118';
const HASH = 'a8a35b3ed8e01c8a7bcb1f6c6cb8d1ea';

let scratch: string;
let kit: string;
let userApi: string;
let svc: AvatarServiceInstance & { url: string };
const started: (AvatarServiceInstance & { url: string })[] = [];

async function start(assetsDir: string, over: Partial<AvatarServiceConfig> = {}, opts: OpenAvatarServiceOptions = {}) {
  const s = await startAvatarService(testAvatarConfig(assetsDir, userApi, over), opts);
  started.push(s);
  return s;
}

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'badge-http-'));
  kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  userApi = await deadBase();
  svc = await start(kit);
});

after(async () => {
  for (const s of started) await s.close();
  await rm(scratch, { recursive: true, force: true });
});

async function get(path: string, init: RequestInit = {}, base = svc.url) {
  const res = await fetch(base + path, init);
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

test('200 image/png: transparent 39×39, immutable Cache-Control, ETag, CORS, one frame', async () => {
  const { res, body } = await get(`/habbo-imaging/badge/${CODE}.png`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/png');
  assert.equal(res.headers.get('cache-control'), IMMUTABLE);
  assert.match(res.headers.get('etag')!, /^"[A-Za-z0-9_-]{32}"$/);
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  assert.match(res.headers.get('access-control-expose-headers')!, /etag/);
  assert.equal(res.headers.get('x-imager-frames'), '1');
  const img = await decodeImage(body);
  assert.deepEqual([img.width, img.height], [39, 39]);
  assert.equal(img.data[3], 0, 'the corner is transparent');
});

test('.gif answers a one-frame GIF of the same picture; no extension is PNG', async () => {
  const gif = await get(`/habbo-imaging/badge/${CODE}.gif`);
  assert.equal(gif.res.status, 200);
  assert.equal(gif.res.headers.get('content-type'), 'image/gif');
  const parsed = readGif(gif.body);
  assert.equal(parsed.frames.length, 1);
  assert.deepEqual([parsed.width, parsed.height], [39, 39]);
  const plain = await get(`/habbo-imaging/badge/${CODE}`);
  const png = await get(`/habbo-imaging/badge/${CODE}.png`);
  assert.equal(plain.res.headers.get('content-type'), 'image/png');
  assert.ok(plain.body.equals(png.body));
  assert.equal((await get(`/habbo-imaging/badge/${CODE}.GIF`)).res.headers.get('content-type'), 'image/gif');
});

test('the official hash, ?b= (with or without the slash), a long-form spelling and cache-busters all give the same bytes and entry', async () => {
  const ref = await get(`/habbo-imaging/badge/${CODE}.png`);
  for (const path of [
    `/habbo-imaging/badge/${CODE}${HASH}.png`,
    `/habbo-imaging/badge/?b=${CODE}`,
    `/habbo-imaging/badge?b=${CODE}.png`,
    `/habbo-imaging/badge/?b=${CODE}${HASH}&x=1`,
    '/habbo-imaging/badge/b003034s004094s002110s003118.png',
    `/habbo-imaging/badge/${CODE}.png?cb=${Date.now()}`,
  ]) {
    const { res, body } = await get(path);
    assert.equal(res.status, 200, path);
    assert.ok(body.equals(ref.body), path);
    assert.equal(res.headers.get('etag'), ref.res.headers.get('etag'), path);
    assert.equal(res.headers.get('x-imager-cache'), 'memory', path);
  }
  // the path's code wins over b=
  assert.ok((await get(`/habbo-imaging/badge/${CODE}.png?b=b01014`)).body.equals(ref.body));
});

test('HEAD: the headers of GET and no body; If-None-Match: 304', async () => {
  const got = await get(`/habbo-imaging/badge/${CODE}.png`);
  const head = await get(`/habbo-imaging/badge/${CODE}.png`, { method: 'HEAD' });
  assert.equal(head.res.status, 200);
  assert.equal(head.body.length, 0);
  assert.equal(head.res.headers.get('content-length'), String(got.body.length));
  assert.equal(head.res.headers.get('etag'), got.res.headers.get('etag'));
  const etag = got.res.headers.get('etag')!;
  const again = await get(`/habbo-imaging/badge/${CODE}.png`, { headers: { 'if-none-match': etag } });
  assert.equal(again.res.status, 304);
  assert.equal(again.body.length, 0);
  assert.equal(again.res.headers.get('cache-control'), IMMUTABLE);
});

test('OPTIONS is the CORS preflight; other methods are 405 with Allow', async () => {
  const pre = await get(`/habbo-imaging/badge/${CODE}.png`, {
    method: 'OPTIONS',
    headers: { 'access-control-request-headers': 'if-none-match' },
  });
  assert.equal(pre.res.status, 204);
  assert.equal(pre.res.headers.get('access-control-allow-origin'), '*');
  assert.equal(pre.res.headers.get('access-control-allow-methods'), 'GET, HEAD, OPTIONS');
  assert.equal(pre.res.headers.get('access-control-allow-headers'), 'if-none-match');
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
    const r = await get(`/habbo-imaging/badge/${CODE}.png`, {
      method,
      body: method === 'DELETE' ? undefined : '{"a":1}',
    });
    assert.equal(r.res.status, 405, method);
    assert.equal(r.res.headers.get('allow'), 'GET, HEAD, OPTIONS');
    assert.equal(r.res.headers.get('access-control-allow-origin'), '*');
  }
});

test('not a badge code, nothing to draw, a bad extension: 404 text/plain with the reason; over 20 parts: 400', async () => {
  const cases: [string, number, RegExp][] = [
    ['/habbo-imaging/badge/', 404, /no badge code: use \/habbo-imaging\/badge\/<code>\.png/],
    ['/habbo-imaging/badge/?b=', 404, /no badge code/],
    ['/habbo-imaging/badge/hello.png', 404, /"hello" is not a badge code: it does not start with a part/],
    ['/habbo-imaging/badge/b051.gif', 404, /part "b051" has 3 digits/],
    ['/habbo-imaging/badge/b05X.gif', 404, /part "b05X" is not a Shockwave-era part/],
    ['/habbo-imaging/badge-fill/', 404, /no badge code: use \/habbo-imaging\/badge-fill\/<code>\.png/],
    ['/habbo-imaging/badge-fill/hello.gif', 404, /"hello" is not a badge code/],
    ['/habbo-imaging/badge-fill/b99114.gif', 404, /nothing to draw for b99114/],
    ['/habbo-imaging/badge/b05114.jpg', 404, /unsupported extension \.jpg: badges are \.png or \.gif/],
    ['/habbo-imaging/badge/b99114.png', 404, /nothing to draw for b99114: part 0 \(b99114\): the table has no base 99/],
    ['/habbo-imaging/badge/s08114', 404, /no image badgepart_kit_symbol_missing for symbol 8/],
    ['/habbo-imaging/badge/%E0%A4%A.png', 404, /malformed %-escape/],
    ['/habbo-imaging/badge/b05114/s05114', 404, /a badge code has no "\/"/],
    [`/habbo-imaging/badge/${'s01014'.repeat(21)}.png`, 400, /at most 20 parts; this code has 21/],
  ];
  for (const [path, status, reason] of cases) {
    const { res, body } = await get(path);
    assert.equal(res.status, status, path);
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8', path);
    assert.equal(res.headers.get('access-control-allow-origin'), '*', path);
    assert.match(body.toString('utf8'), reason, path);
  }
  // 20 parts is fine
  assert.equal((await get(`/habbo-imaging/badge/${'s01014'.repeat(20)}.png`)).res.status, 200);
  // unknown parts beside a drawable one draw what the client draws: the drawable one
  const mixed = await get('/habbo-imaging/badge/b99114s01014.png');
  const star = await get('/habbo-imaging/badge/s01014.png');
  assert.equal(mixed.res.status, 200);
  assert.ok(mixed.body.equals(star.body));
});

test('/healthz reports the badge data; /render/badge lists every part, image, colour and cell', async () => {
  const health = (await (await fetch(svc.url + '/healthz')).json()) as { badges: Record<string, unknown> };
  assert.equal(health.badges.enabled, true);
  assert.match(String(health.badges.identity), /^[0-9a-f]{16}$/);
  assert.equal(health.badges.bases, 5);
  assert.equal(health.badges.images, 19);
  assert.match(String(health.badges.table), /gamedata\/guilds_elements\.csv$/);
  const page = await get(`/render/badge/${CODE}.gif`);
  assert.equal(page.res.status, 200);
  assert.equal(page.res.headers.get('content-type'), 'text/html; charset=utf-8');
  const html = page.body.toString('utf8');
  for (const want of [
    'badgepart_kit_base_shield_part2',
    'badgepart_kit_base_shield_part1',
    'untinted',
    '#84de00',
    '#ff2d2d',
    'cell (1, 1)',
    'cell (0, 0)',
    'cell (2, 2)',
    'data:image/gif;base64,',
  ]) {
    assert.ok(html.includes(want), want);
  }
  const byQuery = await get(`/render/badge?b=s08114<script>`);
  assert.equal(byQuery.res.status, 404);
  assert.ok(!byQuery.body.toString().includes('<script>'), 'escaped');
  const skipped = await get('/render/badge/b01014s08114');
  assert.match(skipped.body.toString(), /no image badgepart_kit_symbol_missing/);
  const post = await get('/render/badge/b01014', { method: 'POST' });
  assert.equal(post.res.status, 405, 'as every avatar path');
  assert.equal(post.res.headers.get('allow'), 'GET, HEAD, OPTIONS');
});

test('badge images live in the disk cache and come back from it after a restart with the same ETag', async () => {
  const dir = join(scratch, 'disk-cache');
  const a = await start(kit, { diskCacheDir: dir });
  const first = await get(`/habbo-imaging/badge/${CODE}.gif`, {}, a.url);
  assert.equal(first.res.headers.get('x-imager-cache'), 'render');
  await a.close();
  const b = await start(kit, { diskCacheDir: dir });
  const second = await get(`/habbo-imaging/badge/${CODE}.gif`, {}, b.url);
  assert.equal(second.res.headers.get('x-imager-cache'), 'disk');
  assert.equal(second.res.headers.get('etag'), first.res.headers.get('etag'));
  assert.equal(second.res.headers.get('content-type'), 'image/gif');
  assert.ok(second.body.equals(first.body));
});

test('instances sharing a store (Redis) share badge images', async () => {
  const store = new MemorySharedStore();
  const a = await start(kit, {}, { sharedStore: store });
  const b = await start(kit, {}, { sharedStore: store });
  const one = await get(`/habbo-imaging/badge/${CODE}.png`, {}, a.url);
  assert.equal(one.res.headers.get('x-imager-cache'), 'render');
  let two = await get(`/habbo-imaging/badge/${CODE}.png`, {}, b.url);
  for (let i = 0; i < 50 && two.res.headers.get('x-imager-cache') !== 'redis'; i++) {
    await new Promise((r) => setTimeout(r, 20)); // the write is in the background
    two = await get(`/habbo-imaging/badge/${CODE}.png?try=${i}`, {}, b.url);
  }
  assert.equal(two.res.headers.get('x-imager-cache'), 'redis');
  assert.equal(two.res.headers.get('etag'), one.res.headers.get('etag'));
  assert.ok(two.body.equals(one.body));
});

test('no table: badges are off, the route says why and /healthz too; the avatar route is unaffected', async () => {
  const bare = join(scratch, 'no-table');
  await cp(kit, bare, { recursive: true });
  await rm(join(bare, 'gamedata/guilds_elements.csv'));
  const s = await start(bare);
  const { res, body } = await get(`/habbo-imaging/badge/${CODE}.png`, {}, s.url);
  assert.equal(res.status, 404);
  assert.match(
    body.toString(),
    /badges are off on this server: no badge element table: looked for .*gamedata\/guilds_elements\.csv/,
  );
  const health = (await (await fetch(s.url + '/healthz')).json()) as {
    status: string;
    badges: Record<string, unknown>;
  };
  assert.equal(health.status, 'ok');
  assert.equal(health.badges.enabled, false);
  assert.match(String(health.badges.reason), /no badge element table/);
  assert.equal((await get('/avatar.png?figure=hd-180-1', {}, s.url)).res.status, 200);
});

test('--badge-elements and --badge-parts: a table (CSV or JSON) and parts kept outside the asset folder', async () => {
  const bare = join(scratch, 'outside');
  await cp(kit, bare, { recursive: true });
  const parts = join(scratch, 'parts');
  await mkdir(parts, { recursive: true });
  await rename(join(bare, 'bundled/generic/group_badge.nitro'), join(parts, 'group_badge.nitro'));
  const table = join(scratch, 'elements.csv');
  await rename(join(bare, 'gamedata/guilds_elements.csv'), table);
  const s = await start(bare, { badgeElementsFile: table, badgePartsDir: parts });
  const { res, body } = await get(`/habbo-imaging/badge/${CODE}.png`, {}, s.url);
  assert.equal(res.status, 200);
  assert.ok(body.equals((await get(`/habbo-imaging/badge/${CODE}.png`)).body));
  // The same table as JSON rows.
  const rows = (await readFile(table, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => {
      const [id, firstvalue, secondvalue, type, enabled] = line.split(',').map((c) => c.replace(/"/g, ''));
      return { id: Number(id), firstvalue, secondvalue, type, enabled };
    });
  const json = join(scratch, 'elements.json');
  await writeFile(json, JSON.stringify(rows));
  const j = await start(bare, { badgeElementsFile: json, badgePartsDir: parts });
  assert.ok((await get(`/habbo-imaging/badge/${CODE}.png`, {}, j.url)).body.equals(body));
  // A table or folder named but missing stops the start, saying which.
  await assert.rejects(
    start(bare, { badgeElementsFile: join(scratch, 'nope.csv') }),
    /the badge element table .*nope\.csv \(--badge-elements, HOTEL_IMAGER_AVATAR_BADGE_ELEMENTS\) is not a file/,
  );
  await assert.rejects(
    start(bare, { badgePartsDir: join(scratch, 'nope') }),
    /the badge parts folder .*nope \(--badge-parts, HOTEL_IMAGER_AVATAR_BADGE_PARTS\) is not a folder/,
  );
});

test('the Flash layout serves the same bytes; the data identity is in the ETag, not only in the bytes', async () => {
  const flashKit = join(scratch, 'flash');
  await writeSampleKit(flashKit, { layout: 'flash' });
  const f = await start(flashKit);
  const a = await get(`/habbo-imaging/badge/${CODE}.png`);
  const b = await get(`/habbo-imaging/badge/${CODE}.png`, {}, f.url);
  assert.ok(a.body.equals(b.body));
  assert.notEqual(a.res.headers.get('etag'), b.res.headers.get('etag'), 'other files, another identity');
});

test('a reload swaps in new data: new identity, new ETag, new pixels; the old entry is never served for it', async () => {
  const copy = join(scratch, 'reload');
  await cp(kit, copy, { recursive: true });
  const s = await start(copy);
  const before = await get('/habbo-imaging/badge/b01054.png', {}, s.url);
  const table = join(copy, 'gamedata/guilds_elements.csv');
  await writeFile(
    table,
    (await readFile(table, 'utf8')).replace('"5","50c1fb",,"base_color"', '"5","000080",,"base_color"'),
  );
  const loaded = await s.badges.reload();
  assert.ok(loaded.ok);
  const afterReload = await get('/habbo-imaging/badge/b01054.png', {}, s.url);
  assert.equal(afterReload.res.headers.get('x-imager-cache'), 'render');
  assert.notEqual(afterReload.res.headers.get('etag'), before.res.headers.get('etag'));
  assert.ok(!afterReload.body.equals(before.body));
  assert.ok(s.badges.watchPaths().includes(table));
  assert.ok(
    s.badges.watchPaths().some((f) => f.endsWith('c_images/Badgeparts')),
    'where Flash parts would be',
  );
  // Take the table away: badges go off on the next reload, with the reason.
  await rm(table);
  assert.equal((await s.badges.reload()).ok, false);
  assert.equal((await get('/habbo-imaging/badge/b01054.png', {}, s.url)).res.status, 404);
});

test('/habbo-imaging/badge-fill/<code>.gif: the badge on opaque white, its own entry and ETag, cached like a badge', async () => {
  const fill = await get(`/habbo-imaging/badge-fill/${CODE}.gif`);
  assert.equal(fill.res.status, 200);
  assert.equal(fill.res.headers.get('content-type'), 'image/gif');
  assert.equal(fill.res.headers.get('cache-control'), IMMUTABLE);
  assert.equal(fill.res.headers.get('access-control-allow-origin'), '*');
  const plain = await get(`/habbo-imaging/badge/${CODE}.gif`);
  assert.notEqual(fill.res.headers.get('etag'), plain.res.headers.get('etag'));
  const gif = readGif(fill.body);
  assert.deepEqual([gif.width, gif.height], [39, 39]);
  const png = await get(`/habbo-imaging/badge-fill/${CODE}.png`);
  assert.equal(png.res.headers.get('content-type'), 'image/png');
  const img = await decodeImage(png.body);
  assert.deepEqual([...img.data.subarray(0, 4)], [255, 255, 255, 255], 'the corner is opaque white');
  // ?b= and a hash reach the same entry; a second request is a memory hit with the same ETag
  const again = await get(`/habbo-imaging/badge-fill/?b=${CODE}${HASH}.gif`);
  assert.ok(again.body.equals(fill.body));
  const hit = await get(`/habbo-imaging/badge-fill/${CODE}.gif`);
  assert.equal(hit.res.headers.get('x-imager-cache'), 'memory');
  assert.equal(hit.res.headers.get('etag'), fill.res.headers.get('etag'));
  assert.equal(
    (
      await get(`/habbo-imaging/badge-fill/${CODE}.gif`, {
        headers: { 'if-none-match': fill.res.headers.get('etag')! },
      })
    ).res.status,
    304,
  );
  assert.equal((await get(`/habbo-imaging/badge-fill/${CODE}.gif`, { method: 'OPTIONS' })).res.status, 204);
  assert.equal((await get(`/habbo-imaging/badge-fill/${CODE}.gif`, { method: 'POST' })).res.status, 405);
});

test('the classic CMS default b0503Xs09114s05013s05015 (Shockwave-era code) draws, PNG and GIF', async () => {
  for (const ext of ['png', 'gif']) {
    const { res, body } = await get(`/habbo-imaging/badge/b0503Xs09114s05013s05015.${ext}`);
    assert.equal(res.status, 200, ext);
    assert.equal(res.headers.get('content-type'), `image/${ext}`);
    assert.equal(res.headers.get('cache-control'), IMMUTABLE);
    assert.ok(body.length > 0);
  }
  // the client form of the same digits is another picture, under another key
  const old = await get('/habbo-imaging/badge/b0503Xs09114s05013s05015.png');
  const client = await get('/habbo-imaging/badge/b05030s09114s05013s05015.png');
  assert.notEqual(old.res.headers.get('etag'), client.res.headers.get('etag'));
});
