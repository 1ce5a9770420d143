// Furni on demand on real Nitro bundles (../shared/realdata/nitro-rooms: 86 items and their FurnitureData.json;
// skipped when absent), through the service core the avatar service answers with: Chroma's default request is
// the still and icon=1 the icon the corpus build writes from the same file, byte for byte; then Chroma's
// parameters (direction, state, color, small, icon, shadow, crop, canvas) and vortex-imager's (id, size, bg,
// zoom) on items that have them. REALDATA_SHEETS=DIR writes a contact sheet of them to look at.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openFurniBundles } from '../../src/furni/bundles.js';
import { openHotelFurni, type HotelFurni } from '../../src/core/hotel-furni/index.js';
import { parseChromaQuery, parseVortexQuery } from '../../src/core/hotel-furni/params.js';
import { ImageCache } from '../../src/core/cache/image-cache.js';
import { inThreadFurniRenderer } from '../../src/core/render/furni-job.js';
import { furniLibraryLoader } from '../../src/hotel/furni.js';
import { furniModelFromLibrary } from '../../src/furni/model.js';
import { renderIcon, renderStill } from '../../src/furni/render.js';
import { encodePngCompact } from '../../src/imaging/png-compact.js';
import { decodeImage } from '../../src/imaging/codec.js';
import { type RgbaImage } from '../../src/imaging/image.js';
import { realdata, writeSheet } from '../helpers/realdata.js';

const rooms = realdata('nitro-rooms');
const skip = rooms.skip;
let furni: HotelFurni;
let classnames: string[] = [];

before(async () => {
  if (skip) return;
  const cache = new ImageCache({ memoryBytes: 64 * 1024 * 1024, diskBytes: 0 });
  await cache.open();
  furni = await openHotelFurni(rooms.path, () => openFurniBundles(rooms.path), {
    cache,
    render: inThreadFurniRenderer(),
  });
  classnames = (await readdir(join(rooms.path, 'bundled/furniture')))
    .filter((f) => f.endsWith('.nitro'))
    .map((f) => f.slice(0, -6))
    .sort();
});

async function chroma(query: string): Promise<Buffer | string> {
  const a = await furni.service.answer(parseChromaQuery(query), '');
  return a.kind === 'image' ? a.image.body : a.reason;
}

async function vortex(query: string): Promise<Buffer | string> {
  const a = await furni.service.answer(parseVortexQuery(query), '');
  return a.kind === 'image' ? a.image.body : a.reason;
}

async function image(body: Buffer | string, what: string): Promise<RgbaImage> {
  assert.ok(Buffer.isBuffer(body), `${what}: ${String(body)}`);
  return decodeImage(body);
}

test('every real item: the default request is the corpus still, icon=1 the corpus icon, byte for byte', {
  skip,
}, async () => {
  assert.equal(classnames.length, 86);
  const load = furniLibraryLoader('nitro');
  let icons = 0;
  for (const cn of classnames) {
    const file = join(rooms.path, 'bundled/furniture', `${cn}.nitro`);
    const model = furniModelFromLibrary(await load(await readFile(file), file));
    const still = renderStill(model, 0);
    assert.ok(still, cn);
    const body = await chroma(`sprite=${cn}&direction=2&canvas=transparent`);
    assert.ok(Buffer.isBuffer(body) && body.equals(encodePngCompact(still)), `${cn}: ${String(body).slice(0, 80)}`);
    const icon = renderIcon(model, 0);
    if (!icon) continue;
    icons++;
    const got = await chroma(`sprite=${cn}&icon=1`);
    assert.ok(Buffer.isBuffer(got) && got.equals(encodePngCompact(icon)), `${cn} icon`);
  }
  assert.ok(icons > 70, `${icons} icons`);
});

test("Chroma's parameters on real items: direction, state, color, small, icon, shadow, crop, canvas", {
  skip,
}, async () => {
  const sheet: RgbaImage[][] = [];
  const legend: string[] = [];
  const row = async (label: string, queries: string[], run = chroma) => {
    const cells: RgbaImage[] = [];
    for (const q of queries) cells.push(await image(await run(q), q));
    sheet.push(cells);
    legend.push(`${label}: ${queries.join(' | ')}`);
    return cells;
  };
  // Directions: a chair faces four ways, each picture its own.
  const dirs = await row(
    'directions',
    [0, 2, 4, 6].map((d) => `sprite=chair_plasto&direction=${d}`),
  );
  assert.equal(new Set(dirs.map((d) => Buffer.from(d.data).toString('base64'))).size, 4);
  // A direction the item lacks is the nearest it has: a plant has direction 0 only.
  assert.ok(
    ((await chroma('sprite=plant_yukka&direction=4')) as Buffer).equals((await chroma('sprite=plant_yukka')) as Buffer),
  );
  // States: off and on differ; a state the item lacks is state 0 (Chroma).
  const states = await row('states (lamp, door, window)', [
    'sprite=lamp_armas&state=0',
    'sprite=lamp_armas&state=1',
    'sprite=door&state=0',
    'sprite=door&state=1',
    'sprite=door&state=2',
    'sprite=es_window&state=0',
    'sprite=es_window&state=3',
  ]);
  assert.notDeepEqual(states[0]!.data, states[1]!.data);
  assert.ok(
    ((await chroma('sprite=lamp_armas&state=7')) as Buffer).equals(
      (await chroma('sprite=lamp_armas&state=0')) as Buffer,
    ),
  );
  // Colours: the colour row by id (FurnitureData) is the same picture as color=; each differs from the base.
  const colours = await row('colours (carpet_standard 0, 3, 6, 9; bed_polyfon 2, 9)', [
    'sprite=carpet_standard',
    'sprite=carpet_standard&color=3',
    'sprite=carpet_standard&color=6',
    'sprite=carpet_standard&color=9',
    'sprite=bed_polyfon&color=2',
    'sprite=bed_polyfon&color=9',
  ]);
  assert.notDeepEqual(colours[0]!.data, colours[1]!.data);
  assert.ok(
    ((await chroma('sprite=2828')) as Buffer).equals((await chroma('sprite=carpet_standard&color=3')) as Buffer),
  );
  // Small: size 32 from the size-64 art at half scale (nitro-converter bundles carry no size 32).
  const big = await image(await chroma('sprite=sofa_polyfon'), 'sofa');
  const [small] = await row('small (sofa, chair, bar)', [
    'sprite=sofa_polyfon&small=1',
    'sprite=chair_plasto&small=1&direction=4',
    'sprite=bar_basic&small=1',
  ]);
  assert.ok(Math.abs(small!.width - big.width / 2) <= 1 && Math.abs(small!.height - big.height / 2) <= 1);
  // Icons.
  const icons = await row('icons', ['sprite=chair_plasto&icon=1', 'sprite=fridge&icon=1', 'sprite=es_window&icon=1']);
  assert.ok(icons.every((i) => i.width < big.width));
  // Shadows: behind the item, larger box for items that have one.
  const shadows = await row('shadow=1 (sofa, table, plant)', [
    'sprite=sofa_polyfon&shadow=1',
    'sprite=table_armas&shadow=1',
    'sprite=plant_yukka&shadow=1',
  ]);
  assert.ok(shadows[0]!.width * shadows[0]!.height > big.width * big.height);
  // Crop off: Chroma's 1200 × 1200 canvas; canvas: an opaque colour under the same crop.
  const full = await image(await chroma('sprite=sofa_polyfon&crop=0'), 'crop=0');
  assert.deepEqual([full.width, full.height], [1200, 1200]);
  const onWhite = await row('canvas (white, hex 3366cc)', [
    'sprite=sofa_polyfon&canvas=ffffff',
    'sprite=fridge&canvas=3366cc&direction=4',
  ]);
  assert.deepEqual([onWhite[0]!.width, onWhite[0]!.height], [big.width, big.height]);
  for (let i = 3; i < onWhite[0]!.data.length; i += 4) assert.equal(onWhite[0]!.data[i], 255);
  // vortex-imager's: id, size l (zoom 2) and bg.
  const v = await row(
    'vortex (id=2828, size=l, bg=ffcc00, zoom=3 wall item)',
    ['id=2828', 'class=chair_plasto&size=l&direction=4', 'class=fridge&bg=ffcc00', 'class=hc_wall_lamp&zoom=3'],
    vortex,
  );
  assert.deepEqual([v[1]!.width, v[1]!.height], [dirs[2]!.width * 2, dirs[2]!.height * 2]);
  writeSheet('hotel-furni', sheet, legend, 1);
});
