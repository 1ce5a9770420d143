// Drop-in by host swap: the classic imager's paths (/habbo-imaging/avatarimage[.png|.gif],
// /habbo-imaging/head[.png|.gif]) are the /avatar.png route. Each alias answers the bytes and headers of
// the /avatar.png URL that spells out what its path fixes, from the same cache entry, with the same
// fallback, preflight and 405; the path's parameter wins over the query's.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSampleKit } from '../../../src/samplekit/index.js';
import { startAvatarService, type AvatarServiceInstance } from '../../../src/server/imager.js';
import { withFixedParameters, AVATAR_ROUTE_PATHS } from '../../../src/server/avatar/avatar-handler.js';
import { readGif } from '../../helpers/gif-reader.js';
import { startFakeUserApi, testAvatarConfig, TEST_FALLBACK, type FakeApi } from './fixtures.js';

const FIG = 'hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40';
const HEADERS = [
  'content-type',
  'content-length',
  'etag',
  'cache-control',
  'x-imager-frames',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'location',
  'x-imager-fallback',
];

let scratch: string;
let api: FakeApi;
let svc: AvatarServiceInstance & { url: string };

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'avatar-upstream-'));
  const kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  api = await startFakeUserApi({ Bob: FIG }, {});
  svc = await startAvatarService(testAvatarConfig(kit, api.base));
});

after(async () => {
  await svc.close();
  await api.close();
  await rm(scratch, { recursive: true, force: true });
});

async function fetchRaw(path: string, init: RequestInit = {}) {
  const res = await fetch(svc.url + path, { redirect: 'manual', ...init });
  const body = Buffer.from(await res.arrayBuffer());
  const headers = Object.fromEntries(HEADERS.map((h) => [h, res.headers.get(h)]));
  return { status: res.status, headers, body, cache: res.headers.get('x-imager-cache') };
}

const memoryEntries = () => svc.cache.stats().memory.entries;

/** The alias first (it renders), then the /avatar.png URL: same status, headers and bytes, and no new cache entry. */
async function assertSameAnswer(alias: string, canonical: string) {
  const before = memoryEntries();
  const a = await fetchRaw(alias);
  const afterAlias = memoryEntries();
  const b = await fetchRaw(canonical);
  assert.equal(a.status, b.status, `${alias} vs ${canonical}`);
  if (a.status === 302 && a.headers['x-imager-fallback'] === 'render-failed') {
    // The failure is remembered under the key both URLs share.
    assert.equal(b.headers['x-imager-fallback'], 'render-failed-cached');
    b.headers['x-imager-fallback'] = 'render-failed';
    b.body = Buffer.from(b.body.toString().replace('render-failed-cached', 'render-failed'));
    b.headers['content-length'] = String(b.body.length);
  }
  assert.deepEqual(a.headers, b.headers, `${alias} vs ${canonical}`);
  assert.ok(a.body.equals(b.body), `${alias}: bytes differ from ${canonical}`);
  if (a.status === 200) {
    assert.equal(a.cache, 'render', `${alias} is the first request of its image`);
    assert.equal(b.cache, 'memory', `${canonical} is answered from the entry ${alias} made`);
    assert.equal(afterAlias, before + 1);
    assert.equal(memoryEntries(), afterAlias, 'one cache entry for both URLs');
  }
  return a;
}

test('the avatar route has the classic imager paths, and only those', () => {
  assert.deepEqual([...AVATAR_ROUTE_PATHS].sort(), [
    '/avatar',
    '/avatar.png',
    '/habbo-imaging/avatarimage',
    '/habbo-imaging/avatarimage/Alice.png',
    '/habbo-imaging/avatarimage.gif',
    '/habbo-imaging/avatarimage.png',
    '/habbo-imaging/head',
    '/habbo-imaging/head.gif',
    '/habbo-imaging/head.png',
  ]);
});

test('/habbo-imaging/avatarimage and .png: the /avatar.png answer, byte for byte, from the same cache entry', async () => {
  const cases: [string, string][] = [
    [
      `/habbo-imaging/avatarimage?figure=${FIG}&direction=3&head_direction=3&size=m&gesture=sml`,
      `/avatar.png?figure=${FIG}&direction=3&head_direction=3&size=m&gesture=sml`,
    ],
    [`/habbo-imaging/avatarimage.png?figure=${FIG}&direction=4&size=s`, `/avatar.png?figure=${FIG}&direction=4&size=s`],
    // An animated pose: an APNG, its own entry, the frame count header.
    [
      `/habbo-imaging/avatarimage?figure=${FIG}&action=wav&animated=1`,
      `/avatar.png?figure=${FIG}&action=wav&animated=1`,
    ],
    // GIF asked for in the query, as habbo.com's pages and the peers' imagers spell it.
    [
      `/habbo-imaging/avatarimage?figure=${FIG}&action=wav&img_format=gif`,
      `/avatar.png?figure=${FIG}&action=wav&img_format=gif`,
    ],
    // A user: resolved through the API, the user Cache-Control.
    ['/habbo-imaging/avatarimage?user=Bob&size=l', '/avatar.png?user=Bob&size=l'],
  ];
  for (const [alias, canonical] of cases) await assertSameAnswer(alias, canonical);
  const apng = await fetchRaw(`/habbo-imaging/avatarimage?figure=${FIG}&action=wav&animated=1`);
  assert.equal(apng.headers['x-imager-frames'], '2');
});

test('.gif is img_format=gif: the GIF answer and its cache entry, whatever img_format the query sends', async () => {
  const gif = await assertSameAnswer(
    `/habbo-imaging/avatarimage.gif?figure=${FIG}&action=wav&size=m`,
    `/avatar.png?figure=${FIG}&action=wav&size=m&img_format=gif`,
  );
  assert.equal(gif.headers['content-type'], 'image/gif');
  assert.equal(readGif(new Uint8Array(gif.body)).frames.length, 2);
  const overridden = await fetchRaw(`/habbo-imaging/avatarimage.gif?img_format=png&figure=${FIG}&action=wav&size=m`);
  assert.equal(overridden.headers['content-type'], 'image/gif');
  assert.ok(overridden.body.equals(gif.body));
  // A still pose is a still GIF.
  const still = await assertSameAnswer(
    `/habbo-imaging/avatarimage.gif?figure=${FIG}&direction=1`,
    `/avatar.png?img_format=gif&figure=${FIG}&direction=1`,
  );
  assert.equal(still.headers['x-imager-frames'], '1');
});

test('/habbo-imaging/head is headonly=1 (.png, .gif likewise), whatever headonly the query sends', async () => {
  const head = await assertSameAnswer(
    `/habbo-imaging/head?figure=${FIG}&direction=2&size=m`,
    `/avatar.png?figure=${FIG}&direction=2&size=m&headonly=1`,
  );
  const whole = await fetchRaw(`/avatar.png?figure=${FIG}&direction=2&size=m`);
  assert.ok(!head.body.equals(whole.body), 'a head is not the whole figure');
  const png = await fetchRaw(`/habbo-imaging/head.png?figure=${FIG}&direction=2&size=m&headonly=0`);
  assert.ok(png.body.equals(head.body));
  const gif = await assertSameAnswer(
    `/habbo-imaging/head.gif?figure=${FIG}&direction=4`,
    `/avatar.png?figure=${FIG}&direction=4&headonly=1&img_format=gif`,
  );
  assert.equal(gif.headers['content-type'], 'image/gif');
});

test('bad requests and fallbacks are the /avatar.png ones (400 text, the same 302 Location)', async () => {
  await assertSameAnswer('/habbo-imaging/avatarimage?size=m', '/avatar.png?size=m');
  const failed = await assertSameAnswer(
    '/habbo-imaging/avatarimage?figure=hd-99999999-1.ch-210-66&direction=9',
    '/avatar.png?figure=hd-99999999-1.ch-210-66&direction=9',
  );
  assert.equal(failed.status, 302);
  assert.equal(failed.headers['x-imager-fallback'], 'render-failed');
  const loc = new URL(failed.headers.location!);
  assert.equal(loc.origin + loc.pathname, TEST_FALLBACK);
  assert.equal(loc.searchParams.get('direction'), '1');
  // The fixed parameter reaches the upstream too: a GIF page gets a GIF from the fallback.
  const gif = await fetchRaw('/habbo-imaging/avatarimage.gif?figure=hd-99999998-1.ch-210-66');
  assert.equal(gif.status, 302);
  assert.equal(new URL(gif.headers.location!).searchParams.get('img_format'), 'gif');
});

test('HEAD, OPTIONS and other methods on every alias path answer as on /avatar.png', async () => {
  for (const path of AVATAR_ROUTE_PATHS) {
    const g = await fetchRaw(`${path}?figure=${FIG}&size=s`);
    assert.equal(g.status, 200, path);
    const h = await fetchRaw(`${path}?figure=${FIG}&size=s`, { method: 'HEAD' });
    assert.equal(h.status, 200, path);
    assert.equal(h.headers.etag, g.headers.etag, path);
    assert.equal(h.headers['content-length'], String(g.body.length), path);
    assert.equal(h.body.length, 0, path);
    const preflight = { origin: 'https://site.example', 'access-control-request-method': 'GET' };
    const o = await fetch(svc.url + path, { method: 'OPTIONS', headers: preflight });
    const ref = await fetch(svc.url + '/avatar.png', { method: 'OPTIONS', headers: preflight });
    assert.equal(o.status, 204, path);
    assert.deepEqual(
      [...o.headers].filter(([n]) => n.startsWith('access-control') || n === 'allow'),
      [...ref.headers].filter(([n]) => n.startsWith('access-control') || n === 'allow'),
      path,
    );
    const post = await fetchRaw(`${path}?figure=${FIG}`, { method: 'POST', body: 'x' });
    assert.equal(post.status, 405, path);
    assert.equal(post.headers['access-control-allow-origin'], '*');
  }
});

test('near-miss paths stay 404', async () => {
  for (const path of [
    '/habbo-imaging/avatarimage.jpg',
    '/habbo-imaging/avatarimagex',
    '/habbo-imaging/avatarimage/',
    '/habbo-imaging/',
    '/habbo-imaging/heads',
  ]) {
    const res = await fetchRaw(`${path}?figure=${FIG}`);
    assert.equal(res.status, 404, path);
  }
});

test("fixed parameters replace the query's own, every other pair keeps its bytes and order", () => {
  const gif = [['img_format', 'gif']] as const;
  assert.equal(withFixedParameters('figure=hd-180-1&size=m', []), 'figure=hd-180-1&size=m');
  assert.equal(withFixedParameters('', gif), 'img_format=gif');
  assert.equal(
    withFixedParameters('figure=a%2Eb&img_format=png&x=1&img%5Fformat=jpg', gif),
    'figure=a%2Eb&x=1&img_format=gif',
  );
  assert.equal(
    withFixedParameters('headonly=0&figure=f', [
      ['headonly', '1'],
      ['img_format', 'gif'],
    ]),
    'figure=f&headonly=1&img_format=gif',
  );
});
