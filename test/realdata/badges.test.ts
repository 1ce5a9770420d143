// Group badges on real data (when ../shared/realdata is present): the Nitro client's part library and the
// Flash-era part files, with the emulator's real guilds_elements table. The same code gives the same
// pixels (and bytes) from both layouts; every part of the table that has images draws; GIFs are the PNG's
// pixels with alpha thresholded. With REALDATA_SHEETS=<dir> a contact sheet of real badges is written
// there (on white and on dark grey, PNG and GIF side by side) to look at; it is never committed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { readNitroBundle } from '../../src/formats/nitro-container.js';
import {
  loadBadgeHotel,
  parseBadgeCode,
  renderBadge,
  shockwavePosition,
  type BadgeHotel,
  type BadgeRender,
} from '../../src/badge/index.js';
import { createImage, type RgbaImage } from '../../src/imaging/image.js';
import { drawSprite } from '../../src/imaging/composite.js';
import { gifFramesRgba, readGif } from '../helpers/gif-reader.js';
import { realdata, writeSheet } from '../helpers/realdata.js';

const nitroDir = realdata('nitro/bundled/generic/group_badge.nitro');
const flashDir = realdata('flash/c_images/Badgeparts');
const table = realdata('badge/guilds_elements.csv');
const skip = nitroDir.skip || flashDir.skip || table.skip;

/** The table's rows of one type (its fourth column), counted from the file itself. */
function rowsOfType(type: string): number {
  const rows = parse(readFileSync(table.path), { relax_column_count: true }) as string[][];
  return rows.filter((r) => r[3] === type).length;
}

async function load(layout: 'nitro' | 'flash'): Promise<BadgeHotel> {
  const r = await loadBadgeHotel(join(realdata(layout).path), { elementsFile: table.path });
  assert.ok(r.ok, r.ok ? '' : r.reason);
  return r.hotel;
}

function draw(hotel: BadgeHotel, code: string, format: 'png' | 'gif' = 'png', fill = false): BadgeRender {
  const p = parseBadgeCode(code);
  assert.ok(p.ok, p.ok ? '' : p.reason);
  const r = renderBadge(hotel, p.parts, format, { layout: p.layout, fill });
  assert.ok(r.image, `${code}: ${r.plan.skipped.join('; ')}`);
  return r;
}

/** Ids of table rows whose every named image the hotel has. */
function drawable(hotel: BadgeHotel, kind: 'bases' | 'symbols'): number[] {
  return [...hotel.elements[kind]]
    .filter(([, names]) =>
      names.every((n) => !n || hotel.images.has(`badgepart_${n.replace('.png', '').replace('.gif', '')}`)),
    )
    .map(([id]) => id)
    .sort((a, b) => a - b);
}

/** Same size, same alpha everywhere, same colour wherever a pixel shows (transparent pixels' RGB is not seen). */
function sameVisible(a: RgbaImage, b: RgbaImage): boolean {
  if (a.width !== b.width || a.height !== b.height) return false;
  for (let i = 0; i < a.data.length; i += 4) {
    if (a.data[i + 3] !== b.data[i + 3]) return false;
    if (
      a.data[i + 3] !== 0 &&
      (a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1] || a.data[i + 2] !== b.data[i + 2])
    )
      return false;
  }
  return true;
}

const part = (letter: 'b' | 's', id: number, color: number, position: number) =>
  id >= 100
    ? `${letter}${String(id).padStart(3, '0')}${String(color).padStart(2, '0')}${position}`
    : `${letter}${String(id).padStart(2, '0')}${String(color).padStart(2, '0')}${position}`;

test('real part images: the Nitro library (rotated and trimmed frames) equals the Flash files pixel for pixel', {
  skip,
}, async () => {
  const nitro = await load('nitro');
  const flash = await load('flash');
  // As many images as the data holds: the frames of the Nitro library's sheet, the Flash part files.
  const sheet = readNitroBundle(readFileSync(nitroDir.path)).get('group_badge.json')!;
  const frames = Object.keys(
    (JSON.parse(sheet.toString()) as { spritesheet: { frames: Record<string, unknown> } }).spritesheet.frames,
  );
  assert.equal(nitro.images.size, frames.length);
  assert.equal(flash.images.size, readdirSync(flashDir.path).filter((f) => f.startsWith('badgepart_')).length);
  for (const [name, img] of flash.images) assert.ok(sameVisible(img, nitro.images.get(name)!), name);
  // symbol_1 is packed rotated in the real sheet, base_gold_1_part2 trimmed: both back at their own size
  assert.deepEqual(
    [nitro.images.get('badgepart_symbol_1')!.width, nitro.images.get('badgepart_symbol_1')!.height],
    [8, 13],
  );
  assert.deepEqual(
    [nitro.images.get('badgepart_base_gold_1_part2')!.width, nitro.images.get('badgepart_base_gold_1_part2')!.height],
    [39, 39],
  );
});

test('real table: every base, symbol and base colour row is read, and every one draws from the Nitro library', {
  skip,
}, async () => {
  const nitro = await load('nitro');
  // Counted from the table file: its rows of each type.
  const [baseRows, symbolRows, colourRows] = [rowsOfType('base'), rowsOfType('symbol'), rowsOfType('base_color')];
  assert.ok(baseRows > 0 && symbolRows > 0 && colourRows > 0, 'the table has rows of each type');
  assert.equal(nitro.elements.bases.size, baseRows);
  assert.equal(nitro.elements.symbols.size, symbolRows);
  assert.equal(nitro.elements.baseColors.size, colourRows);
  const bases = drawable(nitro, 'bases');
  const symbols = drawable(nitro, 'symbols');
  assert.equal(bases.length, baseRows, 'every real base has its images');
  assert.equal(symbols.length, symbolRows, 'every real symbol has its images');
  for (const id of bases)
    assert.equal(
      draw(nitro, part('b', id, 1, 0)).plan.layers.length,
      nitro.elements.bases.get(id)!.filter(Boolean).length,
    );
  for (const id of symbols) draw(nitro, part('s', id, 11, 4));
});

test('the same code gives the same bytes from the Nitro library as from the Flash part files, PNG and GIF', {
  skip,
}, async () => {
  const nitro = await load('nitro');
  const flash = await load('flash');
  const bases = drawable(flash, 'bases');
  const symbols = drawable(flash, 'symbols');
  assert.ok(bases.length >= 5 && symbols.length >= 5, `${bases.length} bases and ${symbols.length} symbols in both`);
  let checked = 0;
  for (const [i, b] of bases.entries()) {
    for (const [j, s] of symbols.entries()) {
      const p = (i + j) % 9;
      const code = `${part('b', b, 1 + ((i * 5) % 24), 4)}${part('s', s, 1 + ((j * 7) % 24), p)}${part('s', symbols[(j + 1) % symbols.length]!, 13, (p + 4) % 9)}`;
      for (const format of ['png', 'gif'] as const) {
        assert.ok(draw(nitro, code, format).body.equals(draw(flash, code, format).body), `${code}.${format}`);
        checked++;
      }
    }
  }
  assert.ok(checked >= 50, `${checked} badges compared`);
});

test('real GIFs are the PNG pixels with alpha thresholded, one frame, 39×39', { skip }, async () => {
  const nitro = await load('nitro');
  for (const code of [
    'b27124s36124s05114a8a35b3ed8e01c8a7bcb1f6c6cb8d1ea',
    'b10014s04134',
    'b21104s03114s06074s157178',
  ]) {
    const png = draw(nitro, code).image!;
    const gif = readGif(draw(nitro, code, 'gif').body);
    assert.equal(gif.frames.length, 1);
    const rgba = gifFramesRgba(gif)[0]!;
    for (let i = 0; i < png.data.length; i += 4) {
      if (png.data[i + 3]! >= 128)
        assert.deepEqual([...rgba.subarray(i, i + 4)], [...png.data.subarray(i, i + 3), 255], `${code} @${i / 4}`);
      else assert.equal(rgba[i + 3], 0, `${code} @${i / 4}`);
    }
  }
});

/** A badge on an opaque background, 39×39 (the badge is always that size on real data). */
function onBackground(img: RgbaImage, rgb: number): RgbaImage {
  const out = createImage(img.width, img.height);
  for (let i = 0; i < out.data.length; i += 4) out.data.set([(rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255, 255], i);
  drawSprite(out, img, 0, 0);
  return out;
}

test('the classic CMS default b0503Xs09114s05013s05015 from the real parts: Shockwave slicing, edges, the table colours', {
  skip,
}, async () => {
  const nitro = await load('nitro');
  const r = draw(nitro, 'b0503Xs09114s05013s05015');
  const layers = r.plan.layers.map((l) => {
    const img = nitro.images.get(l.image)!;
    assert.deepEqual([l.x, l.y], shockwavePosition(l.position, img.width, img.height), l.image);
    return [l.image, l.position, l.tint?.toString(16).padStart(6, '0')];
  });
  assert.deepEqual(layers, [
    ['badgepart_base_basic_5', -1, '84de00'],
    ['badgepart_symbol_box_1', 4, 'ffffff'],
    ['badgepart_symbol_ball_2_part2', 3, 'ffd601'],
    ['badgepart_symbol_ball_2_part1', 3, undefined],
    ['badgepart_symbol_ball_2_part2', 5, 'ffd601'],
    ['badgepart_symbol_ball_2_part1', 5, undefined],
  ]);
  // symbol 5 at 3 lies on the left edge, at 5 on the right edge (the client would centre it in the cell)
  const ball = r.plan.layers[2]!;
  assert.equal(ball.x, 0);
  assert.equal(r.plan.layers[4]!.x, 39 - ball.width);
});

test('badge-fill on the real parts: every pixel opaque, the outside white, no pure white left', { skip }, async () => {
  const nitro = await load('nitro');
  for (const code of ['b27124s36124s05114', 'b0503Xs09114s05013s05015', 'b11114s01114']) {
    const plain = draw(nitro, code).image!;
    const filled = draw(nitro, code, 'png', true).image!;
    for (let i = 0; i < filled.data.length; i += 4) {
      const rgba = [...filled.data.subarray(i, i + 4)].join();
      assert.equal(filled.data[i + 3], 255, `${code}: pixel ${i / 4} opaque`);
      if (plain.data[i + 3] === 0) assert.equal(rgba, '255,255,255,255');
      else if ([...plain.data.subarray(i, i + 4)].join() === '255,255,255,255') assert.equal(rgba, '254,254,254,255');
      else assert.equal(rgba, [...plain.data.subarray(i, i + 4)].join());
    }
  }
});

test('contact sheet of real badges (REALDATA_SHEETS): PNG and GIF on white and on dark grey', {
  skip: skip || (!process.env.REALDATA_SHEETS && 'REALDATA_SHEETS is not set; no sheet to write'),
}, async () => {
  const nitro = await load('nitro');
  const bases = drawable(nitro, 'bases');
  const symbols = drawable(nitro, 'symbols');
  const codes = ['b27124s36124s05114a8a35b3ed8e01c8a7bcb1f6c6cb8d1ea', 'b06114s211244'];
  for (let k = 0; k < 46; k++) {
    const b = bases[(k * 11) % bases.length]!;
    const s1 = symbols[(k * 37) % symbols.length]!;
    const s2 = symbols[(k * 53 + 7) % symbols.length]!;
    codes.push(
      `${part('b', b, 1 + (k % 24), 4)}${part('s', s1, 1 + ((k * 5) % 24), 4)}${k % 3 ? part('s', s2, 1 + ((k * 7) % 24), k % 9) : ''}`,
    );
  }
  const rows: RgbaImage[][] = [];
  const legend: string[] = ['each badge: PNG on white, GIF on white, PNG on #2b2b2b, GIF on #2b2b2b'];
  for (let i = 0; i < codes.length; i += 6) {
    const row: RgbaImage[] = [];
    for (const code of codes.slice(i, i + 6)) {
      const png = draw(nitro, code).image!;
      const gif = readGif(draw(nitro, code, 'gif').body);
      const gifImg: RgbaImage = { width: gif.width, height: gif.height, data: gifFramesRgba(gif)[0]! };
      row.push(
        onBackground(png, 0xffffff),
        onBackground(gifImg, 0xffffff),
        onBackground(png, 0x2b2b2b),
        onBackground(gifImg, 0x2b2b2b),
      );
      legend.push(`row ${i / 6}: ${code}`);
    }
    rows.push(row);
  }
  writeSheet('badges', rows, legend, 3);
  // Shockwave-era codes and badge-fill: each code in the old layout, the client layout of the same
  // digits, and both filled, on dark grey (the fill's white shows against it).
  const old = ['b0503Xs09114s05013s05015', 'b1605Xs44024s17171', 'b1011Xs03010s04132s05148', 'b2802Xs26113s27171'];
  const legacyRows: RgbaImage[][] = [];
  const legacyLegend = ['each: Shockwave layout, client layout of the same digits, both badge-fill (on #2b2b2b)'];
  for (const code of old) {
    const client = code.replace(/X/g, '0');
    legacyRows.push(
      [draw(nitro, code), draw(nitro, client), draw(nitro, code, 'png', true), draw(nitro, client, 'png', true)].map(
        (d) => onBackground(d.image!, 0x2b2b2b),
      ),
    );
    legacyLegend.push(code);
  }
  writeSheet('badges-legacy', legacyRows, legacyLegend, 4);
});
