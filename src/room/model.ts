// A room as the renderer takes it: plain, immutable data read from the hotel's rows (or the sample kit),
// before any geometry. Where it comes from (database rows, a kit file) is the service's business; what it
// looks like on screen is the renderer's (src/room/render.ts).
import { type StoredPet } from '../pet/stored.js';

/** One floor or wall item as the emulator stores it (Arcturus `items` joined with `items_base`). */
export interface RoomItem {
  readonly id: number;
  /** The furnidata classname, with `*<n>` for a colour variant (`items_base.item_name`). */
  readonly classname: string;
  /** `floor` (items_base.type `s`) or `wall` (`i`). */
  readonly kind: 'floor' | 'wall';
  /** Tile and height of a floor item (unused for wall items). */
  readonly x: number;
  readonly y: number;
  readonly z: number;
  /** Rotation as stored: 0, 2, 4, 6 for floor items (odd values and >7 are normalised by the renderer). */
  readonly rot: number;
  /** A wall item's position string, `:w=<x>,<y> l=<ox>,<oy> <l|r>`; empty for floor items. */
  readonly wallPosition: string;
  /** The state as the emulator stores it (`items.extra_data`), read per the item's logic type. */
  readonly extraData: string;
  /** Footprint in tiles before rotation (`items_base.width`, `length`). */
  readonly width: number;
  readonly length: number;
  /** `items_base.interaction_type` (e.g. `default`, `gate`, `dice`, `roller`): picks how extraData is read. */
  readonly interactionType: string;
  /**
   * `items_base.allow_sit` / `allow_lay`: a unit on the item sits or lies (src/room/posture.ts). Absent when the
   * source does not say (a room description, an operator's query without these columns): no unit sits on it.
   */
  readonly allowSit?: boolean;
  readonly allowLay?: boolean;
  /** `items_base.stack_height`; absent: the furni bundle's logic height (dimensions z) stands in for it. */
  readonly stackHeight?: number;
  /** `items_base.multiheight` (`0.5;1;1.5`): a multi-height item's heights, picked by its state. */
  readonly multiHeight?: string;
}

/** A bot standing in the room (Arcturus `bots`). */
export interface RoomBot {
  readonly id: number;
  readonly name: string;
  readonly figure: string;
  readonly gender: 'M' | 'F';
  readonly x: number;
  readonly y: number;
  readonly z: number;
  /** Body direction 0–7. */
  readonly rot: number;
  /** Dance id (0 = none). */
  readonly dance: number;
  /** Avatar effect id (0 = none). */
  readonly effect: number;
}

/** A pet in the room (Arcturus `users_pets` with its `room_id`), as the emulator places it. */
export type RoomPet = StoredPet;

/** Everything that decides a room's picture. */
export interface RoomData {
  readonly id: number;
  /** The heightmap exactly as stored (rows split by `\r`, `\n`, `\r\n` or the two characters `\n`). */
  readonly heightmap: string;
  /** The model's door tile and the direction one enters by. */
  readonly door: { readonly x: number; readonly y: number; readonly dir: number };
  /** Decoration ids as the emulator stores them (`rooms.paper_floor` …); `0.0` or empty = the default. */
  readonly floor: string;
  readonly wall: string;
  readonly landscape: string;
  /** `rooms.thickness_wall` / `thickness_floor` (-2 … 1, 0 = normal). */
  readonly wallThickness: number;
  readonly floorThickness: number;
  /** `rooms.wall_height`; -1 = the client's default. */
  readonly wallHeight: number;
  /** `rooms.allow_hidewall` set: the client draws no walls. */
  readonly hideWalls: boolean;
  readonly items: readonly RoomItem[];
  readonly bots: readonly RoomBot[];
  readonly pets: readonly RoomPet[];
}

/**
 * A room with the emulator's defaults for what the caller leaves out: the default decorations (`0.0`), normal
 * wall and floor thickness, the client's wall height, walls shown, no items, no bots, no pets.
 */
export function roomData(fields: Pick<RoomData, 'id' | 'heightmap' | 'door'> & Partial<RoomData>): RoomData {
  // The fields in RoomData's order, so a room written as JSON (the kit's demo room) keeps its bytes.
  return {
    id: fields.id,
    heightmap: fields.heightmap,
    door: fields.door,
    floor: fields.floor ?? '0.0',
    wall: fields.wall ?? '0.0',
    landscape: fields.landscape ?? '0.0',
    wallThickness: fields.wallThickness ?? 0,
    floorThickness: fields.floorThickness ?? 0,
    wallHeight: fields.wallHeight ?? -1,
    hideWalls: fields.hideWalls ?? false,
    items: fields.items ?? [],
    bots: fields.bots ?? [],
    pets: fields.pets ?? [],
  };
}
