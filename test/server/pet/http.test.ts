// The pet picture over a real socket: the avatar service on the sample kit with a procedural pet library
// (test/helpers/pet-library.ts) in bundled/pet/. Sizes, postures, gestures, APNG and GIF loops, bg and zoom by
// status, headers, dimensions and frame timing; the parameter helpers shared with the avatar paths (direction
// wrapping, size, the boolean rule); 400 and 404 bodies; the cache tiers and a stable ETag; the method rules;
// id= without a database; /healthz and /metrics; and a hotel without bundled/pet/ (pets off).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSampleKit } from '../../../src/samplekit/index.js';
import { startAvatarService, type AvatarServiceInstance } from '../../../src/server/imager.js';
import { decodeImage } from '../../../src/imaging/codec.js';
import { decodeApng } from '../../helpers/apng-decode.js';
import { readGif } from '../../helpers/gif-reader.js';
import { parsePrometheusText, sampleValue } from '../../helpers/prom-text.js';
import { writeTestPetLibrary } from '../../helpers/pet-library.js';
import { deadBase, testAvatarConfig } from '../avatar/fixtures.js';

const IMMUTABLE = 'public, max-age=31536000, immutable, stale-while-revalidate=86400';
const DOG = '/habbo-imaging/pet.png?figure=0%200%20ffffff';

let scratch: string;
let kit: string;
let svc: AvatarServiceInstance & { url: string };
const started: (AvatarServiceInstance & { url: string })[] = [];

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'pet-http-'));
  kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  await writeTestPetLibrary(kit);
  svc = await startAvatarService(testAvatarConfig(kit, await deadBase(), { checkIntervalMs: 0 }));
  started.push(svc);
});

after(async () => {
  for (const s of started) await s.close();
  await rm(scratch, { recursive: true, force: true });
});

async function get(path: string, init: RequestInit = {}, base = svc.url) {
  const res = await fetch(base + path, init);
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

/** A 200 image's bytes, width and height (from the header: IHDR or the GIF screen). */
async function image(path: string, type = 'image/png') {
  const { res, body } = await get(path);
  assert.equal(res.status, 200, `${path}: ${res.status} ${res.status === 200 ? '' : body.toString()}`);
  assert.equal(res.headers.get('content-type'), type, path);
  const [width, height] =
    type === 'image/gif'
      ? [body.readUInt16LE(6), body.readUInt16LE(8)]
      : [body.readUInt32BE(16), body.readUInt32BE(20)];
  return { res, body, width, height };
}

test('a dog standing: PNG at size l (default), m and s, as the avatar reads size (b is m, anything else m)', async () => {
  const l = await image(DOG);
  assert.deepEqual([l.width, l.height], [58, 68]);
  assert.equal(l.res.headers.get('cache-control'), IMMUTABLE);
  assert.equal(l.res.headers.get('x-imager-frames'), '1');
  assert.equal(l.res.headers.get('access-control-allow-origin'), '*');
  const m = await image(`${DOG}&size=m`);
  assert.deepEqual([m.width, m.height], [29, 34]);
  const s = await image(`${DOG}&size=s`);
  assert.deepEqual([s.width, s.height], [14, 17]);
  assert.ok((await image(`${DOG}&size=b`)).body.equals(m.body), 'size=b is m');
  assert.ok((await image(`${DOG}&size=xl`)).body.equals(m.body), 'an unknown size is m');
  assert.ok((await image(`${DOG}&size=`)).body.equals(l.body), 'an empty size is l');
  // The palette recolours the grey sprites: palette 0 is orange (R > G > B), palette 1 blue.
  const px = (img: { data: Uint8Array; width: number }, x: number, y: number) => [
    ...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4),
  ];
  const orange = await decodeImage(l.body);
  const [r, g, b, a] = px(orange, 10, 40);
  assert.ok(r! > g! && g! > b! && a === 255, `palette 0 at (10, 40): ${[r, g, b, a]}`);
  const blue = await decodeImage((await image('/habbo-imaging/pet.png?figure=0%201%20ffffff')).body);
  const [r1, , b1] = px(blue, 10, 40);
  assert.ok(b1! > r1!, `palette 1 at (10, 40): ${px(blue, 10, 40)}`);
});

test('action: a posture, a posture and a gesture, and an action the library lacks (its default posture)', async () => {
  const std = await image(DOG);
  const sit = await image(`${DOG}&action=sit`);
  assert.deepEqual([sit.width, sit.height], [58, 56]);
  const lay = await image(`${DOG}&action=lay&direction=4`);
  assert.deepEqual([lay.width, lay.height], [62, 40]);
  assert.ok((await image(`${DOG}&action=dance`)).body.equals(std.body), 'an unknown action stands');
  assert.ok((await image(`${DOG}&action=SIT`)).body.equals(sit.body), 'any case');
  assert.ok((await image(`${DOG}&action=dance,sit`)).body.equals(sit.body), 'the first posture the library has');
  // A gesture without animated=1 is its first frame: the smiling head.
  const smile = await image(`${DOG}&action=sit,sml`);
  assert.deepEqual([smile.width, smile.height], [58, 56]);
  assert.ok(!smile.body.equals(sit.body));
  assert.ok((await image(`${DOG}&action=sml,sit`)).body.equals(smile.body), 'posture and gesture in any order');
});

test('direction and head_direction wrap as the avatar parameters do; not a number is the default', async () => {
  const d2 = await image(DOG);
  const d4 = await image(`${DOG}&direction=4`);
  assert.ok(!d4.body.equals(d2.body));
  assert.ok((await image(`${DOG}&direction=10`)).body.equals(d2.body), '10 → 2');
  assert.ok((await image(`${DOG}&direction=-6`)).body.equals(d2.body), '-6 → 2');
  assert.ok((await image(`${DOG}&direction=east`)).body.equals(d2.body), 'east → 2');
  assert.ok((await image(`${DOG}&direction=12`)).body.equals(d4.body), '12 → 4');
  // The head follows the body unless told: head_direction=4 on a body at 2 turns the head layer only.
  const turned = await image(`${DOG}&head_direction=4`);
  assert.ok(!turned.body.equals(d2.body) && !turned.body.equals(d4.body));
  assert.ok((await image(`${DOG}&direction=4&head_direction=x`)).body.equals(d4.body));
});

test('animated=1 is an APNG of the loop at the client 24 updates a second; a still pose stays a PNG', async () => {
  const { res, body, width, height } = await image(`${DOG}&action=sit,sml&animated=1`);
  assert.deepEqual([width, height], [58, 56]);
  const apng = decodeApng(body);
  assert.equal(apng.numFrames, 3);
  assert.equal(apng.plays, 0);
  // The gesture shows each head 6 updates: the loop starts two updates into the smile (the room's first update, then the frame counter).
  assert.deepEqual(
    apng.frames.map((f) => `${f.delayNum}/${f.delayDen}`),
    ['4/24', '6/24', '2/24'],
  );
  assert.equal(res.headers.get('x-imager-frames'), '3');
  const still = await image(`${DOG}&action=sit&animated=yes`);
  assert.equal(still.res.headers.get('x-imager-frames'), '1');
  assert.ok(still.body.equals((await image(`${DOG}&action=sit`)).body), 'a pose that does not move is its still');
  assert.ok(
    (await image(`${DOG}&action=sit,sml&animated=2`)).body.equals((await image(`${DOG}&action=sit,sml`)).body),
    'animated=2 is false (the boolean rule)',
  );
});

test('img_format=gif is a GIF of the loop (centisecond delays); bg and zoom as on the furni and room URLs', async () => {
  const gif = await image(`${DOG}&action=sml&img_format=gif`, 'image/gif');
  assert.deepEqual([gif.width, gif.height], [58, 68]);
  const read = readGif(gif.body);
  assert.deepEqual(
    read.frames.map((f) => f.delayCs),
    [17, 25, 8],
  );
  assert.equal(read.loops, 0);
  const zoomed = await image(`${DOG}&zoom=2`);
  assert.deepEqual([zoomed.width, zoomed.height], [116, 136]);
  assert.deepEqual([(await image(`${DOG}&zoom=9`)).width], [232], 'zoom above 4 is 4');
  assert.deepEqual([(await image(`${DOG}&zoom=2.7`)).width], [116], 'a fraction is truncated');
  assert.deepEqual([(await image(`${DOG}&zoom=0.5`)).width], [58], 'below 1 is 1');
  const onBlue = await decodeImage((await image(`${DOG}&bg=%23336699`)).body);
  assert.deepEqual([...onBlue.data.subarray(0, 4)], [0x33, 0x66, 0x99, 255], 'a transparent corner is the colour');
  assert.ok((await image(`${DOG}&bg=red`)).body.equals((await image(DOG)).body), 'bg=red is no background');
});

test('400 for a missing or malformed figure or id, 404 for a pet type without a library, with the reason', async () => {
  const cases: [string, number, string][] = [
    ['/habbo-imaging/pet.png', 400, 'missing required parameter: use figure=<pet figure string>'],
    ['/habbo-imaging/pet.png?figure=dog', 400, 'bad pet figure: a pet figure starts with its type'],
    ['/habbo-imaging/pet.png?figure=0%200%20zzzzzz', 400, "bad pet figure: the pet's colour must be hex RRGGBB"],
    ['/habbo-imaging/pet.png?figure=0%200%20ffffff%201%202', 400, '1 custom part(s) need 3 numbers'],
    ['/habbo-imaging/pet.png?id=abc', 400, 'bad pet id "abc"'],
    ['/habbo-imaging/pet.png?figure=99%200%20ffffff', 404, 'no pet type 99: the pet type list has 39 types (0–38)'],
    [
      '/habbo-imaging/pet.png?figure=1%200%20ffffff',
      404,
      'no pet library bundled/pet/cat.nitro in this hotel (pet type 1)',
    ],
  ];
  for (const [path, status, text] of cases) {
    const { res, body } = await get(path);
    assert.equal(res.status, status, path);
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8', path);
    assert.equal(res.headers.get('cache-control'), 'no-store', path);
    assert.ok(body.toString().includes(text), `${path}: ${body}`);
  }
});

test('id= without a database is 404 saying so', async () => {
  const { res, body } = await get('/habbo-imaging/pet.png?id=7');
  assert.equal(res.status, 404);
  assert.equal(
    body.toString(),
    "pet 7: pet pictures by id read the hotel's database, and this service has none (--database); " +
      'use figure=<pet figure string>\n',
  );
});

test('cache: render, then memory; the ETag names the bytes and the library (the same on every run); 304; HEAD', async () => {
  const path = `${DOG}&action=lay&size=m&cb=cache-test`;
  const first = await image(path);
  assert.equal(first.res.headers.get('x-imager-cache'), 'render');
  const second = await image(path);
  assert.equal(second.res.headers.get('x-imager-cache'), 'memory');
  assert.ok(second.body.equals(first.body));
  const etag = first.res.headers.get('etag')!;
  assert.equal(second.res.headers.get('etag'), etag);
  // Spellings of one picture share its key: size=m&animated=0 is the same entry.
  const same = await image(`${DOG}&action=lay&size=m&animated=0`);
  assert.equal(same.res.headers.get('x-imager-cache'), 'memory');
  // The library is procedural and written afresh each run; its content, not its file times, is in the ETag.
  assert.equal((await image(DOG)).res.headers.get('etag'), '"BggwPWWXImVrfiv4bhmMHGsWmQlJ9_o9"');
  const cond = await get(path, { headers: { 'if-none-match': etag } });
  assert.equal(cond.res.status, 304);
  assert.equal(cond.body.length, 0);
  const head = await get(path, { method: 'HEAD' });
  assert.equal(head.res.status, 200);
  assert.equal(head.res.headers.get('content-length'), String(first.body.length));
  assert.equal(head.body.length, 0);
});

test('OPTIONS is the CORS preflight, other methods 405, as on every image path', async () => {
  const pre = await get(DOG, { method: 'OPTIONS', headers: { 'access-control-request-headers': 'if-none-match' } });
  assert.equal(pre.res.status, 204);
  assert.equal(pre.res.headers.get('access-control-allow-methods'), 'GET, HEAD, OPTIONS');
  const post = await get(DOG, { method: 'POST' });
  assert.equal(post.res.status, 405);
  assert.equal(post.res.headers.get('allow'), 'GET, HEAD, OPTIONS');
});

test('/healthz and /metrics count pet renders, 400s and 404s', async () => {
  const health = (await (await fetch(`${svc.url}/healthz`)).json()) as {
    pets: { enabled: boolean; renders: number; badRequests: number; notFound: number };
    pool: { byKind: { pet: { rendered: number; rejected: number } } };
  };
  assert.equal(health.pets.enabled, true);
  assert.ok(health.pets.renders >= 10, `${health.pets.renders} renders`);
  assert.ok(health.pets.badRequests >= 5);
  assert.ok(health.pets.notFound >= 3);
  assert.equal(health.pool.byKind.pet.rendered, health.pets.renders);
  const text = await (await fetch(`${svc.url}/metrics`)).text();
  const metrics = parsePrometheusText(text);
  assert.equal(sampleValue(metrics, 'hotel_imager_avatar_pet_renders_total', { result: 'ok' }), health.pets.renders);
  assert.ok(sampleValue(metrics, 'hotel_imager_avatar_pet_bad_requests_total')! >= 5);
  assert.ok(sampleValue(metrics, 'hotel_imager_avatar_pet_not_found_total')! >= 3);
  assert.ok(
    (sampleValue(metrics, 'hotel_imager_http_requests_total', { route: '/habbo-imaging/pet.png', status: '200' }) ??
      0) > 0,
  );
});

test('a hotel without bundled/pet/ has pets off: 404 naming why', async () => {
  const bare = join(scratch, 'bare');
  await ensureSampleKit(bare);
  // The sample kit has a pet library of its own: taken away, as a hotel without pets has none.
  await rm(join(bare, 'bundled', 'pet'), { recursive: true, force: true });
  const off = await startAvatarService(testAvatarConfig(bare, await deadBase(), { checkIntervalMs: 0 }));
  started.push(off);
  const { res, body } = await get(DOG, {}, off.url);
  assert.equal(res.status, 404);
  assert.match(body.toString(), /^pets are off: this hotel has no bundled\/pet\/ folder \(.*bare\/bundled\/pet\)/);
  const health = (await (await fetch(`${off.url}/healthz`)).json()) as { pets: { enabled: boolean; reason: string } };
  assert.equal(health.pets.enabled, false);
  assert.match(health.pets.reason, /no bundled\/pet\/ folder/);
});
