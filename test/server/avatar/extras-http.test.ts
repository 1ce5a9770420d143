// The avatar parameters beyond the spec (crop, gender, bg, zoom) and vortex-imager's effect and hand-item
// paths, over a real socket on the sample kit: status, headers, dimensions and pixels, each against the
// plain render of the same URL; and the URLs without them keep their bytes and ETags.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alphaBounds, cropImage, scaleNearest, type RgbaImage } from '../../../src/imaging/image.js';
import { decodePngSync } from '../../../src/imaging/png.js';
import { ensureSampleKit } from '../../../src/samplekit/index.js';
import { startAvatarService, type AvatarServiceInstance } from '../../../src/server/imager.js';
import { apngFramesRgba } from '../../helpers/apng-frames.js';
import { gifFramesRgba, readGif } from '../../helpers/gif-reader.js';
import { startFakeUserApi, testAvatarConfig, type FakeApi } from './fixtures.js';

const FIG = 'hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40';
/** vortex-imager's figure for the effect and hand-item paths when the query names none. */
const PART_FIGURE = 'hd-180-1.ch-210-66.lg-270-82.sh-290-80';
const IMMUTABLE = 'public, max-age=31536000, immutable, stale-while-revalidate=86400';
let scratch: string;
let kit: string;
let api: FakeApi;
let svc: AvatarServiceInstance & { url: string };

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'avatar-extras-http-'));
  kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  api = await startFakeUserApi({}, {});
  svc = await startAvatarService(testAvatarConfig(kit, api.base));
});

after(async () => {
  await svc?.close();
  await api?.close();
  await rm(scratch, { recursive: true, force: true });
});

async function get(path: string, init: RequestInit = {}, base = svc.url) {
  const res = await fetch(base + path, { redirect: 'manual', ...init });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

/** Every frame of a 200 PNG/APNG answer as an image. */
async function frames(path: string): Promise<RgbaImage[]> {
  const { res, body } = await get(path);
  assert.equal(res.status, 200, path);
  assert.equal(res.headers.get('content-type'), 'image/png', path);
  const { width, height } = decodePngSync(body);
  return apngFramesRgba(body).map((data) => ({ width, height, data }));
}

async function still(path: string): Promise<RgbaImage> {
  const [only, ...rest] = await frames(path);
  assert.equal(rest.length, 0, `${path} is a still`);
  return only!;
}

function pixel(img: RgbaImage, x: number, y: number): number[] {
  const i = (y * img.width + x) * 4;
  return [...img.data.subarray(i, i + 4)];
}

function visibleCount(img: RgbaImage): number {
  let n = 0;
  for (let i = 3; i < img.data.length; i += 4) if (img.data[i]! > 0) n++;
  return n;
}

/** The visible pixels of a one-layer image, and how many of them the whole image shows unchanged. */
function overlap(alone: RgbaImage, whole: RgbaImage): { shown: number; same: number } {
  let shown = 0;
  let same = 0;
  for (let y = 0; y < alone.height; y++) {
    for (let x = 0; x < alone.width; x++) {
      if (pixel(alone, x, y)[3] === 0) continue;
      shown++;
      if (pixel(alone, x, y).join() === pixel(whole, x, y).join()) same++;
    }
  }
  return { shown, same };
}

function assertImageHeaders(res: Response, what: string): void {
  assert.equal(res.headers.get('cache-control'), IMMUTABLE, what);
  assert.match(res.headers.get('etag') ?? '', /^"[\w-]{20,}"$/, what);
  assert.equal(res.headers.get('access-control-allow-origin'), '*', what);
}

test('bg=RRGGBB: where the avatar is transparent the pixel is the colour, where it is opaque its own', async () => {
  const plain = await still(`/avatar.png?figure=${FIG}&size=m`);
  const { res } = await get(`/avatar.png?figure=${FIG}&size=m&bg=ff0000`);
  assert.equal(res.status, 200);
  assertImageHeaders(res, 'bg');
  const red = await still(`/avatar.png?figure=${FIG}&size=m&bg=ff0000`);
  assert.deepEqual([red.width, red.height], [64, 110]);
  let transparent = 0;
  let opaque = 0;
  for (let y = 0; y < plain.height; y++) {
    for (let x = 0; x < plain.width; x++) {
      const a = plain.data[(y * plain.width + x) * 4 + 3]!;
      if (a === 0) {
        transparent++;
        assert.deepEqual(pixel(red, x, y), [255, 0, 0, 255], `(${x},${y})`);
      } else if (a === 255) {
        opaque++;
        assert.deepEqual(pixel(red, x, y), pixel(plain, x, y), `(${x},${y})`);
      } else assert.equal(pixel(red, x, y)[3], 255, `(${x},${y}) is opaque on an opaque colour`);
    }
  }
  assert.ok(transparent > 3000 && opaque > 1000, `${transparent} transparent, ${opaque} opaque pixels`);
  // AARRGGBB (vortex-imager's order): a half-transparent blue behind the avatar.
  const blue = await still(`/avatar.png?figure=${FIG}&size=m&bg=%23800000ff`);
  assert.deepEqual(pixel(blue, 0, 0), [0, 0, 255, 128]);
  assert.deepEqual(pixel(blue, 32, 60), pixel(plain, 32, 60), 'an opaque avatar pixel is its own');
  assert.equal(pixel(plain, 32, 60)[3], 255);
});

test('bg on a GIF: the frame is opaque where the colour is (no transparent index used)', async () => {
  const { res, body } = await get(`/avatar.png?figure=${FIG}&size=s&img_format=gif&bg=336699`);
  assert.equal(res.headers.get('content-type'), 'image/gif');
  const gif = readGif(body);
  const [first] = gifFramesRgba(gif);
  assert.deepEqual([...first!.subarray(0, 4)], [0x33, 0x66, 0x99, 255]);
  for (let i = 3; i < first!.length; i += 4) assert.equal(first![i], 255);
});

test('zoom=N is exactly the nearest-neighbour N× of zoom=1, still and animated; above 4 is 4', async () => {
  const one = await still(`/avatar.png?figure=${FIG}&size=m&direction=3`);
  const two = await still(`/avatar.png?figure=${FIG}&size=m&direction=3&zoom=2`);
  assert.deepEqual([two.width, two.height], [128, 220]);
  assert.ok(Buffer.from(two.data).equals(Buffer.from(scaleNearest(one, 2).data)));
  const big = await still(`/avatar.png?figure=${FIG}&size=l&action=lay&zoom=4`);
  assert.deepEqual([big.width, big.height], [880, 512]);
  const clamped = await get(`/avatar.png?figure=${FIG}&size=l&action=lay&zoom=40`);
  const four = await get(`/avatar.png?figure=${FIG}&size=l&action=lay&zoom=4`);
  assert.ok(clamped.body.equals(four.body));
  const loop1 = await frames(`/avatar.png?figure=${FIG}&size=s&action=wav&animated=1`);
  const loop3 = await frames(`/avatar.png?figure=${FIG}&size=s&action=wav&animated=1&zoom=3`);
  assert.equal(loop1.length, 2);
  assert.equal(loop3.length, 2);
  for (let f = 0; f < 2; f++)
    assert.ok(Buffer.from(loop3[f]!.data).equals(Buffer.from(scaleNearest(loop1[f]!, 3).data)));
});

test("crop=1: the image is the box of the visible pixels (of every frame of a loop), each pixel the plain one's", async () => {
  const plain = await still(`/avatar.png?figure=${FIG}&size=m`);
  const box = alphaBounds(plain)!;
  const { res } = await get(`/avatar.png?figure=${FIG}&size=m&crop=1`);
  assert.equal(res.status, 200);
  assertImageHeaders(res, 'crop');
  const cropped = await still(`/avatar.png?figure=${FIG}&size=m&crop=1`);
  assert.deepEqual([cropped.width, cropped.height], [box.width, box.height]);
  assert.ok(box.width < 64 && box.height < 110);
  assert.ok(Buffer.from(cropped.data).equals(Buffer.from(cropImage(plain, box).data)));
  // A loop keeps one box for all its frames, so the avatar does not jump: the union of each frame's.
  const loop = await frames(`/avatar.png?figure=${FIG}&size=m&action=wav&animated=1`);
  const boxes = loop.map((f) => alphaBounds(f)!);
  const x0 = Math.min(...boxes.map((b) => b.x));
  const y0 = Math.min(...boxes.map((b) => b.y));
  const x1 = Math.max(...boxes.map((b) => b.x + b.width));
  const y1 = Math.max(...boxes.map((b) => b.y + b.height));
  const union = { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
  assert.notDeepEqual(boxes[0], boxes[1], 'the wave moves the box');
  const croppedLoop = await frames(`/avatar.png?figure=${FIG}&size=m&action=wav&animated=1&crop=1`);
  assert.equal(croppedLoop.length, 2);
  for (let f = 0; f < 2; f++) {
    assert.deepEqual([croppedLoop[f]!.width, croppedLoop[f]!.height], [union.width, union.height]);
    assert.ok(Buffer.from(croppedLoop[f]!.data).equals(Buffer.from(cropImage(loop[f]!, union).data)));
  }
  // crop, bg and zoom together: trimmed first, then the colour, then enlarged.
  const all = await still(`/avatar.png?figure=${FIG}&size=m&crop=1&bg=00ff00&zoom=2`);
  assert.deepEqual([all.width, all.height], [box.width * 2, box.height * 2]);
});

test('gender=F chooses the mandatory defaults a figure leaves open; a figure that leaves none open is unchanged', async () => {
  const open = `/avatar.png?figure=hd-180-1&size=m`;
  const asIs = await get(open);
  const male = await get(`${open}&gender=M`);
  const female = await get(`${open}&gender=f`);
  assert.equal(female.res.status, 200);
  assertImageHeaders(female.res, 'gender');
  assert.ok(male.body.equals(asIs.body), 'the figure is read as male already');
  assert.ok(!female.body.equals(asIs.body), 'the female defaults are drawn');
  const plainLegs = await still(open);
  const femaleLegs = await still(`${open}&gender=F`);
  assert.deepEqual([femaleLegs.width, femaleLegs.height], [plainLegs.width, plainLegs.height]);
  const full = await get(`/avatar.png?figure=${FIG}&size=m`);
  const fullF = await get(`/avatar.png?figure=${FIG}&size=m&gender=F`);
  assert.ok(fullF.body.equals(full.body), 'every mandatory type worn: same picture');
  assert.notEqual(fullF.res.headers.get('etag'), full.res.headers.get('etag'), 'its own URL, its own entry');
});

test('bad values are tolerated: the plain picture', async () => {
  const plain = await get(`/avatar.png?figure=${FIG}&size=m`);
  for (const q of [
    'crop=0',
    'crop=no',
    'bg=red',
    'bg=fff',
    'bg=00ff0000',
    'zoom=1',
    'zoom=0',
    'zoom=0.5',
    'gender=X',
  ]) {
    const r = await get(`/avatar.png?figure=${FIG}&size=m&${q}`);
    assert.equal(r.res.status, 200, q);
    assert.ok(r.body.equals(plain.body), q);
  }
});

test('the other avatar paths take them too: head, the classic GIF path, the comma form (query after its path)', async () => {
  const pairs: [string, string][] = [
    [`/habbo-imaging/head.png?figure=${FIG}&zoom=2&crop=1`, `/avatar.png?figure=${FIG}&headonly=1&zoom=2&crop=1`],
    [`/habbo-imaging/avatarimage.gif?figure=${FIG}&bg=ffffff`, `/avatar.png?figure=${FIG}&img_format=gif&bg=ffffff`],
    [
      `/habbo-imaging/avatar/${FIG},s-0.g-1.d-4.h-4.a-0,33c49f659a50a3d1b3505791a6f69334.png?zoom=3&gender=F`,
      `/avatar.png?figure=${FIG}&size=b&gesture=sml&direction=4&head_direction=4&zoom=3&gender=F`,
    ],
  ];
  for (const [path, same] of pairs) {
    const a = await get(path);
    const b = await get(same);
    assert.equal(a.res.status, 200, path);
    assert.ok(a.body.equals(b.body), `${path} is ${same}`);
  }
  const head = await still(`/habbo-imaging/head.png?figure=${FIG}&size=m&zoom=2`);
  assert.deepEqual([head.width, head.height], [108, 124]);
});

test('the parameters are outputs of one drawing: each URL its own entry, a repeat from memory', async () => {
  const url = `/avatar.png?figure=${FIG}&size=s&zoom=2&bg=123456&crop=1`;
  const first = await get(url);
  const again = await get(url);
  assert.equal(again.res.headers.get('x-imager-cache'), 'memory');
  assert.ok(again.body.equals(first.body));
  const etag = first.res.headers.get('etag')!;
  const unchanged = await get(url, { headers: { 'if-none-match': etag } });
  assert.equal(unchanged.res.status, 304);
});

test('/habbo-imaging/effect/<id>.png: the effect sprites alone, where the avatar with the effect has them', async () => {
  const { res } = await get('/habbo-imaging/effect/1.png?size=m');
  assert.equal(res.status, 200);
  assertImageHeaders(res, 'effect');
  assert.equal(res.headers.get('x-imager-frames'), '1');
  const alone = await still('/habbo-imaging/effect/1.png?size=m');
  assert.deepEqual([alone.width, alone.height], [64, 110], "the avatar's canvas");
  const withAvatar = await still(`/avatar.png?figure=${PART_FIGURE}&size=m&effect=1`);
  // No body pixel: another figure (other clothes, colours and a hat) gives the same bytes.
  const other = await get(`/habbo-imaging/effect/1.png?size=m&figure=${FIG}.ha-1001-62`);
  assert.ok(other.body.equals((await get('/habbo-imaging/effect/1.png?size=m')).body));
  // Placed as in the whole image: where the effect shows there, its pixel is the one alone (exact places of
  // every layer: test/avatar/part-layers.test.ts).
  const { shown, same } = overlap(alone, withAvatar);
  assert.ok(shown > 50 && same > shown / 2, `${same} of ${shown} effect pixels as in the whole image`);
  // The default figure is the one a query without a figure gets: the same bytes.
  const named = await get(`/habbo-imaging/effect/1.png?size=m&figure=${PART_FIGURE}`);
  const unnamed = await get('/habbo-imaging/effect/1.png?size=m');
  assert.ok(named.body.equals(unnamed.body));
  // The avatar parameters apply: crop to the effect's pixels, GIF by extension.
  const cropped = await still('/habbo-imaging/effect/1.png?size=m&crop=1');
  const box = alphaBounds(alone)!;
  assert.deepEqual([cropped.width, cropped.height], [box.width, box.height]);
  const gif = await get('/habbo-imaging/effect/1.gif?size=m');
  assert.equal(gif.res.headers.get('content-type'), 'image/gif');
});

test('an effect that only changes the avatar, an unknown effect, a non-number: 404 text/plain saying why', async () => {
  const cases: [string, RegExp][] = [
    ['/habbo-imaging/effect/4.png', /^nothing-visible: effect 4 draws no sprite of its own here/],
    ['/habbo-imaging/effect/999.png', /^effect 999 is not in this hotel's effect map/],
    ['/habbo-imaging/effect/abc.png', /^no effect id/],
    ['/habbo-imaging/handitem/77777.png', /^hand item 77777 is not in this hotel's figure map/],
    ['/habbo-imaging/handitem/x.png', /^no hand item id/],
  ];
  for (const [path, reason] of cases) {
    const { res, body } = await get(path);
    assert.equal(res.status, 404, path);
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8', path);
    assert.equal(res.headers.get('access-control-allow-origin'), '*', path);
    assert.match(body.toString(), reason, path);
  }
  // Remembered as the renderer's judgement: the same 404 again, without a render.
  const again = await get('/habbo-imaging/effect/4.png');
  assert.equal(again.res.status, 404);
  assert.match(again.body.toString(), /nothing-visible/);
});

test('/habbo-imaging/handitem/<id>.png: the held item alone; drk=1 the drinking pose', async () => {
  const carry = await get('/habbo-imaging/handitem/1.png?size=m');
  assert.equal(carry.res.status, 200);
  assertImageHeaders(carry.res, 'handitem');
  const item = await still('/habbo-imaging/handitem/1.png?size=m');
  const held = await still(`/avatar.png?figure=${PART_FIGURE}&size=m&action=crr=1`);
  const drink = await still('/habbo-imaging/handitem/1.png?size=m&drk=1');
  const drinking = await still(`/avatar.png?figure=${PART_FIGURE}&size=m&action=drk=1`);
  for (const [alone, whole] of [
    [item, held],
    [drink, drinking],
  ] as const) {
    const { shown, same } = overlap(alone, whole);
    // The hand covers part of the item in the whole image.
    assert.ok(shown > 10 && shown < visibleCount(whole) / 4, `${shown} item pixels`);
    assert.ok(same > shown / 2, `${same} of ${shown} item pixels as in the whole image`);
  }
  // No body pixel: another figure gives the same bytes.
  const other = await get(`/habbo-imaging/handitem/1.png?size=m&figure=${FIG}.ha-1001-62`);
  assert.ok(other.body.equals(carry.body));
  assert.notDeepEqual(alphaBounds(item), alphaBounds(drink), 'the drinking hand holds it elsewhere');
  const drkGif = await get('/habbo-imaging/handitem/1.gif?drk=1');
  assert.equal(drkGif.res.headers.get('content-type'), 'image/gif');
});

test('the effect and hand-item paths: HEAD, OPTIONS, 405 and 304 as on /avatar.png', async () => {
  const path = '/habbo-imaging/handitem/2.png?size=s';
  const got = await get(path);
  const head = await get(path, { method: 'HEAD' });
  assert.equal(head.res.status, 200);
  assert.equal(head.body.length, 0);
  assert.equal(head.res.headers.get('etag'), got.res.headers.get('etag'));
  const pre = await get(path, { method: 'OPTIONS' });
  assert.equal(pre.res.status, 204);
  assert.equal(pre.res.headers.get('access-control-allow-origin'), '*');
  const post = await get(path, { method: 'POST', body: 'x' });
  assert.equal(post.res.status, 405);
  assert.equal(post.res.headers.get('allow'), 'GET, HEAD, OPTIONS');
  const unchanged = await get(path, { headers: { 'if-none-match': got.res.headers.get('etag')! } });
  assert.equal(unchanged.res.status, 304);
  // /metrics counts them under their folders (docs/operations.md).
  await get('/habbo-imaging/effect/1.png');
  const metrics = (await get('/metrics')).body.toString();
  assert.match(metrics, /hotel_imager_http_requests_total\{route="\/habbo-imaging\/handitem",status="304"\} 1\n/);
  assert.match(metrics, /hotel_imager_http_requests_total\{route="\/habbo-imaging\/effect",status="200"\} \d+\n/);
});

test('an effect render refused by the limits is 429 with Retry-After, never the avatar fallback', async () => {
  const limited = await startAvatarService(
    testAvatarConfig(kit, api.base, { clientRatePerSecond: 0.001, clientBurst: 1 }),
  );
  try {
    const first = await get('/habbo-imaging/effect/2.png', {}, limited.url);
    assert.equal(first.res.status, 200);
    const second = await get('/habbo-imaging/effect/3.png', {}, limited.url);
    assert.equal(second.res.status, 429);
    assert.equal(second.res.headers.get('retry-after'), '1');
    assert.equal(second.res.headers.get('location'), null);
    assert.match(second.body.toString(), /rate-limited/);
    // The avatar route keeps its spec answer for the same refusal: the fallback redirect.
    const avatar = await get(`/avatar.png?figure=${FIG}&size=s&zoom=2`, {}, limited.url);
    assert.equal(avatar.res.status, 302);
  } finally {
    await limited.close();
  }
});

/** The cache key's text as /render shows it (its first line: the renderer version, inputs and revisions). */
async function keyText(query: string): Promise<string> {
  const { res, body } = await get(`/render?${query}`);
  assert.equal(res.status, 200, query);
  const m = /<pre>(avatar-[^<]*)<\/pre>/.exec(body.toString());
  assert.ok(m, `a key on /render?${query}`);
  return m[1]!.replace(/&amp;/g, '&');
}

test('a URL without the new parameters keeps its key; one with them gets the extras revision', async () => {
  for (const q of [
    `figure=${FIG}&size=m`,
    `figure=${FIG}&action=wav&img_format=gif`,
    `figure=${FIG}&effect=1&animated=1`,
    `figure=${FIG}&size=m&crop=0&zoom=1&bg=nope&gender=U`,
  ]) {
    const first = (await keyText(q)).split('\n')[0]!;
    assert.match(first, /^avatar-6\/[0-9a-f]{16}(\/gif1)?(\/fx3)?$/, q);
  }
  const plain = await keyText(`figure=${FIG}&size=m`);
  const zoomed = await keyText(`figure=${FIG}&size=m&zoom=2`);
  const [plainFirst, ...plainPairs] = plain.split('\n');
  const [zoomFirst, ...zoomPairs] = zoomed.split('\n');
  assert.equal(zoomFirst, `${plainFirst}/x1`);
  assert.equal(zoomPairs.join('\n'), plainPairs.join('\n').replace('size=m&', 'size=m&zoom=2&'));
  // gender chooses the defaults: the inputs digest names the sets drawn, so a female default is its own.
  const open = (await keyText('figure=hd-180-1&size=m')).split('\n')[0]!;
  const female = (await keyText('figure=hd-180-1&size=m&gender=F')).split('\n')[0]!;
  assert.match(female, /\/x1$/);
  assert.notEqual(female.replace(/\/x1$/, ''), open, 'other sets, another digest');
});

test('crop, bg and zoom of one avatar are outputs of one drawing: the worker draws it once', async () => {
  const base = `/avatar.png?figure=${FIG}&size=m&direction=5&head_direction=6`;
  const plain = await still(base);
  const start = svc.pool.stats();
  const red = await still(`${base}&bg=ff0000`);
  const zoomed = await still(`${base}&zoom=2&crop=1`);
  const blue = await still(`${base}&bg=0000ff&zoom=3`);
  const end = svc.pool.stats();
  assert.equal(end.rendered - start.rendered, 3, 'three answers made by the worker');
  assert.equal(end.reusedDrawings - start.reusedDrawings, 2, 'the first drew; the other two reused its frames');
  // The reused drawing is the plain one: each output is its transform of the plain frame.
  const box = alphaBounds(plain)!;
  assert.deepEqual(zoomed, scaleNearest(cropImage(plain, box), 2));
  assert.deepEqual([red.width, red.height, blue.width, blue.height], [64, 110, 192, 330]);
  assert.deepEqual(pixel(red, 0, 0), [255, 0, 0, 255]);
  assert.deepEqual(pixel(blue, 0, 0), [0, 0, 255, 255]);
  // A plain request neither reads nor fills the held drawings.
  await still(`${base}&cachebust=1`);
  assert.equal(svc.pool.stats().reusedDrawings, end.reusedDrawings);
});
