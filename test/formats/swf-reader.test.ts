import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { readSwf, resolveSymbols, uncompressSwf } from '../../src/formats/swf/reader.js';
import { SwfFormatError } from '../../src/formats/swf/swf-error.js';
import { FormatError } from '../../src/formats/errors.js';
import { type SwfContent, buildSwfBody, makeImage, tag, writeSwf } from '../../src/formats/swf/writer.js';
import { realdata } from '../helpers/realdata.js';

// 5×3 (odd width: palette rows and 15-bit rows are padded) with opaque, half and fully transparent pixels.
// Colour values are multiples of 5 and alpha 51 (= 255/5), so premultiplying and back is exact.
const opaque = makeImage(5, 3, (x, y) => [x * 50, y * 100, 255 - x * 50, 255]);
const withAlpha = makeImage(5, 3, (x, y) =>
  x === 4 ? [0, 0, 0, 0] : y === 1 ? [100, 200, 50, 51] : [x * 50, 5, 250, 255],
);

function content(): SwfContent {
  return {
    bitmaps: [
      { kind: 'lossless', id: 1, format: 3, alpha: false, image: opaque },
      { kind: 'lossless', id: 2, format: 3, alpha: true, image: withAlpha },
      { kind: 'lossless', id: 3, format: 4, alpha: false, image: opaque },
      { kind: 'lossless', id: 4, format: 5, alpha: false, image: opaque },
      { kind: 'lossless', id: 5, format: 5, alpha: true, image: withAlpha },
    ],
    binaries: [{ id: 6, data: '<index/>' }],
    symbols: [
      { id: 0, name: 'lib' },
      { id: 1, name: 'lib_pal' },
      { id: 2, name: 'lib_pal_alpha' },
      { id: 3, name: 'lib_rgb15' },
      { id: 4, name: 'lib_rgb24' },
      { id: 5, name: 'lib_argb' },
      { id: 5, name: 'lib_argb_alias1' },
      { id: 5, name: 'lib_argb_alias2' },
      { id: 6, name: 'lib_index' },
    ],
    extraTags: [{ code: 200, body: Buffer.from('unknown tag body') }],
  };
}

function assertImage(
  actual: { width: number; height: number; data: Uint8Array } | undefined,
  expected: { width: number; height: number; data: Uint8Array },
  what: string,
) {
  assert.ok(actual, `${what} decoded`);
  assert.equal(actual.width, expected.width, what);
  assert.equal(actual.height, expected.height, what);
  assert.deepEqual([...actual.data], [...expected.data], what);
}

for (const compression of ['none', 'zlib', 'lzma'] as const) {
  test(`reads a ${compression} SWF: every lossless format, binary data, symbols, unknown tags skipped`, async () => {
    const doc = await readSwf(writeSwf(content(), compression), `t-${compression}.swf`);
    assert.equal(doc.compression, compression);
    assert.equal(doc.version, 10);
    assert.equal(doc.frameCount, 1);
    assertImage(doc.images.get(1), opaque, 'format 3 RGB palette');
    assertImage(doc.images.get(2), withAlpha, 'format 3 RGBA palette (premultiplied)');
    // 15-bit: each channel keeps its top 5 bits, widened back as (v << 3) | (v >> 2).
    const widen = (c: number) => ((c >> 3) << 3) | ((c >> 3) >> 2);
    assertImage(
      doc.images.get(3),
      makeImage(5, 3, (x, y) => [widen(x * 50), widen(y * 100), widen(255 - x * 50), 255]),
      'format 4',
    );
    assertImage(doc.images.get(4), opaque, 'format 5 RGB');
    assertImage(doc.images.get(5), withAlpha, 'format 5 premultiplied ARGB');
    assert.equal(doc.binaries.get(6)!.toString(), '<index/>');
    assert.deepEqual(
      doc.symbols.map((s) => s.name),
      content().symbols!.map((s) => s.name),
    );
  });
}

test('premultiplied colour under alpha 0 becomes transparent black, never a division by zero', async () => {
  // Hand-made ARGB bytes: alpha 0 with non-zero colour (invalid premultiplied data real encoders emit).
  const px = Buffer.from([0, 200, 100, 50, 128, 64, 32, 16, 255, 10, 20, 30]);
  const body = Buffer.concat([Buffer.from([1, 0, 5, 3, 0, 1, 0]), deflateSync(px)]);
  const swf = writeSwf({ extraTags: [{ code: 36, body }] }, 'none');
  const doc = await readSwf(swf, 'zero-alpha.swf');
  const img = doc.images.get(1)!;
  assert.deepEqual([...img.data], [0, 0, 0, 0, 128, 64, 32, 128, 10, 20, 30, 255]);
});

test('colour above its alpha (bad premultiplied data) clamps to 255', async () => {
  const px = Buffer.from([10, 200, 5, 10]);
  const body = Buffer.concat([Buffer.from([1, 0, 5, 1, 0, 1, 0]), deflateSync(px)]);
  const doc = await readSwf(writeSwf({ extraTags: [{ code: 36, body }] }, 'none'), 'clamp.swf');
  assert.deepEqual([...doc.images.get(1)!.data], [255, 128, 255, 10]);
});

test('one id with several names: the first is the class, the others alias it', () => {
  const r = resolveSymbols(content().symbols!);
  assert.equal(r.documentClass, 'lib');
  assert.equal(r.classOf.get(5), 'lib_argb');
  assert.equal(r.aliasOf.get('lib_argb_alias1'), 'lib_argb');
  assert.equal(r.aliasOf.get('lib_argb_alias2'), 'lib_argb');
  assert.equal(r.idOf.get('lib_argb_alias2'), 5);
});

test('DefineBitsJPEG2 (with the old erroneous header) and DefineBitsJPEG3 with its alpha plane', async () => {
  const w = 8,
    h = 4;
  const rgb = Buffer.alloc(w * h * 3, 0);
  for (let i = 0; i < w * h; i++) rgb.set([200, 40, 40], i * 3);
  const jpeg = await sharp(rgb, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 100 })
    .toBuffer();
  const png = await sharp(Buffer.alloc(2 * 2 * 4, 255), { raw: { width: 2, height: 2, channels: 4 } })
    .png()
    .toBuffer();
  const alpha = Uint8Array.from({ length: w * h }, (_, i) => (i % w) * 32);
  const doc = await readSwf(
    writeSwf({
      bitmaps: [
        { kind: 'jpeg2', id: 1, data: jpeg, erroneousHeader: true },
        { kind: 'jpeg3', id: 2, data: jpeg, alpha },
        { kind: 'jpeg2', id: 3, data: png },
      ],
    }),
    'jpeg.swf',
  );
  const j2 = doc.images.get(1)!;
  assert.equal(j2.width, w);
  assert.equal(j2.height, h);
  assert.ok(Math.abs(j2.data[0]! - 200) <= 6 && Math.abs(j2.data[1]! - 40) <= 6, 'JPEG colour survives');
  assert.equal(j2.data[3], 255);
  const j3 = doc.images.get(2)!;
  for (let i = 0; i < w * h; i++) assert.equal(j3.data[i * 4 + 3], alpha[i], `alpha of pixel ${i}`);
  assert.deepEqual([...doc.images.get(3)!.data], new Array(16).fill(255));
});

async function rejects(buf: Uint8Array, file: string, pattern: RegExp): Promise<SwfFormatError> {
  try {
    await readSwf(buf, file);
  } catch (e) {
    assert.ok(e instanceof SwfFormatError, `expected SwfFormatError, got ${String(e)}`);
    assert.ok(e instanceof FormatError);
    assert.match(e.message, new RegExp(file.replace('.', '\\.')));
    assert.match(e.message, pattern);
    return e;
  }
  assert.fail(`${file} was accepted`);
}

test('bad input: typed errors naming the file and the offset', async () => {
  const fws = writeSwf(content(), 'none');
  let e = await rejects(fws.subarray(0, fws.length - 10), 'trunc.swf', /truncated/);
  assert.equal(e.offset, fws.length - 10);

  // A tag whose length runs past the end (header length fixed up so only the tag is wrong).
  const past = Buffer.concat([buildSwfBody({}).subarray(0, -2), tag(87, Buffer.alloc(10)).subarray(0, 6)]);
  past.writeUInt32LE(past.length, 4);
  e = await rejects(past, 'past.swf', /tag 87 claims 10 bytes, past the end/);
  assert.equal(e.offset, past.length - 6);

  const cws = writeSwf(content(), 'zlib');
  const badZlib = Buffer.from(cws);
  badZlib.fill(0x55, 8, 20);
  e = await rejects(badZlib, 'badzlib.swf', /bad zlib stream/);
  assert.equal(e.offset, 8);
  await rejects(cws.subarray(0, cws.length - 20), 'cws-trunc.swf', /zlib|truncated/);

  const zws = writeSwf(content(), 'lzma');
  await rejects(zws.subarray(0, 40), 'zws-trunc.swf', /LZMA|truncated/);

  // A bitmap whose pixel zlib stream is garbage: the error points into that tag.
  const badBitmap = writeSwf(
    { extraTags: [{ code: 36, body: Buffer.from([1, 0, 5, 2, 0, 2, 0, 1, 2, 3, 4, 5]) }] },
    'none',
  );
  e = await rejects(badBitmap, 'badbitmap.swf', /bad zlib stream/);
  assert.ok(e.offset! > 8 && e.offset! < badBitmap.length);

  await rejects(Buffer.from('GIF89a........'), 'notswf.swf', /not a SWF/);
  await rejects(Buffer.from('FWS'), 'short.swf', /too short/);
  const shortPixels = writeSwf(
    {
      extraTags: [
        { code: 36, body: Buffer.concat([Buffer.from([1, 0, 5, 4, 0, 4, 0]), deflateSync(Buffer.alloc(10))]) },
      ],
    },
    'none',
  );
  await rejects(shortPixels, 'short-pixels.swf', /pixel data has 10 bytes, needs 64/);
  // A header claiming 65535×65535 must be refused before anything that size is allocated.
  const huge = writeSwf(
    {
      extraTags: [
        {
          code: 36,
          body: Buffer.concat([Buffer.from([1, 0, 5, 0xff, 0xff, 0xff, 0xff]), deflateSync(Buffer.alloc(16))]),
        },
      ],
    },
    'none',
  );
  await rejects(huge, 'huge.swf', /bitmap 65535x65535 is over the decode budget \(16777216 pixels an image\); refused/);
});

test('every truncation and many corruptions of a file give a typed error or a result, never a crash', async () => {
  for (const compression of ['none', 'zlib'] as const) {
    const swf = writeSwf(content(), compression);
    for (let n = 0; n < swf.length; n += compression === 'none' ? 1 : 7) {
      try {
        await readSwf(swf.subarray(0, n), 'cut.swf');
      } catch (e) {
        assert.ok(e instanceof SwfFormatError, `cut at ${n}: ${String(e)}`);
      }
    }
  }
  const plain = writeSwf(content(), 'none');
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 300; i++) {
    const bad = Buffer.from(plain);
    for (let k = 0; k < 3; k++) bad[8 + Math.floor(rnd() * (bad.length - 8))] = Math.floor(rnd() * 256);
    try {
      await readSwf(bad, 'flip.swf');
    } catch (e) {
      assert.ok(e instanceof SwfFormatError, `corruption ${i}: ${String(e)}`);
    }
  }
});

test('uncompressSwf gives the same FWS bytes for all three containers', () => {
  const plain = writeSwf(content(), 'none');
  assert.deepEqual(uncompressSwf(writeSwf(content(), 'zlib')).data, plain);
  assert.deepEqual(uncompressSwf(writeSwf(content(), 'lzma')).data, plain);
});

const furni = realdata('flash/hof_furni');
test('every real furni SWF reads, with images, its XML documents and a symbol table', {
  skip: furni.skip,
}, async () => {
  const files = readdirSync(furni.path).filter((f) => f.endsWith('.swf'));
  assert.ok(files.length >= 36);
  for (const f of files) {
    const doc = await readSwf(readFileSync(join(furni.path, f)), f);
    // The library's own name, not the file's (l4_pillmadrink.swf holds the library l3_pillmadrink).
    const cn = resolveSymbols(doc.symbols).documentClass!;
    assert.ok(cn, `${f} names its document class`);
    assert.ok(doc.images.size > 0, `${f} has images`);
    const names = new Set(doc.symbols.map((s) => s.name));
    assert.ok(names.has(`${cn}_index`), `${f} has ${cn}_index`);
    assert.ok(names.has(`${cn}_${cn}_visualization`), `${f} has its visualization`);
  }
});

const gordon = realdata('flash/gordon');
test('every real figure SWF reads; hh_human_body has h_std_bd_1_2_0 at 25×57', { skip: gordon.skip }, async () => {
  for (const f of readdirSync(gordon.path).filter((n) => n.endsWith('.swf'))) {
    const doc = await readSwf(readFileSync(join(gordon.path, f)), f);
    assert.ok(doc.images.size > 0, `${f} has images`);
    if (f === 'hh_human_body.swf') {
      const id = resolveSymbols(doc.symbols).idOf.get('hh_human_body_h_std_bd_1_2_0')!;
      const img = doc.images.get(id)!;
      assert.equal(img.width, 25);
      assert.equal(img.height, 57);
    }
  }
});
