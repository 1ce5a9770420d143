// Real Habbo data (when ../shared/realdata is present): figures built from the hotel's FigureData render
// in every direction and pose from both layouts, with the body parts where they belong.
// Set REALDATA_SHEETS=<dir> (or AVATAR_SHEETS) to also write contact sheets there (never commit them: real art).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  encodeAvatar,
  loadAvatarHotel,
  renderAvatar,
  type AvatarHotel,
  type AvatarRequest,
  type DrawnLayer,
} from '../../src/avatar/index.js';
import { encodePng } from '../../src/imaging/codec.js';
import { drawSprite } from '../../src/imaging/composite.js';
import { createImage, type RgbaImage } from '../../src/imaging/image.js';
import { realdata, SHEETS, writeSheet } from '../helpers/realdata.js';
import { plainRequest, type RequestFields } from '../helpers/avatar-request.js';

const nitro = realdata('nitro');
const flash = realdata('flash');
const ok = (v: unknown, m = 'expected a truthy value') => assert.equal(!!v, true, m);

/** Common sets of each type that the hotel can draw (every part has a library), first few by id. */
function commonFigures(hotel: AvatarHotel, count: number): string[] {
  const pick = (type: string) => {
    const sets = [...(hotel.figure.sets.get(type)?.values() ?? [])]
      .filter(
        (s) =>
          s.parts.length > 0 && s.parts.every((p) => hotel.libraries.librariesFor(p.type, p.id).length > 0) && !s.club,
      )
      .sort((a, b) => a.id - b.id);
    return sets;
  };
  const types = ['hd', 'hr', 'ch', 'lg', 'sh'];
  const byType = types.map((t) => pick(t));
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const parts = byType
      .map((sets, j) =>
        sets.length ? `${types[j]}-${sets[(i * (j + 3)) % sets.length]!.id}-${[1, 61, 66, 82, 80][j]}` : '',
      )
      .filter(Boolean);
    out.push(parts.join('.'));
  }
  return out;
}

function req(figure: string, over: Partial<RequestFields>): AvatarRequest {
  return plainRequest(figure, over);
}

function box(layers: DrawnLayer[], type: string) {
  const l = layers.find((x) => x.partType === type);
  return l ? { x0: l.x, y0: l.y, x1: l.x + l.width, y1: l.y + l.height } : null;
}

function sheet(rows: RgbaImage[][]): RgbaImage {
  const w = Math.max(...rows.flat().map((i) => i.width)) + 2;
  const h = Math.max(...rows.flat().map((i) => i.height)) + 2;
  const out = createImage(w * Math.max(...rows.map((r) => r.length)), h * rows.length);
  rows.forEach((row, y) =>
    row.forEach((img, x) => {
      const bg = createImage(img.width, img.height);
      for (let i = 0; i < bg.data.length; i += 4) bg.data.set([205, 220, 235, 255], i);
      drawSprite(out, bg, x * w, y * h);
      drawSprite(out, img, x * w, y * h);
    }),
  );
  return out;
}

const POSES = ['std', 'wav', 'sit', 'lay', 'crr=2', 'sig=3', 'spk', 'drk=5', 'wlk', 'respect', 'blow'];
/** Spec §2.4: these loop 2 frames, every other pose is a still (test/realdata/avatar-frames.test.ts has the full table). */
const ANIMATED = new Set(['wav', 'spk', 'respect', 'blow']);

async function exercise(t: { diagnostic: (m: string) => void }, dir: string, label: string) {
  const started = Date.now();
  const hotel = await loadAvatarHotel(dir);
  const sheets = process.env.AVATAR_SHEETS ?? SHEETS;
  // Two figures keep the suite quick; contact sheets get four, one of them with a hat and glasses.
  const count = sheets ? 4 : 2;
  const figures = commonFigures(hotel, count);
  ok(figures.length === count && figures.every((f) => f.includes('hd-')), 'figures built from FigureData');
  if (sheets && hotel.figure.sets.get('ha')?.has(1001) && hotel.figure.sets.get('ea')?.has(1401))
    figures[count - 1] += '.ha-1001-62.ea-1401-62';
  for (const [fi, figure] of figures.entries()) {
    const rows: RgbaImage[][] = [];
    for (const action of POSES) {
      const row: RgbaImage[] = [];
      for (let d = 0; d < 8; d++) {
        const r = await renderAvatar(hotel, req(figure, { action, direction: d, headDirection: d, animated: true }));
        assert.equal(r.frames.length, ANIMATED.has(action) ? 2 : 1, `${label} ${figure} ${action} ${d}`);
        row.push(...r.frames);
        const f0 = r.layers.filter((l) => l.frame === 0);
        ok(
          f0.some((l) => l.partType === 'hd'),
          `${label} ${figure} ${action} ${d}: head drawn`,
        );
        if (action === 'std') {
          // heads on necks, legs under bodies: the head's lower edge meets the body's upper part
          const hd = box(f0, 'hd')!;
          const bd = box(f0, 'bd')!;
          ok(
            hd.y1 > bd.y0 && hd.y1 < bd.y0 + 15,
            `${label} ${figure} dir ${d}: head bottom ${hd.y1} near body top ${bd.y0}`,
          );
          ok(Math.abs((hd.x0 + hd.x1) / 2 - (bd.x0 + bd.x1) / 2) < 8, `${label} dir ${d}: head centred over body`);
          const lg = box(f0, 'lg');
          if (lg) ok(lg.y0 > bd.y0 && lg.y1 <= 110, `${label} dir ${d}: legs under the body`);
        }
      }
      rows.push(row);
    }
    for (const over of [
      { headOnly: true },
      { size: 's' as const },
      { size: 'l' as const },
      { size: 's' as const, action: 'lay' },
    ]) {
      const row: RgbaImage[] = [];
      for (let d = 0; d < 8; d++)
        row.push((await renderAvatar(hotel, req(figure, { direction: d, headDirection: d, ...over }))).frames[0]!);
      rows.push(row);
    }
    if (sheets) {
      await mkdir(sheets, { recursive: true });
      await writeFile(join(sheets, `${label}-${fi}.png`), await encodePng(sheet(rows)));
      // every pose at size s and l, headonly with every gesture, 8 directions each (frames side by side)
      for (const size of ['s', 'l'] as const) {
        const sized: RgbaImage[][] = [];
        for (const action of [...POSES, 'sit,wav', 'dance', 'laugh', 'sleep']) {
          const row: RgbaImage[] = [];
          for (let d = 0; d < 8; d++)
            row.push(
              ...(
                await renderAvatar(hotel, req(figure, { action, size, direction: d, headDirection: d, animated: true }))
              ).frames,
            );
          sized.push(row);
        }
        writeSheet(`avatar-${label}-${fi}-size-${size}`, sized, [
          figure,
          ...[...POSES, 'sit,wav', 'dance', 'laugh', 'sleep'].map(
            (a) => `${a}: 8 directions, animated frames side by side`,
          ),
        ]);
      }
      const heads: RgbaImage[][] = [];
      for (const gesture of ['std', 'sml', 'sad', 'agr', 'srp', 'eyb', 'spk']) {
        const row: RgbaImage[] = [];
        for (let d = 0; d < 8; d++)
          row.push(
            ...(
              await renderAvatar(
                hotel,
                req(figure, { gesture, headOnly: true, direction: d, headDirection: d, animated: true }),
              )
            ).frames,
          );
        heads.push(row);
      }
      writeSheet(
        `avatar-${label}-${fi}-headonly`,
        heads,
        [figure, 'gestures std sml sad agr srp eyb spk, 8 directions'],
        2,
      );
    }
  }
  const still = await encodeAvatar(await renderAvatar(hotel, req(figures[0]!, { action: 'wav', animated: true })));
  ok(still.includes(Buffer.from('acTL')), 'animated wave is an APNG');
  t.diagnostic(
    `${label}: ${figures.length} figures × ${POSES.length + 4} rows × 8 directions in ${Date.now() - started} ms; ${hotel.libraries.size} libraries loaded`,
  );
}

test('real Nitro data: common figures in every direction and pose', { skip: nitro.skip }, async (t) => {
  await exercise(t, nitro.path, 'nitro');
});

test('real Flash data: common figures in every direction and pose (hotel geometry, draw order, sh_ sprites)', {
  skip: flash.skip,
}, async (t) => {
  await exercise(t, flash.path, 'flash');
  const hotel = await loadAvatarHotel(flash.path);
  assert.deepEqual(hotel.sources, { geometry: 'hotel', partSets: 'hotel', animations: 'hotel', drawOrder: 'hotel' });
  const s = await renderAvatar(hotel, req('hd-180-1.ch-210-66.lg-270-82.sh-290-80', { size: 's' }));
  ok(
    s.layers.some((l) => l.asset.startsWith('sh_')),
    'size s uses the small sprites of the SWFs',
  );
  assert.deepEqual([s.width, s.height], [33, 56]);
});

// Issue 13's repros that the 106 libraries of ../shared/realdata/nitro can draw (the others need
// clothing libraries it lacks): the client's rules on real figure data, by layer (never by reference PNGs).
test('real Nitro data: the client rules on real figures (sleeves, afro, placeholder head, defaults, last set wins, real-world strings)', {
  skip: nitro.skip,
}, async () => {
  const hotel = await loadAvatarHotel(nitro.path);
  const layers = async (figure: string, over: Partial<RequestFields> = {}) =>
    (await renderAvatar(hotel, req(figure, over))).layers;
  const has = (ls: DrawnLayer[], type: string, id?: number) =>
    ls.find((l) => l.partType === type && (id === undefined || l.partId === id));
  // Sleeves of a basic shirt: FigureMap lists only ch 2 for ch-215; ls/rs 2 are in the same library.
  const shirt = await layers('hd-180-1.ch-215-66.lg-270-82.sh-290-80');
  const ch = has(shirt, 'ch')!;
  for (const t of ['ls', 'rs']) {
    const sleeve = has(shirt, t);
    ok(sleeve, `${t} drawn`);
    assert.equal(sleeve!.library, ch.library, `${t} from the shirt's library`);
    assert.equal(sleeve!.tint, ch.tint);
  }
  // The afro's back (hrb) at direction 3: not in FigureMap, in the hair's library.
  const afro = await layers('hd-180-1.hr-110-42.ch-215-66.lg-270-82', { direction: 3, headDirection: 3 });
  assert.equal(has(afro, 'hrb')?.library, has(afro, 'hr')?.library);
  // No hd: the untinted placeholder head, no face.
  const noHead = await layers('ch-210-66.lg-270-82.sh-290-91.hr-100-61');
  assert.equal(has(noHead, 'hd', 1)?.tint, null);
  assert.equal(has(noHead, 'fc'), undefined);
  assert.equal(has(noHead, 'ey'), undefined);
  // A man without ch gets no shirt; a missing mandatory default set is drawn as nothing, never refused.
  const bare = await layers('hd-180-1.hr-100-61', { direction: 3, headDirection: 3 });
  assert.equal(has(bare, 'ch'), undefined);
  const noLegs = await layers('hd-180-1.ch-215-66', { direction: 3, headDirection: 3 });
  for (const l of noLegs.filter((x) => x.partType === 'lg')) assert.equal(l.tint, null, 'default legs untinted');
  // A repeated set type: the last wins.
  const twice = await layers('hd-180-1.lg-270-82.ch-210-66.lg-280-110');
  assert.deepEqual(
    twice.filter((l) => l.partType === 'lg').map((l) => l.partId),
    [
      ...new Set(
        hotel.figure.sets
          .get('lg')!
          .get(280)!
          .parts.map((p) => p.id),
      ),
    ],
  );
  // Real-world strings render: an empty second colour and "undefined" are no colour.
  const wild = await layers('hd-180-1.hr-890-45-.ca-1810-undefined.ch-210-66-.lg-270-82');
  assert.equal(has(wild, 'ca')?.tint, null);
  ok(has(wild, 'hr'), 'hair drawn');
});

test('real Flash data: the waving arm is drawn over the head in directions 4-6 (draworder.xml lh-up), hrb over hr', {
  skip: flash.skip,
}, async () => {
  const hotel = await loadAvatarHotel(flash.path);
  const order = async (figure: string, over: Partial<RequestFields>) =>
    (await renderAvatar(hotel, req(figure, over))).layers
      .filter((l) => l.frame === 0)
      .sort((a, b) => a.order - b.order)
      .map((l) => l.partType);
  // The repros: direction 5 and 6 wave.
  for (const [figure, d] of [
    ['hd-180-1.ch-210-64.lg-280-64.sh-300-64', 5],
    ['hd-600-1.ch-630-64.lg-695-64.sh-725-64.fa-1203', 6],
  ] as const) {
    const o = await order(figure, { action: 'wav', direction: d, headDirection: d });
    ok(o.lastIndexOf('hd') < o.indexOf('lh') && o.lastIndexOf('hd') < o.indexOf('ls'), `wave ${d}: ${o.join(' ')}`);
    if (figure.includes('fa-')) ok(o.indexOf('fa') < o.indexOf('lh'), 'the arm is over the face accessory too');
    const still = await order(figure, { direction: d, headDirection: d });
    ok(still.indexOf('lh') < still.indexOf('hd'), `standing ${d}: the std list keeps the arm under the head`);
  }
  // The back hair of hr-890 sits in hh_human_hair though figuremap names hh_human_50_hair; every list draws it after hr.
  for (let d = 0; d < 8; d++) {
    const o = await order('hd-180-1.hr-890-45', { direction: d, headDirection: d });
    ok(o.includes('hrb') && o.indexOf('hr') < o.indexOf('hrb'), `hr-890 ${d}: ${o.join(' ')}`);
    const hat = await order('hd-180-1.hr-890-45.ha-1003-62', { direction: d, headDirection: d });
    ok(!hat.includes('hrb') && hat.includes('hr'), `hr-890 with ha-1003 ${d}: the hat hides hrb (its hiddenlayers)`);
  }
});
