// A render's bytes go from a worker to the main thread in a transfer list: on every Node line CI runs
// (Node 24 refuses to transfer the memory of Buffer.allocUnsafe and Buffer.concat), what
// transferableBytes gives can be posted, with the same bytes, and a buffer of its own is not copied
// (sharp's output is refused by Node 22 and 24: a render with more than 256 colours fell back).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from 'sharp';
import * as threads from 'node:worker_threads';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { transferableBytes } from '../../../src/core/render/transfer.js';

const filled = (b: Buffer) => {
  for (let i = 0; i < b.length; i++) b[i] = (i * 7) & 0xff;
  return b;
};

// Node 20 cannot tell transferable memory apart: everything is copied there.
const canMove = 'isMarkedAsUntransferable' in threads;

test('transferableBytes: every kind of encoder output can be posted in a transfer list, bytes unchanged', async () => {
  const rgba = filled(Buffer.alloc(64 * 110 * 4));
  const kinds: [string, Buffer, boolean][] = [
    // [what, bytes, moved without a copy]
    ['Buffer.allocUnsafeSlow (a still PNG)', filled(Buffer.allocUnsafeSlow(20_000)), canMove],
    [
      'sharp output (a still PNG of > 256 colours)',
      await sharp(rgba, { raw: { width: 64, height: 110, channels: 4 } })
        .png()
        .toBuffer(),
      false,
    ],
    ['Buffer.concat over 32 KiB', Buffer.concat([filled(Buffer.alloc(30_000)), filled(Buffer.alloc(30_000))]), canMove],
    [
      'Buffer.concat over 4 KiB (APNG, GIF, a PNG of > 256 colours)',
      Buffer.concat([filled(Buffer.alloc(6_000)), filled(Buffer.alloc(6_000))]),
      false,
    ],
    ['Buffer.allocUnsafe over 4 KiB', filled(Buffer.allocUnsafe(9_000)), false],
    ['a small Buffer from the shared pool', filled(Buffer.allocUnsafe(300)), false],
    ['a slice of a larger buffer', filled(Buffer.allocUnsafeSlow(5_000)).subarray(10, 4_000), false],
  ];
  const { port1, port2 } = new MessageChannel();
  try {
    for (const [what, bytes, moved] of kinds) {
      const expected = Buffer.from(bytes);
      const body = transferableBytes(bytes);
      if (moved) assert.equal(body, bytes, `${what}: not copied`);
      assert.doesNotThrow(() => port1.postMessage(body, [body.buffer]), what);
      const got = receiveMessageOnPort(port2)?.message as Uint8Array;
      assert.deepEqual(Buffer.from(got), expected, what);
      if (moved) assert.equal(bytes.byteLength, 0, `${what}: moved (detached here)`);
    }
  } finally {
    port1.close();
  }
});
