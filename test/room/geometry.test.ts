// The room's geometry without looking: heightmap forms, the client's projection and wall positions, the
// door, stairs, and the depth order. No asset is read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { depthOf, parseWallPosition, project, wallLocation } from '../../src/room/geometry.js';
import { findDoor, HeightmapError, NO_TILE, parseHeightmap } from '../../src/room/heightmap.js';
import { expandFloor, roomShape, thicknessMultiplier } from '../../src/room/planes.js';

test('heightmaps: \\r, \\r\\n, \\n and the two characters \\n are line breaks; x/X no tile; a = 10', () => {
  const forms = ['x0a\r000\rX00', 'x0a\r\n000\r\nX00', 'x0a\n000\nX00', 'x0a\\n000\\nX00', 'x0a\r\n000\r\nX00\r\n'];
  for (const f of forms) {
    const m = parseHeightmap(f);
    assert.equal(m.width, 3);
    assert.equal(m.height, 3);
    assert.deepEqual(m.heights, [
      [NO_TILE, 0, 10],
      [0, 0, 0],
      [NO_TILE, 0, 0],
    ]);
  }
  assert.throws(() => parseHeightmap('\r\n'), HeightmapError);
  // the client's floor plan editor stops at 64 tiles an axis
  assert.equal(parseHeightmap('0'.repeat(64)).width, 64);
  assert.throws(() => parseHeightmap('0'.repeat(65)), /65 × 1 tiles, over the 64 × 64 drawn/);
});

test('a tile (x, y, z) projects to (32(x − y), 16(x + y) − 32z) at size 64 and half that at 32', () => {
  for (const [x, y, z] of [
    [0, 0, 0],
    [3, 5, 0],
    [7, 2, 1.5],
    [10, 10, 4],
  ] as const) {
    assert.deepEqual(project(64, x, y, z), { x: 32 * (x - y), y: 16 * (x + y) - 32 * z });
    assert.deepEqual(project(32, x, y, z), { x: 16 * (x - y), y: 8 * (x + y) - 16 * z });
  }
});

test('wall positions: :w=x,y l=ox,oy l|r land on the wall as LegacyWallGeometry puts them', () => {
  assert.equal(parseWallPosition('not a wall'), null);
  const r = parseWallPosition(':w=6,0 l=8,40 r')!;
  assert.deepEqual(r, { wallX: 6, wallY: 0, localX: 8, localY: 40, side: 'r' });
  // right wall: x = 6 + 8/16 − 0.5, y = 0.5 (the wall's face), z = 3.6 − (40 − 4)/16
  assert.deepEqual(wallLocation(r, 3.6), { x: 6, y: 0.5, z: 3.6 - 36 / 16 });
  const l = parseWallPosition(':w=3,4 l=12,30 l')!;
  // left wall: x = 3.5, y = 4 + (16 − 12)/16 − 0.5, z = 3.6 − (30 − 2)/16
  assert.deepEqual(wallLocation(l, 3.6), { x: 3.5, y: 3.75, z: 3.6 - 28 / 16 });
});

const MODEL_A = [
  'xxxxxxxxxxxx',
  'xxxx00000000',
  'xxxx00000000',
  'xxxx00000000',
  'xxxx00000000',
  'xxx000000000',
  'xxxx00000000',
  'xxxxxxxxxxxx',
].join('\r\n');

test('the door: the model door tile sticking out through the left wall is a 90° door, cut from the wall', () => {
  const map = parseHeightmap(MODEL_A);
  assert.deepEqual(findDoor(map, 3, 5), { x: 3, y: 5, z: 0, wall: 90 });
  // the client finds the door from the heightmap alone (RoomMessageHandler): the model's door tile is not asked
  assert.deepEqual(findDoor(map, 5, 5), { x: 3, y: 5, z: 0, wall: 90 });
  // of two tiles sticking out, the last in row order; none at all: no door
  assert.deepEqual(findDoor(parseHeightmap('xxxxx\rxx0xx\rx000x\rxx00x\rxxxxx')), { x: 1, y: 2, z: 0, wall: 90 });
  assert.equal(findDoor(parseHeightmap('xxxx\rx00x\rx00x\rxxxx')), null);
  const shape = roomShape(map, {
    door: findDoor(map, 3, 5),
    wallHeight: -1,
    wallThickness: 1,
    floorThickness: 1,
    walls: true,
  });
  // The left wall runs behind the door tile (x = 3.5), one straight run from the back corner to the front
  // (RoomPlaneParser.addWalls), and the border's corner piece closes the back corner (addWall).
  const leftWalls = shape.planes.filter((p) => p.kind === 'wall' && p.wall === 'l' && p.textured);
  assert.deepEqual(
    leftWalls.map((p) => [p.origin, p.left, p.right]),
    [
      [
        [3.5, 0.5, 0],
        [0, 6, 0],
        [0, 0, 3.6],
      ],
    ],
    'the wall beside the door stays on the room edge',
  );
  assert.ok(
    shape.planes.some((p) => p.kind === 'wall' && p.origin.join() === '3.5,0.25,3.6' && p.left.join() === '0,0.25,0'),
    'the corner piece',
  );
  assert.equal(shape.wallTop, 3.6);
  // wall_height 2: the client's fixed height adds 3.6 and raises the floor height to 2
  const high = roomShape(map, { door: null, wallHeight: 2, wallThickness: 1, floorThickness: 1, walls: true });
  assert.equal(high.wallTop, 2 + 3.6 + 2);
  // a door tile stored as x is no tile, as Arcturus sends the map: no door sticks out
  const stored = parseHeightmap(MODEL_A.replace('xxx000000000', 'xxxx00000000'));
  assert.equal(findDoor(stored, 3, 5), null);
  assert.equal(thicknessMultiplier(-2), 0.25);
  assert.equal(thicknessMultiplier(5), 2);
});

test('stairs: a tile beside one exactly one higher rises in quarter steps (expandFloorTiles)', () => {
  const q = expandFloor(parseHeightmap('001\r001'), null);
  // tile (1, 0): its right edge touches the height-1 tile: heights ×4 rise 0 → 3 across it
  assert.deepEqual(q[0]!.slice(4, 8), [0, 1, 2, 3]);
  // a flat tile far from the step stays flat
  assert.deepEqual(q[0]!.slice(0, 4), [0, 0, 0, 0]);
  assert.deepEqual(q[0]!.slice(8, 12), [4, 4, 4, 4]);
});

test('depth: farther tiles sort before nearer ones; a stack sorts by height', () => {
  // RoomSpriteCanvas draws descending depth
  assert.ok(depthOf(2, 2, 0, 0) > depthOf(3, 2, 0, 32));
  assert.ok(depthOf(2, 2, 0, 0) > depthOf(2, 2, 1, 0));
  // a 2×1 sofa rooted at (4, 4) sorts by its root tile: behind a chair at (5, 4) that it crosses
  assert.ok(depthOf(4, 4, 0, 0) > depthOf(5, 4, 0, 32));
});
