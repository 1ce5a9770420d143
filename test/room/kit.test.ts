// Rooms drawn on the sample kit (its procedural room.nitro and furni): the client's plane colours by
// side, decoration overrides, the door cut, items in the picture, and the error for a hotel without a
// room visualization.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { furniBundlesAt } from '../../src/furni/bundles.js';
import {
  loadRoomAssets,
  renderRoom,
  roomData,
  type RoomAssets,
  type RoomData,
  type RoomItem,
} from '../../src/room/index.js';
import { loadAvatarHotel } from '../../src/avatar/index.js';
import { writeSampleKit } from '../../src/samplekit/index.js';
import { bombNitroFile } from '../helpers/bombs.js';
import { floorItem, pixel } from '../helpers/room-items.js';

let dir: string;
let assets: RoomAssets;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'room-kit-'));
  await writeSampleKit(dir);
  assets = await loadRoomAssets(dir);
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const HEIGHTMAP = ['xxxxxxxxxx', 'xxxx000000', 'xxxx000000', 'xxx0000000', 'xxxx000000', 'xxxx000000'].join('\r\n');
const item = (id: number, classname: string, x: number, y: number, rot: number): RoomItem =>
  floorItem(id, classname, x, y, { rot });
const room = (items: RoomItem[] = []): RoomData =>
  roomData({ id: 7, heightmap: HEIGHTMAP, door: { x: 3, y: 3, dir: 2 }, items });
const OPTIONS = { size: 64, walls: true, furni: true, bots: false } as const;

test('plane colours by side as the client shades them; decoration ids override the room', async () => {
  // wall 999: not in the kit's room.nitro, so its default plane (untinted white)
  const pic = await renderRoom(room(), assets, { ...OPTIONS, wall: '999' });
  // left wall's top border, room point (3.375, 1, 3.6): WALL_COLOR_BORDER × white
  assert.deepEqual(pixel(pic, 76, -46), [0x99, 0x99, 0x99, 255]);
  // the front end of the left wall faces +y (WALL_COLOR_TOP), of the right wall +x (WALL_COLOR_SIDE)
  assert.deepEqual(pixel(pic, -68, 78), [0xff, 0xff, 0xff, 255]);
  assert.deepEqual(pixel(pic, 292, 94), [0xcc, 0xcc, 0xcc, 255]);
  // floor tile (5, 3) centre: the plain texel 0xf0f0f0 untinted
  assert.deepEqual(pixel(pic, 64, 128), [0xf0, 0xf0, 0xf0, 255]);
  const tinted = await renderRoom(room(), assets, { ...OPTIONS, floor: '101', wall: '201' });
  // floor 101 tints by 0xf0c890: 0xf0f0f0 × 0xf0c890 = 0xe2bc88
  assert.deepEqual(pixel(tinted, 64, 128), [0xe2, 0xbc, 0x88, 255]);
  // wall 201 tints the border too: 0x999999 × 0xa8d0f0 = 0x657d90
  assert.deepEqual(pixel(tinted, 76, -46), [0x65, 0x7d, 0x90, 255]);
  assert.deepEqual(tinted.report.decorations, { floor: '101', wall: '201', landscape: 'default' });
  // an unknown id is the default, as in the client
  const unknown = await renderRoom(room(), assets, { ...OPTIONS, floor: '999', wall: '998' });
  assert.ok(unknown.rgba.equals(pic.rgba));
  // papers the emulator does not send (0.0) are the client's own: floor 111 (not in the kit: default), wall 201
  const unsent = await renderRoom(room(), assets, OPTIONS);
  assert.deepEqual(unsent.report.decorations, { floor: 'default', wall: '201', landscape: 'default' });
  assert.deepEqual(pixel(unsent, 76, -46), [0x65, 0x7d, 0x90, 255]);
  assert.deepEqual(pixel(unsent, 64, 128), [0xf0, 0xf0, 0xf0, 255]);
});

test('walls=0 and hidden walls draw the floor alone; the door is cut from the wall', async () => {
  const pic = await renderRoom(room(), assets, OPTIONS);
  assert.deepEqual(pic.report.door, { x: 3, y: 3, z: 0, wall: 'l' });
  // inside the door opening on the wall behind the door tile: room point (3.5, 3, 1.5)
  assert.equal(pixel(pic, 32 * 0.5, 16 * 6.5 - 48)[3], 0);
  const bare = await renderRoom(room(), assets, { ...OPTIONS, walls: false });
  const hidden = await renderRoom({ ...room(), hideWalls: true }, assets, OPTIONS);
  assert.ok(bare.rgba.equals(hidden.rgba));
  assert.ok(bare.height < pic.height, 'the picture shrinks to what is drawn');
  assert.equal(bare.report.planes.filter((p) => p.kind === 'wall').length, 0);
});

test('kit items are drawn, colour variants named, and a crossing pair sorted by the client depth', async () => {
  const pic = await renderRoom(
    room([item(1, 'kit_sofa_colors*2', 5, 2, 2), item(2, 'kit_chair_4dir', 6, 2, 4), item(3, 'kit_crate', 5, 1, 0)]),
    assets,
    OPTIONS,
  );
  const byId = new Map(pic.report.items.map((i) => [i.id, i]));
  assert.equal(byId.get(1)!.colorId, 2);
  // farther first: (5, 1) before (5, 2) before (6, 2)
  assert.deepEqual(
    pic.report.items.map((i) => i.id),
    [3, 1, 2],
  );
  assert.deepEqual(
    pic.report.items.map((i) => i.depthOrder),
    [0, 1, 2],
  );
});

test('an item or bot off the heightmap is skipped with the reason, never a picture stretched to it', async () => {
  const far = { ...item(9, 'kit_crate', 100000, 3, 0), z: 0 };
  const high = { ...item(10, 'kit_crate', 5, 3, 0), z: 1e9 };
  const wall = { ...item(11, 'kit_wall_poster', 0, 0, 0), kind: 'wall' as const, wallPosition: ':w=900,0 l=8,30 r' };
  const pic = await renderRoom(room([far, high, wall, item(12, 'kit_crate', 5, 3, 0)]), assets, OPTIONS);
  const plain = await renderRoom(room([item(12, 'kit_crate', 5, 3, 0)]), assets, OPTIONS);
  assert.deepEqual(
    pic.report.skipped.map((s) => [s.id, s.reason]),
    [9, 10, 11].map((id) => [id, 'its position lies outside the room (off the heightmap or beyond the heights drawn)']),
  );
  assert.equal(pic.width, plain.width);
  assert.ok(pic.rgba.equals(plain.rgba));
});

test('a bundle that inflates past the decode budget is skipped with the reason; the room is still drawn', async () => {
  const hostile = await mkdtemp(join(tmpdir(), 'room-bomb-'));
  try {
    await writeSampleKit(hostile);
    bombNitroFile(join(hostile, 'bundled/furniture/kit_crate.nitro'), 1536);
    const before = process.memoryUsage().rss;
    const pic = await renderRoom(
      room([item(1, 'kit_crate', 5, 3, 0), item(2, 'kit_chair_4dir', 6, 3, 2)]),
      await loadRoomAssets(hostile),
      OPTIONS,
    );
    assert.deepEqual(
      pic.report.items.map((i) => i.classname),
      ['kit_chair_4dir'],
    );
    assert.equal(pic.report.skipped.length, 1);
    assert.match(pic.report.skipped[0]!.reason, /kit_crate\.nitro.*over the decode budget/);
    assert.ok(process.memoryUsage().rss - before < 256 * 1024 * 1024, 'the bomb is not inflated');
  } finally {
    await rm(hostile, { recursive: true, force: true });
  }
});

test('a wall item of type poster is drawn as poster<extra_data>, as the client names it', async () => {
  // RoomContentLoader.getFurnitureWallNameForTypeId: `poster` with extra data 7 is the `poster7` bundle.
  const posters = await mkdtemp(join(tmpdir(), 'room-posters-'));
  try {
    await writeSampleKit(posters);
    const furni = join(posters, 'bundled/furniture');
    await copyFile(join(furni, 'kit_wall_poster.nitro'), join(furni, 'poster7.nitro'));
    const wall = (id: number, classname: string, extraData: string, wallPosition: string): RoomItem => ({
      ...item(id, classname, 0, 0, 0),
      kind: 'wall',
      wallPosition,
      extraData,
    });
    const pic = await renderRoom(
      room([wall(1, 'poster', '7', ':w=5,1 l=8,30 r'), wall(2, 'poster', '8', ':w=7,1 l=8,30 r')]),
      await loadRoomAssets(posters),
      OPTIONS,
    );
    assert.deepEqual(
      pic.report.items.map((i) => [i.id, i.classname, i.layers.length > 0]),
      [[1, 'poster', true]],
    );
    assert.deepEqual(pic.report.skipped, [
      { id: 2, kind: 'wall', classname: 'poster', reason: 'no bundle bundled/furniture/poster8.nitro' },
    ]);
  } finally {
    await rm(posters, { recursive: true, force: true });
  }
});

test('a bundle cache keeps at most its bytes of pixels: the least recent leave, one too large is drawn and not kept', async () => {
  const all = furniBundlesAt(dir, 'kit');
  // The kit's bundles that decode (it also ships broken ones on purpose).
  const names: string[] = [];
  for (const f of (await readdir(join(dir, 'bundled/furniture'))).sort())
    if ((await all.furni(f.replace(/\.nitro$/, ''))).ok) names.push(f.replace(/\.nitro$/, ''));
  assert.ok(names.length >= 30, `${names.length} bundles`);
  const whole = all.stats();
  const budget = Math.floor(whole.bytes / 3);
  const bounded = furniBundlesAt(dir, 'kit', budget);
  for (const n of names) assert.ok((await bounded.furni(n)).ok, `${n} drawn whatever the budget`);
  const held = bounded.stats();
  assert.ok(held.bytes <= budget, `${held.bytes} bytes held, budget ${budget}`);
  assert.ok(held.entries > 0 && held.entries < names.length, `${held.entries} of ${names.length} kept`);
  // Concurrent asks share one read; a bundle over the whole budget is still drawn, and not kept.
  const tiny = furniBundlesAt(dir, 'kit', 1);
  const [a, b] = await Promise.all([tiny.furni('kit_big_3x2'), tiny.furni('kit_big_3x2')]);
  assert.ok(a.ok && b.ok && a.model === b.model);
  assert.deepEqual(tiny.stats(), { entries: 0, bytes: 0 });
});

test('a hotel without bundled/generic/room.nitro is refused by name', async () => {
  const empty = await mkdtemp(join(tmpdir(), 'room-none-'));
  try {
    await assert.rejects(loadRoomAssets(empty), /bundled\/generic\/room\.nitro does not exist/);
  } finally {
    await rm(empty, { recursive: true, force: true });
  }
});

test('inks blend with the room drawn under them, as the client canvas does: ADD adds, DARKEN draws normally', async () => {
  const floor = (id: number, classname: string, x: number, y: number, rot: number) => item(id, classname, x, y, rot);
  const crate = await renderRoom(room([floor(3, 'kit_crate', 5, 2, 0)]), assets, { ...OPTIONS, floor: '101' });
  const lit = await renderRoom(room([floor(3, 'kit_crate', 5, 2, 0), floor(1, 'kit_lamp_add', 6, 3, 2)]), assets, {
    ...OPTIONS,
    floor: '101',
  });
  // the lamp at (6, 3) lands at (96, 144); its ADD glow reaches over the crate behind it at (5, 2)
  assert.deepEqual(pixel(crate, 76, 94), [188, 110, 31, 255]);
  // the crate's colour plus the glow's (the channels clamp at 255), not the glow laid over the crate
  assert.deepEqual(pixel(lit, 76, 94), [255, 182, 55, 255]);
  assert.deepEqual(pixel(lit, 86, 98), [255, 247, 210, 255]);
  // over the floor (101: 0xe2bc88) the glow adds as well
  assert.deepEqual(pixel(lit, 120, 100), [255, 255, 168, 255]);
  // DARKEN has no WebGL blend in the client's PixiJS: the rug's grey diamond covers its yellow ring
  const rug = await renderRoom(room([floor(2, 'kit_rug_darken', 7, 1, 0)]), assets, { ...OPTIONS, floor: '101' });
  assert.deepEqual(pixel(rug, 222, 144), [128, 128, 128, 255]);
});

test('a bot stands with its feet on its tile point, as the client hangs its avatar canvas; its dance is drawn', async () => {
  const withBots = await loadRoomAssets(dir, { avatarHotel: await loadAvatarHotel(dir) });
  const bot = (dance: number) => ({
    id: -1,
    name: 'kit bot',
    figure: 'hd-180-1.ch-210-66.lg-270-82',
    gender: 'M' as const,
    x: 6,
    y: 3,
    z: 0,
    rot: 2,
    dance,
    effect: 0,
  });
  const standing = await renderRoom({ ...room(), bots: [bot(0)] }, withBots, { ...OPTIONS, bots: true });
  // tile (6, 3) lands at (96, 144): the 64 × 110 figure is centred on it with its feet (y 100) there
  const o = standing.report.origin;
  assert.deepEqual(standing.report.items[0]!.box, { x: o.x + 64, y: o.y + 44, width: 64, height: 110 });
  const dancing = await renderRoom({ ...room(), bots: [bot(1)] }, withBots, { ...OPTIONS, bots: true });
  assert.ok(!dancing.rgba.equals(standing.rgba), "the bot row's dance is drawn");
});

test('size 32 is the size-64 room shown at half scale, as Nitro zooms out', async () => {
  const crate = room([item(1, 'kit_crate', 5, 2, 0)]);
  const big = await renderRoom(crate, assets, OPTIONS);
  const small = await renderRoom(crate, assets, { ...OPTIONS, size: 32 });
  assert.deepEqual([big.width, big.height, big.report.origin], [368, 307, { x: 72, y: 59 }]);
  // the 64 picture from its first even row (y 60 above the origin, not 59) at half scale
  assert.deepEqual([small.width, small.height, small.report.origin], [184, 154, { x: 36, y: 30 }]);
  assert.equal(small.report.size, 32);
  // each sprite at half its size from half its position: the crate's 45 × 49 at (146, 134) → 23 × 24 at (73, 68)
  assert.deepEqual(big.report.items[0]!.box, { x: 146, y: 134, width: 45, height: 49 });
  assert.deepEqual(small.report.items[0]!.box, { x: 73, y: 68, width: 23, height: 24 });
  // the same art: a crate pixel and a floor texel
  assert.deepEqual(pixel(small, 38, 47), [188, 110, 31, 255]);
  assert.deepEqual(pixel(small, 32, 64), [240, 240, 240, 255]);
});
