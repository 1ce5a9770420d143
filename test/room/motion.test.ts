// A room as it moves (issue 45, Motion), on the sample kit: the client's clock (24 updates a second), the
// loop's length and cap, identical frames merged, and the frames of the kit's demo room with its LED board
// (state 1: three frames held 4 updates) and its lamp (state 3: three frames held 2 updates) switched on and
// its bot dancing. Every frame is the picture's size, and frame 0 is the still at the same tick.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAvatarHotel } from '../../src/avatar/index.js';
import { roomItemPeriod, roomLayerPeriod } from '../../src/furni/animation.js';
import { sizeOf } from '../../src/furni/model.js';
import { readPngChunks } from '../../src/imaging/png-chunks.js';
import {
  encodeRoomAnimation,
  loadRoomAssets,
  MAX_LOOP_UPDATES,
  renderRoom,
  ROOM_UPDATE_DELAY,
  type RoomAssets,
  type RoomData,
} from '../../src/room/index.js';
import { loaded } from '../../src/room/assets.js';
import {
  AVATAR_UPDATES_PER_FRAME,
  avatarFrameCounter,
  frameDelays,
  fullFrames,
  roomLoop,
} from '../../src/room/motion.js';
import { mergeIdenticalFrames } from '../../src/imaging/frame-delay.js';
import { demoRoom } from '../../src/samplekit/demo-room.js';
import { writeSampleKit } from '../../src/samplekit/index.js';

let dir: string;
let assets: RoomAssets;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'room-motion-'));
  await writeSampleKit(dir);
  assets = await loadRoomAssets(dir, { avatarHotel: await loadAvatarHotel(dir) });
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The demo room with its LED board and lamp animating, and its bot dancing (dance 1) when `dance`. */
function movingRoom(dance = false): RoomData {
  const room = demoRoom();
  const on: Record<string, string> = { kit_wall_led: '1', kit_lamp_state2: '3' };
  return {
    ...room,
    items: room.items.map((it) => (on[it.classname] ? { ...it, extraData: on[it.classname]! } : it)),
    bots: room.bots.map((b) => ({ ...b, dance: dance ? 1 : 0 })),
  };
}

const OPTIONS = { size: 64, walls: true, furni: true, bots: true } as const;

test("the client's clock: 24 updates a second; an avatar's frame counter steps every 2 of them", () => {
  assert.deepEqual(ROOM_UPDATE_DELAY, { num: 1, den: 24 });
  assert.equal(MAX_LOOP_UPDATES, 120);
  // AvatarVisualization: updateAnimationByFrames(1) every ANIMATION_FRAME_UPDATE_INTERVAL (2) updates, the first
  // update (the one before the room's first picture) at once: counter 1 at update 0, then a step at 1, 3, 5, …
  assert.equal(AVATAR_UPDATES_PER_FRAME, 2);
  assert.deepEqual(
    Array.from({ length: 10 }, (_, t) => avatarFrameCounter(t)),
    [1, 2, 2, 3, 3, 4, 4, 5, 5, 6],
  );
  assert.deepEqual(frameDelays([2, 4]), [
    { num: 2, den: 24 },
    { num: 4, den: 24 },
  ]);
});

test("the loop: the periods' least common multiple, cut at 5 s (120 updates); null periods play 5 s", () => {
  assert.deepEqual(roomLoop([]), { period: 1, updates: 1, cut: null });
  assert.deepEqual(roomLoop([1, 12, 6, 32]), { period: 96, updates: 96, cut: null });
  assert.deepEqual(roomLoop([7, 24]), { period: 168, updates: 120, cut: 'length' });
  assert.deepEqual(roomLoop([12, null]), { period: null, updates: 120, cut: 'length' });
});

test('identical neighbouring frames become one with the summed updates; the first stays first', () => {
  const a = Buffer.from([1, 2, 3, 4]);
  const b = Buffer.from([5, 6, 7, 8]);
  const merged = mergeIdenticalFrames([a, Buffer.from(a), b, Buffer.from(b), Buffer.from(b), a], [1, 2, 1, 1, 3, 2]);
  assert.deepEqual(merged.updates, [3, 5, 2]);
  assert.deepEqual(merged.frames, [a, b, a]);
});

test("an item's period in updates: frames × frameRepeat of its looping layers; held and still items 1", async () => {
  const a = loaded(assets);
  const period = async (classname: string, state: number, direction: number) => {
    const found = await a.furni(classname);
    assert.ok(found.ok);
    const size = sizeOf(found.model, 64)!;
    return roomItemPeriod(found.model, size, { state, direction });
  };
  assert.equal(await period('kit_wall_led', 1, 2), 12, 'three frames held 4 updates');
  assert.equal(await period('kit_lamp_state2', 3, 0), 6, 'three frames held 2 updates');
  assert.equal(await period('kit_lamp_state2', 2, 0), 1, 'a still state');
  assert.equal(await period('kit_orb_blankframe', 0, 0), 6, 'two frames held 3 updates');
  assert.equal(await period('kit_table_sd', 0, 0), 1, 'no animation');
  // A play-once layer holds its last frame: it does not move in a room; drawn still playing it never repeats.
  const layer = {
    loopCount: 2,
    frameRepeat: 2,
    random: false,
    sequences: [{ loopCount: 1, random: false, frames: [] }],
  };
  layer.sequences[0]!.frames = [1, 2, 3].map((id) => ({ id, x: 0, y: 0, randomX: 0, randomY: 0 })) as never;
  assert.equal(roomLayerPeriod(layer, 0), 1);
  assert.equal(roomLayerPeriod(layer, 0, false), null);
  // A looping layer whose frames repeat within its cycle: the shortest period (1, 2, 1, 2 held 3: 6).
  const looping = { ...layer, loopCount: 0, frameRepeat: 3 };
  looping.sequences = [
    { loopCount: 1, random: false, frames: [1, 2, 1, 2].map((id) => ({ id, x: 0, y: 0 })) as never },
  ];
  assert.equal(roomLayerPeriod(looping, 0), 6);
});

test('the demo room with an LED board and a lamp on: 6 frames of 2 updates (a 12-update loop), frame 0 the still', async () => {
  const room = movingRoom();
  const pic = await renderRoom(room, assets, { ...OPTIONS, animated: true });
  assert.deepEqual(pic.report.motion, {
    period: 12,
    updates: 12,
    cut: null,
    frames: 6,
    updatesPerFrame: [2, 2, 2, 2, 2, 2],
  });
  const still = await renderRoom(room, assets, OPTIONS);
  assert.equal(pic.width, still.width);
  assert.equal(pic.height, still.height);
  assert.ok(pic.rgba.equals(still.rgba), 'frame 0 is the still');
  const frames = fullFrames(pic.width, pic.height, pic.motion!);
  assert.equal(frames.length, 6);
  for (const f of frames) assert.equal(f.length, pic.width * pic.height * 4, 'every frame is the picture size');
  // Frame 2 starts at update 4: the still at tick 4.
  const at4 = await renderRoom(room, assets, { ...OPTIONS, tick: 4 });
  assert.ok(frames[2]!.equals(at4.rgba), 'frame 2 is the still at frame=4');
  for (let i = 1; i < frames.length; i++) assert.ok(!frames[i]!.equals(frames[i - 1]!), `frame ${i} moved`);
  // frame=N: the loop from tick N (its first frame that still), one update short of a frame boundary.
  const from1 = await renderRoom(room, assets, { ...OPTIONS, tick: 1, animated: true });
  assert.deepEqual(from1.report.motion!.updatesPerFrame, [1, 2, 2, 2, 2, 2, 1]);
  assert.ok(from1.rgba.equals((await renderRoom(room, assets, { ...OPTIONS, tick: 1 })).rgba));
});

// The client's rule (AvatarVisualization.update: the frame counter steps every ANIMATION_FRAME_UPDATE_INTERVAL = 2
// room updates, at updates 1, 3, 5, …; motion.ts avatarFrameCounter) changed this from "96 updates, 48 frames
// of 2" (a dance tick held 4 updates, 1/6 s): dance 1's 8 ticks at 2 updates each are 16 updates, the LED
// board's 12 and the lamp's 6 make 48; the items move at even updates and the bot at odd ones, so every
// update is a frame.
test('a dancing bot: its dance loop at 2 updates a tick joins the loop (48 updates, 48 frames of 1)', async () => {
  const pic = await renderRoom(movingRoom(true), assets, { ...OPTIONS, animated: true });
  assert.equal(pic.report.motion!.period, 48);
  assert.equal(pic.report.motion!.frames, 48);
  assert.deepEqual(new Set(pic.report.motion!.updatesPerFrame), new Set([1]));
  // Size 32: the same loop at half scale.
  const half = await renderRoom(movingRoom(true), assets, { ...OPTIONS, size: 32, animated: true });
  assert.equal(half.report.motion!.frames, 48);
  assert.deepEqual([half.width, half.height], [Math.ceil(pic.width / 2), Math.ceil(pic.height / 2)]);
});

test('encoded: an APNG of 6 frames of 2/24 s, a GIF of 6 frames; a still room is its PNG', async () => {
  const pic = await renderRoom(movingRoom(), assets, { ...OPTIONS, animated: true });
  const apng = await encodeRoomAnimation(pic, 'png', undefined);
  assert.equal(apng.frames, 6);
  const chunks = readPngChunks(apng.body);
  const actl = chunks.find((c) => c.type === 'acTL')!;
  assert.equal(actl.data.readUInt32BE(0), 6);
  assert.equal(actl.data.readUInt32BE(4), 0, 'loops forever');
  const fctl = chunks.filter((c) => c.type === 'fcTL');
  // Frame 0 the whole canvas; each later one the rectangle that changed, over the frame before (dispose NONE;
  // blend SOURCE, or OVER where every changed pixel is opaque), the rectangles kept by the render.
  assert.deepEqual(
    fctl.map((c) => [
      c.data.readUInt32BE(12),
      c.data.readUInt32BE(16),
      c.data.readUInt32BE(4),
      c.data.readUInt32BE(8),
      c.data.readUInt16BE(20),
      c.data.readUInt16BE(22),
      c.data[24],
    ]),
    pic.motion!.frames.map((f) => [f.x, f.y, f.width, f.height, 2, 24, 0]),
  );
  assert.deepEqual(
    fctl.map((c) => c.data[25]),
    [0, 1, 1, 1, 1, 1],
  );
  assert.deepEqual(pic.motion!.frames[0], { x: 0, y: 0, width: pic.width, height: pic.height, data: pic.rgba });
  for (const f of pic.motion!.frames.slice(1))
    assert.ok(f.width * f.height < (pic.width * pic.height) / 4, 'a later frame is the small rectangle that moved');
  const gif = await encodeRoomAnimation(pic, 'gif', undefined);
  assert.equal(gif.frames, 6);
  assert.equal(gif.body.subarray(0, 6).toString('latin1'), 'GIF89a');
  assert.deepEqual([gif.body.readUInt16LE(6), gif.body.readUInt16LE(8)], [pic.width, pic.height]);
  // 2/24 s = 8.33 cs: the frames end at 8, 17, 25, 33, 42, 50 cs (each end its exact time rounded).
  const delays: number[] = [];
  for (let i = 0; i + 7 < gif.body.length; i++)
    if (gif.body[i] === 0x21 && gif.body[i + 1] === 0xf9 && gif.body[i + 2] === 4)
      delays.push(gif.body.readUInt16LE(i + 4));
  assert.deepEqual(delays, [8, 9, 8, 8, 9, 8]);
  const still = await renderRoom(demoRoom(), assets, { ...OPTIONS, animated: true });
  assert.equal(still.motion, undefined);
  assert.deepEqual(still.report.motion, { period: 1, updates: 1, cut: null, frames: 1, updatesPerFrame: [1] });
  const png = await encodeRoomAnimation(still, 'png', undefined);
  assert.equal(png.frames, 1);
  assert.equal(
    readPngChunks(png.body).some((c) => c.type === 'acTL'),
    false,
  );
});
