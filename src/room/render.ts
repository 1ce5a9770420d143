// A room drawn as the client draws it: planes (walls, masks, floor, with the floor holes' tiles cut away), then
// every object sprite sorted by the client's depth (RoomSpriteCanvas: depth of the object's location + the
// sprite's relative depth, farthest first; of equal depths the object added later (floor items, then wall
// items, then bots, each in row order) is drawn first); an object on the door tile sorts among the planes,
// behind the walls (RoomGeometry's door displacement). The picture is sized to what is drawn and transparent
// elsewhere; the same inputs give the same bytes.
import { type AvatarRequest, renderAvatar } from '../avatar/index.js';
import { parseAction } from '../avatar/request.js';
import { type FurniModel, type SizeDef, sizeOf } from '../furni/model.js';
import { type RoomSprite, roomSprites, validDirection } from '../furni/render.js';
import { drawSprite, type Ink } from '../imaging/composite.js';
import { createImage, type RgbaImage } from '../imaging/image.js';
import { type LoadedRoomAssets, loaded, type RoomAssets } from './assets.js';
import {
  decorationId,
  drawRoomPlanes,
  normalX,
  type PlacedMask,
  type PlaneCanvas,
  UNSENT_DECORATION,
} from './draw-planes.js';
import { depthOf, parseWallPosition, project, type RoomScale, wallLocation } from './geometry.js';
import { type Door, findDoor, type Heightmap, parseHeightmap } from './heightmap.js';
import { drawnClassname } from '../furni/bundles.js';
import { type FloorHole, floorHole, furniState, splitClassname } from './items.js';
import { type RoomBot, type RoomData, type RoomItem } from './model.js';
import { itemsUnder, type Posture, roomItemPosture, unitPosture } from './posture.js';
import { drawnDirection, unitPlacement } from './unit-placement.js';
import { doorDisplacement, roomShape, thicknessMultiplier, type RoomPlane } from './planes.js';

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

/** The animation update items are drawn at, and whether play-once layers hold their last frame. */
type ItemTick = { tick: number; held: boolean };

/** Highest tick a room is drawn at (vortex-imager's cap on its room `frame`: each one costs every item). */
export const MAX_ROOM_TICK = 600;

export interface ReportPlane {
  kind: RoomPlane['kind'];
  wall?: 'l' | 'r';
  color: string;
  count: number;
}

export interface ReportItem {
  id: number;
  kind: 'floor' | 'wall' | 'bot';
  classname: string;
  tile: { x: number; y: number; z: number };
  /** Wall items: the stored position. */
  wallPosition?: string;
  direction: number;
  state: number;
  colorId?: number;
  /** A bot's posture on a seat or bed (absent: standing) and its status height (the tile's z includes it). */
  posture?: { type: 'sit' | 'lay'; height: number };
  /** Footprint after rotation (floor items). */
  footprint?: { x: number; y: number };
  /** What was drawn, bottom to top: the furni's assets, or a bot's figure parts (`<library>:<asset>`). */
  layers: string[];
  /** 0 = drawn first (farthest). */
  depthOrder: number;
  depth: number;
  /** Where the drawn image's top-left lies in the picture, and its size. */
  box: { x: number; y: number; width: number; height: number };
}

export interface RoomReport {
  size: 32 | 64;
  /** Where room point (0, 0, 0) (the centre of tile (0, 0) at height 0) lies in the picture. */
  origin: { x: number; y: number };
  heightmap: { width: number; height: number; tiles: number };
  door: { x: number; y: number; z: number; wall: 'l' | 'r' } | null;
  wallTop: number;
  decorations: { floor: string; wall: string; landscape: string };
  planes: ReportPlane[];
  masks: { id: string; pixelsCut: number; reason?: string }[];
  items: ReportItem[];
  skipped: { id: number; kind: 'floor' | 'wall' | 'bot'; classname: string; reason: string }[];
}

export interface RoomPicture {
  width: number;
  height: number;
  /** straight (not premultiplied) RGBA, row-major, transparent outside the room */
  rgba: Buffer;
  report: RoomReport;
}

/** An object of the room (an item or a bot) as the report lists it, with the sprites drawn for it. */
interface RoomObject {
  item: Omit<ReportItem, 'depthOrder' | 'box'>;
  /** The sort depth of the object's location (RoomSpriteCanvas: before any sprite's relative depth). */
  depth: number;
  /** The order objects were added in (floor items, wall items, bots). */
  seq: number;
}

/** One sprite on the room canvas: RoomSpriteCanvas sorts these, not whole objects. */
interface Drawable {
  image: RgbaImage;
  /** Layer alpha 0-255 (a shadow's 48), mirroring, colour and blend; absent = opaque, unmirrored, plain. */
  alpha?: number;
  flipH?: boolean;
  tint?: number;
  ink?: Ink;
  /** A shadow: drawn, not part of its item's box in the report. */
  shadow?: boolean;
  /** Screen position (room origin at 0, 0) of the image's top-left. */
  left: number;
  top: number;
  /** The object's depth + the sprite's relative depth + 3.7e-11 per sprite added before it. */
  depth: number;
  owner: RoomObject;
}

/**
 * The blend the client's WebGL canvas gives an ink (SpriteUtilities.inkToBlendMode, then PixiJS's WebGL
 * blend table): ADD and SUBTRACT blend with what is drawn under them; DARKEN has no WebGL blend in PixiJS
 * and draws as NORMAL, as does every other ink (COPY).
 */
function roomBlend(ink: Ink): Ink {
  return ink === 'add' || ink === 'subtract' ? ink : 'normal';
}

/** Most items drawn in one room: a room over it is drawn with the first ones and the rest listed as skipped. */
export const MAX_DRAWN_ITEMS = 5000;
/** Heights an item or bot may stand at (the emulators stack to 40 and a few beyond); outside = skipped. */
const MIN_Z = -10;
const MAX_Z = 100;

/** Whether a room point lies over the heightmap (a tile's margin around it): rows out of it are not drawn. */
function onMap(map: Heightmap, x: number, y: number, z: number): boolean {
  return (
    Number.isFinite(x) &&
    Number.isFinite(y) &&
    Number.isFinite(z) &&
    x >= -1 &&
    y >= -1 &&
    x <= map.width &&
    y <= map.height &&
    z >= MIN_Z &&
    z <= MAX_Z
  );
}

const OFF_MAP = 'its position lies outside the room (off the heightmap or beyond the heights drawn)';

export async function renderRoom(room: RoomData, assets: RoomAssets, options: RoomRenderOptions): Promise<RoomPicture> {
  const a = loaded(assets);
  // Size 32 is Nitro's zoomed-out room (nitro-react: RoomEngine.setRoomInstanceRenderingCanvasScale 0.5): the
  // size-64 room with every sprite shown at half scale, not a geometry-32 room (Nitro bundles carry 64 art only).
  const scale: RoomScale = 64;
  const zoomOut = options.size === 32;
  // The map as Arcturus sends it (RoomLayout.getRelativeMap): a door tile stored as `x` is no tile.
  const map = parseHeightmap(room.heightmap);
  const door = findDoor(map, room.door.x, room.door.y);
  const walls = options.walls && !room.hideWalls;
  const items = options.furni ? room.items.slice(0, MAX_DRAWN_ITEMS) : [];
  // Every bundle the room needs, read at once (the cache keeps each read to one).
  await Promise.all([...new Set(items.map((i) => splitClassname(drawnClassname(i)).base))].map((b) => a.furni(b)));
  const holes = await floorHoles(a, items, map);
  const shape = roomShape(map, {
    door,
    wallHeight: room.wallHeight,
    wallThickness: thicknessMultiplier(room.wallThickness),
    floorThickness: thicknessMultiplier(room.floorThickness),
    walls,
    holes,
  });
  const vis = a.visualization;
  const deco = {
    floor: decorationId(vis.doc.floor, options.floor ?? room.floor, UNSENT_DECORATION.floor),
    wall: decorationId(vis.doc.wall, options.wall ?? room.wall, UNSENT_DECORATION.wall),
    // Arcturus sends the landscape always, `0.0` too: an id the visualization lacks, so its default plane.
    landscape: decorationId(vis.doc.landscape, options.landscape ?? room.landscape, '0.0'),
  };
  const report: RoomReport = {
    size: zoomOut ? 32 : 64,
    origin: { x: 0, y: 0 },
    heightmap: { width: map.width, height: map.height, tiles: shape.tiles },
    door: door && { x: door.x, y: door.y, z: door.z, wall: door.wall === 90 ? 'l' : 'r' },
    wallTop: shape.wallTop,
    decorations: deco,
    planes: summarizePlanes(shape.planes),
    masks: [],
    items: [],
    skipped: [],
  };

  const drawables: Drawable[] = [];
  const masks: (Omit<PlacedMask, 'left' | 'top'> & { x: number; y: number; id: string })[] = [];
  if (door && walls) {
    const m = maskBitmap(a, 'door', door.wall === 90 ? 'l' : 'r', scale);
    const point: [number, number, number] = [
      door.wall === 90 ? door.x + 0.5 : door.x,
      door.wall === 90 ? door.y : door.y + 0.5,
      door.z,
    ];
    const at = project(scale, ...point);
    if (m)
      masks.push({ ...m, kind: 'hole', id: 'door', x: Math.round(at.x) - m.ox, y: Math.round(at.y) - m.oy, at: point });
  }
  let seq = 0;
  // RoomSpriteCanvas.renderObject: each sprite's depth gets 3.7e-11 × the sprites added before it.
  let count = 0;
  const add = (d: ObjectSprite) => {
    const { relativeDepth, ...rest } = d;
    drawables.push({ ...rest, depth: d.owner.depth + relativeDepth + 3.7e-11 * count++ });
  };
  const objects: RoomObject[] = [];
  const tick: ItemTick = {
    tick: Math.max(0, Math.min(MAX_ROOM_TICK, Math.trunc(options.tick ?? 0))),
    held: options.heldFrames ?? true,
  };
  if (options.furni) {
    for (const it of room.items.slice(MAX_DRAWN_ITEMS))
      report.skipped.push({ id: it.id, kind: it.kind, classname: it.classname, reason: 'over the items drawn' });
    for (const it of items.filter((i) => i.kind === 'floor')) {
      if (!onMap(map, it.x, it.y, it.z)) {
        report.skipped.push({ id: it.id, kind: 'floor', classname: it.classname, reason: OFF_MAP });
        continue;
      }
      const o = await floorItem(a, it, scale, tick, seq++, report, door);
      if (!o) continue;
      objects.push(o.object);
      for (const sp of o.sprites) add(sp);
    }
    for (const it of items.filter((i) => i.kind === 'wall')) {
      const o = await wallItem(a, it, scale, tick, seq++, report, shape.wallTop, walls, masks, map, door);
      if (!o) continue;
      objects.push(o.object);
      for (const sp of o.sprites) add(sp);
    }
  }
  if (options.bots && a.avatarHotel) {
    const floorItems = room.items.slice(0, MAX_DRAWN_ITEMS).filter((i) => i.kind === 'floor');
    for (const bot of room.bots) {
      if (!onMap(map, bot.x, bot.y, bot.z)) {
        report.skipped.push({ id: bot.id, kind: 'bot', classname: bot.name, reason: OFF_MAP });
        continue;
      }
      // The status the emulator gives a bot on a seat or bed, and where the client then draws it (posture.ts,
      // unit-placement.ts): at (x, y, z + height), its canvas moved for the posture.
      const p = await botPosture(a, floorItems, bot);
      const direction = drawnDirection(p.posture, p.direction);
      // A seated unit stops dancing (the emulator's sit branch); a bot's dance is the one action it has standing.
      const dance = p.posture === 'std' && bot.dance > 0 && bot.dance <= 4 ? bot.dance : 0;
      const req: AvatarRequest = {
        figure: bot.figure,
        direction,
        headDirection: direction,
        size: 'm',
        action: parseAction(p.posture !== 'std' ? p.posture : dance > 0 ? `dance.${dance}` : 'std'),
        gesture: '',
        headOnly: false,
        animated: false,
        frames: 1,
        ...(bot.effect > 0 ? { effect: bot.effect } : {}),
        ...(dance > 0 ? { dance } : {}),
      };
      try {
        const r = await renderAvatar(a.avatarHotel, req);
        const img = r.frames[0]!;
        const z = p.z + p.height;
        const at = project(scale, p.x, p.y, z);
        const sx = Math.round(at.x);
        const sy = Math.round(at.y);
        const place = unitPlacement(a.avatarHotel, p.posture, direction, img.width);
        const object: RoomObject = {
          depth: depthOf(p.x, p.y, z, sx) + doorDisplacement(door, p.x, p.y, z),
          seq: seq++,
          item: {
            id: bot.id,
            kind: 'bot',
            classname: bot.name,
            tile: { x: p.x, y: p.y, z },
            direction: req.direction,
            state: 0,
            ...(p.posture !== 'std' ? { posture: { type: p.posture, height: p.height } } : {}),
            layers: r.layers.filter((l) => l.frame === 0).map((l) => `${l.library}:${l.asset}`),
            depth: 0,
          },
        };
        objects.push(object);
        add({
          image: img,
          left: sx + place.left,
          top: sy + place.top,
          relativeDepth: place.relativeDepth,
          owner: object,
        });
      } catch (e) {
        report.skipped.push({ id: bot.id, kind: 'bot', classname: bot.name, reason: (e as Error).message });
      }
    }
  } else if (options.bots)
    for (const bot of room.bots)
      report.skipped.push({ id: bot.id, kind: 'bot', classname: bot.name, reason: 'no avatar hotel loaded' });

  // The picture's extent: every plane corner and every drawn image.
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
  for (const p of shape.planes)
    for (const [da, db] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ] as const) {
      const s = project(
        scale,
        p.origin[0] + da * p.left[0] + db * p.right[0],
        p.origin[1] + da * p.left[1] + db * p.right[1],
        p.origin[2] + da * p.left[2] + db * p.right[2],
      );
      grow(Math.round(s.x), Math.round(s.y), Math.round(s.x), Math.round(s.y));
    }
  for (const d of drawables) grow(d.left, d.top, d.left + d.image.width, d.top + d.image.height);
  if (!Number.isFinite(x0)) {
    x0 = y0 = 0;
    x1 = y1 = 1;
  }
  if (zoomOut) {
    // The half-scale picture starts on an even pixel of the 64 one, so the room origin stays on whole pixels.
    x0 = Math.floor(x0 / 2) * 2;
    y0 = Math.floor(y0 / 2) * 2;
  }
  const width = x1 - x0;
  const height = y1 - y0;
  const canvas: PlaneCanvas = {
    image: createImage(width, height),
    originX: -x0,
    originY: -y0,
    scale,
    wallOwner: new Uint16Array(width * height),
    floorDepth: new Float32Array(width * height).fill(Number.NEGATIVE_INFINITY),
  };
  report.origin = { x: -x0, y: -y0 };
  const placedMasks = masks.map((m) => ({
    image: m.image,
    flipH: m.flipH,
    kind: m.kind,
    left: m.x - x0,
    top: m.y - y0,
    ox: m.ox,
    oy: m.oy,
    at: m.at,
  }));
  const cuts = masks.map(() => 0);
  // RoomSpriteCanvas: every sprite by its depth, farthest first, the room's planes among them (each plane with
  // the masks on it: planes.ts, draw-planes.ts). Only a sprite sorted 2000 tiles back (the door tile's
  // displacement) goes behind planes: it is drawn between the door's floor and the rest of the room.
  drawables.sort((p, q) => q.depth - p.depth);
  let target: RgbaImage | null = zoomOut ? null : canvas.image;
  let group: RoomPlane[] = [];
  const drawPlanes = () => {
    if (group.length === 0) return;
    // At half scale a later group is drawn on its own canvas and laid over what is drawn (the half-scale room
    // is the 64 one's even pixels, so layering commutes with taking them).
    const on = zoomOut && target ? { ...canvas, image: createImage(width, height) } : canvas;
    drawRoomPlanes(on, vis, group, deco, placedMasks).forEach((n, i) => {
      cuts[i]! += n;
    });
    if (zoomOut) {
      if (!target) target = evenPixels(canvas.image);
      else drawSprite(target, evenPixels(on.image), 0, 0);
    }
    group = [];
  };
  const boxes = new Map<RoomObject, { x0: number; y0: number; x1: number; y1: number }>();
  let next = 0;
  const drawObjects = (until: number) => {
    drawPlanes();
    if (!target) target = evenPixels(canvas.image);
    for (; next < drawables.length && drawables[next]!.depth > until; next++) {
      const d = drawables[next]!;
      const shown = zoomOut
        ? atHalfScale(d.image, d.left - x0, d.top - y0, !!d.flipH)
        : { image: d.image, left: d.left - x0, top: d.top - y0, flipH: !!d.flipH };
      drawSprite(target, shown.image, shown.left, shown.top, {
        ...(d.alpha !== undefined ? { alpha: d.alpha } : {}),
        ...(shown.flipH ? { flipH: true } : {}),
        ...(d.tint !== undefined && d.tint !== 0xffffff ? { tint: d.tint } : {}),
        ...(d.ink ? { ink: roomBlend(d.ink) } : {}),
      });
      if (d.shadow) continue;
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
  };
  for (const p of shape.planes) {
    if (next < drawables.length && drawables[next]!.depth > p.depth) drawObjects(p.depth);
    group.push(p);
  }
  drawObjects(Number.NEGATIVE_INFINITY);
  masks.forEach((m, i) => report.masks.push({ id: m.id, pixelsCut: cuts[i]! }));
  const picture = target ?? canvas.image;
  // The report lists the objects by their depth, farthest first (on a tie the later added first).
  objects.sort((p, q) => q.depth - p.depth || q.seq - p.seq);
  let order = 0;
  for (const o of objects) {
    const b = boxes.get(o);
    if (!b) continue;
    report.items.push({
      ...o.item,
      depth: o.depth,
      depthOrder: order++,
      box: { x: b.x0, y: b.y0, width: b.x1 - b.x0, height: b.y1 - b.y0 },
    });
  }
  if (zoomOut) report.origin = { x: -x0 / 2, y: -y0 / 2 };
  const data = picture.data;
  return {
    width: picture.width,
    height: picture.height,
    rgba: Buffer.from(data.buffer, data.byteOffset, data.length),
    report,
  };
}

/** A bot's posture on the floor items under it; an item without a stack height has its bundle's logic height. */
async function botPosture(a: LoadedRoomAssets, floorItems: readonly RoomItem[], bot: RoomBot): Promise<Posture> {
  const under = await Promise.all(
    itemsUnder(floorItems, bot.x, bot.y).map(async (it) => {
      if (it.stackHeight !== undefined) return roomItemPosture(it);
      const found = await a.furni(splitClassname(drawnClassname(it)).base);
      return roomItemPosture(it, found.ok ? found.model.def.dimensions.z : 0);
    }),
  );
  return unitPosture(under, bot);
}

/**
 * The floor the room's floor-hole items cut away (FurnitureFloorHoleLogic in state 0 → RoomEngine.
 * addRoomInstanceFloorHole → RoomPlaneParser.addFloorHole): each such item's root tile and logic size.
 */
async function floorHoles(a: LoadedRoomAssets, items: RoomItem[], map: Heightmap): Promise<FloorHole[]> {
  const out: FloorHole[] = [];
  for (const it of items) {
    if (it.kind !== 'floor' || !onMap(map, it.x, it.y, it.z)) continue;
    const found = await a.furni(splitClassname(drawnClassname(it)).base);
    if (!found.ok) continue;
    const def = found.model.def;
    const hole = floorHole(def.logicType, furniState(it.extraData, def.logicType), it, def.dimensions);
    if (hole) out.push(hole);
  }
  return out;
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

function maskBitmap(
  a: LoadedRoomAssets,
  id: string,
  wall: 'l' | 'r',
  scale: RoomScale,
): { image: RgbaImage; flipH: boolean; ox: number; oy: number } | null {
  const def = a.visualization.doc.masks.get(id);
  if (!def) return null;
  const nx = normalX(wall);
  const bitmap = def.sizes.get(scale)?.find((b) => nx >= b.normalMinX && nx <= b.normalMaxX);
  const asset = bitmap ? a.visualization.assets.get(bitmap.assetName) : undefined;
  if (!asset) return null;
  // A flipped alias keeps its source's x; the client anchors a flipped sprite at its right edge.
  const ox = asset.flipH ? asset.image.width - asset.x : asset.x;
  return { image: asset.image, flipH: asset.flipH, ox, oy: asset.y };
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

interface ItemModel {
  model: FurniModel;
  size: SizeDef;
  colorId?: number;
  maskType?: string;
}

async function modelFor(
  a: LoadedRoomAssets,
  it: RoomItem,
  scale: RoomScale,
  report: RoomReport,
): Promise<ItemModel | null> {
  const { base, colorId } = splitClassname(drawnClassname(it));
  const found = await a.furni(base);
  if (!found.ok) {
    report.skipped.push({ id: it.id, kind: it.kind, classname: it.classname, reason: found.reason });
    return null;
  }
  const size = sizeOf(found.model, scale);
  if (!size) {
    report.skipped.push({
      id: it.id,
      kind: it.kind,
      classname: it.classname,
      reason: `the bundle has no size-${scale} visualization`,
    });
    return null;
  }
  return {
    model: found.model,
    size,
    ...(colorId !== undefined ? { colorId } : {}),
    ...(found.maskType ? { maskType: found.maskType } : {}),
  };
}

/** A sprite placed from its object's screen point, before the room sorts it. */
type ItemSprite = Omit<Drawable, 'depth' | 'owner'> & { relativeDepth: number };
type ObjectSprite = ItemSprite & { owner: RoomObject };

/**
 * The item's sprites at its size, placed from its screen point
 * (sx, sy), with the assets they draw; null when it has none.
 */
function itemSprites(
  m: ItemModel,
  state: number,
  direction: number,
  tick: ItemTick,
  sx: number,
  sy: number,
): { sprites: ItemSprite[]; layers: string[] } | null {
  const sprites = roomSprites(m.model, m.size, { state, direction, ...tick, colorId: m.colorId ?? 0 });
  if (sprites.length === 0) return null;
  const placed = sprites.map(
    (sp: RoomSprite): ItemSprite => ({
      image: sp.image,
      left: sx + sp.left,
      top: sy + sp.top,
      alpha: sp.alpha,
      ...(sp.flipH ? { flipH: true } : {}),
      tint: sp.tint,
      ink: sp.ink,
      ...(sp.shadow ? { shadow: true } : {}),
      relativeDepth: sp.relativeDepth,
    }),
  );
  return { sprites: placed, layers: sprites.filter((sp) => !sp.shadow).map((sp) => sp.asset) };
}

async function floorItem(
  a: LoadedRoomAssets,
  it: RoomItem,
  scale: RoomScale,
  tick: ItemTick,
  seq: number,
  report: RoomReport,
  door: Door | null,
): Promise<{ object: RoomObject; sprites: ObjectSprite[] } | null> {
  const m = await modelFor(a, it, scale, report);
  if (!m) return null;
  const rot = ((Math.trunc(it.rot) % 8) + 8) % 8;
  const direction = validDirection(m.size, rot);
  const state = furniState(it.extraData, m.model.def.logicType);
  const at = project(scale, it.x, it.y, it.z);
  const sx = Math.round(at.x);
  const sy = Math.round(at.y);
  const c = itemSprites(m, state, direction, tick, sx, sy);
  if (!c) {
    report.skipped.push({ id: it.id, kind: 'floor', classname: it.classname, reason: 'nothing visible to draw' });
    return null;
  }
  const turned = rot % 4 === 2;
  const object: RoomObject = {
    depth: depthOf(it.x, it.y, it.z, sx) + doorDisplacement(door, it.x, it.y, it.z),
    seq,
    item: {
      id: it.id,
      kind: 'floor' as const,
      classname: it.classname,
      tile: { x: it.x, y: it.y, z: it.z },
      direction,
      state,
      ...(m.colorId !== undefined ? { colorId: m.colorId } : {}),
      footprint: { x: turned ? it.length : it.width, y: turned ? it.width : it.length },
      layers: c.layers,
      depth: 0,
    },
  };
  return { object, sprites: c.sprites.map((sp) => ({ ...sp, owner: object })) };
}

async function wallItem(
  a: LoadedRoomAssets,
  it: RoomItem,
  scale: RoomScale,
  tick: ItemTick,
  seq: number,
  report: RoomReport,
  wallTop: number,
  walls: boolean,
  masks: (Omit<PlacedMask, 'left' | 'top'> & { x: number; y: number; id: string })[],
  map: Heightmap,
  door: Door | null,
): Promise<{ object: RoomObject; sprites: ObjectSprite[] } | null> {
  const pos = parseWallPosition(it.wallPosition);
  const at0 = pos && wallLocation(pos, wallTop);
  if (at0 && !onMap(map, at0.x, at0.y, at0.z)) {
    report.skipped.push({ id: it.id, kind: 'wall', classname: it.classname, reason: OFF_MAP });
    return null;
  }
  if (!pos) {
    report.skipped.push({
      id: it.id,
      kind: 'wall',
      classname: it.classname,
      reason: `wall position ${JSON.stringify(it.wallPosition)} is not :w=x,y l=x,y l|r`,
    });
    return null;
  }
  const m = await modelFor(a, it, scale, report);
  if (!m) return null;
  const loc = wallLocation(pos, wallTop);
  // LegacyWallGeometry.getDirection: the left wall faces 90°, the right wall 180° (directions 2 and 4).
  const direction = validDirection(m.size, pos.side === 'l' ? 2 : 4);
  const state = furniState(it.extraData, m.model.def.logicType, 'wall');
  const at = project(scale, loc.x, loc.y, loc.z);
  const sx = Math.round(at.x);
  const sy = Math.round(at.y);
  const c = itemSprites(m, state, direction, tick, sx, sy);
  if (!c) {
    report.skipped.push({ id: it.id, kind: 'wall', classname: it.classname, reason: 'nothing visible to draw' });
    return null;
  }
  const maskType = m.maskType;
  if (walls && maskType) {
    const mb = maskBitmap(a, maskType, pos.side, scale);
    if (mb)
      masks.push({
        ...mb,
        kind: 'window',
        id: `${maskType}#${it.id}`,
        x: sx - mb.ox,
        y: sy - mb.oy,
        at: [loc.x, loc.y, loc.z],
      });
    // As in the client, a mask whose bitmap the room visualization lacks cuts nothing.
    else
      report.masks.push({
        id: `${maskType}#${it.id}`,
        pixelsCut: 0,
        reason: `no size-${scale} bitmap of mask ${maskType}`,
      });
  }
  const object: RoomObject = {
    depth: depthOf(loc.x, loc.y, loc.z, sx) + doorDisplacement(door, loc.x, loc.y, loc.z),
    seq,
    item: {
      id: it.id,
      kind: 'wall',
      classname: it.classname,
      tile: { x: loc.x, y: loc.y, z: loc.z },
      wallPosition: it.wallPosition,
      direction,
      state,
      ...(m.colorId !== undefined ? { colorId: m.colorId } : {}),
      layers: c.layers,
      depth: 0,
    },
  };
  return { object, sprites: c.sprites.map((sp) => ({ ...sp, owner: object })) };
}

export type { Heightmap };
