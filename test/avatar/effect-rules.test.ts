// The effect rules issue 27 fixed against the game client's code (one test per rule, on the sample kit's
// procedurally drawn effects, src/samplekit/avatar/effects.ts): the depth order of an effect's sprites,
// layer items that replace a part (feet, head), sprites and parts found in another effect's library, and
// where an effect's sprites stand against the figure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kitRenderer, px, rgb, useKitHotel } from './kit-hotel.js';
import { imagesEqual } from '../../src/imaging/image.js';

const FIG = 'hd-180-1.hr-115-61.ch-210-66.lg-270-82.sh-290-80';
const kit = useKitHotel('effect-rules');
const { render } = kitRenderer(kit, FIG);

test('sprite depth (RoomSpriteCanvas): equal dz → the later sprite under the earlier one; dz 0 behind the avatar', async () => {
  // KitHoverGlow: board (fx5_1, dz -1), its additive glow (fx5_2, dz -1, listed after the board), an additive
  // halo (fx5_3, dz 0) around the head; the avatar lifted 10 px.
  for (const direction of [2, 4, 6]) {
    const r = await render({ effect: 5, direction, headDirection: direction });
    const f = r.frames[0]!;
    const order = (id: string) => r.layers.find((l) => l.partType === id)!.order;
    const body = r.layers.filter((l) => l.bodyPart !== 'effect');
    assert.ok(order('fx5_2') < order('fx5_1'), `d${direction}: the glow under the board`);
    assert.ok(order('fx5_1') < order('fx5_3'), `d${direction}: dz -1 before dz 0`);
    assert.ok(
      body.every((l) => l.order > order('fx5_3')),
      `d${direction}: the dz-0 halo behind the avatar`,
    );
    // The board's own colour where it and its glow overlap (the glow added on top would brighten it).
    assert.deepEqual(px(f, 16, 100), [0x40, 0xc0, 0xa0, 255], `d${direction}: board pixel`);
    // The glow shows below the board: its light over nothing.
    assert.ok(px(f, 34, 108)[3] > 0, `d${direction}: glow below the board`);
  }
  // Behind the avatar, the halo leaves the head's pixels as they are (lifted 10 px) and shows beside it.
  const plain = (await render()).frames[0]!;
  const f = (await render({ effect: 5 })).frames[0]!;
  const head = (await render()).layers.find((l) => l.partType === 'hd')!;
  let compared = 0;
  for (let y = head.y + 2; y < head.y + head.height - 2; y++) {
    for (let x = head.x + 2; x < head.x + head.width - 2; x++) {
      const p = px(plain, x, y);
      if (p[3] !== 255 || y - 10 < 0) continue;
      assert.deepEqual(px(f, x, y - 10), p, `head pixel ${x},${y}`);
      compared++;
    }
  }
  assert.ok(compared > 100, `${compared} head pixels compared`);
  const beside = px(f, 10, 31);
  assert.ok(beside[3] > 0 && rgb(beside) !== 0, 'the halo beside the head');
});

test("layer items (AvatarStructure.getParts): the worn set of the item's type is left out of the body part — skates replace the shoes untinted, a helmet replaces the cap and the hair the cap hid shows", async () => {
  // KitSkates: the torso layer's item `sh` → `fx6_1` (found through alias names, as real skates are).
  const barefoot = FIG.replace('.sh-290-80', '');
  for (const direction of [0, 2, 4, 7]) {
    const shod = await render({ effect: 6, direction, headDirection: direction });
    const sh = shod.layers.filter((l) => l.partType === 'sh');
    assert.deepEqual(
      sh.map((l) => [l.partId, l.library, l.tint]),
      [['fx6_1', 'KitSkates', null]],
      `d${direction}: one untinted skate part`,
    );
    let boot = 0;
    const f = shod.frames[0]!;
    for (let i = 0; i < f.data.length; i += 4)
      if (f.data[i] === 0xa0 && f.data[i + 1] === 0x20 && f.data[i + 2] === 0x20 && f.data[i + 3] === 255) boot++;
    assert.ok(boot > 20, `d${direction}: the skates' own red (${boot} px)`);
    // The worn shoes leave nothing: the same picture as the figure without shoes.
    const bare = await render({ effect: 6, direction, headDirection: direction, figure: barefoot });
    assert.ok(imagesEqual(f, bare.frames[0]!), `d${direction}: with or without shoes`);
  }
  // KitHelmet: the head layer's item `ha` → `fx7_1`. The worn cap (ha-1001, hides hr) is left out of the head
  // with its hidden layers, so the hair shows under the helmet.
  const capped = 'hd-180-1.hr-115-61.ha-1001-62.ch-210-66.lg-270-82';
  const plain = await render({ figure: capped });
  assert.ok(!plain.layers.some((l) => l.partType === 'hr'), 'the cap hides the hair');
  const r = await render({ figure: capped, effect: 7 });
  assert.deepEqual(
    r.layers.filter((l) => l.partType === 'ha').map((l) => [l.partId, l.tint]),
    [['fx7_1', null]],
  );
  assert.ok(
    r.layers.some((l) => l.partType === 'hr'),
    'the hair shows',
  );
});

test('sprites from other effect libraries (AssetManager.getAsset searches every loaded library): a tagged skater with no sprites of its own draws the borrowed glow and skates', async () => {
  // KitTagged's library holds only its animation: its glow is KitHoverGlow's `std_fx5_3_1`, its skates
  // KitSkates' `sh` `fx6_1` (alias names), as the real TaggedRollerSkating borrows from TaggedIceSkating
  // and RollerSkating. The effect index names the libraries it borrows from, read from asset names at load.
  // Its added part (`fx3_1` to `bottom`, id 1) is KitTub's tub, as Easterbunny adds Carpolice's seat.
  assert.deepEqual(kit.hotel.effects.get('fx', '8')!.libraries, ['KitTagged', 'KitHoverGlow', 'KitSkates', 'KitTub']);
  assert.deepEqual(
    kit.hotel.effects.get('fx', '6')!.libraries,
    ['KitSkates'],
    'an effect with all its sprites borrows nothing',
  );
  for (const direction of [2, 5]) {
    const r = await render({ effect: 8, direction, headDirection: direction });
    const glow = r.layers.find((l) => l.partType === 'fx8_1');
    assert.equal(glow?.library, 'KitHoverGlow', `d${direction}: the glow`);
    assert.equal(glow.ink, 'add');
    assert.deepEqual(
      r.layers.filter((l) => l.partType === 'sh').map((l) => [l.partId, l.library, l.tint]),
      [['fx6_1', 'KitSkates', null]],
      `d${direction}: skates, not bare feet`,
    );
    assert.deepEqual(
      r.layers.filter((l) => l.partType === 'fx3_1').map((l) => [l.bodyPart, l.partId, l.library]),
      [['bottom', '1', 'KitTub']],
      `d${direction}: the added tub`,
    );
    // The skates are drawn as KitSkates draws them (same lift, same part), so the feet match pixel for pixel.
    const skates = await render({ effect: 6, direction, headDirection: direction });
    const sk = skates.layers.find((l) => l.partType === 'sh')!;
    const a = r.frames[0]!;
    const b = skates.frames[0]!;
    for (let y = sk.y + sk.height - 4; y < sk.y + sk.height; y++)
      for (let x = sk.x; x < sk.x + sk.width; x++)
        assert.deepEqual(px(a, x, y), px(b, x, y), `d${direction} blade ${x},${y}`);
  }
});

test("items naming figure parts (Snowboard `bd` → 999) are drawn from the figure libraries; a mask sprite stands on the figure's registration (the client's room point), moved by its per-direction offset", async () => {
  const plain = await render();
  const maskLib = await kit.hotel.effectLibraries.get('KitMask');
  for (const direction of [0, 1, 2, 3, 4, 5, 6, 7]) {
    const r = await render({ effect: 9, direction, headDirection: direction });
    const of = (type: string) => r.layers.filter((l) => l.partType === type);
    // `hd` → '2': the figure part hd 2 (hh_human_body), untinted: the worn hd set is left out of the head
    // (so are its face and eyes). `bd` → '1': the body, in the skin colour of the hd set's bd part.
    assert.deepEqual(
      of('hd').map((l) => [l.partId, l.library, l.tint]),
      [['2', 'hh_human_body', null]],
      `d${direction} head`,
    );
    assert.equal(of('fc').length + of('ey').length, 0, `d${direction}: no face`);
    const skin = plain.layers.find((l) => l.partType === 'bd')!.tint;
    assert.deepEqual(
      of('bd').map((l) => [l.partId, l.library, l.tint]),
      [['1', 'hh_human_body', skin]],
      `d${direction} body`,
    );
    assert.equal(of('hr').length, 0, 'removed');
    // The mask: painted on the figure's plane (sprite top-left = (−x, 100 − y), like a figure part), so it
    // keeps its painted place against the head, 2 px up by its direction offset.
    const m = of('fx9_1')[0]!;
    const asset = maskLib.asset(`h_std_fx9_1_1_${direction}_0`)!;
    assert.deepEqual([m.x, m.y], [-asset.x, 100 - asset.y - 2], `d${direction} mask`);
    assert.ok(
      m.order > Math.max(...r.layers.filter((l) => l.bodyPart !== 'effect').map((l) => l.order)),
      'dz 1: in front',
    );
  }
});

test('parts added to one body part (GeometryBodyPart.getParts): at one distance the later-added is drawn first — the car frame over its glass', async () => {
  // KitCar adds `fx10_1` (frame) then `fx10_2` (glass) to `top`, as Carpolice adds its body and window.
  for (const direction of [2, 4]) {
    const r = await render({ effect: 10, direction, headDirection: direction });
    const order = (id: string) => r.layers.find((l) => l.partType === id)!.order;
    assert.ok(order('fx10_2') < order('fx10_1'), `d${direction}: glass under frame`);
    // Where the pane reaches under the frame's side bars, the bars show; the pane fills the window.
    const frame = r.layers.find((l) => l.partType === 'fx10_1')!;
    const f = r.frames[0]!;
    for (const x of [frame.x + 5, frame.x + frame.width - 6])
      assert.equal(rgb(px(f, x, frame.y + 20)), 0x2040c0, `d${direction}: frame pixel at ${x}`);
    assert.equal(rgb(px(f, frame.x + 26, frame.y + 20)), 0xa0e0f0, `d${direction}: glass in the window`);
  }
});

test("under an override, sprites and the avatar offset follow the main frames (AvatarStructure.getBodyPartData has no overriding action): the skater's spark blinks while the std override keeps the skates", async () => {
  // KitSkates standing: its `std` override (one frame) puts the skates on; its main frames (two) lift the
  // avatar and move an additive spark from left to right.
  const r = await render({ effect: 6, animated: true });
  assert.equal(r.frames.length, 2, 'the loop of the main frames');
  const spark = (f: number) => r.layers.find((l) => l.frame === f && l.partType === 'fx6_2')!;
  assert.deepEqual([spark(0).partId, spark(1).partId], [0, 1]);
  assert.ok(spark(0).x < 20 && spark(1).x > 45, 'left, then right');
  for (const f of [0, 1]) {
    assert.deepEqual(
      r.layers.filter((l) => l.frame === f && l.partType === 'sh').map((l) => l.partId),
      ['fx6_1'],
      `frame ${f}: the override's skates`,
    );
    assert.equal(
      r.layers.find((l) => l.frame === f && l.partType === 'hd')!.y,
      (await render()).layers.find((l) => l.partType === 'hd')!.y - 6,
      `frame ${f}: lifted`,
    );
  }
});
