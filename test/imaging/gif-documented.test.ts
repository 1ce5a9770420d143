// What docs/avatar-service.md ("GIF output") promises of a GIF's alpha, stated as the literals the doc
// gives: alpha ≥ 128 is opaque in the pixel's own colour and below is transparent; a connected
// translucent area of at least 48 pixels is dithered instead, alpha 128 becoming every other pixel.
// The expectations are written out here, not derived from the encoder's own constants.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeGif, GIF_ALPHA_THRESHOLD, GIF_DITHER_MIN_AREA } from '../../src/imaging/gif.js';
import { type RgbaImage } from '../../src/imaging/image.js';
import { gifFramesRgba, readGif } from '../helpers/gif-reader.js';

/** The one frame of an encoded still, composited as a viewer shows it (RGBA). */
function shown(frame: RgbaImage): Uint8Array {
  return gifFramesRgba(readGif(encodeGif([frame], [0])))[0]!;
}

function frameOf(
  width: number,
  height: number,
  pixel: (x: number, y: number) => [number, number, number, number],
): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(pixel(x, y), (y * width + x) * 4);
  return { width, height, data };
}

const opaqueCount = (rgba: Uint8Array): number => {
  let n = 0;
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] === 255) n++;
  return n;
};

test('the documented constants: threshold 128, dithered areas from 48 pixels', () => {
  assert.equal(GIF_ALPHA_THRESHOLD, 128);
  assert.equal(GIF_DITHER_MIN_AREA, 48);
});

test('a small soft area is thresholded at alpha 128: 127 is transparent, 128 opaque in its own colour', () => {
  // One row of 8 pixels: 6 translucent ones, a connected area far below 48 pixels, so no dithering.
  const alphas = [0, 1, 126, 127, 128, 129, 254, 255];
  const colour = (x: number): [number, number, number] => [10 + x, 200 - x, 30 * x];
  const frame = frameOf(8, 1, (x) => [...colour(x), alphas[x]!]);
  const rgba = shown(frame);
  const got = alphas.map((_, x) => [...rgba.subarray(x * 4, x * 4 + 4)]);
  assert.deepEqual(got, [
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [...colour(4), 255],
    [...colour(5), 255],
    [...colour(6), 255],
    [...colour(7), 255],
  ]);
});

test('an area of 47 translucent pixels keeps the threshold; 48 are dithered', () => {
  // A 7×7 block of alpha 64 (below the threshold) in a transparent 9×9 frame, with corners cut away to
  // make 47 or 48 pixels. Thresholded, alpha 64 shows nothing; dithered, some inner pixels show.
  const block = (cut: [number, number][]) =>
    frameOf(9, 9, (x, y) => {
      const inside = x >= 1 && x <= 7 && y >= 1 && y <= 7 && !cut.some(([cx, cy]) => cx === x && cy === y);
      return inside ? [0x40, 0x80, 0xc0, 64] : [0, 0, 0, 0];
    });
  assert.equal(
    opaqueCount(
      shown(
        block([
          [1, 1],
          [7, 7],
        ]),
      ),
    ),
    0,
    '47 pixels: thresholded, all transparent',
  );
  assert.ok(opaqueCount(shown(block([[1, 1]]))) > 0, '48 pixels: dithered, some pixels opaque');
});

test('a large area of alpha 128 is dithered to every other pixel inside its rim; the rim keeps the threshold', () => {
  // 18×18 of alpha 128: the 16×16 inside (each pixel's four neighbours translucent) covers every place of
  // the 8×8 pattern four times, so exactly half of it is opaque; the 68 rim pixels are thresholded (opaque).
  const rgba = shown(frameOf(18, 18, () => [0x20, 0x60, 0xa0, 128]));
  let inside = 0;
  let rim = 0;
  for (let y = 0; y < 18; y++) {
    for (let x = 0; x < 18; x++) {
      if (rgba[(y * 18 + x) * 4 + 3] !== 255) continue;
      if (x === 0 || y === 0 || x === 17 || y === 17) rim++;
      else inside++;
    }
  }
  assert.equal(inside, 128, 'half of the 256 inner pixels');
  assert.equal(rim, 68, 'every rim pixel');
});
