import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { convertFlashToNitro } from '../src/convert/flash-to-nitro.js';
import { printConvertSummary, registerConvertCommand } from '../src/cli/convert.js';
import { Command } from 'commander';
import { flashFigureLoader, readFlashAvatarSources } from '../src/hotel/flash.js';
import { readFlashAvatarData } from '../src/hotel/flash-avatar-data.js';
import { readAssetLibrary } from '../src/formats/asset-library.js';
import { readFurniSwf } from '../src/formats/flash/furni-library.js';
import { readFigureSwf } from '../src/formats/flash/figure-library.js';
import { furniModelFromLibrary } from '../src/furni/model.js';
import { renderIcon, renderStill } from '../src/furni/render.js';
import { loadAvatarHotel, renderAvatar, type AvatarRequest } from '../src/avatar/index.js';
import { runBuild } from '../src/corpus/run.js';
import { hasVisiblePixel, imagesEqual, type RgbaImage } from '../src/imaging/image.js';
import { makeImage, writeSwf } from '../src/formats/swf/writer.js';
import {
  ensureSampleKit,
  generatorVersion,
  readKitStamp,
  sampleKitStream,
  writeSampleKit,
} from '../src/samplekit/index.js';
import { effectMapJson } from '../src/samplekit/avatar/effects.js';
import { registerSampleKitCommand } from '../src/cli/sample-kit.js';
import { KIT_ITEMS, generatedSpec, readableBundle, brokenBundle } from '../src/samplekit/furni/index.js';
import { LIBRARIES } from '../src/samplekit/avatar/catalog.js';
import { parseAvatarActionsXml, parseFigureDataXml, parseFigureMapXml } from '../src/formats/gamedata/figure-xml.js';
import { parseFurnidataXml } from '../src/formats/gamedata/furnidata-xml.js';
import { parseDrawOrderXml } from '../src/formats/gamedata/avatar-xml.js';
import { decodePngSync } from '../src/imaging/png.js';
import { realdata } from './helpers/realdata.js';
import { parseAction } from '../src/avatar/request.js';

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'hotel-imager-convert-'));
}

const CN = 'kit_lamp';
function kitFurniSwf(revisionMark: number): Buffer {
  const body = makeImage(6, 8, (_x, y) => [200, 100 + revisionMark, 50, y < 2 ? 128 : 255]);
  const shade = makeImage(4, 3, (x) => [255, 255, 255, x === 0 ? 0 : 255]);
  const shadow = makeImage(6, 2, () => [0, 0, 0, 255]);
  const icon = makeImage(3, 3, () => [250, 200, 0, 255]);
  return writeSwf({
    bitmaps: [
      { kind: 'lossless', id: 1, format: 5, alpha: true, image: body },
      { kind: 'lossless', id: 2, format: 3, alpha: true, image: shade },
      { kind: 'lossless', id: 3, format: 5, alpha: false, image: shadow },
      { kind: 'lossless', id: 4, format: 3, alpha: false, image: icon },
    ],
    binaries: [
      { id: 10, data: `<object type="${CN}" visualization="furniture_static" logic="furniture_basic"/>` },
      {
        id: 11,
        data: `<assets><asset name="${CN}_64_a_2_0" x="3" y="10"/><asset name="${CN}_64_a_4_0" source="${CN}_64_a_2_0" flipH="1" x="3" y="10"/>
        <asset name="${CN}_64_b_2_0" x="2" y="14"/><asset name="${CN}_64_b_4_0" source="${CN}_64_b_2_0" flipH="1" x="2" y="14"/>
        <asset name="${CN}_64_sd_2_0" x="3" y="-2"/><asset name="${CN}_64_sd_4_0" source="${CN}_64_sd_2_0" x="3" y="-2"/><asset name="${CN}_icon_a" x="1" y="1"/></assets>`,
      },
      {
        id: 12,
        data: `<objectData type="${CN}"><model><dimensions x="1" y="1" z="1"/><directions><direction id="90"/><direction id="180"/></directions></model></objectData>`,
      },
      {
        id: 13,
        data: `<visualizationData type="${CN}"><visualization size="64" layerCount="2" angle="45"><layers><layer id="0" z="1"/><layer id="1" z="2" ink="ADD"/></layers>
        <directions><direction id="2"/><direction id="4"/></directions><colors><color id="1"><colorLayer id="1" color="40A0FF"/></color></colors></visualization>
        <visualization size="1" layerCount="1" angle="360"><layers><layer id="0"/></layers></visualization></visualizationData>`,
      },
      { id: 14, data: `<manifest><library name="${CN}"/></manifest>` },
    ],
    symbols: [
      { id: 1, name: `${CN}_${CN}_64_a_2_0` },
      { id: 2, name: `${CN}_${CN}_64_b_2_0` },
      { id: 3, name: `${CN}_${CN}_64_sd_2_0` },
      { id: 4, name: `${CN}_${CN}_icon_a` },
      { id: 10, name: `${CN}_index` },
      { id: 11, name: `${CN}_${CN}_assets` },
      { id: 12, name: `${CN}_${CN}_logic` },
      { id: 13, name: `${CN}_${CN}_visualization` },
      { id: 14, name: `${CN}_manifest` },
      { id: 0, name: CN },
    ],
  });
}

function kitFigureSwf(): Buffer {
  return writeSwf(
    {
      bitmaps: [
        { kind: 'lossless', id: 1, format: 5, alpha: true, image: makeImage(5, 9, () => [240, 200, 160, 255]) },
        { kind: 'lossless', id: 2, format: 5, alpha: true, image: makeImage(3, 5, () => [240, 200, 160, 255]) },
      ],
      binaries: [
        {
          id: 3,
          data: `<manifest><library name="hh_human_kit"><assets><asset name="h_std_bd_1_2_0" mimeType="image/png"><param key="offset" value="-22,50"/></asset>
      <asset name="sh_std_bd_1_2_0" mimeType="image/png"><param key="offset" value="-10,25"/></asset></assets></library></manifest>`,
        },
      ],
      symbols: [
        { id: 1, name: 'hh_human_kit_h_std_bd_1_2_0' },
        { id: 2, name: 'hh_human_kit_sh_std_bd_1_2_0' },
        { id: 3, name: 'hh_human_kit_manifest' },
        { id: 0, name: 'hh_human_kit' },
      ],
    },
    'lzma',
  );
}

function writeKitFlashLayout(dir: string): void {
  mkdirSync(join(dir, 'gamedata'), { recursive: true });
  mkdirSync(join(dir, 'gordon'), { recursive: true });
  mkdirSync(join(dir, 'hof_furni', '7'), { recursive: true });
  mkdirSync(join(dir, 'hof_furni', '9'), { recursive: true });
  writeFileSync(
    join(dir, 'gamedata', 'figuredata.xml'),
    '<figuredata><colors><palette id="1"><color id="1" index="0" club="0" selectable="1">FFCB98</color></palette></colors><sets><settype type="bd" paletteid="1" mand_m_0="1" mand_f_0="1" mand_m_1="0" mand_f_1="0"><set id="1" gender="U" club="0" colorable="1" selectable="0"><part id="1" type="bd" colorable="1" index="0" colorindex="1"/></set></settype></sets></figuredata>',
  );
  writeFileSync(
    join(dir, 'gamedata', 'figuremap.xml'),
    '<map><lib id="hh_human_kit" revision="1"><part id="1" type="bd"/></lib></map>',
  );
  writeFileSync(
    join(dir, 'gamedata', 'HabboAvatarActions.xml'),
    '<actions><action id="Default" precedence="1000" state="std" main="1" isdefault="1" geometrytype="vertical" activepartset="figure" assetpartdefinition="std"/></actions>',
  );
  writeFileSync(
    join(dir, 'gamedata', 'furnidata.txt'),
    `[["s","1","${CN}","7","2","1","1","","Kit Lamp","","","-1","-1"],["s","2","${CN}*1","7","2","1","1","#ffffff,#40A0FF","Blue Kit Lamp","","","-1","-1"],\n["s","3","broken,"1"]]`,
  );
  writeFileSync(join(dir, 'gordon', 'hh_human_kit.swf'), kitFigureSwf());
  // The same library again in a release folder: the top-level one wins.
  mkdirSync(join(dir, 'gordon', 'RELEASE63'), { recursive: true });
  writeFileSync(join(dir, 'gordon', 'RELEASE63', 'hh_human_kit.swf'), Buffer.from('never read'));
  writeFileSync(join(dir, 'gordon', 'hh_pets.swf'), Buffer.from('not a figure library'));
  // Two revisions of the lamp: furnidata names revision 7, so 7 wins over the newer folder 9.
  writeFileSync(join(dir, 'hof_furni', '7', `${CN}.swf`), kitFurniSwf(0));
  writeFileSync(join(dir, 'hof_furni', '9', `${CN}.swf`), kitFurniSwf(50));
  writeFileSync(join(dir, 'hof_furni', 'broken_item.swf'), Buffer.from('CWS\x0a\x40\x00\x00\x00garbage-not-zlib'));
}

test('convert: kit Flash layout → Nitro layout; bad files reported, the rest written, renders pixel-identical', async () => {
  const from = tmp();
  const to = tmp();
  try {
    writeKitFlashLayout(from);
    const report = await convertFlashToNitro({ from, to });
    assert.deepEqual(report.gamedata.map((g) => g.target).sort(), [
      'gamedata/FigureData.json',
      'gamedata/FigureMap.json',
      'gamedata/FlashAvatarData.json',
      'gamedata/FurnitureData.json',
      'gamedata/HabboAvatarActions.json',
    ]);
    assert.deepEqual(await readFlashAvatarData(to), { format: 1, smallSprites: false });
    // Nitro tools fetch EffectMap.json with the other documents: a hotel without effect libraries gets an empty one.
    assert.deepEqual(JSON.parse(readFileSync(join(to, 'gamedata', 'EffectMap.json'), 'utf8')), { effects: [] });
    assert.deepEqual(report.figures, [
      { source: 'gordon/hh_human_kit.swf', target: 'bundled/figure/hh_human_kit.nitro' },
    ]);
    assert.deepEqual(report.furniture, [
      { source: join('hof_furni', '7', `${CN}.swf`), target: `bundled/furniture/${CN}.nitro` },
    ]);
    assert.deepEqual(report.superseded, [
      join('hof_furni', '9', `${CN}.swf`),
      join('gordon', 'RELEASE63', 'hh_human_kit.swf'),
    ]);
    assert.deepEqual(report.skipped, ['gordon/hh_pets.swf']);
    assert.equal(report.failed.length, 1);
    assert.equal(report.failed[0]!.source, 'hof_furni/broken_item.swf');
    assert.match(report.failed[0]!.reason, /broken_item\.swf.*bad zlib stream/);
    assert.deepEqual(
      report.furnidataProblems.map((p) => p.line),
      [2],
    );
    assert.deepEqual(
      JSON.parse(readFileSync(join(to, 'convert-report.json'), 'utf8')),
      JSON.parse(JSON.stringify(report)),
    );

    const furniData = JSON.parse(readFileSync(join(to, 'gamedata', 'FurnitureData.json'), 'utf8'));
    assert.deepEqual(
      furniData.roomitemtypes.furnitype.map((r: { classname: string }) => r.classname),
      [CN, `${CN}*1`],
    );
    assert.equal(
      JSON.parse(readFileSync(join(to, 'gamedata', 'FigureMap.json'), 'utf8')).libraries[0].id,
      'hh_human_kit',
    );

    // The converted bundle is the same model, so every render is pixel-identical.
    const fromSwf = furniModelFromLibrary(
      await readFurniSwf(readFileSync(join(from, 'hof_furni', '7', `${CN}.swf`)), `${CN}.swf`),
    );
    const fromNitro = furniModelFromLibrary(
      await readAssetLibrary(readFileSync(join(to, 'bundled', 'furniture', `${CN}.nitro`)), `${CN}.nitro`),
    );
    for (const color of [0, 1]) {
      const a = renderStill(fromSwf, color)!;
      const b = renderStill(fromNitro, color)!;
      assert.ok(a && hasVisiblePixel(a), `colour ${color} renders`);
      assert.ok(imagesEqual(a, b), `still colour ${color} identical`);
    }
    assert.ok(imagesEqual(renderIcon(fromSwf)!, renderIcon(fromNitro)!), 'icon identical');

    const figSwf = await readFigureSwf(readFileSync(join(from, 'gordon', 'hh_human_kit.swf')), 'hh_human_kit.swf');
    const figNitro = await readAssetLibrary(
      readFileSync(join(to, 'bundled', 'figure', 'hh_human_kit.nitro')),
      'hh_human_kit.nitro',
    );
    assert.deepEqual(figNitro.data, figSwf.data);
    for (const [k, img] of figSwf.sprites) assert.ok(imagesEqual(figNitro.sprites.get(k)!, img), k);

    // Same input → byte-identical output.
    const again = tmp();
    try {
      await convertFlashToNitro({ from, to: again });
      for (const f of [
        'gamedata/FigureData.json',
        'gamedata/FurnitureData.json',
        `bundled/furniture/${CN}.nitro`,
        'bundled/figure/hh_human_kit.nitro',
        'convert-report.json',
      ]) {
        assert.deepEqual(readFileSync(join(again, f)), readFileSync(join(to, f)), f);
      }
    } finally {
      rmSync(again, { recursive: true, force: true });
    }
  } finally {
    rmSync(from, { recursive: true, force: true });
    rmSync(to, { recursive: true, force: true });
  }
});

test('Flash layout: avatar sources and figure libraries read straight from the SWF folder', async () => {
  const root = tmp();
  try {
    writeKitFlashLayout(root);
    const src = await readFlashAvatarSources(root);
    assert.deepEqual([...src.libraries.keys()], ['hh_human_kit'], 'hh_pets is not a figure library');
    assert.equal(src.figureData.setTypes[0]!.type, 'bd');
    assert.equal(src.figureMap.libraries[0]!.id, 'hh_human_kit');
    assert.equal(src.actions.actions[0]!.id, 'Default');
    assert.equal(src.geometry, undefined);
    const lib = await flashFigureLoader(src.libraries)('hh_human_kit');
    assert.deepEqual(lib.data.assets!.h_std_bd_1_2_0, { x: -22, y: 50 });
    await assert.rejects(flashFigureLoader(src.libraries)('hh_human_nope'), /no figure library hh_human_nope/);
    rmSync(join(root, 'gamedata', 'figuremap.xml'));
    await assert.rejects(readFlashAvatarSources(root), /no gamedata\/figuremap\.xml/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('convert command: summary lists failures and unreadable rows; --strict exits 1', async () => {
  const from = tmp();
  const to = tmp();
  const saved = process.exitCode;
  let printed = '';
  try {
    writeKitFlashLayout(from);
    const program = new Command().exitOverride();
    registerConvertCommand(
      program,
      (l) => (printed += l + '\n'),
      () => undefined,
    );
    await program.parseAsync(['node', 'hotel-imager', 'convert', '--from', from, '--to', to, '--strict']);
    assert.equal(process.exitCode, 1);
    assert.match(printed, /converted: 5 gamedata documents, 1 figure libraries, 1 furni/);
    assert.match(printed, /left out 2 superseded SWFs/);
    assert.match(printed, /skipped 1 SWFs that are not figure libraries/);
    assert.match(printed, /furnidata: 1 rows could not be read:\n {2}line 2: /);
    assert.match(printed, /failed: 1 files could not be converted:\n {2}hof_furni\/broken_item\.swf: /);
    const lines: string[] = [];
    printConvertSummary(
      {
        gamedata: [],
        figures: [],
        effects: [],
        furniture: [],
        failed: [],
        superseded: [],
        skipped: [],
        furnidataProblems: [],
      },
      (l) => lines.push(l),
    );
    assert.deepEqual(lines, ['converted: 0 gamedata documents, 0 figure libraries, 0 furni']);
  } finally {
    process.exitCode = saved;
    rmSync(from, { recursive: true, force: true });
    rmSync(to, { recursive: true, force: true });
  }
});

/** `hotel-imager convert` in this process: its exit code and what it printed (summary, then the verdict line). */
async function convertCommand(args: string[]): Promise<{ code: number; printed: string; errors: string }> {
  const saved = process.exitCode;
  process.exitCode = undefined;
  let printed = '';
  let errors = '';
  try {
    const program = new Command().exitOverride();
    registerConvertCommand(
      program,
      (l) => (printed += l + '\n'),
      (l) => (errors += l + '\n'),
    );
    await program.parseAsync(['node', 'hotel-imager', 'convert', ...args]);
    return { code: Number(process.exitCode ?? 0), printed, errors };
  } finally {
    process.exitCode = saved;
  }
}

test('convert exit codes: an unconverted file is exit 1 without --strict; a broken figuredata.xml is listed once; unreadable rows only with --strict', async () => {
  const from = tmp();
  const to = tmp();
  try {
    writeKitFlashLayout(from);
    // The kit's broken_item.swf: a partial failure, exit 1 with no flag.
    const partial = await convertCommand(['--from', from, '--to', to]);
    assert.equal(partial.code, 1);
    assert.match(partial.printed, /failed: 1 files could not be converted:\n {2}hof_furni\/broken_item\.swf: /);
    assert.match(
      partial.errors,
      new RegExp(`^exit 1: a file was not converted \\(listed above\\); the rest is in ${to}$`, 'm'),
    );

    // Without the broken SWF only an unreadable furnidata row is left: exit 0, and 1 with --strict.
    rmSync(join(from, 'hof_furni', 'broken_item.swf'));
    const rows = await convertCommand(['--from', from, '--to', tmp()]);
    assert.equal(rows.code, 0, rows.printed);
    assert.match(rows.printed, /furnidata: 1 rows could not be read:/);
    assert.equal((await convertCommand(['--from', from, '--to', tmp(), '--strict'])).code, 1);

    // A broken figuredata.xml: the hotel is written without FigureData, exit 1, the error listed once.
    writeFileSync(join(from, 'gamedata', 'figuredata.xml'), '<figuredata><colors><palette id="1">');
    const broken = await convertCommand(['--from', from, '--to', join(to, 'broken')]);
    assert.equal(broken.code, 1);
    const failed = broken.printed.slice(broken.printed.indexOf('failed:'));
    assert.match(failed, /^failed: 1 files could not be converted:\n {2}gamedata\/figuredata\.xml: [^\n]+\n$/);
    assert.match(broken.errors, /^exit 1: a file was not converted /m);
  } finally {
    rmSync(from, { recursive: true, force: true });
    rmSync(to, { recursive: true, force: true });
  }
});

test('convert: a missing source folder is a clear error', async () => {
  await assert.rejects(
    convertFlashToNitro({ from: join(tmpdir(), 'no-such-hotel-imager-dir'), to: tmp() }),
    /not a folder/,
  );
});

// ---------------------------------------------------------------------------------------------------
// The sample kit in the Flash layout (`sample-kit --layout flash`) through SWF → convert → render.
// Three folders: the Flash kit, the Nitro folder `convert` makes from it, and the Nitro kit itself.
//
// What the Flash layout cannot carry, so the comparisons with the Nitro kit allow exactly this:
// - kit_panel_copy_64_b_2_0 (purple at alpha 160): SWF bitmaps are premultiplied, and green 79 and blue
//   200 have no premultiplied value at alpha 160 that reads back exactly; they read back as 80 and 199.
//   Its still and bundle differ by that (its icon draws only layer a), nothing else does.
// - Size s: the Flash kit's hh_human_50_* SWFs position their sh_ sprites, as real Flash hotels do, so
//   size s draws them (doubled, halved back); the Nitro kit, like real Nitro bundles, lost those offsets
//   and halves the h sprites. With the Flash hotel's small sprites switched off, size s is identical too.
// - Gamedata the XML has no place for: HabboAvatarActions.json's actionOffsets (unused by the renderer)
//   and the furnidata's empty category, which the XML reader defaults to "unknown".
// ---------------------------------------------------------------------------------------------------
interface KitFolders {
  root: string;
  flash: string;
  converted: string;
  nitro: string;
  report: Awaited<ReturnType<typeof convertFlashToNitro>>;
}
let kitFolders: Promise<KitFolders> | undefined;
function sampleKitFolders(): Promise<KitFolders> {
  kitFolders ??= (async () => {
    const root = tmp();
    const flash = join(root, 'flash');
    const nitro = join(root, 'nitro');
    const converted = join(root, 'converted');
    await writeSampleKit(flash, { layout: 'flash' });
    await writeSampleKit(nitro);
    const report = await convertFlashToNitro({ from: flash, to: converted });
    return { root, flash, converted, nitro, report };
  })();
  return kitFolders;
}
after(async () => {
  if (kitFolders) rmSync((await kitFolders).root, { recursive: true, force: true });
});

const OK_ITEMS = KIT_ITEMS.filter(readableBundle);
const BROKEN_ITEMS = KIT_ITEMS.filter(brokenBundle);
/** The one sprite whose colours a premultiplied SWF bitmap cannot hold exactly (see above). */
const LOSSY_SPRITE = 'kit_panel_copy_64_b_2_0';
const plain = (v: unknown) => JSON.parse(JSON.stringify(v));

/** What a premultiplied SWF bitmap keeps of a sprite: alpha exact, colour × alpha within one level. */
function assertPremultipliedClose(back: RgbaImage, img: RgbaImage, name: string): void {
  assert.deepEqual([back.width, back.height], [img.width, img.height], `${name}: size`);
  for (let i = 0; i < img.data.length; i += 4) {
    const a = img.data[i + 3]!;
    assert.equal(back.data[i + 3], a, `${name}: alpha is exact`);
    for (let c = 0; c < 3; c++)
      assert.ok(
        Math.abs(back.data[i + c]! - img.data[i + c]!) * a <= 255,
        `${name}: premultiplied colour within one level`,
      );
  }
}

test('sample kit, Flash layout: deterministic files in the Flash places; every SWF and XML document reads back to the Nitro kit', async () => {
  const { flash, nitro } = await sampleKitFolders();
  const files: { path: string; data: Buffer }[] = [];
  for await (const f of sampleKitStream({ layout: 'flash' })) files.push(f);
  for (const f of files)
    assert.deepEqual(readFileSync(join(flash, f.path)), f.data, `${f.path} is the same bytes on a second run`);
  const paths = files.map((f) => f.path);
  assert.deepEqual(paths.slice(0, 3), [
    'gamedata/figuredata.xml',
    'gamedata/figuremap.xml',
    'gamedata/HabboAvatarActions.xml',
  ]);
  assert.ok(paths.includes('gamedata/furnidata.xml'));
  // Figure libraries in FigureMap order, then the effect SWFs that sit beside them.
  assert.deepEqual(
    paths.filter((p) => p.startsWith('gordon/')),
    [...LIBRARIES.map((l) => `gordon/${l.name}.swf`), ...effectMapJson().effects.map((e) => `gordon/${e.lib}.swf`)],
  );
  assert.deepEqual(
    paths.filter((p) => p.startsWith('hof_furni/')).sort(),
    [...OK_ITEMS, ...BROKEN_ITEMS].map((it) => `hof_furni/${it.revision}/${it.classname}.swf`).sort(),
    'one SWF per item under its furnidata revision; the missing-bundle item has none',
  );
  for (const f of files.filter((x) => x.path.endsWith('.swf'))) {
    if (BROKEN_ITEMS.some((it) => f.path.endsWith(`/${it.classname}.swf`))) continue;
    assert.equal(f.data.toString('latin1', 0, 3), 'CWS', `${f.path} is zlib-compressed like real SWFs`);
  }

  // Furni: the SWF reads back to the very JSON of the Nitro kit's bundle, and the same pixels.
  for (const it of OK_ITEMS) {
    // Every size the kit has (the chair's size 32 too): the SWF writer leaves nothing out.
    const swf = await readFurniSwf(
      readFileSync(join(flash, 'hof_furni', String(it.revision), `${it.classname}.swf`)),
      `${it.classname}.swf`,
      { keepAllSizes: true },
    );
    const bundle = await readAssetLibrary(
      readFileSync(join(nitro, 'bundled', 'furniture', `${it.classname}.nitro`)),
      `${it.classname}.nitro`,
    );
    assert.deepEqual(plain(swf.data), plain(bundle.data), `${it.classname}: documents`);
    assert.deepEqual(
      [...swf.sprites.keys()].sort(),
      [...bundle.sprites.keys()].sort(),
      `${it.classname}: sprite names`,
    );
    for (const [name, img] of bundle.sprites) {
      const back = swf.sprites.get(name)!;
      if (name !== LOSSY_SPRITE) assert.ok(imagesEqual(back, img), `${name}: same pixels`);
      else {
        assert.ok(!imagesEqual(back, img), `${name}: the premultiplied loss shows (else this exception is stale)`);
        assertPremultipliedClose(back, img, name);
      }
    }
  }

  // Figure libraries: same assets, offsets and pixels; the small libraries position their sh_ sprites.
  for (const lib of LIBRARIES) {
    const swf = await readFigureSwf(readFileSync(join(flash, 'gordon', `${lib.name}.swf`)), `${lib.name}.swf`);
    const bundle = await readAssetLibrary(
      readFileSync(join(nitro, 'bundled', 'figure', `${lib.name}.nitro`)),
      `${lib.name}.nitro`,
    );
    assert.deepEqual([...swf.sprites.keys()].sort(), [...bundle.sprites.keys()].sort(), `${lib.name}: sprite names`);
    for (const [name, img] of bundle.sprites) {
      // The halved sh_ sprites have semi-transparent edges: exact where the premultiplied bitmap can hold them.
      if (name.startsWith('sh_')) assertPremultipliedClose(swf.sprites.get(name)!, img, `${lib.name} ${name}`);
      else assert.ok(imagesEqual(swf.sprites.get(name)!, img), `${lib.name} ${name}: same pixels`);
    }
    if (lib.name.startsWith('hh_human_50_')) {
      assert.deepEqual(bundle.data.assets, {}, 'the Nitro kit has no sh_ offsets');
      const names = Object.keys(swf.data.assets ?? {});
      assert.ok(
        names.length > 0 && names.every((n) => n.startsWith('sh_') && bundle.sprites.has(n)),
        `${lib.name}: every sh_ sprite positioned`,
      );
    } else {
      assert.deepEqual(plain(swf.data), plain(bundle.data), `${lib.name}: assets and offsets`);
    }
  }

  // Gamedata: the XML parses to the Nitro kit's JSON, less what the XML has no place for.
  const json = (p: string) => JSON.parse(readFileSync(join(nitro, 'gamedata', p), 'utf8'));
  const xml = (p: string) => readFileSync(join(flash, 'gamedata', p), 'utf8');
  assert.deepEqual(plain(parseFigureDataXml(xml('figuredata.xml'))), json('FigureData.json'));
  assert.deepEqual(plain(parseFigureMapXml(xml('figuremap.xml'))), json('FigureMap.json'));
  const { actionOffsets, ...actions } = json('HabboAvatarActions.json');
  assert.ok(actionOffsets, 'the Nitro kit has lay offsets the XML cannot carry');
  assert.deepEqual(plain(parseAvatarActionsXml(xml('HabboAvatarActions.xml'))), actions);
  const furni = json('FurnitureData.json');
  const widen = (rows: Record<string, unknown>[]) =>
    rows.map((r) => ({ ...r, category: r.category || 'unknown', environment: '', rare: false }));
  assert.deepEqual(plain(parseFurnidataXml(xml('furnidata.xml'))), {
    roomitemtypes: { furnitype: widen(furni.roomitemtypes.furnitype) },
    wallitemtypes: { furnitype: widen(furni.wallitemtypes.furnitype) },
  });
});

/** The published files of a corpus: renders and icons decoded, bundles as bytes. */
function corpusFile(dir: string, path: string): Buffer {
  return readFileSync(join(dir, path));
}

test('sample kit, Flash layout: convert reports the broken SWFs; the furni build over the Flash kit and over the converted folder publish byte-identical corpora; the Nitro kit publishes the same', async () => {
  const { root, flash, converted, nitro, report } = await sampleKitFolders();
  assert.deepEqual(report.figures.length, LIBRARIES.length);
  assert.deepEqual(
    report.furniture.map((e) => e.target).sort(),
    OK_ITEMS.map((it) => `bundled/furniture/${it.classname}.nitro`).sort(),
  );
  assert.deepEqual(
    report.failed.map((f) => f.source).sort(),
    BROKEN_ITEMS.map((it) => join('hof_furni', String(it.revision), `${it.classname}.swf`)).sort(),
  );
  for (const f of report.failed)
    assert.match(f.reason, new RegExp(`${basename(f.source).replace('.', '\\.')}`), 'the reason names the file');
  assert.deepEqual(report.superseded, []);
  assert.deepEqual(report.skipped, []);
  assert.deepEqual(
    report.effects.map((e) => e.target).sort(),
    effectMapJson()
      .effects.map((e) => `bundled/effect/${e.lib}.nitro`)
      .sort(),
    'effect SWFs become effect bundles',
  );
  assert.deepEqual(report.furnidataProblems, []);
  assert.deepEqual(
    await readFlashAvatarData(converted),
    {
      format: 1,
      smallSprites: true,
      drawOrder: parseDrawOrderXml(readFileSync(join(flash, 'gamedata', 'draworder.xml'), 'utf8')),
    },
    'the draw order travels in FlashAvatarData.json',
  );

  const out = (n: string) => join(root, `corpus-${n}`);
  const a = await runBuild({ assets: flash, out: out('flash'), jobs: 1, now: () => new Date(0) });
  const b = await runBuild({ assets: converted, out: out('converted'), jobs: 1, now: () => new Date(0) });
  const c = await runBuild({ assets: nitro, out: out('nitro'), jobs: 1, now: () => new Date(0) });
  assert.equal(a.layout, 'flash');
  assert.equal(b.layout, 'nitro');
  // Every base item with a readable SWF publishes its still (kit_vase_colors too: furnidata lists only its
  // colour rows) and, unless it has no icon layers, its icon.
  for (const it of OK_ITEMS)
    assert.ok(a.corpus.files[`furni-renders/${it.classname}.png`], `${it.classname} published`);
  for (const it of BROKEN_ITEMS)
    assert.equal(a.report.items[it.classname]?.status, 'failed', `${it.classname} fails in the Flash build`);
  for (const it of KIT_ITEMS.filter((x) => !readableBundle(x))) {
    assert.equal(
      a.report.items[it.classname]?.status,
      c.report.items[it.classname]?.status,
      `${it.classname}: same outcome as in the Nitro kit`,
    );
    assert.ok(!a.corpus.files[`furni-renders/${it.classname}.png`], `${it.classname} has no still`);
  }
  assert.equal(a.report.counts.failed, BROKEN_ITEMS.length);
  assert.deepEqual(a.report.counts, c.report.counts);
  assert.deepEqual(b.corpus.counts, a.corpus.counts);
  assert.deepEqual(b.corpus.files, a.corpus.files, 'Flash kit and converted folder: every file byte-identical');

  // The Nitro kit: the same files, byte-identical except the one item whose sprite SWF bitmaps cannot hold.
  // The chair's bundle is identical too: the build and the converter read a SWF with its size-32
  // visualization and sprites, so the Flash-built bundle carries them as the Nitro kit's does.
  assert.deepEqual(Object.keys(c.corpus.files), Object.keys(a.corpus.files));
  const differing = Object.keys(a.corpus.files).filter((p) => a.corpus.files[p]!.sha256 !== c.corpus.files[p]!.sha256);
  // (Its icon draws only layer a, so the icon is identical.)
  assert.deepEqual(differing, ['furni-renders/kit_panel_copy.png', 'hof_furni/61009/kit_panel_copy.bundle']);
  for (const p of differing.filter((x) => x.endsWith('.png'))) {
    const x = decodePngSync(corpusFile(out('flash'), p));
    const y = decodePngSync(corpusFile(out('nitro'), p));
    assert.deepEqual([x.width, x.height], [y.width, y.height], `${p}: same size`);
    for (let i = 0; i < x.data.length; i++) assert.ok(Math.abs(x.data[i]! - y.data[i]!) <= 1, `${p}: within one level`);
  }
});

test('sample kit, Flash layout: avatars through the service loader are pixel-identical from the SWFs and from the converted folder, and from the Nitro kit', async () => {
  const { flash, converted, nitro } = await sampleKitFolders();
  const swfHotel = await loadAvatarHotel(flash);
  const convHotel = await loadAvatarHotel(converted);
  const nitroHotel = await loadAvatarHotel(nitro);
  assert.equal(swfHotel.layout, 'flash');
  assert.equal(convHotel.layout, 'nitro');
  // (Every assert.ok here has a message: without one, Node re-parses the transpiled source to describe a failure, which takes minutes.)
  assert.ok(
    swfHotel.smallSprites && convHotel.smallSprites && !nitroHotel.smallSprites,
    'sh_ sprites: the Flash kit and its conversion have them, the Nitro kit has none',
  );
  assert.deepEqual(convHotel.sources, swfHotel.sources);
  assert.deepEqual(
    { ...swfHotel.sources, drawOrder: 'geometry' },
    nitroHotel.sources,
    'no avatar documents beyond the Nitro kit but draworder.xml: the same built-ins',
  );
  assert.equal(swfHotel.sources.drawOrder, 'hotel');
  // The Flash hotel without its sh_ sprites: size s halves h, as the Nitro kit does.
  const swfNoSmall = { ...swfHotel, smallSprites: false };

  const plainFig = 'hd-180-1.hr-115-61.ch-210-66.lg-270-82.sh-290-80';
  const busyFig =
    'hd-185-19.hr-515-45-40.ch-215-66-92.lg-275-82-62.sh-295-80-92.ha-1001-110-62.cc-3002-82-66.cp-3101-62.mc-3201-100.ea-1401-80.fa-1201-61.ca-1801-62.wa-2002-66-92.he-1601-85';
  const base: AvatarRequest = {
    figure: plainFig,
    direction: 2,
    headDirection: 2,
    size: 'm',
    action: parseAction(''),
    gesture: '',
    headOnly: false,
    animated: false,
    frames: 0,
  };
  const requests: AvatarRequest[] = [];
  const actions = [
    '',
    'std',
    'wav',
    'sit',
    'lay',
    'wlk',
    'spk',
    'respect',
    'blow',
    'laugh',
    'dance',
    'sleep',
    'crr=1',
    'crr=6',
    'drk=2',
    'drk=3',
    'sig=3',
    'sig=17',
    'wav,crr=1',
    'sit,drk=2',
    'wlk,spk',
  ];
  for (const action of actions.map(parseAction)) {
    for (let direction = 0; direction < 8; direction++)
      requests.push({
        ...base,
        figure: direction % 2 ? busyFig : plainFig,
        action,
        direction,
        headDirection: (direction + 1) % 8,
        animated: true,
      });
    for (const size of ['s', 'l'] as const)
      for (const direction of [1, 4, 6])
        requests.push({ ...base, size, action, direction, headDirection: direction, animated: true });
  }
  for (const gesture of ['sml', 'sad', 'agr', 'srp', 'spk', 'eyb']) {
    for (const size of ['s', 'm', 'l'] as const)
      requests.push(
        { ...base, figure: busyFig, size, gesture, direction: 3, headDirection: 3 },
        { ...base, size, gesture, direction: 5, headDirection: 4, action: parseAction('lay') },
      );
  }
  for (const size of ['s', 'm', 'l'] as const) {
    for (const direction of [0, 2, 3, 5, 7])
      requests.push({
        ...base,
        figure: busyFig,
        size,
        direction,
        headDirection: direction,
        headOnly: true,
        action: parseAction('spk'),
        animated: true,
      });
    requests.push(
      { ...base, size, action: parseAction('wav'), animated: true, frames: 3 },
      {
        ...base,
        figure: 'hd-600-8.ha-1003-85.ea-1402-62.lg-285-73',
        size,
        direction: 4,
        headDirection: 4,
        action: parseAction('lay'),
      },
    );
  }

  let smallDiffer = 0;
  let smallDrawn = 0;
  let handListed = 0;
  for (const req of requests) {
    const label = JSON.stringify(req);
    const ra = await renderAvatar(swfHotel, req);
    const rb = await renderAvatar(convHotel, req);
    assert.equal(rb.frames.length, ra.frames.length, label);
    ra.frames.forEach((f, i) => {
      assert.ok(hasVisiblePixel(f), `${label} frame ${i} is not blank`);
      assert.ok(imagesEqual(f, rb.frames[i]!), `${label} frame ${i}: SWF and converted identical`);
    });
    // The Nitro kit: identical at m and l; at s identical once the Flash hotel's sh_ sprites are off.
    // The kit's draworder.xml has the geometry's order for every posture, so the only differences are its
    // raised-hand lists (test/avatar/flash-draworder.test.ts): where the layer order is the same, so are the pixels.
    const rn = await renderAvatar(nitroHotel, req);
    const rf = req.size === 's' ? await renderAvatar(swfNoSmall, req) : ra;
    assert.equal(rn.frames.length, rf.frames.length, label);
    const layerOrder = (r: typeof ra) => r.layers.map((l) => `${l.frame}:${l.order}:${l.asset}`).join(' ');
    if (layerOrder(rf) !== layerOrder(rn)) {
      handListed++;
      assert.ok(
        /wav|respect|sig|crr|drk|blow|laugh/.test(req.action.text),
        `${label}: only a raised hand reorders the layers`,
      );
      continue;
    }
    rf.frames.forEach((f, i) =>
      assert.ok(imagesEqual(f, rn.frames[i]!), `${label} frame ${i}: Flash kit and Nitro kit identical`),
    );
    if (req.size === 's') {
      if (ra.layers.some((l) => l.asset.startsWith('sh_') && l.library.startsWith('hh_human_50_'))) smallDrawn++;
      if (ra.frames.some((f, i) => !imagesEqual(f, rn.frames[i]!))) smallDiffer++;
    }
  }
  assert.ok(requests.length > 300, `${requests.length} requests`);
  assert.ok(
    handListed > 0 && handListed < requests.length / 4,
    `${handListed} raised-hand renders take the hand lists`,
  );
  assert.ok(
    smallDrawn > 0 && smallDiffer > 0,
    `size s draws the Flash kit's own sh_ sprites (${smallDrawn} renders use them, ${smallDiffer} differ from halving)`,
  );
});

test('sample-kit --layout flash: writes the Flash kit (generated items too), stamped apart from the Nitro kit; bad flags are refused', async () => {
  const root = tmp();
  const saved = console.log;
  try {
    const out = join(root, 'kit');
    const program = new Command().exitOverride().configureOutput({ writeErr: () => undefined });
    registerSampleKitCommand(program);
    console.log = () => undefined;
    await program.parseAsync(['sample-kit', '--out', out, '--layout', 'flash', '--furni', '2'], { from: 'user' });
    console.log = saved;
    const stamp = (await readKitStamp(out))!;
    assert.equal(stamp.generatorVersion, `${generatorVersion()}+flash`, 'a Flash kit never passes for the Nitro kit');
    assert.deepEqual(stamp.options, { extraFurni: 2 });
    const generated = [1, 2]
      .map((i) => generatedSpec(i).classname)
      .map((cn) =>
        readdirSync(join(out, 'hof_furni'), { recursive: true })
          .map(String)
          .find((p) => p.endsWith(`${cn}.swf`)),
      );
    assert.ok(generated.every(Boolean), `generated items written: ${generated}`);
    const report = await convertFlashToNitro({ from: out, to: join(root, 'converted') });
    assert.equal(report.failed.length, BROKEN_ITEMS.length, 'only the deliberately broken SWFs fail');
    assert.equal(report.furniture.length, OK_ITEMS.length + 2);
    // ensureSampleKit for the Nitro layout rewrites a Flash kit in place (the stamps differ).
    const again = await ensureSampleKit(out, { extraFurni: 2 });
    assert.equal(again.written, true, 'the Nitro kit replaces the Flash kit');
    assert.ok(readdirSync(join(out, 'bundled', 'furniture')).length > 0, 'Nitro layout written');
    await assert.rejects(
      program.parseAsync(['sample-kit', '--out', out, '--layout', 'shockwave'], { from: 'user' }),
      /--layout must be one of nitro, flash, got "shockwave"/,
    );
    await assert.rejects(
      program.parseAsync(['sample-kit', '--out', out, '--layout', 'flash', '--contact-sheet', join(root, 's.png')], {
        from: 'user',
      }),
      /contact-sheet reads \.nitro bundles/,
    );
  } finally {
    console.log = saved;
    rmSync(root, { recursive: true, force: true });
  }
});

// Real data: a subset (all furni, the figure libraries one outfit needs at both sizes) keeps it quick.
const flash = realdata('flash');
const FIGURE_LIBS = ['body', 'face', 'hair', 'shirt', 'leg', 'shoe', 'item'].flatMap((n) => [
  `hh_human_${n}`,
  `hh_human_50_${n}`,
]);

function linkSubset(root: string, into: string): void {
  mkdirSync(join(into, 'gordon'), { recursive: true });
  symlinkSync(join(root, 'gamedata'), join(into, 'gamedata'));
  symlinkSync(join(root, 'hof_furni'), join(into, 'hof_furni'));
  for (const n of FIGURE_LIBS) symlinkSync(join(root, 'gordon', `${n}.swf`), join(into, 'gordon', `${n}.swf`));
}

test('convert real Flash data: every furni and figure library converts; renders from SWF and from the converted bundles are pixel-identical', {
  skip: flash.skip,
}, async () => {
  const from = tmp();
  const to = tmp();
  try {
    linkSubset(flash.path, from);
    const report = await convertFlashToNitro({ from, to });
    assert.deepEqual(report.failed, []);
    assert.equal(report.furniture.length, 36);
    assert.equal(report.figures.length, FIGURE_LIBS.length);
    assert.equal(report.gamedata.length, 5);

    for (const f of readdirSync(join(from, 'hof_furni')).filter((n) => n.endsWith('.swf'))) {
      const cn = f.replace(/\.swf$/, '');
      const swfLib = await readFurniSwf(readFileSync(join(from, 'hof_furni', f)), f);
      const a = furniModelFromLibrary(swfLib);
      const b = furniModelFromLibrary(
        await readAssetLibrary(readFileSync(join(to, 'bundled', 'furniture', `${cn}.nitro`)), `${cn}.nitro`),
      );
      const colors = Object.keys(swfLib.data.visualizations!.find((v) => v.size === 64)?.colors ?? {}).map(Number);
      for (const color of [0, ...colors]) {
        const sa = renderStill(a, color);
        const sb = renderStill(b, color);
        assert.equal(sa === null, sb === null, `${cn}*${color}: both render or neither`);
        if (sa && sb) assert.ok(imagesEqual(sa, sb), `${cn}*${color}: still identical`);
      }
      const ia = renderIcon(a);
      const ib = renderIcon(b);
      if (ia && ib) assert.ok(imagesEqual(ia, ib), `${cn}: icon identical`);
    }

    // The furni build pipeline over the Flash folder and over the converted folder publishes the same
    // corpus: every render, icon and bundle byte-identical (corpus.json lists each file's sha256).
    const corpusA = join(to, '..', `${basename(to)}-corpus-flash`);
    const corpusB = join(to, '..', `${basename(to)}-corpus-nitro`);
    try {
      const a = await runBuild({ assets: from, out: corpusA, jobs: 1, now: () => new Date(0) });
      const b = await runBuild({ assets: to, out: corpusB, jobs: 1, now: () => new Date(0) });
      assert.equal(a.layout, 'flash');
      assert.equal(b.layout, 'nitro');
      assert.equal(a.report.counts.failed, 0);
      assert.ok(a.corpus.counts.renders > 80, `${a.corpus.counts.renders} renders`);
      assert.deepEqual(b.corpus.counts, a.corpus.counts);
      assert.deepEqual(b.corpus.files, a.corpus.files);
    } finally {
      rmSync(corpusA, { recursive: true, force: true });
      rmSync(corpusB, { recursive: true, force: true });
    }

    // Both sides go through the avatar service's own loader: the Flash folder (SWFs + XML) and the
    // converted Nitro folder (bundles + JSON + the avatar documents carried over in FlashAvatarData.json).
    const swfHotel = await loadAvatarHotel(from);
    const nitroHotel = await loadAvatarHotel(to);
    assert.equal(swfHotel.layout, 'flash');
    assert.equal(nitroHotel.layout, 'nitro');
    const extras = (await readFlashAvatarData(to))!;
    assert.ok(
      extras.geometry && extras.animations && extras.partSets && extras.drawOrder && extras.smallSprites,
      'the converted folder carries every avatar document and the sh_ sprites',
    );
    assert.deepEqual(nitroHotel.sources, swfHotel.sources);
    const base: AvatarRequest = {
      figure: 'hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-61',
      direction: 2,
      headDirection: 2,
      size: 'm',
      action: parseAction(''),
      gesture: '',
      headOnly: false,
      animated: false,
      frames: 0,
    };
    const requests: AvatarRequest[] = [];
    for (const size of ['m', 's'] as const) {
      for (const action of ['', 'wav', 'sit', 'lay', 'crr=1', 'drk=2', 'sig=3', 'wlk', 'spk', 'respect', 'blow'].map(
        parseAction,
      )) {
        for (const direction of [0, 3, 4, 7])
          requests.push({ ...base, size, action, direction, headDirection: direction, animated: true });
      }
    }
    requests.push(
      { ...base, direction: 4, headDirection: 3, gesture: 'sml' },
      { ...base, direction: 7, headDirection: 7, headOnly: true },
    );
    for (const req of requests) {
      const ra = await renderAvatar(swfHotel, req);
      const rb = await renderAvatar(nitroHotel, req);
      assert.equal(ra.frames.length, rb.frames.length);
      ra.frames.forEach((fa: RgbaImage, i: number) => {
        assert.ok(hasVisiblePixel(fa), `${JSON.stringify(req)} frame ${i} is not blank`);
        assert.ok(imagesEqual(fa, rb.frames[i]!), `${JSON.stringify(req)} frame ${i} identical`);
      });
    }
  } finally {
    rmSync(from, { recursive: true, force: true });
    rmSync(to, { recursive: true, force: true });
  }
});
