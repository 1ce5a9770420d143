// Drawing the room's planes as RoomPlane draws its sprite: each plane's texture (the decoration's layers:
// texel × the layer's colour, then × the plane's colour by normal, RoomPlane.blend / the sprite tint) is laid
// on the screen through its rounded corners (RoomPlane.updateCorners, getMatrixForDimensions), a pixel drawn
// where its centre lies inside. A plane's texture has its screen width in texels (FloorPlane, WallPlane:
// 32 a tile at size 64, 16 at size 32, the size-64 textures unscaled either way), starting at its far
// corner. Masks (the door, windows) are cut in the wall's texture: a door leaves a hole, a window shows the
// landscape plane behind the wall.
import { type PlaneLayer, type PlaneSet } from '../formats/room-visualization.js';
import { type RoomVisualizationAssets } from '../hotel/room.js';
import { type RgbaImage } from '../imaging/image.js';
import { project, type RoomScale } from './geometry.js';
import { type RoomPlane, toInt32 } from './planes.js';

/** The normal's screen x the client chooses textures and masks by: left wall +√½, right wall −√½, floor 0. */
export function normalX(wall: 'l' | 'r' | undefined): number {
  return wall === 'l' ? Math.SQRT1_2 : wall === 'r' ? -Math.SQRT1_2 : 0;
}

const mul = (a: number, b: number): number =>
  (Math.round((((a >> 16) & 0xff) * ((b >> 16) & 0xff)) / 255) << 16) |
  (Math.round((((a >> 8) & 0xff) * ((b >> 8) & 0xff)) / 255) << 8) |
  Math.round(((a & 0xff) * (b & 0xff)) / 255);

/** A resolved decoration layer: a texture (or none: plain colour) and its colour. */
export interface ResolvedLayer {
  texture: RgbaImage | null;
  flipH: boolean;
  color: number;
  align: 'top' | 'bottom';
}

/**
 * What the client draws when the emulator sends no paper: Arcturus leaves a floor or wall of `0.0` (or empty)
 * out of its RoomPaint messages, and RoomEngine.createRoomInstance then sets floor 111, wall 201, landscape 1.
 */
export const UNSENT_DECORATION = { floor: '111', wall: '201', landscape: '1' } as const;

/**
 * The decoration the client draws: an unsent paper (`0.0`, `0`, empty) is the client's own default
 * (`unsent`, UNSENT_DECORATION); an id room.nitro lacks is its `default` plane (FloorRasterizer/WallRasterizer
 * fall back to PlaneRasterizer.DEFAULT).
 */
export function decorationId(set: PlaneSet, id: string | undefined, unsent: string): string {
  const given = (id ?? '').trim();
  const v = given === '' || given === '0.0' || given === '0' ? unsent : given;
  return set.planes.has(v) ? v : 'default';
}

/** The layers of a decoration for a plane facing `nx` (PlaneRasterizer: the size-64 visualization). */
export function resolveLayers(vis: RoomVisualizationAssets, set: PlaneSet, id: string, nx: number): ResolvedLayer[] {
  const plane = set.planes.get(id) ?? set.planes.get('default');
  if (!plane) return [];
  const layers: PlaneLayer[] = plane.sizes.get(64) ?? [...plane.sizes.values()][0] ?? [];
  const out: ResolvedLayer[] = [];
  for (const l of layers) {
    if (!l.materialId) {
      out.push({ texture: null, flipH: false, color: l.color, align: l.align });
      continue;
    }
    const material = set.materials.get(l.materialId);
    const matrix = material?.matrices.find((m) => nx >= m.normalMinX && nx <= m.normalMaxX);
    const textureId = matrix?.columns.find((c) => c.textureIds.length > 0)?.textureIds[0];
    const texture = textureId ? set.textures.get(textureId) : undefined;
    const bitmap = texture?.bitmaps.find((b) => nx >= b.normalMinX && nx <= b.normalMaxX);
    const asset = bitmap ? vis.assets.get(bitmap.assetName) : undefined;
    if (!asset) continue;
    out.push({ texture: asset.image, flipH: asset.flipH, color: l.color, align: matrix?.align ?? l.align });
  }
  return out;
}

export interface PlaneCanvas {
  image: RgbaImage;
  /** Screen position of room (0, 0, 0) in the image. */
  originX: number;
  originY: number;
  scale: RoomScale;
  /** Per pixel: 1 + index of the wall plane that drew it (0 = none): what masks may cut. */
  wallOwner: Uint16Array;
  /** Per pixel: x + y of the nearest floor point drawn there (−Infinity = none). */
  floorDepth: Float32Array;
}

/** A mask bitmap (the door, a window) and where its anchor lies in the picture. */
export interface PlacedMask {
  image: RgbaImage;
  flipH: boolean;
  /** The picture position of the mask's top-left as drawn unsheared, and its registration point. */
  left: number;
  top: number;
  ox: number;
  oy: number;
  /** The room point the mask is placed at (RoomPlaneBitmapMaskParser: the door, the window item's location). */
  at: [number, number, number];
  /** hole: nothing behind (the door); window: the landscape shows. */
  kind: 'hole' | 'window';
}

/** Source-over of ARGB `src` on ARGB `dst`, in straight alpha (the canvas and landscape texels alike). */
function over(dst: number, src: number): number {
  const sa = src >>> 24;
  if (sa === 0) return dst;
  const da = dst >>> 24;
  if (sa === 255 || da === 0) return src;
  const dw = da * (255 - sa);
  const oa = sa * 255 + dw;
  const ch = (s: number) => Math.round((((src >>> s) & 0xff) * sa * 255 + ((dst >>> s) & 0xff) * dw) / oa) << s;
  return ((Math.round(oa / 255) << 24) | ch(16) | ch(8) | ch(0)) >>> 0;
}

/** Source-over of an ARGB colour onto the canvas pixel `i`. */
function put(img: RgbaImage, i: number, argb: number): void {
  if (argb >>> 24 === 0) return;
  const d = img.data;
  const o = i * 4;
  const v = over(((d[o + 3]! << 24) | (d[o]! << 16) | (d[o + 1]! << 8) | d[o + 2]!) >>> 0, argb);
  d[o] = (v >>> 16) & 0xff;
  d[o + 1] = (v >>> 8) & 0xff;
  d[o + 2] = v & 0xff;
  d[o + 3] = v >>> 24;
}

const wrap = (v: number, n: number): number => ((v % n) + n) % n;

/**
 * The texel of a layer's texture at plane texel (tx, ty). PlaneMaterialCell.render: with a texture offset the
 * cell is a tiling sprite shifted by the offset and drawn mirrored on that axis (anchor 1, scale −1).
 */
function cellTexel(t: RgbaImage, tx: number, ty: number, ox: number, oy: number): [number, number] {
  const x = ox === 0 ? wrap(tx, t.width) : wrap(-1 - tx - ox, t.width);
  const y = oy === 0 ? wrap(ty, t.height) : wrap(-1 - ty - oy, t.height);
  return [x, y];
}

/** The colour of a decoration at plane texel (tx, ty) of a plane `height` texels tall: layers bottom to top. */
function shade(
  layers: ResolvedLayer[],
  planeColor: number,
  tx: number,
  ty: number,
  height: number,
  offset: [number, number],
): number {
  let out = 0;
  for (const l of layers) {
    const color = mul(planeColor, l.color);
    let argb: number;
    if (!l.texture) argb = (0xff000000 | color) >>> 0;
    else {
      const t = l.texture;
      let x: number;
      let y: number;
      if (l.align === 'bottom') {
        // A bottom-aligned column stands once on the plane's bottom (PlaneMaterialCellMatrix.renderColumns).
        y = ty - (height - t.height);
        if (y < 0 || y >= t.height) continue;
        x = wrap(tx + offset[0], t.width);
      } else [x, y] = cellTexel(t, tx, ty, offset[0], offset[1]);
      if (l.flipH) x = t.width - 1 - x;
      const i = (y * t.width + x) * 4;
      const d = t.data;
      const texel = ((d[i + 3]! << 24) | (d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!) >>> 0;
      // the layer's tint is drawn into the plane's texture, the plane's colour tints the sprite: two roundings
      argb = ((texel & 0xff000000) | mul(mul(texel & 0xffffff, l.color), planeColor)) >>> 0;
    }
    const a = argb >>> 24;
    if (a === 255 || out === 0) out = argb;
    else if (a > 0) {
      const k = a / 255;
      const r = Math.round(((argb >> 16) & 0xff) * k + ((out >> 16) & 0xff) * (1 - k));
      const g = Math.round(((argb >> 8) & 0xff) * k + ((out >> 8) & 0xff) * (1 - k));
      const b = Math.round((argb & 0xff) * k + (out & 0xff) * (1 - k));
      out = ((Math.max(a, out >>> 24) << 24) | (r << 16) | (g << 8) | b) >>> 0;
    }
  }
  return out;
}

export interface Decorations {
  floor: string;
  wall: string;
  landscape: string;
}

/** A plane on screen: its rounded corners (RoomPlane.updateCorners) and its texture size (Floor/WallPlane). */
interface ScreenPlane {
  cx: number;
  cy: number;
  /** C → B (the texture's x axis) and C → D (its y axis), in pixels. */
  ux: number;
  uy: number;
  vx: number;
  vy: number;
  det: number;
  width: number;
  height: number;
  /** The plane's bitmap: the box of its rounded corners (RoomPlane.updateCorners), which clips the drawing. */
  box: { x0: number; y0: number; x1: number; y1: number };
}

function screenPlane(c: PlaneCanvas, p: RoomPlane): ScreenPlane {
  const pt = (a: number, b: number) => {
    const s = project(
      c.scale,
      p.origin[0] + a * p.left[0] + b * p.right[0],
      p.origin[1] + a * p.left[1] + b * p.right[1],
      p.origin[2] + a * p.left[2] + b * p.right[2],
    );
    return [Math.round(s.x) + c.originX, Math.round(s.y) + c.originY] as const;
  };
  const [cx, cy] = pt(1, 1);
  const [bx, by] = pt(0, 1);
  const [dx, dy] = pt(1, 0);
  const k = c.scale / 2;
  const width = Math.max(1, Math.round(Math.hypot(...p.left) * k));
  const height = Math.max(1, Math.round(Math.hypot(...p.right) * k));
  let ux = bx - cx;
  let uy = by - cy;
  let vx = dx - cx;
  let vy = dy - cy;
  const [ax, ay] = pt(0, 0);
  const box = {
    x0: Math.min(ax, bx, cx, dx),
    y0: Math.min(ay, by, cy, dy),
    x1: Math.max(ax, bx, cx, dx),
    y1: Math.max(ay, by, cy, dy),
  };
  // RoomPlane.getMatrixForDimensions: a wall's or landscape's texture axes are snapped to the texture's size
  // when within a pixel of it, each component against the width (C → B) or the height (C → D), so a thin
  // piece whose C → D drops one pixel is drawn dropping its texture's two.
  if (p.kind !== 'floor') {
    if (Math.abs(ux - width) <= 1) ux = width;
    if (Math.abs(uy - width) <= 1) uy = width;
    if (Math.abs(vx - height) <= 1) vx = height;
    if (Math.abs(vy - height) <= 1) vy = height;
  }
  return { cx, cy, ux, uy, vx, vy, det: ux * vy - uy * vx, width, height, box };
}

/** A plane's normal as the screen x the client picks textures and masks by (left wall +√½, right wall −√½). */
function planeNormalX(p: RoomPlane): number {
  const n0 = p.left[1] * p.right[2] - p.left[2] * p.right[1];
  const n1 = p.left[2] * p.right[0] - p.left[0] * p.right[2];
  const l = Math.hypot(n0, n1, p.left[0] * p.right[1] - p.left[1] * p.right[0]);
  return l === 0 ? 0 : (Math.SQRT1_2 * (n0 - n1)) / l;
}

/**
 * Draws the room's planes farthest first (their order), each filled pixel by pixel where the pixel centre lies
 * in its rounded corners, its texel found through the plane's texture rectangle (RoomPlane.getMatrixForDimensions:
 * the texture's corner at the plane's far corner). Masks are cut in texture space before the plane is laid on
 * the screen (RoomPlane.updateMask), so a rectangular door leans with the wall: a wall loses every mask on it,
 * a landscape only the holes, and a landscape is drawn only behind a window (RoomVisualization.updatePlaneMasks).
 * Returns the pixels each mask cut.
 */
export function drawRoomPlanes(
  c: PlaneCanvas,
  vis: RoomVisualizationAssets,
  planes: RoomPlane[],
  deco: Decorations,
  masks: PlacedMask[],
): number[] {
  const cut = masks.map(() => 0);
  const layerCache = new Map<string, ResolvedLayer[]>();
  const layersFor = (p: RoomPlane, nx: number): ResolvedLayer[] => {
    const set = p.kind === 'floor' ? vis.doc.floor : p.kind === 'wall' ? vis.doc.wall : vis.doc.landscape;
    const id = p.kind === 'floor' ? deco.floor : p.kind === 'wall' ? deco.wall : deco.landscape;
    const key = `${p.kind}\0${nx}`;
    let hit = layerCache.get(key);
    if (!hit) layerCache.set(key, (hit = resolveLayers(vis, set, id, nx)));
    return hit;
  };
  // RoomVisualization.updatePlaneMasks: a mask belongs to every wall and landscape plane whose plane holds its
  // point, placed in that plane's texture where the point falls (RoomPlane.updateMask); a landscape is drawn
  // only where a window lies on it, and loses the holes alone.
  const placeOn = (p: RoomPlane, m: PlacedMask, s: ScreenPlane): { x: number; y: number } | null => {
    const v = [m.at[0] - p.origin[0], m.at[1] - p.origin[1], m.at[2] - p.origin[2]] as const;
    const n = [
      p.left[1] * p.right[2] - p.left[2] * p.right[1],
      p.left[2] * p.right[0] - p.left[0] * p.right[2],
      p.left[0] * p.right[1] - p.left[1] * p.right[0],
    ] as const;
    const nl = Math.hypot(...n);
    if (nl === 0 || Math.abs((v[0] * n[0] + v[1] * n[1] + v[2] * n[2]) / nl) >= 0.01) return null;
    const along = (d: [number, number, number]) =>
      (v[0] * d[0] + v[1] * d[1] + v[2] * d[2]) / (d[0] ** 2 + d[1] ** 2 + d[2] ** 2);
    return { x: s.width * (1 - along(p.left)) - m.ox, y: s.height * (1 - along(p.right)) - m.oy };
  };
  const img = c.image;
  for (const p of planes) {
    const s = screenPlane(c, p);
    if (s.det === 0) continue;
    const placed =
      p.kind === 'floor'
        ? []
        : masks.flatMap((m, i) => {
            const q = placeOn(p, m, s);
            return q ? [{ m, i, x: q.x, y: q.y }] : [];
          });
    if (p.kind === 'landscape' && !placed.some((e) => e.m.kind === 'window')) continue;
    const mine = placed.filter((e) => p.kind === 'wall' || e.m.kind === 'hole');
    const nx = planeNormalX(p);
    const layers = layersFor(p, nx);
    const flat =
      layers.length === 0 ? [{ texture: null, flipH: false, color: 0xffffff, align: 'top' as const }] : layers;
    const drawn = p.textured ? flat : flat.map((l) => ({ ...l, texture: null }));
    const offset = p.texOffset ?? [0, 0];
    const scenery =
      p.kind === 'landscape'
        ? landscapeTexture(vis, deco.landscape, nx, s.width, s.height, Math.trunc(offset[0]), p.seed ?? 0)
        : null;
    const x0 = Math.max(0, s.box.x0);
    const x1 = Math.min(img.width, s.box.x1);
    const y0 = Math.max(0, s.box.y0);
    const y1 = Math.min(img.height, s.box.y1);
    // One opaque top-aligned texture (most floors and walls): its texels tinted once.
    const only = drawn.length === 1 && drawn[0]!.texture && drawn[0]!.align === 'top' ? drawn[0]! : null;
    const tinted = only ? tintedTexels(only.texture!, only.color, p.color) : null;
    const d32 = new Uint32Array(img.data.buffer, img.data.byteOffset, img.width * img.height);
    for (let py = y0; py < y1; py++) {
      const dy = py + 0.5 - s.cy;
      // u and v are linear along the row: the pixels inside lie in one run (widened by a pixel each side)
      let lo = x0;
      let hi = x1;
      for (const [a, b] of [
        [s.vy / s.det, (-dy * s.vx) / s.det],
        [-s.uy / s.det, (s.ux * dy) / s.det],
      ] as const) {
        if (a === 0) {
          if (b < 0 || b >= 1) hi = lo;
          continue;
        }
        const e0 = -b / a + s.cx - 0.5;
        const e1 = (1 - b) / a + s.cx - 0.5;
        lo = Math.max(lo, Math.floor(Math.min(e0, e1)) - 1);
        hi = Math.min(hi, Math.ceil(Math.max(e0, e1)) + 2);
      }
      for (let px = lo; px < hi; px++) {
        const dx = px + 0.5 - s.cx;
        const u = (dx * s.vy - dy * s.vx) / s.det;
        if (u < 0 || u >= 1) continue;
        const v = (s.ux * dy - s.uy * dx) / s.det;
        if (v < 0 || v >= 1) continue;
        const tx = Math.floor(u * s.width);
        const ty = Math.floor(v * s.height);
        let hole = false;
        for (const e of mine) {
          // the mask sprite at a fractional place covers the texels whose centres it holds
          const mx = Math.floor(tx + 0.5 - e.x);
          const my = Math.floor(ty + 0.5 - e.y);
          const mw = e.m.image.width;
          if (mx < 0 || my < 0 || mx >= mw || my >= e.m.image.height) continue;
          const sx = e.m.flipH ? mw - 1 - mx : mx;
          if (e.m.image.data[(my * mw + sx) * 4 + 3]! === 0) continue;
          hole = true;
          if (p.kind === 'wall') cut[e.i]!++;
        }
        if (hole) continue;
        if (tinted) {
          const t = only!.texture!;
          let [ux, vy] = cellTexel(t, tx, ty, offset[0], offset[1]);
          if (only!.flipH) ux = t.width - 1 - ux;
          const w = tinted[vy * t.width + ux]!;
          if (w >>> 24 === 255) {
            d32[py * img.width + px] = w;
            continue;
          }
        }
        if (scenery) {
          const v = scenery.px[ty * scenery.width + tx]!;
          put(img, py * img.width + px, ((v & 0xff000000) | mul(v & 0xffffff, p.color)) >>> 0);
        } else put(img, py * img.width + px, shade(drawn, p.color, tx, ty, s.height, offset));
      }
    }
  }
  return cut;
}

/** The client's Randomizer (a 69069 LCG modulo 2^24), seeded per plane. */
class Randomizer {
  constructor(private seed: number) {}

  private next(): number {
    let k = toInt32(Math.trunc(69069 * this.seed) + 5);
    if (k < 0) k = -k;
    k %= 16777216;
    this.seed = k;
    return k;
  }

  /** iterateScaled: lo + a fraction of range, truncated. */
  scaled(lo: number, range: number): number {
    const v = this.next();
    return range < 1 ? lo : Math.trunc(lo + (v / 16777216) * range);
  }

  /** PlaneMaterialCellMatrix.nextRandomColumnIndex. */
  column(n: number): number {
    return this.scaled(0, n * 17631) % n;
  }

  /** getRandomArray: k distinct values of 0 … n (n included), or null. */
  array(k: number, n: number): number[] | null {
    if (k > n || n > 1000) return null;
    const pool = Array.from({ length: n + 1 }, (_, i) => i);
    const out: number[] = [];
    for (let i = 0; i < k; i++) {
      const at = this.scaled(0, pool.length - 1);
      out.push(pool[at]!);
      pool.splice(at, 1);
    }
    return out;
  }
}

/** A straight-alpha ARGB bitmap. */
interface Bitmap {
  width: number;
  height: number;
  px: Uint32Array;
}

const bitmap = (width: number, height: number): Bitmap => ({
  width,
  height,
  px: new Uint32Array(Math.max(0, width * height)),
});

/** Source-over of `argb` at (x, y) of `b`. */
function blend(b: Bitmap, x: number, y: number, argb: number): void {
  if (x < 0 || y < 0 || x >= b.width || y >= b.height) return;
  const i = y * b.width + x;
  b.px[i] = over(b.px[i]!, argb);
}

/** An asset's pixels as ARGB, mirrored when it is a flipped alias. */
function texelOf(img: RgbaImage, flipH: boolean, x: number, y: number): number {
  const sx = flipH ? img.width - 1 - x : x;
  const i = (y * img.width + sx) * 4;
  const d = img.data;
  return ((d[i + 3]! << 24) | (d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!) >>> 0;
}

/**
 * A landscape plane's texture as LandscapePlane renders it (PlaneVisualization → PlaneVisualizationLayer →
 * PlaneMaterialCellMatrix → PlaneMaterialCellColumn → PlaneMaterialCell), `width` × `height` texels, its
 * panorama offset `offsetX`: each layer's columns laid along the plane (in order, or picked at random), a
 * repeated column's cells tiled from the top with the offset (mirrored, as the client's tiling sprite is), a
 * single column standing on the plane's bottom with its extra items scattered at random.
 */
export function landscapeTexture(
  vis: RoomVisualizationAssets,
  id: string,
  nx: number,
  width: number,
  height: number,
  offsetX: number,
  seed: number,
): Bitmap {
  const set = vis.doc.landscape;
  const out = bitmap(width, height);
  const plane = set.planes.get(id) ?? set.planes.get('default');
  const layers = plane ? (plane.sizes.get(64) ?? [...plane.sizes.values()][0] ?? []) : [];
  const random = new Randomizer(seed);
  const textureOf = (textureId: string) => {
    const t = set.textures.get(textureId);
    const b = t?.bitmaps.find((x) => nx >= x.normalMinX && nx <= x.normalMaxX);
    return b ? vis.assets.get(b.assetName) : undefined;
  };
  for (const layer of layers) {
    const tint = layer.color & 0xffffff;
    const paint = (argb: number) =>
      tint === 0xffffff ? argb : ((argb & 0xff000000) | mul(argb & 0xffffff, tint)) >>> 0;
    if (!layer.materialId) {
      for (let i = 0; i < out.px.length; i++) out.px[i] = (0xff000000 | tint) >>> 0;
      continue;
    }
    const matrix = set.materials.get(layer.materialId)?.matrices.find((m) => nx >= m.normalMinX && nx <= m.normalMaxX);
    if (!matrix) continue;
    // PlaneMaterialCell.render: one texture tile, shifted (and mirrored) by the offset, then its items.
    const cell = (c: (typeof matrix.columns)[number]['cells'][number], ox: number, oy: number): Bitmap | null => {
      const t = textureOf(c.textureId);
      if (!t) return null;
      const tw = t.image.width;
      const th = t.image.height;
      const b = bitmap(tw, th);
      const sx = ((ox % tw) + tw) % tw;
      const sy = ((oy % th) + th) % th;
      for (let y = 0; y < th; y++)
        for (let x = 0; x < tw; x++) {
          // any offset mirrors the tile, even one a whole tile long
          const u = ox !== 0 ? wrap(-1 - x - sx, tw) : x;
          const v = oy !== 0 ? wrap(-1 - y - sy, th) : y;
          b.px[y * tw + x] = texelOf(t.image, t.flipH, u, v);
        }
      const assets = c.items.map((n) => vis.assets.get(n)).filter((a) => !!a);
      if (c.limit > 0 && assets.length > 0) {
        const picks = random.array(c.limit, Math.max(c.limit, c.offsets.length));
        const n = Math.min(c.limit, c.offsets.length);
        for (let i = 0; picks && i < n; i++) {
          const at = c.offsets[picks[i]!];
          const item = assets[i % assets.length]!;
          if (!at) continue;
          const iw = item.image.width;
          // x snapped to even texels; a flipped item is drawn leftwards of its point
          const left = item.flipH ? (((at[0] + item.x) >> 1) << 1) - iw : ((at[0] - item.x) >> 1) << 1;
          const top = at[1] - item.y;
          for (let y = 0; y < item.image.height; y++)
            for (let x = 0; x < iw; x++) blend(b, left + x, top + y, texelOf(item.image, item.flipH, x, y));
        }
      }
      return b;
    };
    // PlaneMaterialCellColumn.render: a repeated column fills the plane's height from the top; a single one
    // is its cells' height.
    const columns = matrix.columns.map((col) => {
      const cells = col.cells;
      const parts: Bitmap[] = [];
      let h = 0;
      if (col.repeat) {
        while (h < height && cells.length > 0) {
          const before = h;
          for (const c of cells) {
            const b = cell(c, offsetX, 0);
            if (!b) continue;
            parts.push(b);
            h += b.height;
            if (h >= height) break;
          }
          if (h === before) break;
        }
        h = height;
      } else
        for (const c of cells) {
          const b = cell(c, 0, 0);
          if (!b) continue;
          parts.push(b);
          h += b.height;
        }
      const b = bitmap(col.width, h);
      let y = 0;
      for (const p of parts) {
        for (let py = 0; py < p.height; py++)
          for (let px = 0; px < p.width; px++) blend(b, px, y + py, p.px[py * p.width + px]!);
        y += p.height;
      }
      return b;
    });
    // PlaneMaterialCellMatrix.render: columns along the plane, standing on its bottom when bottom-aligned.
    const laid = bitmap(width, height);
    let tallest = 0;
    const place = (c: Bitmap, x: number) => {
      const y0 = matrix.align === 'bottom' ? height - c.height : 0;
      for (let y = 0; y < c.height; y++)
        for (let px = 0; px < c.width; px++) blend(laid, x + px, y0 + y, c.px[y * c.width + px]!);
      tallest = Math.max(tallest, c.height);
    };
    let x = 0;
    if (matrix.random)
      while (x < width && columns.length > 0) {
        const c = columns[random.column(columns.length)]!;
        place(c, x);
        if (c.width <= 0) break;
        x += c.width;
      }
    else
      while (x < width && columns.length > 0) {
        const start = x;
        for (const c of columns) {
          place(c, x);
          x += c.width;
          if (x >= width) break;
        }
        if (x === start) break;
      }
    // copyCachedBitmapOnCanvas: the rows the columns filled, at the layer's edge.
    const top = layer.align === 'bottom' ? height - tallest - layer.offset : layer.offset;
    const from = matrix.align === 'bottom' ? height - tallest : 0;
    for (let y = 0; y < tallest; y++)
      for (let px = 0; px < width; px++) {
        const v = laid.px[(from + y) * width + px]!;
        if (v >>> 24) blend(out, px, top + y, paint(v));
      }
  }
  return out;
}

const tintCache = new WeakMap<RgbaImage, Map<string, Uint32Array>>();

/**
 * A texture's texels tinted by a layer colour and then a plane colour (as `shade` does), as little-endian RGBA
 * words of the picture; made once per texture and colours.
 */
function tintedTexels(t: RgbaImage, layerColor: number, planeColor: number): Uint32Array {
  let byColor = tintCache.get(t);
  if (!byColor) tintCache.set(t, (byColor = new Map()));
  const key = `${layerColor}:${planeColor}`;
  const hit = byColor.get(key);
  if (hit) return hit;
  const out = new Uint32Array(t.width * t.height);
  for (let i = 0; i < out.length; i++) {
    const o = i * 4;
    const rgb = mul(mul((t.data[o]! << 16) | (t.data[o + 1]! << 8) | t.data[o + 2]!, layerColor), planeColor);
    out[i] = ((t.data[o + 3]! << 24) | ((rgb & 0xff) << 16) | (rgb & 0xff00) | ((rgb >> 16) & 0xff)) >>> 0;
  }
  byColor.set(key, out);
  return out;
}
