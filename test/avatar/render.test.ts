import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  animationFrameCount,
  AvatarRenderError,
  encodeAvatar,
  normalizeRequest,
  renderAvatar,
  type AvatarRequest,
} from '../../src/avatar/index.js';
import {
  createImage,
  flipHorizontal,
  imagesEqual,
  scaleNearest,
  alphaBounds,
  type RgbaImage,
} from '../../src/imaging/image.js';
import { decodeImage } from '../../src/imaging/codec.js';
import { readPngChunks } from '../../src/imaging/png-chunks.js';
import { fixtureHotel, fixtureGamedata, fixtureLibraries, C } from './fixture.js';
import { createAvatarHotel } from '../../src/avatar/hotel.js';
import { plainRequest, type RequestFields } from '../helpers/avatar-request.js';

const hotel = fixtureHotel();
// assert.ok without a message re-reads the source to describe a failure, which stalls under tsx.
const ok = (v: unknown, m = 'expected a truthy value') => assert.equal(!!v, true, m);
const FIG = 'hd-1-1.ch-10-61.lg-20-62';

function req(over: Partial<RequestFields> = {}): AvatarRequest {
  return plainRequest(FIG, over);
}

function px(img: RgbaImage, x: number, y: number): number[] {
  const i = (y * img.width + x) * 4;
  return [...img.data.subarray(i, i + 4)];
}

function shiftX(img: RgbaImage, dx: number): RgbaImage {
  const out = createImage(img.width, img.height);
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) {
      const sx = x - dx;
      if (sx < 0 || sx >= img.width) continue;
      out.data.set(img.data.subarray((y * img.width + sx) * 4, (y * img.width + sx) * 4 + 4), (y * img.width + x) * 4);
    }
  return out;
}

function countColour(img: RgbaImage, rgb: readonly number[]): number {
  let n = 0;
  for (let i = 0; i < img.data.length; i += 4)
    if (img.data[i] === rgb[0] && img.data[i + 1] === rgb[1] && img.data[i + 2] === rgb[2] && img.data[i + 3]! > 0) n++;
  return n;
}

test('dimension table of contract A2.3 for every size × headonly × lay', async () => {
  const want: Record<string, [number, number][]> = {
    s: [
      [33, 56],
      [27, 30],
      [56, 33],
    ],
    m: [
      [64, 110],
      [54, 62],
      [110, 64],
    ],
    l: [
      [128, 220],
      [108, 124],
      [220, 128],
    ],
  };
  for (const size of ['s', 'm', 'l'] as const) {
    for (const [i, over] of [{}, { headOnly: true }, { action: 'lay' }].entries()) {
      for (const direction of [0, 2, 4, 7]) {
        const r = await renderAvatar(hotel, req({ size, direction, headDirection: direction, ...over }));
        assert.deepEqual([r.width, r.height], want[size]![i], `${size} ${JSON.stringify(over)} dir ${direction}`);
        assert.deepEqual([r.frames[0]!.width, r.frames[0]!.height], want[size]![i]);
      }
    }
  }
});

test('size l is a 2x nearest-neighbour upscale of size m', async () => {
  for (const over of [{}, { headOnly: true }, { action: 'lay' }, { action: 'wav', direction: 5 }]) {
    const m = await renderAvatar(hotel, req(over));
    const l = await renderAvatar(hotel, req({ ...over, size: 'l' }));
    ok(imagesEqual(l.frames[0]!, scaleNearest(m.frames[0]!, 2)));
  }
});

test('the canvas does not move with a hat or a raised arm', async () => {
  const plain = await renderAvatar(hotel, req());
  const hat = await renderAvatar(hotel, req({ figure: `${FIG}.ha-40-61` }));
  const wave = await renderAvatar(hotel, req({ action: 'wav' }));
  assert.deepEqual(
    [hat.width, hat.height, wave.width, wave.height],
    [plain.width, plain.height, plain.width, plain.height],
  );
  // the body (bd colour is covered by the shirt; legs are not) stays at the same pixels
  const legs = (img: RgbaImage) => {
    const out: number[] = [];
    for (let i = 0; i < img.data.length; i += 4)
      if (img.data[i + 3]! > 0 && img.data[i] === 0 && img.data[i + 1] === 80) out.push(i);
    return out;
  };
  ok(legs(plain.frames[0]!).length > 0);
  assert.deepEqual(legs(hat.frames[0]!), legs(plain.frames[0]!));
  assert.deepEqual(legs(wave.frames[0]!), legs(plain.frames[0]!));
});

test('a symmetric figure at directions 4-6 is directions 2-0 mirrored (3 px right of the canvas mirror, as the client)', async () => {
  for (const [a, b] of [
    [0, 6],
    [1, 5],
    [2, 4],
  ]) {
    const ra = await renderAvatar(hotel, req({ direction: a, headDirection: a }));
    const rb = await renderAvatar(hotel, req({ direction: b, headDirection: b }));
    ok(imagesEqual(rb.frames[0]!, shiftX(flipHorizontal(ra.frames[0]!), 3)), `${b} vs ${a}`);
    ok(
      rb.layers.every((l) => l.flip),
      'mirrored directions draw flipped sprites',
    );
  }
});

test('mirror exceptions keep their own sprites at 4-6, unflipped (wave hand, cp print, carried item)', async () => {
  const r = await renderAvatar(hotel, req({ action: 'wav', direction: 4, headDirection: 4 }));
  const lh = r.layers.find((l) => l.partType === 'lh')!;
  assert.equal(lh.asset, 'h_wav_lh_1_4_0');
  assert.equal(lh.flip, false);
  const cp = await renderAvatar(hotel, req({ figure: 'hd-1-1.ch-60.lg-20-62', direction: 4, headDirection: 4 }));
  const l = cp.layers.find((x) => x.partType === 'cp')!;
  assert.equal(l.asset, 'h_std_cp_60_4_0');
  assert.equal(l.flip, false);
  const crr = await renderAvatar(hotel, req({ action: 'crr=7', direction: 5, headDirection: 5 }));
  const ri = crr.layers.find((x) => x.partType === 'ri')!;
  assert.equal(ri.asset, 'h_crr_ri_7_5_0');
  assert.equal(ri.flip, false);
  // non-exceptions swap sides: the left hand at 4 draws the right hand of 2, flipped
  const std4 = await renderAvatar(hotel, req({ direction: 4, headDirection: 4 }));
  const lh4 = std4.layers.find((x) => x.partType === 'lh')!;
  assert.equal(lh4.asset, 'h_std_rh_1_2_0');
  assert.equal(lh4.flip, true);
});

test('face and eyes are not drawn at direction 7; head direction is independent of the body', async () => {
  const r7 = await renderAvatar(hotel, req({ direction: 2, headDirection: 7 }));
  ok(!r7.layers.some((l) => l.partType === 'fc' || l.partType === 'ey'));
  ok(r7.layers.some((l) => l.asset === 'h_std_hd_1_7_0'));
  ok(r7.layers.some((l) => l.asset === 'h_std_bd_1_2_0'));
  // Directions wrap where the query gets its meaning (normalizeRequest); the renderer draws what it is given.
  const asked = normalizeRequest(
    new Map([
      ['direction', '9'],
      ['head_direction', '-5'],
    ]),
  );
  assert.deepEqual([asked.direction, asked.headDirection], [1, 3]);
  const r3 = await renderAvatar(hotel, req({ direction: asked.direction, headDirection: asked.headDirection }));
  ok(
    r3.layers.some((l) => l.asset === 'h_std_bd_1_1_0'),
    'direction 9 wraps to 1',
  );
  ok(
    r3.layers.some((l) => l.asset === 'h_std_hd_1_3_0'),
    'head direction -5 wraps to 3',
  );
});

test('tint is a per-channel multiply that keeps alpha; eyes are never tinted', async () => {
  const r = await renderAvatar(hotel, req({ figure: 'hd-1-2.ch-11-62.lg-20-62' }));
  const img = r.frames[0]!;
  const ch = r.layers.find((l) => l.partType === 'ch')!;
  assert.equal(ch.tint, '#0080ff');
  // a shirt pixel over nothing else: its left column is one pixel left of the body
  const p = px(img, ch.x, ch.y);
  assert.deepEqual(p, [0, 128, 255, 128]);
  const ey = r.layers.find((l) => l.partType === 'ey')!;
  assert.equal(ey.tint, null);
  assert.deepEqual(px(img, ey.x + 1, ey.y), [...C.ey]);
  const hd = r.layers.find((l) => l.partType === 'hd')!;
  assert.deepEqual(
    px(img, hd.x + 1, hd.y + 1),
    [(0x99 * 250) / 255, (0x66 * 250) / 255, (0x33 * 250) / 255, 255].map(Math.round),
  );
});

test('hidden layers: a hat hides the hair; the mc slot is not drawn (contract A2.1; the client geometry has no place for it)', async () => {
  const hair = await renderAvatar(hotel, req({ figure: `${FIG}.hr-30-61` }));
  ok(hair.layers.some((l) => l.partType === 'hr'));
  const hat = await renderAvatar(hotel, req({ figure: `${FIG}.hr-30-61.ha-40` }));
  ok(!hat.layers.some((l) => l.partType === 'hr'));
  ok(hat.layers.some((l) => l.partType === 'ha'));
  const mc = await renderAvatar(hotel, req({ figure: `${FIG}.mc-50`, direction: 4, headDirection: 4 }));
  ok(!mc.layers.some((l) => l.partType === 'mc'));
  assert.equal(countColour(mc.frames[0]!, C.mc), 0);
});

test('mandatory set types missing from the figure get the client default: first club-0 set of the gender or U, untinted', async () => {
  const r = await renderAvatar(hotel, req({ figure: 'hd-1-2.ch-10-61' }));
  const lg = r.layers.find((l) => l.partType === 'lg')!;
  ok(lg, 'legs are added');
  assert.equal(lg.partId, 20);
  assert.equal(lg.tint, null, 'a default is drawn untinted (colour id 0 is in no palette)');
  // A figure without hd gets the stock placeholder head (hd-99999): bd/hd/lh/rh 1 untinted, no face.
  const noHead = await renderAvatar(hotel, req({ figure: 'ch-10-61' }));
  const hd = noHead.layers.find((l) => l.partType === 'hd')!;
  ok(hd, 'a head is drawn');
  assert.equal(hd.tint, null);
  ok(!noHead.layers.some((l) => l.partType === 'fc' || l.partType === 'ey'), 'the placeholder head has no face');
  ok(noHead.layers.some((l) => l.partType === 'bd' && l.tint === null));
});

test('a mandatory default is never refused: one the hotel cannot draw is left out, a worn set it cannot draw is a 302', async () => {
  const libs = new Map(fixtureLibraries().map((l) => [l.name, l]));
  const g = fixtureGamedata();
  // lg's first listed set (21) has no library, as a figuredata newer than the hotel's libraries has.
  const lg = g.figureData.setTypes.find((t) => t.type === 'lg')!;
  lg.sets.unshift({ id: 21, gender: 'U', selectable: true, parts: [{ id: 21, type: 'lg', colorindex: 1 }] });
  g.figureMap.libraries.push({ id: 'fx_not_installed', parts: [{ id: 21, type: 'lg' }] });
  const h = createAvatarHotel({
    layout: 'memory',
    ...g,
    libraryNames: libs.keys(),
    loadLibrary: async (n) => libs.get(n)!,
  });
  const r = await renderAvatar(h, req({ figure: 'hd-1-1.ch-10-61' }));
  ok(!r.layers.some((l) => l.partType === 'lg'), 'the client default (set 21) has no sprites: no legs, no failure');
  await assert.rejects(
    renderAvatar(h, req({ figure: 'hd-1-1.ch-10-61.lg-21-61' })),
    (e: unknown) => e instanceof AvatarRenderError && e.code === 'asset-load',
  );
});

test('sprite fallback chain: missing action sprite → std; missing frame → frame 0', async () => {
  // ch 10 has only std sprites; the wave animates the hand, the shirt stays on std
  const r = await renderAvatar(hotel, req({ action: 'spk', animated: true }));
  assert.equal(r.frames.length, 2);
  const f1 = r.layers.filter((l) => l.frame === 1);
  ok(f1.some((l) => l.asset === 'h_spk_hd_1_2_1'));
  ok(f1.some((l) => l.asset === 'h_spk_fc_1_2_1'));
  // talking while lying: Lay governs the head, so the plain lying head is drawn (never the lay variant lsp)
  const lay = await renderAvatar(hotel, req({ action: 'lay,spk' }));
  ok(lay.layers.some((l) => l.asset === 'h_lay_hd_1_2_0'));
});

test('held items: crr=<id> draws the sprite id; unknown id → empty hand; bad id → empty-handed pose', async () => {
  const r = await renderAvatar(hotel, req({ action: 'crr=7' }));
  const ri = r.layers.find((l) => l.partType === 'ri')!;
  assert.equal(ri.asset, 'h_crr_ri_7_2_0');
  ok(r.layers.some((l) => l.asset === 'h_crr_rh_1_2_0'));
  ok(countColour(r.frames[0]!, C.item) > 0);
  const alias = await renderAvatar(hotel, req({ action: 'carry=7' }));
  ok(imagesEqual(alias.frames[0]!, r.frames[0]!));
  const missing = await renderAvatar(hotel, req({ action: 'crr=999' }));
  ok(!missing.layers.some((l) => l.partType === 'ri'));
  ok(
    missing.layers.some((l) => l.asset === 'h_crr_rh_1_2_0'),
    'the carry pose is drawn with an empty hand',
  );
  const std = await renderAvatar(hotel, req());
  for (const bad of ['crr=abc', 'crr=-1', 'crr=123456789', 'crr', 'bogus']) {
    const b = await renderAvatar(hotel, req({ action: bad }));
    ok(imagesEqual(b.frames[0]!, std.frames[0]!), bad);
  }
});

test('lay: landscape canvas, body drawn from lay sprites; direction 0 lies the other way', async () => {
  const r2 = await renderAvatar(hotel, req({ action: 'lay' }));
  ok(r2.layers.some((l) => l.asset === 'h_lay_bd_1_2_0' && !l.flip));
  const r0 = await renderAvatar(hotel, req({ action: 'lay', direction: 0, headDirection: 0 }));
  ok(r0.layers.some((l) => l.asset === 'h_lay_bd_1_2_0' && l.flip));
  for (const r of [r0, r2]) {
    const b = alphaBounds(r.frames[0]!)!;
    ok(b.x >= 0 && b.x + b.width <= 110 && b.y >= 0 && b.y + b.height <= 64, 'the lying body fits the canvas');
  }
  // the two sides mirror each other
  ok(imagesEqual(r0.frames[0]!, flipHorizontal(r2.frames[0]!)));
});

test('frame counts per action and crop; frames caps; animated=0 gives one frame', () => {
  const n = (over: Partial<RequestFields>) => animationFrameCount(hotel, req(over));
  assert.equal(n({}), 1);
  assert.equal(n({ action: 'wav' }), 2);
  assert.equal(n({ action: 'sit,wav' }), 2);
  assert.equal(n({ action: 'spk' }), 2);
  assert.equal(n({ gesture: 'spk' }), 2);
  assert.equal(n({ action: 'wav', headOnly: true }), 1);
  assert.equal(n({ action: 'spk', headOnly: true }), 2);
  assert.equal(n({ action: 'crr=7' }), 1);
  assert.equal(n({ action: 'lay' }), 1);
});

test('animated renders: wav gives 2 distinct frames, frames=1 caps, still poses stay 1', async () => {
  const w = await renderAvatar(hotel, req({ action: 'wav', animated: true }));
  assert.equal(w.frames.length, 2);
  ok(!imagesEqual(w.frames[0]!, w.frames[1]!));
  assert.equal((await renderAvatar(hotel, req({ action: 'wav', animated: true, frames: 1 }))).frames.length, 1);
  assert.equal((await renderAvatar(hotel, req({ action: 'wav', animated: false }))).frames.length, 1);
  assert.equal((await renderAvatar(hotel, req({ action: 'sit', animated: true }))).frames.length, 1);
  const sitWave = await renderAvatar(hotel, req({ action: 'sit,wav', animated: true }));
  assert.equal(sitWave.frames.length, 2);
  ok(sitWave.layers.some((l) => l.asset === 'h_sit_bd_1_2_0'));
  ok(sitWave.layers.some((l) => l.asset === 'h_wav_lh_1_2_1'));
});

test('encodeAvatar: PNG for a still, APNG for a loop; deterministic bytes', async () => {
  const still = await encodeAvatar(await renderAvatar(hotel, req()));
  assert.deepEqual(
    readPngChunks(still)
      .map((c) => c.type)
      .filter((t) => t === 'acTL'),
    [],
  );
  const a1 = await encodeAvatar(await renderAvatar(hotel, req({ action: 'wav', animated: true })));
  const a2 = await encodeAvatar(await renderAvatar(hotel, req({ action: 'wav', animated: true })));
  ok(a1.equals(a2));
  const types = readPngChunks(a1).map((c) => c.type);
  assert.deepEqual(types.filter((t) => t === 'fcTL').length, 2);
  const dec = await decodeImage(a1);
  assert.deepEqual([dec.width, dec.height], [64, 110]);
});

test('bad input: malformed figure, unknown set, set without a library', async () => {
  await assert.rejects(
    renderAvatar(hotel, req({ figure: '' })),
    (e: unknown) => e instanceof AvatarRenderError && e.code === 'bad-figure',
  );
  await assert.rejects(
    renderAvatar(hotel, req({ figure: 'hd-x-1' })),
    (e: unknown) => e instanceof AvatarRenderError && e.code === 'bad-figure',
  );
  await assert.rejects(
    renderAvatar(hotel, req({ figure: 'hd-1-1.ch-12345-1' })),
    (e: unknown) => e instanceof AvatarRenderError && e.code === 'unknown-set',
  );
  await assert.rejects(
    renderAvatar(hotel, req({ figure: `${FIG}.xx-70` })),
    (e: unknown) => e instanceof AvatarRenderError && e.code === 'asset-load',
  );
  // unknown set types are ignored
  const r = await renderAvatar(hotel, req({ figure: `${FIG}.zz-1-1` }));
  ok(r.layers.length > 0);
});

// ---- on the sample kit (real Nitro files): headonly placement, head turn ----

async function kitHotel() {
  const { mkdtemp, mkdir, writeFile, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { dirname, join } = await import('node:path');
  const { avatarKitFiles } = await import('../../src/samplekit/avatar/index.js');
  const { loadAvatarHotel } = await import('../../src/avatar/index.js');
  const dir = await mkdtemp(join(tmpdir(), 'avatar-render-kit-'));
  for (const f of await avatarKitFiles()) {
    const p = join(dir, f.path);
    await mkdir(dirname(p), { recursive: true });
    await writeFile(p, f.data);
  }
  return { hotel: await loadAvatarHotel(dir), cleanup: () => rm(dir, { recursive: true, force: true }) };
}

test('headonly: the head sits at the same place whatever head parts are worn (kit, every size, facing and turned)', async () => {
  const kit = await kitHotel();
  try {
    const bare = 'hd-180-1';
    const worn = [
      'hd-180-1.hr-115-61',
      'hd-180-1.hr-515-45-40',
      'hd-180-1.ha-1001-62',
      'hd-180-1.ha-1002',
      'hd-180-1.hr-100-61.ha-1004-62.he-1601-62.ea-1401-62',
      'hd-180-1.hr-115-61.ha-1003-62.fa-1202',
    ];
    const comparedPerFigure = new Map<string, number>();
    for (const size of ['s', 'm', 'l'] as const) {
      for (const direction of [1, 2, 3, 4, 5]) {
        const base = req({ figure: bare, size, direction, headDirection: direction, headOnly: true });
        const plain = await renderAvatar(kit.hotel, base);
        const hd = plain.layers.find((l) => l.partType === 'hd')!;
        ok(hd, 'the head is drawn');
        for (const figure of worn) {
          const r = await renderAvatar(kit.hotel, { ...base, figure });
          assert.deepEqual(
            [r.width, r.height],
            [plain.width, plain.height],
            `${figure} ${size} ${direction}: same canvas`,
          );
          const h = r.layers.find((l) => l.partType === 'hd')!;
          assert.deepEqual(
            [h.x, h.y, h.width, h.height],
            [hd.x, hd.y, hd.width, hd.height],
            `${figure} ${size} ${direction}: head layer`,
          );
          // Every head/face pixel no worn part covers is the bare head's pixel, at the same place.
          const covers = r.layers.filter((l) => !['hd', 'fc', 'ey'].includes(l.partType));
          let compared = 0;
          for (let y = Math.max(0, Math.floor(hd.y)); y < Math.min(r.height, Math.ceil(hd.y + hd.height)); y++) {
            for (let x = Math.max(0, Math.floor(hd.x)); x < Math.min(r.width, Math.ceil(hd.x + hd.width)); x++) {
              const covered = covers.some(
                (l) =>
                  x >= Math.floor(l.x) &&
                  x < Math.ceil(l.x + l.width) &&
                  y >= Math.floor(l.y) &&
                  y < Math.ceil(l.y + l.height),
              );
              if (covered || px(plain.frames[0]!, x, y)[3] === 0) continue;
              assert.deepEqual(
                px(r.frames[0]!, x, y),
                px(plain.frames[0]!, x, y),
                `${figure} ${size} ${direction}: head pixel ${x},${y}`,
              );
              compared++;
            }
          }
          comparedPerFigure.set(figure, (comparedPerFigure.get(figure) ?? 0) + compared);
        }
      }
    }
    // Hair and hats cover part of the head's box (a bob all of it, at some sizes); the rest is compared.
    for (const [figure, n] of comparedPerFigure) ok(n >= 100, `${figure}: ${n} uncovered head pixels compared`);
  } finally {
    await kit.cleanup();
  }
});

test('head turn: actions with preventHeadTurn in the actions data force the head to the body; lay ignores head_direction, also headonly', async () => {
  const kit = await kitHotel();
  try {
    const fig = 'hd-180-1.hr-115-61.ch-210-66.lg-270-82.sh-290-80';
    const turned = async (over: Partial<RequestFields>) => {
      const a = await renderAvatar(kit.hotel, req({ figure: fig, direction: 2, headDirection: 4, ...over }));
      const b = await renderAvatar(kit.hotel, req({ figure: fig, direction: 2, headDirection: 2, ...over }));
      return !imagesEqual(a.frames[0]!, b.frames[0]!);
    };
    const preventing = [...kit.hotel.actions.byState.values()].filter((a) => a.preventHeadTurn).map((a) => a.state);
    assert.deepEqual(preventing.sort(), ['blow', 'idle', 'laugh', 'sleep', 'usei']);
    ok(await turned({}), 'std turns the head');
    ok(await turned({ action: 'wav' }), 'wave turns the head');
    for (const action of ['blow', 'laugh', 'drk=1', 'sleep', 'sit,blow'])
      assert.equal(await turned({ action }), false, `${action} keeps the head`);
    ok(await turned({ headOnly: true }), 'headonly turns the head');
    assert.equal(await turned({ action: 'lay' }), false, 'lay');
    assert.equal(await turned({ action: 'lay', headOnly: true }), false, 'lay with headonly');
    assert.equal(await turned({ action: 'lay,spk', headOnly: true }), false, 'lay with talk and headonly');
    // The lying head under headonly is the upright head at the body direction.
    const lay = await renderAvatar(
      kit.hotel,
      req({ figure: fig, direction: 3, headDirection: 1, action: 'lay', headOnly: true }),
    );
    const up = await renderAvatar(kit.hotel, req({ figure: fig, direction: 3, headDirection: 3, headOnly: true }));
    ok(imagesEqual(lay.frames[0]!, up.frames[0]!), 'lay + headonly = upright head at the body direction');
  } finally {
    await kit.cleanup();
  }
});
