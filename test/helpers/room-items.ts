// Rows and pixels the room tests share: a floor item as the emulator stores it, and a picture's pixel at a
// screen offset from room point (0, 0, 0).
import { type RoomItem } from '../../src/room/index.js';

/** A 1 × 1 floor item at (x, y) with state `0`, rotation 0, height 0, unless `fields` says otherwise. */
export function floorItem(
  id: number,
  classname: string,
  x: number,
  y: number,
  fields: Partial<RoomItem> = {},
): RoomItem {
  return {
    id,
    classname,
    kind: 'floor',
    x,
    y,
    z: 0,
    rot: 0,
    wallPosition: '',
    extraData: '0',
    width: 1,
    length: 1,
    interactionType: 'default',
    ...fields,
  };
}

/** RGBA of the picture's pixel (sx, sy) screen pixels from where room point (0, 0, 0) lands. */
export function pixel(
  pic: { width: number; rgba: Buffer; report: { origin: { x: number; y: number } } },
  sx: number,
  sy: number,
): number[] {
  const i = ((pic.report.origin.y + sy) * pic.width + pic.report.origin.x + sx) * 4;
  return [...pic.rgba.subarray(i, i + 4)];
}
