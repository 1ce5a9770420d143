// What an item's stored row means to the drawing: its classname split into the bundle's base name and
// colour variant, and its state read from `extra_data` as the client reads the item's data.

/** `sofa_silo*3` → base `sofa_silo`, colour 3; no `*n` → colour undefined (the client's colour 0). */
export function splitClassname(classname: string): { base: string; colorId?: number } {
  const star = classname.indexOf('*');
  if (star < 0) return { base: classname };
  const n = Number(classname.slice(star + 1));
  return Number.isInteger(n) && n >= 0
    ? { base: classname.slice(0, star), colorId: n }
    : { base: classname.slice(0, star) };
}

/**
 * The state the client shows once the room is loaded. The emulator stores the item's stuff data as
 * `extra_data`; its legacy string is that text for the legacy form (most logic types: `0`, `1`) and the
 * first value for string and number arrays (a toner's `1:126:255:112`, a mannequin's `M:…`); a map stored
 * as JSON gives its `state` key. A floor item's state is parseFloat of that string, 0 when not a number
 * (FurnitureFloorDataParser: `parseFloat(getLegacyString()) || 0`, so `1.5` stays 1.5 and `1e2` is 100); a
 * wall item's is the same truncated (FurnitureWallDataParser: `Math.trunc(parseFloat(stuffData))`). Then
 * the bundle's logic type reads it (`logicType`, the bundle's, not the emulator's interaction):
 * - `furniture_roomdimmer`: the dimmer data `on,preset,…` (five or more comma parts) is state on − 1, any
 *   other data 0 (FurnitureRoomDimmerLogic.getStateFromDimmerData): `2,1,2,#FFFFFF,255` is 1, `1,…` is 0;
 * - `furniture_pushable` (balls): 0, the client's state when the item is not moving
 *   (FurniturePushableLogic.update: ANIMATION_NOT_MOVING);
 * - `furniture_es` (ice storm): the thousands, ~~(state / 1000) (FurnitureIceStormLogic.processUpdate, at
 *   once or after the state's last three digits in ms);
 * - `furniture_score`: the score itself, which the client counts up to within 3 s (FurnitureScoreLogic,
 *   MAX_UPDATE_TIME).
 */
export function furniState(extraData: string, logicType = '', kind: 'floor' | 'wall' = 'floor'): number {
  let text = (extraData ?? '').trim();
  if (text.startsWith('{')) {
    try {
      const o = JSON.parse(text) as Record<string, unknown>;
      text = String(o.state ?? '');
    } catch {
      return 0;
    }
  }
  if (logicType === 'furniture_roomdimmer') {
    const parts = text.split(',');
    if (parts.length < 5) return 0;
    const on = Number.parseInt(parts[0]!, 10);
    return Number.isNaN(on) ? 0 : on - 1;
  }
  if (logicType === 'furniture_pushable') return 0;
  const parsed = Number.parseFloat(text);
  // `Infinity` too is 0 here (the client would keep it; no animation or digit has that id).
  if (!Number.isFinite(parsed)) return 0;
  const s = kind === 'wall' ? Math.trunc(parsed) : parsed;
  if (logicType === 'furniture_es') return Math.trunc(s / 1000);
  return s;
}

/** Tiles a floor hole item cuts out of the floor: its root tile and its logic size, not turned. */
export interface FloorHole {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The floor a floor-hole item cuts away (FurnitureFloorHoleLogic: state 0 is STATE_HOLE and dispatches
 * ADD_HOLE; RoomEngine.addRoomInstanceFloorHole takes the item's location and FURNITURE_SIZE_X/Y, the
 * bundle's logic dimensions as they are, whatever the item's rotation), or null: another logic type, or
 * another state. Where the floor is cut, the item's ink-ADD black sprite (hole2's layer f) shows black.
 */
export function floorHole(
  logicType: string,
  state: number,
  at: { x: number; y: number },
  dimensions: { x: number; y: number },
): FloorHole | null {
  if (logicType !== 'furniture_floor_hole' || state !== 0) return null;
  return { x: at.x, y: at.y, width: dimensions.x, height: dimensions.y };
}
