import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { deflate, deflateKeepsStream } from '../../src/imaging/deflate.js';

/** Avatar-like rows: a filter byte, then runs of palette indexes over a transparent background. */
function rows(width: number, height: number, seed: number): Buffer {
  const out = Buffer.alloc((width + 1) * height);
  let s = seed;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      if (x > width / 4 && x < (3 * width) / 4) out[y * (width + 1) + 1 + x] = (s >>> 28) + 1;
    }
  }
  return out;
}

const OPTIONS = [{ level: 6 }, { level: 9, memLevel: 9 }, { level: 1 }];

test('deflate gives deflateSync\'s bytes, call after call, for every option set', () => {
  const inputs = [Buffer.alloc(0), Buffer.from('x'), rows(64, 110, 1), rows(128, 220, 2), rows(64, 110, 3), rows(600, 1000, 4), rows(33, 56, 5)];
  // interleaved: a kept stream must come back from each use as fresh as a new one
  for (let round = 0; round < 3; round++) {
    for (const input of inputs) {
      for (const options of OPTIONS) assert.deepEqual(deflate(input, options), deflateSync(input, options), `${input.length} bytes, ${JSON.stringify(options)}`);
    }
  }
});

test('deflate reads a view at its own offset (a slice of a larger buffer)', () => {
  const whole = rows(200, 200, 9);
  const view = whole.subarray(1234, 1234 + 7150);
  const copy = Buffer.from(view);
  assert.deepEqual(deflate(view, { level: 6 }), deflateSync(copy, { level: 6 }));
  assert.deepEqual(new Uint8Array(deflate(new Uint8Array(whole.buffer, whole.byteOffset + 99, 5000), { level: 6 })), new Uint8Array(deflateSync(whole.subarray(99, 5099), { level: 6 })));
});

test('deflate returns bytes of its own: a later call does not change an earlier result', () => {
  const a = deflate(rows(64, 110, 11), { level: 6 });
  const kept = Buffer.from(a);
  deflate(rows(64, 110, 12), { level: 6 });
  deflate(rows(300, 300, 13), { level: 6 });
  assert.deepEqual(a, kept);
});

test('the stream is kept on the Node versions we support (else every PNG builds a new zlib stream)', () => {
  for (const options of OPTIONS) assert.equal(deflateKeepsStream(options), true, `${process.version}, ${JSON.stringify(options)}`);
});
