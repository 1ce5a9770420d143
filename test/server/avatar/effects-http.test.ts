// effect= and dance= over a real socket on the sample kit (issue 16): cache-key separation from the
// plain request, unknown ids, the APNG loop and its frame count, /render's effect layers, the fallback.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSampleKit } from '../../../src/samplekit/index.js';
import { startAvatarService, type AvatarServiceInstance } from '../../../src/server/imager.js';
import { startFakeUserApi, testAvatarConfig, TEST_FALLBACK, type FakeApi } from './fixtures.js';

const FIG = 'hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40';
let scratch: string;
let api: FakeApi;
let svc: AvatarServiceInstance & { url: string };

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'avatar-fx-http-'));
  const kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  api = await startFakeUserApi({}, {});
  svc = await startAvatarService(testAvatarConfig(kit, api.base));
});

after(async () => {
  await svc?.close();
  await api?.close();
  await rm(scratch, { recursive: true, force: true });
});

async function get(path: string) {
  const res = await fetch(svc.url + path, { redirect: 'manual' });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

test('effect=1 and no effect are two cache entries with different bytes; a repeat is a hit', async () => {
  const plain = await get(`/avatar.png?figure=${FIG}&size=m`);
  const fx = await get(`/avatar.png?figure=${FIG}&size=m&effect=1`);
  assert.equal(plain.res.status, 200);
  assert.equal(fx.res.status, 200);
  assert.equal(fx.res.headers.get('x-imager-cache'), 'render', 'not served from the plain entry');
  assert.ok(!plain.body.equals(fx.body));
  assert.notEqual(plain.res.headers.get('etag'), fx.res.headers.get('etag'));
  const again = await get(`/avatar.png?figure=${FIG}&size=m&effect=1`);
  assert.equal(again.res.headers.get('x-imager-cache'), 'memory');
  assert.ok(again.body.equals(fx.body));
});

test('an unknown effect id draws the plain avatar (its own cache entry, the same bytes)', async () => {
  const plain = await get(`/avatar.png?figure=${FIG}&size=l&direction=3`);
  const unknown = await get(`/avatar.png?figure=${FIG}&size=l&direction=3&effect=4242`);
  assert.equal(unknown.res.status, 200);
  assert.equal(unknown.res.headers.get('x-imager-cache'), 'render');
  assert.ok(unknown.body.equals(plain.body));
});

test('dance=4&animated=1 is a 16-frame APNG; dance=4 without animated is its first frame', async () => {
  const loop = await get(`/avatar.png?figure=${FIG}&dance=4&animated=1`);
  assert.equal(loop.res.headers.get('content-type'), 'image/png');
  assert.equal(loop.res.headers.get('x-imager-frames'), '16');
  const still = await get(`/avatar.png?figure=${FIG}&dance=4`);
  assert.equal(still.res.headers.get('x-imager-frames'), '1');
  const viaAction = await get(`/avatar.png?figure=${FIG}&action=dance.4&animated=1`);
  assert.ok(viaAction.body.equals(loop.body));
  // An effect that does not animate: animated=1 shares the still's entry, as any still pose does.
  const prop = await get(`/avatar.png?figure=${FIG}&effect=1&animated=1`);
  const propStill = await get(`/avatar.png?figure=${FIG}&effect=1`);
  assert.equal(prop.res.headers.get('x-imager-frames'), '1');
  assert.ok(prop.body.equals(propStill.body));
});

test('/render lists the effect layers', async () => {
  const res = await fetch(`${svc.url}/render?figure=${FIG}&effect=1`);
  const html = await res.text();
  assert.equal(res.status, 200);
  assert.match(html, /<th>effect<\/th>/);
  assert.match(html, /KitPedestal/);
  assert.match(html, /h_std_fx1_1_1_0_0/);
});

test('the fallback forwards effect and dance', async () => {
  const r = await get(`/avatar.png?figure=hd-99998-1&effect=2&dance=3`);
  assert.equal(r.res.status, 302);
  const loc = new URL(r.res.headers.get('location')!);
  assert.equal(loc.origin + loc.pathname, TEST_FALLBACK);
  assert.equal(loc.searchParams.get('effect'), '2');
  assert.equal(loc.searchParams.get('dance'), '3');
  const plain = await get(`/avatar.png?figure=hd-99998-1`);
  assert.equal(new URL(plain.res.headers.get('location')!).searchParams.has('effect'), false);
});
