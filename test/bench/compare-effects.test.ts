// The pure parts of `compare:effects` (bench/compare-effects.ts): mask IoU and its bands, the light test
// for additive sprites, the table by cause and the pick of the worst cases. The run itself needs the effect
// reference and real data, so it is a dev tool, not a test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  bandOf,
  causeTable,
  compareRenders,
  maskIoU,
  sameOverBlack,
  worstCases,
  type EffectCase,
} from '../../bench/reference/effect-compare.js';
import { createImage, type RgbaImage } from '../../src/imaging/image.js';

function image(w: number, h: number, px: [number, number, number, number][]): RgbaImage {
  const img = createImage(w, h);
  px.forEach((p, i) => img.data.set(p, i * 4));
  return img;
}

test('mask IoU: drawn pixels (alpha > 0) in both over drawn in either; 1 when neither draws, 0 for other sizes', () => {
  const a = image(4, 1, [
    [9, 9, 9, 255],
    [9, 9, 9, 1],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
  ]);
  const b = image(4, 1, [
    [1, 1, 1, 10],
    [0, 0, 0, 0],
    [5, 5, 5, 255],
    [0, 0, 0, 0],
  ]);
  assert.equal(maskIoU(a, b), 1 / 3);
  assert.equal(maskIoU(createImage(2, 2), createImage(2, 2)), 1);
  assert.equal(maskIoU(a, createImage(2, 2)), 0);
});

test('bands: verdict when not differing, else the IoU band (≥ 0.98, 0.90–0.98, < 0.90)', () => {
  const d = (verdict: 'identical' | 'within' | 'differing') => ({
    verdict,
    differingPixels: 0,
    maxDelta: 0,
    sizeMismatch: false,
  });
  assert.equal(bandOf(d('identical'), 0), 'identical');
  assert.equal(bandOf(d('within'), 0.5), 'within ±3');
  assert.equal(bandOf(d('differing'), 0.98), 'IoU ≥ 0.98');
  assert.equal(bandOf(d('differing'), 0.9), 'IoU 0.90–0.98');
  assert.equal(bandOf(d('differing'), 0.8999), 'IoU < 0.90');
  const r = compareRenders(
    image(2, 1, [
      [255, 0, 0, 255],
      [0, 0, 0, 0],
    ]),
    image(2, 1, [
      [255, 0, 0, 255],
      [0, 0, 255, 255],
    ]),
  );
  assert.equal(r.diff.verdict, 'differing');
  assert.equal(r.iou, 0.5);
  assert.equal(r.band, 'IoU < 0.90');
});

test('same over black: equal premultiplied colour whatever the alpha; a different light is not', () => {
  // One light stored two ways: (255, 128, 0) at alpha 128 and (128, 64, 0) opaque add the same to black.
  const ours = image(2, 1, [
    [255, 128, 0, 128],
    [0, 0, 0, 0],
  ]);
  const ref = image(2, 1, [
    [128, 64, 0, 255],
    [7, 7, 7, 0],
  ]);
  assert.equal(compareRenders(ours, ref).diff.verdict, 'differing');
  assert.equal(sameOverBlack(ours, ref), true);
  assert.equal(
    sameOverBlack(
      ours,
      image(2, 1, [
        [140, 64, 0, 255],
        [0, 0, 0, 0],
      ]),
    ),
    false,
  );
  // Opaque black over nothing is not the same as nothing only when its colour differs: both are black on black.
  assert.equal(sameOverBlack(image(1, 1, [[0, 0, 0, 255]]), image(1, 1, [[0, 0, 0, 0]])), true);
});

function fxCase(
  effect: string,
  verdict: EffectCase['verdict'],
  iou: number,
  cause?: string,
  differingPixels = 10,
  direction = 2,
): EffectCase {
  const band = bandOf({ verdict, differingPixels, maxDelta: 0, sizeMismatch: false }, iou);
  return {
    effect,
    library: `Lib${effect}`,
    direction,
    tick: 0,
    verdict,
    differingPixels,
    maxDelta: 9,
    iou,
    band,
    cause,
  };
}

test('table by cause: identical and within first, causes by count, unexplained its own row, bands as columns', () => {
  const cases = [
    fxCase('1', 'identical', 1),
    fxCase('1', 'identical', 1),
    fxCase('2', 'within', 1),
    fxCase('3', 'differing', 0.99, 'reference: no colour treatment'),
    fxCase('4', 'differing', 0.95, 'additive light'),
    fxCase('4', 'differing', 0.5, 'additive light'),
    fxCase('5', 'differing', 0.2, 'unexplained'),
  ];
  const lines = causeTable(cases)
    .split('\n')
    .map((l) => l.trim().split(/\s{2,}/));
  assert.deepEqual(lines[0], ['cases', 'IoU ≥ 0.98', 'IoU 0.90–0.98', 'IoU < 0.90']);
  assert.deepEqual(lines.slice(2), [
    ['identical', '2'],
    ['within ±3', '1'],
    ['additive light', '2', '1', '1'],
    ['reference: no colour treatment', '1', '1'],
    ['unexplained', '1', '1'],
    ['all', '7', '1', '1', '2'],
  ]);
  // An unexplained row is printed even when there is none.
  assert.match(causeTable([fxCase('1', 'identical', 1)]), /\nunexplained\s+0/);
});

test('worst cases: lowest IoU first, then most pixels, one per effect, differing only', () => {
  const cases = [
    fxCase('1', 'differing', 0.9, 'x', 5, 1),
    fxCase('1', 'differing', 0.3, 'x', 5, 2),
    fxCase('2', 'differing', 0.3, 'x', 50, 0),
    fxCase('3', 'identical', 0),
    fxCase('4', 'differing', 0.99, 'x', 1, 0),
  ];
  assert.deepEqual(
    worstCases(cases, 2).map((c) => [c.effect, c.direction]),
    [
      ['2', 0],
      ['1', 2],
    ],
  );
  assert.deepEqual(
    worstCases(cases, 10).map((c) => c.effect),
    ['2', '1', '4'],
  );
});

test("the cut body strip: pixels of our avatar outside the reference's moved 64×110 body canvas are taken from the reference, nothing else", async () => {
  const { withoutCutBody, LIGHT_TOLERANCE } = await import('../../bench/reference/effect-compare.js');
  assert.equal(LIGHT_TOLERANCE, 4);
  const ours = createImage(64, 110);
  const ref = createImage(64, 110);
  const body = createImage(64, 110);
  const set = (img: RgbaImage, x: number, y: number, p: [number, number, number, number]) =>
    img.data.set(p, (y * 64 + x) * 4);
  // A lifted avatar (dy -8): the reference's body canvas ends at row 102.
  for (const y of [101, 102, 105]) {
    set(ours, 10, y, [200, 0, 0, 255]);
    set(body, 10, y, [200, 0, 0, 255]);
  }
  set(ours, 20, 104, [0, 0, 200, 255]); // a sprite pixel there (not the avatar's): kept
  set(ref, 20, 104, [0, 0, 200, 255]);
  const cut = withoutCutBody(ours, ref, body, 0, -8)!;
  const at = (img: RgbaImage, x: number, y: number) => [...img.data.subarray((y * 64 + x) * 4, (y * 64 + x) * 4 + 4)];
  assert.deepEqual(at(cut, 10, 101), [200, 0, 0, 255], 'inside the canvas: ours');
  assert.deepEqual(at(cut, 10, 102), [0, 0, 0, 0], 'below it: the reference');
  assert.deepEqual(at(cut, 10, 105), [0, 0, 0, 0]);
  assert.deepEqual(at(cut, 20, 104), [0, 0, 200, 255]);
  assert.equal(compareRenders(cut, ref).diff.differingPixels, 1, 'only the row-101 pixel the reference lacks remains');
  assert.equal(withoutCutBody(ours, ref, body, 0, 0), undefined, 'no offset: nothing cut');
});
