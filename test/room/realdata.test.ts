// Rooms drawn with the real room visualization and furni of ../shared/realdata/nitro-rooms (skipped when
// absent): items land where the client's formula puts them in every rotation and both sizes, wall items
// move along the wall as their position says, the door is cut, a missing bundle is skipped and listed,
// and the same inputs give the same bytes.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  loadRoomAssets,
  renderRoom,
  roomData,
  type RoomAssets,
  type RoomData,
  type RoomItem,
} from '../../src/room/index.js';
import { realdata } from '../helpers/realdata.js';
import { floorItem } from '../helpers/room-items.js';

const rooms = realdata('nitro-rooms');
let assets: RoomAssets;
before(async () => {
  if (!rooms.skip) assets = await loadRoomAssets(rooms.path);
});

const HEIGHTMAP = [
  'xxxxxxxxxx',
  'xxx0000000',
  'xxx0000000',
  'xx00000000',
  'xxx0000000',
  'xxx0000000',
  'xxx0000000',
].join('\r');

function room(items: RoomItem[]): RoomData {
  return roomData({ id: 1, heightmap: HEIGHTMAP, door: { x: 2, y: 3, dir: 2 }, items });
}

const floor = (id: number, classname: string, x: number, y: number, z: number, rot: number): RoomItem =>
  floorItem(id, classname, x, y, { z, rot });

const OPTIONS = { walls: true, furni: true, bots: false } as const;

test('a 1×1 item moves by (32(Δx − Δy), 16(Δx + Δy) − 32Δz) in every rotation, half at size 32', {
  skip: rooms.skip,
}, async () => {
  for (const size of [64, 32] as const) {
    const k = size / 64;
    for (const rot of [0, 2, 4, 6]) {
      const pic = await renderRoom(
        room([floor(1, 'chair_plasto', 4, 2, 0, rot), floor(2, 'chair_plasto', 7, 5, 1.5, rot)]),
        assets,
        { size, ...OPTIONS },
      );
      const a = pic.report.items.find((i) => i.id === 1)!;
      const b = pic.report.items.find((i) => i.id === 2)!;
      assert.equal(a.direction, rot);
      assert.equal(b.box.x - a.box.x, 32 * k * (3 - 3), `size ${size} rot ${rot}`);
      assert.equal(b.box.y - a.box.y, 16 * k * (3 + 3) - 32 * k * 1.5, `size ${size} rot ${rot}`);
      // the origin is the screen point of tile (0, 0) at height 0
      const o = pic.report.origin;
      assert.ok(a.box.x - o.x > 32 * k * (4 - 2) - 64 * k && a.box.x - o.x <= 32 * k * (4 - 2));
    }
  }
});

test('a wall item lands on its wall where :w= says, and the door is cut out of the wall', {
  skip: rooms.skip,
}, async () => {
  const poster = (id: number, pos: string): RoomItem => ({
    ...floor(id, 'poster1', 0, 0, 0, 0),
    kind: 'wall',
    wallPosition: pos,
  });
  const pic = await renderRoom(
    room([poster(1, ':w=2,1 l=8,30 l'), poster(2, ':w=2,5 l=8,30 l'), poster(3, ':w=5,0 l=8,30 r')]),
    assets,
    {
      size: 64,
      ...OPTIONS,
    },
  );
  const [a, b, c] = [1, 2, 3].map((id) => pic.report.items.find((i) => i.id === id)!);
  // four tiles down the left wall: (−32·4, +16·4)
  assert.equal(b!.box.x - a!.box.x, -128);
  assert.equal(b!.box.y - a!.box.y, 64);
  assert.equal(a!.direction, 2);
  assert.equal(c!.direction, 4);
  assert.deepEqual(c!.tile, { x: 5, y: 0.5, z: 3.6 - 26 / 16 });
  assert.deepEqual(pic.report.door, { x: 2, y: 3, z: 0, wall: 'l' });
  const door = pic.report.masks.find((m) => m.id === 'door')!;
  assert.ok(door.pixelsCut > 1000, `door cut ${door.pixelsCut} pixels`);
  // a pixel of the wall above the door tile, inside the door's opening, is transparent
  const o = pic.report.origin;
  const px = o.x + 32 * (2.5 - 3);
  const py = o.y + 16 * (2.5 + 3) - 32 * 1.5;
  assert.equal(pic.rgba[(py * pic.width + px) * 4 + 3], 0);
  const solid = o.y + 16 * (2.5 + 1) - 32 * 1.5;
  assert.equal(pic.rgba[(solid * pic.width + o.x + 32 * (2.5 - 1)) * 4 + 3], 255, 'the wall beside is opaque');
});

test('an item without a bundle is skipped and listed; the same room gives the same bytes', {
  skip: rooms.skip,
}, async () => {
  const data = room([floor(1, 'no_such_item', 4, 4, 0, 0), floor(2, 'sofa_silo*3', 5, 3, 0, 2)]);
  const a = await renderRoom(data, assets, { size: 64, ...OPTIONS });
  const b = await renderRoom(data, assets, { size: 64, ...OPTIONS });
  assert.deepEqual(a.report.skipped, [
    { id: 1, kind: 'floor', classname: 'no_such_item', reason: 'no bundle bundled/furniture/no_such_item.nitro' },
  ]);
  assert.equal(a.report.items[0]!.colorId, 3);
  assert.ok(a.rgba.equals(b.rgba));
  // transparent outside the room: the top-left corner is left of the walls
  assert.equal(a.rgba[3], 0);
});
