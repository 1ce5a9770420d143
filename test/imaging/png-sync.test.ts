// The in-thread PNG decoder: exact pixels against libvips for every layout, an error for a corrupt file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { decodePngSync } from '../../src/imaging/png.js';
import { encodePngCompact } from '../../src/imaging/png-compact.js';
import { decodeImage } from '../../src/imaging/codec.js';
import { createImage, imagesEqual } from '../../src/imaging/image.js';

function sample(w: number, h: number): ReturnType<typeof createImage> {
  const img = createImage(w, h);
  let s = 12345;
  for (let i = 0; i < img.data.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    img.data[i] = (s >>> 16) & 0xff;
  }
  for (let i = 3; i < img.data.length; i += 16) img.data[i] = 0; // some fully transparent pixels
  return img;
}

const raw = (img: ReturnType<typeof createImage>) =>
  sharp(Buffer.from(img.data), { raw: { width: img.width, height: img.height, channels: 4 } });

test('decodePngSync matches libvips for RGBA with every filter, RGB and palette PNGs', async () => {
  const img = sample(41, 19);
  for (const opts of [
    { adaptiveFiltering: true },
    { adaptiveFiltering: false },
    { palette: true, colours: 64 },
  ] as const) {
    const png = await raw(img)
      .png({ compressionLevel: 6, ...opts })
      .toBuffer();
    const ref = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const mine = decodePngSync(png);
    assert.ok(mine, JSON.stringify(opts));
    assert.ok(
      imagesEqual(mine, { width: ref.info.width, height: ref.info.height, data: ref.data }),
      JSON.stringify(opts),
    );
  }
  const rgb = await raw(img).removeAlpha().png().toBuffer();
  const mine = decodePngSync(rgb)!;
  const ref = await sharp(rgb).ensureAlpha().raw().toBuffer();
  assert.ok(Buffer.from(mine.data).equals(ref));
});

test('decodePngSync reads every PNG layout and refuses a corrupt file with an error; decodeImage takes other formats', async () => {
  const img = sample(8, 8);
  const sixteen = await raw(img).toColourspace('rgb16').png().toBuffer();
  assert.equal(decodePngSync(sixteen).width, 8, '16-bit PNG decodes');
  const bad = Buffer.from(encodePngCompact(img));
  bad[bad.length - 20]! ^= 0xff; // inside IDAT: CRC no longer matches
  assert.throws(() => decodePngSync(bad), 'bad CRC throws');
  await assert.rejects(decodeImage(bad), 'decodeImage rejects a corrupt PNG');
  const webp = await raw(img).webp({ lossless: true, exact: true }).toBuffer();
  assert.ok(imagesEqual(await decodeImage(webp), img), 'lossless WebP decodes through libvips to the same pixels');
});

test('decodeImageNative (libvips, for spritesheets) gives exactly the pixels of the in-thread decoder; 16-bit PNGs stay in-thread', async () => {
  const { decodeImageNative } = await import('../../src/imaging/codec.js');
  const img = sample(53, 29);
  for (const opts of [{ adaptiveFiltering: true }, { palette: true, colours: 200 }] as const) {
    const png = await raw(img)
      .png({ compressionLevel: 6, ...opts })
      .toBuffer();
    assert.ok(imagesEqual(await decodeImageNative(png), decodePngSync(png)), JSON.stringify(opts));
  }
  const rgb = await raw(img).removeAlpha().png().toBuffer();
  assert.ok(imagesEqual(await decodeImageNative(rgb), decodePngSync(rgb)), 'RGB');
  const sixteen = await raw(img).toColourspace('rgb16').png().toBuffer();
  assert.ok(
    imagesEqual(await decodeImageNative(sixteen), decodePngSync(sixteen)),
    '16-bit: scaled like pngjs, not clipped',
  );
});
