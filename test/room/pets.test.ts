// Pets in a room, drawn as the client's pet visualization draws them (src/room/objects/pet.ts): on the sample
// kit's procedural dog library, at their tile, seated on a seat as every unit is (the emulator's rule), skipped
// with a reason when their figure or library is missing. The positions are the client's, checked against the
// Nitro renderer on the public pet libraries (docs/rooms.md, Pets).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRoomAssets, renderRoom, roomData, type RoomAssets, type RoomPet } from '../../src/room/index.js';
import { writeSampleKit } from '../../src/samplekit/index.js';
import { floorItem } from '../helpers/room-items.js';

let dir: string;
let assets: RoomAssets;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'room-pets-'));
  await writeSampleKit(dir);
  assets = await loadRoomAssets(dir);
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const HEIGHTMAP = ['xxxxxxxxxx', 'xxxx000000', 'xxxx000000', 'xxx0000000', 'xxxx000000', 'xxxx000000'].join('\r\n');
const OPTIONS = { size: 64, walls: true, furni: true, bots: true } as const;
const pet = (x: number, y: number, fields: Partial<RoomPet> = {}): RoomPet => ({
  id: 9,
  name: 'Rex',
  figure: '0 1 ffffff 2 2 -1 0 3 -1 0',
  x,
  y,
  z: 0,
  rot: 2,
  posture: 'std',
  ...fields,
});
/** The pet's report entry and its box relative to the screen point of its tile at height 0. */
function petBox(pic: Awaited<ReturnType<typeof renderRoom>>, x: number, y: number) {
  const p = pic.report.items.find((i) => i.kind === 'pet')!;
  const o = pic.report.origin;
  return { ...p, rel: { x: p.box.x - o.x - 32 * (x - y), y: p.box.y - o.y - 16 * (x + y), w: p.box.width } };
}
const room = (pets: RoomPet[], items = [] as ReturnType<typeof floorItem>[]) =>
  roomData({ id: 7, heightmap: HEIGHTMAP, door: { x: 3, y: 3, dir: 2 }, items, pets });

test("a pet stands on its tile: its library's sprites placed from the tile's screen point, as a floor item's", async () => {
  const at = petBox(await renderRoom(room([pet(6, 3)]), assets, OPTIONS), 6, 3);
  assert.deepEqual(
    [at.classname, at.tile, at.direction, at.posture, at.layers],
    ['dog', { x: 6, y: 3, z: 0 }, 2, undefined, ['dog_64_a_2_0', 'dog_64_b_2_0', 'dog_64_c_2_0']],
  );
  // The box (sprites and shadow) from the tile point: the kit dog's offsets, the same on every tile.
  assert.deepEqual(at.rel, { x: -19, y: -32, w: 42 });
  const moved = petBox(await renderRoom(room([pet(7, 4)]), assets, OPTIONS), 7, 4);
  assert.deepEqual(moved.rel, at.rel);
});

test('a pet on a seat sits at the seat’s height, turned as the seat (the rule every unit follows)', async () => {
  const seat = floorItem(1, 'kit_chair_4dir', 6, 3, { rot: 4, allowSit: true, allowLay: false, stackHeight: 0.5 });
  const p = petBox(await renderRoom(room([pet(6, 3)], [seat]), assets, OPTIONS), 6, 3);
  assert.deepEqual([p.tile, p.direction, p.posture], [{ x: 6, y: 3, z: 0.5 }, 4, { type: 'sit', height: 0.5 }]);
  // The kit library's sit animation (10): body and tail on their sitting frames, the head on its own.
  assert.deepEqual(p.layers, ['dog_64_a_4_1000', 'dog_64_b_4_0', 'dog_64_c_4_1000']);
});

test('bots=0 takes pets off too; a pet without a library or with a broken figure is listed as skipped', async () => {
  const off = await renderRoom(room([pet(6, 3)]), assets, { ...OPTIONS, bots: false });
  assert.equal(off.report.items.filter((i) => i.kind === 'pet').length, 0);
  const pic = await renderRoom(
    room([pet(6, 3, { id: 1, figure: '1 0 ffffff' }), pet(5, 3, { id: 2, figure: 'dog please' })]),
    assets,
    OPTIONS,
  );
  assert.deepEqual(
    pic.report.skipped.map((s) => [s.id, s.kind, s.reason]),
    [
      [1, 'pet', 'no pet library bundled/pet/cat.nitro'],
      [2, 'pet', 'its figure "dog please": a pet figure starts with its type, a whole number ≥ 0 (got "dog please")'],
    ],
  );
});
