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
  /** Painter's order among the room's planes: drawn ascending. */
  order: number;
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

export function roomShape(map: Heightmap, o: ShapeOptions): RoomShape {
  const planes: RoomPlane[] = [];
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

  // Walls first (drawn behind the floor): a segment per tile along each back edge.
  if (o.walls) {
    for (let y = 0; y < map.height; y++) {
      let x0 = -1;
      for (let x = 0; x < map.width; x++)
        if (inRoom(x, y)) {
          x0 = x;
          break;
        }
      if (x0 < 0) continue;
      const z0 = tileHeight(map, x0, y);
      const wx = x0 - 0.5;
      // Left wall face: along +y, normal +x.
      planes.push({
        kind: 'wall',
        color: WALL_COLOR_SIDE,
        origin: [wx, y - 0.5, z0],
        left: [0, 1, 0],
        right: [0, 0, wallTop - z0],
        textured: true,
        wall: 'l',
        order: 0,
      });
      planes.push({
        kind: 'wall',
        color: WALL_COLOR_BORDER,
        origin: [wx - wt, y - 0.5, wallTop],
        left: [0, 1, 0],
        right: [wt, 0, 0],
        textured: false,
        wall: 'l',
        order: 1,
      });
      // The front end cap where the next row's wall does not continue this one.
      const next = y + 1 < map.height ? firstInRow(map, y + 1, inRoom) : -1;
      if (next !== x0)
        planes.push({
          kind: 'wall',
          color: WALL_COLOR_TOP,
          origin: [wx - wt, y + 0.5, z0 - ft],
          left: [wt, 0, 0],
          right: [0, 0, wallTop - z0 + ft],
          textured: false,
          wall: 'l',
          order: 1,
        });
    }
    for (let x = 0; x < map.width; x++) {
      let y0 = -1;
      for (let y = 0; y < map.height; y++)
        if (inRoom(x, y)) {
          y0 = y;
          break;
        }
      if (y0 < 0) continue;
      const z0 = tileHeight(map, x, y0);
      const wy = y0 - 0.5;
      planes.push({
        kind: 'wall',
        color: WALL_COLOR_TOP,
        origin: [x - 0.5, wy, z0],
        left: [1, 0, 0],
        right: [0, 0, wallTop - z0],
        textured: true,
        wall: 'r',
        order: 0,
      });
      planes.push({
        kind: 'wall',
        color: WALL_COLOR_BORDER,
        origin: [x - 0.5, wy - wt, wallTop],
        left: [1, 0, 0],
        right: [0, wt, 0],
        textured: false,
        wall: 'r',
        order: 1,
      });
      const next = x + 1 < map.width ? firstInColumn(map, x + 1, inRoom) : -1;
      if (next !== y0)
        planes.push({
          kind: 'wall',
          color: WALL_COLOR_SIDE,
          origin: [x + 0.5, wy - wt, z0 - ft],
          left: [0, wt, 0],
          right: [0, 0, wallTop - z0 + ft],
          textured: false,
          wall: 'r',
          order: 1,
        });
    }
  }

  // The floor: a flat tile is one top face, a stair tile four by four quarter faces; side faces per quarter
  // edge where the floor drops towards the viewer. Drawn with a depth buffer (draw-planes.ts), so their
  // order does not matter.
  const q = expandFloor(map, door);
  const qh = (sx: number, sy: number) =>
    sy < 0 || sx < 0 || sy >= q.length || sx >= q[0]!.length ? NO_TILE : q[sy]![sx]!;
  const top = (x: number, y: number, z: number, side: number) =>
    planes.push({
      kind: 'floor',
      color: FLOOR_COLOR,
      origin: [x, y, z],
      left: [side, 0, 0],
      right: [0, side, 0],
      textured: true,
      order: 2,
    });
  for (let ty = 0; ty < map.height; ty++)
    for (let tx = 0; tx < map.width; tx++) {
      const h0 = qh(tx * 4, ty * 4);
      if (h0 === NO_TILE) continue;
      let flat = true;
      for (let k = 0; k < 16 && flat; k++) flat = qh(tx * 4 + (k % 4), ty * 4 + Math.floor(k / 4)) === h0;
      if (flat) top(tx - 0.5, ty - 0.5, h0 / 4, 1);
      for (let k = 0; k < 16; k++) {
        const sx = tx * 4 + (k % 4);
        const sy = ty * 4 + Math.floor(k / 4);
        const z = qh(sx, sy) / 4;
        const x = sx / 4 - 0.5;
        const y = sy / 4 - 0.5;
        if (!flat) top(x, y, z, 0.25);
        const rightZ = qh(sx + 1, sy);
        const rightDrop = rightZ === NO_TILE ? ft : z - rightZ / 4;
        if (rightDrop > 0)
          planes.push({
            kind: 'floor',
            color: FLOOR_COLOR_RIGHT,
            origin: [x + 0.25, y, z - rightDrop],
            left: [0, 0.25, 0],
            right: [0, 0, rightDrop],
            textured: true,
            order: 2,
          });
        const frontZ = qh(sx, sy + 1);
        const frontDrop = frontZ === NO_TILE ? ft : z - frontZ / 4;
        if (frontDrop > 0)
          planes.push({
            kind: 'floor',
            color: FLOOR_COLOR_LEFT,
            origin: [x, y + 0.25, z - frontDrop],
            left: [0.25, 0, 0],
            right: [0, 0, frontDrop],
            textured: true,
            order: 2,
          });
      }
    }
  if (door)
    planes.push({
      kind: 'floor',
      color: FLOOR_COLOR,
      origin: [door.x - 0.5, door.y - 0.5, door.z],
      left: [1, 0, 0],
      right: [0, 1, 0],
      textured: true,
      order: 2,
    });
  return { planes, wallTop, tiles };
}

function firstInRow(map: Heightmap, y: number, inRoom: (x: number, y: number) => boolean): number {
  for (let x = 0; x < map.width; x++) if (inRoom(x, y)) return x;
  return -1;
}

function firstInColumn(map: Heightmap, x: number, inRoom: (x: number, y: number) => boolean): number {
  for (let y = 0; y < map.height; y++) if (inRoom(x, y)) return y;
  return -1;
}
