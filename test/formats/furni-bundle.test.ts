// Our furni bundle: header layout, manifest contents, corruption detection, determinism, round trip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { crc32, gunzipSync } from 'node:zlib';
import { decode } from 'cbor-x';
import { kitModel } from '../furni/kit-helpers.js';
import { readBundleHeader, BUNDLE_HEADER_SIZE, type BundleManifest } from '../../src/formats/furni-bundle.js';
import { writeFurniBundle, readFurniBundle } from '../../src/furni/bundle.js';
import { FormatError } from '../../src/formats/errors.js';
import { renderStill, renderIcon } from '../../src/furni/render.js';
import { encodePng } from '../../src/imaging/codec.js';
import { furniModelFromLibrary } from '../../src/furni/model.js';
import { readAssetLibrary } from '../../src/formats/asset-library.js';
import { realdata } from '../helpers/realdata.js';

const manifestOf = (b: Buffer) => decode(gunzipSync(b.subarray(20, 20 + b.readUInt32LE(8)))) as BundleManifest;

test('header: HFUR, version 1, flags 0, section lengths and CRC-32 of the rest', async () => {
  const b = await writeFurniBundle(kitModel('kit_lamp_state2'));
  assert.equal(b.toString('latin1', 0, 4), 'HFUR');
  assert.equal(b.readUInt16LE(4), 1);
  assert.equal(b.readUInt16LE(6), 0);
  const m = b.readUInt32LE(8);
  const a = b.readUInt32LE(12);
  assert.equal(BUNDLE_HEADER_SIZE + m + a, b.length);
  assert.equal(b.readUInt32LE(16), crc32(b.subarray(20)) >>> 0);
  // gzip then RIFF/WEBP
  assert.deepEqual([...b.subarray(20, 22)], [0x1f, 0x8b]);
  assert.equal(b.toString('latin1', 20 + m, 24 + m), 'RIFF');
  assert.equal(b.toString('latin1', 28 + m, 32 + m), 'WEBP');
  assert.deepEqual(readBundleHeader(b), {
    version: 1,
    flags: 0,
    manifestLength: m,
    atlasLength: a,
    crc32: b.readUInt32LE(16),
  });
});

test('manifest: sprites with atlas rects, logic, sizes 64 and 1, colour table cl, states and transitions', async () => {
  const b = await writeFurniBundle(kitModel('kit_door_transition'));
  const man = decode(gunzipSync(b.subarray(20, 20 + b.readUInt32LE(8)))) as BundleManifest;
  assert.equal(man.classname, 'kit_door_transition');
  assert.deepEqual(Object.keys(man.sizes).sort(), ['1', '64']);
  assert.equal(man.sizes['64']!.layerCount, 4);
  assert.deepEqual(man.logic.dimensions, { x: 1, y: 1, z: 2 });
  assert.deepEqual(Object.keys(man.states).sort(), ['0', '1']);
  assert.deepEqual(man.transitions.map((t) => [t.key, t.id]).sort(), [
    ['100', 1_000_001],
    ['101', 2_000_001],
  ]);
  const s = man.sprites['kit_door_transition_64_b_2_1']!;
  assert.equal(s.rect.length, 4);
  assert.equal(typeof s.x, 'number');
  // The mirrored aliases point at their source's rectangle and say flipH.
  const alias = man.sprites['kit_door_transition_64_b_4_1']!;
  assert.deepEqual(alias.rect, s.rect);
  assert.equal(alias.flipH, true);
  assert.deepEqual(man.still, { state: 1, direction: 2 });

  const sofa = manifestOf(await writeFurniBundle(kitModel('kit_sofa_colors')));
  assert.deepEqual(sofa.cl['1'], { '1': 0xe04040, '2': 0xf0a0a0 });
  assert.deepEqual(
    Object.keys(sofa.cl).sort((x, y) => +x - +y),
    ['1', '3', '7', '12'],
  );
});

test('manifest: per resting state frame sequences, frameRepeat, loopCount, distinct frames, loop duration', async () => {
  const clock = manifestOf(await writeFurniBundle(kitModel('kit_clock_repeat')));
  const on = clock.states['1']!;
  assert.equal(on.layers['1']!.frameRepeat, 3);
  assert.equal(on.layers['1']!.loopCount, 0);
  assert.deepEqual(
    on.layers['1']!.sequences[0]!.frames.map((f) => f.id),
    [0, 1, 2, 3],
  );
  assert.equal(on.loopTicks, 12);
  assert.equal(on.frameCount, 4);
  assert.equal(on.loopMs, 480);
  assert.equal(clock.states['0']!.frameCount, 1);
  const dice = manifestOf(await writeFurniBundle(kitModel('kit_dice_random')));
  assert.equal(dice.states['1']!.layers['1']!.random, true);
  assert.equal(dice.states['1']!.layers['1']!.sequences.length, 3);
  // Shadow sprites stay in the bundle even though the still omits them.
  const table = manifestOf(await writeFurniBundle(kitModel('kit_table_sd')));
  assert.ok('kit_table_sd_64_sd_2_0' in table.sprites);
});

test('the same model always gives the same bytes', async () => {
  const a = await writeFurniBundle(kitModel('kit_popper_loop'));
  const b = await writeFurniBundle(kitModel('kit_popper_loop'));
  assert.ok(a.equals(b));
});

test('corruption is reported as a FormatError: magic, version, length, CRC', async () => {
  const good = await writeFurniBundle(kitModel('kit_crate'));
  const flip = Buffer.from(good);
  flip[good.length - 5]! ^= 0xff;
  await assert.rejects(
    readFurniBundle(flip, 'x.bundle'),
    (e: unknown) => e instanceof FormatError && /CRC-32 mismatch/.test(e.message),
  );
  await assert.rejects(readFurniBundle(good.subarray(0, good.length - 1), 'x.bundle'), /header says/);
  await assert.rejects(readFurniBundle(good.subarray(0, 10), 'x.bundle'), /shorter than the 20-byte header/);
  const magic = Buffer.from(good);
  magic.write('NOPE', 0, 'latin1');
  await assert.rejects(readFurniBundle(magic, 'x.bundle'), /bad magic/);
  const ver = Buffer.from(good);
  ver.writeUInt16LE(2, 4);
  await assert.rejects(readFurniBundle(ver, 'x.bundle'), /unsupported format version 2/);
  // A well-framed bundle whose manifest has the wrong shape is a FormatError too, not a crash.
  const { encodeBundle } = await import('../../src/formats/furni-bundle.js');
  const { gzipSync } = await import('node:zlib');
  const { encode } = await import('cbor-x');
  const odd = encodeBundle(
    gzipSync(encode({ format: 1, classname: 'x', sprites: { a: { rect: 5 } } })),
    good.subarray(20 + good.readUInt32LE(8)),
  );
  await assert.rejects(
    readFurniBundle(odd, 'odd.bundle'),
    (e: unknown) => e instanceof FormatError && /malformed/.test(e.message),
  );
});

test('round trip: the still and icon re-rendered from the bundle alone are byte-identical', async () => {
  for (const cn of [
    'kit_lamp_add',
    'kit_sofa_colors',
    'kit_chair_4dir',
    'kit_offsets',
    'kit_gate_transdup',
    'kit_vase_colors',
    'kit_table_sd',
  ]) {
    const m = kitModel(cn);
    const { model } = await readFurniBundle(await writeFurniBundle(m), cn);
    for (const colour of [0, 1, 2, 3, 5]) {
      const a = renderStill(m, colour);
      const b = renderStill(model, colour);
      assert.ok((await encodePng(a!)).equals(await encodePng(b!)), `${cn}*${colour}`);
    }
    assert.ok((await encodePng(renderIcon(m)!)).equals(await encodePng(renderIcon(model)!)), `${cn} icon`);
  }
});

const nitro = realdata('nitro/bundled/furniture');
test('round trip on real Nitro furni', { skip: nitro.skip }, async () => {
  for (const f of readdirSync(nitro.path).sort()) {
    const m = furniModelFromLibrary(await readAssetLibrary(readFileSync(`${nitro.path}/${f}`), f));
    const { model } = await readFurniBundle(await writeFurniBundle(m), f);
    const a = renderStill(m);
    assert.ok((await encodePng(a!)).equals(await encodePng(renderStill(model)!)), f);
  }
});
