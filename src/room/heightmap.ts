// The room's floor as the client reads it (FloorHeightMapMessageParser.parseExplicitly): one row per line,
// `x`/`X` = no tile, any other character a base-36 digit (`0`-`9`, then `a` = 10 …); a character that is
// neither is no tile (parseInt gives NaN). Rows as stored end in `\r`, `\r\n`, `\n` or the two characters
// `\n` (some dumps): all are line breaks here, as the emulators split them before sending `\r` rows.
// The door (RoomMessageHandler.onRoomModelEvent): the last tile that sticks out of the room through the left
// wall (blocked above, left and below: 90°) or the right wall (above, left, right: 180°), found in the map as
// the emulator sends it (Arcturus: as stored, RoomLayout.getRelativeMap), whatever the model's door tile says.

/** Height of a tile, or NO_TILE. */
export const NO_TILE = -1;
/** The highest height a heightmap character can say (`z`). */
export const MAX_TILE_HEIGHT = 35;

export interface Heightmap {
  width: number;
  height: number;
  /** heights[y][x]: 0 … 35, or NO_TILE. */
  heights: number[][];
}

export interface Door {
  x: number;
  y: number;
  z: number;
  /** 90: through the left wall (the wall along y); 180: through the right wall (along x). */
  wall: 90 | 180;
}

/**
 * The most rows and columns a heightmap may have: the client's floor plan editor stops at 64 per axis, and a
 * 64 × 64 room is already a 4,200 × 2,300 picture at size 64 (~120 MB with the render's buffers).
 */
export const MAX_HEIGHTMAP_SIDE = 64;

export class HeightmapError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HeightmapError';
  }
}

export function parseHeightmap(text: string): Heightmap {
  const rows = text
    .replace(/\\n/g, '\n')
    .split(/\r\n|\r|\n/)
    .map((r) => r.trim());
  while (rows.length > 0 && rows[rows.length - 1] === '') rows.pop();
  while (rows.length > 0 && rows[0] === '') rows.shift();
  const width = rows.reduce((w, r) => Math.max(w, r.length), 0);
  if (rows.length === 0 || width === 0) throw new HeightmapError('the heightmap is empty: no row holds a tile');
  if (rows.length > MAX_HEIGHTMAP_SIDE || width > MAX_HEIGHTMAP_SIDE)
    throw new HeightmapError(
      `the heightmap is ${width} × ${rows.length} tiles, over the ${MAX_HEIGHTMAP_SIDE} × ${MAX_HEIGHTMAP_SIDE} drawn`,
    );
  const heights = rows.map((row) => {
    const out: number[] = new Array(width).fill(NO_TILE);
    for (let x = 0; x < row.length; x++) {
      const c = row[x]!;
      if (c === 'x' || c === 'X') continue;
      const h = Number.parseInt(c, 36);
      if (!Number.isNaN(h)) out[x] = h;
    }
    return out;
  });
  return { width, height: rows.length, heights };
}

export function tileHeight(map: Heightmap, x: number, y: number): number {
  if (x < 0 || y < 0 || x >= map.width || y >= map.height) return NO_TILE;
  return map.heights[y]![x]!;
}

/**
 * The door the client cuts into the wall (RoomMessageHandler.onRoomModelEvent, with no entry tile sent, as
 * Arcturus sends none): every tile off the outer corners is tried in row order, a tile open only towards the
 * room on its right (blocked above, left and below) is a 90° door, one open only below (blocked above, left
 * and right) a 180° door, and the last tile found wins; null when none is. The model's door tile (`doorX`,
 * `doorY`) is not asked: a door tile stored as `x` stays no tile, as Arcturus sends the map as stored.
 */
export function findDoor(map: Heightmap, _doorX?: number, _doorY?: number): Door | null {
  const blocked = (tx: number, ty: number) => tileHeight(map, tx, ty) === NO_TILE;
  let door: Door | null = null;
  for (let y = 0; y < map.height; y++)
    for (let x = 0; x < map.width; x++) {
      const z = tileHeight(map, x, y);
      // The client skips the outermost ring only where both coordinates are on it.
      const inside = (y > 0 && y < map.height - 1) || (x > 0 && x < map.width - 1);
      if (z === NO_TILE || !inside) continue;
      if (blocked(x, y - 1) && blocked(x - 1, y) && blocked(x, y + 1)) door = { x, y, z, wall: 90 };
      // The client tests 180° second: a tile open on neither side but the front is a 180° door.
      if (blocked(x, y - 1) && blocked(x - 1, y) && blocked(x + 1, y)) door = { x, y, z, wall: 180 };
    }
  return door;
}
