// Where a room point lands on screen, and how far it is, as the client's RoomGeometry computes them for the
// room camera (direction −135°, 30°; depth vector −135°, 0.5°: RoomSpriteCanvas). At size 64 a point
// (x, y, z) lands at (32·(x − y), 16·(x + y) − 32·z) from the screen point of (0, 0, 0): the centre of
// tile (0, 0) at height 0, which is this module's origin. Size 32 halves every length.

export type RoomScale = 32 | 64;

export interface ScreenPoint {
  x: number;
  y: number;
}

/** Screen position of a room point at a scale, unrounded (RoomGeometry.getScreenPosition). */
export function project(scale: RoomScale, x: number, y: number, z: number): ScreenPoint {
  const k = scale / 64;
  return { x: 32 * k * (x - y), y: 16 * k * (x + y) - 32 * k * z };
}

// The depth vector's weights: cos(0.5°)·√½ on x and y, sin(0.5°)·√(½)/√(¾) on z (RoomGeometry z_scale).
export const DEPTH_XY = Math.cos((0.5 / 180) * Math.PI) * Math.SQRT1_2;
export const DEPTH_Z = Math.sin((0.5 / 180) * Math.PI) * (Math.SQRT1_2 / Math.sqrt(0.75));

/**
 * The client's sort depth of a room point (larger = farther, drawn first): the projection on the depth
 * vector, without the camera location's constant. RoomSpriteCanvas sorts every sprite by this plus the
 * sprite's relative depth, descending, and adds 1.2e-7 per screen pixel away from the centre line.
 */
export function depthOf(x: number, y: number, z: number, screenX: number): number {
  return -DEPTH_XY * (x + y) - DEPTH_Z * z + Math.abs(screenX) * 1.2e-7;
}

/** A furni sprite's relative depth from its layer's z and id (FurnitureVisualization, SizeData z / −1000). */
export function furniLayerDepth(layerZ: number, layerId: number): number {
  return (layerZ / -1000 - layerId * 0.001) * Math.SQRT1_2;
}

export interface WallPosition {
  wallX: number;
  wallY: number;
  localX: number;
  localY: number;
  side: 'l' | 'r';
}

/** Parses `:w=8,0 l=2,29 r` (the emulator's wall_pos); null when it is not one. */
export function parseWallPosition(text: string): WallPosition | null {
  const m = /^\s*:?w=(-?\d+),(-?\d+)\s+l=(-?\d+),(-?\d+)\s+([lr])\s*$/.exec(text);
  if (!m) return null;
  return {
    wallX: Number(m[1]),
    wallY: Number(m[2]),
    localX: Number(m[3]),
    localY: Number(m[4]),
    side: m[5] as 'l' | 'r',
  };
}

/**
 * The room point of a wall position (LegacyWallGeometry.getLocation, at the scale 32 the client sets):
 * `w=` names the wall tile, whose height (`wallTileHeight`) is the client's height of that tile (for a
 * tile outside the room: the top of the wall); `l=` is a pixel offset along the wall (x) and down it (y).
 */
export function wallLocation(p: WallPosition, wallTileHeight: number): { x: number; y: number; z: number } {
  const half = 16;
  if (p.side === 'r')
    return {
      x: p.wallX + p.localX / half - 0.5,
      y: p.wallY + 0.5,
      z: wallTileHeight - (p.localY - p.localX / 2) / half,
    };
  return {
    x: p.wallX + 0.5,
    y: p.wallY + (half - p.localX) / half - 0.5,
    z: wallTileHeight - (p.localY - (half - p.localX) / 2) / half,
  };
}
