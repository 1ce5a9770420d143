// Room descriptions as the room-reference dev tool reads them (heightmap rows, paint, items, bots), turned
// into the emulator's rows: the tool's examples are test fixtures, and bench/room-reference.ts scores our
// pictures of them against the client's.
import { type RoomData, roomData } from '../../src/room/index.js';

/** A floor item (tile, height, rotation) or a wall item (`wall`: Arcturus' wall_pos), with its stored state. */
export interface DescriptionItem {
  id: number;
  classname: string;
  x?: number;
  y?: number;
  z?: number;
  rot?: number;
  state?: string;
  wall?: string;
  /** The emulator's seat and bed columns (items_base allow_sit, allow_lay, stack_height); the tool ignores them. */
  allowSit?: boolean;
  allowLay?: boolean;
  stackHeight?: number;
}

export interface Description {
  heightmap: string | string[];
  door?: { x: number; y: number; dir: number };
  wallHeight?: number;
  floorType?: string | null;
  wallType?: string | null;
  landscapeType?: string | null;
  wallThickness?: number;
  floorThickness?: number;
  hideWalls?: boolean;
  items?: DescriptionItem[];
  bots?: {
    id: number;
    figure: string;
    gender?: string;
    x: number;
    y: number;
    z?: number;
    rot?: number;
    dance?: number;
    effect?: number;
  }[];
  /** Pets as the tool places them: the client's figure string, tile, direction and posture. */
  pets?: { id: number; figure: string; x: number; y: number; z?: number; rot?: number; posture?: string }[];
}

/** The description as the emulator's rows: an unsent paper is the stored "0.0". */
export function descriptionRoom(d: Description, id = 1): RoomData {
  const rows = Array.isArray(d.heightmap) ? d.heightmap.join('\r') : d.heightmap;
  return roomData({
    id,
    heightmap: rows,
    door: d.door ?? { x: 0, y: 0, dir: 2 },
    floor: d.floorType ?? '0.0',
    wall: d.wallType ?? '0.0',
    landscape: d.landscapeType ?? '0.0',
    wallThickness: d.wallThickness ?? 0,
    floorThickness: d.floorThickness ?? 0,
    wallHeight: d.wallHeight ?? -1,
    hideWalls: d.hideWalls ?? false,
    items: (d.items ?? []).map((i) => ({
      id: i.id,
      classname: i.classname,
      kind: i.wall ? ('wall' as const) : ('floor' as const),
      x: i.x ?? 0,
      y: i.y ?? 0,
      z: i.z ?? 0,
      rot: i.rot ?? 0,
      wallPosition: i.wall ?? '',
      extraData: i.state ?? '',
      width: 1,
      length: 1,
      interactionType: 'default',
      ...(i.allowSit !== undefined ? { allowSit: i.allowSit } : {}),
      ...(i.allowLay !== undefined ? { allowLay: i.allowLay } : {}),
      ...(i.stackHeight !== undefined ? { stackHeight: i.stackHeight } : {}),
    })),
    bots: (d.bots ?? []).map((b) => ({
      id: b.id,
      name: `bot${b.id}`,
      figure: b.figure,
      gender: b.gender === 'F' ? ('F' as const) : ('M' as const),
      x: b.x,
      y: b.y,
      z: b.z ?? 0,
      rot: b.rot ?? 2,
      dance: b.dance ?? 0,
      effect: b.effect ?? 0,
    })),
    pets: (d.pets ?? []).map((p) => ({
      id: p.id,
      name: `pet${p.id}`,
      figure: p.figure,
      x: p.x,
      y: p.y,
      z: p.z ?? 0,
      rot: p.rot ?? 2,
      // The tool's status for the pet (a pet told to sit or lie down); on a seat or bed the items say it too.
      posture: p.posture ?? 'std',
    })),
  });
}
