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
import { type Box, type CanvasSprite, compositeRoom, roomExtent, type RoomScene } from './composite.js';
import { type Decorations, decorationId, UNSENT_DECORATION } from './draw-planes.js';
import { type RoomScale } from './geometry.js';
import { findDoor, parseHeightmap } from './heightmap.js';
import { splitClassname } from './items.js';
import { doorMask, type RoomMask } from './masks.js';
import { type RoomData } from './model.js';
import {
  MAX_ANIMATED_PIXELS,
  MAX_ANIMATED_SPRITE_DRAWS,
  mergeIdenticalFrames,
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
  let box: Box | undefined;
  if (moving && loop) {
    box = roomExtent(scene, moving.lists);
    // MAX_ANIMATED_PIXELS: the frames kept together; the loop ends after the last that fits, a room where two
    // do not fit is its still.
    const w = box.x1 - box.x0;
    const h = box.y1 - box.y0;
    const fit = Math.floor(MAX_ANIMATED_PIXELS / Math.max(1, zoomOut ? Math.ceil(w / 2) * Math.ceil(h / 2) : w * h));
    if (moving.lists.length > fit) {
      loop.cut = 'pixels';
      const keep = fit < 2 ? 1 : fit;
      moving.lists.splice(keep);
      moving.updates.splice(keep);
      box = roomExtent(scene, moving.lists);
    }
  }
  const pic = compositeRoom(scene, sprites, box ? { box } : {});
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
  if (moving && loop && box) {
    // The planes alone, drawn once, under every later frame that sorts no sprite among them.
    let background: RgbaImage | undefined;
    const frames = [rgba];
    for (const list of moving.lists.slice(1)) {
      background ??= compositeRoom(scene, [], { box }).image;
      frames.push(bytes(compositeRoom(scene, list, { box, background }).image));
    }
    const merged = mergeIdenticalFrames(frames, moving.updates);
    report.motion = {
      period: loop.period,
      updates: merged.updates.reduce((n, u) => n + u, 0),
      cut: loop.cut,
      frames: merged.frames.length,
      updatesPerFrame: merged.updates,
    };
    if (merged.frames.length > 1) out.motion = merged;
  }
  return out;
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
): { lists: CanvasSprite<DrawnObject>[][]; updates: number[] } {
  const lists = [first];
  const updates = [1];
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
    shown = now;
  }
  return { lists, updates };
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
