// Avatar effects and dances (issue 16) on the sample kit's generated effects: a static prop, an animated
// additive overlay, an effect that removes, replaces and adds parts, a colour treatment, dances 1-4.
// Pixels, layers, frame counts and delays are asserted; requests without effect/dance stay untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kitRenderer, px, rgb, useKitHotel } from './kit-hotel.js';
import { animationFrameCount, encodeAvatar, renderAvatar, type AvatarRender } from '../../src/avatar/index.js';
import { readPngChunks } from '../../src/imaging/png-chunks.js';
import { imagesEqual } from '../../src/imaging/image.js';
import { normalizeAction, normalizeRequest, parseDanceId, parseEffectId } from '../../src/avatar/request.js';
import { type RequestFields } from '../helpers/avatar-request.js';

const FIG = 'hd-180-1.hr-115-61.ch-210-66.lg-270-82.sh-290-80';
const kit = useKitHotel('effects');
const { req, render } = kitRenderer(kit, FIG);
const delays = (png: Buffer): [number, number][] =>
  readPngChunks(png)
    .filter((c) => c.type === 'fcTL')
    .map((c) => [c.data.readUInt16BE(20), c.data.readUInt16BE(22)]);

test('the kit hotel has its effects and dances', () => {
  assert.deepEqual(kit.hotel.effects.names().sort(), [
    'dance.1',
    'dance.2',
    'dance.3',
    'dance.4',
    'fx.1',
    'fx.10',
    'fx.2',
    'fx.3',
    'fx.4',
    'fx.5',
    'fx.6',
    'fx.7',
    'fx.8',
    'fx.9',
  ]);
});

test('static prop: a floor disc behind the avatar and a post in front, a still even when animated', async () => {
  const r = await render({ effect: 1, animated: true });
  assert.equal(r.frames.length, 1, 'type 1 does not animate');
  assert.equal(animationFrameCount(kit.hotel, req({ effect: 1, animated: true })), 1);
  const f = r.frames[0]!;
  assert.equal(rgb(px(f, 10, 104)), 0x7b3fa8, 'the disc left of the feet');
  assert.equal(px(f, 10, 104)[3], 255);
  assert.equal(rgb(px(f, 52, 100)), 0xd8a830, 'the post');
  const disc = r.layers.find((l) => l.partType === 'fx1_1')!;
  const post = r.layers.find((l) => l.partType === 'fx1_2')!;
  const body = r.layers.filter((l) => l.bodyPart !== 'effect');
  assert.ok(body.length > 5);
  assert.ok(
    body.every((l) => l.order > disc.order && l.order < post.order),
    'dz < 0 behind the avatar, dz > 0 in front',
  );
  assert.equal(disc.library, 'KitPedestal');
  assert.equal(disc.effect, 'fx.1');
  // The plain avatar's pixels are all still there where the prop does not reach.
  const plain = (await render()).frames[0]!;
  assert.deepEqual(px(f, 34, 40), px(plain, 34, 40));
});

test('animated overlay: its own frame count and timing, additive light over nothing', async () => {
  const r = await render({ effect: 2, animated: true });
  assert.equal(r.frames.length, 4);
  assert.deepEqual(r.frameTicks, [1, 1, 1, 3], 'the last frame repeats 3 ticks');
  assert.equal(animationFrameCount(kit.hotel, req({ effect: 2, animated: true })), 4);
  for (let i = 1; i < 4; i++)
    assert.ok(!imagesEqual(r.frames[i - 1]!, r.frames[i]!), `frame ${i} differs from ${i - 1}`);
  const png = await encodeAvatar(r);
  assert.deepEqual(
    delays(png),
    [
      [1, 6],
      [1, 6],
      [1, 6],
      [3, 6],
    ],
    'APNG delays in sixths of a second',
  );
  // The star (0x60a0ff, ink 33) over nothing: its light, brightest channel as alpha.
  const star = r.layers.find((l) => l.frame === 0 && l.partType === 'fx2_1')!;
  assert.equal(star.ink, 'add');
  const [cr, cg, cb, ca] = px(r.frames[0]!, 16, 30);
  assert.equal(ca, 0xff, 'the star centre');
  assert.deepEqual([cr, cg, cb], [0x60, 0xa0, 0xff]);
  // Still request: frame 0 only.
  const still = await render({ effect: 2 });
  assert.equal(still.frames.length, 1);
  assert.ok(imagesEqual(still.frames[0]!, r.frames[0]!));
  // frames caps the loop.
  assert.equal((await render({ effect: 2, animated: true, frames: 2 })).frames.length, 2);
});

test('tub: removes legs and shoes, replaces the shirt, adds a part to `bottom`, lowers the avatar', async () => {
  const plain = await render();
  const r = await render({ effect: 3 });
  const types = new Set(r.layers.map((l) => l.partType));
  assert.ok(!types.has('lg') && !types.has('sh'), 'removed');
  assert.ok(plain.layers.some((l) => l.partType === 'lg') && plain.layers.some((l) => l.partType === 'sh'));
  const ch = r.layers.filter((l) => l.partType === 'ch');
  assert.deepEqual(
    ch.map((l) => [l.partId, l.library]),
    [['fx3_2', 'KitTub']],
    'the layer item replaces the shirt',
  );
  const tub = r.layers.find((l) => l.partType === 'fx3_1')!;
  assert.equal(tub.bodyPart, 'bottom');
  assert.equal(tub.partId, '1', 'an added part without a base has the static id 1');
  const hd = (x: AvatarRender) => x.layers.find((l) => l.partType === 'hd')!;
  assert.equal(hd(r).y, hd(plain).y + 4, 'the avatar sprite moves 4 px down');
  assert.equal(hd(r).x, hd(plain).x);
  assert.equal(rgb(px(r.frames[0]!, 20, 95)), 0x8a5a2b, 'tub pixels');
  // Size l doubles the offset.
  const rl = await render({ effect: 3, size: 'l' });
  const pl = await render({ size: 'l' });
  assert.equal(hd(rl).y, hd(pl).y + 8);
});

test('the client prevents: sit drops the tub (Sit prevents fx.3), so the render is plain sit', async () => {
  const a = await encodeAvatar(await render({ action: 'sit', effect: 3 }));
  const b = await encodeAvatar(await render({ action: 'sit' }));
  assert.ok(a.equals(b));
});

test('ghost: the whole avatar at half alpha, colours kept', async () => {
  const plain = (await render()).frames[0]!;
  const g = (await render({ effect: 4 })).frames[0]!;
  let seen = 0;
  for (let i = 0; i < plain.data.length; i += 4) {
    const a = plain.data[i + 3]!;
    assert.equal(g.data[i + 3], Math.round(a * 0.5));
    if (a === 255) {
      seen++;
      assert.deepEqual([...g.data.subarray(i, i + 3)], [...plain.data.subarray(i, i + 3)]);
    }
  }
  assert.ok(seen > 500);
});

test('dances 1-4: loops of 8, 8, 10 and 16 frames at 1/6 s; dance=N and action=dance.N agree', async () => {
  const expected = [8, 8, 10, 16];
  for (let n = 1; n <= 4; n++) {
    const r = await render({ dance: n, animated: true });
    assert.equal(r.frames.length, expected[n - 1], `dance ${n}`);
    assert.ok(r.frameTicks.every((t) => t === 1));
    assert.equal(animationFrameCount(kit.hotel, req({ dance: n, animated: true })), expected[n - 1]);
    const png = await encodeAvatar(r);
    assert.ok(delays(png).every(([a, b]) => a === 1 && b === 6));
    assert.equal(
      readPngChunks(png)
        .find((c) => c.type === 'acTL')!
        .data.readUInt32BE(4),
      0,
      'loops forever',
    );
    // The two spellings are one dance once the query is normalized (the renderer sees only `dance`).
    const asked = normalizeRequest(
      new Map([
        ['action', `dance.${n}`],
        ['animated', '1'],
        ['size', 'm'],
      ]),
    );
    assert.equal(asked.dance, n);
    const viaAction = await encodeAvatar(await render(asked));
    assert.ok(png.equals(viaAction), `action=dance.${n}`);
    for (const f of r.frames) assert.deepEqual([f.width, f.height], [64, 110], 'the canvas stays the spec canvas');
  }
  // The arms move: frame 0 and 1 of dance 2 (a wave) differ in the left arm's layers.
  const d2 = await render({ dance: 2, animated: true });
  const lh = (f: number) => d2.layers.filter((l) => l.frame === f && l.bodyPart === 'leftarm').map((l) => l.asset);
  assert.notDeepEqual(lh(0), lh(1));
  assert.ok(
    lh(0).every((a) => a.includes('_wav_')),
    'dance 2 waves (its layer action Wave)',
  );
});

test('plain action=dance stays the spec still; sit prevents a dance', async () => {
  const plainDance = await render({ action: 'dance', animated: true });
  assert.equal(plainDance.frames.length, 1);
  assert.equal(
    plainDance.layers.some((l) => l.effect),
    false,
  );
  const a = await encodeAvatar(await render({ action: 'sit', dance: 1, animated: true }));
  const b = await encodeAvatar(await render({ action: 'sit', animated: true }));
  assert.ok(a.equals(b));
});

test('unknown or absent effect ids draw no effect, byte for byte', async () => {
  const plain = await encodeAvatar(await render({ animated: true, action: 'wav' }));
  for (const over of [{ effect: 999 }, { effect: 0 }, { dance: 0 }, { dance: 5 }, { action: 'wav,dance.9' }]) {
    const r = await encodeAvatar(await render({ animated: true, action: 'wav', ...over }));
    assert.ok(r.equals(plain), JSON.stringify(over));
  }
});

test('every size and headonly keep the spec canvas with an effect', async () => {
  const dims: Record<string, [number, number]> = { s: [33, 56], m: [64, 110], l: [128, 220] };
  const head: Record<string, [number, number]> = { s: [27, 30], m: [54, 62], l: [108, 124] };
  for (const size of ['s', 'm', 'l'] as const)
    for (const effect of [1, 2, 3, 4]) {
      for (const headOnly of [false, true]) {
        const r = await render({ size, effect, headOnly, animated: true });
        for (const f of r.frames)
          assert.deepEqual(
            [f.width, f.height],
            (headOnly ? head : dims)[size],
            `${size} fx ${effect} headonly ${headOnly}`,
          );
      }
    }
  // Head-only shows no effect sprites (they belong to the room view), but the effect's colour treatment.
  const ho = await render({ effect: 1, headOnly: true });
  assert.equal(
    ho.layers.some((l) => l.bodyPart === 'effect'),
    false,
  );
  const hoPlain = await encodeAvatar(await render({ headOnly: true }));
  assert.ok((await encodeAvatar(ho)).equals(hoPlain), 'a prop alone changes nothing in the head crop');
});

/** The box of a frame's visible pixels (alpha > 0): [left, top, right, bottom], right and bottom exclusive. */
function visibleBox(f: { width: number; height: number; data: Uint8Array }): [number, number, number, number] {
  let [l, t, r, b] = [f.width, f.height, 0, 0];
  for (let y = 0; y < f.height; y++) {
    for (let x = 0; x < f.width; x++) {
      if (f.data[(y * f.width + x) * 4 + 3]! === 0) continue;
      [l, t, r, b] = [Math.min(l, x), Math.min(t, y), Math.max(r, x + 1), Math.max(b, y + 1)];
    }
  }
  return [l, t, r, b];
}

/** The visible pixels of a frame, cut to their box: equal for two frames that differ only by a shift. */
function visibleCut(f: { width: number; height: number; data: Uint8Array }): string {
  const [l, t, r, b] = visibleBox(f);
  const rows: string[] = [];
  for (let y = t; y < b; y++)
    rows.push(Buffer.from(f.data.subarray((y * f.width + l) * 4, (y * f.width + r) * 4)).toString('base64'));
  return `${r - l}x${b - t}:${rows.join('/')}`;
}

test('dance under headonly: the head still bobs and turns inside the head crop', async () => {
  const r = await render({ dance: 3, headOnly: true, animated: true });
  assert.ok(r.frames.length > 1);
  assert.ok(r.layers.every((l) => l.bodyPart === 'head'));
  // Bobs: the head's visible box is not at the same height in every frame.
  const tops = new Set(r.frames.map((f) => visibleBox(f)[1]));
  assert.ok(tops.size > 1, `the head moves up and down (tops ${[...tops].join(', ')})`);
  // Turns: some frames show the head differently, not only shifted (another direction's sprites).
  const looks = new Set(r.frames.map(visibleCut));
  assert.ok(looks.size > 1, 'the head turns: frames differ beyond a shift');
});

test('query forms: effect and dance read like parseInt, action tokens dance.1-4', () => {
  assert.equal(parseEffectId('2'), 2);
  assert.equal(parseEffectId(' 12abc'), 12);
  assert.equal(parseEffectId('abc'), 0);
  assert.equal(parseEffectId(undefined), 0);
  assert.equal(parseDanceId('3'), 3);
  assert.equal(parseDanceId('5'), 0);
  assert.equal(normalizeAction('dance.2,wav'), 'wav,dance.2');
  assert.equal(normalizeAction('dance'), 'dance');
  assert.equal(normalizeAction('dance.7'), 'std');
});

test('Flash layout: effectmap.xml + effect SWFs beside the figure libraries draw the same pixels', async () => {
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { writeSampleKit } = await import('../../src/samplekit/index.js');
  const { loadAvatarHotel } = await import('../../src/avatar/index.js');
  const dir = await mkdtemp(join(tmpdir(), 'avatar-fx-flash-'));
  try {
    await writeSampleKit(dir, { layout: 'flash' });
    const flash = await loadAvatarHotel(dir);
    assert.equal(flash.layout, 'flash');
    // And converted to the Nitro layout: effectmap.xml → EffectMap.json, effect SWFs → bundled/effect.
    const { convertFlashToNitro } = await import('../../src/convert/flash-to-nitro.js');
    const report = await convertFlashToNitro({ from: dir, to: join(dir, 'converted') });
    assert.equal(report.effects.length, kit.hotel.effects.size);
    const converted = await loadAvatarHotel(join(dir, 'converted'));
    for (const over of [{ effect: 3 }, { effect: 6 }, { effect: 8 }, { dance: 4 }]) {
      const a = await render({ ...over, animated: true });
      const c = await renderAvatar(converted, req({ ...over, animated: true }));
      assert.ok(
        a.frames.every((f, i) => imagesEqual(f, c.frames[i]!)),
        `converted ${JSON.stringify(over)}`,
      );
    }
    assert.deepEqual(flash.effects.names().sort(), kit.hotel.effects.names().sort());
    for (const over of [
      { effect: 1 },
      { effect: 2 },
      { effect: 3 },
      { effect: 4 },
      { effect: 5 },
      { effect: 6 },
      { effect: 7 },
      { effect: 8 },
      { effect: 9 },
      { effect: 10 },
      { dance: 2 },
      { dance: 4 },
    ]) {
      const a = await render({ ...over, animated: true });
      const b = await renderAvatar(flash, req({ ...over, animated: true }));
      assert.deepEqual(b.frameTicks, a.frameTicks, JSON.stringify(over));
      a.frames.forEach((f, i) => assert.ok(imagesEqual(f, b.frames[i]!), `${JSON.stringify(over)} frame ${i}`));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('plain poses are resolved once per hotel and reused: an effect or dance render between two plain ones changes neither', async () => {
  // plan.ts keeps each plain (action, gesture) pose; effect poses are resolved per request and set fields on their actions.
  const poses: Partial<RequestFields>[] = [
    { action: 'wav', animated: true },
    { action: 'sit', gesture: 'sml' },
    { action: 'std' },
  ];
  const before = await Promise.all(poses.map(async (p) => encodeAvatar(await render(p))));
  for (const p of poses) {
    await render({ ...p, effect: 1 });
    await render({ ...p, dance: 2, animated: true });
  }
  const after = await Promise.all(poses.map(async (p) => encodeAvatar(await render(p))));
  poses.forEach((p, i) =>
    assert.ok(after[i]!.equals(before[i]!), `${JSON.stringify(p)} drew other bytes after effect renders`),
  );
});
