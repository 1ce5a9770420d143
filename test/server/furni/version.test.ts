// /version over the real build path: scripts/build-info.mjs (what `npm run build` runs after tsc) writes
// the record, the server module placed where the build puts it finds it, and /version reports that commit
// and build time; a source run (no record) reports the checkout's HEAD and says builtAt is its start time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeCorpusFixture } from './fixture.js';
import { rawRequest, startTestServer, withTempDir, withTestServer } from './http-helpers.js';

const root = join(import.meta.dirname, '..', '..', '..');

function gitHead(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return undefined; // a copy without git metadata
  }
}

async function runBuildInfoScript(
  outDir: string,
  cwd: string,
): Promise<{
  commit: string;
  builtAt: string;
  headBefore?: string;
  headAfter?: string;
  before: number;
  after: number;
}> {
  const headBefore = gitHead();
  const before = Date.now();
  execFileSync(process.execPath, [join(root, 'scripts', 'build-info.mjs'), outDir], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const after = Date.now();
  const headAfter = gitHead();
  const rec = JSON.parse(await readFile(join(outDir, 'build-info.json'), 'utf8')) as {
    commit: string;
    builtAt: string;
  };
  return { ...rec, headBefore, headAfter, before, after };
}

test('scripts/build-info.mjs records HEAD and the build time; the served /version reports exactly that', async () => {
  await withTempDir('furni-buildinfo-script-', async (dir) => {
    // Run from an unrelated folder: git is still asked about this checkout.
    const rec = await runBuildInfoScript(join(dir, 'dist'), dir);
    if (rec.headBefore === undefined) {
      assert.equal(rec.commit, 'unknown');
    } else {
      // Others may commit meanwhile: HEAD as of the script's run.
      assert.ok([rec.headBefore, rec.headAfter].includes(rec.commit), `${rec.commit} is HEAD`);
      assert.match(rec.commit, /^[0-9a-f]{40}$/);
    }
    const builtAt = Date.parse(rec.builtAt);
    assert.ok(
      builtAt >= rec.before - 1000 && builtAt <= rec.after + 1000,
      `builtAt ${rec.builtAt} is the time of the run`,
    );

    const corpus = join(dir, 'corpus');
    await writeCorpusFixture(corpus, {});
    await withTestServer({ corpus, buildInfoFile: join(dir, 'dist', 'build-info.json') }, async (srv) => {
      const res = await rawRequest(srv.port, 'GET', '/version');
      assert.equal(res.status, 200);
      const v = JSON.parse(res.body.toString());
      assert.equal(v.commit, rec.commit);
      assert.equal(v.builtAt, rec.builtAt);
      assert.equal(v.source, 'build');
      assert.match(v.builtAtMeaning, /npm run build/);
      const h = JSON.parse((await rawRequest(srv.port, 'GET', '/healthz')).body.toString());
      assert.equal(h.commit, rec.commit, '/healthz names the same commit');
    });
  });
});

test('the build-info module, where the build puts it (dist/http/), reads the record the script wrote to dist/', async () => {
  await withTempDir('furni-buildinfo-layout-', async (dir) => {
    const dist = join(dir, 'dist');
    await mkdir(join(dist, 'http'), { recursive: true });
    // The compiled layout without compiling: the same module file at dist/http/.
    await copyFile(join(root, 'src', 'http', 'build-info.ts'), join(dist, 'http', 'build-info.ts'));
    const rec = await runBuildInfoScript(dist, root);
    const mod = (await import(
      pathToFileURL(join(dist, 'http', 'build-info.ts')).href
    )) as typeof import('../../../src/http/build-info.js');
    assert.deepEqual(mod.readBuildInfo(), { commit: rec.commit, builtAt: rec.builtAt, source: 'build' });
  });
});

test('from a source checkout (no build record) /version reports the git HEAD and says builtAt is the start time', async () => {
  await withTempDir('furni-version-source-', async (dir) => {
    const corpus = join(dir, 'corpus');
    await writeCorpusFixture(corpus, {});
    const headBefore = gitHead();
    const before = Date.now();
    // No buildInfoFile: the default, src/build-info.json next to the source, does not exist.
    const srv = await startTestServer({ corpus });
    const after = Date.now();
    const headAfter = gitHead();
    try {
      const v = JSON.parse((await rawRequest(srv.port, 'GET', '/version')).body.toString());
      // The exact shape docs/furni-service.md ("/version") gives, in its order.
      assert.deepEqual(Object.keys(v), ['service', 'version', 'commit', 'builtAt', 'source', 'builtAtMeaning']);
      assert.equal(v.service, 'hotel-imager-furni');
      assert.equal(v.version, '0.1.0');
      if (headBefore === undefined) {
        assert.equal(v.commit, 'unknown');
        assert.equal(v.source, 'unknown');
      } else {
        assert.ok([headBefore, headAfter].includes(v.commit), `${v.commit} is HEAD`);
        assert.equal(v.source, 'git');
        assert.match(v.builtAtMeaning, /process started/);
      }
      const t = Date.parse(v.builtAt);
      assert.ok(t >= before - 1000 && t <= after + 1000, 'builtAt is the start time');
    } finally {
      await srv.close();
    }
  });
});
