// Nothing published is lost because an input got worse: a furnidata that does not parse, a truncated
// one and an empty one (in each form a hotel ships: FurnitureData.json, furnidata.xml, furnidata.txt)
// each stop the build with exit 1 and leave every file of the previous corpus byte-identical. Items
// removed on purpose (row and asset gone) still leave; a row gone while its asset is still there, or an
// asset folder copied in part, needs --allow-shrink (or its variable).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, mkdirSync, writeFileSync, readFileSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { furniKitFiles } from '../../src/samplekit/furni/index.js';
import { furnidataXml } from '../../src/samplekit/flash/gamedata.js';
import { runBuild } from '../../src/corpus/run.js';
import { type FurnitureData, type FurnitureDataRow } from '../../src/formats/furnidata.js';
import { sha256Hex } from '../../src/util/hash.js';
import { CORPUS_JSON } from '../../src/formats/corpus-json.js';
import { createProgram, reportError } from '../../src/cli/program.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const root = mkdtempSync(join(tmpdir(), 'hi-build-shrink-'));
const kit = join(root, 'kit');
const out = join(root, 'out');
const fixed = () => new Date('2026-01-01T00:00:00Z');
let furnidata: FurnitureData;

before(async () => {
  for (const f of await furniKitFiles()) {
    mkdirSync(dirname(join(kit, f.path)), { recursive: true });
    writeFileSync(join(kit, f.path), f.data);
  }
  furnidata = JSON.parse(readFileSync(join(kit, 'gamedata/FurnitureData.json'), 'utf8')) as FurnitureData;
  await runBuild({ assets: kit, out, jobs: 2, now: fixed });
});
after(() => rmSync(root, { recursive: true, force: true }));

/** Every file under `dir` (hidden ones too) → its SHA-256. */
function hashes(dir: string): Record<string, string> {
  const outMap: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else outMap[p.slice(dir.length + 1)] = sha256Hex(readFileSync(p));
    }
  };
  walk(dir);
  return outMap;
}

/** `hotel-imager build …` run in this process (as main.ts runs it): its exit code and error output (the summary goes to stdout). */
async function build(args: string[], env: Record<string, string> = {}): Promise<{ status: number; stderr: string }> {
  let stderr = '';
  const saved = new Map(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  process.exitCode = undefined;
  let status: number;
  try {
    await createProgram({ writeErr: (t) => (stderr += t) }).parseAsync([
      'node',
      'hotel-imager',
      'build',
      '--jobs',
      '1',
      ...args,
    ]);
    status = Number(process.exitCode ?? 0);
  } catch (e) {
    status = reportError(e, (t) => (stderr += t));
  } finally {
    process.exitCode = undefined;
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  return { status, stderr };
}

/** The same as a process of its own, for the exit code the shell sees. */
const buildProcess = (args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(repo, 'src/cli/main.ts'), 'build', '--jobs', '1', ...args], {
    cwd: repo,
    encoding: 'utf8',
  });

const counts = (dir: string) =>
  (JSON.parse(readFileSync(join(dir, CORPUS_JSON), 'utf8')) as { counts: { renders: number } }).counts;
const rowsOf = (d: FurnitureData) => [...d.roomitemtypes.furnitype, ...d.wallitemtypes.furnitype];
/** The first `share` of the rows, room items first (what a furnidata export that stopped part way holds). */
function firstRows(d: FurnitureData, share: number): FurnitureData {
  const keep = Math.floor(rowsOf(d).length * share);
  const room = d.roomitemtypes.furnitype.slice(0, keep);
  const wall = d.wallitemtypes.furnitype.slice(0, Math.max(0, keep - room.length));
  return { roomitemtypes: { furnitype: room }, wallitemtypes: { furnitype: wall } };
}
const txtRow = (r: FurnitureDataRow, kind: 's' | 'i') =>
  JSON.stringify([
    kind,
    String(r.id),
    r.classname,
    String(r.revision),
    String(r.defaultdir ?? 0),
    String(r.xdim ?? 1),
    String(r.ydim ?? 1),
    '',
    r.name ?? '',
    r.description ?? '',
    '',
    '-1',
  ]);
/** The legacy furnidata.txt of the same rows. */
const furnidataTxt = (d: FurnitureData) =>
  '[' +
  [
    ...d.roomitemtypes.furnitype.map((r) => txtRow(r, 's')),
    ...d.wallitemtypes.furnitype.map((r) => txtRow(r, 'i')),
  ].join(',\n') +
  ']\n';
const cut = (text: string, share: number) => text.slice(0, Math.floor(text.length * share));
const EMPTY: FurnitureData = { roomitemtypes: { furnitype: [] }, wallitemtypes: { furnitype: [] } };
const GARBAGE = '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>\n';

test('the furnidata forms the cases below are made from build the published corpus unchanged (txt, xml, json)', async () => {
  const before = JSON.parse(readFileSync(join(out, CORPUS_JSON), 'utf8')) as {
    files: Record<string, unknown>;
    counts: { renders: number };
  };
  assert.equal(before.counts.renders, 44);
  for (const [name, text] of [
    ['full.txt', furnidataTxt(furnidata)],
    ['full.xml', furnidataXml(furnidata)],
    ['full.json', JSON.stringify(furnidata)],
  ] as const) {
    const file = join(root, name);
    writeFileSync(file, text);
    const copy = join(root, `out-${name}`);
    cpSync(out, copy, { recursive: true });
    const r = await build(['--assets', kit, '--out', copy, '--furnidata', file]);
    assert.equal(r.status, 0, `${name}: ${r.stderr}`);
    assert.equal(counts(copy).renders, 44, name);
    assert.deepEqual(
      Object.keys((JSON.parse(readFileSync(join(copy, CORPUS_JSON), 'utf8')) as { files: object }).files),
      Object.keys(before.files),
      name,
    );
  }
});

test('a garbage, truncated (30 %) or empty furnidata stops the build: exit 1, the corpus byte-identical', async () => {
  const stopped =
    /^build stopped, nothing in .+ was changed: it would unpublish (\d+) of the 44 published furni stills \([\d.]+ %, more than the 10 % a run may remove\)/m;
  const cases: [string, string, RegExp][] = [
    [
      'garbage.txt',
      GARBAGE,
      /^furnidata .*garbage\.txt: no furnidata row in it \(expected rows such as \["s","1","classname","1",…\]\)$/m,
    ],
    [
      'broken-rows.txt',
      '[["s","1","kit_table_sd","1\n["s","2","kit_chair',
      /^furnidata .*broken-rows\.txt: no row could be read \(2 unreadable, the first at line 1: unterminated string\)$/m,
    ],
    [
      'empty.txt',
      '',
      /^furnidata .*empty\.txt: no furnidata row in it \(expected rows such as \["s","1","classname","1",…\]\)$/m,
    ],
    ['truncated.txt', cut(furnidataTxt(furnidata), 0.3), stopped],
    ['garbage.xml', GARBAGE, /^furnidata .*garbage\.xml: root element is <html>, expected <furnidata>$/m],
    ['truncated.xml', cut(furnidataXml(furnidata), 0.3), /^furnidata .*truncated\.xml: /m],
    ['empty.xml', furnidataXml(EMPTY), stopped],
    ['garbage.json', GARBAGE, /^furnidata .*garbage\.json: not valid JSON: /m],
    ['truncated.json', JSON.stringify(firstRows(furnidata, 0.3)), stopped],
    ['empty.json', JSON.stringify(EMPTY), stopped],
  ];
  const before = hashes(out);
  assert.ok(Object.keys(before).length > 100, 'the corpus has its files');
  for (const [name, text, expected] of cases) {
    const file = join(root, name);
    writeFileSync(file, text);
    const r = await build(['--assets', kit, '--out', out, '--furnidata', file]);
    assert.equal(r.status, 1, `${name}: ${r.stderr}`);
    assert.match(r.stderr, expected, name);
    assert.deepEqual(hashes(out), before, `${name}: every file of the corpus unchanged`);
  }
  // The guard's message says what to do; the process exits 1.
  const r = buildProcess(['--assets', kit, '--out', out, '--furnidata', join(root, 'empty.json')]);
  assert.equal(r.status, 1);
  assert.deepEqual(hashes(out), before);
  assert.match(
    r.stderr,
    /it would unpublish 44 of the 44 published furni stills \(100 %, more than the 10 % a run may remove\); 44 of them still have their asset file, only their furnidata row is gone: /,
  );
  assert.match(r.stderr, /build with --allow-shrink \(HOTEL_IMAGER_BUILD_ALLOW_SHRINK=1\)\.$/m);
  // Truncated to 30 %: the stills of the rows that were cut.
  const truncated = await build(['--assets', kit, '--out', out, '--furnidata', join(root, 'truncated.json')]);
  assert.equal(Number(stopped.exec(truncated.stderr)?.[1]) > 25, true, truncated.stderr);
});

test('items removed on purpose still leave; a row gone with its asset still there, or missing assets, need --allow-shrink', async () => {
  const hotel = join(root, 'kit-edit');
  const corpus = join(root, 'out-edit');
  cpSync(kit, hotel, { recursive: true });
  cpSync(out, corpus, { recursive: true });
  const data = structuredClone(furnidata);
  const save = () => writeFileSync(join(hotel, 'gamedata/FurnitureData.json'), JSON.stringify(data));
  const drop = (cn: string) => {
    data.roomitemtypes.furnitype = data.roomitemtypes.furnitype.filter((r) => r.classname !== cn);
    data.wallitemtypes.furnitype = data.wallitemtypes.furnitype.filter((r) => r.classname !== cn);
  };
  const still = (cn: string) => existsSync(join(corpus, 'furni-renders', `${cn}.png`));

  // On purpose: the row and the asset file are gone.
  assert.ok(still('kit_table_sd'));
  drop('kit_table_sd');
  rmSync(join(hotel, 'bundled/furniture/kit_table_sd.nitro'));
  save();
  const purposeful = await build(['--assets', hotel, '--out', corpus]);
  assert.equal(purposeful.status, 0, purposeful.stderr);
  assert.ok(!still('kit_table_sd'));
  assert.ok(!existsSync(join(corpus, 'catalog-thumbs', 'kit_table_sd.png')));
  assert.equal(counts(corpus).renders, 43);

  // A colour row gone while the item's asset is still there: stopped, named, nothing changed.
  drop('kit_sofa_colors*3');
  save();
  const before = hashes(corpus);
  const rowOnly = await build(['--assets', hotel, '--out', corpus]);
  assert.equal(rowOnly.status, 1);
  assert.match(
    rowOnly.stderr,
    /it would unpublish 1 of the 43 published furni stills \(2\.3 %\); 1 of them still have their asset file, only their furnidata row is gone: kit_sofa_colors\*3\./,
  );
  assert.deepEqual(hashes(corpus), before);
  const allowed = await build(['--assets', hotel, '--out', corpus, '--allow-shrink']);
  assert.equal(allowed.status, 0, allowed.stderr);
  assert.ok(!still('kit_sofa_colors*3') && still('kit_sofa_colors*5'));

  // An asset folder copied in part (rows still there): more than 10 % of the stills would go.
  const nitros = readdirSync(join(hotel, 'bundled/furniture'))
    .filter((n) => n.endsWith('.nitro'))
    .sort();
  const gone = nitros.slice(0, Math.ceil(nitros.length / 2));
  const kept = join(root, 'kept-assets');
  mkdirSync(kept);
  for (const n of gone) cpSync(join(hotel, 'bundled/furniture', n), join(kept, n));
  for (const n of gone) rmSync(join(hotel, 'bundled/furniture', n));
  const before2 = hashes(corpus);
  const partial = await build(['--assets', hotel, '--out', corpus]);
  assert.equal(partial.status, 1);
  assert.match(partial.stderr, /more than the 10 % a run may remove\); for example /);
  assert.deepEqual(hashes(corpus), before2);
  // The variable lets it through as the flag does.
  const viaEnv = await build(['--assets', hotel, '--out', corpus], { HOTEL_IMAGER_BUILD_ALLOW_SHRINK: '1' });
  assert.equal(viaEnv.status, 0, viaEnv.stderr);
  assert.ok(Object.keys(hashes(corpus)).length < Object.keys(before2).length);
});

test('items that fail for a reason not theirs (a file in the way in .staging): exit 1, their files kept; with no state to keep them, stopped before the commit', async () => {
  const hotel = join(root, 'kit-io');
  const corpus = join(root, 'out-io');
  cpSync(kit, hotel, { recursive: true });
  cpSync(out, corpus, { recursive: true });
  const served = () => Object.fromEntries(Object.entries(hashes(corpus)).filter(([p]) => !p.startsWith('.staging/')));
  // One item's input changes (a colour row more), so it is rebuilt; its staged files cannot be written.
  const data = structuredClone(furnidata);
  data.roomitemtypes.furnitype.push({
    ...data.roomitemtypes.furnitype.find((r) => r.classname === 'kit_sofa_colors*3')!,
    id: 9999,
    classname: 'kit_sofa_colors*9',
  });
  writeFileSync(join(hotel, 'gamedata/FurnitureData.json'), JSON.stringify(data));
  mkdirSync(join(corpus, '.staging'), { recursive: true });
  writeFileSync(join(corpus, '.staging', 'furni-renders'), '');
  const sofa = readFileSync(join(corpus, 'furni-renders', 'kit_sofa_colors*3.png'));

  const partly = await build(['--assets', hotel, '--out', corpus]);
  assert.equal(partly.status, 1, partly.stderr);
  assert.match(
    partly.stderr,
    /^exit 1: 7 classnames could not be built for a reason that is not the hotel's \(listed above\); they keep what they published before, and the next build retries them$/m,
  );
  assert.deepEqual(readFileSync(join(corpus, 'furni-renders', 'kit_sofa_colors*3.png')), sofa);
  assert.equal(counts(corpus).renders, 44);

  // Without the build state nothing says which files were the failed items': rather than publish a
  // corpus without them, the build stops before its commit.
  rmSync(join(corpus, '.hotel-imager-build.json'));
  // (The commit above removed .staging, the file in the way with it.)
  mkdirSync(join(corpus, '.staging'), { recursive: true });
  writeFileSync(join(corpus, '.staging', 'furni-renders'), '');
  const before = served();
  const stopped = await build(['--assets', hotel, '--out', corpus]);
  assert.equal(stopped.status, 1);
  assert.match(
    stopped.stderr,
    /^build stopped before its commit, nothing in .+ was changed: it would unpublish 44 of the 44 published furni stills \(100 %, more than the 10 % a run may remove\); for example [^;]+\. \d+ failed, for example kit_bag_speck: build error: cannot create the folder .+\.staging\/furni-renders: a file is in the way \(not a folder\) \(EEXIST\)\. Remove it, or use another folder\. Fix that and build again/m,
  );
  assert.deepEqual(served(), before);

  // The cause gone, the next build completes (and publishes the new colour row).
  rmSync(join(corpus, '.staging', 'furni-renders'));
  const done = await build(['--assets', hotel, '--out', corpus]);
  assert.equal(done.status, 0, done.stderr);
  assert.equal(counts(corpus).renders, 45);
});
