// The room-reference tool's three example rooms drawn on the real nitro-rooms assets (and the real figure
// libraries for bots), checked against the Nitro client's own pictures of them: the picture's size, where
// room point (0, 0, 0) lands, and the colour at named points, every expected value read off the client's
// picture (the tool's render of the same description). Skipped without ../shared/realdata.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAvatarHotel } from '../../src/avatar/index.js';
import { loadRoomAssets, type RoomAssets, type RoomPicture, renderRoom } from '../../src/room/index.js';
import { realdata } from '../helpers/realdata.js';
import { type Description, descriptionRoom } from '../helpers/room-description.js';

const rooms = realdata('nitro-rooms');
const figures = realdata('nitro');
const skip = rooms.skip || figures.skip;
let assets: RoomAssets;
before(async () => {
  if (skip) return;
  // The room assets of nitro-rooms with the figure libraries of nitro, as one hotel folder of links.
  const hotel = await mkdtemp(join(tmpdir(), 'client-rooms-'));
  await mkdir(join(hotel, 'bundled'));
  await symlink(join(rooms.path, 'bundled', 'furniture'), join(hotel, 'bundled', 'furniture'));
  await symlink(join(rooms.path, 'bundled', 'generic'), join(hotel, 'bundled', 'generic'));
  assets = await loadRoomAssets(hotel, { avatarHotel: await loadAvatarHotel(figures.path) });
});

async function draw(name: string): Promise<RoomPicture> {
  const file = new URL(`../fixtures/rooms/${name}.json`, import.meta.url);
  const description = JSON.parse(await readFile(file, 'utf8')) as Description;
  return renderRoom(descriptionRoom(description), assets, { size: 64, walls: true, furni: true, bots: true });
}

/** RGBA at a screen offset from room point (0, 0, 0). */
function at(pic: RoomPicture, sx: number, sy: number): number[] {
  const i = ((pic.report.origin.y + sy) * pic.width + pic.report.origin.x + sx) * 4;
  return [...pic.rgba.subarray(i, i + 4)];
}

test('living room: default papers, a floor lamp and a wall lamp lighting what is under them', { skip }, async () => {
  const pic = await draw('living-room');
  assert.deepEqual([pic.width, pic.height, pic.report.origin], [666, 453, { x: 296, y: 93 }]);
  // papers 0.0 are not sent: the client's floor 111 (tile 8, 8) and wall 201 (the right wall)
  assert.deepEqual(at(pic, 0, 256), [153, 153, 102, 255]);
  assert.deepEqual(at(pic, 140, 80), [183, 186, 200, 255]);
  // lamp_armas (state 1) at (11, 1): its ADD light cone over the floor
  assert.deepEqual(at(pic, 290, 172), [197, 179, 105, 255]);
  // hc_wall_lamp (state 1) on the left wall: its cone over the wall
  assert.deepEqual(at(pic, -200, 100), [223, 226, 212, 255]);
  assert.equal(pic.report.skipped.length, 0);
});

test('stairs: set papers, a window on landscape 1.2, steps and a platform, two bots', { skip }, async () => {
  const pic = await draw('stairs');
  assert.deepEqual([pic.width, pic.height, pic.report.origin], [656, 515, { x: 296, y: 155 }]);
  // floor 110 at tile (8, 8)
  assert.deepEqual(at(pic, 0, 256), [227, 227, 227, 255]);
  // the landscape through lc_window1: a palm of landscape 1.2
  assert.deepEqual(at(pic, 164, -53), [70, 93, 27, 255]);
  // the standing bot at (4, 6): its face and its shirt
  assert.deepEqual(at(pic, -60, 100), [254, 202, 151, 255]);
  assert.deepEqual(at(pic, -62, 130), [231, 176, 39, 255]);
});

test('hidden walls: an L-shaped room with thin walls and a thick floor, walls hidden', { skip }, async () => {
  const pic = await draw('hidden-walls');
  assert.deepEqual([pic.width, pic.height, pic.report.origin], [448, 330, { x: 224, y: 26 }]);
  assert.equal(pic.report.planes.filter((p) => p.kind === 'wall').length, 0);
});

test('door tile: a plant standing on it sorts 2000 tiles back, seen through the door opening only', {
  skip,
}, async () => {
  const pic = await draw('door-tile');
  assert.deepEqual([pic.width, pic.height, pic.report.origin], [656, 451, { x: 328, y: 107 }]);
  // plant_big_cactus on the door tile (0, 5): the left wall covers the part beside the opening
  assert.deepEqual(at(pic, -178, 43), [146, 149, 160, 255]);
  assert.deepEqual(at(pic, -168, 13), [146, 149, 160, 255]);
  // and the part in the opening shows
  assert.deepEqual(at(pic, -153, 23), [28, 79, 15, 255]);
  assert.deepEqual(at(pic, -148, 43), [28, 79, 15, 255]);
});
