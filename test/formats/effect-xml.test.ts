// Flash effect documents → Nitro JSON, as nitro-converter maps them (effect-xml.ts), and the effect SWF
// reader; the sample kit's Flash effects (round trip) are covered in test/convert-flash.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEffectAnimationXml, parseEffectMapXml } from '../../src/formats/gamedata/effect-xml.js';
import { readEffectHeader, readEffectSwf } from '../../src/formats/flash/effect-library.js';
import { FormatError } from '../../src/formats/errors.js';
import { effectSwf } from '../../src/samplekit/flash/effect-swf.js';
import { figureSwf } from '../../src/samplekit/flash/figure-swf.js';
import { effectLibraries } from '../../src/samplekit/avatar/effects.js';

test('effectmap.xml → EffectMap.json: ids kept as written, revision a number', () => {
  assert.deepEqual(
    parseEffectMapXml(
      '<map><effect id="dance.1" lib="Dance1" type="dance" revision="59200"/><effect id="2" lib="Hoverboard" type="fx"/></map>',
    ),
    {
      effects: [
        { id: 'dance.1', lib: 'Dance1', type: 'dance', revision: 59200 },
        { id: '2', lib: 'Hoverboard', type: 'fx' },
      ],
    },
  );
  assert.throws(
    () => parseEffectMapXml('<effects/>', 'e.xml'),
    (e: unknown) => e instanceof FormatError && /e\.xml.*expected <map>/.test(e.message),
  );
});

test('<animation> → the animations block, keyed by desc, every element the client reads, numbers as numbers', () => {
  const xml = `<animation name="fx.2" desc="Hoverboard" resetOnToggle="true">
    <direction offset="2"/>
    <shadow id="std_fx2_sd_1"/>
    <add id="fx2_3" align="bottom" blend="ADD" ink="33" base="fx2_3"/>
    <remove id="lg"/>
    <sprite id="avatar"/>
    <sprite id="fx2_1" directions="1" member="std_fx2_1_1" ink="8" staticY="1"><direction id="0" dz="-1"/><direction id="1" dx="2" dy="-3" dz="-1"/></sprite>
    <frame repeats="2"><fx id="avatar" frame="0" dy="-20"/><bodypart id="torso" frame="1" action="Default" dx="1" dy="2" dz="3" dd="4" base="x"><item id="ch" base="fx3_2"/></bodypart></frame>
    <frame><bodypart id="head" frame="0"/></frame>
    <avatar ink="37" foreground="FFFFFFFF" background="66000000"/>
    <override name="sit" override="sit"><frame><bodypart id="torso" frame="0" action="Sit"/></frame></override>
  </animation>`;
  assert.deepEqual(parseEffectAnimationXml(xml), {
    Hoverboard: {
      name: 'fx.2',
      desc: 'Hoverboard',
      resetOnToggle: true,
      directions: [{ offset: 2 }],
      shadows: [{ id: 'std_fx2_sd_1' }],
      adds: [{ id: 'fx2_3', align: 'bottom', blend: 'ADD', ink: 33, base: 'fx2_3' }],
      removes: [{ id: 'lg' }],
      sprites: [
        { id: 'avatar' },
        {
          id: 'fx2_1',
          directions: 1,
          member: 'std_fx2_1_1',
          ink: 8,
          staticY: 1,
          directionList: [
            { id: 0, dz: -1 },
            { id: 1, dx: 2, dy: -3, dz: -1 },
          ],
        },
      ],
      frames: [
        {
          repeats: 2,
          fxs: [{ id: 'avatar', frame: 0, dy: -20 }],
          bodyparts: [
            {
              id: 'torso',
              frame: 1,
              base: 'x',
              action: 'Default',
              dx: 1,
              dy: 2,
              dz: 3,
              dd: 4,
              items: [{ id: 'ch', base: 'fx3_2' }],
            },
          ],
        },
        { bodyparts: [{ id: 'head', frame: 0 }] },
      ],
      avatars: [{ ink: 37, foreground: 'FFFFFFFF', background: '66000000' }],
      overrides: [
        { name: 'sit', override: 'sit', frames: [{ bodyparts: [{ id: 'torso', frame: 0, action: 'Sit' }] }] },
      ],
    },
  });
  // Key order is the converter's, so converted bundles read like real ones.
  assert.deepEqual(Object.keys(parseEffectAnimationXml(xml).Hoverboard!), [
    'name',
    'desc',
    'resetOnToggle',
    'directions',
    'shadows',
    'adds',
    'removes',
    'sprites',
    'frames',
    'avatars',
    'overrides',
  ]);
  assert.throws(
    () => parseEffectAnimationXml('<frames/>', 'a.xml'),
    (e: unknown) => e instanceof FormatError && /a\.xml.*expected <animation>/.test(e.message),
  );
});

test('effect SWF: the library with its animations; only the animations without decoding bitmaps; a figure SWF is refused clearly', async () => {
  const lib = effectLibraries().find((l) => l.sprites.size > 0)!;
  const swf = effectSwf(lib);
  const back = await readEffectSwf(swf, `${lib.name}.swf`);
  assert.deepEqual(JSON.parse(JSON.stringify(back.library.data)), JSON.parse(JSON.stringify(lib.data)));
  assert.deepEqual([...back.library.sprites.keys()].sort(), [...lib.sprites.keys()].sort());
  assert.deepEqual((await readEffectHeader(swf, `${lib.name}.swf`)).animations, back.animations);
  await assert.rejects(readEffectSwf(figureSwf(lib), 'plain.swf'), /plain\.swf.*_animation is missing/);
});
