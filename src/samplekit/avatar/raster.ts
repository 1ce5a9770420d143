// Tiny deterministic vector rasterizer for the procedurally drawn avatar kit. Shapes are given in
// size-m canvas coordinates (64x110 canvas, registration point (0,100)); a sprite is the union of its
// paint ops, cropped to its pixels, with a 1-px dark outline and an asymmetric mark on its left side so a
// wrong mirror, offset, order or tint shows in a picture.
import { type RgbaImage, createImage } from '../../imaging/image.js';

export interface Clip {
  x0?: number;
  x1?: number;
  y0?: number;
  y1?: number;
}

export type Shape =
  | { k: 'rect'; x: number; y: number; w: number; h: number; clip?: Clip }
  | { k: 'ellipse'; cx: number; cy: number; rx: number; ry: number; clip?: Clip }
  | { k: 'capsule'; x1: number; y1: number; x2: number; y2: number; r: number; clip?: Clip }
  | { k: 'poly'; pts: [number, number][]; clip?: Clip };

/** A fill: flat 0xRRGGBB, or a function of the pixel position (patterns make colorable parts tell apart). */
export type Fill = number | ((x: number, y: number) => number);

export interface PaintOp {
  shapes: Shape[];
  fill: Fill;
  /** Ops that only colour pixels other ops already cover (a print on a shirt), never grow the sprite. */
  overlay?: boolean;
}

export interface DrawnSprite {
  image: RgbaImage;
  /** Canvas position of the sprite's top-left pixel. */
  left: number;
  top: number;
}

export const OUTLINE = 0x2a2a2a;
export const MARK = 0x000000;

export const rect = (x: number, y: number, w: number, h: number, clip?: Clip): Shape => ({
  k: 'rect',
  x,
  y,
  w,
  h,
  clip,
});
export const ellipse = (cx: number, cy: number, rx: number, ry: number, clip?: Clip): Shape => ({
  k: 'ellipse',
  cx,
  cy,
  rx,
  ry,
  clip,
});
export const capsule = (x1: number, y1: number, x2: number, y2: number, r: number, clip?: Clip): Shape => ({
  k: 'capsule',
  x1,
  y1,
  x2,
  y2,
  r,
  clip,
});
export const poly = (pts: [number, number][], clip?: Clip): Shape => ({ k: 'poly', pts, clip });

function inClip(c: Clip | undefined, x: number, y: number): boolean {
  if (!c) return true;
  return (
    (c.x0 === undefined || x >= c.x0) &&
    (c.x1 === undefined || x < c.x1) &&
    (c.y0 === undefined || y >= c.y0) &&
    (c.y1 === undefined || y < c.y1)
  );
}

function contains(s: Shape, x: number, y: number): boolean {
  if (!inClip(s.clip, x, y)) return false;
  switch (s.k) {
    case 'rect':
      return x >= s.x && x < s.x + s.w && y >= s.y && y < s.y + s.h;
    case 'ellipse': {
      const dx = (x - s.cx) / s.rx;
      const dy = (y - s.cy) / s.ry;
      return dx * dx + dy * dy <= 1;
    }
    case 'capsule': {
      const vx = s.x2 - s.x1;
      const vy = s.y2 - s.y1;
      const len2 = vx * vx + vy * vy;
      const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((x - s.x1) * vx + (y - s.y1) * vy) / len2));
      const px = s.x1 + t * vx - x;
      const py = s.y1 + t * vy - y;
      return px * px + py * py <= s.r * s.r;
    }
    case 'poly': {
      let inside = false;
      const p = s.pts;
      for (let i = 0, j = p.length - 1; i < p.length; j = i++) {
        const [xi, yi] = p[i]!;
        const [xj, yj] = p[j]!;
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
      }
      return inside;
    }
  }
}

function bounds(s: Shape): [number, number, number, number] {
  switch (s.k) {
    case 'rect':
      return [s.x, s.y, s.x + s.w, s.y + s.h];
    case 'ellipse':
      return [s.cx - s.rx, s.cy - s.ry, s.cx + s.rx, s.cy + s.ry];
    case 'capsule':
      return [
        Math.min(s.x1, s.x2) - s.r,
        Math.min(s.y1, s.y2) - s.r,
        Math.max(s.x1, s.x2) + s.r,
        Math.max(s.y1, s.y2) + s.r,
      ];
    case 'poly': {
      const xs = s.pts.map((p) => p[0]);
      const ys = s.pts.map((p) => p[1]);
      return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    }
  }
}

/** Mirrors a shape about the vertical line x = axis/2 (continuous x → axis − x). */
export function mirrorShape(s: Shape, axis: number): Shape {
  const clip = s.clip
    ? {
        ...s.clip,
        x0: s.clip.x1 === undefined ? undefined : axis - s.clip.x1,
        x1: s.clip.x0 === undefined ? undefined : axis - s.clip.x0,
      }
    : undefined;
  switch (s.k) {
    case 'rect':
      return { ...s, x: axis - s.x - s.w, clip };
    case 'ellipse':
      return { ...s, cx: axis - s.cx, clip };
    case 'capsule':
      return { ...s, x1: axis - s.x1, x2: axis - s.x2, clip };
    case 'poly':
      return { ...s, pts: s.pts.map(([x, y]) => [axis - x, y] as [number, number]), clip };
  }
}

export function mirrorOps(ops: PaintOp[], axis: number): PaintOp[] {
  return ops.map((op) => ({
    ...op,
    shapes: op.shapes.map((s) => mirrorShape(s, axis)),
    fill: mirrorFill(op.fill, axis),
  }));
}

function mirrorFill(f: Fill, axis: number): Fill {
  if (typeof f === 'number') return f;
  // Patterns keep their look in final orientation: a mirrored geometry keeps the same pattern phase.
  return (x, y) => f(axis - 1 - x, y);
}

/**
 * Rasterizes paint ops into a cropped sprite. Samples pixel centres; the outline is every covered pixel
 * with an uncovered 4-neighbour; the mark is a 2x2 block just inside the left edge at 30% height.
 */
export function paint(ops: PaintOp[], opts: { outline?: number; mark?: number | null } = {}): DrawnSprite | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const op of ops) {
    if (op.overlay) continue;
    for (const s of op.shapes) {
      const [a, b, c, d] = bounds(s);
      x0 = Math.min(x0, Math.floor(a) - 1);
      y0 = Math.min(y0, Math.floor(b) - 1);
      x1 = Math.max(x1, Math.ceil(c) + 1);
      y1 = Math.max(y1, Math.ceil(d) + 1);
    }
  }
  if (!Number.isFinite(x0)) return null;
  const w = x1 - x0;
  const h = y1 - y0;
  const color = new Int32Array(w * h).fill(-1);
  for (const op of ops) {
    for (const s of op.shapes) {
      // only the shape's own bounding box needs sampling
      const [a, b, c, d] = bounds(s);
      const sx0 = Math.max(0, Math.floor(a) - x0);
      const sy0 = Math.max(0, Math.floor(b) - y0);
      const sx1 = Math.min(w, Math.ceil(c) + 1 - x0);
      const sy1 = Math.min(h, Math.ceil(d) + 1 - y0);
      for (let py = sy0; py < sy1; py++) {
        const cy = y0 + py;
        for (let px = sx0; px < sx1; px++) {
          const i = py * w + px;
          if (op.overlay && color[i]! < 0) continue;
          const cx = x0 + px;
          if (contains(s, cx + 0.5, cy + 0.5)) color[i] = typeof op.fill === 'number' ? op.fill : op.fill(cx, cy);
        }
      }
    }
  }
  // crop to covered pixels
  let minX = w;
  let minY = h;
  let maxX = -1;
  let maxY = -1;
  for (let py = 0; py < h; py++) {
    for (let px = 0; px < w; px++) {
      if (color[py * w + px]! >= 0) {
        if (px < minX) minX = px;
        if (px > maxX) maxX = px;
        if (py < minY) minY = py;
        if (py > maxY) maxY = py;
      }
    }
  }
  if (maxX < 0) return null;
  const cw = maxX - minX + 1;
  const ch = maxY - minY + 1;
  const covered = (px: number, py: number) =>
    px >= 0 && py >= 0 && px < cw && py < ch && color[(py + minY) * w + px + minX]! >= 0;
  const outline = opts.outline ?? OUTLINE;
  const out = new Int32Array(cw * ch).fill(-1);
  for (let py = 0; py < ch; py++) {
    for (let px = 0; px < cw; px++) {
      if (!covered(px, py)) continue;
      const edge = !covered(px - 1, py) || !covered(px + 1, py) || !covered(px, py - 1) || !covered(px, py + 1);
      out[py * cw + px] = edge ? outline : color[(py + minY) * w + px + minX]!;
    }
  }
  if (opts.mark !== null) {
    const mark = opts.mark ?? MARK;
    // the row at 30% height, or the nearest covered one (sprites made of separate pieces)
    let row = Math.floor(ch * 0.3);
    let lx = -1;
    for (let k = 0; k < 2 * ch && lx < 0; k++) {
      const r = Math.floor(ch * 0.3) + (k % 2 ? -((k + 1) >> 1) : k >> 1);
      if (r < 0 || r >= ch) continue;
      for (let px = 0; px < cw; px++) {
        if (covered(px, r)) {
          lx = px;
          row = r;
          break;
        }
      }
    }
    if (lx >= 0) {
      // thin sprites (all outline) still get a one-pixel mark on their left edge
      if (!hasInterior(out, outline)) out[row * cw + lx] = mark === outline ? 0x000000 : mark;
      const size = cw >= 6 && ch >= 6 ? 2 : 1;
      for (let dy = 0; dy < size; dy++) {
        for (let dx = 0; dx < size; dx++) {
          const mx = lx + 1 + (size === 2 ? 1 : 0) + dx;
          const my = row + dy;
          if (mx < cw && my < ch && out[my * cw + mx]! >= 0 && out[my * cw + mx] !== outline) out[my * cw + mx] = mark;
        }
      }
    }
  }
  if (opts.mark !== null) breakSymmetry(out, cw, ch);
  const image = createImage(cw, ch);
  for (let i = 0; i < out.length; i++) {
    const c = out[i]!;
    if (c < 0) continue;
    image.data[i * 4] = (c >> 16) & 0xff;
    image.data[i * 4 + 1] = (c >> 8) & 0xff;
    image.data[i * 4 + 2] = c & 0xff;
    image.data[i * 4 + 3] = 255;
  }
  return { image, left: x0 + minX, top: y0 + minY };
}

/** Last resort for sprites the mark could not reach: recolour the leftmost pixel of a row that is not centred. */
function breakSymmetry(out: Int32Array, w: number, h: number): void {
  const symmetric = () => {
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w >> 1; x++) if (out[y * w + x] !== out[y * w + w - 1 - x]) return false;
    return true;
  };
  if (!symmetric()) return;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < (w - 1) >> 1; x++) {
      const c = out[y * w + x]!;
      if (c < 0) continue;
      out[y * w + x] = c === 0 ? 0xffffff : 0x000000;
      return;
    }
  }
}

function hasInterior(out: Int32Array, outline: number): boolean {
  for (const c of out) if (c >= 0 && c !== outline) return true;
  return false;
}

/** Half-size box-filtered copy of a sprite (the `sh_` small-scale look), alpha kept straight. */
export function halve(src: RgbaImage): RgbaImage {
  const w = Math.max(1, Math.ceil(src.width / 2));
  const h = Math.max(1, Math.ceil(src.height / 2));
  const out = createImage(w, h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      let n = 0;
      for (let dy = 0; dy < 2; dy++) {
        for (let dx = 0; dx < 2; dx++) {
          const sx = x * 2 + dx;
          const sy = y * 2 + dy;
          if (sx >= src.width || sy >= src.height) continue;
          const i = (sy * src.width + sx) * 4;
          const sa = src.data[i + 3]!;
          r += src.data[i]! * sa;
          g += src.data[i + 1]! * sa;
          b += src.data[i + 2]! * sa;
          a += sa;
          n++;
        }
      }
      const o = (y * w + x) * 4;
      if (a > 0) {
        out.data[o] = Math.round(r / a);
        out.data[o + 1] = Math.round(g / a);
        out.data[o + 2] = Math.round(b / a);
      }
      out.data[o + 3] = Math.round(a / n);
    }
  }
  return out;
}
