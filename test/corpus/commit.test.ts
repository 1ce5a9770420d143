// Atomic publishing: a rebuild with really changed bytes, killed at many points (while items build,
// during the commit's renames, between the state and corpus.json), always leaves a corpus.json whose
// every file is on disk with the listed size and sha256; a rerun ends with the new corpus. And an item
// whose bundle cannot be written fails as a whole, publishing none of its new files.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, existsSync, rmSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { sha256Hex } from '../../src/util/hash.js';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { furniKitFiles } from '../../src/samplekit/furni/index.js';
import { FurniBuilder, vis64, visIcon } from '../../src/samplekit/furni/builder.js';
import { readAssetLibrary, writeAssetLibrary, type AssetLibrary } from '../../src/formats/asset-library.js';
import { CORPUS_JSON } from '../../src/formats/corpus-json.js';
import { runBuild, REPORT_FILE } from '../../src/corpus/run.js';
import { buildItem, type ItemTask } from '../../src/corpus/item.js';
import { STAGING_DIR } from '../../src/corpus/commit.js';
import { CorpusStore } from '../../src/core/furni/corpus-store.js';
import { DiskCorpusSource } from '../../src/storage/disk-corpus-source.js';
import { type CorpusIndex, type BuildReport } from '../../src/corpus/corpus.js';
import { createImage, type RgbaImage } from '../../src/imaging/image.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const root = mkdtempSync(join(tmpdir(), 'hi-commit-test-'));
const kit = join(root, 'kit');
const changed = join(root, 'kit-changed');
const pristine = join(root, 'out-pristine');
const reference = join(root, 'out-reference');
const fixed = () => new Date('2026-01-01T00:00:00Z');
const readJson = <T>(p: string): T => JSON.parse(readFileSync(p, 'utf8')) as T;
const sha = sha256Hex;
const nitro = (assets: string, cn: string) => join(assets, 'bundled/furniture', `${cn}.nitro`);

/** Items whose pixels change (same paths, new bytes) and the one whose revision changes (bundle moves). */
const RECOLOURED = ['kit_big_3x2', 'kit_chair_4dir', 'kit_lamp_add', 'kit_sofa_colors', 'kit_table_sd'];
const REVISED = 'kit_crate';

function invert(img: RgbaImage): RgbaImage {
  const out = createImage(img.width, img.height);
  for (let i = 0; i < img.data.length; i += 4) {
    out.data[i] = 255 - img.data[i]!;
    out.data[i + 1] = 255 - img.data[i + 1]!;
    out.data[i + 2] = img.data[i + 2]!;
    out.data[i + 3] = img.data[i + 3]!;
  }
  return out;
}

async function rewrite(assets: string, cn: string, edit: (lib: AssetLibrary) => AssetLibrary): Promise<void> {
  const lib = await readAssetLibrary(readFileSync(nitro(assets, cn)), cn);
  writeFileSync(nitro(assets, cn), await writeAssetLibrary(edit(lib)));
}

/** Every file corpus.json lists is on disk with exactly the listed size and sha256. */
function assertConsistent(out: string, label: string): CorpusIndex {
  const c = readJson<CorpusIndex>(join(out, CORPUS_JSON));
  for (const [p, f] of Object.entries(c.files)) {
    assert.ok(existsSync(join(out, p)), `${label}: ${p} listed but missing`);
    const b = readFileSync(join(out, p));
    assert.equal(b.length, f.size, `${label}: ${p} size`);
    assert.equal(sha(b), f.sha256, `${label}: ${p} sha256`);
  }
  return c;
}

before(async () => {
  for (const f of await furniKitFiles({ extraFurni: 2 })) {
    mkdirSync(dirname(join(kit, f.path)), { recursive: true });
    writeFileSync(join(kit, f.path), f.data);
  }
  await runBuild({ assets: kit, out: pristine, jobs: 1, now: fixed });
  cpSync(kit, changed, { recursive: true });
  for (const cn of RECOLOURED)
    await rewrite(changed, cn, (lib) => ({
      ...lib,
      sprites: new Map([...lib.sprites].map(([k, v]) => [k, invert(v)])),
    }));
  const fdPath = join(changed, 'gamedata/FurnitureData.json');
  const fd = readJson<{ roomitemtypes: { furnitype: { classname: string; revision: number }[] } }>(fdPath);
  for (const r of fd.roomitemtypes.furnitype) if (r.classname === REVISED) r.revision += 1000;
  writeFileSync(fdPath, JSON.stringify(fd));
  await runBuild({ assets: changed, out: reference, jobs: 1, now: fixed });
});
after(() => rmSync(root, { recursive: true, force: true }));

test('the changed inputs really change bytes at the same paths (else the kill test proves nothing)', () => {
  const a = readJson<CorpusIndex>(join(pristine, CORPUS_JSON)).files;
  const b = readJson<CorpusIndex>(join(reference, CORPUS_JSON)).files;
  for (const cn of RECOLOURED) {
    for (const p of [`furni-renders/${cn}.png`, `catalog-thumbs/${cn}.png`])
      assert.notEqual(a[p]!.sha256, b[p]!.sha256, p);
  }
  const oldBundle = Object.keys(a).find((p) => p.endsWith(`/${REVISED}.bundle`))!;
  assert.ok(!(oldBundle in b));
  assert.ok(Object.keys(b).some((p) => p.endsWith(`/${REVISED}.bundle`)));
  assert.equal(a[`furni-renders/${REVISED}.png`]!.sha256, b[`furni-renders/${REVISED}.png`]!.sha256);
});

const killPoints: { label: string; args: Record<string, unknown> }[] = [
  { label: 'after the first item', args: { jobs: 1, killAfterItem: 1 } },
  { label: 'after four items', args: { jobs: 1, killAfterItem: 4 } },
  { label: 'after three items, worker threads', args: { jobs: 2, killAfterItem: 3 } },
  { label: 'after the last item, before the commit', args: { jobs: 1, killAfterItem: RECOLOURED.length + 1 } },
  { label: 'after the first rename of the commit', args: { jobs: 1, killAfterRename: 1 } },
  { label: 'after five renames', args: { jobs: 1, killAfterRename: 5 } },
  {
    label: 'after the staged state, before corpus.json',
    args: { jobs: 1, killAfterRenameOf: '.hotel-imager-build.json' },
  },
  { label: 'after corpus.json, before the cleanup', args: { jobs: 1, killAfterRenameOf: CORPUS_JSON } },
];

for (const k of killPoints) {
  test(`a rebuild killed ${k.label}: corpus.json stays consistent; a rerun completes the new corpus`, async () => {
    const out = join(root, `out-kill-${killPoints.indexOf(k)}`);
    cpSync(pristine, out, { recursive: true });
    const before = readFileSync(join(out, CORPUS_JSON));
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        join(repo, 'test/corpus/build-child.ts'),
        JSON.stringify({ assets: changed, out, ...k.args }),
      ],
      { cwd: repo, encoding: 'utf8' },
    );
    assert.equal(
      child.signal,
      'SIGKILL',
      `the child must die at the kill point (status ${child.status}): ${child.stderr}`,
    );
    const c = assertConsistent(out, k.label);
    if ('killAfterItem' in k.args) {
      // Nothing is published before the commit: the live corpus is exactly the previous one.
      assert.deepEqual(readFileSync(join(out, CORPUS_JSON)), before);
      for (const cn of RECOLOURED)
        assert.equal(
          sha(readFileSync(join(out, 'furni-renders', `${cn}.png`))),
          readJson<CorpusIndex>(join(pristine, CORPUS_JSON)).files[`furni-renders/${cn}.png`]!.sha256,
        );
    } else {
      // During the commit a path is listed with its old bytes, its new bytes, or (while it changes) not at all.
      const oldFiles = readJson<CorpusIndex>(join(pristine, CORPUS_JSON)).files;
      const newFiles = readJson<CorpusIndex>(join(reference, CORPUS_JSON)).files;
      for (const [p, f] of Object.entries(c.files))
        assert.ok(oldFiles[p]?.sha256 === f.sha256 || newFiles[p]?.sha256 === f.sha256, p);
    }
    const s = await runBuild({ assets: changed, out, jobs: 1, now: fixed, commitGraceMs: 0 });
    const final = assertConsistent(out, `${k.label}, rerun`);
    assert.deepEqual(final.files, readJson<CorpusIndex>(join(reference, CORPUS_JSON)).files);
    assert.deepEqual(s.report.counts.failed, readJson<BuildReport>(join(reference, REPORT_FILE)).counts.failed);
    assert.ok(!existsSync(join(out, STAGING_DIR)), 'staging folder removed');
    assert.ok(
      !existsSync(
        join(
          out,
          'hof_furni',
          String(
            Object.keys(readJson<CorpusIndex>(join(pristine, CORPUS_JSON)).files)
              .find((p) => p.endsWith(`/${REVISED}.bundle`))!
              .split('/')[1],
          ),
          `${REVISED}.bundle`,
        ),
      ),
      'the old revision of a moved bundle is removed',
    );
  });
}

test('items built before a kill are reused from staging by the rerun (verified by hash)', async () => {
  const out = join(root, 'out-reuse');
  cpSync(pristine, out, { recursive: true });
  const child = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      join(repo, 'test/corpus/build-child.ts'),
      JSON.stringify({ assets: changed, out, jobs: 1, killAfterItem: 5 }),
    ],
    { cwd: repo, encoding: 'utf8' },
  );
  assert.equal(child.signal, 'SIGKILL');
  assert.ok(existsSync(join(out, STAGING_DIR, 'pending.json')));
  // Tamper with one staged file: that item must be built again rather than published as recorded.
  const tampered = join(out, STAGING_DIR, 'furni-renders', `${RECOLOURED[0]}.png`);
  writeFileSync(tampered, Buffer.concat([readFileSync(tampered), Buffer.from([0])]));
  let total = -1;
  await runBuild({ assets: changed, out, jobs: 1, now: fixed, commitGraceMs: 0, onProgress: (p) => (total = p.total) });
  assert.ok(
    total >= 1 && total < RECOLOURED.length + 1,
    `rerun built ${total} items, expected fewer than ${RECOLOURED.length + 1}`,
  );
  assert.deepEqual(assertConsistent(out, 'reuse').files, readJson<CorpusIndex>(join(reference, CORPUS_JSON)).files);
});

test('a running server never holds a table that disagrees with the disk: changed paths are withdrawn, then replaced after a grace period', async () => {
  const quiet = { info() {}, warn() {}, error() {} };
  // What the furni server holds for each changed path right after the commit, checked against the disk.
  // `watch`: the store polls the corpus (every 100 ms) while the build runs, as a running server does.
  const mismatches = async (graceMs: number, watch: boolean): Promise<string[]> => {
    const out = join(root, `out-server-${graceMs}-${watch ? 'watched' : 'unwatched'}`);
    cpSync(pristine, out, { recursive: true });
    const store = new CorpusStore({
      source: new DiskCorpusSource(out),
      memoryBudget: 0,
      checkIntervalMs: 100,
      log: quiet,
    });
    await store.open();
    if (watch) store.startWatching();
    try {
      await runBuild({ assets: changed, out, jobs: 1, now: fixed, commitGraceMs: graceMs });
      // Synchronously after the commit: the store has not polled since.
      const bad: string[] = [];
      for (const cn of RECOLOURED) {
        for (const p of [`furni-renders/${cn}.png`, `catalog-thumbs/${cn}.png`]) {
          const f = store.lookup(p);
          if (f && sha(readFileSync(join(out, p))) !== f.sha256) bad.push(p);
        }
      }
      return bad;
    } finally {
      store.stop();
    }
  };
  // The negative control, deterministic: a store that has not looked at the corpus since the build
  // started still lists the old hash of every changed file, and the check names each of them. (A store
  // that polls without a grace period may or may not have looked in time: a race, not a control.)
  const everyChanged = RECOLOURED.flatMap((cn) => [`furni-renders/${cn}.png`, `catalog-thumbs/${cn}.png`]);
  assert.deepEqual(await mismatches(400, false), everyChanged, 'the check finds a stale table');
  // With the grace period (longer than the store's poll), the store has dropped the changed paths before they change.
  assert.deepEqual(await mismatches(400, true), []);
});

/** A sprite wider than the WebP format allows: it renders, but its bundle's atlas cannot be encoded. */
function tooWide(): RgbaImage {
  const img = createImage(17000, 1);
  img.data.fill(200);
  return img;
}

test('bundle failure: the whole item fails with the reason, publishes nothing new, and keeps its previous files', async () => {
  const assets = join(root, 'kit-bundlefail');
  cpSync(kit, assets, { recursive: true });
  const out = join(root, 'out-bundlefail');
  cpSync(pristine, out, { recursive: true });
  await rewrite(assets, 'kit_crate', (lib) => ({
    ...lib,
    sprites: new Map([...lib.sprites].map(([k, v]) => [k, k.includes('_64_') ? tooWide() : v])),
  }));
  const before = readJson<CorpusIndex>(join(pristine, CORPUS_JSON)).files;
  const s = await runBuild({ assets, out, jobs: 1, now: fixed });
  const r = s.report.items['kit_crate']!;
  assert.equal(r.status, 'failed');
  assert.match(r.reason!, /^bundle failed: .*too large for the WebP format/);
  const mine = (files: CorpusIndex['files']) =>
    Object.fromEntries(Object.entries(files).filter(([p]) => /\/kit_crate\.(png|bundle)$/.test(p)));
  assert.equal(Object.keys(mine(before)).length, 3);
  assert.deepEqual(mine(s.corpus.files), mine(before));
  assertConsistent(out, 'bundle failure');
  // Not retried while the input is unchanged, still reported.
  const again = await runBuild({ assets, out, jobs: 1, now: fixed });
  assert.equal(again.rebuilt, 0);
  assert.equal(again.report.items['kit_crate']!.status, 'failed');
  assert.deepEqual(mine(again.corpus.files), mine(before));
});

test('bundle failure on an item whose still was skipped is still a failure (not dropped)', async () => {
  const b = new FurniBuilder('kit_iconwide');
  b.sprite('icon_a', { x: 0, y: 0, image: tooWide() });
  // No size-64 visualization: the still is skipped; the size-1 layer's sprite breaks the atlas.
  const lib = b.library({
    logicType: 'furniture_basic',
    visualizationType: 'furniture_static',
    dimensions: { x: 1, y: 1, z: 1 },
    directions: [2],
    visualizations: [visIcon(1)],
  });
  const bytes = await writeAssetLibrary(lib);
  const task: ItemTask = {
    base: 'kit_iconwide',
    revision: 1,
    variants: [3],
    baseRow: true,
    assetFile: 'kit_iconwide.nitro',
    layout: 'nitro',
  };
  const r = await buildItem(task, bytes, readAssetLibrary);
  assert.deepEqual(r.outputs, []);
  assert.deepEqual(
    r.results.map((x) => [x.classname, x.status]),
    [
      ['kit_iconwide', 'failed'],
      ['kit_iconwide*3', 'failed'],
    ],
  );
  for (const x of r.results) assert.match(x.reason!, /^bundle failed: /);
  // And a failing writer on an item that renders: no render, icon or bundle comes out.
  const ok = new FurniBuilder('kit_fine');
  const px = createImage(4, 4);
  px.data.fill(255);
  ok.sprite('64_a_2_0', { x: 0, y: 0, image: px }).sprite('icon_a', { x: 0, y: 0, image: px });
  const okBytes = await writeAssetLibrary(
    ok.library({
      logicType: 'furniture_basic',
      visualizationType: 'furniture_static',
      dimensions: { x: 1, y: 1, z: 1 },
      directions: [2],
      visualizations: [vis64({ layerCount: 1, directions: { '2': {} } }), visIcon(1)],
    }),
  );
  const fine = await buildItem({ ...task, base: 'kit_fine', variants: [] }, okBytes, readAssetLibrary);
  assert.deepEqual(fine.outputs.map((o) => o.path).sort(), [
    'catalog-thumbs/kit_fine.png',
    'furni-renders/kit_fine.png',
    'hof_furni/1/kit_fine.bundle',
  ]);
  const failing = await buildItem({ ...task, base: 'kit_fine', variants: [] }, okBytes, readAssetLibrary, () =>
    Promise.reject(new Error('disk full')),
  );
  assert.deepEqual(failing.outputs, []);
  assert.deepEqual(failing.results, [{ classname: 'kit_fine', status: 'failed', reason: 'bundle failed: disk full' }]);
});
