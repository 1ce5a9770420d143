import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readFurniSwf } from '../../src/formats/flash/furni-library.js';
import { readFigureSwf } from '../../src/formats/flash/figure-library.js';
import { readAssetLibrary, writeAssetLibrary } from '../../src/formats/asset-library.js';
import { SwfFormatError } from '../../src/formats/swf/swf-error.js';
import { imagesEqual } from '../../src/imaging/image.js';
import { makeImage, writeSwf } from '../../src/formats/swf/writer.js';
import { realdata } from '../helpers/realdata.js';

const red = makeImage(3, 2, () => [255, 0, 0, 255]);
const green = makeImage(2, 2, () => [0, 255, 0, 128]);
const blue = makeImage(4, 1, () => [0, 0, 255, 255]);
const grey = makeImage(1, 1, () => [128, 128, 128, 255]);

const CN = 'tst_chair';
const furniSwf = () =>
  writeSwf({
    bitmaps: [
      { kind: 'lossless', id: 1, format: 5, alpha: true, image: red },
      { kind: 'lossless', id: 2, format: 5, alpha: true, image: green },
      { kind: 'lossless', id: 3, format: 3, alpha: true, image: blue },
      { kind: 'lossless', id: 4, format: 5, alpha: false, image: grey },
    ],
    binaries: [
      {
        id: 10,
        data: `<?xml version="1.0" encoding="ISO-8859-1" ?>\n<object type="${CN}" visualization="furniture_animated" logic="furniture_multistate"/>`,
      },
      {
        id: 11,
        data: `<?xml version="1.0" ?><assets><!-- generated -- by hand -->
          <asset name="${CN}_64_a_0_0" x="10" y="-3"/>
          <asset name="${CN}_64_a_2_0" x="4" y="5"/>
          <asset name="${CN}_64_a_4_0" source="${CN}_64_a_2_0" x="4" y="5" flipH="1"/>
          <asset name="${CN}_64_b_0_0" x="1" y="2"/>
          <asset name="${CN}_32_a_0_0" x="5" y="1"/>
          <asset name="${CN}_icon_a" x="0" y="0"/>
          <asset name="sh_${CN}" x="0" y="0"/>
        </assets>`,
      },
      {
        id: 12,
        data: `<objectData type="${CN}"><model><dimensions x="1" y="2" z="1.5" centerZ="0.5"/><directions><direction id="90"/><direction id="180"/></directions></model>
          <action link="http://x" startState="1"/><customvars><variable name="a"/><variable name="b"/></customvars></objectData>`,
      },
      {
        id: 13,
        data: `<visualizationData type="${CN}">
          <visualization size="32" layerCount="1" angle="45"><layers><layer id="0" z="1"/></layers></visualization>
          <visualization size="64" layerCount="2" angle="45">
            <layers><layer id="0" z="1" ink="ADD" alpha="128" ignoreMouse="1" tag="lamp"/><layer id="1" x="2" y="-1"/></layers>
            <directions><direction id="2"/><direction id="4"><layer id="1" z="-5"/></direction></directions>
            <colors><color id="1"><colorLayer id="0" color="FF8000"/></color></colors>
            <animations>
              <animation id="1"><animationLayer id="0" frameRepeat="2" loopCount="0"><frameSequence><frame id="0"/><frame id="1" x="1" y="2"><offsets><offset direction="2" x="3" y="4"/></offsets></frame></frameSequence></animationLayer></animation>
              <animation id="1" transitionTo="2"><animationLayer id="1" random="1"><frameSequence loopCount="2"><frame id="NaN"/></frameSequence></animationLayer></animation>
              <animation id="1" transitionFrom="2"><animationLayer id="1"><frameSequence><frame/></frameSequence></animationLayer></animation>
            </animations>
            <postures/>
          </visualization>
          <visualization size="1" layerCount="1" angle="360"><layers><layer id="0"/></layers></visualization>
        </visualizationData>`,
      },
      {
        id: 14,
        data: `<manifest><library name="${CN}" version="0.1"><assets><asset name="index" mimeType="text/xml"/></assets></library></manifest>`,
      },
    ],
    symbols: [
      { id: 1, name: `${CN}_${CN}_64_a_0_0` },
      { id: 1, name: `${CN}_${CN}_64_a_2_0` }, // same image: an alias of 64_a_0_0
      { id: 2, name: `${CN}_${CN}_32_a_0_0` }, // first name is a dropped size-32 one …
      { id: 2, name: `${CN}_${CN}_64_b_0_0` }, // … so this kept name holds the image
      { id: 3, name: `${CN}_${CN}_icon_a` },
      { id: 4, name: `${CN}_sh_${CN}` },
      { id: 10, name: `${CN}_index` },
      { id: 11, name: `${CN}_${CN}_assets` },
      { id: 12, name: `${CN}_${CN}_logic` },
      { id: 13, name: `${CN}_${CN}_visualization` },
      { id: 14, name: `${CN}_manifest` },
      { id: 0, name: CN },
    ],
  });

test('furni SWF → AssetLibrary shaped exactly like the Nitro bundle nitro-converter writes', async () => {
  const lib = await readFurniSwf(furniSwf(), `${CN}.swf`);
  assert.equal(lib.name, CN);
  assert.equal(
    JSON.stringify(lib.data),
    JSON.stringify({
      name: CN,
      logicType: 'furniture_multistate',
      visualizationType: 'furniture_animated',
      assets: {
        [`${CN}_64_a_0_0`]: { x: 10, y: -3 },
        [`${CN}_64_a_2_0`]: { source: `${CN}_64_a_0_0`, x: 4, y: 5 },
        [`${CN}_64_a_4_0`]: { source: `${CN}_64_a_0_0`, x: 4, y: 5, flipH: true },
        [`${CN}_64_b_0_0`]: { x: 1, y: 2 },
        [`${CN}_icon_a`]: { x: 0, y: 0 },
      },
      logic: {
        model: { dimensions: { x: 1, y: 2, z: 1.5, centerZ: 0.5 }, directions: [90, 180] },
        action: { link: 'http://x', startState: 1 },
        customVars: { variables: ['a', 'b'] },
      },
      visualizations: [
        {
          angle: 45,
          layerCount: 2,
          size: 64,
          layers: { 0: { z: 1, alpha: 128, ink: 'ADD', tag: 'lamp', ignoreMouse: true }, 1: { x: 2, y: -1 } },
          directions: { 2: {}, 4: { layers: { 1: { z: -5 } } } },
          colors: { 1: { layers: { 0: { color: 0xff8000 } } } },
          animations: {
            1: {
              layers: {
                0: {
                  frameRepeat: 2,
                  loopCount: 0,
                  frameSequences: {
                    0: {
                      frames: { 0: { id: 0 }, 1: { id: 1, x: 1, y: 2, offsets: { 0: { direction: 2, x: 3, y: 4 } } } },
                    },
                  },
                },
              },
            },
            '1_1': {
              transitionTo: 2,
              layers: { 1: { random: 1, frameSequences: { 0: { loopCount: 2, frames: { 0: { id: 0 } } } } } },
            },
            '1_1_2': { transitionFrom: 2, layers: { 1: { frameSequences: { 0: { frames: { 0: { id: 0 } } } } } } },
          },
        },
        { angle: 360, layerCount: 1, size: 1, layers: { 0: {} } },
      ],
    }),
  );
  assert.deepEqual([...lib.sprites.keys()], [`${CN}_64_a_0_0`, `${CN}_64_b_0_0`, `${CN}_icon_a`]);
  assert.ok(imagesEqual(lib.sprites.get(`${CN}_64_a_0_0`)!, red));
  assert.ok(imagesEqual(lib.sprites.get(`${CN}_64_b_0_0`)!, green));
  assert.ok(imagesEqual(lib.sprites.get(`${CN}_icon_a`)!, blue));
});

test('furni SWF with keepAllSizes keeps size 32 and sh_ assets', async () => {
  const lib = await readFurniSwf(furniSwf(), `${CN}.swf`, { keepAllSizes: true });
  assert.deepEqual(
    lib.data.visualizations!.map((v) => v.size),
    [32, 64, 1],
  );
  assert.ok(lib.data.assets![`${CN}_32_a_0_0`]);
  assert.equal(lib.data.assets![`${CN}_64_b_0_0`]!.source, `${CN}_32_a_0_0`);
  assert.ok(lib.sprites.has(`sh_${CN}`));
});

test('furni SWF → .nitro → AssetLibrary round trip keeps the document and every sprite', async () => {
  const lib = await readFurniSwf(furniSwf(), `${CN}.swf`);
  const back = await readAssetLibrary(await writeAssetLibrary(lib), `${CN}.nitro`);
  assert.deepEqual(back.data, lib.data);
  assert.deepEqual([...back.sprites.keys()].sort(), [...lib.sprites.keys()].sort());
  for (const [k, img] of lib.sprites) assert.ok(imagesEqual(back.sprites.get(k)!, img), k);
});

test('furni SWF missing its visualization document: typed error naming the file', async () => {
  const bad = writeSwf({
    binaries: [
      { id: 1, data: '<object type="x"/>' },
      { id: 2, data: '<assets/>' },
    ],
    symbols: [
      { id: 1, name: 'x_index' },
      { id: 2, name: 'x_x_assets' },
      { id: 0, name: 'x' },
    ],
  });
  await assert.rejects(
    readFurniSwf(bad, 'x.swf'),
    (e: unknown) => e instanceof SwfFormatError && /x\.swf.*x_x_visualization is missing/.test(e.message),
  );
  const badXml = writeSwf({
    binaries: [{ id: 1, data: '<object type="x"' }],
    symbols: [
      { id: 1, name: 'x_index' },
      { id: 0, name: 'x' },
    ],
  });
  await assert.rejects(readFurniSwf(badXml, 'y.swf'), /y\.swf \(x_index\): not well-formed XML/);
});

const figureSwf = () =>
  writeSwf(
    {
      bitmaps: [
        { kind: 'lossless', id: 1, format: 5, alpha: true, image: red },
        { kind: 'lossless', id: 2, format: 3, alpha: true, image: green },
      ],
      binaries: [
        {
          id: 3,
          data: `<?xml version='1.0'?><manifest><library name='hh_test' version='0.1'><assets>
          <asset name='h_std_bd_1_0_0' mimeType='image/png'><param key='offset' value='-20,49' /></asset>
          <asset name='h_std_bd_1_1_0' mimeType='image/png'><param key='offset' value='-24,49' /></asset>
          <asset name='sh_std_bd_1_0_0' mimeType='image/png'><param key='offset' value='-10,26' /></asset>
        </assets><aliases><alias name='h_std_bd_1_5_0' link='h_std_bd_1_1_0' fliph='1' flipv='0'/></aliases></library></manifest>`,
        },
      ],
      symbols: [
        { id: 1, name: 'hh_test_h_std_bd_1_0_0' },
        { id: 1, name: 'hh_test_h_std_bd_1_1_0' },
        { id: 2, name: 'hh_test_sh_std_bd_1_0_0' },
        { id: 3, name: 'hh_test_manifest' },
        { id: 0, name: 'hh_test' },
      ],
    },
    'lzma',
  );

test('figure SWF → AssetLibrary shaped like a Nitro figure bundle (offsets, symbol aliases, sh_ sprites)', async () => {
  const lib = await readFigureSwf(figureSwf(), 'hh_test.swf');
  assert.equal(lib.name, 'hh_test');
  assert.deepEqual(lib.data, {
    name: 'hh_test',
    assets: {
      h_std_bd_1_0_0: { x: -20, y: 49 },
      h_std_bd_1_1_0: { x: -24, y: 49, source: 'h_std_bd_1_0_0' },
      sh_std_bd_1_0_0: { x: -10, y: 26 },
    },
    aliases: { h_std_bd_1_5_0: { link: 'h_std_bd_1_1_0', flipH: true, flipV: false } },
  });
  assert.deepEqual([...lib.sprites.keys()], ['h_std_bd_1_0_0', 'sh_std_bd_1_0_0']);
  const nitroLike = await readFigureSwf(figureSwf(), 'hh_test.swf', { dropSmallScale: true });
  assert.deepEqual(Object.keys(nitroLike.data.assets!), ['h_std_bd_1_0_0', 'h_std_bd_1_1_0']);
  assert.deepEqual([...nitroLike.sprites.keys()], ['h_std_bd_1_0_0']);
});

const furniDir = realdata('flash/hof_furni');
const nitroFurni = realdata('nitro/bundled/furniture');
test('every real furni SWF loads; the 32 with Nitro bundles match their structure', {
  skip: furniDir.skip,
}, async () => {
  const files = readdirSync(furniDir.path)
    .filter((f) => f.endsWith('.swf'))
    .sort();
  assert.equal(files.length, 36);
  let compared = 0;
  let assetNames = 0;
  let assetNamesFound = 0;
  for (const f of files) {
    const lib = await readFurniSwf(readFileSync(join(furniDir.path, f)), f);
    const vis64 = lib.data.visualizations?.find((v) => v.size === 64);
    assert.ok(vis64, `${f} has a size-64 visualization`);
    assert.ok(
      lib.data.visualizations!.every((v) => v.size !== 32),
      `${f}: no size 32`,
    );
    // Every asset resolves to a sprite, itself or through its source.
    for (const [name, a] of Object.entries(lib.data.assets ?? {})) {
      assert.ok(lib.sprites.has(a.source ?? name), `${f}: ${name} has an image`);
    }
    const np = join(nitroFurni.path, f.replace(/\.swf$/, '.nitro'));
    if (nitroFurni.skip || !existsSync(np)) continue;
    const nitro = await readAssetLibrary(readFileSync(np), np);
    compared++;
    assert.equal(lib.data.name, nitro.data.name, f);
    assert.deepEqual(
      lib.data.visualizations!.map((v) => v.size),
      nitro.data.visualizations!.map((v) => v.size),
      `${f}: sizes`,
    );
    for (const n of Object.keys(nitro.data.assets ?? {})) {
      assetNames++;
      if (lib.data.assets?.[n]) assetNamesFound++;
    }
  }
  if (!nitroFurni.skip) {
    assert.equal(compared, 32);
    // The Nitro bundles are newer revisions: a handful of assets differ, the rest line up by name.
    assert.ok(assetNamesFound / assetNames > 0.99, `${assetNamesFound}/${assetNames} Nitro asset names found`);
  }
});

const gordon = realdata('flash/gordon');
const nitroFigure = realdata('nitro/bundled/figure');
test('real figure SWFs: h_std_bd_1_2_0 at −22,50 and 25×57; offsets equal the Nitro bundles', {
  skip: gordon.skip,
}, async () => {
  let same = 0;
  let total = 0;
  for (const f of readdirSync(gordon.path)
    .filter((n) => n.endsWith('.swf'))
    .sort()) {
    const lib = await readFigureSwf(readFileSync(join(gordon.path, f)), f);
    assert.ok(lib.sprites.size > 0, f);
    if (f.startsWith('hh_human_50_')) {
      const keys = [...lib.sprites.keys()];
      assert.ok(
        keys.some((k) => k.startsWith('sh_')) && !keys.some((k) => k.startsWith('h_')),
        `${f} holds sh_ sprites`,
      );
    }
    if (f === 'hh_human_body.swf') {
      assert.deepEqual(lib.data.assets!.h_std_bd_1_2_0, { x: -22, y: 50 });
      const img = lib.sprites.get('h_std_bd_1_2_0')!;
      assert.deepEqual([img.width, img.height], [25, 57]);
    }
    const np = join(nitroFigure.path, f.replace(/\.swf$/, '.nitro'));
    if (nitroFigure.skip || f.startsWith('hh_human_50_') || !existsSync(np)) continue;
    const nitro = await readAssetLibrary(readFileSync(np), np);
    for (const [name, a] of Object.entries(nitro.data.assets ?? {})) {
      const mine = lib.data.assets?.[name];
      if (!mine) continue;
      total++;
      if (mine.x === a.x && mine.y === a.y) same++;
    }
  }
  if (!nitroFigure.skip) assert.ok(total > 3000 && same / total > 0.995, `${same}/${total} offsets equal`);
});
