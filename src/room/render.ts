// A room drawn as the client draws it: planes (walls, masks, floor, with the floor holes' tiles cut away), then
// every object sprite sorted by the client's depth (RoomSpriteCanvas: depth of the object's location + the
// sprite's relative depth, farthest first; of equal depths the object added later (floor items, then wall
// items, then bots, then pets, each in row order) is drawn first); an object on the door tile sorts among the planes,
// behind the walls (RoomGeometry's door displacement). Each kind of object is a file of objects/ (its plan
// and its sprites at a tick); this file collects them, sorts their sprites and composites them with the
// planes (composite.ts). The picture is sized to what is drawn and transparent elsewhere; the same inputs
// give the same bytes.
import { drawnClassname } from '../furni/bundles.js';
import { type LoadedRoomAssets, loaded, type RoomAssets } from './assets.js';
import {
  type Box,
  type CanvasSprite,
  compositeRoom,
  drawWindow,
  overPlanes,
  pictureRect,
  roomExtent,
  type RoomScene,
} from './composite.js';
import { type Decorations, decorationId, UNSENT_DECORATION } from './draw-planes.js';
import { type RoomScale } from './geometry.js';
import { findDoor, parseHeightmap } from './heightmap.js';
import { splitClassname } from './items.js';
import { doorMask, type RoomMask } from './masks.js';
import { type RoomData } from './model.js';
import {
  type FrameRect,
  MAX_ANIMATED_PIXELS,
  MAX_ANIMATED_SPRITE_DRAWS,
  type RoomLoop,
  type RoomMotion,
  roomLoop,
} from './motion.js';
import { avatars } from './objects/avatar.js';
import { floorHoles, floorItems } from './objects/floor-item.js';
import {
  type ItemTick,
  type ObjectContext,
  type ObjectKind,
  type ObjectSprite,
  type RoomObject,
} from './objects/room-object.js';
import { type RgbaImage } from '../imaging/image.js';
import { pets } from './objects/pet.js';
import { wallItems } from './objects/wall-item.js';
import { roomShape, type RoomPlane, thicknessMultiplier } from './planes.js';
import { type ReportItem, type ReportMask, type ReportPlane, type RoomReport, type SkippedObject } from './report.js';

export interface RoomRenderOptions {
  size: 32 | 64;
  walls: boolean;
  furni: boolean;
  bots: boolean;
  /** decoration id overrides (`floor=`, `wall=`, `landscape=` query parameters); undefined = the room's own */
  floor?: string;
  wall?: string;
  landscape?: string;
  /**
   * Tick of every item's state animation (vortex-imager's room `frame`, at most MAX_ROOM_TICK); absent or 0:
   * the first, the client's resting frame.
   */
  tick?: number;
  /**
   * false: a layer that plays once shows the frame of update ROOM_FIRST_UPDATE + tick while it still plays,
   * the picture the room-reference tool captures, not the last frame the client then holds (default true).
   */
  heldFrames?: boolean;
  /**
   * The room as it moves from `tick` on: every object at each client update of one loop (motion.ts), the
   * frames in `RoomPicture.motion`; the picture itself (and the report) is the first frame, the still at `tick`.
   */
  animated?: boolean;
}

/** Highest tick a room is drawn at (vortex-imager's cap on its room `frame`: each one costs every item). */
export const MAX_ROOM_TICK = 600;

export interface RoomPicture {
  width: number;
  height: number;
  /** straight (not premultiplied) RGBA, row-major, transparent outside the room */
  rgba: Buffer;
  report: RoomReport;
  /** The room as it moves (RoomRenderOptions.animated), when it does: the loop's frames and their updates. */
  motion?: RoomMotion;
}

/** Most items drawn in one room: a room over it is drawn with the first ones and the rest listed as skipped. */
export const MAX_DRAWN_ITEMS = 5000;

/** The kinds of object, in the order the client adds them to the room (of equal depths, the later drawn first). */
const OBJECT_KINDS: readonly ObjectKind[] = [floorItems, wallItems, avatars, pets];

/** An object the room draws: with the assets its sprites draw at the tick, and its place in the adding order. */
interface DrawnObject {
  object: RoomObject;
  layers: string[];
  seq: number;
}

export async function renderRoom(room: RoomData, assets: RoomAssets, options: RoomRenderOptions): Promise<RoomPicture> {
  const a = loaded(assets);
  // Size 32 is Nitro's zoomed-out room (nitro-react: RoomEngine.setRoomInstanceRenderingCanvasScale 0.5): the
  // size-64 room with every sprite shown at half scale, not a geometry-32 room (Nitro bundles carry 64 art only).
  const scale: RoomScale = 64;
  // The map as Arcturus sends it (RoomLayout.getRelativeMap): a door tile stored as `x` is no tile.
  const map = parseHeightmap(room.heightmap);
  const door = findDoor(map, room.door.x, room.door.y);
  const walls = options.walls && !room.hideWalls;
  const items = options.furni ? room.items.slice(0, MAX_DRAWN_ITEMS) : [];
  // Every bundle the room needs, read at once (the cache keeps each read to one).
  await Promise.all([...new Set(items.map((i) => splitClassname(drawnClassname(i)).base))].map((b) => a.furni(b)));
  const shape = roomShape(map, {
    door,
    wallHeight: room.wallHeight,
    wallThickness: thicknessMultiplier(room.wallThickness),
    floorThickness: thicknessMultiplier(room.floorThickness),
    walls,
    holes: await floorHoles(a, items, map),
  });
  const deco = decorations(a, room, options);
  const skipped: SkippedObject[] = [];
  if (options.furni)
    for (const it of room.items.slice(MAX_DRAWN_ITEMS))
      skipped.push({ id: it.id, kind: it.kind, classname: it.classname, reason: 'over the items drawn' });
  const masks: RoomMask[] = [];
  const hole = door && walls ? doorMask(a, door, scale) : null;
  if (hole) masks.push(hole);
  const maskNotes: ReportMask[] = [];
  const ctx: ObjectContext = {
    assets: a,
    scale,
    map,
    door,
    wallTop: shape.wallTop,
    walls,
    items,
    bots: options.bots ? room.bots : [],
    pets: options.bots ? room.pets : [],
    ...(options.animated ? { animated: true } : {}),
    skip: (row) => skipped.push(row),
  };
  const tick: ItemTick = {
    tick: Math.max(0, Math.min(MAX_ROOM_TICK, Math.trunc(options.tick ?? 0))),
    held: options.heldFrames ?? true,
  };
  const { drawn, sprites } = await collectObjects(ctx, tick, masks, maskNotes);
  // RoomSpriteCanvas: every sprite by its depth, farthest first; composite.ts draws the planes among them.
  sprites.sort((p, q) => q.depth - p.depth);
  const zoomOut = options.size === 32;
  const scene: RoomScene = { planes: shape.planes, masks, vis: a.visualization, deco, scale, zoomOut };
  const loop = options.animated ? roomLoop(drawn.map((d) => (d.object.period ? d.object.period(tick) : 1))) : null;
  const moving = loop ? frameSprites(drawn, tick, sprites, loop) : null;
  let box = moving ? roomExtent(scene, moving.lists) : undefined;
  // A moving room: the planes alone over its extent (the background every frame is drawn on), and frame 0 on it
  // when its sprites all sort over the planes (the masks' cuts are the background's: the same planes drawn).
  const first = (over: Box) => {
    const planes = compositeRoom(scene, [], { box: over });
    if (motionDrawing.whole || !overPlanes(scene, sprites))
      return { pic: compositeRoom(scene, sprites, { box: over }), background: planes.image };
    return {
      pic: { ...compositeRoom(scene, sprites, { box: over, background: planes.image }), cuts: planes.cuts },
      background: planes.image,
    };
  };
  let drawnFirst = box ? first(box) : { pic: compositeRoom(scene, sprites), background: undefined };
  let pic = drawnFirst.pic;
  let motion: RoomMotion | undefined;
  if (moving && loop && box && drawnFirst.background) {
    let drawnMotion = drawMotion(scene, box, pic.image, drawnFirst.background, moving);
    if (drawnMotion.lists < moving.lists.length) {
      // MAX_ANIMATED_PIXELS: the loop ends after the last frame that fits (a room where two do not fit is its
      // still), and the picture is the extent of the frames kept.
      loop.cut = 'pixels';
      moving.lists.splice(drawnMotion.lists);
      moving.updates.splice(drawnMotion.lists);
      moving.dirty.splice(drawnMotion.lists);
      const kept = roomExtent(scene, moving.lists);
      if (kept.x0 !== box.x0 || kept.y0 !== box.y0 || kept.x1 !== box.x1 || kept.y1 !== box.y1) {
        box = kept;
        drawnFirst = first(box);
        pic = drawnFirst.pic;
        drawnMotion = drawMotion(scene, box, pic.image, drawnFirst.background!, moving);
      }
    }
    motion = drawnMotion.motion;
  }
  const report: RoomReport = {
    size: zoomOut ? 32 : 64,
    origin: pic.origin,
    heightmap: { width: map.width, height: map.height, tiles: shape.tiles },
    door: door && { x: door.x, y: door.y, z: door.z, wall: door.wall === 90 ? 'l' : 'r' },
    wallTop: shape.wallTop,
    decorations: deco,
    planes: summarizePlanes(shape.planes),
    masks: [...maskNotes, ...masks.map((m, i) => ({ id: m.id, pixelsCut: pic.cuts[i]! }))],
    items: reportItems(drawn, pic.boxes),
    skipped,
  };
  const bytes = (image: RgbaImage) => Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length);
  const rgba = bytes(pic.image);
  const out: RoomPicture = { width: pic.image.width, height: pic.image.height, rgba, report };
  if (motion && loop) {
    report.motion = {
      period: loop.period,
      updates: motion.updates.reduce((n, u) => n + u, 0),
      cut: loop.cut,
      frames: motion.frames.length,
      updatesPerFrame: motion.updates,
    };
    if (motion.frames.length > 1)
      out.motion = { ...motion, frames: [{ ...motion.frames[0]!, data: rgba }, ...motion.frames.slice(1)] };
  }
  return out;
}

/**
 * For tests: `whole` draws every frame of a moving room whole (the planes' background and all its sprites) instead
 * of its dirty rectangles, the reference the rectangles must match byte for byte.
 */
export const motionDrawing = { whole: false };

/**
 * The frames of an animated room (frame 0 drawn: `first`) as they are kept: each later one redrawn only where
 * it can differ from the one before (its dirty rectangles: every changed object's sprites before and after,
 * merged where they overlap; each the planes drawn once with every sprite reaching into it, `drawWindow`; a
 * frame that sorts a sprite among the planes is drawn whole), then kept as the rectangle of pixels that
 * differ; a frame equal to the one before shows an update longer. Stops before the frame whose rectangle
 * would take the kept pixels past MAX_ANIMATED_PIXELS: `lists` is how many sprite lists were used.
 */
function drawMotion(
  scene: RoomScene,
  box: Box,
  first: RgbaImage,
  background: RgbaImage,
  moving: { lists: CanvasSprite<DrawnObject>[][]; updates: number[]; dirty: Box[][] },
): { motion: RoomMotion; lists: number } {
  const { width, height } = first;
  const canvas = Uint8Array.from(first.data);
  const frames: FrameRect[] = [{ x: 0, y: 0, width, height, data: Buffer.alloc(0) }];
  const updates = [moving.updates[0]!];
  let stored = width * height;
  for (let k = 1; k < moving.lists.length; k++) {
    const list = moving.lists[k]!;
    let changed: Box | null = null;
    if (motionDrawing.whole || !overPlanes(scene, list)) {
      const whole = compositeRoom(scene, list, { box, background }).image;
      changed = copyChanges(canvas, width, whole, { x0: 0, y0: 0, x1: width, y1: height });
    } else
      for (const win of windows(
        moving.dirty[k]!.map((b) => pictureRect(scene, box, b)),
        width,
        height,
      )) {
        const d = copyChanges(canvas, width, drawWindow(scene, list, box, background, win), win);
        if (d) changed = changed ? union(changed, d) : d;
      }
    if (!changed) {
      updates[updates.length - 1]! += moving.updates[k]!;
      continue;
    }
    const area = (changed.x1 - changed.x0) * (changed.y1 - changed.y0);
    if (stored + area > MAX_ANIMATED_PIXELS) return { motion: { frames, updates }, lists: k };
    stored += area;
    frames.push(cropFrame(canvas, width, changed));
    updates.push(moving.updates[k]!);
  }
  return { motion: { frames, updates }, lists: moving.lists.length };
}

function union(a: Box, b: Box): Box {
  return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}

/** Most windows one frame is redrawn in (each costs a pass over the frame's sprites). */
const MAX_WINDOWS = 48;

/** Rectangles clipped to the picture, overlapping ones merged into their union until none overlap. */
function windows(rects: Box[], width: number, height: number): Box[] {
  let out = rects
    .map((r) => ({
      x0: Math.max(0, r.x0),
      y0: Math.max(0, r.y0),
      x1: Math.min(width, r.x1),
      y1: Math.min(height, r.y1),
    }))
    .filter((r) => r.x1 > r.x0 && r.y1 > r.y0);
  if (out.length > 4 * MAX_WINDOWS) return [out.reduce(union)];
  for (let merged = true; merged; ) {
    merged = false;
    const next: Box[] = [];
    for (const r of out) {
      const hit = next.findIndex((q) => q.x0 < r.x1 && r.x0 < q.x1 && q.y0 < r.y1 && r.y0 < q.y1);
      if (hit < 0) next.push(r);
      else {
        next[hit] = union(next[hit]!, r);
        merged = true;
      }
    }
    out = next;
  }
  // Each window looks at every sprite of the frame: past MAX_WINDOWS (a big room with many items moving) the
  // frame is redrawn as one window, the box of them all.
  if (out.length > MAX_WINDOWS) return [out.reduce(union)];
  return out;
}

/**
 * Writes `part` (the pixels of rectangle `at`) onto the canvas; returns the bounding box of the pixels that
 * changed, or null.
 */
function copyChanges(canvas: Uint8Array, width: number, part: RgbaImage, at: Box): Box | null {
  const c32 = new Uint32Array(canvas.buffer, canvas.byteOffset, canvas.length / 4);
  const p32 = new Uint32Array(part.data.buffer, part.data.byteOffset, part.width * part.height);
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < part.height; y++) {
    const c = (at.y0 + y) * width + at.x0;
    const p = y * part.width;
    let first = -1;
    let last = -1;
    for (let x = 0; x < part.width; x++) {
      const v = p32[p + x]!;
      if (c32[c + x] === v) continue;
      c32[c + x] = v;
      if (first < 0) first = x;
      last = x;
    }
    if (first < 0) continue;
    x0 = Math.min(x0, at.x0 + first);
    x1 = Math.max(x1, at.x0 + last + 1);
    if (y0 === Infinity) y0 = at.y0 + y;
    y1 = at.y0 + y + 1;
  }
  return x1 < 0 ? null : { x0, y0, x1, y1 };
}

/** The canvas's pixels in a rectangle, as a frame. */
function cropFrame(canvas: Uint8Array, width: number, r: Box): FrameRect {
  const w = r.x1 - r.x0;
  const h = r.y1 - r.y0;
  const data = Buffer.allocUnsafe(w * h * 4);
  for (let y = 0; y < h; y++) {
    const at = ((r.y0 + y) * width + r.x0) * 4;
    data.set(canvas.subarray(at, at + w * 4), y * w * 4);
  }
  return { x: r.x0, y: r.y0, width: w, height: h, data };
}

/**
 * The sprites of every frame of an animated room's loop, sorted as the canvas sorts them: the objects drawn at
 * the first frame at each later update (an object whose period is 1 keeps its sprites), a new frame wherever a
 * sprite changed, else the frame before shows an update longer. Past MAX_ANIMATED_SPRITE_DRAWS sprites over
 * all frames the loop ends (`loop.cut`).
 */
function frameSprites(
  drawn: DrawnObject[],
  tick: ItemTick,
  first: CanvasSprite<DrawnObject>[],
  loop: RoomLoop,
): { lists: CanvasSprite<DrawnObject>[][]; updates: number[]; dirty: Box[][] } {
  const lists = [first];
  const updates = [1];
  const dirty: Box[][] = [[]];
  const periods = drawn.map((d) => (d.object.period ? d.object.period(tick) : 1));
  let shown = drawn.map((d) => d.object.frame(tick)?.sprites ?? []);
  let draws = first.length;
  for (let u = 1; u < loop.updates; u++) {
    const at: ItemTick = { ...tick, tick: tick.tick + u, since: u };
    const now = drawn.map((d, i) => (periods[i] === 1 ? shown[i]! : (d.object.frame(at)?.sprites ?? [])));
    if (now.every((list, i) => sameSprites(list, shown[i]!))) {
      updates[updates.length - 1]!++;
      continue;
    }
    const list: CanvasSprite<DrawnObject>[] = [];
    now.forEach((sprites, i) => {
      for (const { relativeDepth, ...sprite } of sprites)
        list.push({
          ...sprite,
          depth: drawn[i]!.object.depth + relativeDepth + 3.7e-11 * list.length,
          owner: drawn[i]!,
        });
    });
    if (draws + list.length > MAX_ANIMATED_SPRITE_DRAWS) {
      loop.cut = 'sprites';
      break;
    }
    draws += list.length;
    list.sort((p, q) => q.depth - p.depth);
    lists.push(list);
    updates.push(1);
    // Where this frame can differ from the one before: each changed object's sprites before and now.
    const boxes: Box[] = [];
    now.forEach((sprites, i) => {
      if (sprites === shown[i] || sameSprites(sprites, shown[i]!)) return;
      const b = spriteBox([...shown[i]!, ...sprites]);
      if (b) boxes.push(b);
    });
    dirty.push(boxes);
    shown = now;
  }
  return { lists, updates, dirty };
}

/** The size-64 screen rectangle an object's sprites cover, or null when it has none. */
function spriteBox(sprites: readonly ObjectSprite[]): Box | null {
  if (sprites.length === 0) return null;
  const b = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  for (const d of sprites) {
    b.x0 = Math.min(b.x0, d.left);
    b.y0 = Math.min(b.y0, d.top);
    b.x1 = Math.max(b.x1, d.left + d.image.width);
    b.y1 = Math.max(b.y1, d.top + d.image.height);
  }
  return b;
}

/** Whether two lists of an object's sprites draw the same (the same images at the same places, the same way). */
function sameSprites(a: readonly ObjectSprite[], b: readonly ObjectSprite[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  return a.every((p, i) => {
    const q = b[i]!;
    return (
      p.image === q.image &&
      p.left === q.left &&
      p.top === q.top &&
      p.alpha === q.alpha &&
      !!p.flipH === !!q.flipH &&
      p.tint === q.tint &&
      p.ink === q.ink &&
      !!p.shadow === !!q.shadow &&
      p.relativeDepth === q.relativeDepth
    );
  });
}

/**
 * Every object of every kind, in the client's adding order, with its sprites at the tick (each sprite's depth:
 * its object's + its relative depth + 3.7e-11 × the sprites added before it, RoomSpriteCanvas.renderObject).
 * An object with nothing visible is listed as skipped; the masks of the others go to `masks` (or, when they
 * cut nothing, to `notes`).
 */
async function collectObjects(
  ctx: ObjectContext,
  tick: ItemTick,
  masks: RoomMask[],
  notes: ReportMask[],
): Promise<{ drawn: DrawnObject[]; sprites: CanvasSprite<DrawnObject>[] }> {
  const drawn: DrawnObject[] = [];
  const sprites: CanvasSprite<DrawnObject>[] = [];
  for (const kind of OBJECT_KINDS)
    for await (const object of kind(ctx)) {
      const frame = object.frame(tick);
      if (!frame) {
        const { id, kind, classname } = object.entry;
        ctx.skip({ id, kind, classname, reason: 'nothing visible to draw' });
        continue;
      }
      if (object.mask) {
        if ('image' in object.mask) masks.push(object.mask);
        else notes.push(object.mask);
      }
      const owner: DrawnObject = { object, layers: frame.layers, seq: drawn.length };
      drawn.push(owner);
      for (const { relativeDepth, ...sprite } of frame.sprites)
        sprites.push({ ...sprite, depth: object.depth + relativeDepth + 3.7e-11 * sprites.length, owner });
    }
  return { drawn, sprites };
}

/** The report's objects: those drawn, by their depth, farthest first (on a tie the later added first). */
function reportItems(drawn: DrawnObject[], boxes: Map<DrawnObject, Box>): ReportItem[] {
  const sorted = [...drawn].sort((p, q) => q.object.depth - p.object.depth || q.seq - p.seq);
  const out: ReportItem[] = [];
  for (const o of sorted) {
    const b = boxes.get(o);
    if (!b) continue;
    out.push({
      ...o.object.entry,
      layers: o.layers,
      depth: o.object.depth,
      depthOrder: out.length,
      box: { x: b.x0, y: b.y0, width: b.x1 - b.x0, height: b.y1 - b.y0 },
    });
  }
  return out;
}

/** The decorations drawn: the options' overrides, else the room's, as the client resolves them. */
function decorations(a: LoadedRoomAssets, room: RoomData, options: RoomRenderOptions): Decorations {
  const vis = a.visualization;
  return {
    floor: decorationId(vis.doc.floor, options.floor ?? room.floor, UNSENT_DECORATION.floor),
    wall: decorationId(vis.doc.wall, options.wall ?? room.wall, UNSENT_DECORATION.wall),
    // Arcturus sends the landscape always, `0.0` too: an id the visualization lacks, so its default plane.
    landscape: decorationId(vis.doc.landscape, options.landscape ?? room.landscape, '0.0'),
  };
}

function summarizePlanes(planes: RoomPlane[]): ReportPlane[] {
  const by = new Map<string, ReportPlane>();
  for (const p of planes) {
    const key = `${p.kind}\0${p.wall ?? ''}\0${p.color}`;
    const hit = by.get(key);
    if (hit) hit.count++;
    else
      by.set(key, {
        kind: p.kind,
        ...(p.wall ? { wall: p.wall } : {}),
        color: `#${p.color.toString(16).padStart(6, '0')}`,
        count: 1,
      });
  }
  return [...by.values()];
}
