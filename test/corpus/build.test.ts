// The furni build pipeline on the sample kit: outputs, report, corpus.json, round trip, incremental
// rebuilds, --only, worker threads, a killed build, exit codes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  mkdtempSync,
  mkdirSync,
  writeFileSync,
  readFileSync,
  existsSync,
  rmSync,
  unlinkSync,
  readdirSync,
  cpSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { sha256Hex } from '../../src/util/hash.js';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { furniKitFiles } from '../../src/samplekit/furni/index.js';
import { CORPUS_JSON } from '../../src/formats/corpus-json.js';
import { runBuild, REPORT_FILE } from '../../src/corpus/run.js';
import { type CorpusIndex, type BuildReport } from '../../src/corpus/corpus.js';
import { readFurniBundle } from '../../src/furni/bundle.js';
import { renderStill } from '../../src/furni/render.js';
import { decodeImage } from '../../src/imaging/codec.js';
import { encodePngCompact } from '../../src/imaging/png-compact.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const root = mkdtempSync(join(tmpdir(), 'hi-build-test-'));
const kit = join(root, 'kit');
const fixed = () => new Date('2026-01-01T00:00:00Z');

before(async () => {
  for (const f of await furniKitFiles({ extraFurni: 3 })) {
    mkdirSync(dirname(join(kit, f.path)), { recursive: true });
    writeFileSync(join(kit, f.path), f.data);
  }
});
after(() => rmSync(root, { recursive: true, force: true }));

const readJson = <T>(p: string): T => JSON.parse(readFileSync(p, 'utf8')) as T;
const sha = sha256Hex;

test('build: renders per classname and colour row, icons for bases, bundles per revision; failures reported', async () => {
  const out = join(root, 'out-main');
  const s = await runBuild({ assets: kit, out, jobs: 1, now: fixed });
  const r = readJson<BuildReport>(join(out, REPORT_FILE));
  assert.deepEqual(r.counts, s.report.counts);
  for (const cn of ['kit_corrupt_trunc', 'kit_corrupt_garbage', 'kit_corrupt_json', 'kit_corrupt_gzip']) {
    assert.equal(r.items[cn]!.status, 'failed', cn);
    assert.match(r.items[cn]!.reason!, /asset file unreadable/);
    assert.ok(!existsSync(join(out, 'furni-renders', `${cn}.png`)));
  }
  assert.match(
    r.items['kit_corrupt_gzip']!.reason!,
    /kit_corrupt_gzip\.json \(gzip\) does not inflate: unexpected end of file/,
  );
  // gzip-packed like the real posters: read, drawn and published like any other item.
  assert.equal(r.items['kit_poster_gzip']!.status, 'ok');
  for (const p of [
    'furni-renders/kit_poster_gzip.png',
    'catalog-thumbs/kit_poster_gzip.png',
    'hof_furni/62004/kit_poster_gzip.bundle',
  ])
    assert.ok(existsSync(join(out, p)), p);
  // State 0 without an animation is what the seed pack shows (its only animation draws nothing).
  assert.equal(r.items['kit_seedpack_noframe']!.state, 0);
  assert.equal(r.items['kit_missing_bundle']!.status, 'skipped');
  assert.match(r.items['kit_missing_bundle']!.reason!, /no asset file/);
  assert.equal(r.items['kit_noicon']!.status, 'ok');
  assert.match(r.items['kit_noicon']!.notes!.join(), /no icon/);
  assert.ok(!existsSync(join(out, 'catalog-thumbs', 'kit_noicon.png')));
  assert.match(r.items['kit_sofa_colors*5']!.notes!.join(), /colour 5 is not in the colour table/);
  for (const p of [
    'furni-renders/kit_sofa_colors*5.png',
    'furni-renders/kit_sofa_colors*12.png',
    'furni-renders/kit_vase_colors*0.png',
    'catalog-thumbs/kit_sofa_colors.png',
    'hof_furni/61012/kit_sofa_colors.bundle',
  ]) {
    assert.ok(existsSync(join(out, p)), p);
  }
  assert.ok(!existsSync(join(out, 'catalog-thumbs', 'kit_sofa_colors*1.png')));
  // No base row: the base still is published anyway (colour 0), so a client can fall back to it.
  assert.deepEqual(
    readFileSync(join(out, 'furni-renders', 'kit_vase_colors.png')),
    readFileSync(join(out, 'furni-renders', 'kit_vase_colors*0.png')),
  );
  assert.match(r.items['kit_vase_colors']!.notes!.join(), /no furnidata row for the base classname/);
  assert.ok(existsSync(join(out, 'catalog-thumbs', 'kit_vase_colors.png')));
  assert.ok(existsSync(join(out, 'hof_furni', '61013', 'kit_vase_colors.bundle')));
  assert.equal(r.items['kit_lamp_state2']!.state, 2);
  assert.equal(r.counts.failed, 4);
});

test('corpus.json: every published file with its size and sha256, sorted, with counts', async () => {
  const out = join(root, 'out-main');
  const c = readJson<CorpusIndex>(join(out, CORPUS_JSON));
  assert.equal(c.format, 1);
  assert.equal(c.builtAt, '2026-01-01T00:00:00.000Z');
  const paths = Object.keys(c.files);
  assert.deepEqual(paths, [...paths].sort());
  for (const [p, f] of Object.entries(c.files)) {
    const b = readFileSync(join(out, p));
    assert.equal(b.length, f.size, p);
    assert.equal(sha(b), f.sha256, p);
  }
  assert.equal(c.counts.renders, paths.filter((p) => p.startsWith('furni-renders/')).length);
  assert.equal(c.counts.icons, readdirSync(join(out, 'catalog-thumbs')).length);
  assert.equal(c.counts.bundles, paths.filter((p) => p.endsWith('.bundle')).length);
});

test('round trip: every still re-rendered from its bundle alone is byte-identical to the published PNG', async () => {
  const out = join(root, 'out-main');
  const c = readJson<CorpusIndex>(join(out, CORPUS_JSON));
  let checked = 0;
  for (const p of Object.keys(c.files).filter((x) => x.endsWith('.bundle'))) {
    const base = p.replace(/^.*\//, '').replace(/\.bundle$/, '');
    const { model } = await readFurniBundle(readFileSync(join(out, p)), p);
    for (const r of Object.keys(c.files).filter(
      (x) => x === `furni-renders/${base}.png` || x.startsWith(`furni-renders/${base}*`),
    )) {
      const star = r.slice(0, -4).split('*')[1];
      const img = renderStill(model, star === undefined ? 0 : Number(star));
      assert.ok(encodePngCompact(img!).equals(readFileSync(join(out, r))), r);
      checked++;
    }
  }
  assert.ok(checked > 30);
});

test('incremental: an unchanged rebuild builds nothing; a changed or deleted input/output rebuilds that item', async () => {
  const out = join(root, 'out-main');
  const again = await runBuild({ assets: kit, out, jobs: 1, now: fixed });
  assert.equal(again.rebuilt, 0); // corrupt inputs fail the same way: not retried until they change
  assert.ok(again.unchanged > 30);
  // Same bytes, new mtime: hashed, still unchanged.
  const crate = join(kit, 'bundled/furniture/kit_crate.nitro');
  writeFileSync(crate, readFileSync(crate));
  assert.equal((await runBuild({ assets: kit, out, jobs: 1, now: fixed })).rebuilt, 0);
  unlinkSync(join(out, 'furni-renders', 'kit_crate.png'));
  const after = await runBuild({ assets: kit, out, jobs: 1, now: fixed });
  assert.equal(after.rebuilt, 1);
  assert.equal(after.report.counts.failed, 4);
  assert.ok(existsSync(join(out, 'furni-renders', 'kit_crate.png')));
});

test('--only builds the named items and keeps the rest of the corpus', async () => {
  const out = join(root, 'out-only');
  const s = await runBuild({ assets: kit, out, jobs: 1, only: ['kit_sofa_colors*3'], now: fixed });
  assert.equal(s.rebuilt, 1);
  assert.deepEqual(
    Object.keys(s.corpus.files).filter((p) => p.startsWith('catalog-thumbs/')),
    ['catalog-thumbs/kit_sofa_colors.png'],
  );
  await runBuild({ assets: kit, out, jobs: 1, now: fixed });
  const s2 = await runBuild({ assets: kit, out, jobs: 1, only: ['kit_crate'], now: fixed });
  assert.equal(s2.rebuilt, 0);
  assert.ok('furni-renders/kit_sofa_colors*3.png' in s2.corpus.files);
});

test('worker threads give the same files as the in-thread build', async () => {
  const out = join(root, 'out-jobs2');
  const s = await runBuild({ assets: kit, out, jobs: 2, now: fixed });
  const main = readJson<CorpusIndex>(join(root, 'out-main', CORPUS_JSON));
  assert.deepEqual(s.corpus.files, main.files);
});

test('a classname dropped from furnidata (its asset still there) leaves the corpus with allowShrink, and its files are removed', async () => {
  const assets = join(root, 'kit-drop');
  cpSync(kit, assets, { recursive: true });
  const out = join(root, 'out-drop');
  await runBuild({ assets, out, jobs: 1, now: fixed });
  assert.ok(existsSync(join(out, 'furni-renders', 'kit_crate.png')));
  const fdPath = join(assets, 'gamedata/FurnitureData.json');
  const fd = readJson<{ roomitemtypes: { furnitype: { classname: string }[] } }>(fdPath);
  fd.roomitemtypes.furnitype = fd.roomitemtypes.furnitype.filter((r) => r.classname !== 'kit_crate');
  writeFileSync(fdPath, JSON.stringify(fd));
  // Without it the shrink guard stops the build (test/corpus/shrink.test.ts).
  await assert.rejects(runBuild({ assets, out, jobs: 1, now: fixed }), /only their furnidata row is gone: kit_crate\./);
  assert.ok(existsSync(join(out, 'furni-renders', 'kit_crate.png')));
  const s = await runBuild({ assets, out, jobs: 1, now: fixed, allowShrink: true });
  assert.ok(!existsSync(join(out, 'furni-renders', 'kit_crate.png')));
  assert.ok(!('furni-renders/kit_crate.png' in s.corpus.files));
  assert.equal(s.report.items['kit_crate']!.status, 'skipped');
  assert.match(s.report.items['kit_crate']!.reason!, /no furnidata row/);
});

const cli = (args: string[]) =>
  [process.execPath, ['--import', 'tsx', join(repo, 'src/cli/main.ts'), 'build', ...args]] as const;

test('a killed build leaves a servable corpus; the rerun completes it; exit codes', async () => {
  const out = join(root, 'out-kill');
  cpSync(join(root, 'out-main'), out, { recursive: true });
  // Force a full rebuild (lost state), then kill it part way through.
  rmSync(join(out, '.hotel-imager-build.json'));
  const [node, args] = cli(['--assets', kit, '--out', out, '--jobs', '1']);
  // Kill it right after it stages its first file (items build in classname order). The kill points
  // with changed bytes, including the commit, are in commit.test.ts; this is the CLI end to end.
  const first = join(out, '.staging', 'furni-renders', 'kit_big_3x2.png');
  const child = spawn(node, args, { cwd: repo, stdio: 'ignore' });
  const exited = new Promise((r) => child.once('exit', r));
  for (let i = 0; i < 600 && !existsSync(first) && child.exitCode === null; i++)
    await new Promise((r) => setTimeout(r, 20));
  child.kill('SIGKILL');
  await exited;
  const c = readJson<CorpusIndex>(join(out, CORPUS_JSON));
  for (const [p, f] of Object.entries(c.files)) {
    const b = readFileSync(join(out, p));
    assert.equal(b.length, f.size, p);
    assert.equal(sha(b), f.sha256, p);
    if (p.endsWith('.png')) await decodeImage(b);
  }
  const done = spawnSync(node, args, { cwd: repo, encoding: 'utf8' });
  assert.equal(done.status, 0, done.stderr);
  assert.match(done.stdout, /4 failed/);
  const names = readdirSync(join(out, 'furni-renders'));
  assert.ok(!names.some((n) => n.endsWith('.tmp')));
  const strict = spawnSync(
    cli(['--assets', kit, '--out', out, '--strict'])[0],
    cli(['--assets', kit, '--out', out, '--strict'])[1],
    { cwd: repo, encoding: 'utf8' },
  );
  assert.equal(strict.status, 1);
  const bad = spawnSync(node, cli(['--assets', join(root, 'nowhere'), '--out', out])[1], {
    cwd: repo,
    encoding: 'utf8',
  });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /the assets folder .*nowhere does not exist/);
});
