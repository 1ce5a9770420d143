// img_format=gif and frame_num over a real socket on the sample kit: content types, GIF structure read
// back (frames, delays, loop, transparency, §2.3 dimensions, disposal), pixels equal to the APNG's
// frames, frame_num picking the APNG's frame n, PNG unchanged for every other img_format, cache-key
// separation, the disk cache, and the 302 fallback forwarding both parameters.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSampleKit } from '../../../src/samplekit/index.js';
import { type AvatarServiceConfig } from '../../../src/core/avatar/config.js';
import { startAvatarService, type AvatarServiceInstance } from '../../../src/server/imager.js';
import { apngFramesRgba } from '../../helpers/apng-frames.js';
import { gifFramesRgba, readGif } from '../../helpers/gif-reader.js';
import { gifView } from '../../helpers/gif-view.js';
import { deadBase, testAvatarConfig, TEST_FALLBACK } from './fixtures.js';

const FIG = 'hd-185-19.hr-515-45-40.ch-215-66-92.lg-275-82-62.sh-295-80-92.ha-1001-110-62.cc-3002-82-66.cp-3101-62';

let scratch: string;
let kit: string;
let svc: AvatarServiceInstance & { url: string };
const started: (AvatarServiceInstance & { url: string })[] = [];

async function start(over: Partial<AvatarServiceConfig> = {}) {
  const s = await startAvatarService(testAvatarConfig(kit, await deadBase(), { clientRatePerSecond: 0, ...over }));
  started.push(s);
  return s;
}

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'avatar-gif-'));
  kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  svc = await start();
});

after(async () => {
  for (const s of started) await s.close();
  await rm(scratch, { recursive: true, force: true });
});

async function get(q: string, base = svc.url, init: RequestInit = {}) {
  const res = await fetch(`${base}/avatar.png?${q}`, { redirect: 'manual', ...init });
  const body = Buffer.from(await res.arrayBuffer());
  return { res, body };
}

const DIMENSIONS: [string, [number, number]][] = [
  ['size=s', [33, 56]],
  ['size=m', [64, 110]],
  ['size=b', [64, 110]],
  ['size=xl', [64, 110]],
  ['size=l', [128, 220]],
  ['', [128, 220]],
  ['size=s&headonly=1', [27, 30]],
  ['size=m&headonly=1', [54, 62]],
  ['headonly=1', [108, 124]],
  ['size=s&action=lay', [56, 33]],
  ['size=m&action=lay', [110, 64]],
  ['action=lay', [220, 128]],
];

test('img_format=gif: image/gif, a still GIF for a still pose, logical screen of §2.3 for every size and pose', async () => {
  for (const [q, [w, h]] of DIMENSIONS) {
    const { res, body } = await get(`figure=${FIG}&img_format=gif&${q}`);
    assert.equal(res.status, 200, q);
    assert.equal(res.headers.get('content-type'), 'image/gif', q);
    assert.equal(res.headers.get('x-imager-frames'), '1', q);
    assert.match(res.headers.get('etag')!, /^"[A-Za-z0-9_-]+"$/);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const gif = readGif(body);
    assert.deepEqual([gif.width, gif.height], [w, h], q);
    assert.equal(gif.frames.length, 1, q);
    assert.equal(gif.loops, null, `${q}: a still has no loop extension`);
    assert.equal(gif.frames[0]!.transparentIndex, 0);
    // the GIF is the PNG's pixels, edges resolved by the threshold
    const png = await get(`figure=${FIG}&${q}`);
    assert.deepEqual(
      gifFramesRgba(gif)[0],
      gifView(apngFramesRgba(png.body)[0]!, gif.width),
      `${q}: same pixels as the PNG`,
    );
  }
});

test('img_format=gif on an animating pose: the whole loop (with or without animated=1), loop forever, 17/16 cs, disposal 2, the APNG frames', async () => {
  const cases = [
    'action=wav',
    'action=wav&size=s',
    'action=sit,wav&size=m',
    'action=respect&size=m&direction=4',
    'gesture=spk&headonly=1&size=s',
    'action=blow&action=x',
  ];
  for (const q of cases) {
    const apng = await get(`figure=${FIG}&${q}&animated=1`);
    assert.equal(apng.res.headers.get('x-imager-frames'), '2', q);
    const { width } = readGif((await get(`figure=${FIG}&${q}&img_format=gif`)).body);
    const want = apngFramesRgba(apng.body).map((f) => gifView(f, width));
    for (const extra of ['', '&animated=1']) {
      const { res, body } = await get(`figure=${FIG}&${q}&img_format=gif${extra}`);
      assert.equal(res.headers.get('content-type'), 'image/gif', q);
      assert.equal(res.headers.get('x-imager-frames'), '2', q);
      const gif = readGif(body);
      assert.equal(gif.loops, 0, `${q}: NETSCAPE2.0 loop count 0 (forever)`);
      assert.deepEqual(
        gif.frames.map((f) => f.delayCs),
        [17, 16],
        `${q}: 2 × 166.67 ms → 17 + 16 cs`,
      );
      for (const f of gif.frames) {
        assert.equal(f.disposal, 2, `${q}: each frame is cleared before the next, so frames never smear`);
        assert.equal(f.transparentIndex, 0);
      }
      const png = apngFramesRgba(apng.body);
      const [w, h] = [apng.body.readUInt32BE(16), apng.body.readUInt32BE(20)];
      assert.deepEqual([gif.width, gif.height], [w, h], q);
      assert.equal(png.length, 2);
      assert.deepEqual(gifFramesRgba(gif), want, `${q}: every frame is the APNG's frame`);
    }
  }
  // frames caps the GIF as it caps the APNG
  const one = await get(`figure=${FIG}&action=wav&img_format=gif&frames=1`);
  assert.equal(one.res.headers.get('x-imager-frames'), '1');
  assert.equal(readGif(one.body).loops, null);
});

test('wav with headonly collapses to a still GIF (the moving part is outside the crop)', async () => {
  const { res, body } = await get(`figure=${FIG}&action=wav&headonly=1&img_format=gif`);
  assert.equal(res.headers.get('x-imager-frames'), '1');
  assert.deepEqual([readGif(body).width, readGif(body).height], [108, 124]);
});

test('frame_num picks the APNG frame n (wrapped), as a still PNG, or a still GIF with img_format=gif', async () => {
  for (const q of ['action=wav&size=m', 'action=spk&headonly=1', 'action=blow&size=s&direction=5']) {
    const apng = await get(`figure=${FIG}&${q}&animated=1`);
    const frames = apngFramesRgba(apng.body);
    assert.equal(frames.length, 2);
    assert.notDeepEqual(frames[0], frames[1], `${q}: the loop's frames differ`);
    for (const [n, want] of [
      ['0', 0],
      ['1', 1],
      ['2', 0],
      ['3', 1],
      ['-1', 1],
      ['-2', 0],
      ['+1', 1],
      ['999999999999999', 1],
    ] as const) {
      for (const extra of ['', '&animated=1', '&animated=1&frames=1']) {
        const png = await get(`figure=${FIG}&${q}&frame_num=${n}${extra}`);
        assert.equal(png.res.headers.get('content-type'), 'image/png');
        assert.equal(png.res.headers.get('x-imager-frames'), '1', `${q} frame_num=${n}${extra}`);
        const shown = apngFramesRgba(png.body);
        assert.equal(shown.length, 1);
        assert.deepEqual(shown[0], frames[want], `${q} frame_num=${n}${extra} is frame ${want}`);
      }
      const gif = await get(`figure=${FIG}&${q}&frame_num=${n}&img_format=gif`);
      assert.equal(gif.res.headers.get('content-type'), 'image/gif');
      const read = readGif(gif.body);
      assert.equal(read.frames.length, 1);
      assert.equal(read.loops, null);
      assert.deepEqual(gifFramesRgba(read)[0], gifView(frames[want]!, read.width), `${q} frame_num=${n} as GIF`);
    }
  }
  // frame 0 of a loop is the plain still
  const plain = await get(`figure=${FIG}&action=wav`);
  const zero = await get(`figure=${FIG}&action=wav&frame_num=0`);
  assert.deepEqual(zero.body, plain.body);
});

test('frame_num on a still pose, or not an integer: the plain answer, same bytes, ETag and cache entry', async () => {
  const plain = await get(`figure=${FIG}&size=m&action=sit`);
  for (const n of ['0', '1', '5', '-3']) {
    const r = await get(`figure=${FIG}&size=m&action=sit&frame_num=${n}`);
    assert.deepEqual(r.body, plain.body, `still pose, frame_num=${n}`);
    assert.equal(r.res.headers.get('etag'), plain.res.headers.get('etag'));
    assert.equal(r.res.headers.get('x-imager-cache'), 'memory', 'the plain URL’s entry');
  }
  const wav = await get(`figure=${FIG}&size=m&action=wav`);
  for (const n of ['', 'abc', '1.5', '0x1', '1e1', ' ']) {
    const r = await get(`figure=${FIG}&size=m&action=wav&frame_num=${encodeURIComponent(n)}`);
    assert.deepEqual(r.body, wav.body, `frame_num=${JSON.stringify(n)} is ignored`);
    assert.equal(r.res.headers.get('content-type'), 'image/png');
  }
  // a still GIF: animated, frames and frame_num change nothing
  const gif = await get(`figure=${FIG}&size=m&img_format=gif`);
  const same = await get(`figure=${FIG}&size=m&img_format=gif&animated=1&frames=3&frame_num=4`);
  assert.deepEqual(same.body, gif.body);
  assert.equal(same.res.headers.get('x-imager-cache'), 'memory');
});

test('every img_format but gif keeps the PNG, byte for byte; GIF is deterministic', async () => {
  for (const q of [
    'size=m',
    'action=wav&animated=1',
    'size=s&headonly=1&action=spk&animated=1',
    'action=lay&direction=4',
  ]) {
    const png = await get(`figure=${FIG}&${q}`);
    for (const f of ['png', 'PNG', 'jpg', 'webp', '', 'gif89a', 'gi']) {
      const r = await get(`figure=${FIG}&${q}&img_format=${f}`);
      assert.equal(r.res.headers.get('content-type'), 'image/png', `${q} img_format=${f}`);
      assert.deepEqual(r.body, png.body, `${q} img_format=${f}`);
      assert.equal(r.res.headers.get('etag'), png.res.headers.get('etag'));
    }
    const gif = await get(`figure=${FIG}&${q}&img_format=gif`);
    for (const f of ['GIF', '%20gif%20', 'Gif']) {
      const r = await get(`figure=${FIG}&${q}&img_format=${f}`);
      assert.equal(r.res.headers.get('content-type'), 'image/gif', f);
      assert.deepEqual(r.body, gif.body, `${q} img_format=${f}`);
    }
    // a fresh render (a cache-buster) gives the same bytes
    const again = await get(`figure=${FIG}&${q}&img_format=gif&cb=1`);
    assert.equal(again.res.headers.get('x-imager-cache'), 'render');
    assert.deepEqual(again.body, gif.body);
  }
});

test('cache keys: GIF and PNG, each frame_num of a loop and the loop itself are separate entries', async () => {
  const fresh = await start();
  const q = `figure=${FIG}&size=m&action=wav`;
  const urls = [
    q,
    `${q}&animated=1`,
    `${q}&img_format=gif`,
    `${q}&frame_num=1`,
    `${q}&frame_num=1&img_format=gif`,
    `${q}&frame_num=-1`,
  ];
  const first = new Map<string, { etag: string; body: Buffer; type: string }>();
  for (const u of urls) {
    const r = await get(u, fresh.url);
    assert.equal(r.res.headers.get('x-imager-cache'), 'render', `${u} is its own entry`);
    first.set(u, { etag: r.res.headers.get('etag')!, body: r.body, type: r.res.headers.get('content-type')! });
  }
  for (const u of urls) {
    const r = await get(u, fresh.url);
    assert.equal(r.res.headers.get('x-imager-cache'), 'memory', u);
    assert.deepEqual(r.body, first.get(u)!.body, `${u} answers its own bytes`);
    assert.equal(r.res.headers.get('content-type'), first.get(u)!.type);
  }
  assert.notEqual(first.get(`${q}&img_format=gif`)!.etag, first.get(`${q}&animated=1`)!.etag);
  assert.deepEqual(first.get(`${q}&frame_num=-1`)!.body, first.get(`${q}&frame_num=1`)!.body);
  // If-None-Match with the GIF's ETag: 304
  const etag = first.get(`${q}&img_format=gif`)!.etag;
  const notModified = await get(`${q}&img_format=gif`, fresh.url, { headers: { 'if-none-match': etag } });
  assert.equal(notModified.res.status, 304);
  const head = await fetch(`${fresh.url}/avatar.png?${q}&img_format=gif`, { method: 'HEAD' });
  assert.equal(head.headers.get('content-type'), 'image/gif');
  assert.equal(head.headers.get('x-imager-frames'), '2');
});

test('disk cache: a GIF read back after a restart keeps its content type and frame count', async () => {
  const dir = join(scratch, 'disk');
  const a = await start({ diskCacheDir: dir });
  const q = `figure=${FIG}&action=wav&img_format=gif&size=s`;
  const first = await get(q, a.url);
  await a.close();
  started.splice(started.indexOf(a), 1);
  const b = await start({ diskCacheDir: dir });
  const again = await get(q, b.url);
  assert.equal(again.res.headers.get('x-imager-cache'), 'disk');
  assert.equal(again.res.headers.get('content-type'), 'image/gif');
  assert.equal(again.res.headers.get('x-imager-frames'), '2');
  assert.deepEqual(again.body, first.body);
});

test('302 fallback forwards img_format=gif and frame_num upstream (never animated or frames)', async () => {
  const bad = 'hd-180-1.ch-99999-66';
  const loc = async (q: string) => {
    const { res } = await get(`figure=${bad}&${q}`);
    assert.equal(res.status, 302, q);
    const url = new URL(res.headers.get('location')!);
    assert.equal(url.origin + url.pathname, TEST_FALLBACK);
    assert.equal(url.searchParams.get('animated'), null);
    assert.equal(url.searchParams.get('frames'), null);
    return url.searchParams;
  };
  const gif = await loc('action=wav&img_format=GIF&frame_num=3&animated=1&frames=2');
  assert.equal(gif.get('img_format'), 'gif');
  assert.equal(gif.get('frame_num'), '3');
  assert.equal(gif.get('action'), 'wav');
  const neg = await loc('frame_num=-1');
  assert.equal(neg.get('frame_num'), '-1');
  assert.equal(neg.get('img_format'), null, 'PNG is the upstream default: not sent');
  const junk = await loc('img_format=jpg&frame_num=abc');
  assert.equal(junk.get('img_format'), null);
  assert.equal(junk.get('frame_num'), null, 'an ignored frame_num is not forwarded');
});

test('/render shows the GIF the request asks for', async () => {
  const res = await fetch(`${svc.url}/render?figure=${FIG}&action=wav&img_format=gif`);
  assert.equal(res.status, 200);
  const html = await res.text();
  const m = /src="data:image\/gif;base64,([^"]+)"/.exec(html);
  assert.ok(m, 'the render is a GIF data URI');
  assert.equal(readGif(Buffer.from(m[1]!, 'base64')).frames.length, 2);
  assert.match(html, /2 frame\(s\), image\/gif/);
});
