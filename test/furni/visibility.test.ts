// What counts as visible, and what the still therefore shows, on the sample kit's items modelled on
// real failures: state 0 without an animation (seed packs, clothing_*), near-transparent "off" frames
// (bonus bags), a depleting bowl with a placeholder pixel (petfood*), a guild item's badge slot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kitModel, px, spritePixels } from './kit-helpers.js';
import { chooseStill, renderIcon, renderRoom, renderStill, restingStateSummaries } from '../../src/furni/render.js';
import { seenPixels, isVisibleLayer, SEEN_ALPHA, MIN_SEEN_PIXELS } from '../../src/furni/visibility.js';
import { sizeOf, type FurniModel } from '../../src/furni/model.js';
import { createImage, imagesEqual, type RgbaImage } from '../../src/imaging/image.js';

function image(w: number, h: number, rgba: [number, number, number, number]): RgbaImage {
  const img = createImage(w, h);
  for (let i = 0; i < img.data.length; i += 4) img.data.set(rgba, i);
  return img;
}

/** A copy of a kit model with some size-64 fields changed (the kit's cached model stays as it is). */
function variant(cn: string, change: (m: FurniModel) => void): FurniModel {
  const base = kitModel(cn);
  const m: FurniModel = { def: structuredClone(base.def), sprites: new Map(base.sprites) };
  change(m);
  return m;
}

/** Every opaque pixel of an unflipped sprite lands unchanged in the render (nothing drawn over it). */
function assertDrawn(m: FurniModel, r: ReturnType<typeof renderRoom>, asset: string, label: string): void {
  let n = 0;
  for (const q of spritePixels(m, r, asset)) {
    if (q.p[3] !== 255) continue;
    assert.deepEqual(px(r.image!, q.x, q.y), q.p, `${label}: ${asset} at ${q.x},${q.y}`);
    n++;
  }
  assert.ok(n > 5, `${label}: ${asset} has opaque pixels`);
}

test('seen pixels: drawn alpha ≥ 16 counts, alpha 3–13 off frames do not; layer alpha and ADD brightness scale it', () => {
  assert.equal(SEEN_ALPHA, 16);
  for (const a of [0, 3, 6, 13, 15])
    assert.equal(seenPixels(image(1, 1, [0, 0, 0, a]), 255, 'normal'), 0, `alpha ${a}`);
  assert.equal(seenPixels(image(1, 1, [0, 0, 0, 16]), 255, 'normal'), 1);
  assert.equal(seenPixels(image(3, 2, [200, 10, 10, 255]), 255, 'normal'), 6);
  // Layer alpha multiplies: 255 × 15/255 = 15 is not seen, 255 × 16/255 = 16 is; 64 × 64/255 ≈ 16.06 is.
  assert.equal(seenPixels(image(2, 2, [9, 9, 9, 255]), 15, 'normal'), 0);
  assert.equal(seenPixels(image(2, 2, [9, 9, 9, 255]), 16, 'normal'), 4);
  assert.equal(seenPixels(image(2, 2, [9, 9, 9, 64]), 64, 'normal'), 4);
  // ADD adds light: an opaque black pixel adds nothing, a dim one (brightest channel 15) nearly nothing.
  assert.equal(seenPixels(image(2, 2, [0, 0, 0, 255]), 255, 'add'), 0);
  assert.equal(seenPixels(image(2, 2, [15, 4, 4, 255]), 255, 'add'), 0);
  assert.equal(seenPixels(image(2, 2, [16, 4, 4, 255]), 255, 'add'), 4);
  assert.equal(seenPixels(image(2, 2, [0, 0, 0, 255]), 255, 'subtract'), 4, 'other inks count alpha only');
  // A layer needs two seen pixels: one pixel is the converter's placeholder for an empty frame.
  assert.equal(MIN_SEEN_PIXELS, 2);
  assert.equal(isVisibleLayer(image(1, 1, [0, 0, 0, 255]), 255, 'normal'), false);
  assert.equal(isVisibleLayer(image(2, 1, [0, 0, 0, 255]), 255, 'normal'), true);
});

test('state 0 without an animation is a state: frame 0 of every layer (the seed pack whose only animation shows a missing frame)', () => {
  const m = kitModel('kit_seedpack_noframe');
  const states = restingStateSummaries(m);
  assert.deepEqual(states.map((s) => [s.state, s.visibleLayers]).sort(), [
    [0, 2],
    [1, 0],
  ]);
  const r = renderRoom(m);
  assert.equal(r.state, 0);
  assert.ok(r.image, 'a still, not an empty render');
  assertDrawn(m, r, 'kit_seedpack_noframe_64_b_2_0', 'label B0');
  // State 1 itself shows nothing.
  assert.equal(renderRoom(m, { state: 1, direction: 2 }).image, null);
});

test('near-transparent 1x1 off frames are not visible layers: the bag shows its closed state, not a speck', () => {
  const m = kitModel('kit_bag_speck');
  const c = chooseStill(m)!;
  assert.deepEqual([c.state, c.visibleLayers], [1, 2]);
  const r = renderRoom(m);
  assert.ok(r.image!.width > 20 && r.image!.height > 40, `${r.image!.width}x${r.image!.height}`);
  assertDrawn(m, r, 'kit_bag_speck_64_b_2_0', 'tag (on top of the bag)');
  // The cracked state draws nothing anyone can see: no still, not a 1x1 PNG.
  assert.equal(renderRoom(m, { state: 2, direction: 2 }).image, null);
  // An item whose only state is the cracked one is an empty render.
  const cracked = variant('kit_bag_speck', (x) => {
    sizeOf(x, 64)!.animations = sizeOf(x, 64)!.animations.filter((a) => a.id === 2);
    for (const d of sizeOf(x, 64)!.directions) d.layers = {};
    x.sprites.delete('kit_bag_speck_64_a_2_0');
    x.sprites.delete('kit_bag_speck_64_b_2_0');
  });
  assert.equal(renderStill(cracked), null);
});

test('of states showing the same layers and frames the fuller one wins; a single placeholder pixel is not drawn', () => {
  const m = kitModel('kit_bowl_depleting');
  const byState = new Map(restingStateSummaries(m).map((s) => [s.state, s]));
  assert.equal(byState.get(3)!.visibleLayers, 1, "the empty state's placeholder pixel is not a visible layer");
  assert.ok(
    byState.get(0)!.seenPixels > byState.get(1)!.seenPixels && byState.get(1)!.seenPixels > byState.get(2)!.seenPixels,
  );
  const r = renderRoom(m);
  assert.equal(r.state, 0);
  assertDrawn(m, r, 'kit_bowl_depleting_64_b_2_0', 'full heap');
  // The empty bowl draws exactly the bowl: the black pixel would stretch the crop and show as a dot.
  const empty = renderRoom(m, { state: 3, direction: 2 }).image!;
  const bowlOnly = renderRoom(
    variant('kit_bowl_depleting', (x) => void (sizeOf(x, 64)!.layerCount = 1)),
    { state: 3, direction: 2 },
  ).image!;
  assert.ok(imagesEqual(empty, bowlOnly));
});

test('badge slots are never drawn: guild items (stills) and badge displays; the tag alone means nothing elsewhere', () => {
  const m = kitModel('kit_guild_badge');
  const r = renderRoom(m);
  const placeholder = m.sprites.get('kit_guild_badge_64_d_2_0')!;
  // The placeholder would lie right of everything else: the still ends before it.
  const right = r.originX - placeholder.x;
  assert.ok(r.image!.width <= right, `still is ${r.image!.width} wide, the placeholder starts at ${right}`);
  for (let y = 0; y < r.image!.height; y++)
    for (let x = 0; x < r.image!.width; x++)
      assert.notDeepEqual(px(r.image!, x, y), [244, 244, 244, 255], 'no untinted white pixel');
  assert.equal(chooseStill(m)!.visibleLayers, 3);
  // The same data as a badge display: still no badge; as a plain animated item the layer is drawn.
  const asDisplay = variant('kit_guild_badge', (x) => void (x.def.visualizationType = 'furniture_badge_display'));
  assert.ok(renderRoom(asDisplay).image!.width <= right);
  const plain = renderRoom(variant('kit_guild_badge', (x) => void (x.def.visualizationType = 'furniture_animated')));
  assert.ok(plain.image!.width > right, 'a BADGE tag on another visualization is just a layer');
  assert.deepEqual(
    px(plain.image!, plain.originX - placeholder.x + 5, plain.originY - placeholder.y + 5),
    [244, 244, 244, 255],
  );
  // Icons follow the same rule: a BADGE-tagged icon layer is left out.
  const iconTagged = variant('kit_guild_badge', (x) => void (sizeOf(x, 1)!.layers['0'] = { tag: 'BADGE' }));
  assert.ok(renderIcon(m));
  assert.equal(renderIcon(iconTagged), null);
});

test('guild colours: the COLOR1 / COLOR2 cloth takes the client defaults in the kit guild banner', () => {
  const m = kitModel('kit_guild_badge');
  const r = renderRoom(m);
  const probe = (asset: string) => {
    const s = m.sprites.get(asset)!;
    return px(
      r.image!,
      r.originX - s.x + Math.floor(s.image.width / 2),
      r.originY - s.y + Math.floor(s.image.height / 2),
    );
  };
  const mul = (c: number, t: number) => Math.round((c * t) / 255);
  assert.deepEqual(probe('kit_guild_badge_64_b_2_0'), [mul(244, 0xee), mul(244, 0xee), mul(244, 0xee), 255]);
  assert.deepEqual(probe('kit_guild_badge_64_c_2_0'), [mul(244, 0x4b), mul(244, 0x4b), mul(244, 0x4b), 255]);
});
