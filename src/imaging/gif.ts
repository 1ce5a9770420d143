// RGBA frames → an animated (or still) GIF: each pixel is either opaque or the one transparent index,
// colours are exact when they fit GIF's 256-entry tables (they nearly always do for avatars), each frame
// is cropped to its visible pixels and disposed to the background before the next, so transparent
// pixels never show the frame before. Deterministic: same frames and delays, same bytes.
//
// Semi-transparent pixels are resolved by a threshold (alpha ≥ 128 keeps the pixel's own colour at full
// opacity, lower is transparent), not blended against a matte colour: a matte leaves a halo of the matte
// on any page that is not that colour (grey fringes on white and on black), while the threshold keeps
// the avatar's own dark outline as the edge, which reads cleanly on light and dark pages alike. Avatar
// sprites are pixel art with hard edges; soft pixels come from the size-s downscale (2x2 averages at
// the outline), glass-like clothing and effects. Dithering the alpha everywhere speckles those edges, so
// only large translucent areas are dithered (a ghost's body, a spotlight's cone, glows, a glass dome):
// their pixels become opaque in the proportion of their alpha, by an ordered (Bayer 8×8) pattern fixed to
// the canvas, so it stands still while a loop plays; their rims and everything else keep the threshold.
// (docs/avatar-service.md)
import { writeGif, type GifFrame } from './gif-writer.js';
import { gcd, type FrameDelay } from './frame-delay.js';
import { createImage, type RgbaImage } from './image.js';

/** Pixels with at least this alpha are drawn opaque; the rest are transparent. */
export const GIF_ALPHA_THRESHOLD = 128;
/** A connected translucent area (0 < alpha < 255, 8-neighbours) of at least this many pixels is dithered. */
export const GIF_DITHER_MIN_AREA = 48;

/** Bayer 8×8 ordered-dither ranks 0-63 (row-major). */
const BAYER8 = (() => {
  const m = [[0]];
  let n = 1;
  while (n < 8) {
    const next: number[][] = Array.from({ length: 2 * n }, () => new Array<number>(2 * n).fill(0));
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        const v = 4 * m[y]![x]!;
        next[y]![x] = v;
        next[y]![x + n] = v + 2;
        next[y + n]![x] = v + 3;
        next[y + n]![x + n] = v + 1;
      }
    }
    m.splice(0, m.length, ...next);
    n *= 2;
  }
  return Uint8Array.from(m.flat());
})();

/**
 * The frame with its large translucent areas dithered: each pixel of a connected translucent area of at
 * least `GIF_DITHER_MIN_AREA` pixels whose four neighbours are translucent too (so an area's rim, an
 * outline, and the thin soft detail of a size-s downscale keep the threshold) becomes opaque in its own
 * colour (rounded to 16 levels a channel) when its alpha is above its place's rank in the Bayer pattern
 * ((rank + 0.5) × 4: alpha 128 is every other pixel), else transparent.
 * The frame itself when it has no such area.
 */
export function ditherTranslucentAreas(frame: RgbaImage): RgbaImage {
  const { width: w, height: h, data } = frame;
  const n = w * h;
  // 1 where a pixel is translucent (0 < alpha < 255).
  const soft = new Uint8Array(n);
  let count = 0;
  for (let i = 0, p = 3; i < n; i++, p += 4) {
    const a = data[p]!;
    if (a > 0 && a < 255) {
      soft[i] = 1;
      count++;
    }
  }
  // Fewer translucent pixels than one area needs (a plain avatar's few soft pixels): nothing to do.
  if (count < GIF_DITHER_MIN_AREA) return frame;
  // Connected areas (8-neighbours): each pixel's area id, each area's size.
  const region = new Int32Array(n).fill(-1);
  const sizes: number[] = [];
  const stack = new Int32Array(n);
  for (let start = 0; start < n; start++) {
    if (!soft[start] || region[start] !== -1) continue;
    const id = sizes.length;
    let size = 0;
    let sp = 0;
    region[start] = id;
    stack[sp++] = start;
    while (sp > 0) {
      const p = stack[--sp]!;
      size++;
      const x = p % w;
      const y0 = p >= w ? -1 : 0;
      const y1 = p < n - w ? 1 : 0;
      const x0 = x > 0 ? -1 : 0;
      const x1 = x < w - 1 ? 1 : 0;
      for (let dy = y0; dy <= y1; dy++) {
        for (let dx = x0; dx <= x1; dx++) {
          const q = p + dy * w + dx;
          if (soft[q] && region[q] === -1) {
            region[q] = id;
            stack[sp++] = q;
          }
        }
      }
    }
    sizes.push(size);
  }
  if (!sizes.some((s) => s >= GIF_DITHER_MIN_AREA)) return frame;
  let out: RgbaImage | undefined;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const p = y * w + x;
      const id = region[p]!;
      if (id < 0 || sizes[id]! < GIF_DITHER_MIN_AREA) continue;
      // The area's rim (a neighbour not translucent) keeps the threshold.
      if (!(soft[p - 1] && soft[p + 1] && soft[p - w] && soft[p + w])) continue;
      out ??= { width: w, height: h, data: Uint8Array.from(data) } as RgbaImage;
      const o = p * 4;
      if (data[o + 3]! > BAYER8[(y & 7) * 8 + (x & 7)]! * 4 + 2) {
        // 16 levels a channel: invisible under the pattern, and a glow's many shades then leave the
        // frame within 255 colours, so the avatar's own colours stay exact (no reduced table).
        for (let c = 0; c < 3; c++) out.data[o + c] = Math.round(data[o + c]! / 17) * 17;
        out.data[o + 3] = 255;
      } else out.data[o + 3] = 0;
    }
  }
  return out ?? frame;
}

/** Palette entry of every transparent pixel. */
export const GIF_TRANSPARENT_INDEX = 0;
/** Opaque colours a table can hold besides the transparent entry. */
const MAX_OPAQUE = 255;
const TRANSPARENT = -1;

/** Frame i's pixels as 0xRRGGBB, or TRANSPARENT. */
function resolveAlpha(frame: RgbaImage): Int32Array {
  const d = frame.data;
  const out = new Int32Array(frame.width * frame.height);
  for (let i = 0, p = 0; i < out.length; i++, p += 4) {
    out[i] = d[p + 3]! >= GIF_ALPHA_THRESHOLD ? (d[p]! << 16) | (d[p + 1]! << 8) | d[p + 2]! : TRANSPARENT;
  }
  return out;
}

/** Slots of the colour → index table: a power of two, four times the 255 colours it holds. */
const TABLE_SIZE = 1024;

/**
 * Palette indexes of every pixel of the frames (0 = transparent), colours numbered 1… in order of first
 * appearance (scan order, frame after frame); null when they need more than `limit` colours. One pass:
 * an open-addressing table on typed arrays, looked up only where the colour changes along a row.
 */
function exactIndexes(frames: RgbaImage[], limit: number): { colours: number[]; indexes: Uint8Array[] } | null {
  const slotKey = new Int32Array(TABLE_SIZE).fill(-1);
  const slotIndex = new Uint8Array(TABLE_SIZE);
  const colours: number[] = [];
  const indexes: Uint8Array[] = [];
  for (const f of frames) {
    const n = f.width * f.height;
    const data = f.data.byteOffset % 4 === 0 ? f.data : f.data.slice();
    // little-endian on every platform Node runs on: alpha is the top byte, red the bottom one
    const px = new Uint32Array(data.buffer, data.byteOffset, n);
    const out = new Uint8Array(n);
    let last = -1;
    let lastIndex = 0;
    for (let i = 0; i < n; i++) {
      const v = px[i]!;
      if (v !== last) {
        last = v;
        if (v >>> 24 < GIF_ALPHA_THRESHOLD) lastIndex = GIF_TRANSPARENT_INDEX;
        else {
          const key = v & 0xffffff;
          let slot = Math.imul(key, 0x9e3779b1) >>> 22;
          for (;;) {
            const k = slotKey[slot]!;
            if (k === key) {
              lastIndex = slotIndex[slot]!;
              break;
            }
            if (k === -1) {
              if (colours.length === limit) return null;
              colours.push(((key & 0xff) << 16) | (key & 0xff00) | (key >>> 16));
              slotKey[slot] = key;
              slotIndex[slot] = lastIndex = colours.length;
              break;
            }
            slot = (slot + 1) & (TABLE_SIZE - 1);
          }
        }
      }
      out[i] = lastIndex;
    }
    indexes.push(out);
  }
  return { colours, indexes };
}

/**
 * At most 255 colours for a frame that has more: median cut over the frame's colour histogram (the box
 * with the most pixels × widest channel range is split at the pixel-weighted median of that channel),
 * each box's colour the rounded pixel-weighted mean; every colour maps to the nearest entry (ties: the
 * lower index). Deterministic; a frequent colour ends up alone in its box, so it stays exact.
 */
function reducedColours(px: Int32Array): { colours: number[]; map: (c: number) => number } {
  const histogram = new Map<number, number>();
  for (let i = 0; i < px.length; i++) {
    const c = px[i]!;
    if (c !== TRANSPARENT) histogram.set(c, (histogram.get(c) ?? 0) + 1);
  }
  const entries = [...histogram.entries()].sort((a, b) => a[0] - b[0]);
  const channel = (c: number, ch: number) => (c >>> (16 - 8 * ch)) & 0xff;
  interface Box {
    items: [number, number][];
    pixels: number;
    axis: number;
    range: number;
  }
  const makeBox = (items: [number, number][]): Box => {
    let pixels = 0;
    let axis = 0;
    let range = -1;
    for (const [, n] of items) pixels += n;
    for (let ch = 0; ch < 3; ch++) {
      let lo = 255;
      let hi = 0;
      for (const [c] of items) {
        const v = channel(c, ch);
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      if (hi - lo > range) {
        range = hi - lo;
        axis = ch;
      }
    }
    return { items, pixels, axis, range };
  };
  const boxes: Box[] = [makeBox(entries)];
  while (boxes.length < MAX_OPAQUE) {
    let pick = -1;
    let score = 0;
    boxes.forEach((b, i) => {
      const s = b.items.length > 1 ? b.pixels * b.range : 0;
      if (s > score) {
        score = s;
        pick = i;
      }
    });
    if (pick < 0) break;
    const box = boxes[pick]!;
    const items = [...box.items].sort((a, b) => channel(a[0], box.axis) - channel(b[0], box.axis) || a[0] - b[0]);
    let half = 0;
    let cut = 1;
    for (let i = 0; i < items.length - 1; i++) {
      half += items[i]![1];
      cut = i + 1;
      if (half * 2 >= box.pixels) break;
    }
    boxes.splice(pick, 1, makeBox(items.slice(0, cut)), makeBox(items.slice(cut)));
  }
  const colours = boxes.map((b) => {
    let r = 0;
    let g = 0;
    let bl = 0;
    for (const [c, n] of b.items) {
      r += channel(c, 0) * n;
      g += channel(c, 1) * n;
      bl += channel(c, 2) * n;
    }
    return (Math.round(r / b.pixels) << 16) | (Math.round(g / b.pixels) << 8) | Math.round(bl / b.pixels);
  });
  const nearest = new Map<number, number>();
  const map = (c: number): number => {
    let hit = nearest.get(c);
    if (hit !== undefined) return hit;
    let best = 0;
    let bestD = Infinity;
    for (let i = 0; i < colours.length; i++) {
      const p = colours[i]!;
      let d = 0;
      for (let ch = 0; ch < 3; ch++) {
        const diff = channel(p, ch) - channel(c, ch);
        d += diff * diff;
      }
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
    hit = best + 1;
    nearest.set(c, hit);
    return hit;
  };
  return { colours, map };
}

/** RGB triples: the transparent entry (black) first, then the colours. */
function paletteBytes(colours: number[]): Uint8Array {
  const out = new Uint8Array((colours.length + 1) * 3);
  colours.forEach((c, i) => {
    out[(i + 1) * 3] = c >>> 16;
    out[(i + 1) * 3 + 1] = (c >>> 8) & 0xff;
    out[(i + 1) * 3 + 2] = c & 0xff;
  });
  return out;
}

/** A frame's indexes cropped to the bounding box of its visible pixels (1x1 transparent when none). */
function croppedFrame(indexes: Uint8Array, width: number, height: number): Omit<GifFrame, 'delayCs' | 'palette'> {
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let first = -1;
    let lastX = -1;
    for (let x = 0; x < width; x++) {
      if (indexes[row + x] === GIF_TRANSPARENT_INDEX) continue;
      if (first < 0) first = x;
      lastX = x;
    }
    if (first < 0) continue;
    if (first < x0) x0 = first;
    if (lastX > x1) x1 = lastX;
    if (y < y0) y0 = y;
    y1 = y;
  }
  if (x1 < 0) return { left: 0, top: 0, width: 1, height: 1, indexes: new Uint8Array([GIF_TRANSPARENT_INDEX]) };
  const w = x1 - x0 + 1;
  const h = y1 - y0 + 1;
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) out.set(indexes.subarray((y0 + y) * width + x0, (y0 + y) * width + x0 + w), y * w);
  return { left: x0, top: y0, width: w, height: h, indexes: out };
}

/** Indexes of a frame of more than 255 colours, through the reduced table. */
function reducedFrame(frame: RgbaImage): { colours: number[]; indexes: Uint8Array } {
  const px = resolveAlpha(frame);
  const { colours, map } = reducedColours(px);
  const indexes = new Uint8Array(px.length);
  let last = TRANSPARENT;
  let lastIndex = GIF_TRANSPARENT_INDEX;
  for (let i = 0; i < px.length; i++) {
    const c = px[i]!;
    if (c !== last) {
      last = c;
      lastIndex = c === TRANSPARENT ? GIF_TRANSPARENT_INDEX : map(c);
    }
    indexes[i] = lastIndex;
  }
  return { colours, indexes };
}

/**
 * Encodes frames of one size as a GIF89a: one global colour table when all frames fit 255 colours, else
 * a table per frame (reduced for a frame of more than 255). Several frames loop forever (NETSCAPE2.0,
 * loop count 0); one frame is a plain still. `delaysCs[i]` is frame i's delay in centiseconds.
 */
export function encodeGif(frames: RgbaImage[], delaysCs: number[]): Buffer {
  if (frames.length === 0) throw new RangeError('no frames to encode');
  if (delaysCs.length !== frames.length) throw new RangeError(`${frames.length} frames but ${delaysCs.length} delays`);
  const { width, height } = frames[0]!;
  if (width < 1 || height < 1) throw new RangeError(`cannot encode an empty ${width}x${height} image`);
  for (const f of frames) if (f.width !== width || f.height !== height) throw new Error('frames differ in size');
  frames = frames.map(ditherTranslucentAreas);
  const shared = exactIndexes(frames, MAX_OPAQUE);
  const gifFrames: GifFrame[] = frames.map((frame, i) => {
    if (shared) return { ...croppedFrame(shared.indexes[i]!, width, height), delayCs: delaysCs[i]! };
    const own = exactIndexes([frame], MAX_OPAQUE);
    const { colours, indexes } = own ? { colours: own.colours, indexes: own.indexes[0]! } : reducedFrame(frame);
    return { ...croppedFrame(indexes, width, height), delayCs: delaysCs[i]!, palette: paletteBytes(colours) };
  });
  return writeGif({
    width,
    height,
    palette: shared ? paletteBytes(shared.colours) : undefined,
    transparentIndex: GIF_TRANSPARENT_INDEX,
    loops: frames.length > 1 ? 0 : undefined,
    disposal: 2,
    frames: gifFrames,
  });
}

/** A frame of an animation kept as the rectangle that changed from the frame before (at x, y on the canvas). */
export interface GifRect {
  x: number;
  y: number;
  image: RgbaImage;
}

/**
 * The GIF `encodeGif` makes of the full frames, showing the same pixels, from the first frame whole and each
 * later one as the rectangle that changed (`rects[0]` the whole canvas at 0, 0): each later frame is written
 * as its rectangle only, drawn over the frame before (disposal 1; a pixel it leaves as it was is the
 * transparent index there), when the frames have no translucent pixel
 * (nothing to dither) and share one table of 255 colours. A rectangle cannot make a pixel transparent again,
 * so a frame that clears a pixel (and the last, when frame 0 clears one at the wrap) starts from a blank
 * canvas: the frame before it is written as its visible pixels' box and disposed to the background (2), as
 * every frame of `encodeGif`. Otherwise every frame is rebuilt whole, one at a time, and written as
 * `encodeGif` writes it with a table of its own.
 */
export function encodeGifRects(rects: GifRect[], delaysCs: number[]): Buffer {
  if (rects.length === 0) throw new RangeError('no frames to encode');
  if (delaysCs.length !== rects.length) throw new RangeError(`${rects.length} frames but ${delaysCs.length} delays`);
  const { width, height } = rects[0]!.image;
  if (width < 1 || height < 1) throw new RangeError(`cannot encode an empty ${width}x${height} image`);
  if (rects[0]!.x !== 0 || rects[0]!.y !== 0) throw new RangeError('frame 0 must be the whole canvas');
  const loops = rects.length > 1 ? 0 : undefined;
  const images = rects.map((r) => r.image);
  const shared = images.some(hasTranslucent) ? null : exactIndexes(images, MAX_OPAQUE);
  if (!shared) {
    // Every frame whole, each dithered and indexed on its own (its own table: the same pixels as one shared
    // table would give, as the colours are exact), visible box, disposed to the background.
    const canvas = createImage(width, height);
    const gifFrames = rects.map((r, i): GifFrame => {
      pasteRect(canvas.data, width, r);
      const frame = ditherTranslucentAreas({ width, height, data: Uint8Array.from(canvas.data) });
      const own = exactIndexes([frame], MAX_OPAQUE);
      const { colours, indexes } = own ? { colours: own.colours, indexes: own.indexes[0]! } : reducedFrame(frame);
      return { ...croppedFrame(indexes, width, height), delayCs: delaysCs[i]!, palette: paletteBytes(colours) };
    });
    return writeGif({ width, height, transparentIndex: GIF_TRANSPARENT_INDEX, loops, disposal: 2, frames: gifFrames });
  }
  // The index canvas frame by frame: whether each frame clears a pixel the frame before shows.
  const cur = Uint8Array.from(shared.indexes[0]!);
  const clears: boolean[] = [false];
  for (let i = 1; i < rects.length; i++) {
    const { x, y, image } = rects[i]!;
    const idx = shared.indexes[i]!;
    let clear = false;
    for (let row = 0; row < image.height; row++) {
      const at = (y + row) * width + x;
      for (let col = 0; col < image.width; col++) {
        const v = idx[row * image.width + col]!;
        if (v === GIF_TRANSPARENT_INDEX && cur[at + col] !== GIF_TRANSPARENT_INDEX) clear = true;
        cur[at + col] = v;
      }
    }
    clears.push(clear);
  }
  // At the wrap frame 0 (its visible box) is drawn over the last frame.
  const first = shared.indexes[0]!;
  clears[0] = cur.some((v, i) => v !== GIF_TRANSPARENT_INDEX && first[i] === GIF_TRANSPARENT_INDEX);
  cur.set(first);
  const gifFrames = rects.map((r, i): GifFrame => {
    const idx = shared.indexes[i]!;
    const next = clears[(i + 1) % rects.length]! && rects.length > 1;
    const whole = i === 0 || clears[i]! || next;
    // A rectangle drawn over the frame before: a pixel it does not change is the transparent index (kept).
    const kept = i > 0 ? pasteIndexes(cur, width, r.x, r.y, r.image.width, r.image.height, idx, !whole) : idx;
    const body = whole
      ? croppedFrame(cur, width, height)
      : { left: r.x, top: r.y, width: r.image.width, height: r.image.height, indexes: kept };
    return { ...body, delayCs: delaysCs[i]!, disposal: next ? 2 : 1 };
  });
  return writeGif({
    width,
    height,
    palette: paletteBytes(shared.colours),
    transparentIndex: GIF_TRANSPARENT_INDEX,
    loops,
    disposal: 1,
    frames: gifFrames,
  });
}

/** Whether an image has a pixel neither transparent nor opaque (one `ditherTranslucentAreas` may change). */
function hasTranslucent(image: RgbaImage): boolean {
  const d = image.data;
  for (let p = 3; p < d.length; p += 4) if (d[p] !== 0 && d[p] !== 255) return true;
  return false;
}

function pasteRect(canvas: Uint8Array, width: number, r: GifRect): void {
  const row = r.image.width * 4;
  for (let y = 0; y < r.image.height; y++)
    canvas.set(r.image.data.subarray(y * row, (y + 1) * row), ((r.y + y) * width + r.x) * 4);
}

/**
 * Writes a rectangle's indexes onto the index canvas; with `keep`, returns them with every pixel the canvas
 * already showed as the transparent index (a frame drawn over the one before leaves those: less to compress).
 */
function pasteIndexes(
  cur: Uint8Array,
  width: number,
  x: number,
  y: number,
  w: number,
  h: number,
  idx: Uint8Array,
  keep: boolean,
): Uint8Array {
  const out = keep ? new Uint8Array(w * h) : idx;
  for (let row = 0; row < h; row++) {
    const at = (y + row) * width + x;
    for (let col = 0; col < w; col++) {
      const v = idx[row * w + col]!;
      if (keep && cur[at + col] !== v) out[row * w + col] = v;
      cur[at + col] = v;
    }
  }
  return out;
}

/** Browsers draw a GIF delay of 0 or 1 cs as 10 cs; no frame gets less than this. */
export const MIN_GIF_DELAY_CS = 2;

/**
 * Centisecond delays for exact frame durations: each frame ends at its exact end time rounded to the
 * nearest centisecond, so every frame starts and ends within half a centisecond of its exact time (its
 * delay within one) and the loop's total is its exact total rounded (1/6 s frames: 17, 16, 17, 17, 16,
 * 17 … = 100 cs a second; a 2-frame loop 17 + 16 = 33 cs for 33.3). A frame shorter than 2 cs is drawn
 * for 2 (browsers would make it 10).
 */
export function gifDelays(delays: FrameDelay[]): number[] {
  const out: number[] = [];
  // Exact times as fractions over a common denominator, so long loops never drift.
  let den = 1;
  for (const d of delays) {
    if (!(Number.isInteger(d.num) && Number.isInteger(d.den) && d.num >= 0 && d.den > 0))
      throw new RangeError(`bad frame delay ${d.num}/${d.den}`);
    den = (den / gcd(den, d.den)) * d.den;
  }
  let exact = 0; // in 1/den seconds
  let previous = 0; // centiseconds
  for (const d of delays) {
    exact += d.num * (den / d.den);
    // round(exact * 100 / den), halves up, in integers
    const end = Math.floor((exact * 200 + den) / (2 * den));
    out.push(Math.min(0xffff, Math.max(MIN_GIF_DELAY_CS, end - previous)));
    previous = end;
  }
  return out;
}
