// The published-image PNG encoder: every layout it picks decodes (libvips and pngjs) to exactly the
// pixels given, transparent ones included; the same pixels give the same bytes; flat art gets small.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { encodePngCompact } from '../../src/imaging/png-compact.js';
import { decodePngSync } from '../../src/imaging/png.js';
import { createImage, imagesEqual, type RgbaImage } from '../../src/imaging/image.js';

/** An image whose pixels take `colours` distinct RGBA values (pseudo-random order), optionally all opaque. */
function image(w: number, h: number, colours: number, opaque: boolean): RgbaImage {
  const img = createImage(w, h);
  let s = 99;
  for (let i = 0; i < w * h; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    const c = i < colours ? i : (s >>> 8) % colours; // every colour appears
    // distinct values: colour index spread over RGB; alpha varies unless opaque; some alpha-0 pixels keep RGB
    img.data.set([c & 0xff, c >> 8, (c * 37) & 0xff, opaque ? 255 : c % 5 === 0 ? 0 : 255 - (c % 7)], i * 4);
  }
  return img;
}

async function vips(png: Buffer): Promise<RgbaImage> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

test('palette at the smallest bit depth, RGB when opaque, RGBA otherwise: lossless through libvips and pngjs', async () => {
  const cases: [string, RgbaImage, number, number][] = [
    ['1 colour', image(31, 17, 1, false), 3, 1],
    ['2 colours', image(31, 17, 2, false), 3, 1],
    ['4 colours', image(31, 17, 4, false), 3, 2],
    ['16 colours', image(31, 17, 16, false), 3, 4],
    ['200 colours', image(31, 17, 200, false), 3, 8],
    ['256 colours', image(40, 40, 256, false), 3, 8],
    ['opaque, 300 colours', image(40, 40, 300, true), 2, 8],
    ['translucent, 300 colours', image(40, 40, 300, false), 6, 8],
  ];
  for (const [label, img, colourType, depth] of cases) {
    const png = encodePngCompact(img);
    assert.deepEqual([png[25], png[24]], [colourType, depth], `${label}: colour type and bit depth`);
    assert.ok(imagesEqual(await vips(png), img), `${label}: libvips decodes the same pixels`);
    assert.ok(imagesEqual(decodePngSync(png), img), `${label}: pngjs decodes the same pixels`);
    assert.ok(png.equals(encodePngCompact({ ...img, data: Uint8Array.from(img.data) })), `${label}: deterministic`);
  }
  // A transparent pixel keeps its colour values (nothing is collapsed).
  const two = createImage(2, 1);
  two.data.set([10, 20, 30, 0, 0, 0, 0, 0]);
  assert.ok(imagesEqual(decodePngSync(encodePngCompact(two)), two));
});

test('flat art compresses: a 2000x2000 one-colour backdrop is a few hundred bytes, not megabytes', () => {
  const img = createImage(2000, 2000);
  for (let i = 0; i < img.data.length; i += 4) img.data.set([40, 90, 160, 255], i);
  const png = encodePngCompact(img);
  assert.ok(png.length < 2000, `${png.length} bytes`);
  assert.throws(() => encodePngCompact(createImage(0, 3)), RangeError);
});

test("a still's bytes do not depend on the images encoded before it in the thread (no zlib state carried over)", () => {
  let s = 3;
  const rnd = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const images = Array.from({ length: 120 }, () => {
    const img = createImage(8 + Math.floor(rnd() * 56), 8 + Math.floor(rnd() * 40));
    const colours = 1 + Math.floor(rnd() * 6);
    for (let i = 0; i < img.width * img.height; i++)
      if (rnd() >= 0.6) img.data.set([Math.floor(rnd() * colours) * 40, 90, 30, 255], i * 4);
    return img;
  });
  const forward = images.map(encodePngCompact);
  const backward = [...images].reverse().map(encodePngCompact).reverse();
  forward.forEach((png, i) => assert.deepEqual(png, backward[i], `image ${i}`));
});
