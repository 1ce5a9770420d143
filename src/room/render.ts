// A room drawn as the client draws it: planes (walls, masks, floor, with the floor holes' tiles cut away), then
// every object sprite sorted by the client's depth (RoomSpriteCanvas: depth of the object's location + the
// sprite's relative depth, farthest first; of equal depths the object added later (floor items, then wall
// items, then bots, each in row order) is drawn first); an object on the door tile sorts among the planes,
// behind the walls (RoomGeometry's door displacement). Each kind of object is a file of objects/ (its plan
// and its sprites at a tick); this file collects them, sorts their sprites and composites them with the
// planes (composite.ts). The picture is sized to what is drawn and transparent elsewhere; the same inputs
// give the same bytes.
import { drawnClassname } from '../furni/bundles.js';
import { type LoadedRoomAssets, loaded, type RoomAssets } from './assets.js';
import { type Box, type CanvasSprite, compositeRoom } from './composite.js';
import { type Decorations, decorationId, UNSENT_DECORATION } from './draw-planes.js';
import { type RoomScale } from './geometry.js';
import { findDoor, parseHeightmap } from './heightmap.js';
import { splitClassname } from './items.js';
import { doorMask, type RoomMask } from './masks.js';
import { type RoomData } from './model.js';
import { avatars } from './objects/avatar.js';
import { floorHoles, floorItems } from './objects/floor-item.js';
import { type ItemTick, type ObjectContext, type ObjectKind, type RoomObject } from './objects/room-object.js';
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
}

/** Highest tick a room is drawn at (vortex-imager's cap on its room `frame`: each one costs every item). */
export const MAX_ROOM_TICK = 600;

export interface RoomPicture {
  width: number;
  height: number;
  /** straight (not premultiplied) RGBA, row-major, transparent outside the room */
  rgba: Buffer;
  report: RoomReport;
}

/** Most items drawn in one room: a room over it is drawn with the first ones and the rest listed as skipped. */
export const MAX_DRAWN_ITEMS = 5000;

/** The kinds of object, in the order the client adds them to the room (of equal depths, the later drawn first). */
const OBJECT_KINDS: readonly ObjectKind[] = [floorItems, wallItems, avatars];

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
  const pic = compositeRoom({ planes: shape.planes, masks, vis: a.visualization, deco, scale, zoomOut }, sprites);
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
  const data = pic.image.data;
  return {
    width: pic.image.width,
    height: pic.image.height,
    rgba: Buffer.from(data.buffer, data.byteOffset, data.length),
    report,
  };
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
