// The posture rule (src/room/posture.ts): which status the emulator gives a unit on the items under it, with
// the numbers of Arcturus' seat and bed rules (RoomCycleManager.cycleRoomUnit, BedProfile).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { currentHeight, itemsUnder, type PostureItem, roomItemPosture, unitPosture } from '../../src/room/index.js';
import { floorItem } from '../helpers/room-items.js';

const item = (fields: Partial<PostureItem>): PostureItem => ({
  x: 3,
  y: 4,
  z: 0,
  rot: 0,
  width: 1,
  length: 1,
  allowSit: false,
  allowLay: false,
  stackHeight: 1,
  height: 1,
  ...fields,
});
const bot = { x: 3, y: 4, z: 0, rot: 4 };

test('nothing under the unit, or a table: it stands as stored', () => {
  assert.deepEqual(unitPosture([], bot), { posture: 'std', height: 0, direction: 4, x: 3, y: 4, z: 0 });
  assert.deepEqual(unitPosture([item({ height: 0.8 })], { ...bot, z: 0.8, rot: 9 }), {
    posture: 'std',
    height: 0,
    direction: 1,
    x: 3,
    y: 4,
    z: 0.8,
  });
});

test("a seat: sit at the seat's height, the seat's z and rotation", () => {
  const chair = item({ allowSit: true, z: 0.5, rot: 6, stackHeight: 1.1, height: 1.1 });
  assert.deepEqual(unitPosture([chair], bot), { posture: 'sit', height: 1.1, direction: 6, x: 3, y: 4, z: 0.5 });
});

test('stacked seats: the tallest (z + height) one; a taller item that is no seat blocks sitting', () => {
  const low = item({ allowSit: true, z: 0, rot: 2, height: 1 });
  const high = item({ allowSit: true, z: 1, rot: 4, height: 0.5 });
  assert.deepEqual(unitPosture([high, low], bot), { posture: 'sit', height: 0.5, direction: 4, x: 3, y: 4, z: 1 });
  // On a tie the item met later wins (the emulator's `>`).
  const twin = item({ allowSit: true, z: 0.5, rot: 6, height: 1 });
  assert.equal(unitPosture([high, twin], bot).direction, 6);
  const crate = item({ z: 1, height: 1 });
  assert.equal(unitPosture([low, crate], bot).posture, 'std', 'the tile is BLOCKED: no sit status');
});

test('a bed: lay at |height + the fork offset|, rotation % 4, moved to the pillow row', () => {
  // A raised double bed (stack height 1.73) at (2, 2) rotation 2 (lengthwise along x): the bot at (3, 4)
  // keeps its y and takes the bed's x.
  const bed = item({ x: 2, y: 2, rot: 2, width: 2, length: 3, allowLay: true, stackHeight: 1.73, height: 1.73 });
  assert.deepEqual(unitPosture([bed], bot), { posture: 'lay', height: 1.73, direction: 2, x: 2, y: 4, z: 0 });
  // Rotation 4: lengthwise along y, keeps x and takes the bed's y; 4 % 4 = 0.
  const bed4 = { ...bed, rot: 4 };
  assert.deepEqual(unitPosture([bed4], bot), { posture: 'lay', height: 1.73, direction: 0, x: 3, y: 2, z: 0 });
  // A flat bed (stack height under 1): BedProfile's −0.5, which the client reads as |0.1 − 0.5| = 0.4.
  const mat = item({ allowLay: true, stackHeight: 0.1, height: 0.1, z: 0.25 });
  const flat = unitPosture([mat], bot);
  assert.equal(flat.posture, 'lay');
  assert.equal(Math.round(flat.height * 1000) / 1000, 0.4);
  assert.equal(flat.z, 0.25);
});

test('a bed on the tile makes it a lay tile: a seat beside it seats no one; an item on the bed blocks laying', () => {
  const bed = item({ allowLay: true, height: 0.5 });
  const chair = item({ allowSit: true, z: 0.5, height: 1 });
  assert.equal(unitPosture([bed, chair], bot).posture, 'std');
  const crate = item({ z: 0.5, height: 1 });
  assert.equal(unitPosture([bed, crate], bot).posture, 'std');
});

test("the footprint: width × length, turned at rotations 2 and 6, as the emulator's getItemsAt", () => {
  const sofa = floorItem(1, 'sofa', 2, 4, { width: 2, length: 1, rot: 0 });
  assert.deepEqual(
    [
      [3, 4],
      [2, 5],
    ].map(([x, y]) => itemsUnder([sofa], x!, y!).length),
    [1, 0],
  );
  const turned = { ...sofa, rot: 2 };
  assert.deepEqual(
    [
      [3, 4],
      [2, 5],
    ].map(([x, y]) => itemsUnder([turned], x!, y!).length),
    [0, 1],
  );
});

test('current height: stack height (0 as 1e-6), or a multi-height item’s height by its state', () => {
  assert.equal(currentHeight(1.1), 1.1);
  assert.equal(currentHeight(0), 1e-6);
  assert.equal(currentHeight(0.5, 'multiheight', '0.5;1;1.5', '2'), 1.5);
  assert.equal(currentHeight(0.5, 'multiheight', '0.5;1;1.5', '4'), 1);
  assert.equal(currentHeight(0.5, 'multiheight', '0.5;1;1.5', ''), 0.5);
  assert.equal(currentHeight(0.7, 'multiheight', '0.5;1;1.5', 'x'), 0.7, 'no integer: the stack height');
  assert.equal(currentHeight(0.7, 'default', '0.5;1;1.5', '2'), 0.7, 'another interaction: the stack height');
  assert.equal(currentHeight(0.7, 'multiheight', '1.5', '0'), 0.7, 'no `;`: no heights');
});

test('a room item as the rule reads it: flags the source left out are false, its height the bundle’s', () => {
  const chair = floorItem(1, 'chair', 3, 4, { allowSit: true, stackHeight: 1.1 });
  assert.deepEqual(roomItemPosture(chair, 1), {
    x: 3,
    y: 4,
    z: 0,
    rot: 0,
    width: 1,
    length: 1,
    allowSit: true,
    allowLay: false,
    stackHeight: 1.1,
    height: 1.1,
  });
  const described = roomItemPosture(floorItem(2, 'chair', 3, 4), 0.99);
  assert.equal(described.allowSit, false);
  assert.equal(described.height, 0.99);
});
