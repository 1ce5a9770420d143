// The client's layout rules (GroupBadgePart.calculatePosition, BadgeImageManager.renderGroupBadge) on
// hand-made data: positions worked out by hand for every cell and several image sizes, the tint the
// client computes from a table value, and which images of a part are drawn and tinted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  clientTint,
  parseBadgeCode,
  partPosition,
  partTexture,
  planBadge,
  drawBadge,
  shockwavePosition,
  type BadgeHotel,
} from '../../src/badge/index.js';
import { parseGuildElementsCsv } from '../../src/formats/guild-elements.js';
import { createImage, type RgbaImage } from '../../src/imaging/image.js';

test('every position of a 13×13 image is its cell; 9 lands in the bottom-left cell (pushed back up)', () => {
  const got = Array.from({ length: 10 }, (_, p) => partPosition(p, 13, 13));
  assert.deepEqual(got, [
    [0, 0],
    [13, 0],
    [26, 0],
    [0, 13],
    [13, 13],
    [26, 13],
    [0, 26],
    [13, 26],
    [26, 26],
    [0, 26],
  ]);
});

test('odd sizes are centred and floored; images wider or taller than a cell are kept inside the canvas', () => {
  const at = (w: number, h: number) => Array.from({ length: 9 }, (_, p) => partPosition(p, w, h));
  // 8×13: x = 13·col + 2.5 → floor
  assert.deepEqual(at(8, 13), [
    [2, 0],
    [15, 0],
    [28, 0],
    [2, 13],
    [15, 13],
    [28, 13],
    [2, 26],
    [15, 26],
    [28, 26],
  ]);
  // 16×15: col 0 and row 0 would start at -1.5/-1 (→ 0), col 2 and row 2 would pass the edge (→ 23, 24)
  assert.deepEqual(at(16, 15), [
    [0, 0],
    [11, 0],
    [23, 0],
    [0, 12],
    [11, 12],
    [23, 12],
    [0, 24],
    [11, 24],
    [23, 24],
  ]);
  // 39×39 is always at the origin; 39×7 keeps x 0 and moves down the rows; 7×27 clamps at the top and bottom
  assert.ok(at(39, 39).every(([x, y]) => x === 0 && y === 0));
  assert.deepEqual(
    at(39, 7).map(([, y]) => y),
    [3, 3, 3, 16, 16, 16, 29, 29, 29],
  );
  assert.deepEqual(
    at(7, 27)
      .map(([x, y]) => [x, y])
      .filter((_, i) => i % 3 === 1),
    [
      [16, 0],
      [16, 6],
      [16, 12],
    ],
  );
  // larger than the canvas: pushed left/up past the origin (the client's picture then grows)
  assert.deepEqual(partPosition(4, 41, 40), [-2, -1]);
});

test('the tint is parseInt(value, 16) as PixiJS 6 packs it: unknown, empty or #-prefixed values are black', () => {
  assert.equal(clientTint('ffd601'), 0xffd601);
  assert.equal(clientTint('FFD601'), 0xffd601);
  assert.equal(clientTint('ff'), 0x0000ff);
  assert.equal(clientTint(' 84de00'), 0x84de00); // parseInt skips leading spaces
  assert.equal(clientTint('12zz'), 0x000012); // and stops at the first non-hex digit
  assert.equal(clientTint(undefined), 0);
  assert.equal(clientTint(''), 0);
  assert.equal(clientTint('#ffd601'), 0);
});

test('table names lose .png and .gif as the client strips them (first occurrence of each)', () => {
  assert.equal(partTexture('base_basic_1.gif'), 'badgepart_base_basic_1');
  assert.equal(partTexture('symbol_x.png'), 'badgepart_symbol_x');
  assert.equal(partTexture('odd.png.gif'), 'badgepart_odd');
  assert.equal(partTexture('plain'), 'badgepart_plain');
});

function solid(w: number, h: number, rgb: number, alpha = 255): RgbaImage {
  const img = createImage(w, h);
  for (let i = 0; i < w * h; i++) img.data.set([(rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255, alpha], i * 4);
  return img;
}

function hotel(csv: string, images: Record<string, RgbaImage>): BadgeHotel {
  return {
    elements: parseGuildElementsCsv(csv),
    images: new Map(Object.entries(images).map(([k, v]) => [`badgepart_${k}`, v])),
    identity: 'test',
    elementsFile: 'test.csv',
    origins: [],
    files: [],
    unreadable: [],
  };
}

const TABLE = `"1","square.gif",,"base","1"
"2","under.gif","over.gif","base","1"
"3","nothere.gif","over.gif","symbol","1"
"4","gone.gif",,"symbol","1"
"5","huge.gif",,"symbol","1"
"1","ff0000",,"base_color","1"
"2","00ff00",,"base_color","1"
"7","0000ff",,"symbol_color","1"
`;
const IMAGES = {
  square: solid(39, 39, 0xffffff),
  under: solid(39, 39, 0xffffff),
  over: solid(5, 5, 0x808080),
  huge: solid(41, 41, 0xffffff),
};

function plan(code: string) {
  const r = parseBadgeCode(code);
  assert.ok(r.ok);
  const h = hotel(TABLE, IMAGES);
  const p = planBadge(h, r.parts);
  return { p, h };
}

test('a two-image part: the first is tinted with the part colour, the second drawn as it is, both at the same cell rule', () => {
  const { p, h } = plan('b02024');
  assert.deepEqual(
    p.layers.map((l) => [l.image, l.tint, l.x, l.y]),
    [
      ['badgepart_under', 0x00ff00, 0, 0],
      ['badgepart_over', undefined, 17, 17],
    ],
  );
  const img = drawBadge(h, p);
  const px = (x: number, y: number) => [...img.data.subarray((y * 39 + x) * 4, (y * 39 + x) * 4 + 4)];
  assert.deepEqual(px(0, 0), [0, 255, 0, 255]); // white × 00ff00
  assert.deepEqual(px(19, 19), [128, 128, 128, 255]); // the overlay, untinted
});

test("symbols and bases both take the base_color table (symbol_color is the editor's palette only); an unknown colour id draws black", () => {
  const { p } = plan('b01074s03024b01994');
  assert.deepEqual(
    p.layers.map((l) => l.tint),
    [0, 0x00ff00, 0],
  );
  assert.deepEqual(
    p.layers.map((l) => l.colorValue),
    [undefined, '00ff00', undefined],
  );
});

test('the client skips what it cannot find: an unknown id, a missing image; a missing first image makes the second the tinted one', () => {
  const { p } = plan('b09014s04014s03014b01010');
  assert.deepEqual(
    p.layers.map((l) => [l.part, l.image, l.tint]),
    [
      [2, 'badgepart_over', 0xff0000],
      [3, 'badgepart_square', 0xff0000],
    ],
  );
  assert.deepEqual(p.skipped, [
    'part 0 (b09014): the table has no base 9',
    'part 1 (s04014): no image badgepart_gone for symbol 4',
    'part 2 (s03014): no image badgepart_nothere for symbol 3',
  ]);
  assert.equal(plan('s04014').p.layers.length, 0);
});

test("an image larger than the canvas grows the picture up and left, as the client's bounds do", () => {
  const { p, h } = plan('b01014s05014');
  assert.deepEqual([p.width, p.height, p.originX, p.originY], [41, 41, 2, 2]);
  assert.deepEqual(
    p.layers.map((l) => [l.x, l.y]),
    [
      [0, 0],
      [-2, -2],
    ],
  );
  const img = drawBadge(h, p);
  assert.deepEqual([img.width, img.height], [41, 41]);
});

test('Shockwave layout (Badger GetPosition): flush to the edges, integer halves, no position at the top left', () => {
  const at = (w: number, h: number) => [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8].map((p) => shockwavePosition(p, w, h));
  // 13×13: (39-13)/2 = 13; 39/2 - 13/2 = 19 - 6 = 13
  assert.deepEqual(at(13, 13), [
    [0, 0],
    [0, 0],
    [13, 0],
    [26, 0],
    [0, 13],
    [13, 13],
    [26, 13],
    [0, 26],
    [13, 26],
    [26, 26],
  ]);
  // 8×15: x centre (39-8)/2 = 15 (truncated), right 31; y middle 19 - 7 = 12, bottom 24 (position 6 too:
  // Badger would put it at 39 - 8 = 31, past the edge; see shockwavePosition)
  assert.deepEqual(at(8, 15), [
    [0, 0],
    [0, 0],
    [15, 0],
    [31, 0],
    [0, 12],
    [15, 12],
    [31, 12],
    [0, 24],
    [15, 24],
    [31, 24],
  ]);
});
