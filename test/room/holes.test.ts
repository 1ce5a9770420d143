// Floor holes and the door tile's depth on the sample kit: a floor-hole item in state 0 cuts its tiles out of
// the floor (and the wall behind them) and its black ADD layer shows black there (FurnitureFloorHoleLogic,
// RoomPlaneParser.initializeFromTileData); an item on the door tile sorts 2000 tiles back, behind the wall
// but for the door's opening (RoomGeometry.setDisplacement).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeAssetLibrary } from '../../src/formats/asset-library.js';
import { loadRoomAssets, renderRoom, roomData, type RoomAssets, type RoomItem } from '../../src/room/index.js';
import { writeSampleKit } from '../../src/samplekit/index.js';
import { FurniBuilder, vis64, visIcon } from '../../src/samplekit/furni/builder.js';
import { drawSprite, rgba } from '../../src/samplekit/furni/draw.js';
import { floorItem, pixel } from '../helpers/room-items.js';

let dir: string;
let assets: RoomAssets;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'room-holes-'));
  await writeSampleKit(dir);
  // A 2 × 1 floor hole: a black ink-ADD diamond on its root tile, as hole2's layer f.
  const b = new FurniBuilder('kit_test_hole');
  const diamond = [
    [-32, 0],
    [0, -16],
    [32, 0],
    [0, 16],
  ] as const;
  b.sprite(
    '64_a_0_0',
    drawSprite((c) => c.fillPolygon(diamond, rgba(0x000000))),
  );
  b.sprite(
    'icon_a',
    drawSprite((c) => c.fillPolygon(diamond, rgba(0x000000))),
  );
  const lib = b.library({
    logicType: 'furniture_floor_hole',
    visualizationType: 'furniture_static',
    dimensions: { x: 2, y: 1, z: 0 },
    directions: [0],
    visualizations: [vis64({ layerCount: 1, layers: { '0': { ink: 'ADD' } }, directions: { '0': {} } }), visIcon(1)],
  });
  await writeFile(join(dir, 'bundled/furniture/kit_test_hole.nitro'), await writeAssetLibrary(lib));
  assets = await loadRoomAssets(dir);
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const HEIGHTMAP = ['xxxxxxxxxx', 'xxxx000000', 'xxxx000000', 'xxx0000000', 'xxxx000000', 'xxxx000000'].join('\r\n');
const item = (id: number, classname: string, x: number, y: number, extraData = '0'): RoomItem =>
  floorItem(id, classname, x, y, { extraData });
const room = (items: RoomItem[] = []) => roomData({ id: 7, heightmap: HEIGHTMAP, door: { x: 3, y: 3, dir: 2 }, items });
const OPTIONS = { size: 64, walls: true, furni: true, bots: false } as const;

// A room point's screen place (size 64), from the origin.
const at = (x: number, y: number, z = 0): [number, number] => [
  Math.floor(32 * (x - y)),
  Math.floor(16 * (x + y) - 32 * z),
];

test('a floor hole in state 0 cuts its tiles out of the floor and shows black; in state 1 the floor stays', async () => {
  const open = await renderRoom(room([item(1, 'kit_test_hole', 6, 2, '0')]), assets, { ...OPTIONS, floor: '101' });
  const shut = await renderRoom(room([item(1, 'kit_test_hole', 6, 2, '1')]), assets, { ...OPTIONS, floor: '101' });
  assert.deepEqual(open.report.skipped, []);
  // the root tile: the black ADD diamond over the empty spot is opaque black; closed, the floor (101) shows
  assert.deepEqual(pixel(open, ...at(6, 2)), [0, 0, 0, 255]);
  assert.deepEqual(pixel(shut, ...at(6, 2)), [226, 188, 136, 255]);
  // the hole's second tile (its logic size 2 × 1): nothing there at all
  assert.deepEqual(pixel(open, ...at(7, 2)), [0, 0, 0, 0]);
  assert.deepEqual(pixel(shut, ...at(7, 2)), [226, 188, 136, 255]);
  // the floor behind the hole drops its front face (the floor thickness) into it
  assert.notDeepEqual(pixel(open, ...at(7, 1.5 + 0.1, -0.1)), [0, 0, 0, 0]);
});

test('a floor hole beside the wall takes the wall behind it away (updateWallsNextToHoles, hideOriginallyHiddenWalls)', async () => {
  const whole = await renderRoom(room(), assets, OPTIONS);
  const cut = await renderRoom(room([item(1, 'kit_test_hole', 4, 4, '0')]), assets, OPTIONS);
  // the left wall behind tile (4, 4), and still there behind (4, 5)
  assert.equal(pixel(whole, ...at(3.5, 4, 1.5))[3], 255);
  assert.deepEqual(pixel(cut, ...at(3.5, 4, 1.5)), [0, 0, 0, 0]);
  assert.deepEqual(pixel(cut, ...at(3.5, 5, 1.5)), pixel(whole, ...at(3.5, 5, 1.5)));
});

test('an item on the door tile sorts behind the wall, seen through the door opening (door displacement)', async () => {
  const empty = await renderRoom(room(), assets, OPTIONS);
  const onDoor = await renderRoom(room([item(1, 'kit_crate', 3, 3)]), assets, OPTIONS);
  const inRoom = await renderRoom(room([item(1, 'kit_crate', 4, 3)]), assets, OPTIONS);
  assert.equal(onDoor.report.items[0]!.classname, 'kit_crate');
  // beside the door's opening the wall covers the crate: the picture there is the empty room's wall
  const wall = at(3.5, 3.9, 1.2);
  assert.deepEqual(pixel(onDoor, ...wall), pixel(empty, ...wall));
  // in the opening the crate shows
  const opening = at(3.5, 3.1, 0.5);
  assert.notDeepEqual(pixel(onDoor, ...opening), pixel(empty, ...opening));
  // one tile into the room the crate stands in front of the wall
  const front = at(4.5, 3.9, 1.2);
  assert.notDeepEqual(pixel(inRoom, ...front), pixel(empty, ...front));
});

test("a thin wall's front cap is drawn as the client lays its texture: the axis one pixel off its size snaps to it", async () => {
  const thin = await renderRoom(
    roomData({ id: 7, heightmap: HEIGHTMAP, door: { x: 3, y: 3, dir: 2 }, wallThickness: -2, floorThickness: -2 }),
    assets,
    OPTIONS,
  );
  // the left wall's front cap (2 × 1 px out, 2 px thick texture): RoomPlane.getMatrixForDimensions takes its
  // C → D of (2, 1) px as (2, 2), so the outer column reaches one pixel lower, and starts one lower
  const [x, y] = at(3.5 - 0.0625, 5.5, -0.0625);
  assert.deepEqual([x, y], [-66, 145]);
  assert.equal(pixel(thin, x, y)[3], 255);
  assert.equal(pixel(thin, x, y + 1)[3], 0);
});

test('holes over the first columns narrow the tile bounds as the client keeps them: the wall starts past them', async () => {
  const holes = [1, 2, 3, 4, 5].map((y) => item(y, 'kit_test_hole', 4, y, '0'));
  const pic = await renderRoom(room(holes), assets, OPTIONS);
  // RoomPlaneParser.setTileHeight: each hole on the leftmost column with no tile above it takes the column
  // off, so the outline starts at column 6 and its right wall stands behind tiles 6 … 9 only
  assert.equal(pixel(pic, ...at(7, 0.5, 1.5))[3], 255);
  assert.deepEqual(pixel(pic, ...at(5, 0.5, 1.5)), [0, 0, 0, 0]);
  assert.deepEqual(pixel(pic, ...at(3.5, 2, 1.5)), [0, 0, 0, 0]);
});
