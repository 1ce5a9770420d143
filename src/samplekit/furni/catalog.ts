// The hand-made furni of the sample kit. Each item exercises one or a few drawing rules; the table in
// docs/sample-kit-furni.md lists them with the outcome a correct renderer gives. Classnames are a
// contract with the build-pipeline and server tests: never rename them.
import { type AssetLibrary } from '../../formats/asset-library.js';
import {
  type NitroAnimation,
  type NitroAnimationLayer,
  type NitroVisualization,
} from '../../formats/nitro-asset-types.js';
import { type FurniCanvas, type PlacedSprite, type Rgba, blankSprite, drawSprite, pixelSprite, rgba } from './draw.js';
import { FurniBuilder, LETTERS, anim, animLayer, sequence, vis64, visIcon } from './builder.js';
import {
  BLACK,
  BLUE,
  BROWN,
  CYAN,
  DARK,
  GREEN,
  GREY,
  LIGHT,
  ORANGE,
  PINK,
  PURPLE,
  RED,
  TEAL,
  WHITE,
  YELLOW,
} from './palette.js';

/**
 * How the kit ships an item's bundle file: valid (`ok`, or `gzip`: every file a gzip member, as some
 * real posters are), or deliberately broken.
 */
export type BundleState = 'ok' | 'gzip' | 'missing' | 'truncated' | 'gzip-truncated' | 'garbage' | 'bad-json';

/** Whether the kit ships the item's bundle readable (zlib or gzip packed). */
export const readableBundle = (it: Pick<KitItem, 'bundle'>): boolean => it.bundle === 'ok' || it.bundle === 'gzip';

/** Whether the kit ships the item's bundle deliberately broken (present but unreadable). */
export const brokenBundle = (it: Pick<KitItem, 'bundle'>): boolean => !readableBundle(it) && it.bundle !== 'missing';

export interface KitItem {
  classname: string;
  kind: 'floor' | 'wall';
  id: number;
  revision: number;
  name: string;
  description: string;
  xdim: number;
  ydim: number;
  defaultdir: number;
  /** Colour variant rows `<cn>*<n>` in FurnitureData, in this order. */
  variants: number[];
  /** False when FurnitureData has only the variant rows (as real data has for some rares). */
  baseRow: boolean;
  bundle: BundleState;
  build(): AssetLibrary;
}

type Item = Omit<KitItem, 'variants' | 'baseRow' | 'bundle' | 'xdim' | 'ydim' | 'defaultdir' | 'description'> &
  Partial<Pick<KitItem, 'variants' | 'baseRow' | 'bundle' | 'xdim' | 'ydim' | 'defaultdir' | 'description'>>;

function item(i: Item): KitItem {
  return {
    variants: [],
    baseRow: true,
    bundle: 'ok',
    xdim: 1,
    ydim: 1,
    defaultdir: 0,
    description: `Sample kit: ${i.name}`,
    ...i,
  };
}

const L = (layer: number) => LETTERS[layer]!.toUpperCase();
const asset = FurniBuilder.layerAsset;

// ---- drawing helpers -------------------------------------------------------------------------

/** A labelled box; the small flag on the top-left corner makes mirroring obvious. */
function markedBox(c: FurniCanvas, label: string, color: Rgba, cx = 0, cy = 0, hw = 22, h = 26, lift = 0): void {
  const [tx, ty] = c.box(cx, cy, hw, h, color, lift);
  c.rect(tx - hw + 3, ty - 3, 5, 4, RED);
  c.label(label, cx + Math.floor(hw / 2), cy - lift - Math.floor(h / 2) + 2);
}

function icon(label: string, color: Rgba, dx = 0, dy = 0): PlacedSprite {
  return drawSprite((c) => {
    c.box(dx, dy, 10, 10, color);
    c.label(label, dx + 5, dy - 3);
  });
}

/** Draws direction `dir` of a layer and adds flipH aliases for the mirrored directions. */
function dirs(
  b: FurniBuilder,
  layer: number,
  frame: number,
  drawn: number[],
  mirrored: Record<number, number>,
  fn: (c: FurniCanvas, dir: number) => void,
): void {
  for (const d of drawn)
    b.sprite(
      asset(layer, d, frame),
      drawSprite((c) => fn(c, d)),
    );
  for (const [to, from] of Object.entries(mirrored))
    b.alias(asset(layer, Number(to), frame), asset(layer, from, frame), true);
}

function blank(
  b: FurniBuilder,
  layer: number,
  frame: number,
  drawn: number[],
  mirrored: Record<number, number> = {},
  pixel?: Rgba,
): void {
  for (const d of drawn) b.sprite(asset(layer, d, frame), pixel === undefined ? blankSprite() : pixelSprite(pixel));
  for (const [to, from] of Object.entries(mirrored))
    b.alias(asset(layer, Number(to), frame), asset(layer, from, frame), true);
}

function staticLib(
  b: FurniBuilder,
  dims: { x: number; y: number; z: number },
  directions: number[] | null,
  v64: NitroVisualization,
  v1: NitroVisualization,
): AssetLibrary {
  return b.library({
    logicType: 'furniture_basic',
    visualizationType: 'furniture_static',
    dimensions: dims,
    directions,
    visualizations: [v64, v1],
  });
}

function animatedLib(
  b: FurniBuilder,
  dims: { x: number; y: number; z: number },
  directions: number[],
  v64: NitroVisualization,
  v1: NitroVisualization,
): AssetLibrary {
  return b.library({
    logicType: 'furniture_multistate',
    visualizationType: 'furniture_animated',
    dimensions: dims,
    directions,
    visualizations: [v64, v1],
  });
}

const D24 = { '2': {}, '4': {} };
const D0246 = { '0': {}, '2': {}, '4': {}, '6': {} };
const M24 = { 4: 2 };

/** A resting-state animation where every listed layer shows one frame. */
function still(frames: Record<number, number>): NitroAnimation {
  const layers: Record<string, ReturnType<typeof animLayer>> = {};
  for (const [l, f] of Object.entries(frames)) layers[l] = animLayer([f]);
  return anim(layers);
}

// ---- the items -------------------------------------------------------------------------------

export const KIT_ITEMS: readonly KitItem[] = [
  item({
    classname: 'kit_crate',
    kind: 'floor',
    id: 5001,
    revision: 61001,
    name: 'Crate (static, one layer)',
    build() {
      const b = new FurniBuilder('kit_crate');
      dirs(b, 0, 0, [2], M24, (c, d) => markedBox(c, `A${d}`, ORANGE));
      b.sprite('icon_a', icon('A', ORANGE));
      return staticLib(b, { x: 1, y: 1, z: 1 }, [2, 4], vis64({ layerCount: 1, directions: D24 }), visIcon(1));
    },
  }),
  item({
    classname: 'kit_stack_eqz',
    kind: 'floor',
    id: 5002,
    revision: 61002,
    name: 'Stack (three layers, equal z)',
    build() {
      const b = new FurniBuilder('kit_stack_eqz');
      // Three overlapping boxes; all z equal, so layer c must end on top, then b, then a.
      const parts: [Rgba, number, number][] = [
        [BLUE, -10, -4],
        [GREEN, 2, 2],
        [RED, 12, 8],
      ];
      parts.forEach(([color, x, y], layer) =>
        dirs(b, layer, 0, [2], M24, (c, d) => markedBox(c, `${L(layer)}${d}`, color, x, y, 14, 22)),
      );
      b.sprite('icon_a', icon('S', GREEN));
      return staticLib(
        b,
        { x: 1, y: 1, z: 1 },
        [2, 4],
        vis64({ layerCount: 3, layers: { '0': { z: 5 }, '1': { z: 5 }, '2': { z: 5 } }, directions: D24 }),
        visIcon(1),
      );
    },
  }),
  item({
    classname: 'kit_table_sd',
    kind: 'floor',
    id: 5003,
    revision: 61003,
    name: 'Table (shadow, two icon layers)',
    xdim: 2,
    ydim: 2,
    build() {
      const b = new FurniBuilder('kit_table_sd');
      // 2x2 footprint: tiles centred at (0,0), (32,16), (-32,16), (0,32).
      dirs(b, 0, 0, [0, 2], {}, (c, d) => {
        for (const [x, y] of [
          [-28, 16],
          [0, 2],
          [28, 16],
          [0, 30],
        ] as const)
          c.box(x, y, 5, 22, BROWN);
        c.label(`A${d}`, d === 0 ? -28 : 28, 6);
      });
      dirs(b, 1, 0, [0, 2], {}, (c, d) => {
        c.box(0, 16, 40, 6, ORANGE, 22);
        c.label(`B${d}`, d === 0 ? -14 : 14, -9, BLACK, 2);
      });
      b.sprite(
        '64_sd_0_0',
        drawSprite((c) => c.diamond(0, 16, 52, BLACK, null)),
      );
      b.alias('64_sd_2_0', '64_sd_0_0', false);
      b.sprite('icon_a', icon('A', BROWN, 0, 4));
      b.sprite(
        'icon_b',
        drawSprite((c) => c.box(0, -6, 12, 3, ORANGE)),
      );
      return staticLib(
        b,
        { x: 2, y: 2, z: 1 },
        [0, 2],
        vis64({ layerCount: 2, layers: { '1': { z: 1 } }, directions: { '0': {}, '2': {} } }),
        visIcon(2),
      );
    },
  }),
  item({
    classname: 'kit_chair_4dir',
    kind: 'floor',
    id: 5004,
    revision: 61004,
    name: 'Chair (directions 0,2,4,6, mirrored aliases)',
    defaultdir: 2,
    build() {
      const b = new FurniBuilder('kit_chair_4dir');
      // Seat (a) and backrest (b). 4 mirrors 2 and 6 mirrors 0 through flipH aliases.
      dirs(b, 0, 0, [0, 2], { 4: 2, 6: 0 }, (c, d) => markedBox(c, `A${d}`, TEAL, 0, 0, 18, 14));
      dirs(b, 1, 0, [0, 2], { 4: 2, 6: 0 }, (c, d) => {
        const x = d === 2 ? -10 : 10;
        const y = d === 2 ? -8 : 8;
        c.box(x, y, 7, 34, PURPLE, 14);
        c.label(`B${d}`, x, y - 34);
      });
      // Size 32 (the client's small room scale, `__s32`): its own half-size art, seat and backrest, no labels.
      for (const d of [0, 2]) {
        b.sprite(
          `32_a_${d}_0`,
          drawSprite((c) => c.box(0, 0, 9, 7, TEAL)),
        );
        b.sprite(
          `32_b_${d}_0`,
          drawSprite((c) => c.box(d === 2 ? -5 : 5, d === 2 ? -4 : 4, 3, 17, PURPLE, 7)),
        );
      }
      for (const l of ['a', 'b']) {
        b.alias(`32_${l}_4_0`, `32_${l}_2_0`, true);
        b.alias(`32_${l}_6_0`, `32_${l}_0_0`, true);
      }
      b.sprite('icon_a', icon('C', TEAL));
      const v32: NitroVisualization = {
        ...vis64({ layerCount: 2, layers: { '1': { z: 2 } }, directions: D0246 }),
        size: 32,
      };
      return b.library({
        logicType: 'furniture_basic',
        visualizationType: 'furniture_static',
        dimensions: { x: 1, y: 1, z: 1 },
        directions: [0, 2, 4, 6],
        visualizations: [vis64({ layerCount: 2, layers: { '1': { z: 2 } }, directions: D0246 }), v32, visIcon(1)],
      });
    },
  }),
  item({
    classname: 'kit_booth_dirlayers',
    kind: 'floor',
    id: 5005,
    revision: 61005,
    name: 'Booth (per-direction layer overrides)',
    build() {
      const b = new FurniBuilder('kit_booth_dirlayers');
      // Every direction drawn (no aliases); a and b overlap so their order shows.
      dirs(b, 0, 0, [0, 2, 4, 6], {}, (c, d) => markedBox(c, `A${d}`, BLUE, -6, 0, 16, 30));
      dirs(b, 1, 0, [0, 2, 4, 6], {}, (c, d) => markedBox(c, `B${d}`, YELLOW, 6, 4, 16, 20));
      b.sprite('icon_a', icon('D', BLUE));
      const v = vis64({
        layerCount: 2,
        layers: { '0': { z: 10 }, '1': { z: 0 } },
        directions: {
          '0': {},
          '2': { layers: { '1': { z: 20 } } },
          '4': { layers: { '0': { alpha: 96 } } },
          '6': { layers: { '1': { x: 10, y: -6, z: 20 } } },
        },
      });
      return staticLib(b, { x: 1, y: 1, z: 1 }, [0, 2, 4, 6], v, visIcon(1));
    },
  }),
  item({
    classname: 'kit_lamp_add',
    kind: 'floor',
    id: 5006,
    revision: 61006,
    name: 'Lamp (ink ADD)',
    build() {
      const b = new FurniBuilder('kit_lamp_add');
      dirs(b, 0, 0, [2], M24, (c, d) => {
        c.box(0, 0, 10, 40, DARK);
        c.box(0, -40, 18, 12, WHITE);
        c.label(`A${d}`, 9, -46);
      });
      dirs(b, 1, 0, [2], M24, (c) => {
        // Glow: flat dark gold, no outline; ADD brightens what is under it.
        c.diamond(0, -46, 30, rgba(0x806020), null);
        c.box(0, -46, 20, 16, rgba(0x604818), 0, rgba(0x604818));
      });
      b.sprite('icon_a', icon('L', WHITE));
      return staticLib(
        b,
        { x: 1, y: 1, z: 1 },
        [2, 4],
        vis64({ layerCount: 2, layers: { '1': { ink: 'ADD', ignoreMouse: true } }, directions: D24 }),
        visIcon(1),
      );
    },
  }),
  item({
    classname: 'kit_xray_subtract',
    kind: 'floor',
    id: 5007,
    revision: 61007,
    name: 'X-ray screen (ink SUBTRACT)',
    build() {
      const b = new FurniBuilder('kit_xray_subtract');
      dirs(b, 0, 0, [2], M24, (c, d) => markedBox(c, `A${d}`, CYAN, 0, 0, 22, 40));
      // Reaches past the screen on the right: SUBTRACT there has no backdrop and draws nothing.
      dirs(b, 1, 0, [2], M24, (c) => c.rect(-8, -44, 40, 18, rgba(0x703010), null));
      b.sprite('icon_a', icon('X', CYAN));
      return staticLib(
        b,
        { x: 1, y: 1, z: 1 },
        [2, 4],
        vis64({ layerCount: 2, layers: { '1': { ink: 'SUBTRACT' } }, directions: D24 }),
        visIcon(1),
      );
    },
  }),
  item({
    classname: 'kit_rug_darken',
    kind: 'floor',
    id: 5008,
    revision: 61008,
    name: 'Rug (ink DARKEN)',
    xdim: 2,
    ydim: 2,
    build() {
      const b = new FurniBuilder('kit_rug_darken');
      dirs(b, 0, 0, [0], {}, (c, d) => {
        c.diamond(0, 16, 56, PINK);
        c.diamond(0, 16, 36, YELLOW);
        c.diamond(0, 16, 16, GREEN);
        c.label(`A${d}`, -24, 16);
      });
      // Grey diamond over the right half, part of it off the rug (there it shows as plain grey).
      dirs(b, 1, 0, [0], {}, (c) => c.diamond(40, 16, 30, rgba(0x808080), null));
      b.sprite('icon_a', icon('R', PINK));
      return staticLib(
        b,
        { x: 2, y: 2, z: 0 },
        [0],
        vis64({ layerCount: 2, layers: { '1': { ink: 'DARKEN' } }, directions: { '0': {} } }),
        visIcon(1),
      );
    },
  }),
  item({
    classname: 'kit_panel_copy',
    kind: 'floor',
    id: 5009,
    revision: 61009,
    name: 'Panel (ink COPY)',
    build() {
      const b = new FurniBuilder('kit_panel_copy');
      dirs(b, 0, 0, [2], M24, (c, d) => markedBox(c, `A${d}`, GREEN, 0, 0, 20, 30));
      dirs(b, 1, 0, [2], M24, (c) => {
        c.rect(-14, -44, 24, 20, rgba(0x8e4fc8, 160), rgba(0x301040));
        c.label('B', -2, -34, WHITE);
      });
      b.sprite('icon_a', icon('P', GREEN));
      return staticLib(
        b,
        { x: 1, y: 1, z: 1 },
        [2, 4],
        vis64({ layerCount: 2, layers: { '1': { ink: 'COPY' } }, directions: D24 }),
        visIcon(1),
      );
    },
  }),
  item({
    classname: 'kit_glass_alpha',
    kind: 'floor',
    id: 5010,
    revision: 61010,
    name: 'Glass cabinet (layer alpha)',
    build() {
      const b = new FurniBuilder('kit_glass_alpha');
      dirs(b, 0, 0, [2], M24, (c, d) => {
        c.box(0, 0, 20, 44, BROWN);
        c.rect(-2, -40, 10, 10, RED);
        c.label(`A${d}`, 10, -10, WHITE);
      });
      // Opaque pixels in the sprite; the layer's alpha 128 makes the pane see-through.
      dirs(b, 1, 0, [2], M24, (c) => c.rect(-8, -48, 24, 30, CYAN));
      b.sprite('icon_a', icon('G', CYAN));
      // No logic directions at all (as in some real bundles): the visualization's directions decide.
      return staticLib(
        b,
        { x: 1, y: 1, z: 1 },
        null,
        vis64({ layerCount: 2, layers: { '1': { alpha: 128 } }, directions: D24 }),
        visIcon(1),
      );
    },
  }),
  item({
    classname: 'kit_totem_nodir2',
    kind: 'floor',
    id: 5011,
    revision: 61011,
    name: 'Totem (no direction 2)',
    defaultdir: 3,
    build() {
      const b = new FurniBuilder('kit_totem_nodir2');
      // Directions 0, 3, 6 only, each drawn with its number: a request for 2 must pick 3 (nearest).
      const colors: Record<number, Rgba> = { 0: RED, 3: GREEN, 6: BLUE };
      dirs(b, 0, 0, [0, 3, 6], {}, (c, d) => {
        c.box(0, 0, 14, 50, colors[d]!);
        c.label(String(d), 7, -26, BLACK, 2);
      });
      b.sprite('icon_a', icon('T', GREEN));
      return staticLib(
        b,
        { x: 1, y: 1, z: 2 },
        [0, 3, 6],
        vis64({ layerCount: 1, directions: { '0': {}, '3': {}, '6': {} } }),
        visIcon(1),
      );
    },
  }),
  item({
    classname: 'kit_sofa_colors',
    kind: 'floor',
    id: 5012,
    revision: 61012,
    name: 'Sofa (sparse colour ids)',
    xdim: 2,
    variants: [1, 3, 5, 7, 12],
    build() {
      const b = new FurniBuilder('kit_sofa_colors');
      // a: wooden frame (never tinted); b: cushions and c: pillows, drawn white/grey for tinting.
      dirs(b, 0, 0, [2], M24, (c, d) => {
        c.box(16, 8, 34, 10, BROWN);
        c.label(`A${d}`, 30, 4, WHITE);
      });
      dirs(b, 1, 0, [2], M24, (c, d) => {
        c.box(16, 8, 30, 8, WHITE, 10);
        c.box(6, -2, 28, 24, LIGHT, 10);
        c.label(`B${d}`, 20, -20);
      });
      dirs(b, 2, 0, [2], M24, (c) => {
        c.box(-4, -4, 8, 12, WHITE, 18);
        c.box(30, 12, 8, 12, WHITE, 18);
      });
      b.sprite('icon_a', icon('F', WHITE));
      const colors = {
        '1': { '1': 0xe04040, '2': 0xf0a0a0 },
        '3': { '1': 0x40a040, '2': 0xa0f0a0 },
        '7': { '1': 0x4060e0, '2': 0xa0b0f0 },
        '12': { '1': 0xe0c020, '2': 0x806010 },
      };
      const iconColors = {
        '1': { '0': 0xe04040 },
        '3': { '0': 0x40a040 },
        '7': { '0': 0x4060e0 },
        '12': { '0': 0xe0c020 },
      };
      return staticLib(
        b,
        { x: 2, y: 1, z: 1 },
        [2, 4],
        vis64({ layerCount: 3, directions: D24, colors }),
        visIcon(1, iconColors),
      );
    },
  }),
  item({
    classname: 'kit_vase_colors',
    kind: 'floor',
    id: 5013,
    revision: 61013,
    name: 'Vase (variant rows only, colour 0)',
    variants: [0, 2, 4],
    baseRow: false,
    build() {
      const b = new FurniBuilder('kit_vase_colors');
      dirs(b, 0, 0, [2], M24, (c, d) => {
        c.box(0, 0, 12, 30, WHITE);
        c.label(`A${d}`, 6, -14);
      });
      dirs(b, 1, 0, [2], M24, (c) => {
        c.box(-6, -36, 5, 14, GREEN);
        c.box(6, -40, 5, 18, GREEN);
        c.diamond(-6, -52, 7, PINK);
        c.diamond(6, -60, 7, RED);
      });
      b.sprite('icon_a', icon('V', WHITE, 0, 4));
      b.sprite(
        'icon_b',
        drawSprite((c) => c.diamond(0, -10, 6, RED)),
      );
      const colors = { '0': { '0': 0x3050c0 }, '2': { '0': 0xc03050 }, '3': { '0': 0x30c050 } };
      return staticLib(
        b,
        { x: 1, y: 1, z: 1 },
        [2, 4],
        vis64({ layerCount: 2, directions: D24, colors }),
        visIcon(2, { '0': { '0': 0x3050c0 }, '2': { '0': 0xc03050 }, '3': { '0': 0x30c050 } }),
      );
    },
  }),
  item({
    classname: 'kit_lamp_state2',
    kind: 'floor',
    id: 5014,
    revision: 61014,
    name: 'Lamp (state 2 has the most visible layers)',
    build() {
      const b = new FurniBuilder('kit_lamp_state2');
      dirs(b, 0, 0, [2], M24, (c, d) => {
        c.box(0, 0, 12, 36, DARK);
        c.label(`A${d}`, 6, -16, WHITE);
      });
      // b, c, d: frame 0 is a real blank 1x1 frame; they show only where a state selects frame >= 1.
      blank(b, 1, 0, [2], M24);
      dirs(b, 1, 1, [2], M24, (c) => {
        c.box(0, -36, 10, 10, YELLOW);
        c.label('B1', 5, -41);
      });
      blank(b, 2, 0, [2], M24);
      dirs(b, 2, 1, [2], M24, (c) => {
        c.rect(-22, -66, 8, 8, ORANGE);
        c.rect(14, -66, 8, 8, ORANGE);
        c.label('C1', 0, -62);
      });
      blank(b, 3, 0, [2], M24);
      for (const f of [1, 2, 3]) {
        dirs(b, 3, f, [2], M24, (c) => {
          c.rect(-30 + f * 8, 4, 9, 9, PINK);
          c.label(`D${f}`, -26 + f * 8, 18);
        });
      }
      b.sprite('icon_a', icon('2', YELLOW));
      const v = vis64({
        layerCount: 4,
        layers: { '1': { ink: 'ADD' }, '2': { z: 5 } },
        directions: D24,
        animations: {
          '0': still({ 0: 0, 1: 0, 2: 0, 3: 0 }),
          '1': still({ 1: 1 }),
          '2': still({ 1: 1, 2: 1 }),
          '3': anim({ '3': animLayer([1, 2, 3], { frameRepeat: 2, loopCount: 0 }) }),
        },
      });
      return animatedLib(b, { x: 1, y: 1, z: 1 }, [2, 4], v, visIcon(1));
    },
  }),
  item({
    classname: 'kit_fan_tieframes',
    kind: 'floor',
    id: 5015,
    revision: 61015,
    name: 'Fan (visible-layer tie, frame count decides)',
    build() {
      const b = new FurniBuilder('kit_fan_tieframes');
      dirs(b, 0, 0, [2], M24, (c, d) => markedBox(c, `A${d}`, GREY, 0, 0, 14, 20));
      blank(b, 1, 0, [2], M24);
      for (const f of [1, 2, 3, 4]) {
        dirs(b, 1, f, [2], M24, (c) => {
          const dx = [0, 10, 0, -10][f - 1]!;
          const dy = [-10, 0, 10, 0][f - 1]!;
          c.line([0, -40], [dx * 2, -40 + dy * 2], BLACK);
          c.rect(dx * 2 - 3, -40 + dy * 2 - 3, 7, 7, CYAN);
          c.label(`B${f}`, 18, -56);
        });
      }
      blank(b, 2, 0, [2], M24);
      for (const f of [1, 2]) {
        dirs(b, 2, f, [2], M24, (c) => {
          c.rect(-20, -12, 8, 8, f === 1 ? GREEN : RED);
          c.label(`C${f}`, -16, -20);
        });
      }
      b.sprite('icon_a', icon('F', CYAN));
      const v = vis64({
        layerCount: 3,
        directions: D24,
        animations: {
          '0': still({ 0: 0, 1: 0, 2: 0 }),
          '1': anim({ '1': animLayer([1, 2, 3, 4], { frameRepeat: 2, loopCount: 0 }) }),
          '2': anim({ '2': animLayer([1, 2], { loopCount: 0 }) }),
        },
      });
      return animatedLib(b, { x: 1, y: 1, z: 1 }, [2, 4], v, visIcon(1));
    },
  }),
  item({
    classname: 'kit_sign_tieall',
    kind: 'floor',
    id: 5016,
    revision: 61016,
    name: 'Sign (tie on layers and frames, higher state wins)',
    build() {
      const b = new FurniBuilder('kit_sign_tieall');
      dirs(b, 0, 0, [2], M24, (c, d) => {
        c.box(0, 0, 4, 20, BROWN);
        c.rect(-22, -50, 44, 26, WHITE);
        c.label(`A${d}`, -14, -45);
      });
      blank(b, 1, 0, [2], M24);
      for (const f of [1, 2, 3, 4, 5, 6]) {
        dirs(b, 1, f, [2], M24, (c) => {
          c.rect(-12, -42, 26, 14, f <= 3 ? RED : GREEN);
          c.label(`B${f}`, 1, -35, WHITE);
        });
      }
      b.sprite('icon_a', icon('N', WHITE));
      const v = vis64({
        layerCount: 2,
        layers: { '1': { z: 1 } },
        directions: D24,
        animations: {
          '0': still({ 0: 0, 1: 0 }),
          '1': anim({ '1': animLayer([1, 2, 3], { frameRepeat: 4, loopCount: 0 }) }),
          '2': anim({ '1': animLayer([4, 5, 6], { frameRepeat: 4, loopCount: 0 }) }),
        },
      });
      return animatedLib(b, { x: 1, y: 1, z: 1 }, [2, 4], v, visIcon(1));
    },
  }),
  item({
    classname: 'kit_orb_blankframe',
    kind: 'floor',
    id: 5017,
    revision: 61017,
    name: 'Orb (extra layer is a blank frame)',
    build() {
      const b = new FurniBuilder('kit_orb_blankframe');
      dirs(b, 0, 0, [2], M24, (c, d) => markedBox(c, `A${d}`, DARK, 0, 0, 12, 16));
      for (const f of [0, 1]) {
        dirs(b, 1, f, [2], M24, (c) => {
          c.box(0, -16, 10, 18, f === 0 ? BLUE : PURPLE);
          c.label(`B${f}`, 5, -26, WHITE);
        });
      }
      // Layer c has no frame 0 asset at all; its frame 1 exists but is a blank 1x1.
      blank(b, 2, 1, [2], M24);
      b.sprite('icon_a', icon('O', BLUE));
      const v = vis64({
        layerCount: 3,
        layers: { '2': { ink: 'ADD' } },
        directions: D24,
        animations: {
          '0': anim({ '1': animLayer([0, 1], { frameRepeat: 3, loopCount: 0 }) }),
          '1': still({ 1: 0, 2: 1 }),
        },
      });
      return animatedLib(b, { x: 1, y: 1, z: 1 }, [2, 4], v, visIcon(1));
    },
  }),
  item({
    classname: 'kit_clock_repeat',
    kind: 'floor',
    id: 5018,
    revision: 61018,
    name: 'Clock (frameRepeat)',
    build() {
      const b = new FurniBuilder('kit_clock_repeat');
      dirs(b, 0, 0, [2], M24, (c, d) => {
        c.box(0, 0, 6, 24, BROWN);
        c.rect(-18, -62, 36, 36, WHITE);
        c.label(`A${d}`, -10, -56);
      });
      for (const f of [0, 1, 2, 3]) {
        dirs(b, 1, f, [2], M24, (c) => {
          const [dx, dy] = (
            [
              [0, -14],
              [14, 0],
              [0, 14],
              [-14, 0],
            ] as const
          )[f]!;
          c.line([0, -44], [dx, -44 + dy], RED);
          c.line([1, -44], [dx + 1, -44 + dy], RED);
          c.label(String(f), 10, -34, BLUE);
        });
      }
      b.sprite('icon_a', icon('K', WHITE));
      const v = vis64({
        layerCount: 2,
        layers: { '1': { z: 1 } },
        directions: D24,
        animations: {
          '0': still({ 0: 0, 1: 0 }),
          '1': anim({ '1': animLayer([0, 1, 2, 3], { frameRepeat: 3, loopCount: 0 }) }),
        },
      });
      return animatedLib(b, { x: 1, y: 1, z: 1 }, [2, 4], v, visIcon(1));
    },
  }),
  item({
    classname: 'kit_popper_loop',
    kind: 'floor',
    id: 5019,
    revision: 61019,
    name: 'Party popper (loopCount)',
    build() {
      const b = new FurniBuilder('kit_popper_loop');
      dirs(b, 0, 0, [2], M24, (c, d) => markedBox(c, `A${d}`, PURPLE, 0, 0, 12, 18));
      blank(b, 1, 0, [2], M24);
      for (const f of [1, 2, 3]) {
        dirs(b, 1, f, [2], M24, (c) => {
          for (let k = 0; k < f * 2; k++)
            c.rect(-16 + k * 6, -30 - f * 8 - (k % 2) * 5, 4, 4, [RED, YELLOW, GREEN][k % 3]!);
          c.label(`B${f}`, 20, -30 - f * 8);
        });
      }
      blank(b, 2, 0, [2], M24);
      for (const f of [1, 2]) {
        dirs(b, 2, f, [2], M24, (c) => {
          c.diamond(-18, -20 - f * 10, 6, ORANGE);
          c.label(`C${f}`, -18, -8 - f * 10);
        });
      }
      b.sprite('icon_a', icon('!', PURPLE));
      const popper: NitroAnimation = anim({
        '1': animLayer([1, 2, 3], { frameRepeat: 2, loopCount: 2 }),
        '2': { frameRepeat: 3, frameSequences: { '0': sequence([1, 2], 1) } },
      });
      const v = vis64({
        layerCount: 3,
        layers: { '1': { z: 2 }, '2': { z: 1 } },
        directions: D24,
        animations: { '0': still({ 0: 0, 1: 0, 2: 0 }), '1': popper },
      });
      return animatedLib(b, { x: 1, y: 1, z: 1 }, [2, 4], v, visIcon(1));
    },
  }),
  item({
    classname: 'kit_dice_random',
    kind: 'floor',
    id: 5020,
    revision: 61020,
    name: 'Dice (random frame sequences)',
    build() {
      const b = new FurniBuilder('kit_dice_random');
      dirs(b, 0, 0, [2], M24, (c, d) => {
        c.box(0, 0, 16, 22, WHITE);
        c.label(`A${d}`, 8, -8);
      });
      for (const f of [0, 1, 2, 3, 4, 5, 6]) {
        dirs(b, 1, f, [2], M24, (c) => c.label(f === 0 ? '?' : String(f), 0, -22, f === 0 ? GREY : RED, 2));
      }
      dirs(b, 1, 7, [2], M24, (c) => c.label('*', 0, -22, BLUE, 2));
      b.sprite('icon_a', icon('6', WHITE));
      const rolling = anim({
        '1': {
          frameRepeat: 2,
          loopCount: 0,
          random: 1,
          frameSequences: { '0': sequence([1, 2, 3]), '1': sequence([4, 5, 6]), '2': sequence([6, 1, 4]) },
        },
      });
      // "-1" (a negative state id, as real dice have): 2 frames, so it loses to state 1 on frame count.
      const shaking = anim({ '1': animLayer([0, 7], { loopCount: 0 }) });
      const v = vis64({
        layerCount: 2,
        layers: { '1': { z: 1 } },
        directions: D24,
        animations: { '-1': shaking, '0': still({ 0: 0, 1: 0 }), '1': rolling },
      });
      return b.library({
        logicType: 'furniture_multistate',
        visualizationType: 'furniture_animated',
        dimensions: { x: 1, y: 1, z: 1 },
        directions: [2, 4],
        visualizations: [v, visIcon(1)],
      });
    },
  }),
  item({
    classname: 'kit_door_transition',
    kind: 'floor',
    id: 5021,
    revision: 61021,
    name: 'Door (transition animations 100/101)',
    build() {
      const b = new FurniBuilder('kit_door_transition');
      dirs(b, 0, 0, [2], M24, (c, d) => {
        c.box(-16, 8, 6, 60, GREY);
        c.box(16, -8, 6, 60, GREY);
        c.label(`A${d}`, -16, -20);
      });
      // Door leaf: 0 closed, 1 open, 2 and 3 in between.
      for (const f of [0, 1, 2, 3]) {
        dirs(b, 1, f, [2], M24, (c) => {
          const open = [0, 30, 10, 20][f]!;
          c.shape(
            [
              [-12, 6],
              [12 - open, -6 + Math.floor(open / 2)],
              [12 - open, -54 + Math.floor(open / 2)],
              [-12, -42],
            ],
            BROWN,
          );
          c.label(`B${f}`, -4, -24, WHITE);
        });
      }
      dirs(b, 2, 1, [2], M24, (c) => {
        c.rect(-4, -46, 12, 34, YELLOW, null);
        c.label('C1', 2, -30);
      });
      for (const f of [1, 2]) {
        dirs(b, 3, f, [2], M24, (c) => {
          c.rect(f === 1 ? -30 : 22, -70, 8, 8, PINK);
          c.label(`D${f}`, f === 1 ? -26 : 26, -58);
        });
      }
      b.sprite('icon_a', icon('D', BROWN));
      const v = vis64({
        layerCount: 4,
        layers: { '1': { z: 2 }, '2': { z: 1 }, '3': { z: 3 } },
        directions: D24,
        animations: {
          '0': still({ 0: 0, 1: 0 }),
          '1': still({ 1: 1, 2: 1 }),
          '100': anim(
            {
              '1': animLayer([2, 3, 1], { frameRepeat: 3 }),
              '2': animLayer([1]),
              '3': animLayer([1, 2, 1], { frameRepeat: 3 }),
            },
            { transitionTo: 1 },
          ),
          '101': anim(
            { '1': animLayer([3, 2, 0], { frameRepeat: 3 }), '3': animLayer([2, 1, 2], { frameRepeat: 3 }) },
            { transitionFrom: 1 },
          ),
        },
      });
      return animatedLib(b, { x: 1, y: 1, z: 2 }, [2, 4], v, visIcon(1));
    },
  }),
  item({
    classname: 'kit_gate_transdup',
    kind: 'floor',
    id: 5022,
    revision: 61022,
    name: 'Gate (transitions under repeated ids "1_1")',
    xdim: 2,
    build() {
      const b = new FurniBuilder('kit_gate_transdup');
      dirs(b, 0, 0, [2], M24, (c, d) => {
        c.box(-14, 8, 5, 36, GREY);
        c.box(46, 38, 5, 36, GREY);
        c.label(`A${d}`, -14, -36);
      });
      // Bar: 0 down, 1 up, 2 half-way.
      for (const f of [0, 1, 2]) {
        dirs(b, 1, f, [2], M24, (c) => {
          const rise = [0, 24, 12][f]!;
          c.shape(
            [
              [-10, -22],
              [44, 5 - rise],
              [44, -1 - rise],
              [-10, -28],
            ],
            f === 2 ? ORANGE : RED,
          );
          c.label(`B${f}`, 18, -16 - Math.floor(rise / 2), WHITE);
        });
      }
      for (const f of [1, 2]) {
        dirs(b, 2, f, [2], M24, (c) => {
          c.rect(20, -30 - f * 6, 14, 3, CYAN, null);
          c.label(`C${f}`, 27, -40 - f * 6);
        });
      }
      dirs(b, 3, 1, [2], M24, (c) => {
        c.rect(-18, -48, 8, 8, GREEN);
        c.label('D1', -14, -54);
      });
      b.sprite('icon_a', icon('=', RED));
      const v = vis64({
        layerCount: 4,
        layers: { '1': { z: 2 }, '2': { z: 3, ink: 'ADD' }, '3': { z: 1 } },
        directions: D24,
        animations: {
          // An empty animation layer `{}` (as real bundles have): that layer shows frame 0.
          '0': anim({ '0': animLayer([0]), '1': animLayer([0]), '2': {} as NitroAnimationLayer }),
          '1': still({ 1: 1, 3: 1 }),
          '1_1': anim(
            {
              '1': animLayer([2, 1], { frameRepeat: 4 }),
              '2': animLayer([1, 2], { frameRepeat: 4 }),
              '3': animLayer([1]),
            },
            { transitionTo: 1 },
          ),
          '0_1': anim(
            { '1': animLayer([2, 0], { frameRepeat: 4 }), '2': animLayer([2, 1], { frameRepeat: 4 }) },
            { transitionTo: 0 },
          ),
        },
      });
      return animatedLib(b, { x: 2, y: 1, z: 1 }, [2, 4], v, visIcon(1));
    },
  }),
  item({
    classname: 'kit_hatch_transid',
    kind: 'floor',
    id: 5023,
    revision: 61023,
    name: 'Hatch (transitions keyed by internal ids 1000000+)',
    build() {
      const b = new FurniBuilder('kit_hatch_transid');
      dirs(b, 0, 0, [2], M24, (c, d) => {
        c.diamond(0, 0, 26, DARK);
        c.label(`A${d}`, -12, 0, WHITE);
      });
      for (const f of [0, 1, 2]) {
        dirs(b, 1, f, [2], M24, (c) => {
          const lift = [0, 18, 9][f]!;
          c.box(0, 0, 18, 4, f === 2 ? PINK : TEAL, lift);
          c.label(`B${f}`, 9, -lift - 4);
        });
      }
      dirs(b, 2, 1, [2], M24, (c) => c.rect(-4, -50, 8, 8, YELLOW));
      b.sprite('icon_a', icon('H', TEAL));
      const v = vis64({
        layerCount: 3,
        layers: { '1': { z: 1 }, '2': { z: 2 } },
        directions: D24,
        animations: {
          '0': still({ 0: 0, 1: 0 }),
          '1': still({ 1: 1 }),
          '1000001': anim({ '1': animLayer([2, 1], { frameRepeat: 3 }), '2': animLayer([1]) }, { transitionTo: 1 }),
          '2000001': anim({ '1': animLayer([2, 0], { frameRepeat: 3 }), '2': animLayer([1]) }, { transitionFrom: 1 }),
        },
      });
      return animatedLib(b, { x: 1, y: 1, z: 0.5 }, [2, 4], v, visIcon(1));
    },
  }),
  item({
    classname: 'kit_wall_poster',
    kind: 'wall',
    id: 6001,
    revision: 62001,
    name: 'Poster (wall, static)',
    build() {
      const b = new FurniBuilder('kit_wall_poster');
      dirs(b, 0, 0, [2], M24, (c, d) => {
        c.wallPanel(0, 0, 16, 40, WHITE);
        c.wallPanel(-4, -8, 6, 14, BLUE);
        c.rect(8, -44, 5, 5, RED);
        c.label(`A${d}`, 4, -20);
      });
      b.sprite(
        'icon_a',
        drawSprite((c) => c.wallPanel(0, 0, 8, 18, WHITE)),
      );
      return staticLib(b, { x: 1, y: 0.2, z: 1.5 }, [2, 4], vis64({ layerCount: 1, directions: D24 }), visIcon(1));
    },
  }),
  item({
    classname: 'kit_wall_led',
    kind: 'wall',
    id: 6002,
    revision: 62002,
    name: 'LED board (wall, animated, ADD)',
    build() {
      const b = new FurniBuilder('kit_wall_led');
      dirs(b, 0, 0, [2], M24, (c, d) => {
        c.wallPanel(0, 0, 20, 36, DARK);
        c.label(`A${d}`, -10, -10, WHITE);
      });
      blank(b, 1, 0, [2], M24);
      for (const f of [1, 2, 3]) {
        dirs(b, 1, f, [2], M24, (c) => {
          for (let k = 0; k < 3; k++) {
            const x = -12 + k * 10;
            c.rect(x, -18 - Math.floor(x / 2), 6, 6, k === f - 1 ? rgba(0xc0a000) : rgba(0x301060), null);
          }
          c.label(`B${f}`, 8, -34);
        });
      }
      b.sprite(
        'icon_a',
        drawSprite((c) => c.wallPanel(0, 0, 10, 16, DARK)),
      );
      const v = vis64({
        layerCount: 2,
        layers: { '1': { ink: 'ADD' } },
        directions: D24,
        animations: {
          '0': still({ 0: 0, 1: 0 }),
          '1': anim({ '1': animLayer([1, 2, 3], { frameRepeat: 4, loopCount: 0 }) }),
        },
      });
      // As in several real bundles: the icon visualization comes first and lists no directions.
      return b.library({
        logicType: 'furniture_multistate',
        visualizationType: 'furniture_animated',
        dimensions: { x: 1.4, y: 0.2, z: 1.2 },
        directions: [2, 4],
        visualizations: [visIcon(1, undefined, false), v],
      });
    },
  }),
  item({
    classname: 'kit_wall_shelf',
    kind: 'wall',
    id: 6003,
    revision: 62003,
    name: 'Wall shelf (wall, alpha, colour variant)',
    variants: [2],
    build() {
      const b = new FurniBuilder('kit_wall_shelf');
      dirs(b, 0, 0, [2], M24, (c, d) => {
        c.wallPanel(0, 0, 22, 6, WHITE);
        c.label(`A${d}`, 14, -12);
      });
      dirs(b, 1, 0, [2], M24, (c) => c.wallPanel(-6, -6, 8, 20, GREEN));
      b.sprite(
        'icon_a',
        drawSprite((c) => c.wallPanel(0, 0, 10, 4, WHITE)),
      );
      return staticLib(
        b,
        { x: 1, y: 0.2, z: 0.5 },
        [2, 4],
        vis64({
          layerCount: 2,
          layers: { '1': { alpha: 160, z: 1 } },
          directions: D24,
          colors: { '2': { '0': 0x6080ff } },
        }),
        visIcon(1, { '2': { '0': 0x6080ff } }),
      );
    },
  }),
  item({
    classname: 'kit_noicon',
    kind: 'floor',
    id: 5024,
    revision: 61024,
    name: 'Block without icon layers',
    build() {
      const b = new FurniBuilder('kit_noicon');
      dirs(b, 0, 0, [2], M24, (c, d) => markedBox(c, `A${d}`, PINK));
      // The size-1 visualization exists but no `_icon_` asset does.
      return staticLib(b, { x: 1, y: 1, z: 1 }, [2, 4], vis64({ layerCount: 1, directions: D24 }), visIcon(1));
    },
  }),
  item({
    classname: 'kit_offsets',
    kind: 'floor',
    id: 5025,
    revision: 61025,
    name: 'Slider (layer and frame offsets)',
    build() {
      const b = new FurniBuilder('kit_offsets');
      dirs(b, 0, 0, [2], M24, (c, d) => {
        c.box(0, 0, 24, 8, GREY);
        c.label(`A${d}`, 12, -2);
      });
      dirs(b, 1, 0, [2], M24, (c) => {
        c.box(0, 0, 6, 10, RED, 8);
        c.label('B', 3, -14);
      });
      b.sprite('icon_a', icon('>', RED));
      const v = vis64({
        layerCount: 2,
        layers: { '1': { x: -8, y: 4, z: 1 } },
        directions: D24,
        animations: {
          '0': still({ 0: 0, 1: 0 }),
          '1': anim({
            '1': animLayer(
              [
                { id: 0, x: 0, y: 0 },
                { id: 0, x: 6, y: 3 },
                { id: 0, x: 12, y: 6 },
              ],
              { frameRepeat: 2, loopCount: 0 },
            ),
          }),
        },
      });
      return animatedLib(b, { x: 1, y: 1, z: 0.5 }, [2, 4], v, visIcon(1));
    },
  }),
  item({
    classname: 'kit_big_3x2',
    kind: 'floor',
    id: 5026,
    revision: 61026,
    name: 'Big platform 3x2 (shadow, large sprite)',
    xdim: 3,
    ydim: 2,
    build() {
      const b = new FurniBuilder('kit_big_3x2');
      // x runs down-right (+32,+16 a tile), y down-left (-32,+16): centre of 3x2 is (32, 32).
      dirs(b, 0, 0, [2], M24, (c, d) => {
        c.shape(
          [
            [-64, 16],
            [0, -16],
            [96, 32],
            [32, 64],
          ],
          TEAL,
        );
        c.box(32, 24, 20, 30, YELLOW, 4);
        c.label(`A${d}`, 42, 10, BLACK, 2);
      });
      b.sprite(
        '64_sd_2_0',
        drawSprite((c) =>
          c.shape(
            [
              [-70, 20],
              [0, -14],
              [104, 36],
              [34, 70],
            ],
            BLACK,
            BLACK,
          ),
        ),
      );
      b.alias('64_sd_4_0', '64_sd_2_0', true);
      b.sprite('icon_a', icon('3', TEAL));
      // Icon visualization first, without directions, as several real bundles have it.
      return b.library({
        logicType: 'furniture_basic',
        visualizationType: 'furniture_static',
        dimensions: { x: 3, y: 2, z: 0.5 },
        directions: [2, 4],
        visualizations: [visIcon(1, undefined, false), vis64({ layerCount: 1, directions: D24 })],
      });
    },
  }),
  item({
    classname: 'kit_corrupt_trunc',
    kind: 'floor',
    id: 5027,
    revision: 61027,
    name: 'Corrupt bundle (truncated)',
    bundle: 'truncated',
    build: () => simpleBlock('kit_corrupt_trunc', RED),
  }),
  item({
    classname: 'kit_corrupt_garbage',
    kind: 'floor',
    id: 5028,
    revision: 61028,
    name: 'Corrupt bundle (garbage bytes)',
    bundle: 'garbage',
    build: () => simpleBlock('kit_corrupt_garbage', RED),
  }),
  item({
    classname: 'kit_corrupt_json',
    kind: 'floor',
    id: 5029,
    revision: 61029,
    name: 'Corrupt bundle (JSON does not parse)',
    bundle: 'bad-json',
    build: () => simpleBlock('kit_corrupt_json', RED),
  }),
  item({
    classname: 'kit_missing_bundle',
    kind: 'floor',
    id: 5030,
    revision: 61030,
    name: 'Row without a bundle file',
    bundle: 'missing',
    build: () => simpleBlock('kit_missing_bundle', RED),
  }),
  item({
    classname: 'kit_icon_zorder',
    kind: 'floor',
    id: 5031,
    revision: 61031,
    name: 'Block whose icon layers stack by z, not by id',
    build() {
      const b = new FurniBuilder('kit_icon_zorder');
      dirs(b, 0, 0, [2], M24, (c, d) => markedBox(c, `A${d}`, PURPLE));
      // Two overlapping icon squares: layer 0 (blue) has the higher z, so it covers layer 1 (red)
      // although layer 1 has the higher id.
      b.sprite(
        'icon_a',
        drawSprite((c) => c.rect(0, 0, 10, 10, BLUE, null)),
      );
      b.sprite(
        'icon_b',
        drawSprite((c) => c.rect(5, 5, 10, 10, RED, null)),
      );
      return staticLib(
        b,
        { x: 1, y: 1, z: 1 },
        [2, 4],
        vis64({ layerCount: 1, directions: D24 }),
        visIcon(2, undefined, true, { '0': { z: 2 }, '1': { z: 1 } }),
      );
    },
  }),
  item({
    classname: 'kit_poster_gzip',
    kind: 'wall',
    id: 6004,
    revision: 62004,
    name: 'Poster packed with gzip (as real posters are)',
    bundle: 'gzip',
    build() {
      const b = new FurniBuilder('kit_poster_gzip');
      dirs(b, 0, 0, [2], M24, (c, d) => {
        c.wallPanel(0, 0, 14, 34, YELLOW);
        c.wallPanel(2, -6, 6, 12, GREEN);
        c.label(`A${d}`, 4, -18);
      });
      b.sprite(
        'icon_a',
        drawSprite((c) => c.wallPanel(0, 0, 8, 16, YELLOW)),
      );
      return staticLib(b, { x: 1, y: 0.2, z: 1.5 }, [2, 4], vis64({ layerCount: 1, directions: D24 }), visIcon(1));
    },
  }),
  item({
    classname: 'kit_corrupt_gzip',
    kind: 'wall',
    id: 6005,
    revision: 62005,
    name: 'Corrupt bundle (gzip member cut short)',
    bundle: 'gzip-truncated',
    build: () => simpleBlock('kit_corrupt_gzip', RED),
  }),
  item({
    classname: 'kit_seedpack_noframe',
    kind: 'floor',
    id: 5032,
    revision: 61032,
    name: 'Seed pack (its only animation points at a missing frame)',
    build() {
      const b = new FurniBuilder('kit_seedpack_noframe');
      dirs(b, 0, 0, [2], M24, (c, d) => markedBox(c, `A${d}`, GREEN, 0, 0, 14, 30));
      dirs(b, 1, 0, [2], M24, (c) => {
        c.rect(-8, -28, 14, 10, WHITE);
        c.label('B0', -1, -23);
      });
      b.sprite('icon_a', icon('S', GREEN));
      // Like the real clothing_* and seed packs: the only animation is state 1, and it shows frame 1,
      // which has no asset. State 0 has no animation, so the client draws frame 0 of every layer.
      const v = vis64({
        layerCount: 2,
        layers: { '1': { z: 1 } },
        directions: D24,
        animations: { '1': still({ 0: 1, 1: 1 }) },
      });
      return animatedLib(b, { x: 1, y: 1, z: 1 }, [2, 4], v, visIcon(1));
    },
  }),
  item({
    classname: 'kit_bag_speck',
    kind: 'floor',
    id: 5033,
    revision: 61033,
    name: 'Bonus bag (cracked state is near-transparent 1x1 frames)',
    build() {
      const b = new FurniBuilder('kit_bag_speck');
      dirs(b, 0, 0, [2], M24, (c, d) => markedBox(c, `A${d}`, PURPLE, 0, 0, 16, 26));
      dirs(b, 1, 0, [2], M24, (c) => c.rect(-3, -40, 6, 9, YELLOW));
      // The cracked (opened) state: as in the real bonus bags, the frames exist but are 1x1 pixels at
      // alpha 3 and 13 — drawn, nobody sees them.
      blank(b, 0, 11, [2], M24, rgba(0x000000, 3));
      blank(b, 1, 1, [2], M24, rgba(0xffffff, 13));
      b.sprite('icon_a', icon('?', PURPLE));
      const v = vis64({
        layerCount: 2,
        layers: { '1': { z: 1 } },
        directions: D24,
        animations: { '0': still({ 0: 0, 1: 0 }), '1': still({ 0: 0, 1: 0 }), '2': still({ 0: 11, 1: 1 }) },
      });
      return b.library({
        logicType: 'furniture_crackable',
        visualizationType: 'furniture_animated',
        dimensions: { x: 1, y: 1, z: 1 },
        directions: [2, 4],
        visualizations: [v, visIcon(1)],
      });
    },
  }),
  item({
    classname: 'kit_bowl_depleting',
    kind: 'floor',
    id: 5034,
    revision: 61034,
    name: 'Food bowl (states empty it step by step)',
    build() {
      const b = new FurniBuilder('kit_bowl_depleting');
      dirs(b, 0, 0, [2], M24, (c, d) => {
        c.box(0, 0, 18, 8, BLUE);
        c.label(`A${d}`, 9, -2, WHITE);
      });
      // Food heaps of falling size: state 0 full, 1 half, 2 crumbs; state 3 is empty, its frame one
      // opaque black pixel, as real bundles often mark an empty frame.
      const heaps: [number, number][] = [
        [14, 10],
        [9, 6],
        [3, 2],
      ];
      heaps.forEach(([hw, h], f) => dirs(b, 1, f, [2], M24, (c) => c.box(0, -8, hw, h, ORANGE)));
      blank(b, 1, 3, [2], M24, BLACK);
      b.sprite('icon_a', icon('F', ORANGE));
      const v = vis64({
        layerCount: 2,
        layers: { '1': { z: 1 } },
        directions: D24,
        animations: { '0': still({ 1: 0 }), '1': still({ 1: 1 }), '2': still({ 1: 2 }), '3': still({ 1: 3 }) },
      });
      return animatedLib(b, { x: 1, y: 1, z: 0.5 }, [2, 4], v, visIcon(1));
    },
  }),
  item({
    classname: 'kit_guild_badge',
    kind: 'floor',
    id: 5035,
    revision: 61035,
    name: 'Guild banner (group colours and a badge slot)',
    build() {
      const b = new FurniBuilder('kit_guild_badge');
      dirs(b, 0, 0, [2], M24, (c, d) => {
        c.box(0, 0, 4, 70, BROWN);
        c.label(`A${d}`, 8, -4);
      });
      // COLOR1 / COLOR2 cloth, drawn white so the group colours show; the badge slot is a white
      // 39x39 placeholder far right of the banner, as gld_badgewall_tall has it.
      dirs(b, 1, 0, [2], M24, (c) => c.rect(4, -70, 24, 20, WHITE));
      dirs(b, 2, 0, [2], M24, (c) => c.rect(4, -50, 24, 20, WHITE));
      dirs(b, 3, 0, [2], M24, (c) => c.rect(70, -80, 39, 39, WHITE));
      b.sprite('icon_a', icon('G', BROWN));
      const v = vis64({
        layerCount: 4,
        layers: { '1': { tag: 'COLOR1', z: 1 }, '2': { tag: 'COLOR2', z: 1 }, '3': { tag: 'BADGE', z: 2 } },
        directions: D24,
      });
      return b.library({
        logicType: 'furniture_guild_customized',
        visualizationType: 'furniture_guild_customized',
        dimensions: { x: 1, y: 1, z: 2 },
        directions: [2, 4],
        visualizations: [v, visIcon(1)],
      });
    },
  }),
];

function simpleBlock(cn: string, color: Rgba): AssetLibrary {
  const b = new FurniBuilder(cn);
  dirs(b, 0, 0, [2], M24, (c, d) => markedBox(c, `A${d}`, color));
  b.sprite('icon_a', icon('?', color));
  return staticLib(b, { x: 1, y: 1, z: 1 }, [2, 4], vis64({ layerCount: 1, directions: D24 }), visIcon(1));
}
