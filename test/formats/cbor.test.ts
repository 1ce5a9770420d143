// Our CBOR writer gives the bytes cbor-x gave bundle manifests ({ useRecords: false, mapsAsObjects: true }),
// so a rebuild with this code republishes no bundle: compared on the manifest of every bundle the
// sample kit builds and on edge values. The reader gives cbor-x's values back, and refuses what no
// bundle holds, saying where.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Encoder, decode as cborxDecode } from 'cbor-x';
import { runBuild } from '../../src/corpus/run.js';
import { decodeCbor, encodeCbor } from '../../src/formats/cbor.js';
import { BUNDLE_HEADER_SIZE, readBundleHeader } from '../../src/formats/furni-bundle.js';
import { furniKitFiles } from '../../src/samplekit/furni/index.js';

const cborx = new Encoder({ useRecords: false, mapsAsObjects: true, tagUint8Array: false } as ConstructorParameters<
  typeof Encoder
>[0]);

test('edge values: the bytes cbor-x writes, and back', () => {
  const values: unknown[] = [
    0,
    1,
    23,
    24,
    255,
    256,
    65535,
    65536,
    2 ** 32 - 1,
    2 ** 32,
    2 ** 53 - 1,
    -1,
    -24,
    -25,
    -256,
    -257,
    -65536,
    -65537,
    -(2 ** 31),
    -(2 ** 31) - 1,
    -(2 ** 32),
    -(2 ** 32) - 1,
    0.5,
    -0.25,
    1e-7,
    Math.PI,
    NaN,
    Infinity,
    -Infinity,
    -0,
    '',
    'a',
    'x'.repeat(23),
    'x'.repeat(24),
    'x'.repeat(31),
    'x'.repeat(32),
    'x'.repeat(63),
    'x'.repeat(64),
    'x'.repeat(300),
    'x'.repeat(70000),
    'é',
    'é'.repeat(20),
    '€'.repeat(90),
    '😀',
    true,
    false,
    null,
    undefined,
    [],
    [1, [2, [3]]],
    Array.from({ length: 24 }, (_, i) => i),
    Array.from({ length: 300 }, (_, i) => `s${i}`),
    {},
    { a: 1, b: [true, null], c: { d: 'e' } },
    Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, i])),
    new Uint8Array([1, 2, 3]),
  ];
  for (const v of values) {
    const ours = encodeCbor(v);
    assert.ok(ours.equals(Buffer.from(cborx.encode(v))), `bytes of ${JSON.stringify(v)?.slice(0, 40)}`);
    const back = decodeCbor(ours);
    if (v instanceof Uint8Array) assert.deepEqual(back, v);
    else assert.deepEqual(back, cborxDecode(Buffer.from(ours)), `value of ${JSON.stringify(v)?.slice(0, 40)}`);
  }
  // Half and single floats, which other writers use, read too.
  assert.equal(decodeCbor(Buffer.from([0xf9, 0x3c, 0x00])), 1);
  assert.equal(decodeCbor(Buffer.from([0xf9, 0xc4, 0x00])), -4);
  assert.equal(decodeCbor(Buffer.from([0xfa, 0x3f, 0xc0, 0x00, 0x00])), 1.5);
});

test('every sample kit bundle manifest: our bytes are cbor-x bytes, our values cbor-x values', async () => {
  const root = mkdtempSync(join(tmpdir(), 'cbor-kit-'));
  try {
    const kit = join(root, 'kit');
    for (const f of await furniKitFiles({})) {
      mkdirSync(dirname(join(kit, f.path)), { recursive: true });
      writeFileSync(join(kit, f.path), f.data);
    }
    const out = join(root, 'out');
    await runBuild({ assets: kit, out, jobs: 1, now: () => new Date('2026-01-01T00:00:00Z') });
    const bundles = readdirSync(join(out, 'hof_furni'), { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.bundle'),
    );
    assert.ok(bundles.length >= 20, `${bundles.length} bundles`);
    for (const name of bundles) {
      const buf = readFileSync(join(out, 'hof_furni', name));
      const h = readBundleHeader(buf, name);
      const cbor = gunzipSync(buf.subarray(BUNDLE_HEADER_SIZE, BUNDLE_HEADER_SIZE + h.manifestLength));
      // cbor-x keeps a DataView on the buffer it reads: it is given a copy.
      const theirs = cborxDecode(Buffer.from(cbor));
      assert.deepEqual(decodeCbor(cbor), theirs, name);
      assert.ok(encodeCbor(theirs).equals(Buffer.from(cborx.encode(theirs))), `${name}: our bytes are cbor-x's`);
      assert.ok(encodeCbor(theirs).equals(cbor), `${name}: our bytes are the bundle's`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('the reader refuses what no bundle holds, saying what and where', () => {
  assert.throws(() => decodeCbor(Buffer.from([0x9f, 0x01, 0xff])), /CBOR: indefinite length at byte 0/);
  assert.throws(() => decodeCbor(Buffer.from([0xc1, 0x01])), /CBOR: a tag at byte 0/);
  assert.throws(() => decodeCbor(Buffer.from([0x63, 0x61])), /CBOR: ends inside a value at byte 1/);
  assert.throws(() => decodeCbor(Buffer.from([0x01, 0x02])), /CBOR: 1 bytes after the value, at 1/);
  assert.throws(() => decodeCbor(Buffer.from([0xa1, 0x69, ...Buffer.from('__proto__'), 0x01])), /"__proto__"/);
  assert.throws(() => decodeCbor(Buffer.from([0xa1, 0x80, 0x01])), /neither text nor a number/);
  assert.throws(() => encodeCbor(new Map()), /cannot encode a Map/);
});
