// The GIF writer: LZW against an independent strict decoder (every code width, table resets, edge
// lengths), whole files read back block by block and by libvips, alpha resolution, colour tables,
// frame disposal, loop and delays.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { lzwEncode } from '../../src/imaging/gif-lzw.js';
import { writeGif } from '../../src/imaging/gif-writer.js';
import { ditherTranslucentAreas, encodeGif, gifDelays, GIF_DITHER_MIN_AREA } from '../../src/imaging/gif.js';
import { type RgbaImage } from '../../src/imaging/image.js';
import { gifFramesRgba, readGif } from '../helpers/gif-reader.js';

/** Deterministic pseudo-random numbers (xorshift32). */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
}

/** A GIF around one frame of indexes, so the LZW data goes through the strict reader. */
function roundTrip(indexes: Uint8Array, width: number, height: number, colours: number): Uint8Array {
  const palette = new Uint8Array(colours * 3).map((_, i) => (i * 37) & 0xff);
  const gif = readGif(
    writeGif({
      width,
      height,
      palette,
      disposal: 2,
      frames: [{ left: 0, top: 0, width, height, indexes, delayCs: 0 }],
    }),
  );
  return gif.frames[0]!.indexes;
}

test('LZW: every minimum code size, random and repetitive data, through several table resets', () => {
  const rand = rng(7);
  for (let bits = 1; bits <= 8; bits++) {
    const colours = 1 << bits;
    for (const [w, h] of [
      [1, 1],
      [2, 1],
      [3, 3],
      [17, 5],
      [128, 220],
      [300, 200],
    ] as const) {
      const n = w * h;
      const kinds: Uint8Array[] = [
        Uint8Array.from({ length: n }, () => Math.floor(rand() * colours)),
        new Uint8Array(n), // one colour: the longest strings, fastest code growth
        Uint8Array.from({ length: n }, (_, i) => (i >> 3) % colours), // runs
        Uint8Array.from({ length: n }, (_, i) => (rand() < 0.9 ? i % colours : Math.floor(rand() * colours))),
      ];
      for (const data of kinds) assert.deepEqual(roundTrip(data, w, h, colours), data, `${bits} bits, ${w}x${h}`);
    }
  }
});

test('LZW: code stream lengths at every point where the code width grows or the table resets', () => {
  // Lengths around 2^k codes with a 2-bit alphabet (random data makes about one code a pixel).
  const rand = rng(99);
  for (let n = 1; n <= 5000; n += n < 300 ? 1 : 37) {
    const data = Uint8Array.from({ length: n }, () => Math.floor(rand() * 4));
    assert.deepEqual(roundTrip(data, n, 1, 4), data, `length ${n}`);
  }
});

test('LZW refuses an index outside its code size', () => {
  assert.throws(() => lzwEncode(Uint8Array.from([0, 4]), 2), /does not fit/);
  assert.throws(() => lzwEncode(Uint8Array.from([0]), 1), /not 2-8/);
});

/** What a frame should show: alpha ≥ 128 (the documented threshold) opaque in its own colour, the rest transparent (all zero). */
function thresholded(img: RgbaImage): Uint8Array {
  const out = new Uint8Array(img.data.length);
  for (let i = 0; i < out.length; i += 4) {
    if (img.data[i + 3]! >= 128) {
      out.set(img.data.subarray(i, i + 3), i);
      out[i + 3] = 255;
    }
  }
  return out;
}

function randomFrame(width: number, height: number, rand: () => number, colours: number[]): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  // a transparent border (so the crop is exercised) around blobs of palette colours with varied alpha;
  // translucent pixels only where x + y is even, so none has four translucent neighbours (no area to dither)
  for (let y = 2; y < height - 3; y++) {
    for (let x = 1 + (y % 3); x < width - 2; x++) {
      const c = colours[Math.floor(rand() * colours.length)]!;
      const o = (y * width + x) * 4;
      data[o] = c >>> 16;
      data[o + 1] = (c >>> 8) & 0xff;
      data[o + 2] = c & 0xff;
      data[o + 3] = rand() < 0.7 || (x + y) % 2 === 1 ? 255 : Math.floor(rand() * 256);
    }
  }
  return { width, height, data };
}

/** libvips's reading of a GIF (libnsgif): RGBA per frame. */
async function viaLibvips(gif: Buffer): Promise<Uint8Array[]> {
  const { data, info } = await sharp(gif, { pages: -1 }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const pages = info.pages ?? 1;
  const size = data.length / pages;
  const out: Uint8Array[] = [];
  for (let p = 0; p < pages; p++) {
    const page = Uint8Array.from(data.subarray(p * size, (p + 1) * size));
    for (let i = 0; i < page.length; i += 4) if (page[i + 3] === 0) page.fill(0, i, i + 4);
    out.push(page);
  }
  return out;
}

test('frames read back exactly (strict reader and libvips): threshold alpha, crop, disposal 2, global table', async () => {
  const rand = rng(3);
  const colours = Array.from({ length: 40 }, () => Math.floor(rand() * 0x1000000));
  const frames = [0, 1, 2].map(() => randomFrame(64, 110, rand, colours));
  // a frame with nothing visible and one whose content moved: no smear of the frame before
  frames.push({ width: 64, height: 110, data: new Uint8Array(64 * 110 * 4) });
  const moved = new Uint8Array(64 * 110 * 4);
  moved.set([255, 0, 0, 255], (5 * 64 + 60) * 4);
  frames.push({ width: 64, height: 110, data: moved });
  const body = encodeGif(frames, [17, 16, 17, 17, 16]);
  const gif = readGif(body);
  assert.equal(gif.width, 64);
  assert.equal(gif.height, 110);
  assert.equal(gif.loops, 0);
  assert.ok(gif.globalTable, 'one global table for 40 colours');
  assert.deepEqual(
    gif.frames.map((f) => f.delayCs),
    [17, 16, 17, 17, 16],
  );
  for (const f of gif.frames) {
    assert.equal(f.disposal, 2);
    assert.equal(f.transparentIndex, 0);
    assert.equal(f.localTable, null);
  }
  assert.deepEqual([gif.frames[3]!.width, gif.frames[3]!.height], [1, 1], 'an empty frame is one transparent pixel');
  assert.deepEqual(
    [gif.frames[4]!.left, gif.frames[4]!.top, gif.frames[4]!.width],
    [60, 5, 1],
    'cropped to the visible pixels',
  );
  const want = frames.map(thresholded);
  assert.deepEqual(gifFramesRgba(gif), want);
  assert.deepEqual(await viaLibvips(body), want);
  assert.deepEqual(encodeGif(frames, [17, 16, 17, 17, 16]), body, 'deterministic');
});

test('a still is one frame without a loop extension', () => {
  const rand = rng(5);
  const frame = randomFrame(33, 56, rand, [0x102030, 0xffeedd]);
  const gif = readGif(encodeGif([frame], [0]));
  assert.equal(gif.loops, null);
  assert.equal(gif.frames.length, 1);
  assert.equal(gif.frames[0]!.transparentIndex, 0);
  assert.deepEqual(gifFramesRgba(gif)[0], thresholded(frame));
});

test('more than 255 colours: a table per frame; a frame of more than 255 is reduced deterministically', async () => {
  const rand = rng(11);
  const a = Array.from({ length: 200 }, (_, i) => 0x010000 * i + 0x20);
  const b = Array.from({ length: 200 }, (_, i) => 0x000100 * i + 0x400000);
  const frames = [randomFrame(60, 60, rand, a), randomFrame(60, 60, rand, b)];
  const gif = readGif(encodeGif(frames, [17, 16]));
  assert.equal(gif.globalTable, null);
  assert.ok(gif.frames.every((f) => f.localTable !== null));
  assert.deepEqual(gifFramesRgba(gif), frames.map(thresholded), 'exact colours per frame');

  // 4,096 colours in one frame, a few of them frequent: those stay exact, every pixel stays close.
  const many = Array.from({ length: 4096 }, (_, i) => ((i & 15) << 20) | (((i >> 4) & 15) << 12) | ((i >> 8) << 4));
  const frequent = [0x112233, 0xaabbcc, 0x000000, 0xff0000];
  const data = new Uint8Array(128 * 128 * 4);
  for (let i = 0; i < 128 * 128; i++) {
    const c = i % 3 === 0 ? many[i % 4096]! : frequent[i % 4]!;
    data.set([c >>> 16, (c >>> 8) & 0xff, c & 0xff, 255], i * 4);
  }
  const big = { width: 128, height: 128, data };
  const body = encodeGif([big], [0]);
  assert.deepEqual(encodeGif([big], [0]), body, 'deterministic');
  const read = readGif(body);
  const table = read.frames[0]!.localTable!;
  assert.ok(table.length <= 256 * 3);
  const shown = gifFramesRgba(read)[0]!;
  let worst = 0;
  for (let i = 0; i < 128 * 128; i++) {
    const want = data.subarray(i * 4, i * 4 + 3);
    const got = shown.subarray(i * 4, i * 4 + 3);
    if (i % 3 !== 0) assert.deepEqual([...got], [...want], `frequent colour at ${i}`);
    else for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(got[c]! - want[c]!));
  }
  // 4,096 colours spread evenly over the cube is the worst case for 251 boxes (30 measured).
  assert.ok(worst <= 32, `every pixel within 32 of its colour per channel (worst ${worst})`);
  assert.equal((await viaLibvips(body)).length, 1);
});

test('delays: each frame ends at its exact time rounded to the centisecond; the loop total stays right', () => {
  const sixth = { num: 1, den: 6 };
  assert.deepEqual(gifDelays([sixth, sixth]), [17, 16]);
  assert.deepEqual(gifDelays(Array(6).fill(sixth)), [17, 16, 17, 17, 16, 17]);
  const sum = (a: number[]) => a.reduce((s, x) => s + x, 0);
  assert.equal(sum(gifDelays(Array(24).fill(sixth))), 400);
  assert.equal(sum(gifDelays(Array(16).fill(sixth))), 267, '16 × 166.67 ms = 2,666.7 ms');
  // mixed durations (an effect's own timing): 1/24 s and 3/24 s frames
  const mixed = gifDelays([
    { num: 1, den: 24 },
    { num: 3, den: 24 },
    { num: 1, den: 24 },
    { num: 1, den: 10 },
  ]);
  assert.deepEqual(mixed, [4, 13, 4, 10]);
  assert.equal(sum(mixed), 31, '0.3083 s → 31 cs');
  assert.deepEqual(
    gifDelays([
      { num: 1, den: 1000 },
      { num: 1, den: 1 },
    ]),
    [2, 100],
    'at least 2 cs a frame',
  );
  assert.throws(() => gifDelays([{ num: 1, den: 0 }]), /bad frame delay/);
});

test('the writer refuses frames outside the screen, a missing table and bad delays', () => {
  const palette = new Uint8Array(6);
  const frame = { left: 0, top: 0, width: 2, height: 2, indexes: new Uint8Array(4), delayCs: 0 };
  assert.throws(() => writeGif({ width: 1, height: 2, palette, disposal: 2, frames: [frame] }), /outside/);
  assert.throws(() => writeGif({ width: 2, height: 2, disposal: 2, frames: [frame] }), /no colour table/);
  assert.throws(
    () => writeGif({ width: 2, height: 2, palette, disposal: 2, frames: [{ ...frame, delayCs: 70000 }] }),
    /delay/,
  );
  assert.throws(
    () => writeGif({ width: 2, height: 2, palette, transparentIndex: 2, disposal: 2, frames: [frame] }),
    /transparent index/,
  );
  assert.throws(() => encodeGif([], []), /no frames/);
});

/** A w×h frame of one colour and alpha inside a frame of `size`, at (x, y). */
function patch(
  size: [number, number],
  at: [number, number],
  wh: [number, number],
  alpha: number,
  rgb: [number, number, number] = [200, 220, 255],
): RgbaImage {
  const [W, H] = size;
  const data = new Uint8Array(W * H * 4);
  for (let y = at[1]; y < at[1] + wh[1]; y++)
    for (let x = at[0]; x < at[0] + wh[0]; x++) data.set([...rgb, alpha], (y * W + x) * 4);
  return { width: W, height: H, data };
}

const alphaAt = (img: RgbaImage | Uint8Array, w: number, x: number, y: number) =>
  ('data' in img ? img.data : img)[(y * w + x) * 4 + 3]!;

test('large translucent areas are dithered (Bayer 8×8 fixed to the canvas, density = alpha); their rim, small areas and thin lines keep the threshold', () => {
  // A 24×20 area at alpha 128 (a ghost's body): its inner pixels every other one, its rim opaque (≥ 128).
  const ghost = patch([40, 30], [8, 5], [24, 20], 128);
  const out = ditherTranslucentAreas(ghost);
  let on = 0;
  let inner = 0;
  for (let y = 6; y < 24; y++) {
    for (let x = 9; x < 31; x++) {
      inner++;
      if (alphaAt(out, 40, x, y) === 255) on++;
      else assert.equal(alphaAt(out, 40, x, y), 0);
    }
  }
  assert.equal(on * 2, inner, 'alpha 128: half the inner pixels');
  for (const [x, y] of [
    [8, 5],
    [20, 5],
    [31, 24],
    [8, 15],
  ])
    assert.equal(alphaAt(out, 40, x, y), 128, `rim ${x},${y} left to the threshold`);
  // The pattern belongs to the canvas: the same pixel is on or off whatever the frame.
  assert.deepEqual(ditherTranslucentAreas(patch([40, 30], [8, 5], [24, 20], 128)).data, out.data);
  // Alpha 64: a quarter (within the rounding of an 8×8 pattern over the area).
  const quarter = ditherTranslucentAreas(patch([40, 40], [0, 0], [40, 40], 64));
  let q = 0;
  for (let y = 1; y < 39; y++) for (let x = 1; x < 39; x++) if (alphaAt(quarter, 40, x, y) === 255) q++;
  assert.ok(Math.abs(q / (38 * 38) - 0.25) < 0.01, `alpha 64 → ${q / (38 * 38)}`);
  // Below the area size (7×6 = 42 < 48), and a long thin soft line (an outline at size s): unchanged.
  assert.ok(7 * 6 < GIF_DITHER_MIN_AREA);
  const small = patch([20, 20], [2, 2], [7, 6], 128);
  assert.equal(ditherTranslucentAreas(small), small, 'a small area: the same frame');
  const line = patch([100, 5], [0, 2], [100, 1], 128);
  assert.equal(ditherTranslucentAreas(line), line, 'a line: the same frame');
  // Through the encoder: the dithered pixels in the pixel's own colour, the rest thresholded.
  const frames = gifFramesRgba(readGif(encodeGif([ghost], [0])));
  assert.deepEqual(frames[0], thresholded(out));
  assert.deepEqual(encodeGif([ghost], [0]), encodeGif([ghost], [0]), 'deterministic');
});
