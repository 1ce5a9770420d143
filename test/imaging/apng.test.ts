import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crc32 } from 'node:zlib';
import { assembleApng, encodeApng } from '../../src/imaging/apng.js';
import { readPngChunks } from '../../src/imaging/png-chunks.js';
import { encodeIndexedPngs } from '../../src/imaging/png.js';
import { decodeImage, encodePng } from '../../src/imaging/codec.js';
import { createImage, imagesEqual, type RgbaImage } from '../../src/imaging/image.js';

const ok = (v: unknown, m = 'expected a truthy value') => assert.equal(!!v, true, m);

function frame(v: number): RgbaImage {
  const img = createImage(5, 4);
  for (let i = 0; i < 20; i++) img.data.set([v, 255 - v, 7, i % 2 ? 255 : 100], i * 4);
  return img;
}

/** Rebuilds frame n of an APNG as a plain PNG (IHDR + its IDAT/fdAT data) to decode it. */
function extractFrame(apng: Buffer, n: number): Buffer {
  const chunks = readPngChunks(apng);
  const ihdr = chunks.find((c) => c.type === 'IHDR')!;
  let idx = -1;
  const data: Buffer[] = [];
  for (const c of chunks) {
    if (c.type === 'fcTL') idx++;
    else if (idx === n && c.type === 'IDAT') data.push(c.data);
    else if (idx === n && c.type === 'fdAT') data.push(c.data.subarray(4));
  }
  const chunk = (type: string, d: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(d.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), d]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr.data),
    chunk('IDAT', Buffer.concat(data)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test('APNG: acTL loops forever, every fcTL is the full canvas at 1/6 s, sequence numbers run 0..n', async () => {
  const frames = [frame(10), frame(120), frame(250)];
  const apng = await encodeApng(frames);
  const chunks = readPngChunks(apng);
  const types = chunks.map((c) => c.type);
  assert.equal(types[0], 'IHDR');
  assert.equal(types[1], 'acTL');
  assert.equal(types.at(-1), 'IEND');
  const actl = chunks[1]!.data;
  assert.equal(actl.readUInt32BE(0), 3);
  assert.equal(actl.readUInt32BE(4), 0);
  const fctl = chunks.filter((c) => c.type === 'fcTL').map((c) => c.data);
  assert.equal(fctl.length, 3);
  const seqs: number[] = [];
  for (const c of chunks) if (c.type === 'fcTL' || c.type === 'fdAT') seqs.push(c.data.readUInt32BE(0));
  assert.deepEqual(
    seqs,
    seqs.map((_, i) => i),
  );
  for (const f of fctl) {
    assert.deepEqual([f.readUInt32BE(4), f.readUInt32BE(8), f.readUInt32BE(12), f.readUInt32BE(16)], [5, 4, 0, 0]);
    assert.deepEqual([f.readUInt16BE(20), f.readUInt16BE(22)], [1, 6]);
    assert.deepEqual([f[24], f[25]], [0, 0]);
  }
  // first frame is the default image: a plain decoder sees frame 0
  ok(imagesEqual(await decodeImage(apng), frames[0]!), 'default image is frame 0');
  for (let i = 0; i < 3; i++)
    assert.ok(imagesEqual(await decodeImage(extractFrame(apng, i)), frames[i]!), `frame ${i}`);
});

test('APNG bytes are deterministic; mismatched frame sizes are refused', async () => {
  const a = await encodeApng([frame(1), frame(2)]);
  const b = await encodeApng([frame(1), frame(2)]);
  ok(a.equals(b), 'same frames, same bytes');
  const other = await encodePng(createImage(3, 3));
  assert.throws(() => assembleApng([readyPng(a), other]), /differs/);
  assert.throws(() => assembleApng([]), RangeError);
  assert.throws(() => readPngChunks(Buffer.from('nope')), /not a PNG/);
});

function readyPng(apng: Buffer): Buffer {
  return extractFrame(apng, 0);
}

test('indexed encoding: exact round trip, one palette shared by all frames, RGBA beyond 256 colours', async () => {
  const { encodeFrames } = await import('../../src/imaging/apng.js');
  const a = frame(10);
  const b = frame(200);
  a.data.set([0, 0, 0, 0], 0); // transparent pixels whatever their colour bytes
  b.data.set([9, 9, 9, 0], 0);
  const still = await encodeFrames([a]);
  const types = readPngChunks(still).map((c) => c.type);
  assert.deepEqual(types, ['IHDR', 'PLTE', 'tRNS', 'IDAT', 'IEND']);
  assert.equal(readPngChunks(still)[0]!.data[9], 3, 'colour type 3');
  ok(imagesEqual(await decodeImage(still), a), 'still round trip');
  const anim = await encodeFrames([a, b]);
  const chunks = readPngChunks(anim);
  assert.equal(chunks.filter((c) => c.type === 'PLTE').length, 1);
  const want1 = createImage(5, 4);
  want1.data.set(b.data);
  want1.data.set([0, 0, 0, 0], 0);
  ok(imagesEqual(await decodeImage(extractFrameWithPalette(anim, 1)), want1), 'frame 1 through the shared palette');
  // 300 distinct colours: falls back to RGBA
  const many = createImage(300, 1);
  for (let i = 0; i < 300; i++) many.data.set([i & 255, i >> 8, 50, 255], i * 4);
  assert.equal(encodeIndexedPngs([many]), null);
  const rgba = await encodeFrames([many]);
  assert.equal(readPngChunks(rgba)[0]!.data[9], 6, 'colour type 6');
  ok(imagesEqual(await decodeImage(rgba), many));
  ok((await encodeFrames([a, b])).equals(anim), 'deterministic');
});

function extractFrameWithPalette(apng: Buffer, n: number): Buffer {
  const plain = extractFrame(apng, n);
  const chunks = readPngChunks(apng).filter((c) => c.type === 'PLTE' || c.type === 'tRNS');
  const chunk = (type: string, d: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(d.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), d]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  // signature + IHDR (8 + 25 bytes), then the palette chunks, then the rest
  return Buffer.concat([plain.subarray(0, 33), ...chunks.map((c) => chunk(c.type, c.data)), plain.subarray(33)]);
}

test('a still encodes to the same bytes whatever was encoded before it (its rows are scratch memory)', () => {
  const paint = (w: number, h: number, seed: number) => {
    const img = createImage(w, h);
    for (let i = 0; i < w * h; i++) if ((i * seed) % 7 < 3) img.data.set([(i * seed) & 0x3f, 40, 90, 255], i * 4);
    return img;
  };
  const small = paint(64, 110, 3);
  const first = encodeIndexedPngs([small])![0]!;
  encodeIndexedPngs([paint(128, 220, 5)]); // larger and fuller: every scratch byte written
  encodeIndexedPngs([paint(64, 110, 11), paint(64, 110, 13)]);
  assert.deepEqual(encodeIndexedPngs([small])![0], first);
});

test("a PNG's bytes do not depend on the images encoded before it in the thread (no zlib state carried over)", () => {
  // Small, sparse images of few colours (the kind whose end-of-stream matches a reused zlib window changes).
  let s = 1;
  const rnd = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const images = Array.from({ length: 120 }, () => {
    const img = createImage(8 + Math.floor(rnd() * 56), 8 + Math.floor(rnd() * 40));
    const colours = 1 + Math.floor(rnd() * 6);
    for (let i = 0; i < img.width * img.height; i++)
      if (rnd() >= 0.6) img.data.set([Math.floor(rnd() * colours) * 40, 90, 30, 255], i * 4);
    return img;
  });
  const forward = images.map((img) => encodeIndexedPngs([img])![0]!);
  const backward = [...images]
    .reverse()
    .map((img) => encodeIndexedPngs([img])![0]!)
    .reverse();
  forward.forEach((png, i) => assert.deepEqual(png, backward[i], `image ${i}`));
});
