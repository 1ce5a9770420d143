import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import {
  buildSampleKit,
  ensureKitFrom,
  generatorVersion,
  readKitStamp,
  writeKitFrom,
  KIT_STAMP,
} from '../../src/samplekit/index.js';
import { furniKitStream } from '../../src/samplekit/furni/index.js';
import { registerSampleKitCommand } from '../../src/cli/sample-kit.js';
import { readAssetLibrary } from '../../src/formats/asset-library.js';
import { decodeImage } from '../../src/imaging/codec.js';

async function listFiles(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listFiles(p, base)));
    else out.push(p.slice(base.length + 1));
  }
  return out.sort();
}

// The whole kit (figure half included) is built twice here: once by the CLI onto disk, once in
// memory. That checks determinism, the stamp's content hash and the contact sheet in one go.
test('sample-kit command: full Nitro layout, deterministic, stamped, with a contact sheet of every sprite', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'kit-cli-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const out = join(root, 'kit');
  const sheet = join(root, 'sheet.png');
  const program = new Command().exitOverride().configureOutput({ writeErr: () => undefined });
  registerSampleKitCommand(program);
  const log = t.mock.method(console, 'log', () => undefined);
  await program.parseAsync(['sample-kit', '--out', out, '--furni', '3', '--contact-sheet', sheet], { from: 'user' });
  assert.ok(log.mock.callCount() >= 2);

  const onDisk = await listFiles(out);
  for (const f of [
    'gamedata/FigureData.json',
    'gamedata/FigureMap.json',
    'gamedata/HabboAvatarActions.json',
    'gamedata/FurnitureData.json',
    'bundled/furniture/kit_crate.nitro',
    'bundled/furniture/kit_gen_00003.nitro',
    'bundled/pet/dog.nitro',
    'rooms/1.json',
    KIT_STAMP,
  ]) {
    assert.ok(onDisk.includes(f), `${f} is written`);
  }
  assert.ok(
    onDisk.some((f) => /^bundled\/figure\/hh_human_.*\.nitro$/.test(f)),
    'figure libraries are written',
  );
  assert.ok(!onDisk.includes('bundled/furniture/kit_gen_00004.nitro'));

  // Two runs, byte-identical; the stamp hashes every file in kit order.
  const mem = await buildSampleKit({ extraFurni: 3 });
  assert.deepEqual(
    mem.map((f) => f.path).sort(),
    onDisk.filter((f) => f !== KIT_STAMP),
  );
  const h = createHash('sha256');
  for (const f of mem) {
    h.update(`${f.path}\0${f.data.length}\0`);
    h.update(f.data);
    assert.ok(f.data.equals(await readFile(join(out, f.path))), `${f.path} is identical in both runs`);
  }
  const stamp = (await readKitStamp(out))!;
  assert.equal(stamp.contentHash, h.digest('hex'));
  assert.equal(stamp.files, mem.length);
  assert.equal(stamp.generatorVersion, generatorVersion());
  assert.deepEqual(stamp.options, { extraFurni: 3 });

  // Every sprite of every readable bundle (figure and furni) is on the sheet, numbered.
  const img = await decodeImage(await readFile(sheet));
  assert.ok(img.width >= 1000 && img.height > 100);
  const legend = await readFile(join(root, 'sheet.txt'), 'utf8');
  let sprites = 0;
  for (const f of onDisk.filter((p) => p.endsWith('.nitro'))) {
    try {
      sprites += (await readAssetLibrary(await readFile(join(out, f)), f)).sprites.size;
    } catch {
      assert.ok(legend.includes(`${f}  (not readable`), `${f} is listed as unreadable`);
    }
  }
  assert.equal(legend.split('\n').filter((l) => /^ {2}\d+ /.test(l)).length, sprites);
  assert.match(legend, /kit_crate_64_a_2_0 \d+x\d+/);
  assert.match(legend, /bundled\/figure\//);
  assert.deepEqual((await readdir(root)).sort(), ['kit', 'sheet.png', 'sheet.txt'], 'no temporary folders left');
  await assert.rejects(program.parseAsync(['sample-kit', '--out', out, '--furni', 'many'], { from: 'user' }));
});

// The stamp logic, driven by the furni half alone so each rebuild costs half a second.
test('ensure: returns at once on a matching stamp, rebuilds atomically when stale, damaged or for other options', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'kit-test-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const dir = join(root, 'nested', 'kit');
  const source = (n: number) => () => furniKitStream({ extraFurni: n });
  const first = await ensureKitFrom(dir, {}, source(0), 'v1');
  assert.equal(first.written, true);
  const crate = join(dir, 'bundled/furniture/kit_crate.nitro');
  const before = (await stat(crate)).mtimeMs;
  const again = await ensureKitFrom(dir, {}, source(0), 'v1');
  assert.equal(again.written, false);
  assert.deepEqual(again.stamp, first.stamp);
  assert.equal((await stat(crate)).mtimeMs, before, 'nothing rewritten');

  // Another generator version: the old kit (even a damaged one) is replaced as a whole.
  await writeFile(crate, 'damaged');
  await writeFile(join(dir, 'stray.txt'), 'left by someone');
  const v2 = await ensureKitFrom(dir, {}, source(0), 'v2');
  assert.equal(v2.written, true);
  assert.equal(v2.stamp.contentHash, first.stamp.contentHash, 'same content, new version');
  await readAssetLibrary(await readFile(crate), 'kit_crate.nitro');
  assert.ok(!(await listFiles(dir)).includes('stray.txt'));

  // Other options are another kit.
  const more = await ensureKitFrom(dir, { extraFurni: 2 }, source(2), 'v2');
  assert.equal(more.written, true);
  assert.notEqual(more.stamp.contentHash, first.stamp.contentHash);
  assert.ok((await listFiles(dir)).includes('bundled/furniture/kit_gen_00002.nitro'));
  assert.equal((await ensureKitFrom(dir, { extraFurni: 2 }, source(2), 'v2')).written, false);

  // An unreadable stamp means rebuild.
  await writeFile(join(dir, KIT_STAMP), '{not json');
  assert.equal((await ensureKitFrom(dir, { extraFurni: 2 }, source(2), 'v2')).written, true);
  assert.deepEqual(await readdir(join(root, 'nested')), ['kit'], 'no temporary folders left');
});

test('a failing kit source leaves the previous kit untouched', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'kit-test-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const dir = join(root, 'kit');
  const good = await writeKitFrom(dir, {}, furniKitStream(), 'v1');
  async function* failing() {
    yield { path: 'gamedata/FurnitureData.json', data: Buffer.from('{}') };
    throw new Error('generator broke');
  }
  await assert.rejects(writeKitFrom(dir, {}, failing(), 'v2'), /generator broke/);
  assert.deepEqual(await readKitStamp(dir), good);
  assert.ok((await readFile(join(dir, 'gamedata/FurnitureData.json'))).length > 1000);
  assert.deepEqual(await readdir(root), ['kit'], 'the temporary folder is removed');
});

test('the generator version is a stable hash of the generator source', () => {
  assert.match(generatorVersion(), /^[0-9a-f]{32}$/);
  assert.equal(generatorVersion(), generatorVersion());
});

test('the kit never replaces a folder that is not a kit, nor a file', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'kit-test-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const foreign = join(root, 'photos');
  await writeKitFrom(join(root, 'empty-ok'), {}, furniKitStream(), 'v1');
  await mkdir(foreign);
  await writeFile(join(foreign, 'holiday.jpg'), 'precious');
  await assert.rejects(
    writeKitFrom(foreign, {}, furniKitStream(), 'v1'),
    /refusing to replace .*photos.*not a sample kit/,
  );
  await assert.rejects(
    ensureKitFrom(foreign, {}, () => furniKitStream(), 'v1'),
    /refusing to replace/,
  );
  assert.equal(await readFile(join(foreign, 'holiday.jpg'), 'utf8'), 'precious');
  const file = join(root, 'file');
  await writeFile(file, 'x');
  await assert.rejects(writeKitFrom(file, {}, furniKitStream(), 'v1'), /is a file/);
  assert.deepEqual((await readdir(root)).sort(), ['empty-ok', 'file', 'photos']);
});
