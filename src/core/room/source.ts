// Where a room's data comes from: the hotel's database (the contract's room, room_model, room_model_custom,
// room_items and room_bots queries), or a folder of RoomData JSON files (the sample kit's demo room). Both
// turn what they read into the same plain RoomData, built in one key order, so its JSON is a canonical form
// the cache key digests. Reading is bounded: at most `maxItems` items and `maxBots` bots are read (one more
// row is asked for, to know the room has more).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { petOf } from '../../pet/stored.js';
import { type Row, rowFlag, rowInt, rowNumber, rowText } from '../../util/row-values.js';
import { type RoomBot, type RoomData, type RoomItem, type RoomPet } from '../../room/index.js';

/** What a source read for one room: its data, and whether it has more items or bots than were read. */
export interface RoomRead {
  room: RoomData;
  /** Items (bots) beyond the bound, not read: the room is drawn without them and the debug page says so. */
  moreItems: boolean;
  moreBots: boolean;
}

export interface RoomReadLimits {
  maxItems: number;
  maxBots: number;
}

export interface RoomSource {
  /** `database` or `file`, for /healthz and the debug page. */
  readonly kind: 'database' | 'file';
  /** The room, or null when there is no such room. Throws RoomDataError when its rows cannot make a room. */
  read(roomId: number, limits: RoomReadLimits): Promise<RoomRead | null>;
}

/** A room that exists but whose rows (or file) cannot be drawn: a model that is not there, a file that is not JSON. */
export class RoomDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RoomDataError';
  }
}

/** What the database source needs of the database client (src/database's HotelDatabase has it). */
export interface RoomQueries {
  run(
    query: 'room' | 'room_model' | 'room_model_custom' | 'room_items' | 'room_bots' | 'room_pets',
    params: Record<string, string | number>,
  ): Promise<Record<string, string | number | null>[]>;
}

const num = rowNumber;
const int = rowInt;
const text = rowText;
const flag = rowFlag;

function itemOf(r: Row): RoomItem | undefined {
  const type = text(r.type).toLowerCase();
  if (type !== 's' && type !== 'i') return undefined;
  return {
    id: int(r.id),
    classname: text(r.classname),
    kind: type === 's' ? 'floor' : 'wall',
    x: int(r.x),
    y: int(r.y),
    z: num(r.z),
    rot: int(r.rot),
    wallPosition: type === 'i' ? text(r.wall_pos) : '',
    extraData: text(r.extra_data),
    width: Math.max(1, int(r.width, 1)),
    length: Math.max(1, int(r.length, 1)),
    interactionType: text(r.interaction_type),
    ...seatColumns(r),
  };
}

/**
 * The seat and bed columns (room_items' optional outputs, or a file's allowSit …), only those the row has: a
 * source that does not give them leaves them out, and no unit sits or lies on the item (src/room/posture.ts).
 */
function seatColumns(r: Row): Pick<RoomItem, 'allowSit' | 'allowLay' | 'stackHeight' | 'multiHeight'> {
  const sit = r.allow_sit ?? r.allowSit;
  const lay = r.allow_lay ?? r.allowLay;
  const height = r.stack_height ?? r.stackHeight;
  const multi = r.multiheight ?? r.multiHeight;
  return {
    ...(sit !== undefined && sit !== null ? { allowSit: flag(sit) } : {}),
    ...(lay !== undefined && lay !== null ? { allowLay: flag(lay) } : {}),
    ...(height !== undefined && height !== null ? { stackHeight: num(height) } : {}),
    ...(multi !== undefined && multi !== null && text(multi) !== '' ? { multiHeight: text(multi) } : {}),
  };
}

function botOf(r: Row): RoomBot {
  return {
    id: int(r.id),
    name: text(r.name),
    figure: text(r.figure),
    gender: text(r.gender).toUpperCase() === 'F' ? 'F' : 'M',
    x: int(r.x),
    y: int(r.y),
    z: num(r.z),
    rot: int(r.rot),
    dance: int(r.dance),
    effect: int(r.effect),
  };
}

/** RoomData in its one key order from rows (or a file's object, whose keys are the same as RoomData's). */
function roomOf(
  id: number,
  room: Row,
  model: Row,
  items: readonly RoomItem[],
  bots: readonly RoomBot[],
  pets: readonly RoomPet[],
  names: { floor: string; wall: string; landscape: string; wallThickness: string; floorThickness: string },
): RoomData {
  return {
    id,
    heightmap: text(model.heightmap),
    door: { x: int(model.door_x), y: int(model.door_y), dir: int(model.door_dir) },
    floor: text(room[names.floor]),
    wall: text(room[names.wall]),
    landscape: text(room[names.landscape]),
    wallThickness: int(room[names.wallThickness]),
    floorThickness: int(room[names.floorThickness]),
    wallHeight: int(room.wall_height ?? room.wallHeight, -1),
    hideWalls: flag(room.allow_hidewall ?? room.hideWalls),
    items,
    bots,
    pets,
  };
}

const ROW_NAMES = {
  floor: 'paper_floor',
  wall: 'paper_wall',
  landscape: 'paper_landscape',
  wallThickness: 'thickness_wall',
  floorThickness: 'thickness_floor',
};

/** Rooms from the hotel's database (Arcturus rows, or whatever an operator's query overrides return). */
export class DatabaseRoomSource implements RoomSource {
  readonly kind = 'database';

  constructor(private readonly db: RoomQueries) {}

  async read(roomId: number, limits: RoomReadLimits): Promise<RoomRead | null> {
    const [room] = await this.db.run('room', { room_id: roomId });
    if (!room) return null;
    const modelName = text(room.model);
    // Items, bots and the model are independent: one round trip's wait for the three.
    const [model, itemRows, botRows, petRows] = await Promise.all([
      this.model(roomId, modelName, flag(room.override_model)),
      this.db.run('room_items', { room_id: roomId, limit: limits.maxItems + 1 }),
      this.db.run('room_bots', { room_id: roomId, limit: limits.maxBots + 1 }),
      this.pets(roomId, limits.maxBots + 1),
    ]);
    const items: RoomItem[] = [];
    for (const r of itemRows.slice(0, limits.maxItems)) {
      const item = itemOf(r);
      if (item) items.push(item);
    }
    const bots = botRows.slice(0, limits.maxBots).map(botOf);
    const pets = petRows.slice(0, limits.maxBots).map(petOf);
    return {
      room: roomOf(roomId, room, model, items, bots, pets, ROW_NAMES),
      moreItems: itemRows.length > limits.maxItems,
      moreBots: botRows.length > limits.maxBots || petRows.length > limits.maxBots,
    };
  }

  /**
   * The room's pets; none when the query itself fails (an account not granted `users_pets`, an emulator without
   * the table): the room is still drawn. An outage or a timeout fails the read as any other query's does.
   */
  private async pets(roomId: number, limit: number): Promise<Row[]> {
    try {
      return await this.db.run('room_pets', { room_id: roomId, limit });
    } catch (e) {
      if ((e as { kind?: string }).kind === 'query') return [];
      throw e;
    }
  }

  /** The room's own floor plan where the emulator marks one (override_model), else its named model. */
  private async model(roomId: number, name: string, custom: boolean): Promise<Row> {
    if (custom) {
      const [own] = await this.db.run('room_model_custom', { room_id: roomId });
      if (own) return own;
    }
    const [named] = await this.db.run('room_model', { name });
    if (named) return named;
    throw new RoomDataError(
      custom
        ? `room ${roomId} overrides its model but room_models_custom has no row for it, and its model ` +
            `${JSON.stringify(name)} is not in room_models`
        : `room ${roomId}'s model ${JSON.stringify(name)} is not in room_models`,
    );
  }
}

/** A folder of `<room id>.json` files, each a RoomData (the sample kit writes its demo room as `rooms/1.json`). */
export class FileRoomSource implements RoomSource {
  readonly kind = 'file';

  constructor(readonly dir: string) {}

  async read(roomId: number, limits: RoomReadLimits): Promise<RoomRead | null> {
    const file = join(this.dir, `${roomId}.json`);
    let raw: string;
    try {
      raw = await readFile(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new RoomDataError(`cannot read ${file}: ${(e as Error).message}`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (e) {
      throw new RoomDataError(`${file} is not JSON (${(e as Error).message}); write it as a RoomData object`);
    }
    const o = parsed as Record<string, unknown>;
    if (typeof o !== 'object' || o === null || typeof o.heightmap !== 'string' || typeof o.door !== 'object')
      throw new RoomDataError(`${file} is not a RoomData object: it needs at least "heightmap" (text) and "door"`);
    const door = (o.door ?? {}) as Row;
    const list = (v: unknown) => (Array.isArray(v) ? (v as Row[]) : []);
    const items: RoomItem[] = [];
    for (const r of list(o.items).slice(0, limits.maxItems)) {
      const item = itemOf({
        ...r,
        type: r.kind === 'wall' ? 'i' : 's',
        wall_pos: r.wallPosition,
        extra_data: r.extraData,
      });
      if (item) items.push({ ...item, interactionType: text(r.interactionType) });
    }
    const bots = list(o.bots).slice(0, limits.maxBots).map(botOf);
    const pets = list(o.pets).slice(0, limits.maxBots).map(petOf);
    const room = roomOf(
      roomId,
      o as Row,
      { heightmap: o.heightmap, door_x: door.x, door_y: door.y, door_dir: door.dir },
      items,
      bots,
      pets,
      {
        floor: 'floor',
        wall: 'wall',
        landscape: 'landscape',
        wallThickness: 'wallThickness',
        floorThickness: 'floorThickness',
      },
    );
    const moreBots = list(o.bots).length > limits.maxBots || list(o.pets).length > limits.maxBots;
    return { room, moreItems: list(o.items).length > limits.maxItems, moreBots };
  }
}
