// Bytes under an ETag are exactly the bytes corpus.json names: a file rewritten on disk (same size,
// different content) by a rebuild running next to the service is never served under the old tag, and
// nothing in a hidden folder (a build's staging area) is ever served. Over a real socket.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { corpusJson, fakePng, sha256, writeCorpusFixture } from './fixture.js';
import { rawRequest, withTempDir, withTestServer } from './http-helpers.js';

/** One HTTP/1.0 request over raw TCP: the fast path hands HTTP/1.0 to Node's http server. */
function http10(port: number, path: string): Promise<{ status: number; head: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      const head = all.toString('latin1', 0, end);
      resolve({ status: Number(head.slice(9, 12)), head, body: all.subarray(end + 4) });
    });
    socket.write(`GET ${path} HTTP/1.0\r\nHost: x\r\n\r\n`);
  });
}

for (const budget of [1 << 20, 0]) {
  test(`same-size different bytes on disk: 503, never 200 under the old ETag; 200 with the new ETag once corpus.json matches (budget ${budget})`, async () => {
    await withTempDir('furni-integrity-', async (dir) => {
      const corpus = join(dir, 'corpus');
      const before = fakePng(1, 700);
      const after = fakePng(2, 700);
      assert.equal(after.length, before.length);
      await writeCorpusFixture(corpus, {
        'furni-renders/chair.png': before,
        'hof_furni/1/chair.bundle': fakePng(3, 3000),
      });
      // A long interval: the service must not have picked up the new corpus.json on its own timer.
      await withTestServer({ corpus, memoryBudget: budget, checkIntervalMs: 60_000 }, async (srv) => {
        await writeFile(join(corpus, 'furni-renders', 'chair.png'), after);
        for (const method of ['GET', 'HEAD']) {
          const res = await rawRequest(srv.port, method, '/furni-renders/chair.png');
          assert.equal(res.status, 503, `${method} on the fast path`);
          assert.equal(res.headers['retry-after'], '1');
          assert.equal(res.headers['cache-control'], 'no-store');
          assert.equal(res.headers.etag, undefined);
          assert.ok(!res.body.equals(after));
        }
        const node = await http10(srv.port, '/furni-renders/chair.png');
        assert.equal(node.status, 503, 'on a connection Node owns');
        assert.ok(!node.body.equals(after));
        assert.ok(
          srv.lines.some((l) => /sha256 on disk/.test(l) && /chair\.png/.test(l)),
          'the mismatch is logged',
        );
        // An untouched file is still served.
        assert.equal((await rawRequest(srv.port, 'GET', '/hof_furni/1/chair.bundle')).status, 200);

        // The rebuild finishes: corpus.json lands (atomically), the 503's reload check picks it up.
        await writeFile(
          join(corpus, 'corpus.json.tmp'),
          corpusJson({ 'furni-renders/chair.png': after, 'hof_furni/1/chair.bundle': fakePng(3, 3000) }),
        );
        await rename(join(corpus, 'corpus.json.tmp'), join(corpus, 'corpus.json'));
        await rawRequest(srv.port, 'GET', '/healthz'); // forces the check, as the 503 path does
        const res = await rawRequest(srv.port, 'GET', '/furni-renders/chair.png');
        assert.equal(res.status, 200);
        assert.equal(res.headers.etag, `"${sha256(after)}"`);
        assert.deepEqual(res.body, after);
        assert.equal((await http10(srv.port, '/furni-renders/chair.png')).body.equals(after), true);
        assert.equal(
          (await rawRequest(srv.port, 'GET', '/furni-renders/chair.png', { 'if-none-match': `"${sha256(before)}"` }))
            .status,
          200,
          'old tag no longer matches',
        );
      });
    });
  });
}

test('the 503 for changed bytes triggers the reload check by itself (no /healthz, no timer)', async () => {
  await withTempDir('furni-integrity-reload-', async (dir) => {
    const corpus = join(dir, 'corpus');
    await writeCorpusFixture(corpus, { 'furni-renders/a.png': fakePng(1, 400) });
    await withTestServer({ corpus, memoryBudget: 1 << 20, checkIntervalMs: 60_000 }, async (srv) => {
      const next = fakePng(9, 400);
      await writeFile(join(corpus, 'furni-renders', 'a.png'), next);
      await writeFile(join(corpus, 'corpus.json.tmp'), corpusJson({ 'furni-renders/a.png': next }));
      await rename(join(corpus, 'corpus.json.tmp'), join(corpus, 'corpus.json'));
      // The file went out of step before the table; the first request finds it and starts the reload.
      let res = await rawRequest(srv.port, 'GET', '/furni-renders/a.png');
      for (let i = 0; res.status === 503 && i < 100; i++) {
        await new Promise((r) => setTimeout(r, 20));
        res = await rawRequest(srv.port, 'GET', '/furni-renders/a.png');
      }
      assert.equal(res.status, 200);
      assert.equal(res.headers.etag, `"${sha256(next)}"`);
      assert.deepEqual(res.body, next);
    });
  });
});

test('nothing in a hidden folder (a build staging area) or with a hidden name is served, even when listed', async () => {
  await withTempDir('furni-hidden-', async (dir) => {
    const corpus = join(dir, 'corpus');
    const staged = fakePng(5, 300);
    const real = fakePng(6, 300);
    // The staging copies are listed too, as a careless build might list them: still never served.
    await writeCorpusFixture(corpus, {
      'furni-renders/chair.png': real,
      '.staging/furni-renders/chair.png': staged,
      'hof_furni/.staging/chair.bundle': staged,
      'hof_furni/1/.chair.bundle': staged,
      'furni-renders/.chair.png': staged,
    });
    await mkdir(join(corpus, 'furni-renders', '.staging'), { recursive: true });
    await writeFile(join(corpus, 'furni-renders', '.staging', 'chair.png'), staged);
    await withTestServer({ corpus, memoryBudget: 1 << 20 }, async (srv) => {
      const health = JSON.parse((await rawRequest(srv.port, 'GET', '/healthz')).body.toString());
      assert.equal(health.checks.storage.corpus.files, 1, 'only the published file is in the table');
      assert.equal(health.checks.storage.corpus.ignored, 4, 'hidden keys are counted as ignored');
      for (const path of [
        '/.staging/furni-renders/chair.png',
        '/furni-renders/.staging/chair.png',
        '/furni-renders/.staging%2Fchair.png',
        '/furni-renders/.chair.png',
        '/furni-renders/%2Echair.png',
        '/hof_furni/.staging/chair.bundle',
        '/hof_furni/%2estaging/chair.bundle',
        '/hof_furni/1/.chair.bundle',
        '/furni-renders/..%2F.staging%2Ffurni-renders%2Fchair.png',
        '/furni-renders/chair.png/../.staging/chair.png',
      ]) {
        for (const res of [await rawRequest(srv.port, 'GET', path), await http10(srv.port, path)]) {
          assert.equal(res.status, 404, path);
          assert.equal(res.body.toString(), 'not found', path);
        }
      }
      assert.deepEqual((await rawRequest(srv.port, 'GET', '/furni-renders/chair.png')).body, real);
    });
  });
});
