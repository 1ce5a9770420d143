// Drawing the room's planes: each plane is filled pixel by pixel (pixel centres inside its screen
// parallelogram), its colour = texture texel × the decoration layer's colour × the plane's colour by
// normal (RoomPlane.blend, ColorConverter.colorize: a channel-wise multiply). Textures are laid in room
// units at the size-64 visualization's density, 32 texels a tile (FloorPlane, WallPlane: the plane's
// screen width at 64); size 32 samples every second texel. Masks (the door, windows) cut the wall planes
// they cover: a door leaves a hole, a window shows the landscape plane behind the wall.
import { type PlaneLayer, type PlaneSet } from '../formats/room-visualization.js';
import { type RoomVisualizationAssets } from '../hotel/room.js';
import { type RgbaImage } from '../imaging/image.js';
import { project, type RoomScale } from './geometry.js';
import { LANDSCAPE_COLOR_SIDE, LANDSCAPE_COLOR_TOP, type RoomPlane } from './planes.js';

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

interface Frame {
  ox: number;
  oy: number;
  ax: number;
  ay: number;
  bx: number;
  by: number;
  det: number;
}

function screenFrame(c: PlaneCanvas, p: RoomPlane): Frame {
  const [x, y, z] = p.origin;
  const o = project(c.scale, x, y, z);
  const a = project(c.scale, x + p.left[0], y + p.left[1], z + p.left[2]);
  const b = project(c.scale, x + p.right[0], y + p.right[1], z + p.right[2]);
  const ox = Math.round(o.x) + c.originX;
  const oy = Math.round(o.y) + c.originY;
  const ax = Math.round(a.x) + c.originX - ox;
  const ay = Math.round(a.y) + c.originY - oy;
  const bx = Math.round(b.x) + c.originX - ox;
  const by = Math.round(b.y) + c.originY - oy;
  return { ox, oy, ax, ay, bx, by, det: ax * by - ay * bx };
}

/**
 * The pixels of a row (centres at px + 0.5) where both plane parameters lie in [0, 1), widened by a pixel on
 * each side (the exact test runs on each): a = (dx·by − dy·bx)/det and b = (ax·dy − ay·dx)/det are linear in dx.
 */
function rowRun(f: Frame, dy: number, x0: number, x1: number): [number, number] {
  let lo = x0;
  let hi = x1;
  const clip = (k: number, c: number) => {
    // 0 ≤ k·dx + c < 1, dx = px + 0.5 − ox
    if (k === 0) {
      if (c < 0 || c >= 1) hi = lo;
      return;
    }
    const e0 = -c / k;
    const e1 = (1 - c) / k;
    const m0 = Math.min(e0, e1) + f.ox - 0.5;
    const m1 = Math.max(e0, e1) + f.ox - 0.5;
    lo = Math.max(lo, Math.floor(m0) - 1);
    hi = Math.min(hi, Math.ceil(m1) + 2);
  };
  clip(f.by / f.det, (-dy * f.bx) / f.det);
  clip(-f.ay / f.det, (f.ax * dy) / f.det);
  return [lo, Math.max(lo, hi)];
}

const tintedTextures = new WeakMap<RgbaImage, Map<number, Uint32Array>>();

/** A texture's texels × a colour (as `shade` computes them), as little-endian RGBA words; made once per colour. */
function tintedTexture(t: RgbaImage, color: number): Uint32Array {
  let byColor = tintedTextures.get(t);
  if (!byColor) tintedTextures.set(t, (byColor = new Map()));
  const hit = byColor.get(color);
  if (hit) return hit;
  const out = new Uint32Array(t.width * t.height);
  const r = (color >> 16) & 0xff;
  const g = (color >> 8) & 0xff;
  const b = color & 0xff;
  for (let i = 0; i < out.length; i++) {
    const o = i * 4;
    out[i] =
      ((t.data[o + 3]! << 24) |
        (Math.round((t.data[o + 2]! * b) / 255) << 16) |
        (Math.round((t.data[o + 1]! * g) / 255) << 8) |
        Math.round((t.data[o]! * r) / 255)) >>>
      0;
  }
  byColor.set(color, out);
  return out;
}

function texel(t: RgbaImage, u: number, v: number, flipH: boolean): number {
  let x = ((u % t.width) + t.width) % t.width;
  const y = ((v % t.height) + t.height) % t.height;
  if (flipH) x = t.width - 1 - x;
  const i = (y * t.width + x) * 4;
  const d = t.data;
  return ((d[i + 3]! << 24) | (d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!) >>> 0;
}

/** Source-over of an ARGB colour onto the canvas pixel `i`. */
function put(img: RgbaImage, i: number, argb: number): void {
  const sa = argb >>> 24;
  if (sa === 0) return;
  const d = img.data;
  const o = i * 4;
  const sr = (argb >> 16) & 0xff;
  const sg = (argb >> 8) & 0xff;
  const sb = argb & 0xff;
  const da = d[o + 3]!;
  if (sa === 255 || da === 0) {
    d[o] = sr;
    d[o + 1] = sg;
    d[o + 2] = sb;
    d[o + 3] = sa;
    return;
  }
  const dw = da * (255 - sa);
  const oa = sa * 255 + dw;
  d[o] = Math.round((sr * sa * 255 + d[o]! * dw) / oa);
  d[o + 1] = Math.round((sg * sa * 255 + d[o + 1]! * dw) / oa);
  d[o + 2] = Math.round((sb * sa * 255 + d[o + 2]! * dw) / oa);
  d[o + 3] = Math.round(oa / 255);
}

/** The colour of a decoration at texel (u, v): layers bottom to top, each a tinted texel or a flat colour. */
function shade(layers: ResolvedLayer[], planeColor: number, u: number, v: number, vBottom: number): number {
  let out = 0;
  for (const l of layers) {
    const color = mul(planeColor, l.color);
    let argb: number;
    if (!l.texture) argb = (0xff000000 | color) >>> 0;
    else {
      const tv = l.align === 'bottom' ? l.texture.height - 1 - vBottom : v;
      // A bottom-aligned texture is laid once from the plane's bottom, not repeated upwards.
      if (l.align === 'bottom' && (tv < 0 || tv >= l.texture.height)) continue;
      const t = texel(l.texture, u, tv, l.flipH);
      argb = ((t & 0xff000000) | mul(t & 0xffffff, color)) >>> 0;
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

/** Texel coordinates of a room point on a plane (scale-free: a texel is a fixed length in room units). */
function texelAt(p: RoomPlane, a: number, b: number, wallTop: number): { u: number; v: number; vBottom: number } {
  const x = p.origin[0] + a * p.left[0] + b * p.right[0];
  const y = p.origin[1] + a * p.left[1] + b * p.right[1];
  const z = p.origin[2] + a * p.left[2] + b * p.right[2];
  if (p.kind === 'floor') {
    // FloorPlane renders 32 texels a tile (its geometry's screen width of one tile), from the back corner.
    if (p.left[2] === 0 && p.right[2] === 0)
      return { u: Math.floor((x + 0.5) * 32), v: Math.floor((y + 0.5) * 32), vBottom: 0 };
    // A side face: along its edge, then down from the floor.
    const along = p.left[0] !== 0 ? x : y;
    return { u: Math.floor((along + 0.5) * 32), v: Math.floor(-z * 32), vBottom: 0 };
  }
  return {
    u: Math.floor(32 * (x - y)),
    v: Math.floor((wallTop - z) * 32),
    vBottom: Math.floor((z - p.origin[2]) * 32),
  };
}

export interface Decorations {
  floor: string;
  wall: string;
  landscape: string;
}

/**
 * Draws the planes in order. Wall planes record themselves in `wallOwner` for the masks; floor planes are
 * depth-tested on x + y of the room point under the pixel (the nearer floor wins), so steps and stairs
 * need no painter's order.
 */
export function drawPlanes(
  c: PlaneCanvas,
  vis: RoomVisualizationAssets,
  planes: RoomPlane[],
  deco: Decorations,
  wallTop: number,
): void {
  const layerCache = new Map<string, ResolvedLayer[]>();
  const layersFor = (p: RoomPlane): ResolvedLayer[] => {
    const set = p.kind === 'floor' ? vis.doc.floor : vis.doc.wall;
    const id = p.kind === 'floor' ? deco.floor : deco.wall;
    const key = `${p.kind}\0${p.wall ?? ''}`;
    let hit = layerCache.get(key);
    if (!hit) layerCache.set(key, (hit = resolveLayers(vis, set, id, normalX(p.wall))));
    return hit;
  };
  const img = c.image;
  const d32 = new Uint32Array(img.data.buffer, img.data.byteOffset, img.width * img.height);
  for (let index = 0; index < planes.length; index++) {
    const p = planes[index]!;
    const f = screenFrame(c, p);
    if (f.det === 0) continue;
    const layers = layersFor(p);
    const flat =
      layers.length === 0 ? [{ texture: null, flipH: false, color: 0xffffff, align: 'top' as const }] : layers;
    const drawn = p.textured ? flat : flat.map((l) => ({ ...l, texture: null }));
    // One opaque top-aligned textured layer (every real floor and wall): texel × colour, no blending.
    const single = drawn.length === 1 && drawn[0]!.texture && drawn[0]!.align === 'top' ? drawn[0]! : null;
    const tinted = single ? tintedTexture(single.texture!, mul(p.color, single.color)) : null;
    const floor = p.kind === 'floor';
    const owner = p.kind === 'wall' && p.textured ? index + 1 : 0;
    const [ox, oy, oz] = p.origin;
    const [lx, ly, lz] = p.left;
    const [rx, ry, rz] = p.right;
    const topFace = floor && lz === 0 && rz === 0;
    const alongX = lx !== 0;
    const xs = [f.ox, f.ox + f.ax, f.ox + f.bx, f.ox + f.ax + f.bx];
    const ys = [f.oy, f.oy + f.ay, f.oy + f.by, f.oy + f.ay + f.by];
    const x0 = Math.max(0, Math.min(...xs));
    const x1 = Math.min(img.width, Math.max(...xs));
    const y0 = Math.max(0, Math.min(...ys));
    const y1 = Math.min(img.height, Math.max(...ys));
    for (let py = y0; py < y1; py++) {
      const dy = py + 0.5 - f.oy;
      // a and b are linear in px: the pixels inside lie in one run, found from the row's ends.
      const [from, to] = rowRun(f, dy, x0, x1);
      for (let px = from; px < to; px++) {
        const dx = px + 0.5 - f.ox;
        const a = (dx * f.by - dy * f.bx) / f.det;
        if (a < 0 || a >= 1) continue;
        const b = (f.ax * dy - f.ay * dx) / f.det;
        if (b < 0 || b >= 1) continue;
        const x = ox + a * lx + b * rx;
        const y = oy + a * ly + b * ry;
        const z = oz + a * lz + b * rz;
        const i = py * img.width + px;
        if (floor) {
          const near = x + y;
          if (near < c.floorDepth[i]!) continue;
          c.floorDepth[i] = near;
        }
        // Texel coordinates (scale-free: a texel is a fixed length in room units).
        let u: number;
        let v: number;
        let vBottom = 0;
        if (topFace) {
          u = Math.floor((x + 0.5) * 32);
          v = Math.floor((y + 0.5) * 32);
        } else if (floor) {
          u = Math.floor(((alongX ? x : y) + 0.5) * 32);
          v = Math.floor(-z * 32);
        } else {
          u = Math.floor(32 * (x - y));
          v = Math.floor((wallTop - z) * 32);
          vBottom = Math.floor((z - oz) * 32);
        }
        if (tinted) {
          const t = single!.texture!;
          let tx = ((u % t.width) + t.width) % t.width;
          const ty = ((v % t.height) + t.height) % t.height;
          if (single!.flipH) tx = t.width - 1 - tx;
          const texelColor = tinted[ty * t.width + tx]!;
          if (texelColor >>> 24 === 255) {
            d32[i] = texelColor;
            c.wallOwner[i] = owner;
            continue;
          }
        }
        put(img, i, shade(drawn, p.color, u, v, vBottom));
        c.wallOwner[i] = owner;
      }
    }
  }
}

/** A mask bitmap placed on screen: its pixels with alpha > 0 cut the walls under them. */
export interface PlacedMask {
  image: RgbaImage;
  flipH: boolean;
  left: number;
  top: number;
  /** hole: nothing behind (the door); window: the landscape shows. */
  kind: 'hole' | 'window';
}

/** Cuts the masks into the wall planes; a window's cut shows the landscape plane of that wall. */
export function applyMasks(
  c: PlaneCanvas,
  vis: RoomVisualizationAssets,
  planes: RoomPlane[],
  masks: PlacedMask[],
  landscapeId: string,
  wallTop: number,
): number {
  let cut = 0;
  const landscapeLayers = new Map<string, ResolvedLayer[]>();
  for (const m of masks) {
    const w = m.image.width;
    for (let my = 0; my < m.image.height; my++) {
      const py = m.top + my;
      if (py < 0 || py >= c.image.height) continue;
      for (let mx = 0; mx < w; mx++) {
        const px = m.left + mx;
        if (px < 0 || px >= c.image.width) continue;
        const sx = m.flipH ? w - 1 - mx : mx;
        if (m.image.data[(my * w + sx) * 4 + 3]! === 0) continue;
        const i = py * c.image.width + px;
        const owner = c.wallOwner[i]!;
        if (owner === 0) continue;
        cut++;
        const o = i * 4;
        c.image.data[o] = c.image.data[o + 1] = c.image.data[o + 2] = c.image.data[o + 3] = 0;
        c.wallOwner[i] = 0;
        if (m.kind === 'hole') continue;
        const p = planes[owner - 1]!;
        let layers = landscapeLayers.get(p.wall ?? '');
        if (!layers) {
          layers = resolveLayers(vis, vis.doc.landscape, landscapeId, normalX(p.wall));
          landscapeLayers.set(p.wall ?? '', layers);
        }
        const f = screenFrame(c, p);
        const dx = px + 0.5 - f.ox;
        const dy = py + 0.5 - f.oy;
        const a = (dx * f.by - dy * f.bx) / f.det;
        const b = (f.ax * dy - f.ay * dx) / f.det;
        const t = texelAt(p, a, b, wallTop);
        const color = p.wall === 'l' ? LANDSCAPE_COLOR_SIDE : LANDSCAPE_COLOR_TOP;
        put(c.image, i, shade(layers, color, t.u, t.v, t.vBottom));
      }
    }
  }
  return cut;
}
