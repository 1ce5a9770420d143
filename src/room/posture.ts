// A unit's posture on the furni under it: seated on a seat, laid on a bed, or standing, as the emulator sets
// the unit's status (Arcturus Morningstar, the Extended fork read here) and as the client then places it. One
// rule for every kind of unit (bots now, pets after), from the items covering the unit's tile and the unit.
//
// The emulator, each room cycle, for a unit that is not walking (RoomCycleManager.cycleRoomUnit):
// - sit: when the tile's state is SIT (RoomTileManager.calculateTileState: any allow_lay item on the tile makes
//   it LAY; otherwise the tallest item by z + height decides, SIT when it allows sitting), the tallest chair
//   (RoomItemManager.getTallestChair: the allow_sit item with the highest z + height) gives the status
//   `sit <Item.getCurrentHeight(chair)>`, the unit's z the chair's z and its body and head the chair's rotation;
// - lay: when the top item (getTopItemAt: highest z + height) allows laying, the status is
//   `lay <height + BedProfile z offset>;<x>;<y>`, the body and head turn to the bed's rotation % 4, and the unit
//   moves to the bed's pillow row (BedProfile.snapToLay: rotation 0 or 4 keeps its x and takes the bed's y,
//   else the bed's x and its own y); a unit that steps on a bed has the bed's z (RoomUnit.cycle, updateBotsAt).
// Both items count on every tile of their footprint (RoomItemManager.getItemsAt: width × length, swapped at
// rotations 2 and 6). Ties in z + height go to the item met later (the emulator's `>` comparisons).
//
// The client (nitro-renderer RoomUnitStatusParser) reads the sit parameter with parseFloat and the lay one as
// Math.abs(parseFloat(…)) (the fork's `;x;y` tail is dropped there); RoomMessageHandler.onRoomUnitStatusEvent
// places the unit at (x, y, z + that height).
import { type RoomItem } from './model.js';

/** What the rule needs of an item covering the unit's tile (Arcturus items ⋈ items_base). */
export interface PostureItem {
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly rot: number;
  /** Footprint before rotation (items_base.width, length). */
  readonly width: number;
  readonly length: number;
  /** items_base.allow_sit / allow_lay. */
  readonly allowSit: boolean;
  readonly allowLay: boolean;
  /** items_base.stack_height (the emulator reads 0 as 1e-6). */
  readonly stackHeight: number;
  /** The item's current height (Item.getCurrentHeight: a multi-height item's current one, else stackHeight). */
  readonly height: number;
}

/** The unit as stored (a bot's row, a pet's row). */
export interface PostureUnit {
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly rot: number;
}

export type PostureType = 'std' | 'sit' | 'lay';

/** The status the emulator gives the unit, and where the client then has it. */
export interface Posture {
  readonly posture: PostureType;
  /** The status parameter as the client reads it (sit: the seat's height; lay: |bed height + offset|; std: 0). */
  readonly height: number;
  /** Body (and head) direction 0–7. */
  readonly direction: number;
  /** The unit's tile and z as the emulator keeps them (a bed moves it to the pillow row; seats and beds set z). */
  readonly x: number;
  readonly y: number;
  readonly z: number;
}

/** BedProfile (the Extended fork): beds under this stack height are flat (mats, sleeping bags). */
const FLAT_BED_HEIGHT = 1.0;
/** BedProfile's lay z offsets: flat beds −0.5, raised beds 0 (single or double alike). */
const FLAT_BED_Z_OFFSET = -0.5;

/** Interaction types whose height is the current one of items_base.multiheight (InteractionMultiHeight and kin). */
const MULTI_HEIGHT = new Set(['multiheight', 'water_item', 'snowboard_slope']);

/**
 * Item.getCurrentHeight: for a multi-height item with heights (`0.5;1;1.5`, read only when it has a `;`), the
 * one at index parseInt(extra_data) mod their count (an empty state is 0, text that is no integer falls back to
 * the stack height); otherwise the stack height, 0 read as 1e-6 as Item.load does.
 */
export function currentHeight(stackHeight: number, interactionType = '', multiHeight = '', extraData = ''): number {
  const base = stackHeight === 0 ? 1e-6 : stackHeight;
  if (!MULTI_HEIGHT.has(interactionType.toLowerCase()) || !multiHeight.includes(';')) return base;
  const heights = multiHeight.split(';').map(Number);
  if (heights.some((h) => !Number.isFinite(h))) return base;
  const state = extraData === '' ? 0 : /^[-+]?\d+$/.test(extraData) ? Number.parseInt(extraData, 10) : Number.NaN;
  if (!Number.isSafeInteger(state)) return base;
  // Java's %: the sign of the dividend; a negative index throws there and the stack height is used.
  const i = state % heights.length;
  return i < 0 ? base : heights[i]!;
}

/** Whether the item covers tile (x, y) (RoomItemManager.getItemsAt: width × length, swapped at rotations 2 and 6). */
export function covers(item: Pick<PostureItem, 'x' | 'y' | 'rot' | 'width' | 'length'>, x: number, y: number): boolean {
  const turned = item.rot === 2 || item.rot === 6;
  const w = Math.max(1, turned ? item.length : item.width);
  const l = Math.max(1, turned ? item.width : item.length);
  return x >= item.x && x <= item.x + w - 1 && y >= item.y && y <= item.y + l - 1;
}

/** The items covering tile (x, y), in the order given. */
export function itemsUnder<T extends Pick<PostureItem, 'x' | 'y' | 'rot' | 'width' | 'length'>>(
  items: readonly T[],
  x: number,
  y: number,
): T[] {
  return items.filter((it) => covers(it, x, y));
}

/** The item with the highest z + height; on a tie the later one. */
function tallest(items: readonly PostureItem[]): PostureItem | undefined {
  let top: PostureItem | undefined;
  for (const it of items) if (!top || !(top.z + top.height > it.z + it.height)) top = it;
  return top;
}

const direction = (rot: number) => ((Math.trunc(rot) % 8) + 8) % 8;

/**
 * The unit's posture on the items covering its tile (`under`, e.g. from itemsUnder): sit, lay or std, the status
 * height, direction and the tile and z the emulator gives it. Without a seat or bed under it the unit is as stored.
 */
export function unitPosture(under: readonly PostureItem[], unit: PostureUnit): Posture {
  const standing: Posture = {
    posture: 'std',
    height: 0,
    direction: direction(unit.rot),
    x: unit.x,
    y: unit.y,
    z: unit.z,
  };
  if (under.length === 0) return standing;
  // calculateTileState: LAY as soon as an allow_lay item is met; else the tallest item's own state.
  const lay = under.some((it) => it.allowLay);
  const top = tallest(under);
  if (!lay && top?.allowSit) {
    const chair = tallest(under.filter((it) => it.allowSit))!;
    return { posture: 'sit', height: chair.height, direction: direction(chair.rot), x: unit.x, y: unit.y, z: chair.z };
  }
  if (top?.allowLay) {
    const offset = top.stackHeight < FLAT_BED_HEIGHT ? FLAT_BED_Z_OFFSET : 0;
    const rot = direction(top.rot);
    const alongY = rot === 0 || rot === 4;
    return {
      posture: 'lay',
      height: Math.abs(top.height + offset),
      direction: rot % 4,
      x: alongY ? unit.x : top.x,
      y: alongY ? top.y : unit.y,
      z: top.z,
    };
  }
  return standing;
}

/**
 * A floor item of the room as the rule reads it. Flags the source did not give are false (no unit sits or lies on
 * it); a stack height it did not give is `logicHeight`, the furni bundle's logic height (dimensions z).
 */
export function roomItemPosture(it: RoomItem, logicHeight = 0): PostureItem {
  const stackHeight = it.stackHeight ?? logicHeight;
  return {
    x: it.x,
    y: it.y,
    z: it.z,
    rot: it.rot,
    width: it.width,
    length: it.length,
    allowSit: it.allowSit ?? false,
    allowLay: it.allowLay ?? false,
    stackHeight,
    height: currentHeight(stackHeight, it.interactionType, it.multiHeight ?? '', it.extraData),
  };
}
