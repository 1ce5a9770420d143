// The kit's avatar effects, in the Nitro layout real hotels use (`gamedata/EffectMap.json`,
// `bundled/effect/<lib>.nitro` whose JSON holds an `animations` block). Drawn procedurally: one of each
// kind the renderer handles, so every rule is tested without real art.
//   fx 1 KitPedestal — a static prop: a floor disc behind the avatar and a small post in front (still).
//   fx 2 KitSparkle  — an animated additive overlay: a star in 4 frames, the last held 3 ticks.
//   fx 3 KitTub      — replaces and removes parts: legs and shoes removed, the shirt replaced by the
//                      effect's own `ch`, a tub part added to the `bottom` body part, the avatar lowered 4 px.
//   fx 4 KitGhost    — the whole avatar at half alpha (the client's ink 37).
//   dance 1-4        — KitDance1-4: loops of 8, 8, 10 and 16 ticks moving arms, torso and head.
import { type AssetLibrary } from '../../formats/asset-library.js';
import { type EffectAnimationJson, type EffectFrameJson, type EffectMapDoc } from '../../formats/gamedata/effect-types.js';
import { type NitroAssetData, type NitroAssetEntry } from '../../formats/nitro-asset-types.js';
import { type RgbaImage } from '../../imaging/image.js';
import { ellipse, paint, poly, rect, type PaintOp } from './raster.js';
import { BASE_DIRS, REG_Y } from './rig.js';

interface EffectBuild {
  lib: string;
  id: string;
  type: 'fx' | 'dance';
  animation: EffectAnimationJson;
  sprites: [string, PaintOp[]][];
}

/**
 * Sprite → asset entry + image, placed like figure sprites: top-left = (−x, REG_Y − y). Every sprite keeps
 * the kit's asymmetric mark, so a wrongly mirrored effect shows.
 */
function addSprite(assets: Record<string, NitroAssetEntry>, images: Map<string, RgbaImage>, name: string, ops: PaintOp[]): void {
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
    { shapes: [poly([[cx, cy - r], [cx + r / 3, cy - r / 3], [cx + r, cy], [cx + r / 3, cy + r / 3], [cx, cy + r], [cx - r / 3, cy + r / 3], [cx - r, cy], [cx - r / 3, cy - r / 3]])], fill: 0x60a0ff },
  ];
  const frames: EffectFrameJson[] = [0, 1, 2, 3].map((f) => ({ ...(f === 3 ? { repeats: 3 } : {}), fxs: [{ id: 'fx2_1', frame: f, action: 'Default' }] }));
  return {
    lib: 'KitSparkle',
    id: '2',
    type: 'fx',
    animation: { name: 'fx.2', desc: 'Kit sparkle', frames, sprites: [{ id: 'fx2_1', member: 'std_fx2_1_1', ink: 33, directionList: all8(1) }] },
    sprites: [0, 1, 2, 3].map((f) => [`h_std_fx2_1_1_0_${f}`, star(16 + f * 10, 30 + f * 6, 6 + f)]),
  };
}

function tub(): EffectBuild {
  const sprites: [string, PaintOp[]][] = [];
  for (const d of BASE_DIRS) {
    sprites.push([`h_std_fx3_1_1_${d}_0`, [{ shapes: [rect(16, 84, 36, 22)], fill: 0x8a5a2b }, { shapes: [rect(16, 84, 36, 4)], fill: 0xc08040 }]]);
    // The shirt the tub's layer puts in place of the figure's (`items`): striped.
    sprites.push([`h_std_ch_fx3_2_${d}_0`, [{ shapes: [rect(25, 56, 18, 26)], fill: (x: number, y: number) => (y % 4 < 2 ? 0xffffff : 0x2050c0) }]]);
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
      frames: [{ fxs: [{ id: 'avatar', frame: 0, dy: 4 }, { id: 'fx3_1', frame: 0, action: 'Default' }], bodyparts: [{ id: 'torso', frame: 0, items: [{ id: 'ch', base: 'fx3_2' }] }] }],
    },
    sprites,
  };
}

function ghost(): EffectBuild {
  return { lib: 'KitGhost', id: '4', type: 'fx', animation: { name: 'fx.4', desc: 'Kit ghost', avatars: [{ ink: 37, foreground: 'FFFFFFFF', background: '66000000' }] }, sprites: [] };
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
        { id: 'head', frame: 0, action: 'Default', dx: sway, dy: bob, dd: n >= 3 ? (Math.floor(t / 2) % 2 === 0 ? 1 : -1) : 0 },
      ],
    });
  }
  return { lib: `KitDance${n}`, id: `dance.${n}`, type: 'dance', animation: { name: `dance.${n}`, desc: `Kit dance ${n}`, frames }, sprites: [] };
}

function builds(): EffectBuild[] {
  return [dance(1, 8), dance(2, 8), dance(3, 10), dance(4, 16), pedestal(), sparkle(), tub(), ghost()];
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
    const data = { name: b.lib, assets, animations: { [b.animation.desc ?? b.animation.name]: b.animation } } as unknown as NitroAssetData;
    return { name: b.lib, data, sprites: images };
  });
}
