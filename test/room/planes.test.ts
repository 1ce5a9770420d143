// The room's planes as the client's RoomPlaneParser makes them, drawn on the sample kit: a height step is the
// floor's thickness, not a solid face (extractPlanes, addFloor); stairs are quarter steps with a riser each;
// the back corner has the border's corner piece (addWall), so the picture's top row is that corner; the door
// floor sorts behind the wall (RoomEngine's door displacement) and the door is cut leaning with the wall.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRoomVisualization } from '../../src/hotel/room.js';
import { landscapeTexture } from '../../src/room/draw-planes.js';
import { findDoor, parseHeightmap } from '../../src/room/heightmap.js';
import { loadRoomAssets, type RoomAssets, type RoomPicture, renderRoom, roomData } from '../../src/room/index.js';
import { entranceTile, roomShape } from '../../src/room/planes.js';
import { writeSampleKit } from '../../src/samplekit/index.js';

let dir: string;
let assets: RoomAssets;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'room-planes-'));
  await writeSampleKit(dir);
  assets = await loadRoomAssets(dir);
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const draw = (rows: string[], door = { x: 0, y: 0, dir: 2 }) =>
  renderRoom(roomData({ id: 1, heightmap: rows.join('\r'), door }), assets, {
    size: 64,
    walls: true,
    furni: false,
    bots: false,
  });

/** The pixel at the screen point of room point (x, y, z). */
function at(pic: RoomPicture, x: number, y: number, z: number): number[] {
  const sx = Math.round(32 * (x - y)) + pic.report.origin.x;
  const sy = Math.round(16 * (x + y) - 32 * z) + pic.report.origin.y;
  const i = (sy * pic.width + sx) * 4;
  return [...pic.rgba.subarray(i, i + 4)];
}

// The kit's default floor texel 0xf0f0f0 under the client's colours by normal; the kit wall 201 on the left wall.
const FLOOR_TOP = [0xf0, 0xf0, 0xf0, 255];
const FLOOR_FRONT = [0xd0, 0xd0, 0xd0, 255]; // × 0xDDDDDD (RoomVisualization.FLOOR_COLOR_LEFT)
const LEFT_WALL = [0x82, 0xa2, 0xba, 255]; // 0xf8f8f8 × 0xa8d0f0, then × 0xCCCCCC

test('a raised tile shows its floor thickness at the step, and the wall behind it below that', async () => {
  const pic = await draw(['xxxxxx', 'xx2000', 'xx0000', 'xx0000', 'xxxxxx']);
  assert.deepEqual([pic.width, pic.height, pic.report.origin.x, pic.report.origin.y], [240, 307, 72, 155]);
  assert.deepEqual(at(pic, 2, 1, 2), FLOOR_TOP);
  // the front skirt, a quarter of a height unit under the raised tile's front edge (addFloor)
  assert.deepEqual(at(pic, 2, 1.5, 1.875), FLOOR_FRONT);
  // half a unit lower: no cliff face, the left wall (which stands on the run's lowest tile) shows
  assert.deepEqual(at(pic, 2, 1.5, 1.5), LEFT_WALL);
  assert.deepEqual(at(pic, 3, 2, 0), FLOOR_TOP);
});

test('stairs rise in quarter steps, each riser the floor thickness; the top row is the back corner piece', async () => {
  const pic = await draw(['xxxxxx', 'xx1111', 'xx0000', 'x00000', 'xx0000', 'xxxxxx'], { x: 1, y: 3, dir: 2 });
  assert.deepEqual([pic.width, pic.height, pic.report.origin.x, pic.report.origin.y], [272, 291, 104, 123]);
  // the first step below the height-1 row: tread at 0.75, riser from 0.75 to 0.5, the next riser below it
  assert.deepEqual(at(pic, 3, 1.625, 0.75), FLOOR_TOP);
  assert.deepEqual(at(pic, 3, 1.75, 0.625), FLOOR_FRONT);
  assert.deepEqual(at(pic, 3, 2, 0.375), FLOOR_FRONT);
  // the room's front edge: the floor thickness
  assert.deepEqual(at(pic, 3, 4.5, -0.125), FLOOR_FRONT);
  // the picture's top row is the border's corner piece behind the back corner (1.25, 0.25 at the wall top)
  const top: number[] = [];
  for (let x = 0; x < pic.width; x++) if (pic.rgba[x * 4 + 3]) top.push(x - pic.report.origin.x);
  assert.deepEqual(top, [31, 32]);
  // the door: its floor lies behind the wall (drawn first), so only the opening shows it; the opening leans with
  // the wall (the mask is cut in the wall's texture)
  assert.deepEqual(at(pic, 0.7, 3.2, 0), LEFT_WALL);
  assert.deepEqual(at(pic, 1.3, 2.8, 0), FLOOR_TOP);
  assert.equal(at(pic, 1.5, 3, 1)[3], 0);
});

test('a door tile stored as x stays no tile, as Arcturus sends the map as stored: the door is the notch, or none', async () => {
  // the model's door (0, 3) is x in front of the tile (1, 3) sticking out of the left wall: that tile is the door,
  // the picture the same as with the model's door on it (the client never reads the model's door tile)
  const notch = ['xxxxxx', 'xx0000', 'xx0000', 'x00000', 'xx0000', 'xx0000', 'xxxxxx'];
  const pic = await draw(notch, { x: 0, y: 3, dir: 2 });
  assert.deepEqual(pic.report.door, { x: 1, y: 3, z: 0, wall: 'l' });
  assert.deepEqual([pic.width, pic.height, pic.report.origin.x, pic.report.origin.y], [304, 275, 136, 91]);
  const same = await draw(notch, { x: 1, y: 3, dir: 2 });
  assert.deepEqual([same.width, same.height], [pic.width, pic.height]);
  assert.ok(Buffer.from(same.rgba).equals(Buffer.from(pic.rgba)));
  // a straight left wall with the model's door (1, 2) stored as x: no door, the wall has no opening
  const flat = await draw(['xxxxxx', 'xx0000', 'xx0000', 'xx0000', 'xx0000', 'xxxxxx'], { x: 1, y: 2, dir: 2 });
  assert.equal(flat.report.door, null);
  assert.deepEqual([flat.width, flat.height, flat.report.origin.x, flat.report.origin.y], [272, 259, 104, 91]);
  assert.deepEqual(at(flat, 1.5, 2, 1), LEFT_WALL);
});

test('the landscape: a repeated column mirrored by its panorama offset, random columns and items by seed', async () => {
  const vis = await readRoomVisualization(dir);
  const texel = (t: { width: number; px: Uint32Array }, x: number, y: number) => t.px[y * t.width + x]!;
  // the kit's landscape 1.2: an 8-texel sky repeated over the plane, dunes in random columns with one tree each
  const first = landscapeTexture(vis, '1.2', Math.SQRT1_2, 160, 64, 0, 12345);
  assert.deepEqual([texel(first, 0, 0), texel(first, 1, 0), texel(first, 0, 1)], [0xff2060e0, 0xff3060e0, 0xff2068e0]);
  // the next wall's plane continues the panorama 32 texels on: PlaneMaterialCell mirrors the shifted tile
  const next = landscapeTexture(vis, '1.2', Math.SQRT1_2, 160, 64, 32, 12345);
  assert.deepEqual([texel(next, 0, 0), texel(next, 1, 0), texel(next, 0, 1)], [0xff9060e0, 0xff8060e0, 0xff9068e0]);
  // the dunes stand on the plane's bottom
  assert.equal(texel(first, 0, 53), 0xff2088e0);
  assert.equal(texel(first, 0, 54), 0xffd8b060);
  // where the trees stand depends on the plane's seed (the client's Randomizer), the same every time
  const trees = (t: { width: number; height: number; px: Uint32Array }) => {
    const out: string[] = [];
    for (let y = 0; y < t.height; y++)
      for (let x = 0; x < t.width; x++)
        if (
          texel(t, x, y) === 0xff208030 &&
          (y === 0 || texel(t, x, y - 1) !== 0xff208030) &&
          (x === 0 || texel(t, x - 1, y) !== 0xff208030)
        )
          out.push(`${x},${y}`);
    return out;
  };
  assert.deepEqual(trees(first), ['8,40', '72,40', '156,42']);
  assert.deepEqual(trees(landscapeTexture(vis, '1.2', Math.SQRT1_2, 160, 64, 0, 999)), ['8,40', '72,40', '136,40']);
  assert.deepEqual(landscapeTexture(vis, '1.2', Math.SQRT1_2, 160, 64, 0, 12345).px, first.px);
});

test("a door through the right wall stays floor: the client's plane parser only takes out a left-wall door", () => {
  const map = parseHeightmap(['xxxxx0xxxxx', 'xx000000000', 'xx000000000', 'xxxxxxxxxxx'].join('\r'));
  const door = findDoor(map, 5, 0);
  assert.deepEqual(door, { x: 5, y: 0, z: 0, wall: 180 });
  // RoomPlaneParser.findEntranceTile finds no row starting left of its neighbours
  assert.equal(entranceTile(map), null);
  const shape = roomShape(map, { door, wallHeight: -1, wallThickness: 1, floorThickness: 1, walls: true });
  const faces = shape.planes.filter((p) => p.kind === 'wall' && p.textured).map((p) => [p.origin, p.left]);
  // the outline wraps the door tile; the wall behind the row right of it turns into the room twice and is
  // hidden (hidePeninsulaWallChains)
  assert.deepEqual(faces, [
    [
      [5.5, -0.5, 0],
      [-1, 0, 0],
    ],
    [
      [4.5, -0.5, 0],
      [0, 1, 0],
    ],
    [
      [1.5, 0.5, 0],
      [0, 2, 0],
    ],
    [
      [4.5, 0.5, 0],
      [-3, 0, 0],
    ],
  ]);
  assert.ok(
    shape.planes.some((p) => p.kind === 'floor' && p.origin.join() === '5.5,0.5,0' && p.left.join() === '-1,0,0'),
    'the door tile is a floor rectangle of its own',
  );
});
