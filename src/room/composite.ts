// The room's canvas as RoomSpriteCanvas draws it: every object sprite by its depth, farthest first, the room's
// planes among them (each plane with the masks on it: planes.ts, draw-planes.ts). Only a sprite sorted 2000
// tiles back (the door tile's displacement) goes behind planes: it is drawn between the door's floor and the
// rest of the room. The picture is sized to what is drawn; at size 32 it is the size-64 room at half scale.
import { type RoomVisualizationAssets } from '../hotel/room.js';
import { drawSprite, type Ink } from '../imaging/composite.js';
import { createImage, type RgbaImage } from '../imaging/image.js';
import { type Decorations, drawRoomPlanes, type PlaneCanvas } from './draw-planes.js';
import { project, type RoomScale } from './geometry.js';
import { type RoomMask } from './masks.js';
import { type ObjectSprite } from './objects/room-object.js';
import { type RoomPlane } from './planes.js';

/** One sprite on the room canvas (RoomSpriteCanvas sorts these, not whole objects), with its object. */
export type CanvasSprite<O> = Omit<ObjectSprite, 'relativeDepth'> & {
  /** The object's depth + the sprite's relative depth + 3.7e-11 per sprite added before it. */
  depth: number;
  owner: O;
};

/** A rectangle of the picture, from (x0, y0) to (x1, y1) exclusive. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** What the room is drawn with besides its sprites. */
export interface RoomScene {
  planes: RoomPlane[];
  masks: RoomMask[];
  vis: RoomVisualizationAssets;
  deco: Decorations;
  scale: RoomScale;
  /** Size 32: Nitro's zoomed-out room, the size-64 one with every sprite at half scale. */
  zoomOut: boolean;
}

export interface Composited<O> {
  image: RgbaImage;
  /** Where room point (0, 0, 0) lies in the image. */
  origin: { x: number; y: number };
  /** The box each object's sprites cover in the image (shadows aside); an object with none drawn has none. */
  boxes: Map<O, Box>;
  /** The pixels each mask cut, in the order of `scene.masks`. */
  cuts: number[];
}

/**
 * The blend the client's WebGL canvas gives an ink (SpriteUtilities.inkToBlendMode, then PixiJS's WebGL
 * blend table): ADD and SUBTRACT blend with what is drawn under them; DARKEN has no WebGL blend in PixiJS
 * and draws as NORMAL, as does every other ink (COPY).
 */
function roomBlend(ink: Ink): Ink {
  return ink === 'add' || ink === 'subtract' ? ink : 'normal';
}

/**
 * The picture's extent on the size-64 screen (room origin at 0, 0): every plane corner and every sprite of
 * every frame (an animated room's frames share one extent).
 */
export function roomExtent(scene: RoomScene, frames: readonly (readonly CanvasSprite<unknown>[])[]): Box {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  const grow = (ax: number, ay: number, bx: number, by: number) => {
    x0 = Math.min(x0, ax);
    y0 = Math.min(y0, ay);
    x1 = Math.max(x1, bx);
    y1 = Math.max(y1, by);
  };
  for (const p of scene.planes)
    for (const [da, db] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ] as const) {
      const s = project(
        scene.scale,
        p.origin[0] + da * p.left[0] + db * p.right[0],
        p.origin[1] + da * p.left[1] + db * p.right[1],
        p.origin[2] + da * p.left[2] + db * p.right[2],
      );
      grow(Math.round(s.x), Math.round(s.y), Math.round(s.x), Math.round(s.y));
    }
  for (const sprites of frames)
    for (const d of sprites) grow(d.left, d.top, d.left + d.image.width, d.top + d.image.height);
  if (!Number.isFinite(x0)) {
    x0 = y0 = 0;
    x1 = y1 = 1;
  }
  if (scene.zoomOut) {
    // The half-scale picture starts on an even pixel of the 64 one, so the room origin stays on whole pixels.
    x0 = Math.floor(x0 / 2) * 2;
    y0 = Math.floor(y0 / 2) * 2;
  }
  return { x0, y0, x1, y1 };
}

/**
 * Draws the planes and the sprites, sorted farthest first (`sprites` in that order), on one picture. `box`: the
 * extent to draw (an animated room's, shared by its frames; else the sprites' own). `background`: the planes
 * alone as this function draws them with no sprite over the same box; a frame whose sprites all sort in front
 * of every plane starts from a copy of it instead of drawing the planes again.
 */
export function compositeRoom<O>(
  scene: RoomScene,
  sprites: readonly CanvasSprite<O>[],
  opts: { box?: Box; background?: RgbaImage } = {},
): Composited<O> {
  const { x0, y0, x1, y1 } = opts.box ?? roomExtent(scene, [sprites]);
  const { zoomOut } = scene;
  const width = x1 - x0;
  const height = y1 - y0;
  const lowest = scene.planes.reduce((d, p) => Math.min(d, p.depth), Number.POSITIVE_INFINITY);
  const bg = opts.background;
  const reuse = bg !== undefined && !(sprites.length > 0 && sprites[0]!.depth > lowest);
  let planeCanvas: PlaneCanvas | null = null;
  const canvasOf = (): PlaneCanvas =>
    (planeCanvas ??= {
      image: createImage(width, height),
      originX: -x0,
      originY: -y0,
      scale: scene.scale,
      wallOwner: new Uint16Array(width * height),
      floorDepth: new Float32Array(width * height).fill(Number.NEGATIVE_INFINITY),
    });
  const placedMasks = scene.masks.map((m) => ({
    image: m.image,
    flipH: m.flipH,
    kind: m.kind,
    left: m.x - x0,
    top: m.y - y0,
    ox: m.ox,
    oy: m.oy,
    at: m.at,
  }));
  const cuts = scene.masks.map(() => 0);
  let target: RgbaImage | null = reuse
    ? { width: bg.width, height: bg.height, data: Uint8Array.from(bg.data) }
    : zoomOut
      ? null
      : canvasOf().image;
  let group: RoomPlane[] = [];
  const drawPlanes = () => {
    if (group.length === 0) return;
    const canvas = canvasOf();
    // At half scale a later group is drawn on its own canvas and laid over what is drawn (the half-scale room
    // is the 64 one's even pixels, so layering commutes with taking them).
    const on = zoomOut && target ? { ...canvas, image: createImage(width, height) } : canvas;
    drawRoomPlanes(on, scene.vis, group, scene.deco, placedMasks).forEach((n, i) => {
      cuts[i]! += n;
    });
    if (zoomOut) {
      if (!target) target = evenPixels(canvas.image);
      else drawSprite(target, evenPixels(on.image), 0, 0);
    }
    group = [];
  };
  const boxes = new Map<O, Box>();
  let next = 0;
  const drawSprites = (until: number) => {
    drawPlanes();
    if (!target) target = evenPixels(canvasOf().image);
    for (; next < sprites.length && sprites[next]!.depth > until; next++)
      drawOne(target, sprites[next]!, x0, y0, zoomOut, boxes);
  };
  for (const p of reuse ? [] : scene.planes) {
    if (next < sprites.length && sprites[next]!.depth > p.depth) drawSprites(p.depth);
    group.push(p);
  }
  drawSprites(Number.NEGATIVE_INFINITY);
  const image = target ?? canvasOf().image;
  return { image, origin: zoomOut ? { x: -x0 / 2, y: -y0 / 2 } : { x: -x0, y: -y0 }, boxes, cuts };
}

/**
 * Whether a frame's sprites (sorted farthest first) all sort in front of every plane, so the frame is the planes
 * alone (`compositeRoom` with no sprite: the background) with the sprites over them, and any rectangle of it can
 * be drawn on its own (`drawWindow`); else (an object on the door tile) it is drawn whole.
 */
export function overPlanes(scene: RoomScene, sprites: readonly CanvasSprite<unknown>[]): boolean {
  const lowest = scene.planes.reduce((d, p) => Math.min(d, p.depth), Number.POSITIVE_INFINITY);
  return !(sprites.length > 0 && sprites[0]!.depth > lowest);
}

/**
 * A sprite's rectangle in the picture drawn over `box` (at size 32 it may be a pixel larger than drawn: the
 * half-scale corners rounded outwards), to find the sprites a window needs.
 */
export function pictureRect(scene: RoomScene, box: Box, r: Box): Box {
  if (!scene.zoomOut) return { x0: r.x0 - box.x0, y0: r.y0 - box.y0, x1: r.x1 - box.x0, y1: r.y1 - box.y0 };
  return {
    x0: Math.floor((r.x0 - box.x0) / 2),
    y0: Math.floor((r.y0 - box.y0) / 2),
    x1: Math.ceil((r.x1 - box.x0) / 2),
    y1: Math.ceil((r.y1 - box.y0) / 2),
  };
}

/**
 * The rectangle `win` (picture pixels) of the frame `compositeRoom(scene, sprites, { box, background })` draws,
 * for sprites that all sort over the planes (`overPlanes`): the background's pixels there with every sprite
 * that reaches into it drawn over them in order, clipped. Every pixel is the one the whole frame has: each
 * sprite is placed as on the whole frame (the same half-scale image at size 32) and a pixel's blend reads only
 * that pixel.
 */
export function drawWindow(
  scene: RoomScene,
  sprites: readonly CanvasSprite<unknown>[],
  box: Box,
  background: RgbaImage,
  win: Box,
): RgbaImage {
  const w = win.x1 - win.x0;
  const h = win.y1 - win.y0;
  const out = createImage(w, h);
  const row = w * 4;
  for (let y = 0; y < h; y++) {
    const at = ((win.y0 + y) * background.width + win.x0) * 4;
    out.data.set(background.data.subarray(at, at + row), y * row);
  }
  for (const d of sprites) {
    const r = pictureRect(scene, box, {
      x0: d.left,
      y0: d.top,
      x1: d.left + d.image.width,
      y1: d.top + d.image.height,
    });
    if (r.x1 <= win.x0 || r.x0 >= win.x1 || r.y1 <= win.y0 || r.y0 >= win.y1) continue;
    placeSprite(out, d, box.x0, box.y0, scene.zoomOut, win);
  }
  return out;
}

/**
 * Draws one sprite on `target`, the picture whose top-left is (x0, y0) of the size-64 screen, or (`win`) the
 * window of it at that place: the sprite is placed (and at size 32 scaled) as on the whole picture.
 */
function placeSprite(
  target: RgbaImage,
  d: CanvasSprite<unknown>,
  x0: number,
  y0: number,
  zoomOut: boolean,
  win?: Box,
): { image: RgbaImage; left: number; top: number } {
  const shown = zoomOut
    ? atHalfScale(d.image, d.left - x0, d.top - y0, !!d.flipH)
    : { image: d.image, left: d.left - x0, top: d.top - y0, flipH: !!d.flipH };
  const dx = win ? win.x0 : 0;
  const dy = win ? win.y0 : 0;
  // On a window, shifted by its place: a pixel's blend reads only that pixel, so the window's pixels are the
  // whole picture's.
  drawSprite(target, shown.image, shown.left - dx, shown.top - dy, {
    ...(d.alpha !== undefined ? { alpha: d.alpha } : {}),
    ...(shown.flipH ? { flipH: true } : {}),
    ...(d.tint !== undefined && d.tint !== 0xffffff ? { tint: d.tint } : {}),
    ...(d.ink ? { ink: roomBlend(d.ink) } : {}),
  });
  return shown;
}

/** Draws one sprite on the picture whose top-left is (x0, y0) of the size-64 screen, and grows its object's box. */
function drawOne<O>(
  target: RgbaImage,
  d: CanvasSprite<O>,
  x0: number,
  y0: number,
  zoomOut: boolean,
  boxes: Map<O, Box>,
): void {
  const shown = placeSprite(target, d, x0, y0, zoomOut);
  if (d.shadow) return;
  const b = boxes.get(d.owner);
  const l = shown.left;
  const t = shown.top;
  const r = l + shown.image.width;
  const btm = t + shown.image.height;
  if (!b) boxes.set(d.owner, { x0: l, y0: t, x1: r, y1: btm });
  else {
    b.x0 = Math.min(b.x0, l);
    b.y0 = Math.min(b.y0, t);
    b.x1 = Math.max(b.x1, r);
    b.y1 = Math.max(b.y1, btm);
  }
}

/**
 * The room's planes at half scale: the pixel at every even row and column. PixiJS (nearest sampling, as Nitro
 * sets it) samples a half-scale sprite at the centre of each screen pixel; the room's plane sprites start on
 * even pixels, so the centre falls on each pair's first texel.
 */
function evenPixels(src: RgbaImage): RgbaImage {
  const out = createImage(Math.ceil(src.width / 2), Math.ceil(src.height / 2));
  const s32 = new Uint32Array(src.data.buffer, src.data.byteOffset, src.width * src.height);
  const d32 = new Uint32Array(out.data.buffer, out.data.byteOffset, out.width * out.height);
  for (let y = 0; y < out.height; y++)
    for (let x = 0; x < out.width; x++) d32[y * out.width + x] = s32[2 * y * src.width + 2 * x]!;
  return out;
}

const halfScaled = new WeakMap<RgbaImage, Map<string, RgbaImage>>();

/**
 * A sprite placed at (left, top) on the 64 picture as the zoomed-out client shows it (docs/rooms.md,
 * "size 32", which says how it was checked against the client): PixiJS rounds the
 * half-scale corners to whole pixels (ROUND_PIXELS, which Nitro sets) and fills them by nearest sampling at
 * each pixel's centre, mirrored in the sampling when the sprite is; made once per image and parity.
 */
function atHalfScale(
  image: RgbaImage,
  left: number,
  top: number,
  flipH: boolean,
): { image: RgbaImage; left: number; top: number; flipH: false } {
  const l = Math.floor(left / 2 + 0.5);
  const t = Math.floor(top / 2 + 0.5);
  const w = Math.floor((left + image.width) / 2 + 0.5) - l;
  const h = Math.floor((top + image.height) / 2 + 0.5) - t;
  const key = `${left & 1}${top & 1}${flipH ? 1 : 0}`;
  let byKey = halfScaled.get(image);
  if (!byKey) halfScaled.set(image, (byKey = new Map()));
  let out = byKey.get(key);
  if (!out) {
    out = createImage(Math.max(0, w), Math.max(0, h));
    const s32 = new Uint32Array(image.data.buffer, image.data.byteOffset, image.width * image.height);
    const d32 = new Uint32Array(out.data.buffer, out.data.byteOffset, out.width * out.height);
    for (let y = 0; y < out.height; y++) {
      const sy = Math.min(image.height - 1, Math.floor(((y + 0.5) * image.height) / h));
      for (let x = 0; x < out.width; x++) {
        const u = Math.min(image.width - 1, Math.floor(((x + 0.5) * image.width) / w));
        d32[y * out.width + x] = s32[sy * image.width + (flipH ? image.width - 1 - u : u)]!;
      }
    }
    byKey.set(key, out);
  }
  return { image: out, left: l, top: t, flipH: false };
}
