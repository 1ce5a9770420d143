import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  furniKitFiles,
  KIT_ITEMS,
  readableBundle,
  FURNIDATA_PATH,
  furniBundlePath,
  type FurnitureDataJson,
} from '../../src/samplekit/furni/index.js';
import { readAssetLibrary, writeAssetLibrary } from '../../src/formats/asset-library.js';
import { readNitroBundle } from '../../src/formats/nitro-container.js';
import { FormatError } from '../../src/formats/errors.js';
import { hasVisiblePixel } from '../../src/imaging/image.js';
import { type KitFile } from '../../src/samplekit/kit-file.js';
import { AtlasCache } from '../../src/samplekit/furni/fast-bundle.js';
import { GeneratedSprites, generatedLibrary, generatedSpec } from '../../src/samplekit/furni/generated.js';

const filesP = furniKitFiles({ extraFurni: 25 });
const byPath = async () => new Map((await filesP).map((f: KitFile) => [f.path, f.data]));
const furnidata = async () => JSON.parse((await byPath()).get(FURNIDATA_PATH)!.toString('utf8')) as FurnitureDataJson;

test('two runs give byte-identical files in the same order', async () => {
  const a = await filesP;
  const b = await furniKitFiles({ extraFurni: 25 });
  assert.deepEqual(
    a.map((f) => f.path),
    b.map((f) => f.path),
  );
  for (let i = 0; i < a.length; i++) assert.ok(a[i]!.data.equals(b[i]!.data), `${a[i]!.path} differs between runs`);
});

test('at least 30 hand-made items, floor and wall, with revisions and colour rows', async () => {
  const fd = await furnidata();
  assert.ok(KIT_ITEMS.length >= 30);
  const floor = fd.roomitemtypes.furnitype;
  const wall = fd.wallitemtypes.furnitype;
  assert.ok(floor.length > 0 && wall.length > 0);
  for (const r of [...floor, ...wall]) assert.ok(Number.isInteger(r.revision) && r.revision > 0, r.classname);
  assert.ok(floor.some((r) => /\*\d+$/.test(r.classname)));
  assert.ok(wall.some((r) => /\*\d+$/.test(r.classname)));
  const ids = [...floor, ...wall].map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length, 'furnidata ids are unique');
  const names = [...floor, ...wall].map((r) => r.classname);
  assert.equal(new Set(names).size, names.length, 'classnames are unique');
});

test('every furnidata row has a readable bundle, except the deliberately missing and corrupt ones', async () => {
  const files = await byPath();
  const fd = await furnidata();
  const broken = new Map(KIT_ITEMS.filter((i) => !readableBundle(i)).map((i) => [i.classname, i.bundle]));
  for (const row of [...fd.roomitemtypes.furnitype, ...fd.wallitemtypes.furnitype]) {
    const base = row.classname.split('*')[0]!;
    const bundle = files.get(furniBundlePath(base));
    const state = broken.get(base);
    if (state === 'missing') {
      assert.equal(bundle, undefined, `${base} must have no bundle`);
      continue;
    }
    assert.ok(bundle, `${base} has a bundle`);
    if (state) {
      await assert.rejects(readAssetLibrary(bundle, base), FormatError, `${base} (${state}) must fail to load`);
      continue;
    }
    const lib = await readAssetLibrary(bundle, base);
    assert.equal(lib.name, base);
    assert.ok(lib.data.visualizations?.some((v) => v.size === 64));
    // Sprites survive the round trip: writing the read library again gives the same bytes.
    const gzip = KIT_ITEMS.find((i) => i.classname === base)?.bundle === 'gzip';
    assert.ok(
      (await writeAssetLibrary(lib, { compression: gzip ? 'gzip' : 'zlib' })).equals(bundle),
      `${base} round-trips`,
    );
  }
  // And every bundle file belongs to a furnidata row.
  const bases = new Set(
    [...fd.roomitemtypes.furnitype, ...fd.wallitemtypes.furnitype].map((r) => r.classname.split('*')[0]),
  );
  for (const p of files.keys())
    if (p.endsWith('.nitro')) assert.ok(bases.has(p.replace(/^bundled\/furniture\/|\.nitro$/g, '')), p);
});

test('corrupt bundles fail in the container or JSON layer with a typed error', async () => {
  const files = await byPath();
  assert.throws(() => readNitroBundle(files.get(furniBundlePath('kit_corrupt_trunc'))!, 't'), FormatError);
  assert.throws(() => readNitroBundle(files.get(furniBundlePath('kit_corrupt_garbage'))!, 'g'), FormatError);
  readNitroBundle(files.get(furniBundlePath('kit_corrupt_json'))!, 'j');
  await assert.rejects(readAssetLibrary(files.get(furniBundlePath('kit_corrupt_json'))!, 'j'), /not valid JSON/);
  // A gzip member cut short: the error names the file, the packing and zlib's reason.
  assert.throws(
    () => readNitroBundle(files.get(furniBundlePath('kit_corrupt_gzip'))!, 'z.nitro'),
    /z\.nitro.*kit_corrupt_gzip\.json \(gzip\) does not inflate: unexpected end of file/,
  );
});

test('every asset entry resolves: drawn sprites exist, aliases point at drawn assets', async () => {
  const files = await byPath();
  for (const it of KIT_ITEMS.filter(readableBundle)) {
    const lib = await readAssetLibrary(files.get(furniBundlePath(it.classname))!, it.classname);
    for (const [name, a] of Object.entries(lib.data.assets ?? {})) {
      assert.ok(name.startsWith(`${it.classname}_`), name);
      if (a.source) {
        assert.ok(lib.sprites.has(a.source), `${name} -> ${a.source}`);
        assert.equal(lib.sprites.has(name), false);
      } else {
        assert.ok(lib.sprites.has(name), `${name} has a sprite`);
      }
    }
    assert.ok(
      hasVisiblePixel([...lib.sprites.values()].reduce((a, b) => (a.width * a.height >= b.width * b.height ? a : b))),
      it.classname,
    );
  }
});

test('generated bundles: the shared-atlas writer gives exactly writeAssetLibrary bytes', async () => {
  const sprites = new GeneratedSprites();
  const atlases = new AtlasCache();
  for (let i = 1; i <= 45; i++) {
    const spec = generatedSpec(i);
    const lib = generatedLibrary(spec, sprites);
    const fast = await atlases.write(lib, spec.spriteSetKey);
    assert.ok(fast.equals(await writeAssetLibrary(lib)), spec.classname);
  }
  // Item i is a pure function of i: templates and colours cycle, names and ids follow the index.
  assert.equal(generatedSpec(17000).classname, 'kit_gen_17000');
  assert.deepEqual(
    [
      generatedSpec(1).template,
      generatedSpec(11).template,
      generatedSpec(21).template,
      generatedSpec(31).template,
      generatedSpec(41).template,
    ],
    ['box', 'duo', 'blinker', 'plaque', 'box'],
  );
});
