// The pet figure string (src/pet/figure.ts): what parsePetFigure accepts and refuses, and the strings the emulator
// (Arcturus RoomPetComposer and the getLook of its horse, monster plant and gnome pets) sends for stored pets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  type ArcturusPetRow,
  arcturusPetFigure,
  MAX_PET_FIGURE_LENGTH,
  PetFigureError,
  parsePetFigure,
  petFigureString,
} from '../../src/pet/figure.js';

test('parsePetFigure reads type, palette, colour, the head-only form and custom parts', () => {
  assert.deepEqual(parsePetFigure('0 1 ffffff 0'), {
    typeId: 0,
    paletteId: 1,
    color: 0xffffff,
    headOnly: false,
    customParts: [],
  });
  assert.deepEqual(parsePetFigure(' 15 2 FFAA00  2 2 -1 1 3 -1 1 '), {
    typeId: 15,
    paletteId: 2,
    color: 0xffaa00,
    headOnly: false,
    customParts: [
      { layerId: 2, partId: -1, paletteId: 1 },
      { layerId: 3, partId: -1, paletteId: 1 },
    ],
  });
  assert.deepEqual(parsePetFigure('1 4 ccc head 1 1 2 -1'), {
    typeId: 1,
    paletteId: 4,
    color: 0xccc,
    headOnly: true,
    customParts: [{ layerId: 1, partId: 2, paletteId: -1 }],
  });
  // What is left out takes the defaults: palette 0, white, no parts.
  assert.deepEqual(parsePetFigure('3'), { typeId: 3, paletteId: 0, color: 0xffffff, headOnly: false, customParts: [] });
  assert.deepEqual(parsePetFigure('3 2 ff0000'), {
    typeId: 3,
    paletteId: 2,
    color: 0xff0000,
    headOnly: false,
    customParts: [],
  });
  // One spelling back.
  assert.equal(petFigureString(parsePetFigure('0 1 FFFFFF 0')), '0 1 ffffff 0');
  assert.equal(petFigureString(parsePetFigure('1 4 ccc head 1 1 2 -1')), '1 4 ccc head 1 1 2 -1');
});

test('parsePetFigure refuses what is not a pet figure, saying what is wrong', () => {
  const refused: [string, RegExp][] = [
    ['', /starts with its type/],
    ['dog 1 ffffff 0', /starts with its type/],
    ['-1 0 ffffff 0', /starts with its type/],
    ['0 x ffffff 0', /palette must be a whole number \(got "x"\)/],
    ['0 1 red 0', /colour must be hex RRGGBB \(got "red"\)/],
    ['0 1 fffffff 0', /colour must be hex/],
    ['0 1 ffffff -1', /count of custom parts must be a whole number ≥ 0/],
    ['0 1 ffffff 1 2 -1', /1 custom part\(s\) need 3 numbers \(layer part palette each\), got 2/],
    ['0 1 ffffff 1 2 a 0', /a custom part is three whole numbers \(got "2 a 0"\)/],
    ['0 1 ffffff 0 7', /0 custom part\(s\) need 0 numbers/],
    ['0 '.repeat(MAX_PET_FIGURE_LENGTH), /at most 256 characters/],
  ];
  for (const [figure, message] of refused)
    assert.throws(
      () => parsePetFigure(figure),
      (e: unknown) => e instanceof PetFigureError && message.test(e.message),
    );
});

const row = (fields: Partial<ArcturusPetRow>): ArcturusPetRow => ({
  type: 0,
  race: 0,
  color: 'FFFFFF',
  hairStyle: -1,
  hairColor: -1,
  saddle: false,
  mp: { type: 0, color: 0, mouth: 0, mouthColor: 0, nose: 0, noseColor: 0, eyes: 0, eyesColor: 0 },
  gnomeData: '',
  ...fields,
});

test("arcturusPetFigure gives the emulator's strings: a dog, horses, a monster plant, a gnome", () => {
  const figures = [
    // Every ordinary pet: its tail (layer 2) and emoticon (layer 3) layers named, in palette 0.
    [row({ type: 0, race: 3, color: 'FFFFFF' }), '0 3 FFFFFF 2 2 -1 0 3 -1 0'],
    // A horse: hair style and colour on layers 2 and 3, the saddle (part 9) on layer 4.
    [
      row({ type: 15, race: 2, color: 'FFFFFF', hairStyle: 5, hairColor: 6, saddle: true }),
      '15 2 FFFFFF 3 2 5 6 3 5 6 4 9 0',
    ],
    [row({ type: 15, race: 2, color: 'FFFFFF', hairStyle: 5, hairColor: 6 }), '15 2 FFFFFF 2 2 5 6 3 5 6'],
    // A monster plant: its stem (layer 0), body, mouth, nose and eyes from the mp_* columns.
    [
      row({
        type: 16,
        mp: { type: 3, color: 4, mouth: 5, mouthColor: 6, nose: 7, noseColor: 8, eyes: 9, eyesColor: 10 },
      }),
      '16 0 FFFFFF 5 0 -1 10 1 3 4 2 5 6 3 7 8 4 9 10',
    ],
    // A gnome: its stored parts as they are.
    [row({ type: 26, gnomeData: '4 0 -1 0 1 11 2 2 5 3 3 4 7' }), '26 0 FFFFFF 4 0 -1 0 1 11 2 2 5 3 3 4 7'],
  ] as const;
  for (const [r, want] of figures) {
    const figure = arcturusPetFigure(r);
    assert.equal(figure, want);
    assert.equal(parsePetFigure(figure).typeId, r.type, 'the emulator string parses');
  }
  assert.deepEqual(parsePetFigure('15 2 FFFFFF 3 2 5 6 3 5 6 4 9 0').customParts, [
    { layerId: 2, partId: 5, paletteId: 6 },
    { layerId: 3, partId: 5, paletteId: 6 },
    { layerId: 4, partId: 9, paletteId: 0 },
  ]);
});
