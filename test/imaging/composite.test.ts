import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createImage,
  scaleNearest,
  flipHorizontal,
  alphaBounds,
  cropImage,
  type RgbaImage,
} from '../../src/imaging/image.js';
import { drawSprite, parseInk } from '../../src/imaging/composite.js';

function px(img: RgbaImage, x: number, y: number) {
  const i = (y * img.width + x) * 4;
  return [...img.data.subarray(i, i + 4)];
}
function fill(w: number, h: number, rgba: number[]) {
  const img = createImage(w, h);
  for (let i = 0; i < w * h; i++) img.data.set(rgba, i * 4);
  return img;
}

test('normal ink: opaque replaces, transparent pixels are skipped, clipping at the edges', () => {
  const dst = fill(4, 4, [10, 20, 30, 255]);
  const src = fill(3, 3, [200, 100, 50, 255]);
  src.data.set([0, 0, 0, 0], 0); // top-left transparent
  drawSprite(dst, src, 2, -1);
  assert.deepEqual(px(dst, 2, 0), [200, 100, 50, 255]);
  assert.deepEqual(px(dst, 3, 1), [200, 100, 50, 255]);
  assert.deepEqual(px(dst, 1, 0), [10, 20, 30, 255]);
  assert.deepEqual(px(dst, 2, 2), [10, 20, 30, 255]);
});

test('half alpha over a transparent canvas keeps colour and alpha; over opaque it mixes', () => {
  const clear = createImage(1, 1);
  drawSprite(clear, fill(1, 1, [255, 0, 0, 255]), 0, 0, { alpha: 128 });
  assert.deepEqual(px(clear, 0, 0), [255, 0, 0, 128]);
  const solid = fill(1, 1, [0, 0, 255, 255]);
  drawSprite(solid, fill(1, 1, [255, 0, 0, 128]), 0, 0);
  assert.deepEqual(px(solid, 0, 0), [128, 0, 127, 255]);
});

test('tint multiplies each channel and keeps alpha', () => {
  const dst = createImage(1, 1);
  drawSprite(dst, fill(1, 1, [255, 128, 64, 100]), 0, 0, { tint: 0x80ff00 });
  assert.deepEqual(px(dst, 0, 0), [128, 128, 0, 100]);
});

test('flipH mirrors the sprite', () => {
  const src = createImage(2, 1);
  src.data.set([255, 0, 0, 255, 0, 255, 0, 255]);
  const dst = createImage(2, 1);
  drawSprite(dst, src, 0, 0, { flipH: true });
  assert.deepEqual(px(dst, 0, 0), [0, 255, 0, 255]);
  assert.deepEqual(px(dst, 1, 0), [255, 0, 0, 255]);
  assert.deepEqual(flipHorizontal(src).data, dst.data);
});

test('add ink sums premultiplied colour and clamps', () => {
  const dst = fill(1, 1, [100, 200, 0, 255]);
  drawSprite(dst, fill(1, 1, [100, 100, 100, 255]), 0, 0, { ink: 'add' });
  assert.deepEqual(px(dst, 0, 0), [200, 255, 100, 255]);
  const clear = createImage(1, 1);
  drawSprite(clear, fill(1, 1, [100, 100, 100, 128]), 0, 0, { ink: 'add' });
  assert.deepEqual(px(clear, 0, 0), [100, 100, 100, 128]);
});

test('subtract ink takes from the backdrop and never goes below zero; darken keeps the minimum', () => {
  const dst = fill(1, 1, [100, 200, 50, 255]);
  drawSprite(dst, fill(1, 1, [50, 250, 10, 255]), 0, 0, { ink: 'subtract' });
  assert.deepEqual(px(dst, 0, 0), [50, 0, 40, 255]);
  const clear = createImage(1, 1);
  drawSprite(clear, fill(1, 1, [50, 50, 50, 255]), 0, 0, { ink: 'subtract' });
  assert.deepEqual(px(clear, 0, 0), [0, 0, 0, 0]);
  const dk = fill(1, 1, [100, 200, 50, 255]);
  drawSprite(dk, fill(1, 1, [150, 100, 60, 255]), 0, 0, { ink: 'darken' });
  assert.deepEqual(px(dk, 0, 0), [100, 100, 50, 255]);
});

test('parseInk reads names and the numeric ADD code', () => {
  assert.equal(parseInk('ADD'), 'add');
  assert.equal(parseInk('33'), 'add');
  assert.equal(parseInk(33), 'add');
  assert.equal(parseInk('DARKEN'), 'darken');
  assert.equal(parseInk('COPY'), 'copy');
  assert.equal(parseInk(undefined), 'normal');
});

test('image helpers: nearest 2x, bounds, crop', () => {
  const img = createImage(3, 2);
  img.data.set([1, 2, 3, 255], (1 * 3 + 2) * 4);
  const big = scaleNearest(img, 2);
  assert.equal(big.width, 6);
  assert.deepEqual(px(big, 5, 3), [1, 2, 3, 255]);
  assert.deepEqual(px(big, 4, 2), [1, 2, 3, 255]);
  assert.deepEqual(px(big, 3, 3), [0, 0, 0, 0]);
  assert.deepEqual(alphaBounds(img), { x: 2, y: 1, width: 1, height: 1 });
  assert.equal(alphaBounds(createImage(2, 2)), null);
  assert.deepEqual(px(cropImage(img, { x: 2, y: 1, width: 2, height: 2 }), 0, 0), [1, 2, 3, 255]);
});

test('the word-at-a-time path of normal ink gives the bytes of the per-channel path, flipped, tinted and clipped', () => {
  // A sprite whose data is not 4-byte aligned takes the per-channel loop; an aligned copy takes drawOver.
  let seed = 7;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const alphas = [0, 0, 255, 255, 255, 1, 64, 128, 200, 254];
  const randomImage = (w: number, h: number, offset: number): RgbaImage => {
    const data = new Uint8Array(new ArrayBuffer(w * h * 4 + offset), offset, w * h * 4);
    for (let i = 0; i < w * h; i++) data.set([rnd(256), rnd(256), rnd(256), alphas[rnd(alphas.length)]!], i * 4);
    return { width: w, height: h, data };
  };
  const copy = (img: RgbaImage, offset: number): RgbaImage => {
    const data = new Uint8Array(new ArrayBuffer(img.data.length + offset), offset, img.data.length);
    data.set(img.data);
    return { width: img.width, height: img.height, data };
  };
  for (let round = 0; round < 200; round++) {
    const sprite = randomImage(1 + rnd(20), 1 + rnd(20), 0);
    const canvas = randomImage(16, 16, 0);
    const x = rnd(30) - 10;
    const y = rnd(30) - 10;
    const opts = { flipH: rnd(2) === 1, tint: rnd(3) === 0 ? undefined : rnd(0x1000000) };
    const fast = copy(canvas, 0);
    drawSprite(fast, sprite, x, y, opts);
    const slow = copy(canvas, 1);
    drawSprite(slow, copy(sprite, 1), x, y, opts);
    assert.deepEqual([...fast.data], [...slow.data], `round ${round}: ${JSON.stringify({ x, y, ...opts })}`);
  }
});
