// The avatar service over a real socket, the §4.1/§4.2 rows avatar-http.test.ts leaves out (gesture,
// frames, boolean spellings, held items and aliases, unknown tokens, head_direction and head turn), the
// fallback reasons that need a forced failure (queue wait, unloadable asset, render timeout, a worker
// crash), what cache keys and ETags depend on (what each render reads of the hotel), and the user
// lookup's edge cases.
// Every comparison is on the response bytes, and each "same bytes" check has a "different bytes" partner
// so it cannot pass by a parameter simply being ignored.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readNitroBundle, writeNitroBundle } from '../../../src/formats/nitro-container.js';
import { ensureSampleKit } from '../../../src/samplekit/index.js';
import { type AvatarServiceConfig } from '../../../src/core/avatar/config.js';
import {
  startAvatarService,
  type AvatarServiceInstance,
  type OpenAvatarServiceOptions,
} from '../../../src/server/imager.js';
import { pngFrameCount } from '../../../src/core/cache/png-frames.js';
import { startFakeUserApi, testAvatarConfig, TEST_FALLBACK, type FakeApi } from './fixtures.js';

const FALLBACK = TEST_FALLBACK;
const FIG = 'hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40';

let scratch: string;
let kit: string;
let api: FakeApi;
let svc: AvatarServiceInstance & { url: string };
const started: (AvatarServiceInstance & { url: string })[] = [];

async function start(over: Partial<AvatarServiceConfig> = {}, opts: OpenAvatarServiceOptions = {}, assetsDir = kit) {
  const s = await startAvatarService(testAvatarConfig(assetsDir, api.base, over), opts);
  started.push(s);
  return s;
}

async function stop(s: AvatarServiceInstance): Promise<void> {
  started.splice(started.indexOf(s as AvatarServiceInstance & { url: string }), 1);
  await s.close();
}

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'avatar-conf-'));
  kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  api = await startFakeUserApi({ Bob: FIG });
  svc = await start();
});

after(async () => {
  for (const s of started.splice(0)) await s.close();
  await api.close();
  await rm(scratch, { recursive: true, force: true });
});

const get = (base: string, path: string) => fetch(base + path, { redirect: 'manual' });

async function image(query: string, base = svc.url) {
  const res = await get(base, `/avatar.png?figure=${FIG}&${query}`);
  const body = Buffer.from(await res.arrayBuffer());
  assert.equal(res.status, 200, `${query} → ${res.status} ${res.headers.get('x-imager-fallback') ?? ''}`);
  return { res, body, frames: Number(res.headers.get('x-imager-frames')) };
}

const bytes = async (query: string, base = svc.url) => (await image(query, base)).body;

async function same(a: string, b: string): Promise<void> {
  assert.ok((await bytes(a)).equals(await bytes(b)), `${a} and ${b} should be the same image`);
}
async function differ(a: string, b: string): Promise<void> {
  assert.ok(!(await bytes(a)).equals(await bytes(b)), `${a} and ${b} should be different images`);
}

function pngSize(body: Buffer): [number, number] {
  return [body.readUInt32BE(16), body.readUInt32BE(20)];
}

function assertFallback(res: Response, reason: string): URL {
  assert.equal(res.status, 302, `expected a 302 ${reason}, got ${res.status}`);
  assert.equal(res.headers.get('x-imager-fallback'), reason);
  assert.equal(res.headers.get('cache-control'), 'public, max-age=60');
  const loc = new URL(res.headers.get('location')!);
  assert.equal(loc.origin + loc.pathname, FALLBACK);
  return loc;
}

// ---- §4.1 rows ----

test('gesture: nor and unknown values draw std; spk animates (2 frames with animated=1)', async () => {
  await differ('size=m&gesture=sml', 'size=m&gesture=std');
  await same('size=m&gesture=nor', 'size=m&gesture=std');
  await same('size=m&gesture=wink', 'size=m&gesture=std');
  await same('size=m&gesture=', 'size=m');
  await same('size=m&gesture=SML', 'size=m&gesture=sml');
  const spk = await image('size=m&gesture=spk&animated=1');
  assert.equal(spk.frames, 2);
  assert.equal(pngFrameCount(spk.body), 2);
  const still = await image('size=m&gesture=spk');
  assert.equal(still.frames, 1, 'without animated: a still');
  assert.equal((await image('size=m&gesture=nor&animated=1')).frames, 1, 'nor does not animate');
});

test('frames: 0 or absent is the whole loop, 1-24 caps, above 24 clamps to 24', async () => {
  const whole = await image('size=m&action=wav&animated=1');
  assert.equal(whole.frames, 2);
  assert.equal(pngFrameCount(whole.body), 2);
  await same('size=m&action=wav&animated=1&frames=0', 'size=m&action=wav&animated=1');
  await same('size=m&action=wav&animated=1&frames=-3', 'size=m&action=wav&animated=1');
  await same('size=m&action=wav&animated=1&frames=junk', 'size=m&action=wav&animated=1');
  const one = await image('size=m&action=wav&animated=1&frames=1');
  assert.equal(one.frames, 1);
  assert.equal(pngFrameCount(one.body), 1);
  for (const n of ['24', '25', '1000', '99999999999999999999']) {
    const r = await image(`size=m&action=wav&animated=1&frames=${n}`);
    assert.equal(r.frames, 2, `frames=${n}`);
    assert.ok(r.body.equals(whole.body), `frames=${n} is the whole 2-frame loop`);
  }
  // frames without animated: a still.
  assert.equal((await image('size=m&action=wav&frames=2')).frames, 1);
});

test('booleans: 1/true/yes/on (any case) are true; 0, false, no, off, empty and junk are false', async () => {
  const body = [64, 110];
  const head = [54, 62];
  for (const v of ['1', 'true', 'yes', 'on', 'TRUE', 'On']) {
    assert.deepEqual(pngSize(await bytes(`size=m&headonly=${v}`)), head, `headonly=${v}`);
    assert.equal((await image(`size=m&action=wav&animated=${v}`)).frames, 2, `animated=${v}`);
  }
  for (const v of ['0', 'false', 'no', 'off', '', 'junk', '2', 'y']) {
    assert.deepEqual(pngSize(await bytes(`size=m&headonly=${v}`)), body, `headonly=${v}`);
    assert.equal((await image(`size=m&action=wav&animated=${v}`)).frames, 1, `animated=${v}`);
  }
});

test('held items: crr/drk/sig draw the sprite id; carry/use/sign are the same tokens', async () => {
  await differ('size=m&action=crr=1', 'size=m');
  await differ('size=m&action=crr=1', 'size=m&action=crr=6');
  await differ('size=m&action=drk=2', 'size=m&action=drk=1');
  await differ('size=m&action=sig=5', 'size=m&action=sig=6');
  await same('size=m&action=carry=1', 'size=m&action=crr=1');
  await same('size=m&action=use=2', 'size=m&action=drk=2');
  await same('size=m&action=sign=5', 'size=m&action=sig=5');
  await same('size=m&action=CARRY=3', 'size=m&action=crr=3');
  // The first of a repeated hand-item token wins, whatever spelling.
  await same('size=m&action=crr=1,carry=6', 'size=m&action=crr=1');
});

test('sig ids: 0-99999 is the range; an id without a sprite is the sign pose with an empty hand, out of range is std', async () => {
  const std = await bytes('size=m');
  const sig17 = await bytes('size=m&action=sig=17');
  const sig18 = await bytes('size=m&action=sig=18');
  assert.ok(!sig18.equals(std), 'sig=18: the arm is raised (sig pose), not std');
  assert.ok(!sig18.equals(sig17), 'sig=18 has no board; sig=17 has one');
  for (const id of ['99', '12345', '99999'])
    assert.ok((await bytes(`size=m&action=sig=${id}`)).equals(sig18), `sig=${id}: empty hand`);
  for (const id of ['100000', '-1', 'abc', '', '1.5'])
    assert.ok((await bytes(`size=m&action=sig=${id}`)).equals(std), `sig=${id}: empty-handed std`);
  // Out of range next to another token: only the item token is dropped.
  await same('size=m&action=sig=100000,wav', 'size=m&action=wav');
});

test('unknown action tokens are dropped; none left is std', async () => {
  await same('size=m&action=fly', 'size=m&action=std');
  await same('size=m&action=fly,swim,,', 'size=m');
  await same('size=m&action=fly,wav', 'size=m&action=wav');
  await same('size=m&action=WAV', 'size=m&action=wav');
  await differ('size=m&action=wav', 'size=m');
});

test('head_direction: independent of the body, wraps like direction, non-numeric follows direction', async () => {
  await differ('size=m&direction=2&head_direction=4', 'size=m&direction=2');
  await differ('size=m&direction=2&head_direction=3', 'size=m&direction=2&head_direction=4');
  await same('size=m&direction=2&head_direction=12', 'size=m&direction=2&head_direction=4');
  await same('size=m&direction=2&head_direction=-4', 'size=m&direction=2&head_direction=4');
  await same('size=m&direction=2&head_direction=x', 'size=m&direction=2');
  await same('size=m&direction=3', 'size=m&direction=3&head_direction=3');
});

test('an action that prevents head turn (blow, laugh, drk, sleep per the actions data) keeps the head at the body direction', async () => {
  // Control: waving does not prevent head turn, so head_direction shows.
  await differ('size=m&action=wav&direction=2&head_direction=4', 'size=m&action=wav&direction=2');
  for (const action of ['blow', 'laugh', 'drk=1', 'sleep', 'sit,blow']) {
    await same(`size=m&action=${action}&direction=2&head_direction=4`, `size=m&action=${action}&direction=2`);
    await same(`size=m&action=${action}&direction=3&head_direction=1`, `size=m&action=${action}&direction=3`);
  }
});

test('head_direction is ignored for action=lay, also with headonly=1', async () => {
  await differ('size=m&headonly=1&direction=2&head_direction=4', 'size=m&headonly=1&direction=2');
  await same('size=m&action=lay&direction=2&head_direction=4', 'size=m&action=lay&direction=2');
  await same('size=m&action=lay&headonly=1&direction=2&head_direction=4', 'size=m&action=lay&headonly=1&direction=2');
  await same('size=m&action=lay&headonly=1&direction=3&head_direction=1', 'size=m&action=lay&headonly=1&direction=3');
  await same(
    'size=m&action=sit,lay&headonly=1&direction=2&head_direction=4',
    'size=m&action=lay&headonly=1&direction=2',
  );
});

// ---- cache key ----

test('a repeated parameter is part of the key as sent: cb=1&cb=2 is not cb=1', async () => {
  const s = await start();
  const a = await image('size=s&cb=1', s.url);
  assert.equal(a.res.headers.get('x-imager-cache'), 'render');
  assert.equal((await image('size=s&cb=1', s.url)).res.headers.get('x-imager-cache'), 'memory');
  const b = await image('size=s&cb=1&cb=2', s.url);
  assert.equal(b.res.headers.get('x-imager-cache'), 'render', 'a new entry');
  assert.ok(b.body.equals(a.body), 'the first value is the one read');
  assert.equal(
    (await image('size=s&cb=2&cb=1', s.url)).res.headers.get('x-imager-cache'),
    'render',
    'order of the values counts too',
  );
  assert.equal((await image('size=s&cb=1&cb=2', s.url)).res.headers.get('x-imager-cache'), 'memory');
  await stop(s);
});

test('cache keys and ETags follow what each render reads: a change elsewhere in the hotel keeps them, a change of a library it reads does not', async () => {
  const assets = join(scratch, 'kit-identity');
  await cp(kit, assets, { recursive: true });
  const dir = join(scratch, 'identity-cache');
  const q = 'size=m&direction=4';
  const run = async () => {
    const s = await start({ diskCacheDir: dir }, {}, assets);
    const r = await image(q, s.url);
    const health = (await (await get(s.url, '/healthz')).json()) as { assets: { identity: string } };
    await stop(s);
    return {
      source: r.res.headers.get('x-imager-cache'),
      etag: r.res.headers.get('etag'),
      body: r.body,
      id: health.assets.identity,
    };
  };
  const first = await run();
  assert.equal(first.source, 'render');
  assert.match(first.id, /^[0-9a-f]{16}$/);
  const unchanged = await run();
  assert.equal(unchanged.source, 'disk', 'same assets: the disk cache answers');
  assert.equal(unchanged.etag, first.etag);
  assert.equal(unchanged.id, first.id);

  // The figure map re-indented: the same hotel (documents count by meaning).
  const map = join(assets, 'gamedata', 'FigureMap.json');
  const mapDoc = JSON.parse(await readFile(map, 'utf8')) as {
    libraries: { id: string; parts: { id: number; type: string }[] }[];
  };
  await writeFile(map, JSON.stringify(mapDoc));
  const reindented = await run();
  assert.equal(reindented.id, first.id);
  assert.equal(reindented.source, 'disk');

  // The figure map changed for a part this figure does not wear: another hotel, the same key and ETag.
  mapDoc.libraries.find((l) => l.id === 'hat_U_kitcap')!.parts.push({ id: 5003, type: 'ha' });
  await writeFile(map, JSON.stringify(mapDoc));
  const elsewhere = await run();
  assert.notEqual(elsewhere.id, first.id);
  assert.equal(elsewhere.source, 'disk', 'nothing this render reads changed: served from disk');
  assert.equal(elsewhere.etag, first.etag);

  // A library touched but not changed (a copy, a redeploy): the same hotel.
  const lib = join(assets, 'bundled', 'figure', 'hh_human_body.nitro');
  await utimes(lib, new Date(), new Date(Date.now() + 60_000));
  const touched = await run();
  assert.equal(touched.id, elsewhere.id, 'identity is by content, not modification time');
  assert.equal(touched.source, 'disk');

  // A library this figure does not read, replaced: its key and ETag stay.
  const rewrite = async (file: string) => {
    const entries = readNitroBundle(await readFile(file), file);
    const rewritten = [...entries].map(([name, data]): [string, Buffer] =>
      name.endsWith('.json')
        ? [name, Buffer.from(JSON.stringify(JSON.parse(data.toString('utf8')), null, 1))]
        : [name, data],
    );
    await writeFile(file, writeNitroBundle(rewritten));
  };
  await rewrite(join(assets, 'bundled', 'figure', 'hat_U_kitcap.nitro'));
  const otherLib = await run();
  assert.notEqual(otherLib.id, touched.id);
  assert.equal(otherLib.source, 'disk');
  assert.equal(otherLib.etag, first.etag);

  // A library it reads, replaced with other bytes (same sprites, its JSON written differently): a new key and ETag.
  await rewrite(lib);
  const replaced = await run();
  assert.notEqual(replaced.id, otherLib.id);
  assert.equal(replaced.source, 'render');
  assert.notEqual(replaced.etag, first.etag);
  assert.ok(replaced.body.equals(first.body), 'same sprites, same pixels');
});

// ---- fallback reasons forced ----

test('busy: a job that waited too long in the queue (queue not full) falls back', async () => {
  const s = await start({ workers: 1, maxQueue: 1024, maxQueueWaitMs: 1 });
  const all = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      get(s.url, `/avatar.png?figure=${FIG}&size=l&action=wav&animated=1&wait=${i}`),
    ),
  );
  await Promise.all(all.map((r) => r.arrayBuffer()));
  const busy = all.filter((r) => r.status === 302);
  assert.ok(busy.length > 0, all.map((r) => r.status).join(','));
  for (const r of busy) assertFallback(r, 'busy');
  assert.ok(all.every((r) => r.status === 200 || r.status === 302));
  const stats = s.pool.stats();
  assert.ok(stats.refusedBusy >= busy.length && stats.queued === 0, JSON.stringify(stats));
  // A busy refusal is not remembered as a failure: the same URL renders once the worker is free.
  const retry = await get(s.url, new URL(busy[0]!.url).pathname + new URL(busy[0]!.url).search);
  assert.equal(retry.status, 200);
  await retry.arrayBuffer();
  await stop(s);
});

test('render-failed: a figure library that cannot be loaded (corrupt .nitro), then render-failed-cached', async () => {
  const assets = join(scratch, 'kit-corrupt');
  await cp(kit, assets, { recursive: true });
  await writeFile(join(assets, 'bundled', 'figure', 'hat_U_kitcap.nitro'), Buffer.from('not a nitro bundle'));
  const s = await start({}, {}, assets);
  const path = `/avatar.png?figure=${FIG}.ha-1001-62&size=m`;
  const loc = assertFallback(await get(s.url, path), 'render-failed');
  assert.equal(loc.searchParams.get('figure'), `${FIG}.ha-1001-62`);
  assertFallback(await get(s.url, path), 'render-failed-cached');
  assert.equal((await image('size=m', s.url)).res.status, 200, 'figures without that library still render');
  await stop(s);
});

test('render-failed: a render over the time limit', async () => {
  const s = await start({ renderTimeoutMs: 1 });
  assertFallback(await get(s.url, `/avatar.png?figure=${FIG}&size=l&action=wav&animated=1`), 'render-failed');
  await stop(s);
});

test('a worker that crashes under a render is not cached as a failure: the next request renders', async () => {
  let crashNext = true;
  let inst: AvatarServiceInstance | undefined;
  const slots = () => (inst!.pool as unknown as { slots: { worker: { terminate(): Promise<number> } }[] }).slots;
  const s = await start(
    {},
    {
      wrapRenderer: (real) => ({
        ...real,
        render: (req, hotel) => {
          const job = real.render(req, hotel);
          if (crashNext) {
            crashNext = false;
            void slots()[0]!.worker.terminate(); // the job was posted to this worker: it dies under it
          }
          return job;
        },
      }),
    },
  );
  inst = s;
  const path = `/avatar.png?figure=${FIG}&size=l&direction=5`;
  assertFallback(await get(s.url, path), 'unexpected');
  const again = await get(s.url, path);
  assert.equal(again.status, 200, `after a crash: ${again.status} ${again.headers.get('x-imager-fallback') ?? ''}`);
  assert.equal(again.headers.get('content-type'), 'image/png');
  await again.arrayBuffer();
  assert.equal(s.pool.stats().restarts, 1);
  await stop(s);
});

// ---- users ----

test('a user name over 64 characters is user-unresolved without asking the API', async () => {
  const long = 'a'.repeat(65);
  const before = api.hits.length;
  assertFallback(await get(svc.url, `/avatar.png?user=${long}`), 'user-unresolved');
  assert.equal(api.hits.length, before, 'no lookup');
  assertFallback(await get(svc.url, `/avatar.png?user=${'b'.repeat(64)}`), 'user-unresolved');
  assert.equal(api.hits.length, before + 1, '64 characters are looked up');
});

test('a user API base with a path keeps it (https://host/prefix → /prefix/api/public/users)', async () => {
  const prefixed = await startFakeUserApi({ Bob: FIG }, { prefix: '/hotel/one' });
  try {
    for (const base of [`${prefixed.base}/hotel/one`, `${prefixed.base}/hotel/one/`]) {
      const s = await start({ userApiBase: base });
      const res = await get(s.url, '/avatar.png?user=Bob&size=s');
      assert.equal(res.status, 200, `${base}: ${res.headers.get('x-imager-fallback') ?? ''}`);
      await res.arrayBuffer();
      await stop(s);
    }
    assert.deepEqual(prefixed.hits, ['Bob', 'Bob']);
  } finally {
    await prefixed.close();
  }
});
