import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync, deflateSync } from 'node:zlib';
import {
  readNitroBundle,
  writeNitroBundle,
  frameNitroBundle,
  NitroBundleError,
} from '../../src/formats/nitro-container.js';
import { realdata } from '../helpers/realdata.js';

const sample: [string, Buffer][] = [
  ['thing.json', Buffer.from('{"name":"thing"}')],
  ['thing.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])],
];

test('round trip keeps names, order and bytes', () => {
  const bundle = writeNitroBundle(sample);
  assert.equal(bundle.readUInt16BE(0), 2);
  assert.equal(bundle.readUInt16BE(2), 'thing.json'.length);
  assert.equal(bundle.toString('latin1', 4, 14), 'thing.json');
  const back = readNitroBundle(bundle, 'thing.nitro');
  assert.deepEqual([...back.keys()], ['thing.json', 'thing.png']);
  assert.deepEqual(back.get('thing.png'), sample[1]![1]);
  assert.deepEqual(writeNitroBundle(back), bundle, 'writing is deterministic');
});

test('corrupt bundles throw a typed error naming the file and the fault', () => {
  const good = writeNitroBundle(sample);
  const cases: [string, Buffer, RegExp][] = [
    ['empty', Buffer.alloc(0), /truncated/],
    ['zero count', Buffer.from([0, 0]), /bad file count/],
    ['count past the files', Buffer.concat([Buffer.from([0, 3]), good.subarray(2)]), /truncated: file 3 of 3/],
    ['name past end', Buffer.from([0, 1, 0x7f, 0xff, 0x41]), /name length 32767/],
    ['data past end', good.subarray(0, good.length - 3), /runs past the end/],
    ['trailing junk', Buffer.concat([good, Buffer.from([1])]), /trailing bytes/],
  ];
  for (const [label, buf, re] of cases) {
    assert.throws(
      () => readNitroBundle(buf, 'broken.nitro'),
      (e: unknown) => {
        assert.ok(e instanceof NitroBundleError, label);
        assert.match(e.message, /broken\.nitro/, label);
        assert.match(e.message, re, label);
        return true;
      },
    );
  }
  const notZlib = Buffer.from(good);
  notZlib[2 + 2 + 'thing.json'.length + 4] ^= 0xff; // first byte of the zlib stream
  assert.throws(() => readNitroBundle(notZlib, 'broken.nitro'), /does not inflate/);
});

test('gzip members are read like zlib streams, told apart by their header as the client does', () => {
  const gz = writeNitroBundle(sample, { compression: 'gzip' });
  assert.deepEqual([gz[2 + 2 + 'thing.json'.length + 4], gz[2 + 2 + 'thing.json'.length + 5]], [0x1f, 0x8b]);
  assert.deepEqual([...readNitroBundle(gz, 'g.nitro')], sample);
  // One file of each kind in one bundle (the framing does not care).
  const mixed = frameNitroBundle([
    ['thing.json', gzipSync(sample[0]![1])],
    ['thing.png', deflateSync(sample[1]![1])],
  ]);
  assert.deepEqual([...readNitroBundle(mixed, 'm.nitro')], sample);
});

test('a gzip member cut short, or with a broken trailer, is a clear error naming the file', () => {
  const member = gzipSync(Buffer.from('{"name":"thing","assets":{}}'.repeat(20)));
  const cut = frameNitroBundle([['thing.json', member.subarray(0, member.length - 12)]]);
  assert.throws(
    () => readNitroBundle(cut, 'cut.nitro'),
    (e: unknown) =>
      e instanceof NitroBundleError &&
      /cut\.nitro/.test(e.message) &&
      /thing\.json \(gzip\) does not inflate: unexpected end of file/.test(e.message),
  );
  const badCrc = Buffer.from(member);
  badCrc[badCrc.length - 6] ^= 0xff; // the CRC-32 in the trailer
  assert.throws(
    () => readNitroBundle(frameNitroBundle([['thing.json', badCrc]]), 'crc.nitro'),
    /thing\.json \(gzip\) does not inflate/,
  );
});

const figures = realdata('nitro/bundled/figure');
test('reads every real figure bundle', { skip: figures.skip }, () => {
  const files = readdirSync(figures.path).filter((f) => f.endsWith('.nitro'));
  assert.ok(files.length > 50);
  for (const f of files) {
    const entries = readNitroBundle(readFileSync(join(figures.path, f)), f);
    const base = f.replace(/\.nitro$/, '');
    assert.ok(entries.has(`${base}.json`), `${f} has ${base}.json`);
    const doc = JSON.parse(entries.get(`${base}.json`)!.toString());
    assert.equal(typeof doc.assets, 'object');
  }
});
