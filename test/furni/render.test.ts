// The still and icon rules, one assertion per rule, on the sample kit's hand-made furni.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kitModel, px, spritePixels, overlap } from './kit-helpers.js';
import {
  chooseStill,
  renderRoom,
  renderStill,
  renderIcon,
  validDirection,
  restingStateSummaries,
} from '../../src/furni/render.js';
import { FURNI_EXPECTATIONS } from '../samplekit/furni-expectations.js';
import { restingStates, sizeOf } from '../../src/furni/model.js';
import { alphaBounds, flipHorizontal, imagesEqual } from '../../src/imaging/image.js';

test('state: the resting state with the most visible layers wins (blank 1x1 frames are not visible)', () => {
  const c = chooseStill(kitModel('kit_lamp_state2'))!;
  assert.equal(c.state, 2);
  assert.equal(c.visibleLayers, 3);
});

test('state: a tie on visible layers is broken by more distinct frames', () => {
  const c = chooseStill(kitModel('kit_fan_tieframes'))!;
  assert.equal(c.state, 1);
  assert.equal(c.distinctFrames, 4);
});

test('state: a tie on layers and frames is broken by the higher state id', () => {
  assert.equal(chooseStill(kitModel('kit_sign_tieall'))!.state, 2);
});

test('state: a missing frame and a blank frame both count as not visible', () => {
  // state 0: a + b visible, c has no frame-0 asset; state 1: c shows its blank frame 1; frames decide.
  const c = chooseStill(kitModel('kit_orb_blankframe'))!;
  assert.equal(c.state, 0);
  assert.equal(c.visibleLayers, 2);
});

test('state: transition animations are not resting states (100/101, "1_1", 1000000+ keys)', () => {
  for (const cn of ['kit_door_transition', 'kit_gate_transdup', 'kit_hatch_transid']) {
    const size = sizeOf(kitModel(cn), 64)!;
    assert.deepEqual(
      restingStates(size)
        .map((a) => a.id)
        .sort((a, b) => a - b),
      [0, 1],
      cn,
    );
    assert.equal(chooseStill(kitModel(cn))!.state, 1, cn);
  }
});

test('state: a static item draws state 0', () => {
  assert.equal(chooseStill(kitModel('kit_crate'))!.state, 0);
  assert.equal(renderRoom(kitModel('kit_crate')).state, 0);
});

test('direction: 2 when defined, else the nearest defined direction', () => {
  assert.equal(chooseStill(kitModel('kit_chair_4dir'))!.direction, 2);
  assert.equal(chooseStill(kitModel('kit_totem_nodir2'))!.direction, 3);
  assert.equal(chooseStill(kitModel('kit_rug_darken'))!.direction, 0);
  // The client's tie rule: the first defined direction in data order wins an equal distance.
  const size = {
    ...sizeOf(kitModel('kit_crate'), 64)!,
    directions: [
      { id: 1, layers: {} },
      { id: 3, layers: {} },
    ],
  };
  assert.equal(validDirection(size, 2), 1);
});

test('frame: the state first tick, with layer and frame offsets applied', () => {
  const m = kitModel('kit_offsets');
  const r = renderRoom(m);
  assert.equal(r.state, 1);
  // Layer b: layer offset (-8, 4) + first frame offset (0, 0).
  let hits = 0;
  for (const q of spritePixels(m, r, 'kit_offsets_64_b_2_0', -8, 4))
    if (q.p[3] === 255) {
      assert.deepEqual(px(r.image!, q.x, q.y), q.p);
      hits++;
    }
  assert.ok(hits > 20);
  // Tick 2 (frameRepeat 2) moves it by the second frame's (6, 3).
  const t2 = renderRoom(m, { state: 1, direction: 2, tick: 2 });
  assert.ok(!imagesEqual(r.image!, t2.image!));
});

test('z order: on equal z the higher layer id is drawn on top', () => {
  const m = kitModel('kit_stack_eqz');
  const r = renderRoom(m);
  const ov = overlap(m, r, 'kit_stack_eqz_64_b_2_0', 'kit_stack_eqz_64_c_2_0');
  assert.ok(ov.size > 10);
  for (const o of ov.values()) assert.deepEqual(px(r.image!, o.x, o.y), o.over);
});

test('per-direction layer overrides change the order', () => {
  const m = kitModel('kit_booth_dirlayers');
  // Direction 2 raises b to z 20 (over a); direction 0 keeps a (z 10) over b (z 0).
  const r2 = renderRoom(m, { state: 0, direction: 2 });
  for (const o of overlap(m, r2, 'kit_booth_dirlayers_64_a_2_0', 'kit_booth_dirlayers_64_b_2_0').values())
    assert.deepEqual(px(r2.image!, o.x, o.y), o.over);
  const r0 = renderRoom(m, { state: 0, direction: 0 });
  const ov0 = overlap(m, r0, 'kit_booth_dirlayers_64_b_0_0', 'kit_booth_dirlayers_64_a_0_0');
  assert.ok(ov0.size > 10);
  for (const o of ov0.values()) assert.deepEqual(px(r0.image!, o.x, o.y), o.over);
});

test('flips: a flipH alias draws its source mirrored around the origin', () => {
  const m = kitModel('kit_chair_4dir');
  const d2 = renderRoom(m, { state: 0, direction: 2 });
  const d4 = renderRoom(m, { state: 0, direction: 4 });
  assert.ok(imagesEqual(d4.image!, flipHorizontal(d2.image!)));
  assert.equal(d4.originX, d2.image!.width - d2.originX);
});

test('alpha: layer alpha 128 blends the pane over what is behind it', () => {
  const m = kitModel('kit_glass_alpha');
  const r = renderRoom(m);
  const ov = overlap(m, r, 'kit_glass_alpha_64_a_2_0', 'kit_glass_alpha_64_b_2_0');
  assert.ok(ov.size > 10);
  for (const o of ov.values()) {
    const out = px(r.image!, o.x, o.y);
    assert.equal(out[3], 255);
    for (let c = 0; c < 3; c++)
      assert.ok(Math.abs(out[c]! - (o.over[c]! * 128 + o.under[c]! * 127) / 255) <= 1, `channel ${c}`);
  }
});

test('ink ADD: colours add over the item; over nothing only the glow shows', () => {
  const m = kitModel('kit_lamp_add');
  const r = renderRoom(m);
  const ov = overlap(m, r, 'kit_lamp_add_64_a_2_0', 'kit_lamp_add_64_b_2_0');
  assert.ok(ov.size > 10);
  for (const o of ov.values())
    assert.deepEqual(px(r.image!, o.x, o.y), [0, 1, 2].map((c) => Math.min(255, o.under[c]! + o.over[c]!)).concat(255));
  // Where the lamp is absent, the dark-gold glow becomes light: alpha = brightest channel.
  let alone = 0;
  const lamp = new Set(
    [...spritePixels(m, r, 'kit_lamp_add_64_a_2_0')].filter((q) => q.p[3] > 0).map((q) => `${q.x},${q.y}`),
  );
  for (const q of spritePixels(m, r, 'kit_lamp_add_64_b_2_0')) {
    if (q.p[3] !== 255 || lamp.has(`${q.x},${q.y}`)) continue;
    assert.equal(px(r.image!, q.x, q.y)[3], Math.round(Math.max(q.p[0], q.p[1], q.p[2])));
    alone++;
  }
  assert.ok(alone > 10);
});

test('ink SUBTRACT: subtracts from the item, draws nothing where there is no backdrop', () => {
  const m = kitModel('kit_xray_subtract');
  const r = renderRoom(m);
  const ov = overlap(m, r, 'kit_xray_subtract_64_a_2_0', 'kit_xray_subtract_64_b_2_0');
  assert.ok(ov.size > 10);
  for (const o of ov.values())
    assert.deepEqual(px(r.image!, o.x, o.y), [0, 1, 2].map((c) => Math.max(0, o.under[c]! - o.over[c]!)).concat(255));
  const screen = new Set(
    [...spritePixels(m, r, 'kit_xray_subtract_64_a_2_0')].filter((q) => q.p[3] > 0).map((q) => `${q.x},${q.y}`),
  );
  for (const q of spritePixels(m, r, 'kit_xray_subtract_64_b_2_0'))
    if (!screen.has(`${q.x},${q.y}`)) assert.equal(px(r.image!, q.x, q.y)[3], 0);
});

test('ink DARKEN: keeps the darker channel over the rug, plain colour off it', () => {
  const m = kitModel('kit_rug_darken');
  const r = renderRoom(m);
  const ov = overlap(m, r, 'kit_rug_darken_64_a_0_0', 'kit_rug_darken_64_b_0_0');
  assert.ok(ov.size > 10);
  for (const o of ov.values())
    assert.deepEqual(px(r.image!, o.x, o.y), [0, 1, 2].map((c) => Math.min(o.under[c]!, o.over[c]!)).concat(255));
  const rug = new Set(
    [...spritePixels(m, r, 'kit_rug_darken_64_a_0_0')].filter((q) => q.p[3] > 0).map((q) => `${q.x},${q.y}`),
  );
  let off = 0;
  for (const q of spritePixels(m, r, 'kit_rug_darken_64_b_0_0'))
    if (q.p[3] === 255 && !rug.has(`${q.x},${q.y}`)) {
      assert.deepEqual(px(r.image!, q.x, q.y), q.p);
      off++;
    }
  assert.ok(off > 5);
});

test('ink COPY draws like NORMAL (the client maps COPY to the normal blend)', () => {
  const m = kitModel('kit_panel_copy');
  const r = renderRoom(m);
  for (const q of spritePixels(m, r, 'kit_panel_copy_64_b_2_0'))
    if (q.p[3] === 255) assert.deepEqual(px(r.image!, q.x, q.y), q.p);
});

test('colour variants: *n tints each layer by table n; untinted layers keep their colours', () => {
  const m = kitModel('kit_sofa_colors');
  const base = renderRoom(m, { colorId: 0 });
  const red = renderRoom(m, { colorId: 1 });
  // Layer b's pixels (where the pillows c do not cover them) are multiplied by table 1's 0xe04040.
  const pillows = new Set(
    [...spritePixels(m, red, 'kit_sofa_colors_64_c_2_0')].filter((q) => q.p[3] > 0).map((q) => `${q.x},${q.y}`),
  );
  const tint = [0xe0, 0x40, 0x40];
  let n = 0;
  for (const q of spritePixels(m, red, 'kit_sofa_colors_64_b_2_0')) {
    if (q.p[3] !== 255 || pillows.has(`${q.x},${q.y}`)) continue;
    const out = px(red.image!, q.x, q.y);
    for (let c = 0; c < 3; c++)
      assert.ok(Math.abs(out[c]! - (q.p[c]! * tint[c]!) / 255) <= 0.5 + 1e-9, `channel ${c}: ${out[c]} vs ${q.p[c]}`);
    n++;
  }
  assert.ok(n > 50);
  // Layer a (the frame) has no entry in table 1: its visible pixels are unchanged.
  const over = new Set(
    [...spritePixels(m, red, 'kit_sofa_colors_64_b_2_0'), ...spritePixels(m, red, 'kit_sofa_colors_64_c_2_0')]
      .filter((q) => q.p[3] > 0)
      .map((q) => `${q.x},${q.y}`),
  );
  for (const q of spritePixels(m, red, 'kit_sofa_colors_64_a_2_0'))
    if (q.p[3] === 255 && !over.has(`${q.x},${q.y}`)) assert.deepEqual(px(red.image!, q.x, q.y), q.p);
  assert.ok(!imagesEqual(base.image!, red.image!));
});

test('colour variants: an id absent from the colour table renders untinted', () => {
  const m = kitModel('kit_sofa_colors');
  assert.ok(imagesEqual(renderStill(m, 5)!, renderStill(m, 0)!));
  const vase = kitModel('kit_vase_colors');
  assert.ok(!imagesEqual(renderStill(vase, 4)!, renderStill(vase, 2)!));
  assert.ok(
    imagesEqual(
      renderStill(vase, 4)!,
      renderRoom({ ...vase, def: { ...vase.def, sizes: vase.def.sizes.map((s) => ({ ...s, colors: {} })) } }).image!,
    ),
  );
});

test('shadow: the sd layer is not drawn in the still', () => {
  const m = kitModel('kit_table_sd');
  const noShadow = { ...m, sprites: new Map([...m.sprites].filter(([n]) => !n.includes('_64_sd_'))) };
  assert.ok([...m.sprites.keys()].some((n) => n.includes('_64_sd_')));
  assert.ok(imagesEqual(renderStill(m)!, renderStill(noShadow)!));
});

test('crop: the still is cropped to the pixels with alpha > 0', () => {
  for (const cn of ['kit_crate', 'kit_big_3x2', 'kit_lamp_add', 'kit_xray_subtract', 'kit_wall_poster']) {
    const img = renderStill(kitModel(cn))!;
    assert.deepEqual(alphaBounds(img), { x: 0, y: 0, width: img.width, height: img.height }, cn);
  }
});

test('icons: all icon layers composed (icon_a and icon_b)', () => {
  const m = kitModel('kit_table_sd');
  const icon = renderIcon(m)!;
  const a = m.sprites.get('kit_table_sd_icon_a')!.image;
  const b = m.sprites.get('kit_table_sd_icon_b')!.image;
  assert.ok(icon.width >= Math.max(a.width, b.width) && icon.height >= Math.max(a.height, b.height));
  const count = (img: typeof icon) => {
    let n = 0;
    for (let i = 3; i < img.data.length; i += 4) if (img.data[i]! > 0) n++;
    return n;
  };
  assert.ok(count(icon) > count(a) && count(icon) > count(b));
});

test('icons: composed by z, then by layer id on a z tie (pixels)', () => {
  const m = kitModel('kit_icon_zorder');
  const a = m.sprites.get('kit_icon_zorder_icon_a')!.image; // layer 0, z 2
  const b = m.sprites.get('kit_icon_zorder_icon_b')!.image; // layer 1, z 1
  const px = (img: typeof a, x: number, y: number) => [
    ...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4),
  ];
  const blue = px(a, 1, 1);
  const red = px(b, 1, 1);
  assert.notDeepEqual(blue, red);
  // Two 10x10 squares, the second 5,5 further: a 15x15 icon overlapping in its middle.
  const icon = renderIcon(m)!;
  assert.deepEqual([icon.width, icon.height], [15, 15]);
  assert.deepEqual(px(icon, 2, 2), blue);
  assert.deepEqual(px(icon, 12, 12), red);
  assert.deepEqual(px(icon, 12, 2), [0, 0, 0, 0]);
  for (const [x, y] of [
    [5, 5],
    [7, 7],
    [9, 9],
  ])
    assert.deepEqual(px(icon, x!, y!), blue, `overlap ${x},${y}: layer 0 has the higher z`);
  // The same layers with equal z: the higher layer id is drawn last and covers the overlap.
  const tie = {
    ...m,
    def: {
      ...m.def,
      sizes: m.def.sizes.map((s) =>
        s.size === 1
          ? { ...s, layers: Object.fromEntries(Object.entries(s.layers).map(([id, l]) => [id, { ...l, z: 0 }])) }
          : s,
      ),
    },
  };
  const tied = renderIcon(tie)!;
  for (const [x, y] of [
    [5, 5],
    [7, 7],
    [9, 9],
  ])
    assert.deepEqual(px(tied, x!, y!), red, `overlap ${x},${y}: z tie, layer 1 on top`);
  assert.deepEqual(px(tied, 2, 2), blue);
});

test('icons: an item without icon layers has no icon', () => {
  assert.equal(renderIcon(kitModel('kit_noicon')), null);
});

test('every hand-made kit item: the still, per-state visible layers and frames, icon, untinted variants (FURNI_EXPECTATIONS)', () => {
  // Items without a still are the broken bundles: the build test covers them.
  for (const e of FURNI_EXPECTATIONS.filter((x) => x.still !== null)) {
    const m = kitModel(e.classname);
    const c = chooseStill(m);
    if (e.still) {
      assert.deepEqual(
        { state: c!.state, direction: c!.direction, visibleLayers: c!.visibleLayers },
        e.still,
        e.classname,
      );
    }
    if (e.states) {
      const got = new Map(
        restingStateSummaries(m).map((s) => [s.state, { visibleLayers: s.visibleLayers, frames: s.distinctFrames }]),
      );
      for (const [k, v] of Object.entries(e.states))
        assert.deepEqual(got.get(Number(k)), v, `${e.classname} state ${k}`);
    }
    assert.equal(renderIcon(m) !== null, e.iconLayers > 0, `${e.classname} icon`);
    for (const v of e.untintedVariants ?? []) {
      const n = Number(v.split('*')[1]);
      const untinted = renderRoom({ ...m, def: { ...m.def, sizes: m.def.sizes.map((s) => ({ ...s, colors: {} })) } })
        .image!;
      assert.ok(imagesEqual(renderStill(m, n)!, untinted), v);
    }
  }
});
