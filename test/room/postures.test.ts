// Bots on seats and beds drawn as the client draws them (posture.ts for the emulator's status, unit-placement.ts
// for AvatarVisualization's offsets): on the sample kit, and, with the real chair_norja when real data is here,
// a seated bot behind the chair's back.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAvatarHotel, parseAction, renderAvatar, type AvatarHotel } from '../../src/avatar/index.js';
import { loadRoomAssets, renderRoom, roomData, type RoomAssets, type RoomBot } from '../../src/room/index.js';
import { writeSampleKit } from '../../src/samplekit/index.js';
import { realdata } from '../helpers/realdata.js';
import { floorItem } from '../helpers/room-items.js';

let dir: string;
let assets: RoomAssets;
let avatarHotel: AvatarHotel;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'room-postures-'));
  await writeSampleKit(dir);
  avatarHotel = await loadAvatarHotel(dir);
  assets = await loadRoomAssets(dir, { avatarHotel });
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const HEIGHTMAP = ['xxxxxxxxxx', 'xxxx000000', 'xxxx000000', 'xxx0000000', 'xxxx000000', 'xxxx000000'].join('\r\n');
const OPTIONS = { size: 64, walls: true, furni: true, bots: true } as const;
const bot = (x: number, y: number, rot = 4): RoomBot => ({
  id: 1,
  name: 'kit bot',
  figure: 'hd-180-1.ch-210-66.lg-270-82',
  gender: 'M',
  x,
  y,
  z: 0,
  rot,
  dance: 0,
  effect: 0,
});
/** The bot's box relative to the screen point of its tile at height 0 (32·(x − y), 16·(x + y)). */
function botBox(pic: Awaited<ReturnType<typeof renderRoom>>, x: number, y: number) {
  const b = pic.report.items.find((i) => i.kind === 'bot')!;
  const o = pic.report.origin;
  return { ...b, rel: { x: b.box.x - o.x - 32 * (x - y), y: b.box.y - o.y - 16 * (x + y) } };
}

test('a bot on a seat sits at its height, turned as the seat; the client lowers its canvas by half the scale', async () => {
  const seat = (stackHeight: number) =>
    floorItem(1, 'kit_chair_4dir', 6, 3, { rot: 2, allowSit: true, allowLay: false, stackHeight });
  const room = (items = [seat(1)]) =>
    roomData({ id: 7, heightmap: HEIGHTMAP, door: { x: 3, y: 3, dir: 2 }, items, bots: [bot(6, 3)] });
  const standing = botBox(await renderRoom(room([]), assets, OPTIONS), 6, 3);
  // Standing: the 64 × 110 picture centred on the tile point, feet (y 100) on it.
  assert.deepEqual([standing.rel, standing.direction, standing.posture], [{ x: -32, y: -100 }, 4, undefined]);
  // Seat height 1: location z + 1 (32 px up), canvas 32 px down: the picture where the standing one is; the sit
  // pose turned to the seat's direction 2.
  const seated = botBox(await renderRoom(room(), assets, OPTIONS), 6, 3);
  assert.deepEqual(
    [seated.rel, seated.direction, seated.posture],
    [{ x: -32, y: -100 }, 2, { type: 'sit', height: 1 }],
  );
  assert.deepEqual(seated.tile, { x: 6, y: 3, z: 1 });
  assert.ok(
    seated.layers.some((l) => /_sit_/.test(l)),
    `drawn sitting: ${seated.layers.join(' ')}`,
  );
  // Seat height 0.5: 16 px up, 32 down: 16 px below the standing picture.
  const low = botBox(await renderRoom(room([seat(0.5)]), assets, OPTIONS), 6, 3);
  assert.deepEqual(low.rel, { x: -32, y: -84 });
  // Without the seat flag (a room description, an old query override) the bot stands.
  const unflagged = floorItem(1, 'kit_chair_4dir', 6, 3, { rot: 2 });
  const plain = botBox(await renderRoom(room([unflagged]), assets, OPTIONS), 6, 3);
  assert.deepEqual([plain.rel, plain.posture], [{ x: -32, y: -100 }, undefined]);
});

test('a bot on a bed lies at its pillow row, on the horizontal canvas with the lay canvas offsets', async () => {
  // A 2 × 3 "bed" (kit_big_3x2 flagged allow_lay, stack height 1.2) at (5, 1) rotation 2: lengthwise along x, so
  // the bot at (6, 2) moves to the bed's x, 5.
  const bed = floorItem(1, 'kit_big_3x2', 5, 1, { rot: 2, width: 3, length: 2, allowLay: true, stackHeight: 1.2 });
  const room = (rot: number) =>
    roomData({ id: 7, heightmap: HEIGHTMAP, door: { x: 3, y: 3, dir: 2 }, items: [bed], bots: [bot(6, 2, rot)] });
  const laid = botBox(await renderRoom(room(4), assets, OPTIONS), 5, 2);
  // Direction rot % 4 = 2. Registration at (sx − 32 + dx 30 + 22, sy + 32 + 17) with sy the screen y of z 1.2
  // (38.4 px up, rounded: 38): (sx + 20, sy0 + 11); our 110 × 64 lying picture has it at (38, 48).
  assert.deepEqual(
    [laid.tile, laid.direction, laid.posture],
    [{ x: 5, y: 2, z: 1.2 }, 2, { type: 'lay', height: 1.2 }],
  );
  assert.deepEqual([laid.rel, laid.box.width, laid.box.height], [{ x: -18, y: -37 }, 110, 64]);
  // A bed at rotation 0 → direction 0 → drawn lying left (4): registration at (sx − 32 + 30 − 17, …), in our
  // picture mirrored about the lying registration at (110 − 38, 48) = (72, 48).
  const left = floorItem(1, 'kit_big_3x2', 5, 1, { rot: 0, width: 3, length: 2, allowLay: true, stackHeight: 1.2 });
  const pic = await renderRoom(
    roomData({ id: 7, heightmap: HEIGHTMAP, door: { x: 3, y: 3, dir: 2 }, items: [left], bots: [bot(6, 2)] }),
    assets,
    OPTIONS,
  );
  const laidLeft = botBox(pic, 6, 1);
  assert.deepEqual([laidLeft.tile, laidLeft.direction], [{ x: 6, y: 1, z: 1.2 }, 4]);
  assert.deepEqual(laidLeft.rel, { x: -91, y: -37 });
  // Drawn as the avatar picture at the unit's direction 0 (the client's 4: the mirror of 2, head on the right),
  // not as the picture at 4, which the renderer turns to 2 (the rule applied twice).
  const opaqueMatch = async (direction: number) => {
    const r = await renderAvatar(avatarHotel, {
      figure: bot(0, 0).figure,
      direction,
      headDirection: direction,
      size: 'm',
      action: parseAction('lay'),
      gesture: '',
      headOnly: false,
      animated: false,
      frames: 1,
    });
    const img = r.frames[0]!;
    let opaque = 0;
    let same = 0;
    for (let y = 0; y < img.height; y++) {
      for (let x = 0; x < img.width; x++) {
        const i = (y * img.width + x) * 4;
        if (img.data[i + 3] !== 255) continue;
        opaque++;
        const j = ((laidLeft.box.y + y) * pic.width + laidLeft.box.x + x) * 4;
        if ([0, 1, 2, 3].every((c) => pic.rgba[j + c] === img.data[i + c])) same++;
      }
    }
    return same / opaque;
  };
  assert.equal(await opaqueMatch(0), 1);
  assert.ok((await opaqueMatch(4)) < 0.9);
});

const chairs = realdata('nitro-rooms/bundled/furniture');
const figures = realdata('nitro');

test('a seated bot behind the back of chair_norja: the back is drawn over it at rotations 0 and 6, under it at 2 and 4', {
  skip: chairs.skip || figures.skip,
}, async () => {
  // A hotel folder: the real room furni and the real figure libraries side by side.
  const hotel = await mkdtemp(join(tmpdir(), 'room-postures-real-'));
  try {
    await mkdir(join(hotel, 'bundled'), { recursive: true });
    await symlink(chairs.path, join(hotel, 'bundled', 'furniture'));
    await symlink(join(figures.path, 'bundled', 'figure'), join(hotel, 'bundled', 'figure'));
    await symlink(join(chairs.path, '..', 'generic'), join(hotel, 'bundled', 'generic'));
    await symlink(join(figures.path, 'gamedata'), join(hotel, 'gamedata'));
    const real = await loadRoomAssets(hotel, { avatarHotel: await loadAvatarHotel(hotel) });
    const HIDDEN = 'no_such_bundle';
    const draw = async (rot: number, chairClass: string, bots: RoomBot[]) => {
      const chair = floorItem(1, chairClass, 6, 3, { rot, allowSit: true, stackHeight: 1 });
      const pic = await renderRoom(
        roomData({ id: 7, heightmap: HEIGHTMAP, door: { x: 3, y: 3, dir: 2 }, items: [chair], bots }),
        real,
        OPTIONS,
      );
      return pic;
    };
    // Where the chair alone and the seated bot alone (on a seat without a bundle) both draw, which one shows.
    const overlap = async (rot: number) => {
      const both = await draw(rot, 'chair_norja', [bot(6, 3)]);
      const chair = await draw(rot, 'chair_norja', []);
      const sitter = await draw(rot, HIDDEN, [bot(6, 3)]);
      for (const p of [chair, sitter]) assert.deepEqual([p.width, p.height], [both.width, both.height]);
      const floor = await draw(rot, HIDDEN, []);
      let chairOver = 0;
      let botOver = 0;
      for (let i = 0; i < both.rgba.length; i += 4) {
        const px = (p: typeof both) => p.rgba.readUInt32BE(i);
        if (px(chair) === px(floor) || px(sitter) === px(floor) || px(chair) === px(sitter)) continue;
        if (px(both) === px(chair)) chairOver++;
        else if (px(both) === px(sitter)) botOver++;
      }
      return { chairOver, botOver };
    };
    // The bot's location depth is the chair's minus DEPTH_Z × 1 (0.0071) and its sprite's −0.01: −0.0171 from the
    // chair's. chair_norja's back layers at rotation 0 have z 30 (−0.0212): nearer, drawn after the bot; at
    // rotation 2, z −31 (+0.0219): behind it.
    // Where both draw: at 0 and 6 the back covers part of the bot (the seat under it does not); at 2 and 4 none.
    assert.deepEqual(
      [await overlap(0), await overlap(2), await overlap(4), await overlap(6)],
      [
        { chairOver: 264, botOver: 321 },
        { chairOver: 0, botOver: 889 },
        { chairOver: 0, botOver: 958 },
        { chairOver: 322, botOver: 318 },
      ],
    );
  } finally {
    await rm(hotel, { recursive: true, force: true });
  }
});
