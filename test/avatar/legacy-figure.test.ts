// Pre-v18 numeric figures (Alcosmos's converter as Avatara4j runs it) on hand-made tables: the 25 digits'
// slices, the old colour list → hex → the first palette colour with that hex, shoes 730 → 3206, the hats of
// old hair sprites, what the tables lack, and the old figure list's XML as Avatara4j reads it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { convertLegacyFigure, isLegacyFigure } from '../../src/avatar/legacy-figure.js';
import { parseLegacyFigureDataXml } from '../../src/formats/gamedata/legacy-figure-xml.js';
import { type FigureDataPalette } from '../../src/formats/gamedata/figure-types.js';
import { OLD_FIGURE_XML } from '../helpers/legacy-figure-data.js';

const PALETTES: FigureDataPalette[] = [
  {
    id: 1,
    colors: [
      { id: 1, hexCode: 'EEC39A' },
      { id: 14, hexCode: 'F3D9A4' },
    ],
  },
  {
    id: 2,
    colors: [
      { id: 61, hexCode: '2E2A26' },
      { id: 45, hexCode: 'B0603A' },
      { id: 31, hexCode: 'D8B040' },
    ],
  },
  {
    id: 3,
    colors: [
      { id: 66, hexCode: 'C83C3C' },
      { id: 82, hexCode: '3C5AB4' },
      { id: 80, hexCode: '2A2A2A' },
      { id: 92, hexCode: 'F0F0F0' },
      // the same hex again further on: the first one found wins
      { id: 1408, hexCode: 'C83C3C' },
    ],
  },
];

const data = { entries: parseLegacyFigureDataXml(OLD_FIGURE_XML), palettes: PALETTES };

test('the old figure list: one entry per clothing element, with its sprite, parts and colours', () => {
  assert.equal(data.entries.length, 8);
  assert.deepEqual(data.entries[0], {
    gender: 'male',
    type: 'hr',
    sprite: 100,
    parts: [{ type: 'hr', id: 1 }],
    colours: ['2E2A26', 'b0603a'],
  });
  assert.deepEqual(
    data.entries.find((e) => e.sprite === 630),
    { gender: 'female', type: 'ch', sprite: 630, parts: [{ type: 'ch', id: 2 }], colours: ['3C5AB4'] },
  );
  assert.throws(() => parseLegacyFigureDataXml('<figuredata/>', 'x.xml'), /x\.xml: the root is <figuredata>/);
});

test('25 digits: hr, hd, lg, sh, ch sprite (3) + colour index (2), written hr.hd.ch.lg.sh', () => {
  // hr 100 colour 2 (b0603a → 45), hd 180 colour 1 (→ 1), lg 270 colour 1 (→ 80), sh 290 colour 1 (→ 92),
  // ch 210 colour 1 (c83c3c → 66, the first of the two palette colours with that hex)
  const r = convertLegacyFigure('1000218001270012900121001', data);
  assert.deepEqual(r, { ok: true, figure: 'hr-100-45.hd-180-1.ch-210-66.lg-270-80.sh-290-92', missing: [] });
});

test('shoes 730 become set 3206; a hair sprite that had a hat gets it, in the hair colour', () => {
  const r = convertLegacyFigure('8020118002270017300121002', data);
  assert.ok(r.ok);
  assert.equal(r.figure, 'hr-802-31.hd-180-14.ch-210-82.lg-270-80.sh-3206-80.ha-1013-31');
});

test('a colour the tables lack is left out and listed; no colour index 0', () => {
  const r = convertLegacyFigure('1000918000270012900121099', data);
  assert.ok(r.ok);
  assert.equal(r.figure, 'hr-100.hd-180.ch-210.lg-270-80.sh-290-92');
  assert.deepEqual(r.missing, ['hr sprite 100 colour 9', 'hd sprite 180 colour 0', 'ch sprite 210 colour 99']);
  // A sprite the list does not have keeps its number as the set, without a colour.
  const unknown = convertLegacyFigure('5550118001270012900121001', data);
  assert.ok(unknown.ok);
  assert.match(unknown.figure, /^hr-555\.hd-180-1/);
});

test('anything but exactly 25 digits is not a numeric figure', () => {
  assert.ok(isLegacyFigure('1000118001270012900121001'));
  for (const f of ['100011800127001290012100', '10001180012700129001210011', 'hd-180-1', '100011800127001290012100a']) {
    assert.equal(isLegacyFigure(f), false, f);
    const r = convertLegacyFigure(f, data);
    assert.ok(!r.ok);
    assert.match(r.reason, /is not a pre-v18 figure \(25 digits\)/);
  }
});
