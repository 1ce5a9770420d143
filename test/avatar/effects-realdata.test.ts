// Real effect libraries (when ../shared/realdata is present): each of the 20 effects of
// realdata/nitro/bundled/effect renders at size m and l in directions 0-7, on the spec's canvas, and
// changes the pixels of the plain avatar. REALDATA_SHEETS=<dir> writes contact sheets (never commit them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  loadAvatarHotel,
  renderAvatar,
  type AvatarHotel,
  type AvatarRender,
  type AvatarRequest,
} from '../../src/avatar/index.js';
import { imagesEqual, type RgbaImage } from '../../src/imaging/image.js';
import { realdata, SHEETS, writeSheet } from '../helpers/realdata.js';
import { plainRequest, type RequestFields } from '../helpers/avatar-request.js';

const nitro = realdata('nitro');
const FIG = 'hd-180-1.hr-100-61.ch-210-66.lg-270-82.sh-290-80';
const EFFECTS = [
  'dance.1',
  'dance.2',
  'dance.3',
  'dance.4',
  '1',
  '2',
  '3',
  '5',
  '6',
  '7',
  '9',
  '12',
  '13',
  '16',
  '29',
  '102',
  '109',
  '113',
  '158',
  '197',
];

function req(over: Partial<RequestFields>): AvatarRequest {
  return plainRequest(FIG, { animated: true, ...over });
}
const fxOf = (id: string): Partial<RequestFields> =>
  id.startsWith('dance.') ? { dance: Number(id.slice(6)) } : { effect: Number(id) };

let hotel: AvatarHotel | undefined;
async function load(): Promise<AvatarHotel> {
  return (hotel ??= await loadAvatarHotel(nitro.path));
}

test('every real effect library is indexed by its animation names', { skip: nitro.skip }, async () => {
  const h = await load();
  // As many as the data has: the EffectMap entries whose library is in bundled/effect.
  const map = JSON.parse(readFileSync(join(nitro.path, 'gamedata', 'EffectMap.json'), 'utf8')) as {
    effects: { lib: string }[];
  };
  const present = new Set(readdirSync(join(nitro.path, 'bundled', 'effect')).map((f) => f.replace(/\.nitro$/, '')));
  assert.equal(h.effects.size, map.effects.filter((e) => present.has(e.lib)).length);
  assert.equal(h.effects.size, EFFECTS.length, 'the test exercises every one of them');
  for (const id of EFFECTS) {
    const [type, param] = id.startsWith('dance.') ? ['dance', id.slice(6)] : ['fx', id];
    assert.ok(h.effects.get(type!, param!), id);
  }
});

test('every real effect renders at m and l in directions 0-7 on the spec canvas and changes the pixels', {
  skip: nitro.skip,
}, async () => {
  const h = await load();
  const sheet: RgbaImage[][] = [];
  for (const size of ['m', 'l'] as const) {
    const [w, hgt] = size === 'm' ? [64, 110] : [128, 220];
    for (const id of EFFECTS) {
      const row: RgbaImage[] = [];
      for (let d = 0; d < 8; d++) {
        const plain = await renderAvatar(h, req({ size, direction: d, headDirection: d }));
        const r: AvatarRender = await renderAvatar(h, req({ size, direction: d, headDirection: d, ...fxOf(id) }));
        assert.ok(r.frames.length >= 1);
        assert.equal(r.frameTicks.length, r.frames.length);
        for (const f of r.frames) assert.deepEqual([f.width, f.height], [w, hgt], `${id} ${size} d${d}`);
        assert.ok(
          r.frames.some((f) => !imagesEqual(f, plain.frames[0]!)),
          `${id} ${size} d${d} changes the pixels`,
        );
        assert.ok(
          r.layers.some((l) => l.effect),
          `${id} has effect layers`,
        );
        if (size === 'm') row.push(r.frames[0]!);
      }
      if (size === 'm') sheet.push(row);
    }
  }
  if (SHEETS) writeSheet('effects-m-dirs', sheet, EFFECTS);
});

test('real loops: dance and effect frame counts and held frames', { skip: nitro.skip }, async () => {
  const h = await load();
  const frames = async (id: string) => {
    const r = await renderAvatar(h, req(fxOf(id)));
    return { n: r.frames.length, ticks: r.frameTicks.reduce((a, b) => a + b, 0), held: Math.max(...r.frameTicks) };
  };
  // Dance ticks: 8, 8, 10, 16 (Dance1-4's frame lists).
  assert.deepEqual((await frames('dance.1')).ticks, 8);
  assert.deepEqual((await frames('dance.3')).ticks, 10);
  const d4 = await frames('dance.4');
  assert.deepEqual([d4.n, d4.ticks], [16, 16]);
  // Staff: 8 frames, the last held 75 ticks.
  const staff = await frames('102');
  assert.deepEqual([staff.n, staff.ticks, staff.held], [8, 82, 75]);
  // Effects whose type says they do not animate are stills: Spotlight (1), Microphone (16), Medal (109).
  for (const id of ['1', '16', '109', '12', '13']) assert.equal((await frames(id)).n, 1, id);
});
