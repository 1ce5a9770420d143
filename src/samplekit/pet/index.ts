// The kit's pet library, `bundled/pet/dog.nitro` (type 0, `dog`, in the client's pet type list), in the shape of a
// real Nitro pet library: visualization `pet_animated` at size 64, grey sprites (`usesPalette`) whose green value
// picks a colour from one of the library's palettes, layers body, head and tail (tagged so), the head and tail
// placed per posture and direction by frame offsets, postures and a gesture naming animations, a shadow per
// direction. Directions 0–3 and 7 are drawn; 4, 5 and 6 are flipH aliases of 2, 1 and 0, as real libraries have
// them. The art is a blocky little dog built of boxes and drawn by ./raycast.ts: none of it is Habbo's.
import { type AssetLibrary, writeAssetLibrary } from '../../formats/asset-library.js';
import {
  type NitroAnimation,
  type NitroAnimationLayer,
  type NitroAssetData,
  type NitroAssetEntry,
  type NitroFrame,
} from '../../formats/nitro-asset-types.js';
import { PET_DIR } from '../../hotel/pet.js';
import { createImage, type RgbaImage } from '../../imaging/image.js';
import { type PlacedSprite } from '../furni/draw.js';
import { type KitFile } from '../kit-file.js';
import {
  BAND_LEVELS,
  type Box,
  castSprite,
  IDENTITY,
  type Mat3,
  nearerShare,
  OUTLINE_INDEX,
  pitch,
  place,
  project,
  type Vec3,
} from './raycast.js';

export const KIT_PET_NAME = 'dog';
/** Type 0 in the client's pet type list (src/pet/types.ts). */
export const KIT_PET_TYPE = 0;
export const KIT_PET_PATH = `${PET_DIR}/${KIT_PET_NAME}.nitro`;

// Grey bands (first index of 16 shades each): what each box is made of. Eyes, tongue and collar look the same in
// every palette; fur, its pale parts (muzzle, paws, tail tip) and its dark parts (ears) are the palette's.
const EYE = 16;
const TONGUE = 48;
const DARK = 96;
const FUR = 128;
const PALE = 160;

/** The palettes: fur, pale and dark parts, 0xRRGGBB. Palette 0 a tan dog, 1 a white one, 2 a black-and-tan. */
export const KIT_PET_PALETTES: readonly { fur: number; pale: number; dark: number }[] = [
  { fur: 0xc98b4e, pale: 0xf3ddb4, dark: 0x7b4a26 },
  { fur: 0xe4e4e0, pale: 0xffffff, dark: 0x8c8c94 },
  { fur: 0x3b3633, pale: 0xcf9b58, dark: 0x231f1d },
];
const FIXED: readonly [band: number, rgb: number][] = [
  [EYE, 0x1c1c20],
  [TONGUE, 0xee7088],
];

/** Postures (id, animation) in the library's order, and the gesture. */
export const KIT_PET_POSTURES: readonly [string, number][] = [
  ['std', 0],
  ['eat', 4],
  ['lay', 6],
  ['sit', 10],
];
export const KIT_PET_GESTURES: readonly [string, number][] = [['sml', 27]];

const DRAWN_DIRECTIONS = [0, 1, 2, 3, 7] as const;
/** A flipped direction and the drawn one it mirrors. */
const MIRRORED: readonly [number, number][] = [
  [4, 2],
  [5, 1],
  [6, 0],
];
const DIRECTIONS = [0, 1, 2, 3, 4, 5, 6, 7] as const;

// The dog, in its own frame: forward, side, up, world units (a tile is 32 across), the feet's centre at the origin.
const box = (centre: Vec3, half: Vec3, band: number, axes: Mat3 = IDENTITY): Box => ({ centre, half, band, axes });
const pair = (f: number, s: number, u: number, half: Vec3, band: number): Box[] => [
  box([f, s, u], half, band),
  box([f, -s, u], half, band),
];

type BodyFrame = 0 | 600 | 1000;
type HeadFrame = 0 | 400 | 401 | 2700;
type TailFrame = 0 | 1000;

function body(frame: BodyFrame): Box[] {
  switch (frame) {
    case 0: // standing
      return [
        box([0, 0, 13], [9, 5, 4.5], FUR),
        ...pair(6, 3, 5, [1.6, 1.6, 4], FUR),
        ...pair(-6, 3, 5, [1.6, 1.6, 4], FUR),
        ...pair(6.5, 3, 1, [2.1, 1.8, 1], PALE),
        ...pair(-5.5, 3, 1, [2.1, 1.8, 1], PALE),
      ];
    case 1000: // sitting: the back tilted up, front legs straight, haunches on the floor
      return [
        box([-1, 0, 12], [9, 5, 4.5], FUR, pitch(0.8, 0.6)),
        ...pair(6, 3, 7, [1.6, 1.6, 6], FUR),
        ...pair(6.5, 3, 1, [2.1, 1.8, 1], PALE),
        ...pair(-4, 4.4, 4, [4.5, 1.4, 4], FUR),
        ...pair(1.5, 4.4, 1, [2.2, 1.4, 1], PALE),
      ];
    case 600: // lying: the belly on the floor, front legs stretched out, hind legs tucked in
      return [
        box([-1, 0, 5.5], [9, 5, 4.5], FUR),
        ...pair(10, 3, 1.6, [3.5, 1.6, 1.6], FUR),
        ...pair(14.5, 3, 1.4, [1.5, 1.9, 1.4], PALE),
        ...pair(-5, 5.6, 2.4, [4, 1, 2.4], FUR),
        ...pair(-0.5, 5.6, 1, [1.5, 1.2, 1], PALE),
      ];
  }
}

/** The head about its neck joint (the layer's frame offsets put the joint in place). */
function head(frame: HeadFrame): Box[] {
  const happy = frame === 2700;
  const tongue = frame === 2700 || frame === 401;
  const parts = [
    box([2, 0, 4.5], [4.5, 4.5, 4.5], FUR),
    box([8.5, 0, 2.2], [2.5, 2.6, 2.2], PALE),
    box([11.2, 0, 3.6], [0.6, 1.1, 0.9], EYE),
    // Eyes: open, or happy slits.
    ...pair(6.7, 2.2, happy ? 6.6 : 6, happy ? [0.4, 0.9, 0.4] : [0.4, 0.8, 1], EYE),
    // Floppy ears.
    ...pair(1.5, 5.1, 5, [1.8, 0.6, 3.2], DARK),
    ...(tongue ? [box([9.4, 0, -0.8], [1.3, 1.4, 1.2], TONGUE)] : []),
  ];
  // Eating: the head bowed to the floor, lower on the second frame.
  const bow = frame === 400 ? pitch(0.8, -0.6) : frame === 401 ? pitch(0.6, -0.8) : IDENTITY;
  return parts.map((b) => place(b, bow));
}

/** The tail from its root, up and back when standing, along the floor when sitting or lying. */
function tail(frame: TailFrame): Box[] {
  // The tail's line, backwards from the root: 53° up, or nearly flat.
  const [c, s] = frame === 0 ? [0.6, 0.8] : [0.96, 0.28];
  const along = (d: number): Vec3 => [-c * d, 0, s * d];
  const axes = pitch(c, -s);
  return [box(along(4.5), [4.5, 1.1, 1.1], FUR, axes), box(along(9), [1.4, 1.4, 1.4], PALE, axes)];
}

/** Where the head joint and the tail root are in each posture (in the dog's frame). */
const HEAD_AT: Record<string, Vec3> = { std: [8, 0, 16], eat: [9, 0, 12], sit: [5, 0, 19], lay: [8, 0, 8] };
const TAIL_AT: Record<string, Vec3> = { std: [-9, 0, 15], eat: [-9, 0, 15], sit: [-6, 0, 1.5], lay: [-10, 0, 4] };

/** The turn from the dog's frame to the room's for a direction (0 faces up-right, 2 down-right, 4 down-left). */
export function facing(direction: number): Mat3 {
  const r = Math.SQRT1_2;
  const forward: [number, number][] = [
    [0, -1],
    [r, -r],
    [1, 0],
    [r, r],
    [0, 1],
    [-r, r],
    [-1, 0],
    [-r, -r],
  ];
  const [fx, fy] = forward[direction]!;
  return [
    [fx, fy, 0],
    [-fy, fx, 0],
    [0, 0, 1],
  ];
}

const turned = (boxes: Box[], direction: number): Box[] => boxes.map((b) => place(b, facing(direction)));

/** A point of the dog's frame on screen in a direction, to whole pixels (a mirrored direction mirrors its source). */
function screenOffset(p: Vec3, direction: number): { x: number; y: number } {
  const mirror = MIRRORED.find(([d]) => d === direction);
  if (mirror) {
    const o = screenOffset(p, mirror[1]);
    return { x: -o.x, y: o.y };
  }
  const [sx, sy] = project(place(box(p, [0, 0, 0], 0), facing(direction)).centre);
  return { x: Math.round(sx), y: Math.round(sy) };
}

/** The shadow: a flat ellipse on the floor under the dog, 12 forward and 7 to each side. */
function shadow(direction: number): PlacedSprite {
  const m = facing(direction);
  const img = createImage(40, 24);
  const ox = 20;
  const oy = 12;
  for (let j = 0; j < img.height; j++)
    for (let i = 0; i < img.width; i++) {
      const sx = i - ox + 0.5;
      const sy = j - oy + 0.5;
      const x = sy + sx / 2;
      const y = sy - sx / 2;
      const f = (x * m[0][0] + y * m[0][1]) / 12;
      const s = (x * m[1][0] + y * m[1][1]) / 7;
      if (f * f + s * s <= 1) img.data[(j * img.width + i) * 4 + 3] = 255;
    }
  return { image: img, x: ox, y: oy };
}

function paletteRgb(colours: { fur: number; pale: number; dark: number }): number[][] {
  const rgb = Array.from({ length: 256 }, () => [0, 0, 0]);
  const channels = (c: number) => [(c >> 16) & 0xff, (c >> 8) & 0xff, c & 0xff];
  const band = (first: number, colour: number) => {
    // Shade l of 16: from 35% of the colour (the darkest face) to all of it (a top in full light).
    for (let l = 0; l < BAND_LEVELS; l++)
      rgb[first + l] = channels(colour).map((v) => Math.round((v * (525 + 65 * l)) / 1500));
  };
  band(FUR, colours.fur);
  band(PALE, colours.pale);
  band(DARK, colours.dark);
  for (const [first, colour] of FIXED) band(first, colour);
  rgb[OUTLINE_INDEX] = channels(colours.dark).map((v) => Math.round((v * 2) / 5));
  return rgb;
}

const LAYER_LETTER = ['a', 'b', 'c'] as const;

/** The library: sprites, palettes and the visualization document (the same bytes every run). */
export function petLibrary(): AssetLibrary {
  const name = KIT_PET_NAME;
  const assets: Record<string, NitroAssetEntry> = {};
  const sprites = new Map<string, RgbaImage>();
  const add = (asset: string, s: PlacedSprite, usesPalette: boolean) => {
    assets[asset] = usesPalette ? { x: s.x, y: s.y, usesPalette: true } : { x: s.x, y: s.y };
    sprites.set(asset, s.image);
  };
  const layerFrames: [layer: number, frames: readonly number[], draw: (frame: number) => Box[]][] = [
    [0, [0, 600, 1000], (f) => body(f as BodyFrame)],
    [1, [0, 400, 401, 2700], (f) => head(f as HeadFrame)],
    [2, [0, 1000], (f) => tail(f as TailFrame)],
  ];
  for (const [layer, frames, draw] of layerFrames)
    for (const frame of frames) {
      for (const d of DRAWN_DIRECTIONS)
        add(`${name}_64_${LAYER_LETTER[layer]}_${d}_${frame}`, castSprite(turned(draw(frame), d)), true);
      for (const [d, source] of MIRRORED) {
        const src = `${name}_64_${LAYER_LETTER[layer]}_${source}_${frame}`;
        const { x, y } = assets[src]!;
        assets[`${name}_64_${LAYER_LETTER[layer]}_${d}_${frame}`] = {
          source: src,
          x,
          y,
          flipH: true,
          usesPalette: true,
        };
      }
    }
  // The ellipse looks the same turned half round: 4–7 are 0–3 again.
  for (const d of [0, 1, 2, 3]) add(`${name}_64_sd_${d}_0`, shadow(d), false);
  for (const d of [4, 5, 6, 7]) {
    const src = `${name}_64_sd_${d - 4}_0`;
    assets[`${name}_64_sd_${d}_0`] = { source: src, x: assets[src]!.x, y: assets[src]!.y };
  }

  // Head and tail over or under the body in each direction: whichever is nearer the viewer where they overlap.
  const z = (part: Box[], d: number) => {
    const share = nearerShare(turned(part, d), turned(body(0), d));
    return Number.isNaN(share) || share >= 0.5 ? 10 : -10;
  };
  const standing = (d: number) => MIRRORED.find(([m]) => m === d)?.[1] ?? d;
  const headStanding = head(0).map((b) => place(b, IDENTITY, HEAD_AT.std));
  const tailStanding = tail(0).map((b) => place(b, IDENTITY, TAIL_AT.std));
  const directions: Record<string, { layers: Record<string, { z: number }> }> = {};
  for (const d of DIRECTIONS)
    directions[String(d)] = {
      layers: { '0': { z: 0 }, '1': { z: z(headStanding, standing(d)) }, '2': { z: z(tailStanding, standing(d)) } },
    };

  const placed = (id: number, at: Vec3): NitroFrame => ({
    id,
    offsets: Object.fromEntries(DIRECTIONS.map((d) => [String(d), { direction: d, ...screenOffset(at, d) }])),
  });
  const layer = (
    frames: NitroFrame[],
    opts: { frameRepeat?: number; loopCount?: number } = {},
  ): NitroAnimationLayer => ({
    ...opts,
    frameSequences: { '0': { frames: Object.fromEntries(frames.map((f, i) => [String(i), f])) } },
  });
  const posture = (bodyFrame: BodyFrame, heads: NitroAnimationLayer, tailFrame: TailFrame, at: string) => ({
    layers: { '0': layer([{ id: bodyFrame }]), '1': heads, '2': layer([placed(tailFrame, TAIL_AT[at]!)]) },
  });
  const animations: Record<string, NitroAnimation> = {
    '0': posture(0, layer([placed(0, HEAD_AT.std!)]), 0, 'std'),
    // Eating: the head bobs between two frames, three updates each, for as long as the posture lasts.
    '4': posture(
      0,
      layer([placed(400, HEAD_AT.eat!), placed(401, HEAD_AT.eat!)], { frameRepeat: 3, loopCount: 0 }),
      0,
      'eat',
    ),
    '6': posture(600, layer([placed(0, HEAD_AT.lay!)]), 1000, 'lay'),
    '10': posture(1000, layer([placed(0, HEAD_AT.sit!)]), 1000, 'sit'),
    // The smile: only the head's frame; its place stays the posture's.
    '27': { layers: { '1': layer([{ id: 2700 }]) } },
  };

  const sortedAssets: Record<string, NitroAssetEntry> = {};
  for (const k of Object.keys(assets).sort()) sortedAssets[k] = assets[k]!;
  const palettes: Record<string, unknown> = {};
  KIT_PET_PALETTES.forEach((colours, id) => {
    palettes[String(id)] = { id, source: `palette_${id}`, color1: 'ffffff', rgb: paletteRgb(colours) };
  });
  const data: NitroAssetData = {
    name,
    logicType: 'pet',
    visualizationType: 'pet_animated',
    assets: sortedAssets,
    palettes,
    logic: { model: { dimensions: { x: 1, y: 1, z: 1 }, directions: DIRECTIONS.map((d) => d * 45) } },
    visualizations: [
      {
        angle: 45,
        layerCount: 3,
        size: 64,
        layers: { '0': { tag: 'body' }, '1': { tag: 'head' }, '2': { tag: 'tail' } },
        directions,
        animations,
        postures: { postures: KIT_PET_POSTURES.map(([id, animationId]) => ({ id, animationId })) },
        gestures: KIT_PET_GESTURES.map(([id, animationId]) => ({ id, animationId })),
      },
    ],
  };
  return { name, data, sprites };
}

export async function petKitFiles(): Promise<KitFile[]> {
  return [{ path: KIT_PET_PATH, data: await writeAssetLibrary(petLibrary()) }];
}
