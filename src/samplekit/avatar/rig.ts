// Geometry of the kit's figure: where each part type sits, per direction, action and frame, in size-m
// canvas coordinates (64x110 canvas, registration point (0,100), head top y 26, feet y 107).
// Directions 0,1,2,3,7 are drawn; 4,5,6 are the mirror of 2,1,0 about MIRROR_AXIS with left and right
// part types swapped — exactly what a renderer does with the 2,1,0 sprites, so the "own" 4-6 sprites of
// the exceptions line up with the mirrored rest of the body.
import { type Shape, capsule, ellipse, mirrorShape, poly, rect } from './raster.js';

/** Continuous x → MIRROR_AXIS − x; pixel column c → 66 − c. A sprite at left L, width w lands at 67 − L − w. */
export const MIRROR_AXIS = 67;
/** Registration point of the size-m canvas: a sprite's top-left is (−x, REG_Y − y). */
export const REG_Y = 100;

export type Side = 'l' | 'r';

interface DirGeo {
  /** body centre x */
  cx: number;
  /** head centre x */
  hcx: number;
  /** torso half width */
  hw: number;
  /** facing: +1 toward image right, 0 toward/away from the viewer */
  f: number;
  /** face visible (fc, ey are drawn) */
  face: boolean;
  /** face centre offset from the head centre */
  faceX: number;
  shoulder: Record<Side, number>;
  hip: Record<Side, number>;
  footDx: number;
  headRx: number;
}

const DIRS: Record<number, DirGeo> = {
  0: {
    cx: 34,
    hcx: 34,
    hw: 10,
    f: 1,
    face: false,
    faceX: 0,
    shoulder: { r: 45, l: 23 },
    hip: { r: 38, l: 30 },
    footDx: 2,
    headRx: 13,
  },
  1: {
    cx: 34,
    hcx: 35,
    hw: 7,
    f: 1,
    face: true,
    faceX: 8,
    shoulder: { r: 33, l: 36 },
    hip: { r: 33, l: 36 },
    footDx: 5,
    headRx: 12,
  },
  2: {
    cx: 34,
    hcx: 34,
    hw: 10,
    f: 1,
    face: true,
    faceX: 5,
    shoulder: { r: 23, l: 45 },
    hip: { r: 30, l: 38 },
    footDx: 3,
    headRx: 13,
  },
  3: {
    cx: 34,
    hcx: 34,
    hw: 11,
    f: 0,
    face: true,
    faceX: 0,
    shoulder: { r: 21, l: 47 },
    hip: { r: 29, l: 39 },
    footDx: 0,
    headRx: 13,
  },
  7: {
    cx: 34,
    hcx: 34,
    hw: 11,
    f: 0,
    face: false,
    faceX: 0,
    shoulder: { r: 47, l: 21 },
    hip: { r: 39, l: 29 },
    footDx: 0,
    headRx: 13,
  },
};

export const BASE_DIRS = [0, 1, 2, 3, 7] as const;
export const ALL_DIRS = [0, 1, 2, 3, 4, 5, 6, 7] as const;

export function isMirroredDir(dir: number): boolean {
  return dir >= 4 && dir <= 6;
}
/** 4 → 2, 5 → 1, 6 → 0. */
export function baseDir(dir: number): number {
  return isMirroredDir(dir) ? 6 - dir : dir;
}
export const other = (s: Side): Side => (s === 'l' ? 'r' : 'l');
export const mirrorX = (x: number) => MIRROR_AXIS - x;

export function geo(dir: number): DirGeo {
  const g = DIRS[dir];
  if (!g) throw new RangeError(`no geometry for direction ${dir}`);
  return g;
}

export const HEAD_CY = 41;
export const HEAD_RY = 15;
const SHOULDER_Y = 60;

// ---------- poses ----------

export type ArmPose = 'std' | 'wlk' | 'sit' | 'crr' | 'drk' | 'wav' | 'sig' | 'respect' | 'blw';

/** Stride of the walk frames: right leg forward is positive. */
export const STRIDE = [0.5, 1, -0.5, -1];

/**
 * Where a hand raised to the mouth ends (x). A renderer draws the far arm (the left one when the figure
 * faces right: directions 0-2, mirrored into 4-6) and, in profile, the right-hand item behind the head
 * (the client's geometry order), so those hands reach just past the head's front edge, as real sprites
 * do; otherwise the hand covers the mouth.
 */
function mouthReach(side: Side, dir: number): number {
  const g = geo(dir);
  if (g.f === 0) return g.hcx + g.faceX + (side === 'r' ? 2 : -2);
  if (side === 'l' || dir === 1) return g.hcx + g.f * (g.headRx + 2);
  return g.hcx + g.faceX - 2;
}

/** Arm joints (shoulder, optional elbow, hand) in a base direction. */
export function armPath(side: Side, pose: ArmPose, dir: number, frame: number): [number, number][] {
  const g = geo(dir);
  const sx = g.shoulder[side];
  const out = sx === g.cx ? (side === 'r' ? -1 : 1) : Math.sign(sx - g.cx) || (side === 'r' ? -1 : 1);
  const sh: [number, number] = [sx, SHOULDER_Y];
  const mouthX = g.hcx + g.faceX;
  const fwd = g.f !== 0 ? g.f : 0;
  switch (pose) {
    case 'std':
      return [sh, [sx + out, 84]];
    case 'wlk': {
      const swing = -STRIDE[frame % 4]! * (side === 'r' ? 1 : -1);
      if (fwd) return [sh, [sx + fwd * 6 * swing, 84 - Math.abs(swing)]];
      return [sh, [sx + out, 84 - 2 * swing]];
    }
    case 'sit':
      return [sh, [sx + fwd * 6 + out, 82]];
    case 'crr':
      return fwd ? [sh, [sx + out, 74], [sx + fwd * 9, 70]] : [sh, [sx + out * 2, 74], [sx + out, 70]];
    case 'drk':
      return [sh, [sx + out * 3, 74], [mouthReach(side, dir), 53]];
    case 'blw':
      if (frame % 2 === 0) return [sh, [sx + out * 3, 74], [mouthReach(side, dir), 52]];
      return [sh, [sx + out * 3, 70], [mouthX + (fwd ? fwd * 9 : out * 6), 47]];
    case 'wav':
      return frame % 2 === 0
        ? [sh, [sx + out * 6, 52], [sx + out * 9, 38]]
        : [sh, [sx + out * 6, 52], [sx + out * 3, 36]];
    case 'sig':
      return [sh, [sx + out * 3, 50], [sx + out * 3, 39]];
    case 'respect':
      return frame % 2 === 0
        ? [sh, [sx + out * 8, 56], [g.hcx + out * 10, 35]]
        : [sh, [sx + out * 9, 55], [g.hcx + out * 13, 32]];
  }
}

/** Arm joints in any direction 0-7 (4-6 from the other side's arm in the base direction, mirrored). */
export function armPathAnyDir(side: Side, pose: ArmPose, dir: number, frame: number): [number, number][] {
  if (!isMirroredDir(dir)) return armPath(side, pose, dir, frame);
  return armPath(other(side), pose, baseDir(dir), frame).map(([x, y]) => [mirrorX(x), y]);
}

/** Capsules covering the path from t0 to t1 (fractions of the path length). */
export function pathSegment(pts: [number, number][], t0: number, t1: number, r: number): Shape[] {
  const lens: number[] = [];
  let total = 0;
  for (let i = 1; i < pts.length; i++) {
    const l = Math.hypot(pts[i]![0] - pts[i - 1]![0], pts[i]![1] - pts[i - 1]![1]);
    lens.push(l);
    total += l;
  }
  const shapes: Shape[] = [];
  let acc = 0;
  for (let i = 1; i < pts.length; i++) {
    const l = lens[i - 1]!;
    const a = Math.max(t0 * total, acc);
    const b = Math.min(t1 * total, acc + l);
    if (b > a && l > 0) {
      const [x0, y0] = pts[i - 1]!;
      const [x1, y1] = pts[i]!;
      const u = (a - acc) / l;
      const v = (b - acc) / l;
      shapes.push(capsule(x0 + (x1 - x0) * u, y0 + (y1 - y0) * u, x0 + (x1 - x0) * v, y0 + (y1 - y0) * v, r));
    }
    acc += l;
  }
  return shapes;
}

// ---------- legs ----------

export type LegPose = 'std' | 'wlk' | 'sit';

/** Hip, (knee,) ankle of a leg in a base direction. */
export function legPath(side: Side, pose: LegPose, dir: number, frame: number): [number, number][] {
  const g = geo(dir);
  const hx = g.hip[side];
  if (pose === 'sit') {
    if (g.f)
      return [
        [hx, 83],
        [hx + g.f * 13, 86],
        [hx + g.f * 13, 99],
      ];
    return [
      [hx, 83],
      [hx, 90],
      [hx, 97],
    ];
  }
  if (pose === 'wlk') {
    const stride = STRIDE[frame % 4]! * (side === 'r' ? 1 : -1);
    if (g.f)
      return [
        [hx, 82],
        [hx + g.f * 6 * stride, 100],
      ];
    return [
      [hx, 82],
      [hx, 100 - 2 * Math.max(0, stride)],
    ];
  }
  return [
    [hx, 82],
    [hx, 100],
  ];
}

export function footShape(side: Side, pose: LegPose, dir: number, frame: number, grow = 0): Shape {
  const g = geo(dir);
  const p = legPath(side, pose, dir, frame);
  const [ax, ay] = p[p.length - 1]!;
  return ellipse(ax + g.footDx, ay + 3, 4.5 + Math.abs(g.footDx) / 2 + grow, 3 + grow);
}

// ---------- torso / head ----------

export function torso(dir: number, grow = 0, y0 = 57, y1 = 83): Shape {
  const g = geo(dir);
  return poly([
    [g.cx - g.hw - grow, y0 - grow],
    [g.cx + g.hw + grow, y0 - grow],
    [g.cx + g.hw - 2 + grow, y1 + grow],
    [g.cx - g.hw + 2 - grow, y1 + grow],
  ]);
}

export function headShape(id: number, dir: number, dy = 0): Shape {
  const g = geo(dir);
  if (id === 2) {
    const r = g.headRx;
    const t = 26 + dy;
    const b = 56 + dy;
    return poly([
      [g.hcx - r + 4, t],
      [g.hcx + r - 4, t],
      [g.hcx + r, t + 5],
      [g.hcx + r, b - 3],
      [g.hcx + r - 3, b],
      [g.hcx - r + 3, b],
      [g.hcx - r, b - 3],
      [g.hcx - r, t + 5],
    ]);
  }
  const rx = id === 3 ? g.headRx - 2 : g.headRx;
  return ellipse(g.hcx, HEAD_CY + dy, rx, HEAD_RY);
}

/** Mirrors base-direction shapes into direction 4-6 space. */
export function mirrorShapes(shapes: Shape[]): Shape[] {
  return shapes.map((s) => mirrorShape(s, MIRROR_AXIS));
}

export { rect, ellipse, capsule, poly };
