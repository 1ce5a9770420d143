// The room's planes in room coordinates, as the client's RoomPlaneParser builds them from the heightmap:
// - the floor in quarter tiles (addTileTypes + expandFloorTiles): a tile next to one exactly one higher
//   rises towards it in three quarter steps (stairs), every other tile is flat; each quarter tile is a top
//   face with a side face where the floor drops towards the viewer (to the lower neighbour, or by the floor
//   thickness at the room's edge);
// - the walls: along the room's outline (generateWallData), one per straight stretch, from the lowest tile
//   beside it up to the wall top (wall height + the highest floor, at most 20), with the top border, the end
//   caps and the corner piece of the wall's thickness;
// - the floor holes (floor-hole items in state 0): their tiles taken out of the floor, and the walls behind
//   them out of the outline (initializeFromTileData, checkWallHiding);
// - the door tile: taken out while the walls are made (the wall runs behind it) and drawn as a flat tile.
// Each plane has the client's colour by its normal (RoomVisualization.initializeRoomPlanes).
import { type Door, type Heightmap, NO_TILE, tileHeight } from './heightmap.js';
import { DEPTH_XY, DEPTH_Z } from './geometry.js';

export type PlaneKind = 'floor' | 'wall' | 'landscape';

/** A parallelogram in room coordinates: corner + left·a + right·b for a, b in [0, 1). */
export interface RoomPlane {
  kind: PlaneKind;
  /** The client's base colour of the plane by its normal (0xRRGGBB). */
  color: number;
  origin: [number, number, number];
  left: [number, number, number];
  right: [number, number, number];
  /** Whether the plane is textured (a thin border is a plain colour: RoomPlane.hasTexture). */
  textured: boolean;
  /** Which wall a wall or landscape plane is on (for textures and masks chosen by the normal). */
  wall?: 'l' | 'r';
  /** Painter's order among the room's planes: drawn ascending (the client's sprite depth, farthest first). */
  order: number;
  /** The plane sprite's depth on the room canvas (larger = farther), to sort objects' sprites among the planes. */
  depth: number;
  /**
   * Texture offset in texels (FloorPlane: the back corner's fraction of a tile; LandscapePlane: the panorama so
   * far).
   */
  texOffset?: [number, number];
  /** The plane's random seed (RoomVisualization.initializeRoomPlanes): a landscape's random columns and items. */
  seed?: number;
}

export const FLOOR_COLOR = 0xffffff;
export const FLOOR_COLOR_LEFT = 0xdddddd;
export const FLOOR_COLOR_RIGHT = 0xbbbbbb;
export const WALL_COLOR_TOP = 0xffffff;
export const WALL_COLOR_SIDE = 0xcccccc;
export const WALL_COLOR_BORDER = 0x999999;
export const LANDSCAPE_COLOR_TOP = 0xffffff;
export const LANDSCAPE_COLOR_SIDE = 0xcccccc;

export const FLOOR_THICKNESS = 0.25;
export const WALL_THICKNESS = 0.25;
export const DEFAULT_WALL_HEIGHT = 3.6;
const MAX_WALL_ADDITIONAL_HEIGHT = 20;

export interface RoomShape {
  planes: RoomPlane[];
  /** The height of the wall top (the client's height of a tile outside the room, used by wall items). */
  wallTop: number;
  /** Tiles of the room (door included). */
  tiles: number;
}

export interface ShapeOptions {
  /** The door the room's mask is cut for (RoomMessageHandler): its tile sorts behind the walls. */
  door: Door | null;
  /** rooms.wall_height: −1 = the client's default. */
  wallHeight: number;
  /** 2^thickness, thickness clamped to −2 … 1 (RoomVisualizationSettingsParser). */
  wallThickness: number;
  floorThickness: number;
  walls: boolean;
  /** Tiles cut out of the floor by floor-hole items (RoomPlaneParser.initializeHoleMap: each item's rectangle). */
  holes?: readonly { x: number; y: number; width: number; height: number }[];
}

/** The thickness multiplier of a stored thickness (−2 … 1). */
export function thicknessMultiplier(stored: number): number {
  const t = Number.isFinite(stored) ? Math.max(-2, Math.min(1, Math.trunc(stored))) : 0;
  return 2 ** t;
}

/** Quarter-tile heights ×4 (expandFloorTiles); NO_TILE where there is no tile (or a floor hole). */
export function expandFloor(
  map: Heightmap,
  door: Door | null,
  isHole: (x: number, y: number) => boolean = () => false,
): number[][] {
  const h = (x: number, y: number) =>
    (door && door.x === x && door.y === y) || isHole(x, y) ? NO_TILE : tileHeight(map, x, y);
  const out: number[][] = [];
  for (let i = 0; i < map.height * 4; i++) out.push(new Array(map.width * 4).fill(NO_TILE));
  for (let y = 0; y < map.height; y++) {
    for (let x = 0; x < map.width; x++) {
      const base = h(x, y);
      if (base === NO_TILE) continue;
      const up = base + 1;
      const is = (dx: number, dy: number) => h(x + dx, y + dy) === up;
      // A corner rises when a neighbour touching it is one higher (addTileTypes); all four = a flat tile.
      let c8 = is(-1, -1) || is(0, -1) || is(-1, 0);
      let c4 = is(1, -1) || is(0, -1) || is(1, 0);
      let c2 = is(-1, 1) || is(0, 1) || is(-1, 0);
      let c1 = is(1, 1) || is(0, 1) || is(1, 0);
      if (c8 && c4 && c2 && c1) c8 = c4 = c2 = c1 = false;
      const b = base * 4;
      const set = (sx: number, sy: number, v: number) => {
        out[y * 4 + sy]![x * 4 + sx] = v;
      };
      if (!(c8 || c4 || c2 || c1)) {
        for (let sy = 0; sy < 4; sy++) for (let sx = 0; sx < 4; sx++) set(sx, sy, b);
        continue;
      }
      const k8 = b + (c8 ? 3 : 0);
      const k4 = b + (c4 ? 3 : 0);
      const k2 = b + (c2 ? 3 : 0);
      const k1 = b + (c1 ? 3 : 0);
      for (let i = 0; i < 3; i++) {
        const j = i + 1;
        set(i, 0, (k8 * (3 - i) + k4 * i) / 3);
        set(j, 3, (k2 * (3 - j) + k1 * j) / 3);
        set(0, j, (k8 * (3 - j) + k2 * j) / 3);
        set(3, i, (k4 * (3 - i) + k1 * i) / 3);
      }
      set(1, 1, k8 > b ? b + 2 : b + 1);
      set(2, 1, k4 > b ? b + 2 : b + 1);
      set(1, 2, k2 > b ? b + 2 : b + 1);
      set(2, 2, k1 > b ? b + 2 : b + 1);
    }
  }
  return out;
}

/** A plane's client vectors (RoomPlaneParser.addPlane): loc + a·left + b·right. */
type V3 = [number, number, number];

const add = (a: V3, b: V3): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale3 = (a: V3, k: number): V3 => [a[0] * k, a[1] * k, a[2] * k];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const len3 = (a: V3): number => Math.hypot(a[0], a[1], a[2]);

// The room camera's viewing axis (RoomGeometry direction −135°, 30°): a plane whose normal (or any secondary
// normal) does not face the camera is not drawn (RoomPlane.update: cosAngle > −0.001).
const COS30 = Math.cos(Math.PI / 6);
const VIEW_AXIS: V3 = [-Math.SQRT1_2 * COS30, -Math.SQRT1_2 * COS30, -0.5];
function facesCamera(n: V3): boolean {
  const l = len3(n);
  if (l === 0) return false;
  return (n[0] * VIEW_AXIS[0] + n[1] * VIEW_AXIS[1] + n[2] * VIEW_AXIS[2]) / l <= -0.001;
}

// Depth of a room point along the canvas's depth vector (−135°, 0.5°), as RoomGeometry.getScreenPosition's z.
const depthAt = (p: V3): number => -DEPTH_XY * (p[0] + p[1]) - DEPTH_Z * p[2];

interface RawPlane {
  kind: PlaneKind;
  loc: V3;
  left: V3;
  right: V3;
  secondary: V3[];
  wall?: 'l' | 'r';
  /** FloorPlane texture offsets in texels (initializeRoomPlanes: the back corner's fraction of a tile). */
  texOffset?: [number, number];
}

export function roomShape(map: Heightmap, o: ShapeOptions): RoomShape {
  // RoomPlaneParser.initialize takes its own door tile out of the floor and the walls (findEntranceTile: a
  // row starting left of both its neighbours); the door the room's mask is cut for (`o.door`) only sorts.
  const door = entranceTile(map);
  const isDoor = (x: number, y: number) => !!door && door.x === x && door.y === y;
  // initializeFromTileData: the floor holes become TILE_HOLE after the entrance is found (clamped to the map).
  const holeCells = new Set<number>();
  for (const h of o.holes ?? [])
    for (let y = Math.max(0, h.y); y <= Math.min(map.height - 1, h.y + h.height - 1); y++)
      for (let x = Math.max(0, h.x); x <= Math.min(map.width - 1, h.x + h.width - 1); x++)
        holeCells.add(y * map.width + x);
  const isHole = (x: number, y: number) =>
    x >= 0 && y >= 0 && x < map.width && y < map.height && holeCells.has(y * map.width + x);
  // The room without its holes (a hole counts as room: generateWallData(…, false)) and with them cut away.
  const inRoomWhole = (x: number, y: number) => (tileHeight(map, x, y) !== NO_TILE || isHole(x, y)) && !isDoor(x, y);
  const inRoom = (x: number, y: number) => tileHeight(map, x, y) !== NO_TILE && !isDoor(x, y) && !isHole(x, y);
  let maxHeight = 0;
  let tiles = 0;
  for (let y = 0; y < map.height; y++)
    for (let x = 0; x < map.width; x++) {
      if (tileHeight(map, x, y) === NO_TILE) continue;
      tiles++;
      if (inRoom(x, y)) maxHeight = Math.max(maxHeight, tileHeight(map, x, y));
    }
  const fixed = o.wallHeight >= 0 ? Math.trunc(o.wallHeight) : -1;
  const floorHeight = Math.min(MAX_WALL_ADDITIONAL_HEIGHT, fixed >= 0 ? fixed : maxHeight);
  const wallHeight = fixed >= 0 ? fixed + DEFAULT_WALL_HEIGHT : DEFAULT_WALL_HEIGHT;
  const wallTop = wallHeight + floorHeight;
  const ft = FLOOR_THICKNESS * o.floorThickness;
  const wt = WALL_THICKNESS * o.wallThickness;
  const raw: RawPlane[] = [];

  // RoomPlaneParser.addWall: the face and its landscape, the top border, the end caps and the corner piece.
  // `k` is the wall's end (the outline is walked clockwise on screen: the right wall towards +x, the left wall
  // towards −y), `left` runs back along the wall to its start, `right` up to the wall top; `side` is a
  // neighbouring wall's normal that must face the camera too (or none).
  const addWall = (k: V3, left: V3, side: V3 | null, capStart: boolean, capEnd: boolean, corner: boolean) => {
    const up: V3 = [0, 0, wallTop - k[2]];
    const n = cross(left, up);
    const out = scale3(n, -wt / len3(n));
    const also = side ? [side] : [];
    const label: 'l' | 'r' = n[1] > 0 ? 'r' : 'l';
    const push = (kind: PlaneKind, loc: V3, l: V3, r: V3, secondary: V3[]) =>
      raw.push({ kind, loc, left: l, right: r, secondary, wall: label });
    push('wall', k, left, up, also);
    push('landscape', k, left, up, also);
    push('wall', add(k, up), left, out, [n, ...also]);
    const h = len3(up);
    if (capStart) push('wall', add(add(k, left), up), scale3(up, -(h + ft) / h), out, [n, ...also]);
    if (capEnd) {
      push('wall', add(k, scale3(up, -ft / h)), scale3(up, (h + ft) / h), out, [n, ...also]);
      if (corner) {
        const along = scale3(left, wt / len3(left));
        push('wall', add(add(k, up), scale3(along, -1)), along, out, [n, left, ...also]);
      }
    }
  };

  if (o.walls) {
    const { walls, original } = roomWalls(map, inRoom, inRoomWhole, isHole, holeCells.size > 0, door);
    const count = walls.length;
    for (let i = 0; i < count; i++) {
      const w = walls[i]!;
      if (w.hidden) continue;
      const [dx, dy] = STEP[w.dir]!;
      const [nx, ny] = NORMAL[w.dir]!;
      // RoomPlaneParser.addWalls: the wall stands on the lowest tile along it.
      let z = -1;
      for (let j = 0; j < w.len; j++) {
        const h = inRoom(w.x + j * dx + nx, w.y + j * dy + ny)
          ? tileHeight(map, w.x + j * dx + nx, w.y + j * dy + ny)
          : -1;
        if (h >= 0 && (h < z || z < 0)) z = h;
      }
      const k: V3 = [w.x + nx * 0.5 - dx * 0.5 + dx * w.len, w.y + ny * 0.5 - dy * 0.5 + dy * w.len, z];
      const next = walls[(i + 1) % count]!;
      const prev = walls[(i - 1 + count) % count]!;
      // addWalls: the neighbours' directions are those of the wall holding this one in the room without holes
      const o = originalIndex(w, original);
      const nextDir = o >= 0 ? original[(o + 1) % original.length]!.dir : next.dir;
      const prevDir = o >= 0 ? original[(o - 1 + original.length) % original.length]!.dir : prev.dir;
      // a wall meeting the next or previous one at a right turn also needs that one's face towards the camera
      const side =
        (nextDir - w.dir + 4) % 4 === 3 ? normal3(nextDir) : (w.dir - prevDir + 4) % 4 === 3 ? normal3(prevDir) : null;
      addWall(
        k,
        [0 - dx * w.len, 0 - dy * w.len, 0],
        side,
        !prev.leftTurn || !!w.cutStart,
        !w.leftTurn || !!w.cutEnd,
        !next.hidden,
      );
    }
  }

  // The floor: RoomPlaneParser.extractPlanes merges equal quarter-tile heights into rectangles; each gets the
  // floor thickness as a skirt on every side where its neighbour differs (addFloor), never a taller face.
  const q = expandFloor(map, door, isHole);
  const rows = q.length;
  const cols = rows > 0 ? q[0]!.length : 0;
  const seen: boolean[][] = q.map((r) => r.map(() => false));
  const at = (r: number, c: number) => q[r]![c]!;
  const addFloor = (
    loc: V3,
    left: V3,
    right: V3,
    sides: { xPlus: boolean; xMinus: boolean; yPlus: boolean; yMinus: boolean },
  ) => {
    // initializeRoomPlanes: the texture starts at the back corner's fraction of a tile.
    const offset = (l: V3, r: V3): [number, number] => {
      const fx = l[0] + loc[0] + 0.5;
      const fy = loc[1] + r[1] + 0.5;
      return [(fx - Math.trunc(fx)) * 32, (fy - Math.trunc(fy)) * 32];
    };
    raw.push({ kind: 'floor', loc, left, right, secondary: [], texOffset: offset(left, right) });
    if (ft <= 0) return;
    const down: V3 = [0, 0, ft];
    const base = add(loc, [0, 0, -ft]);
    const skirt = (l: V3, lf: V3) => {
      raw.push({ kind: 'floor', loc: l, left: lf, right: down, secondary: [], texOffset: [0, 0] });
      const p = raw[raw.length - 1]!;
      const fx = l[0] + lf[0] + 0.5;
      const fy = l[1] + 0.5;
      p.texOffset = [(fx - Math.trunc(fx)) * 32, (fy - Math.trunc(fy)) * 32];
    };
    if (sides.yPlus) skirt(base, left);
    if (sides.yMinus) skirt(add(base, add(left, right)), scale3(left, -1));
    if (sides.xPlus) skirt(add(base, right), scale3(right, -1));
    if (sides.xMinus) skirt(add(base, left), right);
  };
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const h = at(r, c);
      if (h < 0 || seen[r]![c]) continue;
      const xMinus = c === 0 || at(r, c - 1) !== h;
      const yMinus = r === 0 || at(r - 1, c) !== h;
      // Along the row while the height holds and the row above keeps the same relation.
      let e = c + 1;
      while (e < cols && at(r, e) === h && !seen[r]![e] && !(r > 0 && (at(r - 1, e) === h) === yMinus)) e++;
      let xPlus = e === cols || at(r, e) !== h;
      // Down while each next row continues it alike; a row that changes part way narrows the rectangle.
      let n = r + 1;
      let below = false;
      while (n < rows) {
        below = at(n, c) !== h;
        let stop = below || (c > 0 && (at(n, c - 1) === h) === xMinus) || (e < cols && (at(n, e) === h) === xPlus);
        for (let j = c + 1; j < e; j++)
          if ((at(n, j) === h) !== (at(n, c) === h)) {
            stop = true;
            e = j;
            break;
          }
        if (stop) break;
        n++;
      }
      const yPlus = below || n === rows;
      xPlus = e === cols || at(r, e) !== h;
      for (let i = r; i < n; i++) for (let j = c; j < e; j++) seen[i]![j] = true;
      const w = (e - c) / 4;
      const d = (n - r) / 4;
      addFloor([c / 4 - 0.5 + w, r / 4 - 0.5 + d, h / 4], [-w, 0, 0], [0, -d, 0], { xPlus, xMinus, yPlus, yMinus });
    }
  // RoomPlaneParser.initialize: the door tile, a flat tile without skirts, at its height read unsigned (so a
  // floor hole over the door lifts it to 100, TILE_HOLE's size, as the client draws it).
  if (door)
    raw.push({
      kind: 'floor',
      loc: [door.x + 0.5, door.y + 0.5, isHole(door.x, door.y) ? 100 : door.z],
      left: [-1, 0, 0],
      right: [0, -1, 0],
      secondary: [],
      texOffset: [0, 0],
    });

  // RoomVisualization: each plane's sprite depth (RoomPlane.update's relative depth, + 1000.1 for floors,
  // + 1000.5 for walls and landscapes, + 500 more for a thin wall piece, + index / 1000); drawn farthest first.
  const planes: RoomPlane[] = [];
  // initializeRoomPlanes: each landscape continues the panorama where the previous one ended.
  let panorama = 0;
  for (const p of raw)
    if (p.kind === 'landscape') {
      p.texOffset = [panorama * 32, 0];
      panorama += len3(p.left);
    }
  // RoomEngine: the canvas geometry displaces the door tile 2000 tiles back (RoomGeometry.setDisplacement, keyed
  // by the rounded point), so a plane with a corner there (the door's floor) sorts behind the wall.
  const displaced = (c: V3): number => depthAt(c) + doorDisplacement(o.door, c[0], c[1], c[2]);
  // RoomEngine seeds the room's randomness from the tile bounds; initializeRoomPlanes steps it once per plane.
  let x0 = Infinity;
  let x1 = -1;
  let y0 = Infinity;
  let y1 = -1;
  for (let y = 0; y < map.height; y++)
    for (let x = 0; x < map.width; x++)
      if (tileHeight(map, x, y) !== NO_TILE) {
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
  let seed = x1 < 0 ? 0 : Math.trunc(x0 * 423 + x1 * 671 + y0 * 913 + y1 * 7509);
  const seeds = raw.map(() => {
    seed = toInt32(Math.trunc(seed * 7613 + 517));
    return seed;
  });
  raw.forEach((p, index) => {
    const n = cross(p.left, p.right);
    if (!facesCamera(n) || p.secondary.some((s) => !facesCamera(s))) return;
    const corners = [p.loc, add(p.loc, p.right), add(add(p.loc, p.left), p.right), add(p.loc, p.left)];
    let depth = Math.max(...corners.map(displaced));
    const thin = len3(p.left) < 1 || len3(p.right) < 1;
    if (p.kind === 'floor') depth += 1000.1 - (p.loc[2] + Math.min(0, p.left[2], p.right[2])) * 8;
    else depth += 1000.5 + (p.kind === 'landscape' ? 0.02 : 0) + (thin ? 500 : 0);
    depth += index / 1000;
    planes.push({
      kind: p.kind,
      color: planeColor(p.kind, n),
      origin: p.loc,
      left: p.left,
      right: p.right,
      textured: p.kind !== 'wall' || !thin,
      ...(p.wall ? { wall: p.wall } : {}),
      ...(p.texOffset ? { texOffset: p.texOffset } : {}),
      ...(p.kind === 'landscape' ? { seed: seeds[index]! } : {}),
      order: depth,
      depth,
    });
  });
  planes.sort((a, b) => b.order - a.order);
  planes.forEach((p, i) => {
    p.order = i;
  });
  return { planes, wallTop, tiles };
}

/**
 * RoomEngine's door displacement (RoomGeometry.setDisplacement / getScreenPosition): the depth a room point
 * gains when it rounds to the door tile (x, y and height), which the canvas sorts 2000 tiles back, through
 * the wall the door is in; 0 elsewhere.
 */
export function doorDisplacement(door: Door | null, x: number, y: number, z: number): number {
  if (!door || Math.round(x) !== door.x || Math.round(y) !== door.y || Math.round(z) !== door.z) return 0;
  return DEPTH_XY * 2000;
}

/** RoomVisualization.initializeRoomPlanes: a plane's colour by its normal. */
function planeColor(kind: PlaneKind, n: V3): number {
  if (kind === 'floor') return n[2] !== 0 ? FLOOR_COLOR : n[0] !== 0 ? FLOOR_COLOR_RIGHT : FLOOR_COLOR_LEFT;
  if (kind === 'landscape') return n[1] > 0 ? LANDSCAPE_COLOR_TOP : LANDSCAPE_COLOR_SIDE;
  if (n[0] === 0 && n[1] === 0) return WALL_COLOR_BORDER;
  return n[1] > 0 ? WALL_COLOR_TOP : WALL_COLOR_SIDE;
}

/**
 * RoomPlaneParser.findEntranceTile: the first tile of a row (not the first or last row) that starts at least
 * one tile left of the rows above and below it; null when there is none.
 */
export function entranceTile(map: Heightmap): Door | null {
  const first = map.heights.map((row) => {
    const x = row.findIndex((h) => h !== NO_TILE);
    return x < 0 ? row.length + 1 : x;
  });
  for (let y = 1; y < first.length - 1; y++) {
    const x = first[y]!;
    if (x <= first[y - 1]! - 1 && x <= first[y + 1]! - 1) return { x, y, z: tileHeight(map, x, y), wall: 90 };
  }
  return null;
}

/** The outline walk's directions (RoomWallData): +x, +y, −x, −y, and the side the room lies on for each. */
const STEP: [number, number][] = [
  [1, 0],
  [0, 1],
  [-1, 0],
  [0, -1],
];
const NORMAL: [number, number][] = [
  [0, 1],
  [-1, 0],
  [0, -1],
  [1, 0],
];
const normal3 = (dir: number): V3 => [NORMAL[dir]![0], NORMAL[dir]![1], 0];

interface OutlineWall {
  /** The cell outside the room the wall starts at. */
  x: number;
  y: number;
  dir: number;
  len: number;
  /** The start lies outside the room's bounding box. */
  border: boolean;
  /** The walk turned left (a concave corner) at the wall's end. */
  leftTurn: boolean;
  hidden: boolean;
  /** Shortened at its start or end beside a floor hole (RoomWallData.moveCorner, setLength). */
  cutStart?: boolean;
  cutEnd?: boolean;
}

/**
 * The room's outline as RoomPlaneParser.generateWallData walks it: from the cell above the leftmost column's
 * first tile, along the outside cells with the room on the right-hand side of the screen walk, one wall per
 * straight stretch; then hidePeninsulaWallChains hides each chain of walls inside the bounding box that turns
 * left more than once on balance (a wall sticking into the room).
 */
function outlineWalls(
  inRoom: (x: number, y: number) => boolean,
  bounds: { minX: number; maxX: number; minY: number; maxY: number },
  start: { x: number; y: number },
  peninsulas: boolean,
): OutlineWall[] {
  const { minX, maxX, minY, maxY } = bounds;
  // extractTopWall … extractLeftWall: along the outside until the room blocks the way (straight) or ends
  // beside it (the walk steps diagonally round the corner).
  const extract = (dir: number, px: number, py: number): { x: number; y: number } | null => {
    const [dx, dy] = STEP[dir]!;
    const [nx, ny] = NORMAL[dir]!;
    for (let i = 1; i < 1000; i++) {
      const ax = px + i * dx;
      const ay = py + i * dy;
      if (inRoom(ax, ay)) return { x: ax - dx, y: ay - dy };
      if (!inRoom(ax + nx, ay + ny)) return { x: ax + nx, y: ay + ny };
    }
    return null;
  };
  const walls: OutlineWall[] = [];
  let pos = start;
  let dir = 0;
  for (let guard = 0; guard < 1000; guard++) {
    const border = pos.x < minX || pos.x > maxX || pos.y < minY || pos.y > maxY;
    const next = extract(dir, pos.x, pos.y);
    if (!next) return [];
    let len = Math.abs(next.x - pos.x) + Math.abs(next.y - pos.y);
    const straight = next.x === pos.x || next.y === pos.y;
    const walked = dir;
    if (straight) {
      dir = (dir + 3) % 4;
      len++;
    } else {
      dir = (dir + 1) % 4;
      len--;
    }
    // RoomWallData.addWall keeps one of identical walls
    if (
      !walls.some(
        (w) =>
          w.x === pos.x &&
          w.y === pos.y &&
          w.dir === walked &&
          w.len === len &&
          w.border === border &&
          w.leftTurn === straight,
      )
    )
      walls.push({ x: pos.x, y: pos.y, dir: walked, len, border, leftTurn: straight, hidden: false });
    if (next.x === start.x && next.y === start.y && (next.x !== pos.x || next.y !== pos.y)) break;
    pos = next;
  }
  if (peninsulas) hidePeninsulas(walls);
  return walls;
}

/** RoomPlaneParser.hidePeninsulaWallChains: a chain of inner walls turning left more than once on balance. */
function hidePeninsulas(walls: OutlineWall[]): void {
  for (let i = 0; i < walls.length; i++) {
    const first = i;
    let last = i;
    let turns = 0;
    let hide = false;
    while (i < walls.length && !walls[i]!.border) {
      if (walls[i]!.leftTurn) turns++;
      else if (turns > 0) turns--;
      if (turns > 1) hide = true;
      last = i;
      i++;
    }
    if (hide) for (let j = first; j <= last; j++) walls[j]!.hidden = true;
  }
}

/**
 * RoomPlaneParser.createWallPlanes + checkWallHiding: the outline walked with the floor holes outside the room
 * and without them (`original`, its peninsulas hidden); a wall of the first is shortened where the cell
 * behind it is a hole (updateWallsNextToHoles) and hidden unless it lies along a shown wall of the original
 * (hideOriginallyHiddenWalls). Without holes both walks are the same outline.
 */
function roomWalls(
  map: Heightmap,
  inRoom: (x: number, y: number) => boolean,
  inRoomWhole: (x: number, y: number) => boolean,
  isHole: (x: number, y: number) => boolean,
  holes: boolean,
  door: Door | null,
): { walls: OutlineWall[]; original: OutlineWall[] } {
  const { minX, maxX, minY, maxY } = tileBounds(map, isHole, door);
  if (maxX < 0) return { walls: [], original: [] };
  let sy = minY;
  while (sy <= maxY && !inRoom(minX, sy)) sy++;
  if (sy > maxY) return { walls: [], original: [] };
  const bounds = { minX, maxX, minY, maxY };
  const start = { x: minX, y: sy - 1 };
  if (!holes) {
    const walls = outlineWalls(inRoom, bounds, start, true);
    return { walls, original: walls };
  }
  const walls = outlineWalls(inRoom, bounds, start, false);
  const original = outlineWalls(inRoomWhole, bounds, start, true);
  for (const w of walls) {
    if (w.hidden) continue;
    const [dx, dy] = STEP[w.dir]!;
    const [nx, ny] = NORMAL[w.dir]!;
    let behind = 0;
    for (let j = 0; j < w.len; j++) {
      if (isHole(w.x + j * dx - nx, w.y + j * dy - ny)) {
        if (j > 0 && behind === 0) {
          w.len = j;
          w.cutEnd = true;
          break;
        }
        behind++;
      } else if (behind > 0) {
        if (behind < w.len) {
          w.x += behind * dx;
          w.y += behind * dy;
          w.len -= behind;
          w.cutStart = true;
        }
        break;
      }
    }
    if (behind === w.len) w.hidden = true;
  }
  for (const w of walls) {
    if (w.hidden) continue;
    const o = originalIndex(w, original);
    if (o < 0 || original[o]!.hidden) w.hidden = true;
  }
  return { walls, original };
}

/**
 * The tile bounds the outline walk starts from, as RoomPlaneParser.setTileHeight keeps them while the map is
 * read (initializeFromMapData, row by row), the holes are set (initializeFromTileData) and the door tile is
 * blocked (initialize): a tile widens them; a cell set below 0 on the leftmost or rightmost column narrows
 * them by one when that column has no tile in the rows from the top bound to (not including) the bottom one
 * (a blocked cell below a left-wall door takes the door's column off; a column of holes, its own), and the
 * same for rows over the columns (whose heights it reads unsigned, so a row never goes).
 */
function tileBounds(
  map: Heightmap,
  isHole: (x: number, y: number) => boolean,
  door: Door | null,
): { minX: number; maxX: number; minY: number; maxY: number } {
  const w = map.width;
  const h = map.height;
  const BLOCKED = -110;
  const cells = new Array<number>(w * h).fill(BLOCKED);
  let minX = w;
  let maxX = -1;
  let minY = h;
  let maxY = -1;
  const at = (x: number, y: number) => (x < 0 || y < 0 || x >= w || y >= h ? BLOCKED : cells[y * w + x]!);
  const set = (x: number, y: number, v: number) => {
    if (x < 0 || y < 0 || x >= w || y >= h) return;
    cells[y * w + x] = v;
    if (v >= 0) {
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
      return;
    }
    if (x === minX || x === maxX) {
      let found = false;
      for (let r = minY; r < maxY && !found; r++) found = at(x, r) >= 0;
      if (!found) {
        if (x === minX) minX++;
        if (x === maxX) maxX--;
      }
    }
    if (y === minY || y === maxY) {
      let found = false;
      for (let c = minX; c < maxX && !found; c++) found = Math.abs(at(c, y)) >= 0;
      if (!found) {
        if (y === minY) minY++;
        if (y === maxY) maxY--;
      }
    }
  };
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) set(x, y, tileHeight(map, x, y) === NO_TILE ? BLOCKED : tileHeight(map, x, y));
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (isHole(x, y)) set(x, y, -100);
  if (door) set(door.x, door.y, BLOCKED);
  return { minX, maxX, minY, maxY };
}

/** RoomPlaneParser.resolveOriginalWallIndex: the first wall of `original` whose line holds the whole of `w`. */
function originalIndex(w: OutlineWall, original: OutlineWall[]): number {
  const [dx, dy] = STEP[w.dir]!;
  const ex = w.x + dx * w.len;
  const ey = w.y + dy * w.len;
  for (let i = 0; i < original.length; i++) {
    const o = original[i]!;
    const [odx, ody] = STEP[o.dir]!;
    const ox = o.x + odx * o.len;
    const oy = o.y + ody * o.len;
    if (w.x === ex) {
      if (o.x === w.x && ox === w.x && Math.min(o.y, oy) <= Math.min(w.y, ey) && Math.max(w.y, ey) <= Math.max(o.y, oy))
        return i;
    } else if (w.y === ey) {
      if (o.y === w.y && oy === w.y && Math.min(o.x, ox) <= Math.min(w.x, ex) && Math.max(w.x, ex) <= Math.max(o.x, ox))
        return i;
    }
  }
  return -1;
}

/** A number as a signed 32-bit integer (the client's ToInt32: modulo 2^32). */
export function toInt32(x: number): number {
  return x >>> 0 >= 2 ** 31 ? (x >>> 0) - 2 ** 32 : x >>> 0;
}
