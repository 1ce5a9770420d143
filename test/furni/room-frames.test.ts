// The frame, animation and digits an item shows in a room (the client's FurnitureAnimatedVisualization
// timeline), on tiny models built here: each frame id is a sprite of its own colour.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ROOM_FIRST_UPDATE, roomAnimation, roomFramesAt, roomLayerFrameAt } from '../../src/furni/animation.js';
import { digitFrame } from '../../src/furni/special-layers.js';
import { composeRoomFrame, roomSprites } from '../../src/furni/render.js';
import {
  type AnimationDef,
  type AnimationLayerDef,
  type FurniModel,
  type FurniSprite,
  type SizeDef,
  furniModelFromLibrary,
} from '../../src/furni/model.js';
import { createImage, type RgbaImage } from '../../src/imaging/image.js';
import { px } from './kit-helpers.js';

function layer(ids: number[], o: Partial<AnimationLayerDef> = {}): AnimationLayerDef {
  return {
    loopCount: 0,
    frameRepeat: 1,
    random: false,
    sequences: [{ loopCount: 1, random: false, frames: ids.map((id) => ({ id, x: 0, y: 0, randomX: 0, randomY: 0 })) }],
    ...o,
  };
}

function anim(id: number, layers: Record<string, AnimationLayerDef>): AnimationDef {
  return { key: String(id), id, layers };
}

function size(layerCount: number, animations: AnimationDef[], layers: SizeDef['layers'] = {}): SizeDef {
  return { size: 64, layerCount, angle: 45, layers, directions: [{ id: 2, layers: {} }], colors: {}, animations };
}

/** A 2×2 sprite of one opaque colour. */
function solid(rgb: number, alpha = 255): RgbaImage {
  const img = createImage(2, 2);
  for (let i = 0; i < 4; i++) img.data.set([(rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255, alpha], i * 4);
  return img;
}

/** A model with one layer per letter in `frames` (letter → frame ids), sprite colour 0x10·id+layer. */
function model(visualizationType: string, def: SizeDef, frames: Record<string, number[]>): FurniModel {
  const sprites = new Map<string, FurniSprite>();
  for (const [letter, ids] of Object.entries(frames))
    for (const id of ids)
      sprites.set(`m_64_${letter}_2_${id}`, {
        image: solid(0x100000 * (id + 1) + (letter.charCodeAt(0) - 96)),
        x: 0,
        y: 0,
        flipH: false,
      });
  return {
    def: {
      classname: 'm',
      logicType: 'furniture_multistate',
      visualizationType,
      dimensions: { x: 1, y: 1, z: 1 },
      directions: [90],
      sizes: [def],
    },
    sprites,
  };
}

test('room frame: tick 0 is the third animation update; an unrepeated frame list starts at index 1', () => {
  assert.equal(ROOM_FIRST_UPDATE, 3);
  // Counter 1 at the first update is index floor(1/1) = 1; update 3 shows index 3.
  assert.equal(roomLayerFrameAt(layer([10, 11, 12, 13, 14, 15]), 0, 2)!.id, 13);
  assert.equal(roomLayerFrameAt(layer([10, 11, 12, 13, 14, 15]), 2, 2)!.id, 15);
  // A loop comes back round: 6 frames, tick 3 is update 6 → index 0.
  assert.equal(roomLayerFrameAt(layer([10, 11, 12, 13, 14, 15]), 3, 2)!.id, 10);
});

test('room frame: with frameRepeat 2 the first frame is index 0, held two updates (update 3 shows index 1)', () => {
  const l = layer([10, 11, 12, 13], { frameRepeat: 2 });
  assert.equal(roomLayerFrameAt(l, 0, 2)!.id, 11);
  assert.equal(roomLayerFrameAt(l, 1, 2)!.id, 11);
  assert.equal(roomLayerFrameAt(l, 2, 2)!.id, 12);
});

test('room frame: a random layer starts at frame 0 of its sequence (the first one is read)', () => {
  const l = layer([10, 11, 12, 13, 14], { random: true, loopCount: 1 });
  assert.equal(roomLayerFrameAt(l, 0, 2)!.id, 12);
  // It never holds: loopCount applies to non-random layers only.
  assert.equal(roomLayerFrameAt(l, 3, 2)!.id, 10);
});

test('room frame: a layer that plays a set number of loops holds its last frame at every tick', () => {
  const once = layer([1, 2, 3, 4, 5], { loopCount: 1, frameRepeat: 2 });
  for (const t of [0, 1, 7, 600]) assert.equal(roomLayerFrameAt(once, t, 2)!.id, 5);
  assert.equal(roomLayerFrameAt(layer([1, 2, 3], { loopCount: 3 }), 0, 2)!.id, 3);
});

test('room frame: held false shows a play-once layer still playing at the update the tool captures', () => {
  // boutique_changing2's curtain in state 1 (frames 0, 0, 1 at frameRepeat 30): index 0 at update 3.
  const once = layer([1, 2, 3, 4, 5], { loopCount: 1, frameRepeat: 2 });
  assert.equal(roomLayerFrameAt(once, 0, 2, false)!.id, 2);
  assert.equal(roomLayerFrameAt(once, 3, 2, false)!.id, 3);
  // Past its loops it holds the last frame all the same (AnimationLayerData.getFrame).
  assert.equal(roomLayerFrameAt(once, 20, 2, false)!.id, 5);
  assert.equal(roomLayerFrameAt(layer([1, 2, 3, 4, 5], { loopCount: 1 }), 0, 2, false)!.id, 4);
  // Looping layers are the same either way.
  const loop = layer([10, 11, 12, 13, 14, 15]);
  assert.equal(roomLayerFrameAt(loop, 0, 2, false)!.id, roomLayerFrameAt(loop, 0, 2)!.id);
  const f = roomFramesAt(size(2, []), anim(1, { '1': once }), 0, 2, false);
  assert.deepEqual(
    f.map((x) => x.id),
    [0, 2],
  );
});

test('room animation: the state own animation, else animation 0; a counter clock always 0; static none', () => {
  const s = size(1, [anim(0, { '0': layer([1]) }), anim(2, { '0': layer([2]) })]);
  assert.equal(roomAnimation('furniture_animated', s, 2)!.id, 2);
  assert.equal(roomAnimation('furniture_animated', s, 5)!.id, 0);
  assert.equal(roomAnimation('furniture_counter_clock', s, 2)!.id, 0);
  assert.equal(roomAnimation('furniture_static', s, 2), undefined);
  // A roller in state 2 rolls once, then rests in animation 1.
  const roller = size(1, [anim(0, {}), anim(1, {}), anim(2, {})]);
  assert.equal(roomAnimation('furniture_queue_tile', roller, 2)!.id, 1);
  assert.equal(roomAnimation('furniture_animated', roller, 2)!.id, 2);
  // A wheel animates states 1–10 only; the val randomizer is OFF (30) in 1–10 and rolls (32) in 0.
  const wheel = size(1, [anim(0, {}), anim(11, {}), anim(30, {}), anim(32, {})]);
  assert.equal(roomAnimation('furniture_habbowheel', wheel, 11)!.id, 0);
  assert.equal(roomAnimation('furniture_animated', wheel, 11)!.id, 11);
  assert.equal(roomAnimation('furniture_val_randomizer', wheel, 4)!.id, 30);
  assert.equal(roomAnimation('furniture_val_randomizer', wheel, 0)!.id, 32);
  assert.equal(roomAnimation('furniture_animated', size(1, [anim(1, {})]), 3), undefined);
  // Layers the animation does not name show frame 0.
  assert.deepEqual(
    roomFramesAt(size(2, []), s.animations[1], 0, 2).map((f) => f.id),
    [2, 0],
  );
});

test('digits: a score board shows its state, a counter clock its state as m:ss', () => {
  const score = (tag: string) => digitFrame('furniture_score_board', tag, 1234);
  assert.deepEqual(['ones_sprite', 'tens_sprite', 'hundreds_sprite', 'thousands_sprite'].map(score), [4, 3, 2, 1]);
  assert.equal(digitFrame('furniture_score_board', 'hundreds_sprite', 1), 0);
  const clock = (tag: string) => digitFrame('furniture_counter_clock', tag, 754); // 12:34
  assert.deepEqual(
    ['seconds_sprite', 'ten_seconds_sprite', 'minutes_sprite', 'ten_minutes_sprite'].map(clock),
    [4, 3, 2, 1],
  );
  assert.equal(digitFrame('furniture_animated', 'ones_sprite', 7), undefined);
  assert.equal(digitFrame('furniture_score_board', '', 7), undefined);
});

test('room sprites: a score board in state 1 shows 0 0 1, where its animation would show 9 9 9', () => {
  // Layers a (ones), b (tens), c (hundreds), laid side by side; animation 1 counts down 9 … 1.
  const tags = {
    '0': { tag: 'ones_sprite', x: 4 },
    '1': { tag: 'tens_sprite', x: 2 },
    '2': { tag: 'hundreds_sprite' },
  };
  const down = layer([9, 8, 7, 6, 5, 4, 3, 2, 1], { loopCount: 1 });
  const def = size(3, [anim(0, {}), anim(1, { '0': down, '1': down, '2': down })], tags);
  const digits = Array.from({ length: 10 }, (_, i) => i);
  const m = model('furniture_score_board', def, { a: digits, b: digits, c: digits });
  const at = { state: 1, direction: 2, tick: 0, colorId: undefined };
  const sprites = roomSprites(m, def, at);
  assert.deepEqual(
    sprites.map((sp) => [sp.asset, sp.left]),
    [
      ['m_64_a_2_1', 4],
      ['m_64_b_2_0', 2],
      ['m_64_c_2_0', 0],
    ],
  );
  // Sprite colour 0x10_0000·(id+1) + layer: the ones digit draws sprite 1 of layer a.
  assert.deepEqual(px(sprites[0]!.image, 0, 0), [0x20, 0, 1, 255]);
  // The corpus frame (composeRoomFrame) is unchanged: the animation's first frame, 9.
  const still = composeRoomFrame(m, def, at, false)!;
  assert.deepEqual(px(still.image, still.originX + 4, still.originY), [0xa0, 0, 1, 255]);
});

test('room sprites: a play-once state settles on its last frame, even when that frame is blank', () => {
  // clothing_breton's state 1: frames 1 … 4 of the item, then 5, a blank sprite held for ever.
  const def = size(1, [anim(1, { '0': layer([1, 2, 3, 4, 5], { loopCount: 1, frameRepeat: 2 }) })]);
  const m = model('furniture_animated', def, { a: [0, 1, 2, 3, 4] });
  m.sprites.set('m_64_a_2_5', { image: createImage(1, 1), x: 0, y: 0, flipH: false });
  const at = (state: number, tick: number) => ({ state, direction: 2, tick, colorId: undefined });
  for (const tick of [0, 5, 600])
    assert.deepEqual(
      roomSprites(m, def, at(1, tick)).map((sp) => sp.asset),
      ['m_64_a_2_5'],
    );
  // State 0 has no animation: frame 0.
  assert.deepEqual(
    roomSprites(m, def, at(0, 0)).map((sp) => sp.asset),
    ['m_64_a_2_0'],
  );
});

test('room sprites: a looping layer at tick 0 shows the third update (fireplace_armas state 1: frame 1)', () => {
  const def = size(1, [anim(1, { '0': layer([0, 1, 2, 3], { frameRepeat: 2, random: true }) })]);
  const m = model('furniture_animated', def, { a: [0, 1, 2, 3] });
  const assets = (tick: number) => roomSprites(m, def, { state: 1, direction: 2, tick, colorId: undefined })[0]!.asset;
  assert.equal(assets(0), 'm_64_a_2_1');
  assert.equal(assets(2), 'm_64_a_2_2');
  assert.equal(assets(6), 'm_64_a_2_0');
});

test('colour: a colour of 0 leaves the layer white, as the client reads it (ColorData.getLayerColor)', () => {
  const lib = {
    name: 'c',
    data: {
      visualizations: [
        { size: 64, layerCount: 2, colors: { '1': { layers: { '0': { color: 0 }, '1': { color: 0x336699 } } } } },
      ],
    },
    sprites: new Map<string, RgbaImage>(),
  };
  const def = furniModelFromLibrary(lib as unknown as Parameters<typeof furniModelFromLibrary>[0]).def.sizes[0]!;
  assert.deepEqual(def.colors, { '1': { '1': 0x336699 } });
});
