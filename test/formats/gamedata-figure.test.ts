import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAvatarActionsXml, parseFigureDataXml, parseFigureMapXml } from '../../src/formats/gamedata/figure-xml.js';
import {
  parseAnimationXml,
  parseDrawOrderXml,
  parseGeometryXml,
  parsePartSetsXml,
} from '../../src/formats/gamedata/avatar-xml.js';
import { FormatError } from '../../src/formats/errors.js';
import { realdata } from '../helpers/realdata.js';

test('figuredata.xml → FigureData.json shape', () => {
  const xml = `<figuredata><colors><palette id="3"><color id="61" index="0" club="2" selectable="1">2D2D2D</color></palette></colors>
    <sets><settype type="ha" paletteid="3" mand_m_0="0" mand_f_0="1" mand_m_1="0" mand_f_1="0">
      <set id="1001" gender="U" club="0" colorable="1" selectable="1" preselectable="1">
        <part id="2" type="ha" colorable="1" index="0" colorindex="1"/>
        <hiddenlayers><layer parttype="hr"/></hiddenlayers>
      </set></settype></sets></figuredata>`;
  assert.deepEqual(parseFigureDataXml(xml), {
    palettes: [{ id: 3, colors: [{ id: 61, index: 0, club: 2, selectable: true, hexCode: '2D2D2D' }] }],
    setTypes: [
      {
        type: 'ha',
        paletteId: 3,
        mandatory_f_0: true,
        mandatory_f_1: false,
        mandatory_m_0: false,
        mandatory_m_1: false,
        sets: [
          {
            id: 1001,
            gender: 'U',
            club: 0,
            colorable: true,
            selectable: true,
            preselectable: true,
            sellable: false,
            parts: [{ id: 2, type: 'ha', colorable: true, index: 0, colorindex: 1 }],
            hiddenLayers: [{ partType: 'hr' }],
          },
        ],
      },
    ],
  });
});

test('figuremap.xml → FigureMap.json shape', () => {
  assert.deepEqual(
    parseFigureMapXml(
      '<map><lib id="hh_human_body" revision="7"><part id="1" type="bd"/><part id="1" type="hd"/></lib></map>',
    ),
    {
      libraries: [
        {
          id: 'hh_human_body',
          revision: 7,
          parts: [
            { id: 1, type: 'bd' },
            { id: 1, type: 'hd' },
          ],
        },
      ],
    },
  );
});

test('HabboAvatarActions.xml → HabboAvatarActions.json shape (flags, prevents, params, effect types)', () => {
  const doc = parseAvatarActionsXml(`<actions>
    <action id="Default" precedence="1000" state="std" main="1" isdefault="1" geometrytype="vertical" activepartset="figure" assetpartdefinition="std"/>
    <action id="CarryItem" state="cri" precedence="205" geometrytype="vertical" activepartset="handRight" assetpartdefinition="crr" prevents="dance, usei">
      <param id="default" value="1"/><param id="3" value="2"/></action>
    <action id="AvatarEffect" state="fx" precedence="220" geometrytype="vertical" animation="1" assetpartdefinition="std">
      <type id="5" prevents="usei,cri"/><type id="32" animated="false" preventheadturn="true"/></action>
  </actions>`);
  assert.deepEqual(doc.actions, [
    {
      id: 'Default',
      state: 'std',
      precedence: 1000,
      main: true,
      isDefault: true,
      geometryType: 'vertical',
      activePartSet: 'figure',
      assetPartDefinition: 'std',
    },
    {
      id: 'CarryItem',
      state: 'cri',
      precedence: 205,
      geometryType: 'vertical',
      activePartSet: 'handRight',
      assetPartDefinition: 'crr',
      prevents: ['dance', 'usei'],
      params: [
        { id: 'default', value: '1' },
        { id: '3', value: '2' },
      ],
    },
    {
      id: 'AvatarEffect',
      state: 'fx',
      precedence: 220,
      geometryType: 'vertical',
      assetPartDefinition: 'std',
      animation: true,
      types: [
        { id: '5', prevents: ['usei', 'cri'] },
        { id: '32', animated: false, preventHeadTurn: true },
      ],
    },
  ]);
});

test('avatar animation, geometry, part sets and draw order XML → typed structures', () => {
  const anim =
    parseAnimationXml(`<animationSet><action id="Laugh"><part set-type="fc"><frame number="0" assetpartdefinition="sml" repeats="2"/></part>
    <offsets><frame id="0" repeats="2"><directions><direction id="2"><bodypart id="head" dx="0" dy="1"/></direction></directions></frame></offsets></action></animationSet>`);
  assert.deepEqual(anim, {
    actions: [
      {
        id: 'Laugh',
        parts: [{ setType: 'fc', frames: [{ number: 0, assetPartDefinition: 'sml', repeats: 2 }] }],
        offsets: [{ id: 0, repeats: 2, directions: [{ id: 2, bodyParts: [{ id: 'head', dx: 0, dy: 1 }] }] }],
      },
    ],
  });
  const geo = parseGeometryXml(`<geometry direction="0"><camera><x>0</x><y>0</y><z>10</z></camera>
    <canvas scale="h"><geometry id="vertical" width="90" height="130" dy="0" dx="0"/></canvas>
    <avatarset id="full"><avatarset id="body" main="1"><bodypart id="torso"/></avatarset></avatarset>
    <type id="vertical"><bodypart id="torso" x="0" y="0" z="0" radius="0.4"><item id="bd" x="0" y="0" z="0" radius="0.01" nx="0" ny="0" nz="-1" double="1"/></bodypart></type></geometry>`);
  assert.deepEqual(geo.camera, { x: 0, y: 0, z: 10 });
  assert.deepEqual(geo.canvases, [
    { scale: 'h', geometries: [{ id: 'vertical', width: 90, height: 130, dx: 0, dy: 0 }] },
  ]);
  assert.deepEqual(geo.avatarSets, [
    {
      id: 'full',
      main: false,
      bodyParts: [],
      avatarSets: [{ id: 'body', main: true, avatarSets: [], bodyParts: ['torso'] }],
    },
  ]);
  assert.deepEqual(geo.types[0]!.bodyParts[0]!.items[0], {
    id: 'bd',
    x: 0,
    y: 0,
    z: 0,
    radius: 0.01,
    nx: 0,
    ny: 0,
    nz: -1,
    double: true,
  });
  const ps =
    parsePartSetsXml(`<partSets><partSet><part set-type="rh" flipped-set-type="lh"/><part set-type="hrb" remove-set-type="hr"/><part set-type="sh" swim="0"/></partSet>
    <activePartSet id="handRight"><activePart set-type="rh"/><activePart set-type="ri"/></activePartSet></partSets>`);
  assert.deepEqual(ps, {
    parts: [
      { setType: 'rh', flippedSetType: 'lh', swim: true },
      { setType: 'hrb', removeSetType: 'hr', swim: true },
      { setType: 'sh', swim: false },
    ],
    activePartSets: [{ id: 'handRight', setTypes: ['rh', 'ri'] }],
  });
  assert.deepEqual(
    parseDrawOrderXml(
      '<actionSet><action id="std"><direction id="2"><partList><part set-type="bd"/><part set-type="hd"/></partList></direction></action></actionSet>',
    ),
    { actions: [{ id: 'std', directions: [{ id: 2, parts: ['bd', 'hd'] }] }] },
  );
  assert.throws(
    () => parseGeometryXml('<partSets/>', 'g.xml'),
    (e: unknown) => e instanceof FormatError && /g\.xml.*expected <geometry>/.test(e.message),
  );
  assert.throws(
    () => parseDrawOrderXml('<actionSet><action>', 'd.xml'),
    (e: unknown) => e instanceof FormatError && /d\.xml: not well-formed/.test(e.message),
  );
});

const flash = realdata('flash/gamedata');
const nitro = realdata('nitro/gamedata');
test('real figure gamedata XML parses into the Nitro JSON shapes', { skip: flash.skip || nitro.skip }, () => {
  const read = (dir: string, f: string) => readFileSync(join(dir, f), 'utf8');
  const fd = parseFigureDataXml(read(flash.path, 'figuredata.xml'));
  const fdj = JSON.parse(read(nitro.path, 'FigureData.json'));
  assert.deepEqual(Object.keys(fd), Object.keys(fdj));
  assert.deepEqual(Object.keys(fd.setTypes[0]!), Object.keys(fdj.setTypes[0]));
  assert.deepEqual(Object.keys(fd.palettes[0]!.colors[0]!), Object.keys(fdj.palettes[0].colors[0]));
  // Sets both releases share unchanged must come out identical (the JSON is a newer release).
  const byId = new Map<number, unknown>();
  for (const t of fdj.setTypes) for (const s of t.sets) byId.set(s.id, s);
  let identical = 0;
  for (const t of fd.setTypes)
    for (const s of t.sets) if (JSON.stringify(byId.get(s.id)) === JSON.stringify(s)) identical++;
  assert.ok(identical > 250, `${identical} identical sets`);
  assert.ok(fd.setTypes.some((t) => t.sets.some((s) => s.hiddenLayers?.length)));

  const fm = parseFigureMapXml(read(flash.path, 'figuremap.xml'));
  assert.ok(fm.libraries.length > 200);
  assert.ok(fm.libraries.some((l) => l.id === 'hh_human_body' && l.parts.some((p) => p.type === 'bd' && p.id === 1)));

  const ac = parseAvatarActionsXml(read(flash.path, 'HabboAvatarActions.xml'));
  const acj = JSON.parse(read(nitro.path, 'HabboAvatarActions.json'));
  for (const a of ac.actions) {
    const j = acj.actions.find((x: { id: string }) => x.id === a.id);
    assert.ok(j, `action ${a.id} in the JSON too`);
    assert.deepEqual(
      Object.keys(a).sort(),
      Object.keys(j)
        .filter((k) => k !== 'types' || a.types)
        .sort(),
      a.id,
    );
    assert.equal(a.precedence, j.precedence, a.id);
  }

  const anim = parseAnimationXml(read(flash.path, 'HabboAvatarAnimation.xml'));
  const move = anim.actions.find((a) => a.id === 'Move')!;
  assert.deepEqual(
    move.parts.find((p) => p.setType === 'bd')!.frames.map((f) => f.number),
    [0, 1, 2, 3],
  );
  assert.ok(anim.actions.find((a) => a.id === 'Laugh')!.offsets.length > 0);
  const geo = parseGeometryXml(read(flash.path, 'HabboAvatarGeometry.xml'));
  assert.deepEqual(
    geo.canvases.find((c) => c.scale === 'h')!.geometries.find((g) => g.id === 'vertical'),
    { id: 'vertical', width: 90, height: 130, dx: 0, dy: 0 },
  );
  const torso = geo.types.find((t) => t.id === 'vertical')!.bodyParts.find((b) => b.id === 'torso')!;
  assert.equal(torso.items.find((i) => i.id === 'ch')!.radius, 0.04);
  const ps = parsePartSetsXml(read(flash.path, 'HabboAvatarPartSets.xml'));
  assert.equal(ps.parts.find((p) => p.setType === 'rh')!.flippedSetType, 'lh');
  assert.deepEqual(ps.activePartSets.find((a) => a.id === 'handRight')!.setTypes.slice(0, 2), ['rh', 'rhs']);
  assert.ok(parsePartSetsXml(read(flash.path, 'partsets.xml'), 'partsets.xml').parts.length > 20);
  const dr = parseDrawOrderXml(read(flash.path, 'draworder.xml'));
  assert.equal(dr.actions.find((a) => a.id === 'std')!.directions.length, 8);
  assert.ok(parseAnimationXml(read(flash.path, 'animation.xml'), 'animation.xml').actions.some((a) => a.id === 'wlk'));
});
