// Image cache (memory LRU bounded in bytes, disk directory surviving restarts) and the render limits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256Hex } from '../../../src/util/hash.js';
import { cachedImage, ENTRY_OVERHEAD, ImageCache } from '../../../src/core/cache/image-cache.js';
import { ClientRateLimiter, RenderBudget } from '../../../src/http/limits.js';
import { pngFrameCount } from '../../../src/core/cache/png-frames.js';
import { encodePng } from '../../../src/imaging/codec.js';
import { createImage } from '../../../src/imaging/image.js';

async function png(seed: number, width = 40): Promise<Buffer> {
  const img = createImage(width, 30);
  for (let i = 0; i < img.data.length; i += 4) {
    img.data[i] = (i * seed) & 255;
    img.data[i + 1] = (i >> 3) & 255;
    img.data[i + 2] = seed;
    img.data[i + 3] = 255;
  }
  return encodePng(img, { compressionLevel: 0 });
}

/** Cache keys are digests (cache-key.ts); these stand for the keys of distinct requests. */
const K = (name: string) => sha256Hex(name);

test('memory cache is bounded in bytes and evicts the least recently used', async () => {
  const bodies = await Promise.all([1, 2, 3, 4].map((s) => png(s)));
  const size = bodies[0]!.length;
  const cache = new ImageCache({ memoryBytes: (size + ENTRY_OVERHEAD) * 3, diskBytes: 0 });
  cache.put(K('a'), cachedImage(bodies[0]!, 1));
  cache.put(K('b'), cachedImage(bodies[1]!, 1));
  cache.put(K('c'), cachedImage(bodies[2]!, 1));
  assert.ok(cache.getMemory(K('a')), 'a is now most recently used');
  cache.put(K('d'), cachedImage(bodies[3]!, 1));
  assert.equal(cache.getMemory(K('b')), undefined, 'b was least recently used');
  assert.ok(cache.getMemory(K('a')) && cache.getMemory(K('c')) && cache.getMemory(K('d')));
  const stats = cache.stats().memory;
  assert.ok(stats.bytes <= stats.maxBytes, `${stats.bytes} ≤ ${stats.maxBytes}`);
  assert.equal(stats.entries, 3);
  // docs/avatar-service.md, "Caching": each entry counts its PNG plus 640 bytes.
  assert.equal(stats.bytes, 3 * (size + 640), 'each entry counts its body and a fixed overhead');
  // Keys name files on disk: anything but a digest is refused.
  assert.throws(() => cache.put('../../etc/passwd', cachedImage(bodies[0]!, 1)), /SHA-256/);
});

test('ETag is a strong tag derived from the bytes', async () => {
  const a = cachedImage(await png(1), 1);
  const b = cachedImage(await png(1), 1);
  const c = cachedImage(await png(2), 1);
  assert.equal(a.etag, b.etag);
  assert.notEqual(a.etag, c.etag);
  assert.match(a.etag, /^"[A-Za-z0-9_-]{32}"$/);
});

test('disk cache: survives a new instance, trims to its byte budget, clears torn writes', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'avatar-disk-'));
  try {
    const bodies = await Promise.all([1, 2, 3].map((s) => png(s)));
    // Files count whole 4 KiB blocks, as the filesystem stores them: room for two of these, not three.
    const blocks = Math.ceil(bodies[0]!.length / 4096) * 4096;
    const budget = blocks * 2 + 10;
    const first = new ImageCache({ memoryBytes: 1 << 20, diskDir: dir, diskBytes: budget });
    await first.open();
    first.put(K('k1'), cachedImage(bodies[0]!, 1));
    await first.flush();
    await new Promise((r) => setTimeout(r, 20)); // distinct mtimes: k1 is the older file
    first.put(K('k2'), cachedImage(bodies[1]!, 1));
    await first.flush();
    // A write torn by a crash, as a previous process would leave it.
    await mkdir(join(dir, 'ab'), { recursive: true });
    await writeFile(join(dir, 'ab', `${'ab'.repeat(32)}.png.tmp-1-deadbeef`), 'torn');

    const second = new ImageCache({ memoryBytes: 1 << 20, diskDir: dir, diskBytes: budget });
    await second.open();
    const files = (await readdir(dir, { recursive: true })).map(String);
    assert.ok(!files.some((f) => f.includes('.tmp-')), 'torn write removed on open');
    assert.equal(second.getMemory(K('k1')), undefined);
    const k1 = await second.getDisk(K('k1'), 'v');
    assert.ok(k1);
    assert.deepEqual(k1.body, bodies[0]);
    assert.equal(second.getMemory(K('k1'))?.etag, k1.etag, 'promoted to memory');
    second.put(K('k3'), cachedImage(bodies[2]!, 1));
    await second.flush();
    const st = second.stats().disk;
    assert.ok(st.bytes <= budget, `${st.bytes} ≤ ${budget}`);
    assert.equal(st.entries, 2);
    assert.equal(st.bytes, 2 * blocks, 'sizes on disk in whole blocks');
    assert.equal(await second.getDisk(K('k2'), 'v'), undefined, 'k2 was the oldest on disk (k1 was just read)');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('pngFrameCount reads acTL; a plain PNG is one frame', async () => {
  const still = await png(3);
  assert.equal(pngFrameCount(still), 1);
  // Insert an acTL chunk (num_frames 5) after IHDR; the count comes from it.
  const ihdrEnd = 8 + 12 + still.readUInt32BE(8);
  const actl = Buffer.alloc(20);
  actl.writeUInt32BE(8, 0);
  actl.write('acTL', 4, 'latin1');
  actl.writeUInt32BE(5, 8);
  const apng = Buffer.concat([still.subarray(0, ihdrEnd), actl, still.subarray(ihdrEnd)]);
  assert.equal(pngFrameCount(apng), 5);
  assert.throws(() => pngFrameCount(Buffer.from('GIF89a')));
});

test('client rate: a token bucket per client', () => {
  let now = 0;
  const rate = new ClientRateLimiter({ perSecond: 2, burst: 3 }, () => now);
  assert.deepEqual(
    [1, 2, 3, 4].map(() => rate.take('a')),
    [true, true, true, false],
  );
  assert.equal(rate.take('b'), true, 'another client has its own bucket');
  now += 500;
  assert.equal(rate.take('a'), true, 'one token back after half a second at 2/s');
  assert.equal(rate.take('a'), false);
  const off = new ClientRateLimiter({ perSecond: 0, burst: 0 }, () => now);
  assert.ok(Array.from({ length: 1000 }, () => off.take('a')).every(Boolean));
});

test('render budget: a fixed count per window', () => {
  let now = 0;
  const budget = new RenderBudget({ renders: 2, windowMs: 1000 }, () => now);
  assert.deepEqual(
    [1, 2, 3].map(() => budget.take()),
    [true, true, false],
  );
  now += 1000;
  assert.equal(budget.take(), true, 'a new window');
  assert.equal(budget.stats().usedInWindow, 1);
});
