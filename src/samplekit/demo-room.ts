// The sample kit's demo room, `rooms/1.json`: a RoomData (src/room/model.ts) the avatar service's room route
// (server/room/) serves as room 1 when there is no database, so `npm start` shows a room. Furnished with the kit's
// own furni (multi-tile items in several rotations, a stack, wall items on both walls, a raised platform
// with a step), one bot wearing kit clothes and one pet, the kit's dog (bundled/pet/dog.nitro), sitting.
import { type KitFile } from './kit-file.js';
import { roomData, type RoomData } from '../room/model.js';

export const DEMO_ROOM_ID = 1;
export const DEMO_ROOM_PATH = `rooms/${DEMO_ROOM_ID}.json`;

// Row 0 and column 0 are the walls' tiles; the door is the opening at (0, 5); the back right corner is a
// platform one unit up, with a step of half height in front of it.
const HEIGHTMAP = [
  'xxxxxxxxxxxx',
  'x00000001111',
  'x00000001111',
  'x00000001111',
  'x00000000000',
  '000000000000',
  'x00000000000',
  'x00000000000',
  'x00000000000',
  'x00000000000',
].join('\r');

interface DemoItem {
  classname: string;
  kind: 'floor' | 'wall';
  x?: number;
  y?: number;
  z?: number;
  rot?: number;
  wallPosition?: string;
  extraData?: string;
  width?: number;
  length?: number;
  interactionType?: string;
}

const ITEMS: DemoItem[] = [
  { classname: 'kit_rug_darken', kind: 'floor', x: 3, y: 6, width: 2, length: 2 },
  { classname: 'kit_table_sd', kind: 'floor', x: 3, y: 3, rot: 0, width: 2, length: 2 },
  { classname: 'kit_chair_4dir', kind: 'floor', x: 3, y: 2, rot: 4 },
  { classname: 'kit_chair_4dir', kind: 'floor', x: 4, y: 5, rot: 0 },
  { classname: 'kit_chair_4dir', kind: 'floor', x: 2, y: 4, rot: 2 },
  { classname: 'kit_chair_4dir', kind: 'floor', x: 5, y: 3, rot: 6 },
  { classname: 'kit_sofa_colors*3', kind: 'floor', x: 1, y: 7, rot: 2, width: 2, length: 1 },
  { classname: 'kit_big_3x2', kind: 'floor', x: 8, y: 1, z: 1, rot: 0, width: 3, length: 2 },
  { classname: 'kit_crate', kind: 'floor', x: 6, y: 8 },
  { classname: 'kit_crate', kind: 'floor', x: 6, y: 8, z: 1 },
  { classname: 'kit_vase_colors*2', kind: 'floor', x: 6, y: 8, z: 2 },
  { classname: 'kit_lamp_state2', kind: 'floor', x: 1, y: 1, extraData: '2', interactionType: 'default' },
  { classname: 'kit_totem_nodir2', kind: 'floor', x: 10, y: 6 },
  { classname: 'kit_wall_poster', kind: 'wall', wallPosition: ':w=3,0 l=10,30 r' },
  { classname: 'kit_wall_shelf*2', kind: 'wall', wallPosition: ':w=6,0 l=4,40 r' },
  { classname: 'kit_wall_led', kind: 'wall', wallPosition: ':w=0,2 l=8,34 l' },
];

/** The demo room as the kit writes it. */
export function demoRoom(): RoomData {
  return roomData({
    id: DEMO_ROOM_ID,
    heightmap: HEIGHTMAP,
    door: { x: 0, y: 5, dir: 2 },
    items: ITEMS.map((it, i) => ({
      id: i + 1,
      classname: it.classname,
      kind: it.kind,
      x: it.x ?? 0,
      y: it.y ?? 0,
      z: it.z ?? 0,
      rot: it.rot ?? 0,
      wallPosition: it.wallPosition ?? '',
      extraData: it.extraData ?? '0',
      width: it.width ?? 1,
      length: it.length ?? 1,
      interactionType: it.interactionType ?? 'default',
    })),
    bots: [
      {
        id: 1,
        name: 'Kit',
        figure: 'hd-180-1.hr-100-61.ch-210-66.lg-270-82.sh-290-80',
        gender: 'M',
        x: 5,
        y: 6,
        z: 0,
        rot: 4,
        dance: 0,
        effect: 0,
      },
    ],
    pets: [
      {
        id: 1,
        name: 'Biscuit',
        // As the emulator sends a dog of palette 0 (arcturusPetFigure): its tail and emoticon layers are drawn in
        // palette 0 whatever the pet's own, so palette 0 keeps the dog one colour.
        figure: '0 0 ffffff 2 2 -1 0 3 -1 0',
        x: 7,
        y: 5,
        z: 0,
        rot: 4,
        posture: 'sit',
      },
    ],
  });
}

export function demoRoomFiles(): KitFile[] {
  return [{ path: DEMO_ROOM_PATH, data: Buffer.from(`${JSON.stringify(demoRoom(), null, 2)}\n`) }];
}
