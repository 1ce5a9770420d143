import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createImage, effectiveZoom, overColor, parseBackgroundColor, parseZoom } from '../../src/imaging/image.js';

test("bg=: RRGGBB opaque or AARRGGBB (vortex-imager's readColor), # allowed, any case; anything else none", () => {
  const cases: [string | undefined, { rgb: number; alpha: number } | undefined][] = [
    ['ff0000', { rgb: 0xff0000, alpha: 255 }],
    ['#336699', { rgb: 0x336699, alpha: 255 }],
    ['FFFFFF', { rgb: 0xffffff, alpha: 255 }],
    [' 336699 ', { rgb: 0x336699, alpha: 255 }],
    ['80336699', { rgb: 0x336699, alpha: 0x80 }],
    ['#ff000000', { rgb: 0x000000, alpha: 255 }],
    ['ffffffff', { rgb: 0xffffff, alpha: 255 }],
    ['00336699', undefined],
    ['fff', undefined],
    ['red', undefined],
    ['ff00000', undefined],
    ['ff0000ff00', undefined],
    ['0x336699', undefined],
    ['', undefined],
    [undefined, undefined],
  ];
  for (const [raw, want] of cases) assert.deepEqual(parseBackgroundColor(raw), want, String(raw));
});

test('overColor: transparent pixels become the colour, opaque ones stay, half-transparent ones blend', () => {
  const img = createImage(3, 1);
  img.data.set([0, 0, 0, 0, 10, 20, 30, 255, 200, 0, 0, 128]);
  assert.deepEqual([...overColor(img, 0x336699, 255).data], [51, 102, 153, 255, 10, 20, 30, 255, 126, 51, 76, 255]);
  // Over a half-transparent colour, a transparent pixel takes the colour and its alpha.
  assert.deepEqual([...overColor(img, 0x336699, 0x80).data.subarray(0, 4)], [51, 102, 153, 128]);
  assert.deepEqual([...img.data.subarray(0, 4)], [0, 0, 0, 0], 'the image given is not changed');
});

test("zoom=: vortex-imager's readZoom in whole steps: from 1 truncated, at most 4; anything else the fallback", () => {
  const cases: [string | undefined, number][] = [
    ['2', 2],
    ['3', 3],
    [' 4 ', 4],
    ['+2', 2],
    ['2.5', 2],
    ['5', 4],
    ['400', 4],
    ['1', 1],
    ['0.5', 7],
    ['0', 7],
    ['-2', 7],
    ['abc', 7],
    ['', 7],
    [undefined, 7],
  ];
  for (const [raw, want] of cases) assert.equal(parseZoom(raw, 7), want, String(raw));
  // The bound: lowered until the picture has at most 4096 × 4096 pixels.
  assert.deepEqual(
    [effectiveZoom(1024, 1024, 4), effectiveZoom(1025, 1024, 4), effectiveZoom(5000, 4000, 2)],
    [4, 3, 1],
  );
});
