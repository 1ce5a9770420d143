// What a request shows of a render (output.ts), on synthetic frames: the order crop → bg → zoom, the
// zoom bound of long loops, and the refusal of an image of one kind of layer with nothing in it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  AvatarRenderError,
  boundedZoom,
  MAX_ZOOMED_BYTES,
  requestedOutput,
  type AvatarRender,
} from '../../src/avatar/index.js';
import { parseAction } from '../../src/avatar/request.js';
import { createImage, type RgbaImage } from '../../src/imaging/image.js';

/** `count` frames of w × h, each with one opaque pixel of colour (f+1, 0, 0) at (2 + f, 3). */
function render(w: number, h: number, count: number): AvatarRender {
  const frames: RgbaImage[] = [];
  for (let f = 0; f < count; f++) {
    const img = createImage(w, h);
    img.data.set([f + 1, 0, 0, 255], (3 * w + 2 + f) * 4);
    frames.push(img);
  }
  return {
    width: w,
    height: h,
    frames,
    frameTicks: frames.map(() => 1),
    delays: frames.map(() => ({ num: 1, den: 6 })),
    layers: [],
  };
}

const base = { action: parseAction(''), direction: 2 };

test('crop, then bg, then zoom: a 2-frame loop trimmed to the box of both frames, on the colour, doubled', () => {
  const out = requestedOutput(render(10, 8, 2), {
    ...base,
    crop: true,
    background: { rgb: 0x00ff00, alpha: 255 },
    zoom: 2,
  });
  // Visible pixels at (2,3) and (3,3): one box 2 × 1, doubled.
  assert.deepEqual([out.width, out.height, out.frames.length], [4, 2, 2]);
  assert.deepEqual(
    [...out.frames[0]!.data.subarray(0, 16)],
    [1, 0, 0, 255, 1, 0, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255],
  );
  assert.deepEqual(
    [...out.frames[1]!.data.subarray(0, 16)],
    [0, 255, 0, 255, 0, 255, 0, 255, 2, 0, 0, 255, 2, 0, 0, 255],
  );
});

test('zoom is bounded: a loop whose enlarged frames would pass MAX_ZOOMED_BYTES gets the largest zoom that fits', () => {
  assert.equal(MAX_ZOOMED_BYTES, 64 * 1024 * 1024);
  // Size l lying, 220 × 128: 37 frames fit at 4×, 38 do not (3× fits 67).
  assert.equal(boundedZoom({ width: 220, height: 128, frames: new Array(37) }, 4), 4);
  assert.equal(boundedZoom({ width: 220, height: 128, frames: new Array(38) }, 4), 3);
  assert.equal(boundedZoom({ width: 220, height: 128, frames: new Array(200) }, 4), 1);
  assert.equal(boundedZoom({ width: 64, height: 110, frames: new Array(24) }, 4), 4);
});

test('one kind of layer with nothing visible is no image: nothing-visible, saying which', () => {
  const empty = { ...render(4, 4, 1), frames: [createImage(4, 4)] };
  assert.throws(
    () => requestedOutput(empty, { ...base, part: 'effect', effect: 13 }),
    (e: unknown) =>
      e instanceof AvatarRenderError && e.code === 'nothing-visible' && /^effect 13 draws no sprite/.test(e.message),
  );
  // The avatar route keeps its canvas when there is nothing to trim to.
  assert.equal(requestedOutput(empty, { ...base, crop: true }).width, 4);
});
