// A room drawn as the client draws it: planes (walls, masks, floor, with the floor holes' tiles cut away), then
// every object sprite sorted by the client's depth (RoomSpriteCanvas: depth of the object's location + the
// sprite's relative depth, farthest first; of equal depths the object added later (floor items, then wall
// items, then bots, each in row order) is drawn first); an object on the door tile sorts among the planes,
// behind the walls (RoomGeometry's door displacement). The picture is sized to what is drawn and transparent
// elsewhere; the same inputs give the same bytes.
import { type AvatarRequest, renderAvatar } from '../avatar/index.js';
import { UPRIGHT_H } from '../avatar/canvas.js';
import { parseAction } from '../avatar/request.js';
import { type FurniModel, type SizeDef, sizeOf } from '../furni/model.js';
import { type RoomSprite, roomSprites, validDirection } from '../furni/render.js';
import { roomItemPeriod } from '../furni/animation.js';
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
import { type RoomData, type RoomItem } from './model.js';
import {
  avatarFrameUpdates,
  type LoopCut,
  MAX_ANIMATED_SPRITE_DRAWS,
  MAX_ANIMATED_PIXELS,
  mergeIdenticalFrames,
  type RoomLoop,
  type RoomMotion,
  roomLoop,
} from './motion.js';
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
  /**
   * The room as it moves from `tick` on: every object at each client update of one loop (motion.ts), the
   * frames in `RoomPicture.motion`; the picture itself (and the report) is the first frame, the still at `tick`.
   */
  animated?: boolean;
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
  /**
   * An animated room's loop (motion.ts): the objects' common period in updates (null: one never repeats), the
   * updates drawn, why fewer (the 5 s cap, the pixel or sprite budget) or null, and its frames' updates.
   */
  motion?: { period: number | null; updates: number; cut: LoopCut | null; frames: number; updatesPerFrame: number[] };
}

export interface RoomPicture {
  width: number;
  height: number;
  /** straight (not premultiplied) RGBA, row-major, transparent outside the room */
  rgba: Buffer;
  report: RoomReport;
  /** The room as it moves (RoomRenderOptions.animated), when it does: the loop's frames and their updates. */
  motion?: RoomMotion;
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
  // Every drawn object in the order added, with its sprites at any later update (animated rooms).
  const movers: Mover[] = [];
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
      movers.push(o);
      for (const sp of o.sprites) add(sp);
    }
    for (const it of items.filter((i) => i.kind === 'wall')) {
      const o = await wallItem(a, it, scale, tick, seq++, report, shape.wallTop, walls, masks, map, door);
      if (!o) continue;
      objects.push(o.object);
      movers.push(o);
      for (const sp of o.sprites) add(sp);
    }
  }
  if (options.bots && a.avatarHotel) {
    for (const bot of room.bots) {
      if (!onMap(map, bot.x, bot.y, bot.z)) {
        report.skipped.push({ id: bot.id, kind: 'bot', classname: bot.name, reason: OFF_MAP });
        continue;
      }
      const req: AvatarRequest = {
        figure: bot.figure,
        direction: ((bot.rot % 8) + 8) % 8,
        headDirection: ((bot.rot % 8) + 8) % 8,
        size: 'm',
        // A bot's dance comes from its row, not a request: the one action it can have.
        action: parseAction(bot.dance > 0 && bot.dance <= 4 ? `dance.${bot.dance}` : 'std'),
        gesture: '',
        headOnly: false,
        // An animated room draws the bot's whole loop (its dance, its effect); a still the first frame.
        animated: !!options.animated,
        frames: options.animated ? 0 : 1,
        ...(bot.effect > 0 ? { effect: bot.effect } : {}),
        ...(bot.dance > 0 && bot.dance <= 4 ? { dance: bot.dance } : {}),
      };
      try {
        const r = await renderAvatar(a.avatarHotel, req);
        const img = r.frames[0]!;
        const at = project(scale, bot.x, bot.y, bot.z);
        const sx = Math.round(at.x);
        const sy = Math.round(at.y);
        // AvatarVisualization: centred on the tile.
        const object: RoomObject = {
          depth: depthOf(bot.x, bot.y, bot.z, sx) + doorDisplacement(door, bot.x, bot.y, bot.z),
          seq: seq++,
          item: {
            id: bot.id,
            kind: 'bot',
            classname: bot.name,
            tile: { x: bot.x, y: bot.y, z: bot.z },
            direction: req.direction,
            state: 0,
            layers: r.layers.filter((l) => l.frame === 0).map((l) => `${l.library}:${l.asset}`),
            depth: 0,
          },
        };
        objects.push(object);
        const sprite = (image: RgbaImage): ObjectSprite => ({
          image,
          left: sx - Math.floor(image.width / 2),
          // AvatarVisualization hangs the client's avatar canvas (90 × 130 at scale 64) a quarter scale below the
          // tile point with its feet 16 px above its bottom: the feet land on the tile's screen point. Ours
          // stand at UPRIGHT_H.ry of the imager's picture (half of it at size 32).
          top: sy - (UPRIGHT_H.ry * scale) / 64,
          relativeDepth: -0.01,
          owner: object,
        });
        const first = sprite(img);
        // The avatar's loop at its own clock (each frame its delay in updates), from the room's first frame.
        const lasts = r.frames.map((_, k) => avatarFrameUpdates(r.delays[k]!));
        const period = lasts.reduce((n, u) => n + u, 0);
        movers.push({
          object,
          sprites: [first],
          period: r.frames.length > 1 ? period : 1,
          at: (update) => {
            let u = update % period;
            let k = 0;
            while (u >= lasts[k]!) u -= lasts[k++]!;
            return [k === 0 ? first : sprite(r.frames[k]!)];
          },
        });
        add(first);
      } catch (e) {
        report.skipped.push({ id: bot.id, kind: 'bot', classname: bot.name, reason: (e as Error).message });
      }
    }
  } else if (options.bots)
    for (const bot of room.bots)
      report.skipped.push({ id: bot.id, kind: 'bot', classname: bot.name, reason: 'no avatar hotel loaded' });

  // The room as it moves: every object at each update of one loop, a new frame wherever a sprite changed.
  const frameLists: Drawable[][] = [drawables];
  const frameUpdates: number[] = [1];
  const loop: RoomLoop | null = options.animated ? roomLoop(movers.map((m) => m.period)) : null;
  if (loop) {
    let shown = movers.map((m) => m.sprites);
    let draws = drawables.length;
    for (let u = 1; u < loop.updates; u++) {
      const now = movers.map((m, i) => (m.period === 1 ? shown[i]! : m.at(u)));
      if (now.every((list, i) => sameSprites(list, shown[i]!))) {
        frameUpdates[frameUpdates.length - 1]!++;
        continue;
      }
      const list = placedSprites(now);
      if (draws + list.length > MAX_ANIMATED_SPRITE_DRAWS) {
        loop.cut = 'sprites';
        break;
      }
      draws += list.length;
      frameLists.push(list);
      frameUpdates.push(1);
      shown = now;
    }
  }

  // The picture's extent: every plane corner and every drawn image (of every frame: one size for the loop).
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
  const extent = () => {
    x0 = y0 = Infinity;
    x1 = y1 = -Infinity;
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
    for (const list of frameLists)
      for (const d of list) grow(d.left, d.top, d.left + d.image.width, d.top + d.image.height);
    if (!Number.isFinite(x0)) {
      x0 = y0 = 0;
      x1 = y1 = 1;
    }
    if (zoomOut) {
      // The half-scale picture starts on an even pixel of the 64 one, so the room origin stays on whole pixels.
      x0 = Math.floor(x0 / 2) * 2;
      y0 = Math.floor(y0 / 2) * 2;
    }
  };
  extent();
  if (loop && frameLists.length > 1) {
    // MAX_ANIMATED_PIXELS: the frames kept together; the loop ends after the last that fits, a room where two
    // do not fit is its still.
    const pixels = (zoomOut ? Math.ceil((x1 - x0) / 2) * Math.ceil((y1 - y0) / 2) : (x1 - x0) * (y1 - y0)) || 1;
    const fit = Math.floor(MAX_ANIMATED_PIXELS / pixels);
    if (frameLists.length > fit) {
      loop.cut = 'pixels';
      const keep = Math.max(1, fit < 2 ? 1 : fit);
      frameLists.splice(keep);
      frameUpdates.splice(keep);
      extent();
    }
  }
  const width = x1 - x0;
  const height = y1 - y0;
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
  const lowestPlane = shape.planes.reduce((d, p) => Math.min(d, p.depth), Number.POSITIVE_INFINITY);
  /**
   * One frame: its sprites sorted and drawn among the planes. With `background` (the planes alone, drawn once)
   * a frame whose sprites all sort in front of every plane starts from a copy of it instead of drawing them.
   */
  const compose = (list: Drawable[], background?: RgbaImage) => {
    const cuts = masks.map(() => 0);
    // RoomSpriteCanvas: every sprite by its depth, farthest first, the room's planes among them (each plane with
    // the masks on it: planes.ts, draw-planes.ts). Only a sprite sorted 2000 tiles back (the door tile's
    // displacement) goes behind planes: it is drawn between the door's floor and the rest of the room.
    list.sort((p, q) => q.depth - p.depth);
    const reuse = background !== undefined && !(list.length > 0 && list[0]!.depth > lowestPlane);
    let target: RgbaImage | null = reuse
      ? { width: background.width, height: background.height, data: Uint8Array.from(background.data) }
      : null;
    let planeCanvas: PlaneCanvas | null = null;
    const canvasOf = (): PlaneCanvas =>
      (planeCanvas ??= {
        image: createImage(width, height),
        originX: -x0,
        originY: -y0,
        scale,
        wallOwner: new Uint16Array(width * height),
        floorDepth: new Float32Array(width * height).fill(Number.NEGATIVE_INFINITY),
      });
    if (!reuse && !zoomOut) target = canvasOf().image;
    let group: RoomPlane[] = [];
    const drawPlanes = () => {
      if (group.length === 0) return;
      const canvas = canvasOf();
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
      if (!target) target = evenPixels(canvasOf().image);
      for (; next < list.length && list[next]!.depth > until; next++) {
        const d = list[next]!;
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
    for (const p of reuse ? [] : shape.planes) {
      if (next < list.length && list[next]!.depth > p.depth) drawObjects(p.depth);
      group.push(p);
    }
    drawObjects(Number.NEGATIVE_INFINITY);
    const picture: RgbaImage = target ?? canvasOf().image;
    return { picture, boxes, cuts };
  };
  const { picture, boxes, cuts } = compose(drawables);
  masks.forEach((m, i) => report.masks.push({ id: m.id, pixelsCut: cuts[i]! }));
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
  const bytes = (image: RgbaImage) => Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length);
  const rgba = bytes(picture);
  const out: RoomPicture = { width: picture.width, height: picture.height, rgba, report };
  if (loop) {
    // The planes alone, drawn once, under every later frame that does not sort a sprite among them.
    let background: RgbaImage | undefined;
    const frames = [rgba];
    for (const list of frameLists.slice(1)) {
      background ??= compose([]).picture;
      frames.push(bytes(compose(list, background).picture));
    }
    const merged = mergeIdenticalFrames(frames, frameUpdates);
    const updates = merged.updates.reduce((n, u) => n + u, 0);
    report.motion = {
      period: loop.period,
      updates,
      cut: loop.cut,
      frames: merged.frames.length,
      updatesPerFrame: merged.updates,
    };
    if (merged.frames.length > 1) out.motion = merged;
  }
  return out;
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

/** A drawn object with its sprites at the room's first frame and at any later update of an animated room. */
interface Mover {
  object: RoomObject;
  sprites: ObjectSprite[];
  /** Updates after which its sprites repeat (1: it stands still; null: it never repeats). */
  period: number | null;
  /** Its sprites `update` updates after the first frame. */
  at: (update: number) => ObjectSprite[];
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
      p.relativeDepth === q.relativeDepth
    );
  });
}

/** The objects' sprites as the canvas sorts them: depth + relative depth + 3.7e-11 per sprite added before. */
function placedSprites(lists: readonly ObjectSprite[][]): Drawable[] {
  const out: Drawable[] = [];
  let count = 0;
  for (const list of lists)
    for (const d of list) {
      const { relativeDepth, ...rest } = d;
      out.push({ ...rest, depth: d.owner.depth + relativeDepth + 3.7e-11 * count++ });
    }
  return out;
}

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

/** An item as a Mover: its sprites at later updates of its state's animation, repeating every period. */
function mover(
  m: ItemModel,
  state: number,
  direction: number,
  tick: ItemTick,
  sx: number,
  sy: number,
  object: RoomObject,
  first: ItemSprite[],
): Mover {
  const owned = (list: ItemSprite[]) => list.map((sp) => ({ ...sp, owner: object }));
  return {
    object,
    sprites: owned(first),
    period: roomItemPeriod(m.model, m.size, { state, direction, held: tick.held }),
    at: (update) =>
      owned(itemSprites(m, state, direction, { ...tick, tick: tick.tick + update }, sx, sy)?.sprites ?? []),
  };
}

async function floorItem(
  a: LoadedRoomAssets,
  it: RoomItem,
  scale: RoomScale,
  tick: ItemTick,
  seq: number,
  report: RoomReport,
  door: Door | null,
): Promise<Mover | null> {
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
  return mover(m, state, direction, tick, sx, sy, object, c.sprites);
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
): Promise<Mover | null> {
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
  return mover(m, state, direction, tick, sx, sy, object, c.sprites);
}

export type { Heightmap };
