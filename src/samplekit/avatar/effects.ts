// The kit's avatar effects, in the Nitro layout real hotels use (`gamedata/EffectMap.json`,
// `bundled/effect/<lib>.nitro` whose JSON holds an `animations` block). Drawn procedurally: one of each
// kind the renderer handles, so every rule is tested without real art.
//   fx 1 KitPedestal — a static prop: a floor disc behind the avatar and a small post in front (still).
//   fx 2 KitSparkle  — an animated additive overlay: a star in 4 frames, the last held 3 ticks.
//   fx 3 KitTub      — replaces and removes parts: legs and shoes removed, the shirt replaced by the
//                      effect's own `ch`, a tub part added to the `bottom` body part, the avatar lowered 4 px.
//   fx 4 KitGhost    — the whole avatar at half alpha (the client's ink 37).
//   fx 5 KitHoverGlow — a board with an additive glow under it (both dz -1, the glow listed after the
//                      board: drawn under it) and an additive halo at dz 0 (behind the avatar); lifts the
//                      avatar 10 px.
//   fx 6 KitSkates   — replaces the feet: standing, its `std` override's torso item puts skates (`sh` →
//                      `fx6_1`, alias names to `h_std_fx6_1_1_*` as the real roller skates) in place of the
//                      shoes, while its main frames lift the avatar 6 px and blink an additive spark in 2
//                      frames (sprites follow the main frames under an override, as BackwalkingShoes').
//   fx 7 KitHelmet   — replaces the head's hat: the head layer's item `ha` → `fx7_1`.
//   fx 8 KitTagged   — a library with no sprites of its own, like the real tagged skaters: its glow is
//                      KitHoverGlow's halo (`std_fx5_3_1`, here in front), its skates KitSkates' `fx6_1`
//                      and its added part KitTub's tub (as Easterbunny adds Carpolice's seat).
//   fx 9 KitMask     — a mask sprite in front of the face (all 8 directions, painted on the figure's plane,
//                      moved 2 px up by its per-direction offset), the hair and head items removed, the head
//                      replaced by figure part `hd` 2 and the body by `bd` 1 (items naming figure parts).
//   fx 10 KitCar     — two parts added to `top`, the frame then its glass (as Carpolice's body and window):
//                      at one distance the later is drawn first, so the frame lies over the glass.
//   dance 1-4        — KitDance1-4: loops of 8, 8, 10 and 16 ticks moving arms, torso and head.
import { type AssetLibrary } from '../../formats/asset-library.js';
import {
  type EffectAnimationJson,
  type EffectFrameJson,
  type EffectMapDoc,
} from '../../formats/gamedata/effect-types.js';
import { type NitroAssetData, type NitroAssetEntry } from '../../formats/nitro-asset-types.js';
import { type RgbaImage } from '../../imaging/image.js';
import { ellipse, paint, poly, rect, type PaintOp } from './raster.js';
import {
  ALL_DIRS,
  baseDir,
  BASE_DIRS,
  footShape,
  geo,
  HEAD_CY,
  HEAD_RY,
  isMirroredDir,
  mirrorShapes,
  REG_Y,
} from './rig.js';

interface EffectBuild {
  lib: string;
  id: string;
  type: 'fx' | 'dance';
  animation: EffectAnimationJson;
  sprites: [string, PaintOp[]][];
  /** Alias name → the asset it links to (`h_std_sh_fx6_1_2_0` → `h_std_fx6_1_1_2_0`). */
  aliases?: Record<string, string>;
}

/**
 * Sprite → asset entry + image, placed like figure sprites: top-left = (−x, REG_Y − y). Every sprite keeps
 * the kit's asymmetric mark, so a wrongly mirrored effect shows.
 */
function addSprite(
  assets: Record<string, NitroAssetEntry>,
  images: Map<string, RgbaImage>,
  name: string,
  ops: PaintOp[],
): void {
  const drawn = paint(ops);
  if (!drawn) throw new Error(`kit effect sprite ${name} is empty`);
  assets[name] = { x: -drawn.left, y: REG_Y - drawn.top };
  images.set(name, drawn.image);
}

const all8 = (dz: number) => Array.from({ length: 8 }, (_, id) => ({ id, dz }));

function pedestal(): EffectBuild {
  return {
    lib: 'KitPedestal',
    id: '1',
    type: 'fx',
    animation: {
      name: 'fx.1',
      desc: 'Kit pedestal',
      sprites: [
        { id: 'fx1_1', member: 'std_fx1_1_1', staticY: 1, directionList: all8(-1) },
        { id: 'fx1_2', member: 'std_fx1_2_1', directionList: all8(1) },
      ],
    },
    sprites: [
      ['h_std_fx1_1_1_0_0', [{ shapes: [ellipse(34, 104, 26, 6)], fill: 0x7b3fa8 }]],
      ['h_std_fx1_2_1_0_0', [{ shapes: [rect(50, 92, 6, 16)], fill: 0xd8a830 }]],
    ],
  };
}

function sparkle(): EffectBuild {
  const star = (cx: number, cy: number, r: number): PaintOp[] => [
    {
      shapes: [
        poly([
          [cx, cy - r],
          [cx + r / 3, cy - r / 3],
          [cx + r, cy],
          [cx + r / 3, cy + r / 3],
          [cx, cy + r],
          [cx - r / 3, cy + r / 3],
          [cx - r, cy],
          [cx - r / 3, cy - r / 3],
        ]),
      ],
      fill: 0x60a0ff,
    },
  ];
  const frames: EffectFrameJson[] = [0, 1, 2, 3].map((f) => ({
    ...(f === 3 ? { repeats: 3 } : {}),
    fxs: [{ id: 'fx2_1', frame: f, action: 'Default' }],
  }));
  return {
    lib: 'KitSparkle',
    id: '2',
    type: 'fx',
    animation: {
      name: 'fx.2',
      desc: 'Kit sparkle',
      frames,
      sprites: [{ id: 'fx2_1', member: 'std_fx2_1_1', ink: 33, directionList: all8(1) }],
    },
    sprites: [0, 1, 2, 3].map((f) => [`h_std_fx2_1_1_0_${f}`, star(16 + f * 10, 30 + f * 6, 6 + f)]),
  };
}

function tub(): EffectBuild {
  const sprites: [string, PaintOp[]][] = [];
  for (const d of BASE_DIRS) {
    sprites.push([
      `h_std_fx3_1_1_${d}_0`,
      [
        { shapes: [rect(16, 84, 36, 22)], fill: 0x8a5a2b },
        { shapes: [rect(16, 84, 36, 4)], fill: 0xc08040 },
      ],
    ]);
    // The shirt the tub's layer puts in place of the figure's (`items`): striped.
    sprites.push([
      `h_std_ch_fx3_2_${d}_0`,
      [{ shapes: [rect(25, 56, 18, 26)], fill: (_x: number, y: number) => (y % 4 < 2 ? 0xffffff : 0x2050c0) }],
    ]);
  }
  return {
    lib: 'KitTub',
    id: '3',
    type: 'fx',
    animation: {
      name: 'fx.3',
      desc: 'Kit tub',
      removes: [{ id: 'lg' }, { id: 'sh' }],
      adds: [{ id: 'fx3_1', align: 'bottom' }],
      sprites: [{ id: 'avatar' }],
      frames: [
        {
          fxs: [
            { id: 'avatar', frame: 0, dy: 4 },
            { id: 'fx3_1', frame: 0, action: 'Default' },
          ],
          bodyparts: [{ id: 'torso', frame: 0, items: [{ id: 'ch', base: 'fx3_2' }] }],
        },
      ],
    },
    sprites,
  };
}

function hoverGlow(): EffectBuild {
  return {
    lib: 'KitHoverGlow',
    id: '5',
    type: 'fx',
    animation: {
      name: 'fx.5',
      desc: 'Kit hover glow',
      sprites: [
        { id: 'avatar' },
        { id: 'fx5_1', member: 'std_fx5_1_1', directionList: all8(-1) },
        { id: 'fx5_2', member: 'std_fx5_2_1', ink: 33, directionList: all8(-1) },
        { id: 'fx5_3', member: 'std_fx5_3_1', ink: 33, directionList: all8(0) },
      ],
      frames: [
        {
          fxs: [
            { id: 'avatar', frame: 0, dy: -10 },
            { id: 'fx5_1', frame: 0 },
            { id: 'fx5_2', frame: 0 },
            { id: 'fx5_3', frame: 0 },
          ],
        },
      ],
    },
    sprites: [
      ['h_std_fx5_1_1_0_0', [{ shapes: [ellipse(34, 100, 22, 6)], fill: 0x40c0a0 }]],
      ['h_std_fx5_2_1_0_0', [{ shapes: [ellipse(34, 100, 27, 9)], fill: 0x2040a0 }]],
      ['h_std_fx5_3_1_0_0', [{ shapes: [ellipse(34, 31, 26, 22)], fill: 0x806020 }]],
    ],
  };
}

function skates(): EffectBuild {
  const sprites: [string, PaintOp[]][] = [];
  const aliases: Record<string, string> = {};
  for (const d of BASE_DIRS) {
    const feet = (['r', 'l'] as const).map((s) => footShape(s, 'std', d, 0, 1));
    const blades = feet.map((f) => (f.k === 'ellipse' ? rect(f.cx - f.rx - 1, f.cy + f.ry, 2 * f.rx + 2, 4) : f));
    sprites.push([
      `h_std_fx6_1_1_${d}_0`,
      [
        { shapes: feet, fill: 0xa02020 },
        { shapes: blades, fill: 0xc8c8d8 },
      ],
    ]);
    aliases[`h_std_sh_fx6_1_${d}_0`] = `h_std_fx6_1_1_${d}_0`;
  }
  for (const f of [0, 1])
    sprites.push([`h_std_fx6_2_1_0_${f}`, [{ shapes: [ellipse(f === 0 ? 12 : 54, 20, 4, 4)], fill: 0xfff080 }]]);
  return {
    lib: 'KitSkates',
    id: '6',
    type: 'fx',
    animation: {
      name: 'fx.6',
      desc: 'Kit skates',
      sprites: [{ id: 'avatar' }, { id: 'fx6_2', member: 'std_fx6_2_1', ink: 33, directionList: all8(1) }],
      frames: [0, 1].map((f) => ({
        fxs: [
          { id: 'avatar', frame: 0, dy: -6 },
          { id: 'fx6_2', frame: f },
        ],
      })),
      overrides: [
        {
          name: 'skatestand',
          override: 'std',
          frames: [{ bodyparts: [{ id: 'torso', frame: 0, items: [{ id: 'sh', base: 'fx6_1' }] }] }],
        },
      ],
    },
    sprites,
    aliases,
  };
}

function helmet(): EffectBuild {
  const sprites: [string, PaintOp[]][] = [];
  for (const d of BASE_DIRS) {
    const g = geo(d);
    const dome = ellipse(g.hcx, HEAD_CY - 4, g.headRx + 2, HEAD_RY - 2, { y1: HEAD_CY - 2 });
    sprites.push([
      `h_std_ha_fx7_1_${d}_0`,
      [
        { shapes: [dome], fill: 0x30a050 },
        { shapes: [rect(g.hcx - g.headRx - 2, HEAD_CY - 4, 2 * g.headRx + 4, 3)], fill: 0xe0e040 },
      ],
    ]);
  }
  return {
    lib: 'KitHelmet',
    id: '7',
    type: 'fx',
    animation: {
      name: 'fx.7',
      desc: 'Kit helmet',
      frames: [{ bodyparts: [{ id: 'head', frame: 0, items: [{ id: 'ha', base: 'fx7_1' }] }] }],
    },
    sprites,
  };
}

function tagged(): EffectBuild {
  return {
    lib: 'KitTagged',
    id: '8',
    type: 'fx',
    animation: {
      name: 'fx.8',
      desc: 'Kit tagged skater',
      adds: [{ id: 'fx3_1', align: 'bottom' }],
      sprites: [{ id: 'avatar' }, { id: 'fx8_1', member: 'std_fx5_3_1', ink: 33, directionList: all8(1) }],
      frames: [
        {
          fxs: [
            { id: 'avatar', frame: 0, dy: -6 },
            { id: 'fx8_1', frame: 0 },
          ],
          bodyparts: [{ id: 'torso', frame: 0, items: [{ id: 'sh', base: 'fx6_1' }] }],
        },
      ],
    },
    sprites: [],
  };
}

function mask(): EffectBuild {
  const sprites: [string, PaintOp[]][] = [];
  for (const d of ALL_DIRS) {
    const g = geo(baseDir(d));
    const front = g.face ? g.hcx + g.faceX / 2 : g.hcx;
    const shapes = [ellipse(front, HEAD_CY + 1, 9, 8), rect(g.hcx - g.headRx, HEAD_CY - 3, 2 * g.headRx, 3)];
    sprites.push([
      `h_std_fx9_1_1_${d}_0`,
      [{ shapes: isMirroredDir(d) ? mirrorShapes(shapes) : shapes, fill: 0xe8e0c8 }],
    ]);
  }
  return {
    lib: 'KitMask',
    id: '9',
    type: 'fx',
    animation: {
      name: 'fx.9',
      desc: 'Kit mask',
      removes: ['hr', 'hrb', 'ha', 'he', 'ea', 'fa'].map((id) => ({ id })),
      sprites: [
        {
          id: 'fx9_1',
          directions: 1,
          member: 'std_fx9_1_1',
          directionList: ALL_DIRS.map((id) => ({ id, dy: -2, dz: 1 })),
        },
      ],
      frames: [
        {
          fxs: [{ id: 'fx9_1', frame: 0, action: 'Default' }],
          bodyparts: [
            { id: 'head', frame: 0, items: [{ id: 'hd', base: '2' }] },
            { id: 'torso', frame: 0, items: [{ id: 'bd', base: '1' }] },
          ],
        },
      ],
    },
    sprites,
  };
}

function car(): EffectBuild {
  const sprites: [string, PaintOp[]][] = [];
  for (const d of BASE_DIRS) {
    // A frame around a window (a ring of four bars) and a glass pane larger than the window.
    sprites.push([
      `h_std_fx10_1_1_${d}_0`,
      [{ shapes: [rect(8, 40, 52, 8), rect(8, 80, 52, 8), rect(8, 40, 8, 48), rect(52, 40, 8, 48)], fill: 0x2040c0 }],
    ]);
    sprites.push([`h_std_fx10_2_1_${d}_0`, [{ shapes: [rect(12, 44, 44, 40)], fill: 0xa0e0f0 }]]);
  }
  return {
    lib: 'KitCar',
    id: '10',
    type: 'fx',
    animation: {
      name: 'fx.10',
      desc: 'Kit car',
      adds: [
        { id: 'fx10_1', align: 'top' },
        { id: 'fx10_2', align: 'top' },
      ],
      frames: [
        {
          fxs: [
            { id: 'fx10_1', frame: 0, action: 'Default' },
            { id: 'fx10_2', frame: 0, action: 'Default' },
          ],
        },
      ],
    },
    sprites,
  };
}

function ghost(): EffectBuild {
  return {
    lib: 'KitGhost',
    id: '4',
    type: 'fx',
    animation: {
      name: 'fx.4',
      desc: 'Kit ghost',
      avatars: [{ ink: 37, foreground: 'FFFFFFFF', background: '66000000' }],
    },
    sprites: [],
  };
}

/** Dance N: `ticks` frames moving the arms (Move, Wave), the torso (Move) and the head (bob, turn). */
function dance(n: number, ticks: number): EffectBuild {
  const frames: EffectFrameJson[] = [];
  for (let t = 0; t < ticks; t++) {
    const bob = t % 2 === 0 ? 0 : -1 - (n % 2);
    const sway = n === 4 ? [0, 1, 2, 1, 0, -1, -2, -1][t % 8]! : 0;
    frames.push({
      bodyparts: [
        { id: 'leftarm', frame: t % 2, action: n === 2 ? 'Wave' : 'Move', dx: sway, dy: bob },
        { id: 'rightarm', frame: (t + 2) % 4, action: 'Move', dx: sway, dy: bob },
        { id: 'torso', frame: t % 4, action: 'Move', dx: sway },
        {
          id: 'head',
          frame: 0,
          action: 'Default',
          dx: sway,
          dy: bob,
          dd: n >= 3 ? (Math.floor(t / 2) % 2 === 0 ? 1 : -1) : 0,
        },
      ],
    });
  }
  return {
    lib: `KitDance${n}`,
    id: `dance.${n}`,
    type: 'dance',
    animation: { name: `dance.${n}`, desc: `Kit dance ${n}`, frames },
    sprites: [],
  };
}

function builds(): EffectBuild[] {
  return [
    dance(1, 8),
    dance(2, 8),
    dance(3, 10),
    dance(4, 16),
    pedestal(),
    sparkle(),
    tub(),
    ghost(),
    hoverGlow(),
    skates(),
    helmet(),
    tagged(),
    mask(),
    car(),
  ];
}

/** The kit's EffectMap.json. */
export function effectMapJson(): EffectMapDoc {
  return { effects: builds().map((b) => ({ id: b.id, lib: b.lib, type: b.type, revision: 1 })) };
}

/** Every kit effect library, as an asset library whose JSON carries its `animations` block. */
export function effectLibraries(): AssetLibrary[] {
  return builds().map((b) => {
    const assets: Record<string, NitroAssetEntry> = {};
    const images = new Map<string, RgbaImage>();
    for (const [name, ops] of b.sprites) addSprite(assets, images, name, ops);
    const aliases = b.aliases && Object.fromEntries(Object.entries(b.aliases).map(([name, link]) => [name, { link }]));
    const data = {
      name: b.lib,
      assets,
      ...(aliases ? { aliases } : {}),
      animations: { [b.animation.desc ?? b.animation.name]: b.animation },
    } as unknown as NitroAssetData;
    return { name: b.lib, data, sprites: images };
  });
}
