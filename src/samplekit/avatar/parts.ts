// Which sprites each part of the kit has (action, direction, frame) and how each is drawn.
// Colorable parts are greyscale with a pattern per part type (the tint shows, the type stays
// recognisable); parts that are never tinted get flat saturated colours.
import {
  type Clip,
  type DrawnSprite,
  type Fill,
  type PaintOp,
  type Shape,
  capsule,
  ellipse,
  paint,
  poly,
  rect,
} from './raster.js';
import {
  ALL_DIRS,
  type ArmPose,
  BASE_DIRS,
  HEAD_CY,
  HEAD_RY,
  type LegPose,
  MIRROR_AXIS,
  type Side,
  armPathAnyDir,
  baseDir,
  footShape,
  geo,
  headShape,
  isMirroredDir,
  legPath,
  mirrorShapes,
  mirrorX,
  other,
  pathSegment,
  torso,
} from './rig.js';
import { isColorablePart } from './catalog.js';

export interface SpriteKey {
  action: string;
  dir: number;
  frame: number;
}

const G = (v: number) => v * 0x010101;
const withClip = (s: Shape, clip: Clip): Shape => ({ ...s, clip: { ...s.clip, ...clip } });

// ---------- which sprites exist ----------

const FACE_DIRS = [1, 2, 3];
const keys = (actions: string[], dirs: readonly number[], frames: number[] = [0]): SpriteKey[] =>
  actions.flatMap((action) => dirs.flatMap((dir) => frames.map((frame) => ({ action, dir, frame }))));
const LAY = (actions: string[] = ['lay'], frames: number[] = [0]) => keys(actions, [2], frames);
const WLK = keys(['wlk'], BASE_DIRS, [0, 1, 2, 3]);

export function spriteKeys(type: string, id: number): SpriteKey[] {
  switch (type) {
    case 'bd':
      return [...keys(['std', 'sit'], BASE_DIRS), ...WLK, ...LAY()];
    case 'hd':
      return [...keys(['std'], BASE_DIRS), ...keys(['spk'], BASE_DIRS, [0, 1]), ...LAY(), ...LAY(['lsp'], [0, 1])];
    case 'fc':
      return [
        ...keys(['std', 'sml', 'sad', 'agr', 'srp', 'blw', 'lgh'], FACE_DIRS),
        ...keys(['spk'], FACE_DIRS, [0, 1]),
        ...LAY(['lay', 'lsm', 'lsa', 'lag', 'lsr']),
        ...LAY(['lsp'], [0, 1]),
      ];
    case 'ey':
      return [
        ...keys(['std', 'sml', 'sad', 'agr', 'srp', 'eyb'], FACE_DIRS),
        ...LAY(['lay', 'lsm', 'lsa', 'lag', 'lsr', 'ley']),
      ];
    case 'fa':
      // Facial hair is not seen from behind: no sprites for 0 and 7 (a renderer draws nothing there).
      return [...keys(['std'], FACE_DIRS), ...keys(['spk'], FACE_DIRS, [0, 1]), ...LAY()];
    case 'ea':
    case 'hr':
    case 'hrb':
    case 'ha':
    case 'he':
    case 'ch':
      // Like real moving shirts (dresses): wlk 0-3 in every drawn direction, appended after std/lay. No
      // real library has ch wav sprites (the client never draws them: Wave governs the left arm only);
      // the tee carries wav 0-3 anyway, so a renderer that applies Wave's ch frames draws a visibly wrong
      // shirt.
      // The dress (2260) also sits, as real dresses do: its torso's Sit action draws h_sit_ch.
      return [
        ...keys(['std'], BASE_DIRS),
        ...LAY(),
        ...WLK,
        ...(id === 2210 ? keys(['wav'], BASE_DIRS, [0, 1, 2, 3]) : []),
        ...(id === 2260 ? keys(['sit'], BASE_DIRS) : []),
      ];
    case 'cc':
    case 'ca':
    case 'wa':
    case 'mc':
      return [...keys(['std'], BASE_DIRS), ...LAY()];
    case 'cp':
      return [...keys(['std'], [1, 2, 3, 4, 5]), ...LAY()];
    case 'lg':
    case 'sh':
      return [...keys(['std', 'sit'], BASE_DIRS), ...WLK, ...LAY()];
    case 'lh':
      return [
        ...keys(['std', 'sit', 'crr'], BASE_DIRS),
        ...WLK,
        ...LAY(),
        ...keys(['wav', 'respect'], ALL_DIRS, [0, 1]),
        ...keys(['sig'], ALL_DIRS),
      ];
    case 'ls':
    case 'lc':
      return [...keys(['std', 'sit', 'crr'], BASE_DIRS), ...WLK, ...LAY(), ...keys(['wav'], ALL_DIRS, [0, 1])];
    case 'rh':
      return [
        ...keys(['std', 'sit', 'crr'], BASE_DIRS),
        ...WLK,
        ...LAY(),
        ...keys(['drk'], ALL_DIRS),
        ...keys(['blw'], ALL_DIRS, [0, 1]),
      ];
    case 'rs':
    case 'rc':
      return [...keys(['std', 'sit', 'crr'], BASE_DIRS), ...WLK, ...LAY(), ...keys(['drk'], ALL_DIRS)];
    case 'ri':
      return keys(['crr', 'drk'], ALL_DIRS);
    case 'li':
      return keys(['sig'], ALL_DIRS);
    default:
      throw new Error(`no sprites defined for part type ${type}`);
  }
}

// ---------- fills ----------

/** Two-level patterns (true = the `alt` grey): with the base grey they tell the part types apart. */
export const PATTERNS = {
  flat: () => false,
  diag6: (x: number, y: number) => mod(x + y, 6) >= 3,
  antidiag6: (x: number, y: number) => mod(x - y, 6) >= 3,
  rows4: (_x: number, y: number) => mod(y, 4) >= 2,
  rows6: (_x: number, y: number) => mod(y, 6) >= 3,
  rows2: (_x: number, y: number) => mod(y, 2) === 1,
  cols4: (x: number) => mod(x, 4) >= 2,
  cols3: (x: number) => mod(x, 3) === 0,
  cols2: (x: number) => mod(x, 2) === 1,
  checker2: (x: number, y: number) => mod((x >> 1) + (y >> 1), 2) === 0,
  checker1: (x: number, y: number) => mod(x + y, 2) === 0,
  dots: (x: number, y: number) => mod(x, 4) === 0 && mod(y, 3) === 0,
  dots2: (x: number, y: number) => mod(x, 2) === 0 && mod(y, 2) === 0,
  diag3: (x: number, y: number) => mod(x + y, 3) === 0,
  grid4: (x: number, y: number) => mod(x, 4) === 0 || mod(y, 4) === 0,
} satisfies Record<string, (x: number, y: number) => boolean>;

export interface PartStyle {
  pattern: keyof typeof PATTERNS;
  /** Grey level of most pixels (R = G = B). */
  base: number;
  /** Grey level of the pattern's other pixels. */
  alt?: number;
}

/**
 * Look of each colorable part type (untinted). Flat types are at least 12 grey levels apart, and types
 * that share a pattern too, so every type stays recognisable untinted (a test checks it); `second` is the
 * colorindex-2 layer of a two-colour set.
 */
export const PART_STYLES: Record<string, PartStyle> = {
  hd: { pattern: 'flat', base: 0xfa },
  rh: { pattern: 'flat', base: 0xee },
  second: { pattern: 'flat', base: 0xe2 },
  bd: { pattern: 'flat', base: 0xd6 },
  ls: { pattern: 'flat', base: 0xca },
  fc: { pattern: 'flat', base: 0xbe },
  lh: { pattern: 'flat', base: 0xb2 },
  rs: { pattern: 'flat', base: 0xa6 },
  he: { pattern: 'flat', base: 0x9a },
  hr: { pattern: 'diag6', base: 0xff, alt: 0xc8 },
  hrb: { pattern: 'antidiag6', base: 0xe8, alt: 0xac },
  ch: { pattern: 'rows4', base: 0xff, alt: 0xd2 },
  cc: { pattern: 'rows6', base: 0xf6, alt: 0xd8 },
  mc: { pattern: 'rows2', base: 0xf0, alt: 0xb8 },
  lg: { pattern: 'cols4', base: 0xff, alt: 0xca },
  fa: { pattern: 'cols3', base: 0xec, alt: 0xbc },
  lc: { pattern: 'cols2', base: 0xe8, alt: 0xc0 },
  rc: { pattern: 'cols2', base: 0xb0, alt: 0x88 },
  sh: { pattern: 'checker2', base: 0xff, alt: 0xb4 },
  wa: { pattern: 'checker1', base: 0xff, alt: 0xc6 },
  ha: { pattern: 'dots', base: 0xf4, alt: 0xa8 },
  ea: { pattern: 'dots2', base: 0xf8, alt: 0xb0 },
  cp: { pattern: 'diag3', base: 0xf4, alt: 0xc4 },
  ca: { pattern: 'grid4', base: 0xe0, alt: 0xa8 },
};

function mod(v: number, n: number): number {
  return ((v % n) + n) % n;
}

function styleFill(s: PartStyle): Fill {
  if (s.pattern === 'flat' || s.alt === undefined) return G(s.base);
  const alt = PATTERNS[s.pattern];
  return (x, y) => G(alt(x, y) ? s.alt! : s.base);
}

/** Flat colours of the parts that are never tinted. */
const FLAT: Record<string, number> = {
  'hr:1802': 0x22c03a,
  'ch:2255': 0xf08020,
  'lg:3280': 0xc03090,
  'sh:4300': 0x8b5a2b,
  'ha:5010': 0xf0c020,
  'he:6010': 0xff60a0,
  'ea:7010': 0x202040,
  'fa:8010': 0x5a3a1a,
  'ca:9010': 0x20a0a0,
  'cp:9710': 0xd02020,
};

/** Second-colour layers (colorindex 2) are a plain light grey so their own tint reads clearly. */
const SECOND = new Set([
  'ch:2216',
  'ls:2216',
  'rs:2216',
  'lg:3276',
  'sh:4296',
  'ha:5002',
  'ha:5040',
  'wa:9502',
  'cc:9602',
]);

/** The grey style a colorable part is drawn in (null: a part with a fixed flat colour). */
export function partStyle(type: string, id: number): PartStyle | null {
  const k = `${type}:${id}`;
  if (FLAT[k] !== undefined && !isColorablePart(type, id)) return null;
  const style = SECOND.has(k) ? PART_STYLES.second : PART_STYLES[type];
  if (!style) throw new Error(`no style for part type ${type}`);
  return style;
}

function fillFor(type: string, id: number): Fill {
  const style = partStyle(type, id);
  return style ? styleFill(style) : FLAT[`${type}:${id}`]!;
}

export const EYE_IRIS: Record<number, number> = { 1: 0x2860e0, 2: 0x20a040, 3: 0x8a4a20, 4: 0x9040d0 };
const EYE_WHITE = 0xffffff;
const BROW = 0x303030;
const MOUTH = G(0x40);
const ITEM_COLORS: Record<number, [number, number]> = {
  1: [0x7b4a22, 0xf4f0e0],
  2: [0x2f9e44, 0xffffff],
  3: [0xe8c07a, 0xf06aa0],
  6: [0xf07a1a, 0x30a030],
};
/** Sign board colours by sign id; digits are drawn on them so a wrong id shows. */
export const SIGN_COLORS = [
  0xffffff, 0xff5050, 0xff9a30, 0xffe040, 0x80e040, 0x30c080, 0x30c0e0, 0x4080ff, 0x8060ff, 0xd060e0, 0xff70b0,
  0xc0a080, 0xa0a0a0, 0x60d0d0, 0xe0e0a0, 0xf0c0c0, 0xb0f0b0, 0xb0c0ff,
];

// ---------- drawing ----------

/** Draws one sprite; returns null when the part is invisible in that key (nothing to store). */
export function drawPart(type: string, id: number, key: SpriteKey): DrawnSprite | null {
  const ops = partOps(type, id, key);
  if (!ops || ops.length === 0) return null;
  const thin = type === 'ea' && id === 7001;
  return paint(ops, { outline: thin ? G(0x6a) : undefined });
}

const SIDED: Record<string, [Side, string]> = {
  lh: ['l', 'rh'],
  rh: ['r', 'lh'],
  ls: ['l', 'rs'],
  rs: ['r', 'ls'],
  lc: ['l', 'rc'],
  rc: ['r', 'lc'],
};

function partOps(type: string, id: number, key: SpriteKey): PaintOp[] | null {
  if (type === 'ri' || type === 'li') return itemOps(type, id, key);
  // Eyes draw with their own colours (never tinted): no grey style.
  const fill = type === 'ey' ? EYE_WHITE : fillFor(type, id);
  if (key.action === 'lay' || (key.action.startsWith('l') && key.action !== 'lgh')) return layOps(type, id, key, fill);
  if (isMirroredDir(key.dir)) {
    if (type === 'cp') return cpOps(id, key.dir, fill);
    // An own 4-6 sprite: the other side's part in the base direction, mirrored (what a renderer shows
    // for a non-exception part there), but drawn with this part's own colours.
    const sided = SIDED[type];
    if (!sided) throw new Error(`part type ${type} has no own sprites for direction ${key.dir}`);
    const shapes = sidedShapes(type, id, key.action, baseDir(key.dir), key.frame, true);
    return shapes.map((op) => ({
      ...op,
      shapes: mirrorShapes(op.shapes),
      fill: op.fill === undefined ? fill : op.fill,
    })) as PaintOp[];
  }
  const dir = key.dir;
  switch (type) {
    case 'bd':
      return [
        { shapes: bodyShapes(key.action as LegPose, dir, key.frame), fill },
        { shapes: [bodyDetail(dir)], fill: G(0x98), overlay: true },
      ];
    case 'lh':
    case 'rh':
    case 'ls':
    case 'rs':
    case 'lc':
    case 'rc':
      return sidedShapes(type, id, key.action, dir, key.frame, false).map((op) => ({
        ...op,
        fill: op.fill ?? fill,
      })) as PaintOp[];
    case 'hd':
      return [
        { shapes: [...hdShapes(id, key.action, dir, key.frame), ...earShapes(dir)], fill },
        { shapes: headDetail(dir), fill: G(0xb8), overlay: true },
      ];
    case 'fc':
      return fcOps(key.action, dir, key.frame, fill);
    case 'ey':
      return eyOps(id, key.action, dir);
    case 'hr':
    case 'hrb':
      return hairOps(type, id, dir, fill);
    case 'ha':
      return hatOps(id, dir, fill);
    case 'he':
      return heOps(id, dir, fill);
    case 'ea':
      return eaOps(id, dir, fill);
    case 'fa':
      return faOps(id, key.action, dir, key.frame, fill);
    case 'ch':
      return chOps(id, key, fill);
    case 'cc':
      return ccOps(id, dir, fill);
    case 'ca':
      return caOps(id, dir, fill);
    case 'wa':
      return waOps(id, dir, fill);
    case 'cp':
      return cpOps(id, dir, fill);
    case 'mc':
      if (id === 9810)
        return [{ shapes: pathSegment(armPathAnyDir('r', 'std', dir, 0), 0.8, 0.9, 3.7), fill: 0xe0b020 }];
      return [{ shapes: pathSegment(armPathAnyDir('l', 'std', dir, 0), 0.8, 0.9, 3.7), fill }];
    case 'lg':
      return lgOps(id, key.action as LegPose, dir, key.frame, fill);
    case 'sh':
      return shOps(id, key.action as LegPose, dir, key.frame, fill);
    default:
      throw new Error(`no drawing for part type ${type}`);
  }
}

// ---- body, arms ----

function bodyShapes(pose: LegPose, dir: number, frame: number): Shape[] {
  const g = geo(dir);
  const shapes: Shape[] = [rect(g.cx - 3, 53, 6, 6), torso(dir)];
  for (const side of ['r', 'l'] as Side[]) {
    shapes.push(...pathSegment(legPath(side, pose, dir, frame), 0, 1, 4));
    shapes.push(footShape(side, pose, dir, frame, -0.8));
  }
  return shapes;
}

/** Navel (front views) or spine (back views): tells the directions of the body apart. */
function bodyDetail(dir: number): Shape {
  const g = geo(dir);
  if (dir === 7) return rect(g.cx, 61, 1, 16);
  if (dir === 0) return rect(g.cx - 4, 61, 1, 16);
  return rect(g.cx + (dir === 3 ? 0 : dir === 2 ? 4 : 5), 73, 2, 2);
}

/** Ears that stick out of the head outline in the front and back views. */
function earShapes(dir: number): Shape[] {
  const g = geo(dir);
  if (dir === 3 || dir === 7) return [ellipse(g.hcx - g.headRx, 43, 2.5, 3.5), ellipse(g.hcx + g.headRx, 43, 2.5, 3.5)];
  return [];
}

/** Ear inside the outline (side views) and the nape (back view): tells the head directions apart. */
function headDetail(dir: number): Shape[] {
  const g = geo(dir);
  switch (dir) {
    case 0:
      return [ellipse(g.hcx + 6, 43, 2, 3)];
    case 1:
      return [ellipse(g.hcx - 3, 43, 2, 3)];
    case 2:
      return [ellipse(g.hcx - 7, 43, 2, 3)];
    case 7:
      return [rect(g.hcx - 4, 52, 8, 2)];
    default:
      return [ellipse(g.hcx, 46, 1, 1.5)];
  }
}

interface OpDraft {
  shapes: Shape[];
  fill?: Fill;
}

/** Arm, sleeve or coat sleeve of a side. `swapped`: geometry of the other side (for own 4-6 sprites). */
function sidedShapes(
  type: string,
  id: number,
  action: string,
  dir: number,
  frame: number,
  swapped: boolean,
): OpDraft[] {
  const [side0] = SIDED[type]!;
  const side = swapped ? other(side0) : side0;
  const pose = action as ArmPose;
  const path = armPathAnyDir(side, pose, dir, frame);
  const kind = type[1]; // h, s, c
  if (kind === 'h') {
    const [hx, hy] = path[path.length - 1]!;
    return [{ shapes: [...pathSegment(path, 0, 1, 2.8), ellipse(hx, hy, 3.3, 3.3)] }];
  }
  if (kind === 's') {
    if (id === 2216) return [{ shapes: pathSegment(path, 0.33, 0.45, 4.2) }];
    return [{ shapes: pathSegment(path, 0, 0.43, 3.9) }];
  }
  return [{ shapes: pathSegment(path, 0, 0.8, 4.2) }];
}

function hdShapes(id: number, action: string, dir: number, frame: number): Shape[] {
  const g = geo(dir);
  const head = headShape(id, dir);
  // Talk frame 0 opens the jaw by a pixel or two.
  if (action === 'spk' && frame === 0) return [head, ellipse(g.hcx + g.faceX * 0.8, HEAD_CY + HEAD_RY - 1, 5, 2.5)];
  return [head];
}

// ---- face ----

function mouthShapes(action: string, mx: number, my: number): Shape[] {
  switch (action) {
    case 'spk':
      return [ellipse(mx, my + 0.5, 2.5, 2)];
    case 'spk1':
      return [rect(mx - 2, my, 4, 2)];
    case 'sml':
      return [rect(mx - 3, my, 6, 1), rect(mx - 4, my - 1, 1, 1), rect(mx + 3, my - 1, 1, 1)];
    case 'sad':
      return [rect(mx - 3, my, 6, 1), rect(mx - 4, my + 1, 1, 1), rect(mx + 3, my + 1, 1, 1)];
    case 'agr':
      return [rect(mx - 3, my, 6, 2)];
    case 'srp':
      return [ellipse(mx, my + 0.5, 1.6, 2.6)];
    case 'blw':
      return [ellipse(mx + 1, my, 1.5, 1.5)];
    case 'lgh':
      return [ellipse(mx, my + 0.5, 3.5, 2.6)];
    default:
      return [rect(mx - 3, my, 6, 1)];
  }
}

function fcOps(action: string, dir: number, frame: number, fill: Fill): PaintOp[] | null {
  const g = geo(dir);
  if (!g.face) return null;
  const mx = g.hcx + g.faceX + (dir === 1 ? 1 : 0);
  const patch: Shape[] = [ellipse(mx, 49, dir === 1 ? 4 : 5.5, 4.8)];
  if (dir === 1) patch.push(ellipse(mx + 4, 45, 2.2, 2.2));
  const mouthKey = action === 'spk' && frame === 1 ? 'spk1' : action;
  const ops: PaintOp[] = [
    { shapes: patch, fill },
    { shapes: mouthShapes(mouthKey, mx, 50), fill: MOUTH, overlay: true },
  ];
  if (action === 'lgh') ops.push({ shapes: [rect(mx - 1, 51, 3, 1)], fill: G(0xb0), overlay: true });
  return ops;
}

function eyeCentres(dir: number): number[] {
  const g = geo(dir);
  if (dir === 3) return [g.hcx - 5, g.hcx + 5];
  if (dir === 2) return [g.hcx + 1, g.hcx + 8];
  if (dir === 1) return [g.hcx + 8];
  return [];
}

function eyOps(id: number, action: string, dir: number): PaintOp[] | null {
  const g = geo(dir);
  if (!g.face) return null;
  const iris = EYE_IRIS[id] ?? 0x2860e0;
  const ey = 40;
  const ops: PaintOp[] = [];
  const look = g.f;
  for (const ex of eyeCentres(dir)) {
    if (action === 'eyb') {
      ops.push({ shapes: [rect(ex - 3, ey, 6, 2)], fill: BROW });
      continue;
    }
    const ry = action === 'srp' ? 4 : 3.2;
    const eye = action === 'sml' ? ellipse(ex, ey + 1, 2.8, 3, { y1: ey + 1.5 }) : ellipse(ex, ey, 2.8, ry);
    ops.push({ shapes: [eye], fill: EYE_WHITE });
    const iy = action === 'sad' ? ey : action === 'sml' ? ey - 2 : ey - 1;
    ops.push({ shapes: [rect(Math.round(ex - 1 + look), iy, 2, 2)], fill: iris, overlay: true });
    if (action === 'sad')
      ops.push({
        shapes: [
          poly([
            [ex - 4, ey - 4],
            [ex + 3, ey - 7],
            [ex + 3, ey - 5],
            [ex - 4, ey - 2],
          ]),
        ],
        fill: BROW,
      });
    if (action === 'agr')
      ops.push({
        shapes: [
          poly([
            [ex - 4, ey - 7],
            [ex + 3, ey - 4],
            [ex + 3, ey - 2],
            [ex - 4, ey - 5],
          ]),
        ],
        fill: BROW,
      });
    if (action === 'srp') ops.push({ shapes: [rect(ex - 3, ey - 8, 6, 2)], fill: BROW });
  }
  return ops;
}

// ---- head wear ----

function hairOps(type: string, id: number, dir: number, fill: Fill): PaintOp[] {
  const g = geo(dir);
  const rx = g.headRx;
  const hcx = g.hcx;
  if (id === 1802) return type === 'hr' ? [{ shapes: [rect(hcx - 2, 16, 5, 19)], fill }] : [];
  if (type === 'hr') {
    const shapes: Shape[] = [ellipse(hcx, HEAD_CY, rx + 1.5, HEAD_RY + 1.5, { y1: g.face ? 33 : 45 })];
    if (g.face)
      shapes.push(g.f ? rect(hcx + 2, 31, rx - 2, id === 1100 ? 3 : 5) : rect(hcx - 9, 31, 18, id === 1100 ? 3 : 4));
    return [{ shapes, fill }];
  }
  // hrb: the locks that stay visible under a hat that hides hr
  const len = id === 1515 ? 34 : 22;
  if (!g.face)
    return [
      {
        shapes: [
          ellipse(hcx, HEAD_CY + 3, rx + 2, HEAD_RY + 1, { y0: 33 }),
          rect(hcx - rx - 2, 40, 2 * rx + 4, len - 8),
        ],
        fill,
      },
    ];
  if (dir === 1) return [{ shapes: [rect(hcx - rx - 2, 31, 9, len)], fill }];
  return [{ shapes: [rect(hcx - rx - 2, 31, 5, len), rect(hcx + rx - 3, 31, 5, g.f ? len - 10 : len)], fill }];
}

function hatOps(id: number, dir: number, fill: Fill): PaintOp[] {
  const g = geo(dir);
  const rx = g.headRx;
  const hcx = g.hcx;
  switch (id) {
    case 5001:
      return [{ shapes: [ellipse(hcx, HEAD_CY - 1, rx + 2, HEAD_RY + 2, { y1: 33 })], fill }];
    case 5002: {
      if (dir === 3) return [{ shapes: [rect(hcx - 13, 31, 26, 3)], fill }];
      if (dir === 7) return [{ shapes: [rect(hcx - 12, 31, 24, 2)], fill }];
      if (dir === 0) return [{ shapes: [rect(hcx + 2, 29, rx + 6, 3)], fill }];
      return [{ shapes: [rect(hcx, 30, rx + 9, 3)], fill }];
    }
    case 5030:
      return [{ shapes: [ellipse(hcx, HEAD_CY - 2, rx + 1.5, HEAD_RY + 2.5, { y1: 33 })], fill }];
    case 5040:
      // the bow: a band across the front of the crown it overlaps
      return [
        {
          shapes: [
            rect(hcx - rx - 2, 26, 2 * rx + 4, 5),
            ellipse(hcx + (dir === 7 || dir === 0 ? -rx : rx) * 0.6, 25, 4, 3),
          ],
          fill,
        },
      ];
    case 5041:
      return [{ shapes: [ellipse(hcx, HEAD_CY - 2, rx + 2, HEAD_RY + 3, { y1: 32 })], fill }];
    case 5031:
      // not colorable, two colours of its own
      return [
        { shapes: [rect(hcx - 1, 18, 2, 6), rect(hcx - 9, 16, 9, 2)], fill: 0xe02828 },
        { shapes: [rect(hcx, 16, 9, 2)], fill: 0xf0d020 },
      ];
    case 5010:
      return [
        {
          shapes: [
            poly([
              [hcx - 11, 31],
              [hcx - 11, 20],
              [hcx - 6, 25],
              [hcx - 2, 16],
              [hcx + 2, 25],
              [hcx + 6, 19],
              [hcx + 11, 24],
              [hcx + 11, 31],
            ]),
          ],
          fill,
        },
        { shapes: [ellipse(hcx - 2, 27, 1.5, 1.5)], fill: 0xe02020, overlay: true },
      ];
    default:
      return [
        {
          shapes: [
            ellipse(hcx, HEAD_CY - 1, rx + 2, HEAD_RY + 2, { y1: 37 }),
            rect(hcx - rx - 2, 33, 2 * rx + 4, 5),
            ellipse(hcx + 3, 22, 3, 3),
          ],
          fill,
        },
      ];
  }
}

function heOps(id: number, dir: number, fill: Fill): PaintOp[] {
  const g = geo(dir);
  if (id === 6001) return [{ shapes: [ellipse(g.hcx, HEAD_CY, g.headRx + 1, HEAD_RY + 1, { y0: 30, y1: 34 })], fill }];
  const fx = g.hcx - (dir === 1 ? 6 : 8);
  return [
    { shapes: [ellipse(fx, 28, 4, 4)], fill },
    { shapes: [ellipse(fx, 28, 1.5, 1.5)], fill: 0xffe040, overlay: true },
  ];
}

function eaOps(id: number, dir: number, fill: Fill): PaintOp[] {
  const g = geo(dir);
  const centres = eyeCentres(dir);
  if (centres.length === 0) return [{ shapes: [rect(g.hcx - g.headRx, 39, 2 * g.headRx, 2)], fill }];
  const shapes: Shape[] = [];
  for (const ex of centres) {
    if (id === 7010) shapes.push(ellipse(ex, 40, 4, 3.6));
    else shapes.push(rect(ex - 4, 36, 8, 2), rect(ex - 4, 43, 8, 2), rect(ex - 4, 36, 2, 9), rect(ex + 2, 36, 2, 9));
  }
  if (centres.length === 2) shapes.push(rect(centres[0]! + 3, 38, centres[1]! - centres[0]! - 6, 2));
  const reach = dir === 3 ? 0 : g.hcx - g.headRx;
  if (reach) shapes.push(rect(reach, 38, centres[0]! - 4 - reach, 2));
  return [{ shapes, fill }];
}

function faOps(id: number, action: string, dir: number, frame: number, fill: Fill): PaintOp[] | null {
  const g = geo(dir);
  const dy = action === 'spk' && frame === 0 ? 1 : 0;
  if (id === 8010) {
    if (!g.face) return null;
    const mx = g.hcx + g.faceX + (dir === 1 ? 1 : 0);
    return [{ shapes: [rect(mx - 4, 47 + dy, 8, 2), rect(mx - 5, 48 + dy, 2, 2), rect(mx + 3, 48 + dy, 2, 2)], fill }];
  }
  if (!g.face) return null;
  return [{ shapes: [ellipse(g.hcx + g.faceX * 0.6, 51 + dy, g.headRx - 3, 6.5, { y0: 48 + dy })], fill }];
}

// ---- torso wear ----

function chOps(id: number, key: SpriteKey, fill: Fill): PaintOp[] {
  const dir = key.dir;
  const g = geo(dir);
  let ops: PaintOp[];
  if (id === 2216) ops = [{ shapes: [withClip(torso(dir, 0.8, 57, 81), { y0: 66, y1: 71 })], fill }];
  else if (id === 2260) ops = dressOps(key, fill);
  else if (id === 2255) ops = [{ shapes: [torso(dir, 0.6, 58, 88)], fill }];
  else
    ops = [
      { shapes: [torso(dir, 0.8, 57, 81)], fill },
      ...(g.face ? [{ shapes: [ellipse(g.cx + g.f * 2, 57, 3, 2)], fill: G(0x90), overlay: true }] : []),
    ];
  const tick = frameTick(id, key);
  return tick ? [...ops, tick] : ops;
}

/** The dress: bodice and a flared skirt to the knee; sitting, the skirt lies over the thighs. */
function dressOps(key: SpriteKey, fill: Fill): PaintOp[] {
  const g = geo(key.dir);
  const bodice = torso(key.dir, 0.8, 57, 80);
  if (key.action === 'sit') {
    const lap = g.f
      ? poly([
          [g.cx - g.hw - 1, 78],
          [g.cx + g.hw + 1, 78],
          [g.cx + g.hw + 2 + g.f * 14, 85],
          [g.cx - g.hw - 2 + g.f * 14, 91],
        ])
      : rect(g.cx - g.hw - 1, 78, 2 * g.hw + 2, 12);
    return [{ shapes: [bodice, lap], fill }];
  }
  const skirt = poly([
    [g.cx - g.hw, 78],
    [g.cx + g.hw, 78],
    [g.cx + g.hw + 4, 96],
    [g.cx - g.hw - 4, 96],
  ]);
  return [{ shapes: [bodice, skirt], fill }];
}

/**
 * A dark block that steps right with the frame (wlk: low on the shirt, 2x2; wav: high, 1x3), so a
 * renderer that draws std, or the wrong action or frame, shows it in the picture.
 */
function frameTick(id: number, key: SpriteKey): PaintOp | null {
  if (key.action !== 'wlk' && key.action !== 'wav') return null;
  const g = geo(key.dir);
  const x = g.cx - 5 + 3 * key.frame;
  const y = id === 2216 ? 67 : key.action === 'wlk' ? 74 : 61;
  const shape = key.action === 'wlk' ? rect(x, y, 2, 2) : rect(x, y, 1, 3);
  return { shapes: [shape], fill: G(0x50), overlay: true };
}

function ccOps(id: number, dir: number, fill: Fill): PaintOp[] {
  const g = geo(dir);
  if (id === 9602) {
    const c = g.cx + g.f * 2;
    return [
      {
        shapes: [
          poly([
            [c - 7, 55],
            [c - 1, 55],
            [c - 3, 63],
          ]),
          poly([
            [c + 1, 55],
            [c + 7, 55],
            [c + 3, 63],
          ]),
        ],
        fill,
      },
    ];
  }
  const full = torso(dir, 1.6, 56, 84);
  if (!g.face) return [{ shapes: [full], fill }];
  const gap = g.cx + g.f * 3;
  return [{ shapes: [withClip(full, { x1: gap - 1 }), withClip(full, { x0: gap + 2 })], fill }];
}

function caOps(id: number, dir: number, fill: Fill): PaintOp[] {
  const g = geo(dir);
  if (id === 9010) {
    const tail = g.f ? g.cx - g.hw + 2 : g.cx + 3;
    return [{ shapes: [rect(g.cx - g.hw + 1, 55, 2 * g.hw - 2, 5), rect(tail, 58, 4, 12)], fill }];
  }
  const mx = g.cx + g.f * 2;
  if (!g.face) return [{ shapes: [capsule(g.cx - 5, 57, g.cx + 5, 57, 1.2)], fill }];
  return [
    {
      shapes: [capsule(g.cx - 4, 57, mx, 66, 1.3), capsule(g.cx + 4, 57, mx, 66, 1.3), ellipse(mx, 68, 3.3, 3.3)],
      fill,
    },
  ];
}

function waOps(id: number, dir: number, fill: Fill): PaintOp[] {
  const g = geo(dir);
  if (id === 9502) {
    if (!g.face) return [{ shapes: [rect(g.cx - 2, 78, 4, 4)], fill }];
    return [{ shapes: [rect(g.cx + g.f * 3 - 2, 77, 5, 6)], fill }];
  }
  return [{ shapes: [rect(g.cx - g.hw + 1.5, 78, 2 * g.hw - 3, 4)], fill }];
}

/** Chest print: drawn in final orientation in every direction (own 4-6 sprites; the glyph never mirrors). */
function cpOps(id: number, dir: number, fill: Fill): PaintOp[] {
  const b = baseDir(dir);
  const g = geo(b);
  let ax = g.cx + g.f * 2;
  if (isMirroredDir(dir)) ax = mirrorX(ax) - 1;
  const narrow = b === 1;
  const w = narrow ? 6 : 11;
  const x0 = narrow ? ax - 2 : ax - 5;
  if (id === 9710) {
    return [
      { shapes: [rect(x0, 62, w, 9)], fill },
      {
        shapes: [
          poly([
            [x0, 62],
            [x0 + w / 2, 66.5],
            [x0, 71],
          ]),
        ],
        fill: 0xffe040,
        overlay: true,
      },
    ];
  }
  const gx = x0 + (narrow ? 1 : 3);
  return [
    { shapes: [rect(x0, 60, w, 13)], fill },
    {
      shapes: [rect(gx, 62, 2, 9), rect(gx, 62, narrow ? 3 : 5, 2), rect(gx, 66, narrow ? 3 : 4, 2)],
      fill: G(0x50),
      overlay: true,
    },
  ];
}

// ---- legs, shoes ----

function lgOps(id: number, pose: LegPose, dir: number, frame: number, fill: Fill): PaintOp[] {
  const g = geo(dir);
  const legs = (r: number, t1 = 0.97): Shape[] =>
    (['r', 'l'] as Side[]).flatMap((s) => pathSegment(legPath(s, pose, dir, frame), 0, t1, r));
  const hip = rect(g.cx - g.hw + 2, 78, 2 * g.hw - 4, 7);
  switch (id) {
    case 3276: {
      const shapes = (['r', 'l'] as Side[]).flatMap((s) => {
        const out = Math.sign(g.hip[s] - g.cx) || (s === 'r' ? -1 : 1);
        const path = legPath(s, pose, dir, frame).map(([x, y]) => [x + out * 3, y] as [number, number]);
        return pathSegment(path, 0.05, 0.9, 1.6);
      });
      return [{ shapes, fill }];
    }
    case 3280:
      if (pose === 'sit')
        return [
          {
            shapes: [
              poly([
                [g.cx - g.hw + 1, 78],
                [g.cx + g.hw - 1, 78],
                [g.cx + g.hw + 1 + g.f * 12, 90],
                [g.cx - g.hw - 1, 90],
              ]),
            ],
            fill,
          },
        ];
      return [
        {
          shapes: [
            poly([
              [g.cx - g.hw + 1, 78],
              [g.cx + g.hw - 1, 78],
              [g.cx + g.hw + 3, 93],
              [g.cx - g.hw - 3, 93],
            ]),
          ],
          fill,
        },
      ];
    case 3285: {
      if (pose === 'sit') return [{ shapes: [hip, ...legs(5, 1)], fill }];
      const sway = pose === 'wlk' ? g.f * 2 * [0.5, 1, -0.5, -1][frame % 4]! : 0;
      return [
        {
          shapes: [
            poly([
              [g.cx - g.hw, 78],
              [g.cx + g.hw, 78],
              [g.cx + g.hw + 4 + sway, 107],
              [g.cx - g.hw - 4 + sway, 107],
            ]),
          ],
          fill,
        },
      ];
    }
    default:
      return [{ shapes: [hip, ...legs(4.7)], fill }];
  }
}

function shOps(id: number, pose: LegPose, dir: number, frame: number, fill: Fill): PaintOp[] {
  const shapes: Shape[] = [];
  for (const s of ['r', 'l'] as Side[]) {
    const foot = footShape(s, pose, dir, frame, id === 4300 ? 1.2 : 0.8);
    if (id === 4296) {
      if (foot.k === 'ellipse') shapes.push(withClip(foot, { y0: foot.cy + 1.5 }));
      continue;
    }
    shapes.push(
      foot,
      ...pathSegment(legPath(s, pose, dir, frame), id === 4300 ? 0.6 : 0.88, 1, id === 4300 ? 4.9 : 4.3),
    );
  }
  return [{ shapes, fill }];
}

// ---- hand items ----

function handAt(side: Side, pose: ArmPose, dir: number): [number, number] {
  const path = armPathAnyDir(side, pose, dir, 0);
  return path[path.length - 1]!;
}

function itemOps(type: string, id: number, key: SpriteKey): PaintOp[] | null {
  if (type === 'li') {
    const [hx, hy] = handAt('l', 'sig', key.dir);
    const bx = Math.round(hx) - 8;
    const by = Math.round(hy) - 22;
    return [
      { shapes: [rect(bx, by, 17, 14), rect(bx + 7, by + 14, 3, 9)], fill: SIGN_COLORS[id % SIGN_COLORS.length]! },
      { shapes: digitShapes(id, bx + 8.5, by + 4), fill: 0x101010, overlay: true },
    ];
  }
  const [hx0, hy0] = handAt('r', key.action as ArmPose, key.dir);
  // Facing the viewer (or away), a renderer draws the right-hand item before the right hand (the
  // client's geometry order): a carried item hangs below the fist, toward the body, so it shows.
  const front = key.action === 'crr' && geo(baseDir(key.dir)).f === 0;
  const hx = Math.round(hx0) + (front ? Math.sign(geo(baseDir(key.dir)).cx - hx0) * 3 : 0);
  const hy = Math.round(hy0) + (front ? 8 : 0);
  const [c1, c2] = ITEM_COLORS[id] ?? [0x808080, 0xffffff];
  switch (id) {
    case 1:
      return [
        { shapes: [rect(hx - 3, hy - 9, 7, 9), rect(hx + 4, hy - 7, 2, 4)], fill: c1 },
        { shapes: [rect(hx - 2, hy - 8, 5, 2)], fill: c2, overlay: true },
      ];
    case 2:
      return [
        { shapes: [rect(hx - 2, hy - 13, 5, 14), rect(hx - 1, hy - 17, 3, 5)], fill: c1 },
        { shapes: [rect(hx - 1, hy - 8, 3, 3)], fill: c2, overlay: true },
      ];
    case 3:
      return [
        {
          shapes: [
            poly([
              [hx - 3, hy - 5],
              [hx + 4, hy - 5],
              [hx + 0.5, hy + 5],
            ]),
          ],
          fill: c1,
        },
        { shapes: [ellipse(hx + 0.5, hy - 7, 4, 3.5)], fill: c2 },
      ];
    default:
      return [
        {
          shapes: [
            poly([
              [hx - 3, hy - 10],
              [hx + 3, hy - 10],
              [hx + 1, hy + 5],
            ]),
          ],
          fill: c1,
        },
        {
          shapes: [
            poly([
              [hx - 4, hy - 16],
              [hx, hy - 10],
              [hx + 5, hy - 16],
              [hx + 1, hy - 11],
            ]),
          ],
          fill: c2,
        },
      ];
  }
}

/** 3x5 pixel digits. */
const FONT: Record<string, string[]> = {
  '0': ['###', '#.#', '#.#', '#.#', '###'],
  '1': ['.#.', '##.', '.#.', '.#.', '###'],
  '2': ['###', '..#', '###', '#..', '###'],
  '3': ['###', '..#', '.##', '..#', '###'],
  '4': ['#.#', '#.#', '###', '..#', '..#'],
  '5': ['###', '#..', '###', '..#', '###'],
  '6': ['###', '#..', '###', '#.#', '###'],
  '7': ['###', '..#', '.#.', '.#.', '.#.'],
  '8': ['###', '#.#', '###', '#.#', '###'],
  '9': ['###', '#.#', '###', '..#', '###'],
};

function digitShapes(n: number, cx: number, top: number): Shape[] {
  const s = String(n);
  const width = s.length * 4 - 1;
  let x = Math.round(cx - width / 2);
  const shapes: Shape[] = [];
  for (const ch of s) {
    FONT[ch]!.forEach((row, ry) => [...row].forEach((c, rx) => c === '#' && shapes.push(rect(x + rx, top + ry, 1, 1))));
    x += 4;
  }
  return shapes;
}

// ---------- lying down (direction 2 only; a renderer mirrors it for 4) ----------

const LAY_HEAD = { cx: -4, cy: 76, rx: 13, ry: 12 };
const LAY_EYES = [71, 81];

function layOps(type: string, id: number, key: SpriteKey, fill: Fill): PaintOp[] | null {
  const { cx, cy, rx, ry } = LAY_HEAD;
  const a = key.action;
  switch (type) {
    case 'bd':
      return [
        {
          shapes: [
            rect(8, 80, 5, 10),
            poly([
              [10, 78],
              [35, 80],
              [35, 98],
              [10, 100],
            ]),
            capsule(35, 84, 54, 84, 4),
            capsule(35, 95, 54, 95, 4),
            ellipse(57, 82, 3, 3.5),
            ellipse(57, 93, 3, 3.5),
          ],
          fill,
        },
      ];
    case 'hd':
      if (id === 2) return [{ shapes: [rect(cx - rx, cy - ry, 2 * rx, 2 * ry)], fill }];
      return [
        {
          shapes: [
            ellipse(cx, cy, rx, id === 3 ? ry - 1.5 : ry),
            ...(a === 'lsp' && key.frame === 0 ? [ellipse(cx + rx - 1, cy, 2.5, 5)] : []),
          ],
          fill,
        },
      ];
    case 'fc': {
      const mouth =
        a === 'lsp'
          ? key.frame === 0
            ? 'spk'
            : 'spk1'
          : a === 'lsm'
            ? 'sml'
            : a === 'lsa'
              ? 'sad'
              : a === 'lag'
                ? 'agr'
                : a === 'lsr'
                  ? 'srp'
                  : 'std';
      return [
        { shapes: [ellipse(4, 76, 4, 5.5)], fill },
        { shapes: mouthShapes(mouth, 5, 76).map((s) => rotateQuarter(s, 5, 76)), fill: MOUTH, overlay: true },
      ];
    }
    case 'ey': {
      const iris = EYE_IRIS[id] ?? 0x2860e0;
      const ops: PaintOp[] = [];
      for (const ey of LAY_EYES) {
        if (a === 'ley') {
          ops.push({ shapes: [rect(-4, ey - 3, 2, 6)], fill: BROW });
          continue;
        }
        ops.push({ shapes: [ellipse(-4, ey, a === 'lsr' ? 3.8 : 3, 2.8)], fill: EYE_WHITE });
        ops.push({ shapes: [rect(a === 'lsm' ? -6 : -5, ey - 1, 2, 2)], fill: iris, overlay: true });
        if (a === 'lsa' || a === 'lag')
          ops.push({ shapes: [rect(-10, ey + (a === 'lsa' ? -3 : 1), 3, 3)], fill: BROW });
      }
      return ops;
    }
    case 'hr':
      if (id === 1802) return [{ shapes: [rect(-24, 74, 10, 5)], fill }];
      return [{ shapes: [ellipse(cx, cy, rx + 1.5, ry + 1.5, { x1: -8 })], fill }];
    case 'hrb':
      return [
        {
          shapes: [
            ellipse(cx, cy, rx + 1.5, ry + 1.5, { x1: 3, y0: 85 }),
            ...(id === 1515 ? [rect(-6, 86, 22, 6)] : []),
          ],
          fill,
        },
      ];
    case 'ha':
      if (id === 5002) return [{ shapes: [rect(-13, 62, 3, 14)], fill }];
      if (id === 5010)
        return [
          {
            shapes: [
              poly([
                [-14, 66],
                [-24, 66],
                [-19, 70],
                [-26, 74],
                [-19, 78],
                [-25, 82],
                [-14, 86],
              ]),
            ],
            fill,
          },
        ];
      if (id === 5020)
        return [{ shapes: [ellipse(cx - 1, cy, rx + 2, ry + 2, { x1: -6 }), ellipse(-21, 79, 3, 3)], fill }];
      if (id === 5030) return [{ shapes: [ellipse(cx - 1, cy, rx + 2, ry + 2, { x1: -11 })], fill }];
      if (id === 5031)
        return [
          { shapes: [rect(-23, 75, 6, 2), rect(-25, 67, 2, 9)], fill: 0xe02828 },
          { shapes: [rect(-25, 76, 2, 9)], fill: 0xf0d020 },
        ];
      return [{ shapes: [ellipse(cx - 1, cy, rx + 2, ry + 2, { x1: -10 })], fill }];
    case 'he':
      if (id === 6010)
        return [
          { shapes: [ellipse(-12, 86, 4, 4)], fill },
          { shapes: [ellipse(-12, 86, 1.5, 1.5)], fill: 0xffe040, overlay: true },
        ];
      return [{ shapes: [ellipse(cx, cy, rx + 1, ry + 1, { x0: -11, x1: -7 })], fill }];
    case 'ea':
      if (id === 7010) return [{ shapes: LAY_EYES.map((e) => ellipse(-4, e, 3.8, 4)), fill }];
      return [
        {
          shapes: LAY_EYES.flatMap((e) => [
            rect(-8, e - 4, 8, 2),
            rect(-8, e + 3, 8, 2),
            rect(-8, e - 4, 2, 9),
            rect(-2, e - 4, 2, 9),
          ]),
          fill,
        },
      ];
    case 'fa':
      if (id === 8010) return [{ shapes: [rect(1, 72, 2, 9)], fill }];
      return [{ shapes: [ellipse(6, 77, 5, 8, { x0: 4 })], fill }];
    case 'ch':
      if (id === 2216)
        return [
          {
            shapes: [
              poly(
                [
                  [9, 77],
                  [36, 79],
                  [36, 99],
                  [9, 101],
                ],
                { x0: 20, x1: 25 },
              ),
            ],
            fill,
          },
        ];
      return [
        {
          shapes: [
            poly([
              [9, 77],
              [id === 2255 ? 40 : 36, 79],
              [id === 2255 ? 40 : 36, 99],
              [9, 101],
            ]),
          ],
          fill,
        },
      ];
    case 'cc':
      if (id === 9602) return [{ shapes: [rect(8, 80, 4, 18)], fill }];
      return [
        {
          shapes: [
            poly(
              [
                [8, 76],
                [38, 78],
                [38, 100],
                [8, 102],
              ],
              { y1: 88 },
            ),
            poly(
              [
                [8, 76],
                [38, 78],
                [38, 100],
                [8, 102],
              ],
              { y0: 90 },
            ),
          ],
          fill,
        },
      ];
    case 'ca':
      if (id === 9010) return [{ shapes: [rect(7, 78, 5, 22)], fill }];
      return [{ shapes: [capsule(10, 84, 18, 89, 1.3), ellipse(20, 89, 3.3, 3.3)], fill }];
    case 'wa':
      if (id === 9502) return [{ shapes: [rect(32, 87, 6, 5)], fill }];
      return [{ shapes: [rect(33, 79, 4, 20)], fill }];
    case 'cp':
      return [
        { shapes: [rect(17, 83, 11, 13)], fill },
        ...(id === 9710
          ? []
          : [{ shapes: [rect(20, 85, 2, 9), rect(20, 85, 5, 2), rect(20, 89, 4, 2)], fill: G(0x50), overlay: true }]),
      ];
    case 'mc':
      if (id === 9810) return [{ shapes: [capsule(29, 102, 31, 102, 3.8)], fill: 0xe0b020 }];
      return [{ shapes: [capsule(28, 75, 30, 75, 3.6)], fill }];
    case 'lh':
      return [{ shapes: [capsule(13, 76, 31, 75, 2.6), ellipse(33, 75, 3, 3)], fill }];
    case 'rh':
      return [{ shapes: [capsule(13, 101, 32, 102, 2.8), ellipse(34, 102, 3.2, 3.2)], fill }];
    case 'ls':
      return [{ shapes: [id === 2216 ? capsule(19, 76, 21, 76, 3.9) : capsule(13, 76, 20, 76, 3.6)], fill }];
    case 'rs':
      return [{ shapes: [id === 2216 ? capsule(19, 101, 22, 101, 4.1) : capsule(13, 101, 21, 101, 3.8)], fill }];
    case 'lc':
      return [{ shapes: [capsule(13, 76, 28, 76, 4)], fill }];
    case 'rc':
      return [{ shapes: [capsule(13, 101, 29, 101, 4.2)], fill }];
    case 'lg':
      if (id === 3276) return [{ shapes: [capsule(36, 80.5, 53, 80.5, 1.8), capsule(36, 98.5, 53, 98.5, 1.8)], fill }];
      if (id === 3280)
        return [
          {
            shapes: [
              poly([
                [31, 78],
                [44, 76],
                [44, 102],
                [31, 100],
              ]),
            ],
            fill,
          },
        ];
      if (id === 3285)
        return [
          {
            shapes: [
              poly([
                [31, 78],
                [58, 75],
                [58, 104],
                [31, 100],
              ]),
            ],
            fill,
          },
        ];
      return [{ shapes: [rect(31, 79, 6, 21), capsule(33, 84, 54, 84, 4.8), capsule(33, 95, 54, 95, 4.8)], fill }];
    case 'sh': {
      const feet = [ellipse(57, 82, 4, 4.5), ellipse(57, 93, 4, 4.5)];
      if (id === 4296) return [{ shapes: feet.map((f) => withClip(f, { x0: 59 })), fill }];
      if (id === 4300) return [{ shapes: [...feet, capsule(50, 84, 56, 84, 5), capsule(50, 95, 56, 95, 5)], fill }];
      return [{ shapes: feet, fill }];
    }
    default:
      return null;
  }
}

/** Rotates a shape a quarter turn about (px, py) (for mouths on a lying head). */
function rotateQuarter(s: Shape, px: number, py: number): Shape {
  const rot = (x: number, y: number): [number, number] => [px + (y - py), py - (x - px)];
  if (s.k === 'rect') {
    const [x0, y0] = rot(s.x, s.y + s.h);
    return rect(x0, y0, s.h, s.w);
  }
  if (s.k === 'ellipse') {
    const [x, y] = rot(s.cx, s.cy);
    return ellipse(x, y, s.ry, s.rx);
  }
  return s;
}

export { MIRROR_AXIS };
