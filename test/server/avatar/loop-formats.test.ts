// Dances and animated effects in every output form, over a real socket: `img_format=gif` is the whole loop
// (with or without `animated=1`), `frame_num=n` is frame n of the loop (with or without `animated`, as PNG
// and as GIF), exactly as `action=wav` behaves. The APNG of `animated=1` is the oracle: its frames, pixel for
// pixel, and its delays. Kit: dances 1-4 (`dance=N` and `action=dance.N`) and the animated sparkle (fx 2);
// real data (when ../shared/realdata is present): Dance1-4 and an animated fx of the Nitro set.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSampleKit } from '../../../src/samplekit/index.js';
import { startAvatarService, type AvatarServiceInstance } from '../../../src/server/imager.js';
import { decodeApng } from '../../helpers/apng-decode.js';
import { gifFramesRgba, readGif } from '../../helpers/gif-reader.js';
import { assertGifShows, gifView } from '../../helpers/gif-view.js';
import { realdata } from '../../helpers/realdata.js';
import { deadBase, testAvatarConfig } from './fixtures.js';

const FIG = 'hd-185-19.hr-515-45-40.ch-215-66-92.lg-275-82-62.sh-295-80-92';
const REAL_FIG = 'hd-180-1.hr-100-61.ch-210-66.lg-270-82.sh-290-80';
const nitro = realdata('nitro');

let scratch: string;
const started: (AvatarServiceInstance & { url: string })[] = [];

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'avatar-loops-'));
});

after(async () => {
  for (const s of started) await s.close();
  await rm(scratch, { recursive: true, force: true });
});

async function start(assets: string) {
  const s = await startAvatarService(testAvatarConfig(assets, await deadBase(), { clientRatePerSecond: 0 }));
  started.push(s);
  return s;
}

async function get(base: string, q: string) {
  const res = await fetch(`${base}/avatar.png?${q}`, { redirect: 'manual' });
  const body = Buffer.from(await res.arrayBuffer());
  assert.equal(res.status, 200, `${q}: ${res.status} ${res.headers.get('x-imager-fallback') ?? ''}`);
  return { res, body };
}

/** Full frames of an APNG (each of ours covers the canvas), with their delays in ms. */
function apngOf(body: Buffer): { frames: Uint8Array[]; delaysMs: number[] } {
  const a = decodeApng(body);
  for (const f of a.frames) assert.deepEqual([f.x, f.y, f.image.width, f.image.height], [0, 0, a.width, a.height]);
  return {
    frames: a.frames.map((f) => f.image.data),
    delaysMs: a.frames.map((f) => (1000 * f.delayNum) / (f.delayDen || 100)),
  };
}

/**
 * Checks one loop: GIF with and without animated is the APNG's loop; frame_num n (several, wrapped) is the
 * APNG's frame n as a still PNG and as a one-frame GIF, with and without animated.
 */
async function checkLoop(base: string, q: string, minFrames: number): Promise<number> {
  const apng = apngOf((await get(base, `${q}&animated=1`)).body);
  const n = apng.frames.length;
  assert.ok(n >= minFrames, `${q}&animated=1 has ${n} frames, expected at least ${minFrames}`);

  for (const extra of ['', '&animated=1']) {
    const { res, body } = await get(base, `${q}&img_format=gif${extra}`);
    assert.equal(res.headers.get('content-type'), 'image/gif', `${q} gif${extra}`);
    assert.equal(res.headers.get('x-imager-frames'), String(n), `${q} gif${extra}: x-imager-frames`);
    const gif = readGif(body);
    assert.equal(gif.frames.length, n, `${q}&img_format=gif${extra} is the whole loop`);
    assert.equal(gif.loops, 0, `${q} gif${extra} loops forever`);
    assertGifShows(
      gifFramesRgba(gif),
      apng.frames.map((f) => gifView(f, gif.width)),
      `${q} gif${extra}: the APNG's frames`,
      assert.ok,
    );
    // GIF delays are centiseconds; the writer spreads the rounding, so the loop's total is kept within 1 cs.
    const gifTotal = gif.frames.reduce((s, f) => s + f.delayCs, 0);
    const apngTotal = apng.delaysMs.reduce((s, d) => s + d, 0) / 10;
    assert.ok(Math.abs(gifTotal - apngTotal) <= 1, `${q} gif${extra}: loop of ${gifTotal} cs, APNG ${apngTotal} cs`);
  }

  for (const fn of [0, 1, 2, n - 1, n, n + 1, -1]) {
    const want = ((fn % n) + n) % n;
    for (const extra of ['', '&animated=1']) {
      const png = await get(base, `${q}&frame_num=${fn}${extra}`);
      assert.equal(png.res.headers.get('content-type'), 'image/png');
      assert.equal(png.res.headers.get('x-imager-frames'), '1', `${q}&frame_num=${fn}${extra} is a still`);
      const { decodePngSync } = await import('../../../src/imaging/png.js');
      assert.deepEqual(
        decodePngSync(png.body).data,
        apng.frames[want],
        `${q}&frame_num=${fn}${extra} is frame ${want}`,
      );

      const gif = await get(base, `${q}&frame_num=${fn}&img_format=gif${extra}`);
      const read = readGif(gif.body);
      assert.equal(read.frames.length, 1, `${q}&frame_num=${fn}&img_format=gif${extra}`);
      assertGifShows(
        gifFramesRgba(read),
        [gifView(apng.frames[want]!, read.width)],
        `${q}&frame_num=${fn}&img_format=gif${extra} is frame ${want}`,
        assert.ok,
      );
    }
  }
  return n;
}

test('kit: dance=1-4 and action=dance.N as GIF are the whole loop, and frame_num picks frame n, with or without animated', async () => {
  const kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  const svc = await start(kit);
  for (const dance of [1, 2, 3, 4]) {
    for (const how of [`dance=${dance}`, `action=dance.${dance}`]) {
      const n = await checkLoop(svc.url, `figure=${FIG}&size=m&${how}`, 2);
      if (how.startsWith('dance=')) {
        // The two spellings are one dance: the same loop.
        const a = (await get(svc.url, `figure=${FIG}&size=m&${how}&img_format=gif`)).body;
        const b = (await get(svc.url, `figure=${FIG}&size=m&action=dance.${dance}&img_format=gif`)).body;
        assert.deepEqual(a, b, `dance=${dance} and action=dance.${dance} as GIF`);
        assert.ok(n >= 2);
      }
    }
  }
});

test('kit: an animated effect (fx 2, held last frame) as GIF is its loop with its own delays; frame_num picks its frames', async () => {
  const kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  const svc = await start(kit);
  const n = await checkLoop(svc.url, `figure=${FIG}&size=m&effect=2`, 4);
  assert.equal(n, 4);
  // A dance under an effect: the combined loop animates as GIF too.
  await checkLoop(svc.url, `figure=${FIG}&size=m&effect=2&dance=1`, 2);
});

test('real data: Dance1-4 and an animated effect as GIF and with frame_num', { skip: nitro.skip }, async () => {
  const svc = await start(nitro.path);
  for (const dance of [1, 2, 3, 4]) await checkLoop(svc.url, `figure=${REAL_FIG}&size=m&dance=${dance}`, 2);
  await checkLoop(svc.url, `figure=${REAL_FIG}&size=m&action=dance.1`, 2);
  for (const fx of [5, 7]) await checkLoop(svc.url, `figure=${REAL_FIG}&size=m&effect=${fx}`, 2); // Torch, Butterflies
});
