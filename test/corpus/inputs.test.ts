// Build inputs beyond the default Nitro layout: --furnidata/--furni-dir overrides (through the CLI, with
// its plain progress lines), the Flash layout's hof_furni/<revision>/<classname>.swf lookup, items whose
// still is empty (skipped), and the plain progress reporter's pacing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { furniKitFiles } from '../../src/samplekit/furni/index.js';
import { FurniBuilder, vis64, visIcon } from '../../src/samplekit/furni/builder.js';
import { writeAssetLibrary } from '../../src/formats/asset-library.js';
import { readFurniSwf } from '../../src/formats/flash/furni-library.js';
import { furniModelFromLibrary } from '../../src/furni/model.js';
import { renderStill } from '../../src/furni/render.js';
import { encodePngCompact } from '../../src/imaging/png-compact.js';
import { createImage } from '../../src/imaging/image.js';
import { CORPUS_JSON } from '../../src/formats/corpus-json.js';
import { runBuild } from '../../src/corpus/run.js';
import { type CorpusIndex } from '../../src/corpus/corpus.js';
import { plainProgress } from '../../src/cli/build.js';
import { makeImage, writeSwf } from '../../src/formats/swf/writer.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const root = mkdtempSync(join(tmpdir(), 'hi-build-inputs-'));
const kit = join(root, 'kit');
const fixed = () => new Date('2026-01-01T00:00:00Z');
const readJson = <T>(p: string): T => JSON.parse(readFileSync(p, 'utf8')) as T;

before(async () => {
  for (const f of await furniKitFiles()) {
    mkdirSync(dirname(join(kit, f.path)), { recursive: true });
    writeFileSync(join(kit, f.path), f.data);
  }
});
after(() => rmSync(root, { recursive: true, force: true }));

test('CLI --furnidata FILE and --furni-dir DIR replace the layout paths; plain progress lines on a non-terminal', async () => {
  const expected = await runBuild({ assets: kit, out: join(root, 'out-default'), jobs: 1, now: fixed });
  // The same inputs, moved where the layout would never look.
  const elsewhere = join(root, 'elsewhere');
  mkdirSync(elsewhere);
  renameSync(join(kit, 'gamedata/FurnitureData.json'), join(elsewhere, 'my-furnidata.json'));
  renameSync(join(kit, 'bundled/furniture'), join(elsewhere, 'furni'));
  const empty = join(root, 'empty-assets');
  mkdirSync(empty);
  const out = join(root, 'out-overrides');
  const run = (args: string[]) =>
    spawnSync(
      process.execPath,
      ['--import', 'tsx', join(repo, 'src/cli/main.ts'), 'build', '--out', out, '--jobs', '1', ...args],
      { cwd: repo, encoding: 'utf8' },
    );
  try {
    const without = run(['--assets', empty]);
    assert.equal(without.status, 1);
    assert.match(without.stderr, /no furni assets found/);
    const noData = run(['--assets', empty, '--furni-dir', join(elsewhere, 'furni')]);
    assert.equal(noData.status, 1);
    assert.match(noData.stderr, /no furnidata found/);
    const r = run([
      '--assets',
      empty,
      '--furnidata',
      join(elsewhere, 'my-furnidata.json'),
      '--furni-dir',
      join(elsewhere, 'furni'),
    ]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^nitro layout: /);
    assert.deepEqual(readJson<CorpusIndex>(join(out, CORPUS_JSON)).files, expected.corpus.files);
    // Not a terminal: no progress bar, plain lines ending with the finished count.
    const total = expected.rebuilt;
    assert.match(r.stderr, new RegExp(`^build: 0/${total} items \\(0%\\), \\d+ items/s, 0 unchanged$`, 'm'));
    assert.match(r.stderr, new RegExp(`^build: ${total}/${total} items \\(100%\\), \\d+ items/s, 0 unchanged$`, 'm'));
    assert.ok(!r.stderr.includes('\r') && !r.stderr.includes('\x1b['), 'no terminal control characters');
  } finally {
    renameSync(join(elsewhere, 'my-furnidata.json'), join(kit, 'gamedata/FurnitureData.json'));
    renameSync(join(elsewhere, 'furni'), join(kit, 'bundled/furniture'));
  }
});

test('plain progress: the first report, then one line per interval, and always the last', () => {
  let t = 1000;
  const lines: string[] = [];
  const report = plainProgress(
    (l) => lines.push(l),
    5000,
    () => t,
  );
  report({ done: 0, total: 4, unchanged: 7 });
  t += 1000;
  report({ done: 1, total: 4, unchanged: 7 }); // 1 s after the last line: quiet
  t += 4000;
  report({ done: 2, total: 4, unchanged: 7 }); // 5 s: a line
  t += 100;
  report({ done: 3, total: 4, unchanged: 7 });
  t += 100;
  report({ done: 4, total: 4, unchanged: 7 }); // the end: always
  assert.deepEqual(lines, [
    'build: 0/4 items (0%), 0 items/s, 7 unchanged\n',
    'build: 2/4 items (50%), 0 items/s, 7 unchanged\n',
    'build: 4/4 items (100%), 1 items/s, 7 unchanged\n',
  ]);
});

/** A minimal furni SWF: one coloured body layer (G = 100 + mark, so each copy renders differently) and an icon. */
function furniSwf(cn: string, mark: number): Buffer {
  const body = makeImage(6, 8, () => [200, 100 + mark, 50, 255]);
  const icon = makeImage(3, 3, () => [250, 200, 0, 255]);
  return writeSwf({
    bitmaps: [
      { kind: 'lossless', id: 1, format: 5, alpha: true, image: body },
      { kind: 'lossless', id: 2, format: 5, alpha: true, image: icon },
    ],
    binaries: [
      { id: 10, data: `<object type="${cn}" visualization="furniture_static" logic="furniture_basic"/>` },
      {
        id: 11,
        data: `<assets><asset name="${cn}_64_a_2_0" x="3" y="10"/><asset name="${cn}_icon_a" x="1" y="1"/></assets>`,
      },
      {
        id: 12,
        data: `<objectData type="${cn}"><model><dimensions x="1" y="1" z="1"/><directions><direction id="90"/></directions></model></objectData>`,
      },
      {
        id: 13,
        data: `<visualizationData type="${cn}"><visualization size="64" layerCount="1" angle="45"><directions><direction id="2"/></directions></visualization><visualization size="1" layerCount="1" angle="360"/></visualizationData>`,
      },
      { id: 14, data: `<manifest><library name="${cn}"/></manifest>` },
    ],
    symbols: [
      { id: 1, name: `${cn}_${cn}_64_a_2_0` },
      { id: 2, name: `${cn}_${cn}_icon_a` },
      { id: 10, name: `${cn}_index` },
      { id: 11, name: `${cn}_${cn}_assets` },
      { id: 12, name: `${cn}_${cn}_logic` },
      { id: 13, name: `${cn}_${cn}_visualization` },
      { id: 14, name: `${cn}_manifest` },
      { id: 0, name: cn },
    ],
  });
}

test('Flash layout: hof_furni/<revision>/<cn>.swf of the furnidata revision wins, then the flat file, then any revision folder', async () => {
  const assets = join(root, 'flash');
  const files: Record<string, Buffer> = {
    'hof_furni/7/fl_lamp.swf': furniSwf('fl_lamp', 0),
    'hof_furni/9/fl_lamp.swf': furniSwf('fl_lamp', 50),
    'hof_furni/fl_lamp.swf': furniSwf('fl_lamp', 100),
    'hof_furni/fl_flat.swf': furniSwf('fl_flat', 20),
    'hof_furni/9/fl_flat.swf': furniSwf('fl_flat', 60),
    'hof_furni/9/fl_other.swf': furniSwf('fl_other', 30),
  };
  for (const [p, b] of Object.entries(files)) {
    mkdirSync(dirname(join(assets, p)), { recursive: true });
    writeFileSync(join(assets, p), b);
  }
  const row = (id: number, cn: string, rev: number) =>
    `["s","${id}","${cn}","${rev}","2","1","1","","${cn}","","","-1","-1"]`;
  mkdirSync(join(assets, 'gamedata'));
  writeFileSync(
    join(assets, 'gamedata/furnidata.txt'),
    `[${row(1, 'fl_lamp', 7)},${row(2, 'fl_flat', 8)},${row(3, 'fl_other', 5)}]`,
  );
  const out = join(root, 'out-flash');
  const s = await runBuild({ assets, out, jobs: 1, now: fixed });
  assert.equal(s.layout, 'flash');
  assert.equal(s.report.counts.ok, 3);
  assert.deepEqual(
    Object.keys(s.corpus.files).filter((p) => p.endsWith('.bundle')),
    ['hof_furni/5/fl_other.bundle', 'hof_furni/7/fl_lamp.bundle', 'hof_furni/8/fl_flat.bundle'],
  );
  const still = async (p: string, cn: string) =>
    encodePngCompact(renderStill(furniModelFromLibrary(await readFurniSwf(files[p]!, `${cn}.swf`)), 0)!);
  const published = (cn: string) => readFileSync(join(out, 'furni-renders', `${cn}.png`));
  assert.deepEqual(published('fl_lamp'), await still('hof_furni/7/fl_lamp.swf', 'fl_lamp'));
  assert.notDeepEqual(published('fl_lamp'), await still('hof_furni/fl_lamp.swf', 'fl_lamp'));
  assert.notDeepEqual(published('fl_lamp'), await still('hof_furni/9/fl_lamp.swf', 'fl_lamp'));
  // No 8/ folder: the flat file, not the other revision's.
  assert.deepEqual(published('fl_flat'), await still('hof_furni/fl_flat.swf', 'fl_flat'));
  assert.notDeepEqual(published('fl_flat'), await still('hof_furni/9/fl_flat.swf', 'fl_flat'));
  // Neither 5/ nor a flat file: the one revision folder that has it.
  assert.deepEqual(published('fl_other'), await still('hof_furni/9/fl_other.swf', 'fl_other'));
});

test('an item whose still is empty is skipped with the reason; its icon and bundle are still published', async () => {
  const assets = join(root, 'kit-empty');
  for (const f of await furniKitFiles()) {
    mkdirSync(dirname(join(assets, f.path)), { recursive: true });
    writeFileSync(join(assets, f.path), f.data);
  }
  const icon = createImage(3, 3);
  icon.data.fill(255);
  // A size-64 layer whose only sprite is fully transparent.
  const blank = new FurniBuilder('kit_blank');
  blank.sprite('64_a_2_0', { x: 0, y: 0, image: createImage(4, 4) }).sprite('icon_a', { x: 0, y: 0, image: icon });
  const blankLib = blank.library({
    logicType: 'furniture_basic',
    visualizationType: 'furniture_static',
    dimensions: { x: 1, y: 1, z: 1 },
    directions: [2],
    visualizations: [vis64({ layerCount: 1, directions: { '2': {} } }), visIcon(1)],
  });
  // No size-64 visualization at all.
  const noRoom = new FurniBuilder('kit_iconly');
  noRoom.sprite('icon_a', { x: 0, y: 0, image: icon });
  const noRoomLib = noRoom.library({
    logicType: 'furniture_basic',
    visualizationType: 'furniture_static',
    dimensions: { x: 1, y: 1, z: 1 },
    directions: [2],
    visualizations: [visIcon(1)],
  });
  writeFileSync(join(assets, 'bundled/furniture/kit_blank.nitro'), await writeAssetLibrary(blankLib));
  writeFileSync(join(assets, 'bundled/furniture/kit_iconly.nitro'), await writeAssetLibrary(noRoomLib));
  const fdPath = join(assets, 'gamedata/FurnitureData.json');
  const fd = readJson<{ roomitemtypes: { furnitype: { id: number; classname: string; revision: number }[] } }>(fdPath);
  const template = fd.roomitemtypes.furnitype.find((r) => r.classname === 'kit_crate')!;
  fd.roomitemtypes.furnitype.push(
    { ...template, id: 90001, classname: 'kit_blank', revision: 4 },
    { ...template, id: 90002, classname: 'kit_iconly', revision: 4 },
  );
  writeFileSync(fdPath, JSON.stringify(fd));
  const s = await runBuild({ assets, out: join(root, 'out-empty'), jobs: 1, now: fixed });
  assert.deepEqual(s.report.items['kit_blank'], {
    status: 'skipped',
    reason: 'empty render: nothing visible at size 64',
    state: 0,
    direction: 2,
  });
  assert.deepEqual(s.report.items['kit_iconly'], {
    status: 'skipped',
    reason: 'empty render: no size-64 visualization',
  });
  for (const cn of ['kit_blank', 'kit_iconly']) {
    assert.ok(!(`furni-renders/${cn}.png` in s.corpus.files), cn);
    assert.ok(`catalog-thumbs/${cn}.png` in s.corpus.files, cn);
    assert.ok(`hof_furni/4/${cn}.bundle` in s.corpus.files, cn);
  }
});
