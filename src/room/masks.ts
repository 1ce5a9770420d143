// The masks cut in the room's walls: the door (a hole) and the windows wall items carry (the landscape shows
// through), each the room visualization's bitmap for its wall, anchored at a room point.
import { type RgbaImage } from '../imaging/image.js';
import { type LoadedRoomAssets } from './assets.js';
import { normalX, type PlacedMask } from './draw-planes.js';
import { project, type RoomScale } from './geometry.js';
import { type Door } from './heightmap.js';

/** A mask before the picture's extent is known: its top-left on screen (room origin at 0, 0), and its id. */
export type RoomMask = Omit<PlacedMask, 'left' | 'top'> & { x: number; y: number; id: string };

/** The visualization's bitmap of mask `id` for a wall at a scale, with its registration point; null: none. */
export function maskBitmap(
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

/** The door's hole in its wall, at the middle of the door tile's wall edge; null when the bitmap is missing. */
export function doorMask(a: LoadedRoomAssets, door: Door, scale: RoomScale): RoomMask | null {
  const m = maskBitmap(a, 'door', door.wall === 90 ? 'l' : 'r', scale);
  if (!m) return null;
  const point: [number, number, number] = [
    door.wall === 90 ? door.x + 0.5 : door.x,
    door.wall === 90 ? door.y : door.y + 0.5,
    door.z,
  ];
  const at = project(scale, ...point);
  return { ...m, kind: 'hole', id: 'door', x: Math.round(at.x) - m.ox, y: Math.round(at.y) - m.oy, at: point };
}
