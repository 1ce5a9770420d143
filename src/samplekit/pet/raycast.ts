// A small orthographic ray caster for the kit's pet: boxes of any orientation seen from the room's viewpoint (2:1
// isometric, a world unit one pixel across a tile's axis), each pixel the nearest box's face, shaded by the face's
// normal into one of sixteen grey levels of the box's band, with a dark outline around the silhouette and along
// edges where a nearer box covers a farther one. The grey is a palette index (pet sprites are recoloured through
// the library's palettes by their green value). Only + − × ÷ and comparisons on doubles: the same bytes on every
// machine.
import { type PlacedSprite } from '../furni/draw.js';
import { alphaBounds, createImage, cropImage } from '../../imaging/image.js';

export type Vec3 = readonly [number, number, number];
/** A linear map given by the images of the three unit vectors (forward, side, up in the pet's own frame). */
export type Mat3 = readonly [Vec3, Vec3, Vec3];

/** A box: centre, half extents along its own axes (unit, orthogonal), and the first grey index of its band. */
export interface Box {
  centre: Vec3;
  axes: Mat3;
  half: Vec3;
  band: number;
}

/** The grey index of outlines (each palette maps it to a dark shade of its own). */
export const OUTLINE_INDEX = 8;
/** Grey levels per band: a band's indices are band … band + 15, darkest first. */
export const BAND_LEVELS = 16;

export const IDENTITY: Mat3 = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];

export function apply(m: Mat3, v: Vec3): Vec3 {
  return [
    v[0] * m[0][0] + v[1] * m[1][0] + v[2] * m[2][0],
    v[0] * m[0][1] + v[1] * m[1][1] + v[2] * m[2][1],
    v[0] * m[0][2] + v[1] * m[1][2] + v[2] * m[2][2],
  ];
}

/** `a` after `b`. */
export function compose(a: Mat3, b: Mat3): Mat3 {
  return [apply(a, b[0]), apply(a, b[1]), apply(a, b[2])];
}

/**
 * A turn about the side axis, nose up for a positive `sin` (`cos`, `sin` a Pythagorean pair such as 4/5, 3/5, so
 * no trigonometry is needed).
 */
export function pitch(cos: number, sin: number): Mat3 {
  return [
    [cos, 0, sin],
    [0, 1, 0],
    [-sin, 0, cos],
  ];
}

/** The box moved by `m` and then by `offset`. */
export function place(box: Box, m: Mat3, offset: Vec3 = [0, 0, 0]): Box {
  const c = apply(m, box.centre);
  return {
    centre: [c[0] + offset[0], c[1] + offset[1], c[2] + offset[2]],
    axes: compose(m, box.axes),
    half: box.half,
    band: box.band,
  };
}

/** The screen point of a world point (x, y on the floor, z up): x − y across, (x + y) / 2 − z down. */
export function project(p: Vec3): [number, number] {
  return [p[0] - p[1], (p[0] + p[1]) / 2 - p[2]];
}

const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** How far above the scene rays start (any distance beyond the pet's size). */
const FAR = 256;
/** A neighbour nearer by more than this (in x + y + z) draws an outline on the farther pixel. */
const EDGE_DEPTH = 4;

/**
 * Grey level 0–15 of a face by its normal: lit from above and the left, so a top is brightest, a face to the
 * viewer's left lighter than one to the right.
 */
function level(n: Vec3): number {
  const b = 0.5 + 0.5 * n[2] + 0.3 * n[1] - 0.05 * n[0];
  return Math.max(0, Math.min(BAND_LEVELS - 1, Math.round(b * (BAND_LEVELS - 1))));
}

interface Hit {
  /** Distance along the ray (smaller is nearer); Infinity for none. */
  t: number;
  box: number;
  normal: Vec3;
}

const DOWN_VIEW: Vec3 = [-1, -1, -1];

/** The ray through a screen point's pixel centre, from above the scene towards the floor. */
function rayOrigin(sx: number, sy: number): Vec3 {
  return [sy + sx / 2 + FAR, sy - sx / 2 + FAR, FAR];
}

/** A box with what every ray needs of it: its screen rectangle (corners' bounds) and the view along its axes. */
interface Prepared {
  box: Box;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  /** The view direction in the box's frame. */
  view: Vec3;
}

function prepare(boxes: readonly Box[]): Prepared[] {
  return boxes.map((box) => {
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let k = 0; k < 8; k++) {
      const corner: [number, number, number] = [box.centre[0], box.centre[1], box.centre[2]];
      for (let a = 0; a < 3; a++) {
        const reach = box.half[a]! * ((k >> a) & 1 ? 1 : -1);
        for (let i = 0; i < 3; i++) corner[i] = corner[i]! + box.axes[a]![i]! * reach;
      }
      const [sx, sy] = project(corner);
      minX = Math.min(minX, sx);
      minY = Math.min(minY, sy);
      maxX = Math.max(maxX, sx);
      maxY = Math.max(maxY, sy);
    }
    const view: Vec3 = [dot(DOWN_VIEW, box.axes[0]), dot(DOWN_VIEW, box.axes[1]), dot(DOWN_VIEW, box.axes[2])];
    return { box, minX, minY, maxX, maxY, view };
  });
}

/**
 * The nearest box the ray through a screen point meets (slabs in each box's own frame; the entering face is the
 * one seen). Boxes whose screen rectangle leaves the point out are not tried.
 */
function trace(boxes: readonly Prepared[], sx: number, sy: number): Hit {
  const out: Hit = { t: Infinity, box: -1, normal: [0, 0, 1] };
  const origin = rayOrigin(sx, sy);
  boxes.forEach((p, index) => {
    if (sx < p.minX || sx > p.maxX || sy < p.minY || sy > p.maxY) return;
    const b = p.box;
    let tNear = -Infinity;
    let tFar = Infinity;
    let face = -1;
    let sign = 1;
    const rel: Vec3 = [origin[0] - b.centre[0], origin[1] - b.centre[1], origin[2] - b.centre[2]];
    for (let a = 0; a < 3; a++) {
      const o = dot(rel, b.axes[a]!);
      const d = p.view[a]!;
      const hh = b.half[a]!;
      if (d === 0) {
        if (o < -hh || o > hh) return;
        continue;
      }
      let t1 = (-hh - o) / d;
      let t2 = (hh - o) / d;
      let s = -1;
      if (t1 > t2) {
        [t1, t2] = [t2, t1];
        s = 1;
      }
      if (t1 > tNear) {
        tNear = t1;
        face = a;
        sign = s;
      }
      tFar = Math.min(tFar, t2);
    }
    if (face < 0 || tNear > tFar || tNear >= out.t) return;
    const ax = b.axes[face]!;
    out.t = tNear;
    out.box = index;
    out.normal = [ax[0] * sign, ax[1] * sign, ax[2] * sign];
  });
  return out;
}

/** The screen rectangle the boxes cover, one pixel wider each side (room for the outline). */
function screenBounds(boxes: readonly Prepared[]): { x0: number; y0: number; w: number; h: number } | null {
  if (boxes.length === 0) return null;
  const x0 = Math.floor(Math.min(...boxes.map((b) => b.minX))) - 1;
  const y0 = Math.floor(Math.min(...boxes.map((b) => b.minY))) - 1;
  const x1 = Math.ceil(Math.max(...boxes.map((b) => b.maxX))) + 1;
  const y1 = Math.ceil(Math.max(...boxes.map((b) => b.maxY))) + 1;
  return { x0, y0, w: x1 - x0, h: y1 - y0 };
}

/**
 * Of the pixels where both groups of boxes show, the share where `a` is nearer the viewer (NaN when they do not
 * overlap): which of two layers the room should draw on top.
 */
export function nearerShare(a: readonly Box[], b: readonly Box[]): number {
  const pa = prepare(a);
  const pb = prepare(b);
  const r = screenBounds([...pa, ...pb]);
  if (!r) return Number.NaN;
  let both = 0;
  let aNearer = 0;
  for (let j = 0; j < r.h; j++)
    for (let i = 0; i < r.w; i++) {
      const ha = trace(pa, r.x0 + i + 0.5, r.y0 + j + 0.5);
      const hb = trace(pb, r.x0 + i + 0.5, r.y0 + j + 0.5);
      if (ha.box < 0 || hb.box < 0) continue;
      both++;
      if (ha.t < hb.t) aNearer++;
    }
  return both === 0 ? Number.NaN : aNearer / both;
}

/**
 * The boxes drawn as one sprite, cropped to its art, with the world origin at the asset offset (the anchor).
 * Nothing in view gives a blank 1 × 1 sprite.
 */
export function castSprite(boxes: readonly Box[]): PlacedSprite {
  const prepared = prepare(boxes);
  const r = screenBounds(prepared);
  if (!r) return { image: createImage(1, 1), x: 0, y: 0 };
  const { x0, y0, w, h } = r;
  const near = new Float64Array(w * h);
  const hit = new Int32Array(w * h).fill(-1);
  const grey = new Uint8Array(w * h);
  for (let j = 0; j < h; j++)
    for (let i = 0; i < w; i++) {
      const sy = y0 + j + 0.5;
      const found = trace(prepared, x0 + i + 0.5, sy);
      if (found.box < 0) continue;
      const p = j * w + i;
      hit[p] = found.box;
      // x + y + z of the point seen: larger is nearer the viewer.
      near[p] = 2 * sy + 3 * FAR - 3 * found.t;
      grey[p] = boxes[found.box]!.band + level(found.normal);
    }
  const img = createImage(w, h);
  const neighbours = [
    [-1, 0],
    [1, 0],
    [0, -1],
    [0, 1],
  ] as const;
  for (let j = 0; j < h; j++)
    for (let i = 0; i < w; i++) {
      const p = j * w + i;
      let outline = false;
      for (const [di, dj] of neighbours) {
        const ni = i + di;
        const nj = j + dj;
        const q = ni >= 0 && nj >= 0 && ni < w && nj < h ? nj * w + ni : -1;
        const other = q < 0 ? -1 : hit[q]!;
        if (hit[p]! < 0) outline ||= other >= 0;
        else outline ||= other >= 0 && other !== hit[p] && near[q]! - near[p]! > EDGE_DEPTH;
      }
      if (!outline && hit[p]! < 0) continue;
      const value = outline ? OUTLINE_INDEX : grey[p]!;
      img.data.set([value, value, value, 255], p * 4);
    }
  const b = alphaBounds(img);
  if (!b) return { image: createImage(1, 1), x: 0, y: 0 };
  return { image: cropImage(img, b), x: -x0 - b.x, y: -y0 - b.y };
}
