// A moving room's frames drawn only where they change (render.ts drawMotion: each changed object's sprites
// before and after, redrawn over the planes' background with every sprite reaching in) are byte for byte the
// frames drawn whole (the planes' background and every sprite, motionDrawing.whole), with the same merged frames
// and updates: on the kit's moving demo room (LED board, lamp, a dancing bot) and on a room of animated items
// overlapping one another, ADD and SUBTRACT inks over and under them, stacked items, a dancing bot among them and
// an animated item on the door tile (drawn among the planes: that frame whole), at sizes 64 and 32.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAvatarHotel } from '../../src/avatar/index.js';
import { loadRoomAssets, renderRoom, type RoomAssets, type RoomData } from '../../src/room/index.js';
import { encodeFrames } from '../../src/imaging/apng.js';
import { encodeGif, encodeGifRects, gifDelays } from '../../src/imaging/gif.js';
import { overColor, type RgbaImage } from '../../src/imaging/image.js';
import { encodeRoomAnimation } from '../../src/room/encode.js';
import { frameDelays, fullFrames, MAX_ANIMATED_PIXELS } from '../../src/room/motion.js';
import { decodeApng } from '../helpers/apng-decode.js';
import { apngFramesRgba } from '../helpers/apng-frames.js';
import { gifFramesRgba, readGif } from '../helpers/gif-reader.js';
import { motionDrawing } from '../../src/room/render.js';
import { roomData } from '../../src/room/model.js';
import { demoRoom } from '../../src/samplekit/demo-room.js';
import { writeSampleKit } from '../../src/samplekit/index.js';

let dir: string;
let assets: RoomAssets;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'room-motion-dirty-'));
  await writeSampleKit(dir);
  assets = await loadRoomAssets(dir, { avatarHotel: await loadAvatarHotel(dir) });
});
after(async () => {
  motionDrawing.whole = false;
  await rm(dir, { recursive: true, force: true });
});

function movingDemo(): RoomData {
  const room = demoRoom();
  const on: Record<string, string> = { kit_wall_led: '1', kit_lamp_state2: '3' };
  return {
    ...room,
    items: room.items.map((it) => (on[it.classname] ? { ...it, extraData: on[it.classname]! } : it)),
    bots: room.bots.map((b) => ({ ...b, dance: 1 })),
  };
}

/**
 * Animated items packed together, stacked, with ADD and SUBTRACT inks among them; with `door`, one more on the
 * door tile (it sorts among the planes: every frame is then drawn whole).
 */
function crowded(door = false): RoomData {
  const rows = ['xxxxxxx', 'x000000', 'x000000', '0000000', 'x000000', 'x000000'];
  type Row = [string, string, number, number, number, number];
  const floor: Row[] = [
    ['kit_lamp_state2', '3', 1, 1, 0, 0],
    ['kit_orb_blankframe', '0', 2, 1, 0, 2],
    ['kit_lamp_add', '0', 1, 2, 0, 2],
    ['kit_fan_tieframes', '1', 2, 2, 0, 4],
    ['kit_xray_subtract', '0', 3, 2, 0, 2],
    ['kit_clock_repeat', '1', 3, 1, 0, 0],
    ['kit_sign_tieall', '2', 2, 3, 0, 2],
    ['kit_crate', '0', 3, 3, 0, 0],
    ['kit_orb_blankframe', '0', 3, 3, 1, 0],
    ['kit_lamp_add', '0', 4, 3, 0, 4],
    ['kit_lamp_state2', '3', 4, 2, 0, 2],
    ...(door ? [['kit_fan_tieframes', '1', 0, 3, 0, 2] as Row] : []),
  ];
  return roomData({
    id: 77,
    heightmap: rows.join('\r'),
    door: { x: 0, y: 3, dir: 2 },
    items: [
      ...floor.map(([classname, extraData, x, y, z, rot], i) => ({
        id: i + 1,
        classname,
        kind: 'floor' as const,
        x,
        y,
        z,
        rot,
        wallPosition: '',
        extraData,
        width: 1,
        length: 1,
        interactionType: 'default',
      })),
      {
        id: 50,
        classname: 'kit_wall_led',
        kind: 'wall' as const,
        x: 0,
        y: 0,
        z: 0,
        rot: 0,
        wallPosition: ':w=2,0 l=10,30 r',
        extraData: '1',
        width: 1,
        length: 1,
        interactionType: 'default',
      },
    ],
    bots: [
      {
        id: 1,
        name: 'Kit',
        figure: 'hd-180-1.hr-100-61.ch-210-66.lg-270-82.sh-290-80',
        gender: 'M',
        x: 2,
        y: 2,
        z: 0,
        rot: 2,
        dance: 1,
        effect: 0,
      },
    ],
  });
}

async function both(room: RoomData, size: 32 | 64) {
  const options = { size, walls: true, furni: true, bots: true, animated: true } as const;
  motionDrawing.whole = true;
  const whole = await renderRoom(room, assets, options);
  motionDrawing.whole = false;
  const dirty = await renderRoom(room, assets, options);
  return { whole, dirty };
}

for (const [name, make] of [
  ['the moving demo room', movingDemo],
  ['a crowded room (overlapping animations, ADD, SUBTRACT, a stack, a dancing bot)', () => crowded()],
  ['the crowded room with an animated item on the door tile', () => crowded(true)],
] as const)
  for (const size of [64, 32] as const)
    test(`${name} at size ${size}: dirty rectangles draw the frames drawn whole, byte for byte`, async () => {
      const { whole, dirty } = await both(make(), size);
      assert.ok(whole.motion && dirty.motion, 'it moves');
      assert.deepEqual(dirty.report, whole.report);
      // Frame 0 (drawn on the planes' background) and its report are the still's.
      const still = await renderRoom(make(), assets, { size, walls: true, furni: true, bots: true });
      assert.ok(dirty.rgba.equals(still.rgba));
      assert.deepEqual({ ...dirty.report, motion: undefined }, { ...still.report, motion: undefined });
      assert.ok(dirty.rgba.equals(whole.rgba));
      assert.deepEqual(dirty.motion.updates, whole.motion.updates);
      // The kept rectangles are the same (each the box of the pixels that changed), so the frames are.
      assert.deepEqual(
        dirty.motion.frames.map(({ x, y, width, height }) => [x, y, width, height]),
        whole.motion.frames.map(({ x, y, width, height }) => [x, y, width, height]),
      );
      const a = fullFrames(dirty.width, dirty.height, dirty.motion);
      const b = fullFrames(whole.width, whole.height, whole.motion);
      a.forEach((f, i) => assert.ok(f.equals(b[i]!), `frame ${i}`));
      for (let i = 1; i < a.length; i++) assert.ok(!a[i]!.equals(a[i - 1]!), `frame ${i} differs from the one before`);
      const stored = dirty.motion.frames.reduce((n, f) => n + f.width * f.height, 0);
      assert.ok(stored <= MAX_ANIMATED_PIXELS);
      assert.ok(stored < a.length * dirty.width * dirty.height, 'the later frames are kept as rectangles');
    });

/** RGBA with every transparent pixel all zero (as decoders give them). */
function norm(data: Uint8Array): Buffer {
  const out = Buffer.from(data);
  for (let i = 0; i < out.length; i += 4) if (out[i + 3] === 0) out.fill(0, i, i + 4);
  return out;
}

/** An APNG's frames as a viewer composites them (dispose NONE, blend SOURCE: each region replaced). */
function apngShown(body: Buffer): Buffer[] {
  const apng = decodeApng(body);
  const canvas = new Uint8Array(apng.width * apng.height * 4);
  return apng.frames.map((f, i) => {
    assert.equal(f.dispose, 0);
    assert.ok(f.blend === 0 || (i > 0 && f.blend === 1));
    const { width, height, data } = f.image;
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const s = (y * width + x) * 4;
        const a = data[s + 3]!;
        // OVER: an opaque pixel replaces, a transparent one keeps (a frame drawn OVER has no other)
        if (f.blend === 1 && a === 0) continue;
        if (f.blend === 1) assert.equal(a, 255);
        canvas.set(data.subarray(s, s + 4), ((f.y + y) * apng.width + f.x + x) * 4);
      }
    return norm(canvas);
  });
}

for (const [name, bg] of [
  ['transparent', undefined],
  ['on a flat colour', { rgb: 0x336699, alpha: 255 }],
] as const)
  test(`encoded as rectangles (${name}): the APNG and the GIF show the pixels the whole frames' encoders show`, async () => {
    for (const room of [movingDemo(), crowded(), crowded(true)]) {
      const pic = await renderRoom(room, assets, { size: 64, walls: true, furni: true, bots: true, animated: true });
      let full: RgbaImage[] = fullFrames(pic.width, pic.height, pic.motion!).map((data) => ({
        width: pic.width,
        height: pic.height,
        data,
      }));
      if (bg) full = full.map((f) => overColor(f, bg.rgb, bg.alpha));
      const delays = frameDelays(pic.motion!.updates);
      const apng = await encodeRoomAnimation(pic, 'png', bg);
      const wholeApng = await encodeFrames(full, { compressionLevel: 6, delays });
      const shown = apngShown(apng.body);
      const expected = apngFramesRgba(wholeApng);
      assert.equal(shown.length, expected.length);
      shown.forEach((f, i) => assert.ok(f.equals(norm(expected[i]!)), `APNG frame ${i}`));
      assert.ok(apng.body.length < wholeApng.length, 'smaller');
      const gif = await encodeRoomAnimation(pic, 'gif', bg);
      const wholeGif = encodeGif(full, gifDelays(delays));
      const a = gifFramesRgba(readGif(gif.body));
      const b = gifFramesRgba(readGif(wholeGif));
      assert.equal(a.length, b.length);
      a.forEach((f, i) => assert.ok(Buffer.from(f).equals(Buffer.from(b[i]!)), `GIF frame ${i}`));
      assert.deepEqual(
        readGif(gif.body).frames.map((f) => f.delayCs),
        readGif(wholeGif).frames.map((f) => f.delayCs),
      );
    }
  });

test('GIF rectangles: a frame that clears a pixel starts from a blank canvas (the frame before disposed)', () => {
  const px = (rgba: number[][]): RgbaImage => ({ width: rgba.length, height: 1, data: Uint8Array.from(rgba.flat()) });
  const R = [255, 0, 0, 255];
  const G = [0, 255, 0, 255];
  const T = [0, 0, 0, 0];
  // 4 × 1: frame 1 changes pixel 1, frame 2 clears pixel 0, frame 3 sets pixel 3; at the wrap pixel 3 clears.
  const frames = [px([R, R, T, T]), px([R, G, T, T]), px([T, G, T, T]), px([T, G, T, R])];
  const rects = [
    { x: 0, y: 0, image: frames[0]! },
    { x: 1, y: 0, image: px([G]) },
    { x: 0, y: 0, image: px([T]) },
    { x: 3, y: 0, image: px([R]) },
  ];
  const delays = [10, 10, 10, 10];
  const shown = gifFramesRgba(readGif(encodeGifRects(rects, delays)));
  const expected = gifFramesRgba(readGif(encodeGif(frames, delays)));
  shown.forEach((f, i) => assert.ok(Buffer.from(f).equals(Buffer.from(expected[i]!)), `frame ${i}`));
  // The second play, on the canvas the first left (a viewer that does not clear it at the wrap): the same.
  const gif = readGif(encodeGifRects(rects, delays));
  const twice = gifFramesRgba({ ...gif, frames: [...gif.frames, ...gif.frames] });
  twice.forEach((f, i) => assert.ok(Buffer.from(f).equals(Buffer.from(expected[i % 4]!)), `frame ${i}`));
  const frames2 = readGif(encodeGifRects(rects, delays)).frames;
  assert.deepEqual(
    frames2.map((f) => [f.left, f.width, f.disposal]),
    [
      [0, 2, 1],
      [0, 2, 2],
      [1, 1, 1],
      [1, 3, 2],
    ],
  );
});

test('GIF rectangles with translucent pixels (dithered whole): every frame rebuilt, the same pixels as encodeGif', () => {
  const W = 40;
  const H = 30;
  const frame = (shift: number): RgbaImage => {
    const data = new Uint8Array(W * H * 4);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const o = (y * W + x) * 4;
        // an opaque block, a large translucent glow (dithered) and a moving opaque bar
        if (x < 10) data.set([200, 40, 40, 255], o);
        else if (x < 30 && y < 20) data.set([250, 240, 120, 90 + ((x + y) % 5) * 20], o);
        if (x >= shift && x < shift + 3 && y >= 22) data.set([20, 20, 200, 255], o);
      }
    return { width: W, height: H, data };
  };
  const frames = [frame(2), frame(12), frame(22)];
  const crop = (f: RgbaImage, x0: number, x1: number): RgbaImage => {
    const data = new Uint8Array((x1 - x0) * H * 4);
    for (let y = 0; y < H; y++) data.set(f.data.subarray((y * W + x0) * 4, (y * W + x1) * 4), y * (x1 - x0) * 4);
    return { width: x1 - x0, height: H, data };
  };
  const rects = [
    { x: 0, y: 0, image: frames[0]! },
    { x: 2, y: 0, image: crop(frames[1]!, 2, 15) },
    { x: 12, y: 0, image: crop(frames[2]!, 12, 25) },
  ];
  const delays = [10, 10, 10];
  const shown = gifFramesRgba(readGif(encodeGifRects(rects, delays)));
  const expected = gifFramesRgba(readGif(encodeGif(frames, delays)));
  assert.equal(shown.length, 3);
  shown.forEach((f, i) => assert.ok(Buffer.from(f).equals(Buffer.from(expected[i]!)), `frame ${i}`));
});
