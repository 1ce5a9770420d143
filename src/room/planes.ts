// The room's planes in room coordinates, as the client's RoomPlaneParser builds them from the heightmap:
// - the floor in quarter tiles (addTileTypes + expandFloorTiles): a tile next to one exactly one higher
//   rises towards it in three quarter steps (stairs), every other tile is flat; each quarter tile is a top
//   face with a side face where the floor drops towards the viewer (to the lower neighbour, or by the floor
//   thickness at the room's edge);
// - the walls: along the room's back edges (the first tile of each row: left wall; of each column: right
//   wall), from the lowest tile beside the wall segment up to the wall top (wall height + the highest floor,
//   at most 20), with the top border and the front end caps of the wall's thickness;
// - the door tile: taken out while the walls are made (the wall runs behind it) and drawn as a flat tile.
// Each plane has the client's colour by its normal (RoomVisualization.initializeRoomPlanes).
import { type Door, type Heightmap, NO_TILE, tileHeight } from './heightmap.js';

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
  /** Texture offset in texels (FloorPlane: the back corner's fraction of a tile; LandscapePlane: the panorama so far). */
  texOffset?: [number, number];
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
  door: Door | null;
  /** rooms.wall_height: −1 = the client's default. */
  wallHeight: number;
  /** 2^thickness, thickness clamped to −2 … 1 (RoomVisualizationSettingsParser). */
  wallThickness: number;
  floorThickness: number;
  walls: boolean;
}

/** The thickness multiplier of a stored thickness (−2 … 1). */
export function thicknessMultiplier(stored: number): number {
  const t = Number.isFinite(stored) ? Math.max(-2, Math.min(1, Math.trunc(stored))) : 0;
  return 2 ** t;
}

/** Quarter-tile heights ×4 (expandFloorTiles); NO_TILE where there is no tile. */
export function expandFloor(map: Heightmap, door: Door | null): number[][] {
  const h = (x: number, y: number) => (door && door.x === x && door.y === y ? NO_TILE : tileHeight(map, x, y));
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
const DEPTH_XY = Math.cos((0.5 / 180) * Math.PI) * Math.SQRT1_2;
const DEPTH_Z = Math.sin((0.5 / 180) * Math.PI) * (Math.SQRT1_2 / Math.sqrt(0.75));
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
  const door = o.door;
  const isDoor = (x: number, y: number) => !!door && door.x === x && door.y === y;
  const inRoom = (x: number, y: number) => tileHeight(map, x, y) !== NO_TILE && !isDoor(x, y);
  let maxHeight = 0;
  let tiles = 0;
  for (let y = 0; y < map.height; y++)
    for (let x = 0; x < map.width; x++) {
      if (tileHeight(map, x, y) === NO_TILE) continue;
      tiles++;
      if (!isDoor(x, y)) maxHeight = Math.max(maxHeight, tileHeight(map, x, y));
    }
  const fixed = o.wallHeight >= 0 ? Math.trunc(o.wallHeight) : -1;
  const floorHeight = Math.min(MAX_WALL_ADDITIONAL_HEIGHT, fixed >= 0 ? fixed : maxHeight);
  const wallHeight = fixed >= 0 ? fixed + DEFAULT_WALL_HEIGHT : DEFAULT_WALL_HEIGHT;
  const wallTop = wallHeight + floorHeight;
  const ft = FLOOR_THICKNESS * o.floorThickness;
  const wt = WALL_THICKNESS * o.wallThickness;
  const raw: RawPlane[] = [];

  // RoomPlaneParser.addWall: the face and its landscape, the top border, the end caps and the corner piece.
  // `k` is the wall's end (the client walks the outline: the right wall towards +x, the left wall towards −y),
  // `left` runs back along the wall to its start, `right` up to the wall top.
  const addWall = (side: 'l' | 'r', k: V3, left: V3, capStart: boolean, capEnd: boolean, corner: boolean) => {
    const up: V3 = [0, 0, wallTop - k[2]];
    const n = cross(left, up);
    const out = scale3(n, -wt / len3(n));
    raw.push({ kind: 'wall', loc: k, left, right: up, secondary: [], wall: side });
    raw.push({ kind: 'landscape', loc: k, left, right: up, secondary: [], wall: side });
    raw.push({ kind: 'wall', loc: add(k, up), left, right: out, secondary: [n], wall: side });
    const h = len3(up);
    if (capStart)
      raw.push({
        kind: 'wall',
        loc: add(add(k, left), up),
        left: scale3(up, -(h + ft) / h),
        right: out,
        secondary: [n],
        wall: side,
      });
    if (capEnd) {
      raw.push({
        kind: 'wall',
        loc: add(k, scale3(up, -ft / h)),
        left: scale3(up, (h + ft) / h),
        right: out,
        secondary: [n],
        wall: side,
      });
      if (corner) {
        const along = scale3(left, wt / len3(left));
        raw.push({
          kind: 'wall',
          loc: add(add(k, up), scale3(along, -1)),
          left: along,
          right: out,
          secondary: [n, left],
          wall: side,
        });
      }
    }
  };

  if (o.walls) {
    // The right wall: columns whose first tile is on the same row form one straight run, standing on the
    // lowest tile of the run (RoomPlaneParser.addWalls).
    const firstY = Array.from({ length: map.width }, (_, x) => firstInColumn(map, x, inRoom));
    const firstX = Array.from({ length: map.height }, (_, y) => firstInRow(map, y, inRoom));
    for (let x = 0; x < map.width; ) {
      const y0 = firstY[x]!;
      if (y0 < 0) {
        x++;
        continue;
      }
      let x1 = x;
      while (x1 + 1 < map.width && firstY[x1 + 1] === y0) x1++;
      let z = Infinity;
      for (let i = x; i <= x1; i++) z = Math.min(z, tileHeight(map, i, y0));
      const next = x1 + 1 < map.width ? firstY[x1 + 1]! : -1;
      // The front end is capped where the outline turns away (a convex corner).
      addWall('r', [x1 + 0.5, y0 - 0.5, z], [-(x1 - x + 1), 0, 0], true, next < 0 || next > y0, true);
      x = x1 + 1;
    }
    for (let y = map.height - 1; y >= 0; ) {
      const x0 = firstX[y]!;
      if (x0 < 0) {
        y--;
        continue;
      }
      let y1 = y;
      while (y1 - 1 >= 0 && firstX[y1 - 1] === x0) y1--;
      let z = Infinity;
      for (let i = y1; i <= y; i++) z = Math.min(z, tileHeight(map, x0, i));
      const next = y + 1 < map.height ? firstX[y + 1]! : -1;
      // The back end meets the right wall at a convex corner: capped there, with the border's corner piece.
      const corner = firstY[x0] === y1;
      addWall('l', [x0 - 0.5, y1 - 0.5, z], [0, y - y1 + 1, 0], next < 0 || next > x0, corner, corner);
      y = y1 - 1;
    }
  }

  // The floor: RoomPlaneParser.extractPlanes merges equal quarter-tile heights into rectangles; each gets the
  // floor thickness as a skirt on every side where its neighbour differs (addFloor), never a taller face.
  const q = expandFloor(map, door);
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
  // RoomPlaneParser.initialize: the door tile, a flat tile without skirts.
  if (door)
    raw.push({
      kind: 'floor',
      loc: [door.x + 0.5, door.y + 0.5, door.z],
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
  const displaced = (c: V3): number => {
    if (!door || Math.round(c[0]) !== door.x || Math.round(c[1]) !== door.y || Math.round(c[2]) !== door.z)
      return depthAt(c);
    return depthAt(door.wall === 90 ? [c[0] - 2000, c[1], c[2]] : [c[0], c[1] - 2000, c[2]]);
  };
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
      order: depth,
    });
  });
  planes.sort((a, b) => b.order - a.order);
  planes.forEach((p, i) => {
    p.order = i;
  });
  return { planes, wallTop, tiles };
}

/** RoomVisualization.initializeRoomPlanes: a plane's colour by its normal. */
function planeColor(kind: PlaneKind, n: V3): number {
  if (kind === 'floor') return n[2] !== 0 ? FLOOR_COLOR : n[0] !== 0 ? FLOOR_COLOR_RIGHT : FLOOR_COLOR_LEFT;
  if (kind === 'landscape') return n[1] > 0 ? LANDSCAPE_COLOR_TOP : LANDSCAPE_COLOR_SIDE;
  if (n[0] === 0 && n[1] === 0) return WALL_COLOR_BORDER;
  return n[1] > 0 ? WALL_COLOR_TOP : WALL_COLOR_SIDE;
}

function firstInRow(map: Heightmap, y: number, inRoom: (x: number, y: number) => boolean): number {
  for (let x = 0; x < map.width; x++) if (inRoom(x, y)) return x;
  return -1;
}

function firstInColumn(map: Heightmap, x: number, inRoom: (x: number, y: number) => boolean): number {
  for (let y = 0; y < map.height; y++) if (inRoom(x, y)) return y;
  return -1;
}
