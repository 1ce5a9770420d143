// Badges drawn from the sample kit's own parts, in both layouts the kit is written in: every position,
// two-image parts, several bases, short and long forms, t parts, and the same bytes from the Nitro part
// library as from the Flash part files.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  fillBadge,
  loadBadgeHotel,
  parseBadgeCode,
  renderBadge,
  shockwavePosition,
  type BadgeHotel,
  type BadgeRender,
} from '../../src/badge/index.js';
import { alphaBounds, type RgbaImage } from '../../src/imaging/image.js';
import { decodeImage } from '../../src/imaging/codec.js';
import { writeSampleKit } from '../../src/samplekit/index.js';
import { convertFlashToNitro } from '../../src/convert/flash-to-nitro.js';
import { readFile } from 'node:fs/promises';
import { gifFramesRgba, readGif } from '../helpers/gif-reader.js';

let scratch: string;
let nitro: BadgeHotel;
let flash: BadgeHotel;

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'badge-kit-'));
  await writeSampleKit(join(scratch, 'nitro'));
  await writeSampleKit(join(scratch, 'flash'), { layout: 'flash' });
  const n = await loadBadgeHotel(join(scratch, 'nitro'));
  const f = await loadBadgeHotel(join(scratch, 'flash'));
  assert.ok(n.ok && f.ok, 'both kit layouts have badges');
  nitro = n.hotel;
  flash = f.hotel;
});

after(() => rm(scratch, { recursive: true, force: true }));

function draw(hotel: BadgeHotel, code: string, format: 'png' | 'gif' = 'png', fill = false): BadgeRender {
  const r = parseBadgeCode(code);
  assert.ok(r.ok, r.ok ? '' : r.reason);
  const out = renderBadge(hotel, r.parts, format, { layout: r.layout, fill });
  assert.ok(out.image, `${code} draws something`);
  return out;
}

const px = (img: RgbaImage, x: number, y: number) => {
  const i = (y * img.width + x) * 4;
  return (img.data[i]! << 16) | (img.data[i + 1]! << 8) | img.data[i + 2]!;
};
const alpha = (img: RgbaImage, x: number, y: number) => img.data[(y * img.width + x) * 4 + 3]!;

/** The box where two same-size images differ. */
function diffBox(a: RgbaImage, b: RgbaImage): [number, number, number, number] | null {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -1,
    y1 = -1;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      const i = (y * a.width + x) * 4;
      if (
        a.data[i] !== b.data[i] ||
        a.data[i + 1] !== b.data[i + 1] ||
        a.data[i + 2] !== b.data[i + 2] ||
        a.data[i + 3] !== b.data[i + 3]
      ) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
    }
  }
  return x1 < 0 ? null : [x0, y0, x1 - x0 + 1, y1 - y0 + 1];
}

test('the kit has both layouts: the Nitro part library and the Flash part files, one table', () => {
  assert.equal(nitro.images.size, 19);
  assert.deepEqual([...flash.images.keys()].sort(), [...nitro.images.keys()].sort());
  assert.match(nitro.origins[0]!.place, /bundled\/generic\/group_badge\.nitro$/);
  assert.match(flash.origins[0]!.place, /c_images\/Badgeparts$/);
  assert.equal(nitro.elements.bases.size, 5);
  assert.equal(nitro.elements.symbols.size, 12);
});

test('every position 0-8 puts the symbol in its cell of the 3×3 grid, tinted with its colour', () => {
  const base = draw(nitro, 'b01054').image!;
  const star = nitro.images.get('badgepart_kit_symbol_star')!;
  const starBox = alphaBounds(star)!;
  assert.equal(px(star, 6, 6), 0xffffff, 'the star is white at its centre');
  for (let p = 0; p <= 8; p++) {
    const img = draw(nitro, `b01054s0109${p}`).image!;
    const [cx, cy] = [13 * (p % 3), 13 * Math.floor(p / 3)];
    assert.deepEqual(
      diffBox(base, img),
      [cx + starBox.x, cy + starBox.y, starBox.width, starBox.height],
      `position ${p}`,
    );
    assert.equal(px(img, cx + 6, cy + 6), 0xff2d2d, `position ${p}: white × colour 9`);
  }
});

test('a two-image part: the first image tinted, the second (gold rim, red jewels) exactly as drawn', () => {
  const img = draw(nitro, 'b03034t01094').image!;
  assert.equal(px(img, 20, 4), 0xf0c040, 'the shield rim keeps its gold');
  assert.equal(px(nitro.images.get('badgepart_kit_base_shield_part2')!, 4, 10), 0xffffff);
  assert.equal(px(img, 4, 10), 0x84de00, 'the shield body: white stripe × colour 3');
  // crown (t01 = symbol 101) at position 4: 21×14 → (9, 12); its centre jewel is untinted red
  assert.equal(px(img, 9 + 10, 12 + 10), 0xd03030);
  assert.equal(px(img, 9 + 10, 12 + 3), 0xff2d2d, 'the crown body: white × colour 9');
});

test('several bases are drawn in code order, each in its own colour', () => {
  const img = draw(nitro, 'b01054b04134').image!;
  assert.equal(px(img, 3, 3), 0x50c1fb, 'square corner, outside the ring (white stripe × 50c1fb)');
  assert.equal(px(img, 19, 19), 0x373737, 'ring centre: white × 373737 over the square');
  assert.equal(
    draw(nitro, 'b04134b01054')
      .image!.data.subarray(19 * 39 * 4 + 19 * 4, 19 * 39 * 4 + 19 * 4 + 3)
      .join(),
    '80,193,251',
    'the other order: the square on top',
  );
});

test('short and long forms of the same parts give the same bytes; t parts are their symbol 100 up', () => {
  assert.ok(draw(nitro, 'b01054s01014').body.equals(draw(nitro, 'b001054s001014').body));
  assert.ok(draw(nitro, 't01114').body.equals(draw(nitro, 's101114').body));
  assert.ok(draw(nitro, 't54093').body.equals(draw(nitro, 's154093').body));
  // symbol 250 is reachable only by the long form
  assert.equal(draw(nitro, 's250124').plan.layers[0]!.image, 'badgepart_kit_symbol_block');
});

test('wide and tall symbols are pushed back inside the canvas', () => {
  const r = draw(nitro, 's06030s07035');
  assert.deepEqual(
    r.plan.layers.map((l) => [l.image, l.x, l.y]),
    [
      ['badgepart_kit_symbol_bar', 0, 3],
      ['badgepart_kit_symbol_stalk', 29, 6],
    ],
  );
});

test('the transparent outside stays transparent; a PNG and a GIF of the same code show the same pixels', async () => {
  const r = draw(nitro, 'b02074s05114');
  assert.equal(alpha(r.image!, 0, 0), 0);
  const png = await decodeImage(r.body);
  assert.deepEqual(Buffer.from(png.data), Buffer.from(r.image!.data));
  const gif = readGif(draw(nitro, 'b02074s05114', 'gif').body);
  assert.equal(gif.frames.length, 1);
  assert.equal(gif.loops, null, 'a still: no loop block');
  assert.deepEqual([gif.width, gif.height], [39, 39]);
  const rgba = gifFramesRgba(gif)[0]!;
  for (let y = 0; y < 39; y++) {
    for (let x = 0; x < 39; x++) {
      const a = alpha(r.image!, x, y);
      const g = rgba.subarray((y * 39 + x) * 4, (y * 39 + x) * 4 + 4);
      if (a === 0) assert.equal(g[3], 0, `${x},${y} transparent`);
      else assert.equal((g[0]! << 16) | (g[1]! << 8) | g[2]!, px(r.image!, x, y), `${x},${y}`);
    }
  }
});

test('the Nitro part library and the Flash part files give byte-identical badges, PNG and GIF', () => {
  const codes = [
    'b01054s01014',
    'b03034s04094s02110s03118',
    'b02074t01114s154093',
    's250124s06030s07035',
    'b05104s09114',
    'b04134s08114',
    'b01010b02023b03036b04046b05058',
  ];
  for (const code of codes) {
    for (const format of ['png', 'gif'] as const) {
      assert.ok(draw(nitro, code, format).body.equals(draw(flash, code, format).body), `${code}.${format}`);
    }
  }
});

test('same code, same bytes, every time', () => {
  const a = draw(nitro, 'b03034s04094s02110s03118').body;
  const b = draw(nitro, 'b03034s04094s02110s03118').body;
  assert.ok(a.equals(b));
});

test("convert turns the Flash kit's part files into the Nitro kit's part library; the table is copied", async () => {
  const to = join(scratch, 'converted');
  const report = await convertFlashToNitro({ from: join(scratch, 'flash'), to });
  assert.deepEqual(report.badges, [
    { source: 'gamedata/guilds_elements.csv', target: 'gamedata/guilds_elements.csv' },
    { source: 'c_images/Badgeparts', target: 'bundled/generic/group_badge.nitro' },
  ]);
  const lib = 'bundled/generic/group_badge.nitro';
  assert.ok(
    (await readFile(join(to, lib))).equals(await readFile(join(scratch, 'nitro', lib))),
    'the same library bytes as the Nitro kit',
  );
  const converted = await loadBadgeHotel(to);
  assert.ok(converted.ok);
  for (const code of ['b03034s04094s02110s03118', 'b02074t01114s154093'])
    assert.ok(draw(converted.hotel, code).body.equals(draw(nitro, code).body), code);
});

test('an element table over the decode budget is refused by name, not read whole', async () => {
  const { readBadgeSources } = await import('../../src/hotel/badge.js');
  const { setDecodeBudget, DEFAULT_DECODE_BUDGET_BYTES } = await import('../../src/imaging/decode-budget.js');
  const { writeFile } = await import('node:fs/promises');
  const dir = join(scratch, 'nitro');
  const table = join(dir, 'gamedata', 'guilds_elements.csv');
  const original = await readFile(table);
  setDecodeBudget(4096);
  try {
    await writeFile(table, Buffer.concat([original, Buffer.alloc(8192, '\n')]));
    const r = await readBadgeSources(dir);
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.reason, /guilds_elements\.csv: its \d+ bytes .*over the decode budget \(4 KiB a file\)/);
  } finally {
    setDecodeBudget(DEFAULT_DECODE_BUDGET_BYTES);
    await writeFile(table, original);
  }
  assert.equal((await readBadgeSources(dir)).ok, true, 'the same table within the budget reads');
});

test('a Shockwave-era code (X position) takes the same parts and colours, placed flush to the edges', () => {
  const base = draw(nitro, 'b0105X').image!;
  // b0105X is base 1 colour 5 at the top left: the client form's b01050 is the same picture on a 39×39 base
  assert.ok(base.data.every((v, i) => v === draw(nitro, 'b01050').image!.data[i]));
  const star = nitro.images.get('badgepart_kit_symbol_star')!;
  const starBox = alphaBounds(star)!;
  for (let p = 0; p <= 8; p++) {
    const img = draw(nitro, `b0105Xs0109${p}`).image!;
    const [x, y] = shockwavePosition(p, star.width, star.height);
    assert.deepEqual(
      diffBox(base, img),
      [x + starBox.x, y + starBox.y, starBox.width, starBox.height],
      `position ${p}`,
    );
    assert.equal(px(img, x + 6, y + 6), 0xff2d2d, `position ${p}: white × colour 9`);
  }
  // the classic CMS default draws, in both layouts of the kit alike
  const classic = draw(nitro, 'b0503Xs09114s05013s05015');
  assert.ok(classic.body.equals(draw(flash, 'b0503Xs09114s05013s05015').body));
  assert.notDeepEqual(
    classic.plan.layers.map((l) => [l.x, l.y]),
    draw(nitro, 'b05030s09114s05013s05015').plan.layers.map((l) => [l.x, l.y]),
    'not the client layout',
  );
});

test('badge-fill: transparent pixels become opaque white, opaque white becomes fefefe, the rest is kept', () => {
  const plain = draw(nitro, 's01114').image!; // the star, white × colour 11 (ffffff): white
  const filled = draw(nitro, 's01114', 'png', true).image!;
  assert.equal(alpha(plain, 0, 0), 0);
  assert.equal(alpha(filled, 0, 0), 255);
  assert.equal(px(filled, 0, 0), 0xffffff);
  assert.equal(px(plain, 13 + 6, 13 + 6), 0xffffff);
  assert.equal(px(filled, 13 + 6, 13 + 6), 0xfefefe);
  for (let i = 3; i < filled.data.length; i += 4) assert.equal(filled.data[i], 255, 'every pixel is opaque');
  const red = draw(nitro, 's01094', 'png', true).image!;
  assert.equal(px(red, 13 + 6, 13 + 6), 0xff2d2d, 'a colour that is not white is kept');
  // the same pass over a copy gives the same pixels (the route's GIF is the PNG's picture)
  const again = { ...plain, data: Uint8Array.from(plain.data) };
  fillBadge(again);
  assert.deepEqual(again.data, filled.data);
  const gif = readGif(draw(nitro, 's01114', 'gif', true).body);
  assert.deepEqual(gifFramesRgba(gif)[0], filled.data);
});
