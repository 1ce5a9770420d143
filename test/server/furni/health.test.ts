// /healthz, /version and picking up a rebuilt corpus without a restart, over a real socket.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFile, rm, rename, chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { corpusJson, writeCorpusFixture, fakePng } from './fixture.js';
import { rawRequest, startTestServer, withTempDir, withTestServer, eventually } from './http-helpers.js';

async function health(port: number) {
  const res = await rawRequest(port, 'GET', '/healthz');
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  return { status: res.status, body: JSON.parse(res.body.toString()) };
}

test('/healthz names the service and version and reports the storage check with counts', async () => {
  await withTempDir('furni-health-', async (dir) => {
    const corpus = join(dir, 'corpus');
    await writeCorpusFixture(
      corpus,
      {
        'furni-renders/a.png': fakePng(1, 100),
        'furni-renders/a*1.png': fakePng(2, 100),
        'catalog-thumbs/a.png': fakePng(3, 50),
        'hof_furni/7/a.bundle': fakePng(4, 400),
      },
      { builtAt: '2026-02-03T04:05:06.000Z', rendererVersion: 'r9' },
    );
    await withTestServer({ corpus, memoryBudget: 1 << 20 }, async (srv) => {
      const h = await health(srv.port);
      assert.equal(h.status, 200);
      assert.equal(h.body.service, 'hotel-imager-furni');
      assert.equal(h.body.version, JSON.parse(execFileSync('cat', ['package.json']).toString()).version);
      assert.equal(h.body.status, 'ok');
      const s = h.body.checks.storage;
      assert.equal(s.ok, true);
      assert.equal(s.dir, corpus);
      assert.deepEqual(s.corpus.counts, { renders: 2, icons: 1, bundles: 1 });
      assert.equal(s.corpus.files, 4);
      assert.equal(s.corpus.builtAt, '2026-02-03T04:05:06.000Z');
      assert.equal(s.corpus.rendererVersion, 'r9');
      const head = await rawRequest(srv.port, 'HEAD', '/healthz');
      assert.equal(head.status, 200);
      assert.equal(head.body.length, 0);
    });
  });
});

test('/healthz is 503 naming the failing check when the corpus is missing or corpus.json is broken', async () => {
  await withTempDir('furni-broken-', async (dir) => {
    const missing = await startTestServer({ corpus: join(dir, 'does-not-exist') });
    try {
      const h = await health(missing.port);
      assert.equal(h.status, 503);
      assert.equal(h.body.status, 'fail');
      assert.match(h.body.checks.storage.error, /corpus\.json cannot be read: ENOENT|not readable/);
      assert.equal(h.body.checks.storage.corpus, null);
      // Assets are plain 404s, never a crash.
      assert.equal((await rawRequest(missing.port, 'GET', '/furni-renders/a.png')).status, 404);
    } finally {
      await missing.close();
    }
    const broken = join(dir, 'broken');
    await writeCorpusFixture(broken, { 'furni-renders/a.png': fakePng(1, 100) });
    await writeFile(join(broken, 'corpus.json'), '{"format": 1, "files": ');
    await withTestServer({ corpus: broken }, async (srv) => {
      const h = await health(srv.port);
      assert.equal(h.status, 503);
      assert.match(h.body.checks.storage.error, /corpus\.json failed to load: .*not JSON/);
    });
  });
});

test('a rebuilt corpus.json is picked up without a restart; a broken one keeps the old corpus serving and flags healthz', async () => {
  await withTempDir('furni-reload-', async (dir) => {
    const corpus = join(dir, 'corpus');
    const v1 = fakePng(1, 300);
    await writeCorpusFixture(corpus, { 'furni-renders/a.png': v1 });
    await withTestServer({ corpus, checkIntervalMs: 30, memoryBudget: 1 << 20 }, async (srv) => {
      assert.equal((await rawRequest(srv.port, 'GET', '/furni-renders/b.png')).status, 404);
      // A rebuild adds b and changes a (new bytes, new ETag); corpus.json lands last, atomically.
      const a2 = fakePng(11, 310);
      const b = fakePng(2, 200);
      await writeFile(join(corpus, 'furni-renders', 'a.png'), a2);
      await writeFile(join(corpus, 'furni-renders', 'b.png'), b);
      await writeFile(
        join(corpus, 'corpus.json.tmp'),
        corpusJson({ 'furni-renders/a.png': a2, 'furni-renders/b.png': b }, { builtAt: '2026-03-01T00:00:00.000Z' }),
      );
      await rename(join(corpus, 'corpus.json.tmp'), join(corpus, 'corpus.json'));
      await eventually(async () => (await rawRequest(srv.port, 'GET', '/furni-renders/b.png')).status === 200);
      const a = await rawRequest(srv.port, 'GET', '/furni-renders/a.png');
      assert.deepEqual(a.body, a2);
      assert.notEqual(a.headers.etag, undefined);
      assert.equal((await health(srv.port)).body.checks.storage.corpus.builtAt, '2026-03-01T00:00:00.000Z');

      // A broken corpus.json: the previous table stays in service, healthz says what is wrong.
      await writeFile(join(corpus, 'corpus.json'), '{ not json');
      await eventually(async () => (await health(srv.port)).status === 503);
      const h = await health(srv.port);
      assert.match(h.body.checks.storage.error, /failed to load/);
      assert.equal(h.body.checks.storage.corpus.builtAt, '2026-03-01T00:00:00.000Z');
      assert.deepEqual((await rawRequest(srv.port, 'GET', '/furni-renders/b.png')).body, b);
      assert.ok(srv.lines.some((l) => /corpus reload failed; still serving the previous corpus/.test(l)));

      // Fixed again: healthy.
      await writeFile(
        join(corpus, 'corpus.json'),
        corpusJson({ 'furni-renders/a.png': a2, 'furni-renders/b.png': b }, { builtAt: '2026-03-02T00:00:00.000Z' }),
      );
      await eventually(async () => (await health(srv.port)).status === 200);

      // corpus.json removed: still serving from the last table (b is in memory), healthz 503.
      await rm(join(corpus, 'corpus.json'));
      const gone = await health(srv.port);
      assert.equal(gone.status, 503);
      assert.match(gone.body.checks.storage.error, /corpus\.json cannot be read: ENOENT/);
      assert.equal((await rawRequest(srv.port, 'GET', '/furni-renders/b.png')).status, 200);

      // The whole corpus folder removed at runtime.
      await rm(corpus, { recursive: true, force: true });
      const removed = await health(srv.port);
      assert.equal(removed.status, 503);
      assert.match(removed.body.checks.storage.error, /ENOENT/);
    });
  });
});

test('/healthz is 503 when the corpus folder is not readable', {
  skip: process.getuid?.() === 0 ? 'running as root: permissions are not enforced' : false,
}, async () => {
  await withTempDir('furni-perm-', async (dir) => {
    const corpus = join(dir, 'corpus');
    await writeCorpusFixture(corpus, { 'furni-renders/a.png': fakePng(1, 100) });
    const srv = await startTestServer({ corpus });
    try {
      await chmod(corpus, 0o000);
      const h = await health(srv.port);
      assert.equal(h.status, 503);
      assert.match(h.body.checks.storage.error, /not readable|EACCES/);
    } finally {
      await chmod(corpus, 0o755);
      await srv.close();
    }
  });
});

function gitHead(): string {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return 'unknown'; // a clone without git metadata
  }
}

test('/version reports the commit and build time: from git when run from source', async () => {
  await withTempDir('furni-version-', async (dir) => {
    const corpus = join(dir, 'corpus');
    await writeCorpusFixture(corpus, {});
    // Others may commit while this runs: the answer must be HEAD as of the server's start.
    const headBefore = gitHead();
    const srv = await startTestServer({ corpus });
    const headAfter = gitHead();
    try {
      const res = await rawRequest(srv.port, 'GET', '/version');
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      const v = JSON.parse(res.body.toString());
      assert.equal(v.service, 'hotel-imager-furni');
      assert.ok([headBefore, headAfter].includes(v.commit), `${v.commit} is HEAD`);
      assert.equal(v.source, v.commit === 'unknown' ? 'unknown' : 'git');
      assert.ok(!Number.isNaN(Date.parse(v.builtAt)), 'builtAt is a timestamp');
    } finally {
      await srv.close();
    }
  });
});
