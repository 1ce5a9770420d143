// The furni service reading its corpus from a bucket (s3rver on loopback, real SDK): /healthz's storage
// binding, a new publish picked up live, readers of an older corpus.json kept whole, and the bucket down
// or hung → 503 for what is not in memory, within the timeout, never a 500; recovery by itself.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { join } from 'node:path';
import { publishCorpus } from '../../../src/storage/publish.js';
import { createS3Client } from '../../../src/storage/s3-client.js';
import { startTestBucket, type TestBucket } from '../../helpers/s3-bucket.js';
import { fakePng, sha256, writeCorpusFixture } from './fixture.js';
import { eventually, rawRequest, tempDir, withTestServer, type RawResponse } from './http-helpers.js';

const TIMEOUT_MS = 600;
let b: TestBucket;
let tmp: { dir: string; cleanup: () => Promise<void> };
let n = 0;

before(async () => {
  b = await startTestBucket({ timeoutMs: TIMEOUT_MS });
  tmp = await tempDir('furni-s3-');
});
after(async () => {
  await b.close();
  await tmp.cleanup();
});

/** Writes `files` as a corpus and publishes it to a fresh prefix (or `prefix`); returns the s3:// URL. */
async function published(
  files: Record<string, Buffer>,
  opts: { prefix?: string; builtAt?: string } = {},
): Promise<string> {
  const prefix = opts.prefix ?? `p${++n}`;
  const dir = join(tmp.dir, prefix);
  await writeCorpusFixture(dir, files, opts.builtAt ? { builtAt: opts.builtAt } : {});
  // A later corpus here may drop stills on purpose (the shrink guard has its own test, publish.test.ts).
  await publishCorpus({ corpus: dir, to: b.url(prefix), s3: b.settings, allowShrink: true });
  return b.url(prefix);
}

async function health(port: number) {
  const res = await rawRequest(port, 'GET', '/healthz');
  return { status: res.status, storage: JSON.parse(res.body.toString()).checks.storage };
}

async function timed(fn: () => Promise<RawResponse>): Promise<RawResponse & { ms: number }> {
  const t0 = performance.now();
  const res = await fn();
  return { ...res, ms: performance.now() - t0 };
}

test('/healthz reports the bucket binding: reachable, the corpus loaded and its build time', async () => {
  const url = await published(
    { 'furni-renders/a.png': fakePng(1, 100), 'hof_furni/1/a.bundle': fakePng(2, 300) },
    { builtAt: '2026-04-05T06:07:08.000Z' },
  );
  await withTestServer({ corpus: url, s3: b.settings }, async (srv) => {
    const h = await health(srv.port);
    assert.equal(h.status, 200);
    assert.equal(h.storage.ok, true);
    assert.equal(h.storage.backend, 's3');
    assert.equal(h.storage.location, url + '/');
    assert.equal(h.storage.bucket, b.bucket);
    assert.equal(h.storage.endpoint, b.endpoint);
    assert.equal(h.storage.reachable, true);
    assert.equal(h.storage.corpus.builtAt, '2026-04-05T06:07:08.000Z');
    assert.deepEqual(h.storage.corpus.counts, { renders: 1, icons: 0, bundles: 1 });
  });
});

test('a new publish is picked up without a restart; a reader still on the old corpus.json gets the old bytes whole', async () => {
  const prefix = `p${++n}`;
  const v1 = { 'furni-renders/chair.png': fakePng(1, 500), 'furni-renders/lamp.png': fakePng(2, 400) };
  const url = await published(v1, { prefix, builtAt: '2026-01-01T00:00:00.000Z' });
  const v2 = { 'furni-renders/chair.png': fakePng(11, 520), 'furni-renders/sofa.png': fakePng(3, 300) };
  // A reader that checks rarely (it keeps v1's table for the whole test) and one that polls.
  await withTestServer({ corpus: url, s3: b.settings, memoryBudget: 0, checkIntervalMs: 60_000 }, async (stale) => {
    await withTestServer({ corpus: url, s3: b.settings, memoryBudget: 0, checkIntervalMs: 30 }, async (live) => {
      assert.equal((await rawRequest(live.port, 'GET', '/furni-renders/sofa.png')).status, 404);
      await published(v2, { prefix, builtAt: '2026-02-01T00:00:00.000Z' });
      await eventually(async () => (await rawRequest(live.port, 'GET', '/furni-renders/sofa.png')).status === 200);
      const chair = await rawRequest(live.port, 'GET', '/furni-renders/chair.png');
      assert.deepEqual(chair.body, v2['furni-renders/chair.png']);
      assert.equal(chair.headers.etag, `"${sha256(v2['furni-renders/chair.png'])}"`);
      assert.equal((await rawRequest(live.port, 'GET', '/furni-renders/lamp.png')).status, 404);
      assert.equal((await health(live.port)).storage.corpus.builtAt, '2026-02-01T00:00:00.000Z');
      // The stale reader: every file of its table, with the bytes its ETags promise (nothing overwritten,
      // nothing removed yet).
      for (const [path, bytes] of Object.entries(v1)) {
        const res = await rawRequest(stale.port, 'GET', `/${path}`);
        assert.equal(res.status, 200, path);
        assert.deepEqual(res.body, bytes, path);
        assert.equal(res.headers.etag, `"${sha256(bytes)}"`);
      }
    });
  });
});

test('bucket down: what is in memory is still served, the rest is 503 within the timeout, healthz says unreachable; it recovers by itself', async () => {
  const files = { 'furni-renders/hot.png': fakePng(1, 300), 'furni-renders/cold.png': fakePng(2, 300) };
  const url = await published(files);
  await withTestServer({ corpus: url, s3: b.settings, memoryBudget: 1 << 20, checkIntervalMs: 50 }, async (srv) => {
    assert.equal((await rawRequest(srv.port, 'GET', '/furni-renders/hot.png')).status, 200);
    for (const mode of ['down', 'hang'] as const) {
      b.setMode(mode);
      try {
        const hot = await rawRequest(srv.port, 'GET', '/furni-renders/hot.png');
        assert.equal(hot.status, 200, `${mode}: hot`);
        assert.deepEqual(hot.body, files['furni-renders/hot.png']);
        // Conditional requests need no bytes at all.
        assert.equal(
          (
            await rawRequest(srv.port, 'GET', '/furni-renders/cold.png', {
              'if-none-match': `"${sha256(files['furni-renders/cold.png'])}"`,
            })
          ).status,
          304,
        );
        for (const method of ['GET', 'HEAD']) {
          const cold = await timed(() => rawRequest(srv.port, method, '/furni-renders/cold.png'));
          assert.equal(cold.status, 503, `${mode}: ${method} cold`);
          assert.equal(cold.headers['cache-control'], 'no-store');
          assert.equal(cold.headers['access-control-allow-origin'], '*');
          if (method === 'GET') assert.equal(cold.body.toString(), 'storage unavailable');
          // Bounded by the S3 timeout (retries included), with room for a busy machine.
          assert.ok(cold.ms < TIMEOUT_MS + 1500, `${mode}: ${method} took ${cold.ms.toFixed(0)} ms`);
        }
        assert.equal(
          (await rawRequest(srv.port, 'GET', '/furni-renders/nope.png')).status,
          404,
          'unknown names stay 404',
        );
        const h = await timed(() => rawRequest(srv.port, 'GET', '/healthz'));
        assert.equal(h.status, 503);
        assert.ok(h.ms < TIMEOUT_MS + 1500, `${mode}: healthz took ${h.ms.toFixed(0)} ms`);
        const storage = JSON.parse(h.body.toString()).checks.storage;
        assert.equal(storage.reachable, false);
        assert.match(storage.error, /^bucket unreachable: /);
        assert.equal(storage.corpus.files, 2, 'the table in service is kept');
        assert.equal((await rawRequest(srv.port, 'GET', '/version')).status, 200);
      } finally {
        b.setMode('up');
      }
      await eventually(async () => (await health(srv.port)).status === 200);
      assert.equal((await health(srv.port)).storage.reachable, true);
    }
    const cold = await rawRequest(srv.port, 'GET', '/furni-renders/cold.png');
    assert.equal(cold.status, 200);
    assert.deepEqual(cold.body, files['furni-renders/cold.png']);
    assert.ok(!srv.lines.some((l) => /"status":500/.test(l)), 'never a 500');
  });
});

test('started while the bucket is down: healthz 503, assets 404; the corpus loads once the bucket answers', async () => {
  const url = await published({ 'furni-renders/a.png': fakePng(1, 100) });
  b.setMode('down');
  try {
    await withTestServer({ corpus: url, s3: b.settings, checkIntervalMs: 50 }, async (srv) => {
      const h = await health(srv.port);
      assert.equal(h.status, 503);
      assert.equal(h.storage.reachable, false);
      assert.equal(h.storage.corpus, null);
      assert.equal((await rawRequest(srv.port, 'GET', '/furni-renders/a.png')).status, 404);
      b.setMode('up');
      await eventually(async () => (await rawRequest(srv.port, 'GET', '/furni-renders/a.png')).status === 200);
    });
  } finally {
    b.setMode('up');
  }
});

test('a prefix with no corpus.json is 503 on /healthz (reachable, nothing loaded); an object deleted by hand is a 404', async () => {
  await withTestServer({ corpus: b.url('nothing-here'), s3: b.settings }, async (srv) => {
    const h = await health(srv.port);
    assert.equal(h.status, 503);
    assert.equal(h.storage.reachable, true);
    assert.match(h.storage.error, /corpus\.json cannot be read: not in the bucket/);
  });
  const a = fakePng(5, 100);
  const url = await published({ 'furni-renders/a.png': a, 'furni-renders/b.png': fakePng(6, 100) });
  const client = createS3Client(b.settings);
  try {
    await client.send(
      new DeleteObjectCommand({
        Bucket: b.bucket,
        Key: `${url.slice(`s3://${b.bucket}/`.length)}/objects/${sha256(a)}`,
      }),
    );
  } finally {
    client.destroy();
  }
  await withTestServer({ corpus: url, s3: b.settings, memoryBudget: 0 }, async (srv) => {
    assert.equal((await rawRequest(srv.port, 'GET', '/furni-renders/a.png')).status, 404);
    assert.equal((await rawRequest(srv.port, 'GET', '/furni-renders/b.png')).status, 200);
    assert.ok(srv.lines.some((l) => /listed asset not servable/.test(l) && /is not in the bucket/.test(l)));
  });
});
