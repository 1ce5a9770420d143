import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readAssetLibrary, readAssetNames, writeAssetLibrary, packShelves } from '../../src/formats/asset-library.js';
import { readNitroBundle, writeNitroBundle } from '../../src/formats/nitro-container.js';
import { createImage, imagesEqual } from '../../src/imaging/image.js';
import { encodePngCompact } from '../../src/imaging/png-compact.js';
import { realdata } from '../helpers/realdata.js';

function solid(w: number, h: number, rgba: [number, number, number, number]) {
  const img = createImage(w, h);
  for (let i = 0; i < w * h; i++) img.data.set(rgba, i * 4);
  return img;
}

test('sprites survive a write/read round trip pixel for pixel', async () => {
  const sprites = new Map([
    ['lib_64_a_2_0', solid(5, 7, [255, 0, 0, 255])],
    ['lib_64_b_2_0', solid(3, 2, [0, 0, 255, 128])],
    ['lib_64_c_2_0', solid(1, 1, [0, 0, 0, 0])],
  ]);
  const bundle = await writeAssetLibrary({
    name: 'lib',
    data: { name: 'lib', assets: { lib_64_a_2_0: { x: 3, y: 4 } } },
    sprites,
  });
  const back = await readAssetLibrary(bundle, 'lib.nitro');
  assert.equal(back.name, 'lib');
  assert.deepEqual(back.data.assets, { lib_64_a_2_0: { x: 3, y: 4 } });
  assert.equal(back.data.spritesheet, undefined);
  for (const [k, v] of sprites) assert.ok(imagesEqual(back.sprites.get(k)!, v), k);
  assert.deepEqual(await writeAssetLibrary(back), bundle, 'deterministic');
});

test('asset names come from the JSON document alone: a bundle whose image does not inflate still lists them', async () => {
  const sprites = new Map([['h_std_ch_210_2_0', solid(2, 2, [1, 2, 3, 255])]]);
  const bundle = await writeAssetLibrary({
    name: 'shirt',
    data: {
      name: 'shirt',
      assets: { h_std_ch_210_2_0: { x: 1, y: 2 }, h_std_ls_210_2_0: { x: 1, y: 2, source: 'h_std_ch_210_2_0' } },
      aliases: { h_lsp_ch_210_2_0: { link: 'h_lay_ch_210_2_0' } },
    } as never,
    sprites,
  });
  assert.deepEqual(readAssetNames(bundle, 'shirt.nitro'), ['h_std_ch_210_2_0', 'h_std_ls_210_2_0', 'h_lsp_ch_210_2_0']);
  // Same bundle with the PNG's deflate stream broken: names still read, the full library does not.
  const files = readNitroBundle(bundle);
  const broken = writeNitroBundle(
    [...files].map(([n, d]) => [n, n.endsWith('.png') ? Buffer.alloc(8, 7) : d] as [string, Uint8Array]),
  );
  const raw = Buffer.from(broken);
  const pngAt = raw.indexOf(Buffer.from('shirt.png', 'latin1'));
  raw[pngAt + 9 + 4] ^= 0xff; // the first byte of its zlib stream
  assert.deepEqual(readAssetNames(raw, 'shirt.nitro'), ['h_std_ch_210_2_0', 'h_std_ls_210_2_0', 'h_lsp_ch_210_2_0']);
  await assert.rejects(readAssetLibrary(raw, 'shirt.nitro'));
});

test('a frame packed rotated (TexturePacker: 90° clockwise in the atlas) reads back upright, trimmed ones at their source size', async () => {
  // Upright 3×2 sprite, every pixel its own colour.
  const upright = createImage(3, 2);
  for (let i = 0; i < 6; i++) upright.data.set([10 * (i + 1), 0, 200 - i, 255], i * 4);
  // The atlas holds it turned clockwise at (1, 1): 2 wide, 3 tall. Upright (u, v) → atlas (1 + 1 - v, 1 + u).
  const atlas = createImage(4, 5);
  for (let v = 0; v < 2; v++)
    for (let u = 0; u < 3; u++)
      atlas.data.set(upright.data.subarray((v * 3 + u) * 4, (v * 3 + u) * 4 + 4), ((1 + u) * 4 + 1 + 1 - v) * 4);
  const frame = {
    frame: { x: 1, y: 1, w: 3, h: 2 },
    rotated: true,
    trimmed: false,
    spriteSourceSize: { x: 0, y: 0, w: 3, h: 2 },
    sourceSize: { w: 3, h: 2 },
  };
  const trimmed = { ...frame, trimmed: true, spriteSourceSize: { x: 2, y: 1, w: 3, h: 2 }, sourceSize: { w: 6, h: 4 } };
  const doc = {
    name: 'r',
    spritesheet: { meta: { image: 'r.png' }, frames: { 'r_plain.png': frame, 'r_trim.png': trimmed } },
  };
  const bundle = writeNitroBundle([
    ['r.json', Buffer.from(JSON.stringify(doc))],
    ['r.png', encodePngCompact(atlas)],
  ]);
  const lib = await readAssetLibrary(bundle, 'r.nitro');
  assert.ok(imagesEqual(lib.sprites.get('plain.png')!, upright));
  const full = lib.sprites.get('trim.png')!;
  assert.deepEqual([full.width, full.height], [6, 4]);
  const expected = createImage(6, 4);
  for (let v = 0; v < 2; v++) expected.data.set(upright.data.subarray(v * 12, v * 12 + 12), ((1 + v) * 6 + 2) * 4);
  assert.ok(imagesEqual(full, expected));
  // A rotated frame that would run past the atlas (its atlas size is h × w) is refused.
  const outside = {
    ...doc,
    spritesheet: { ...doc.spritesheet, frames: { 'r_x.png': { ...frame, frame: { x: 3, y: 1, w: 3, h: 2 } } } },
  };
  await assert.rejects(
    readAssetLibrary(
      writeNitroBundle([
        ['r.json', Buffer.from(JSON.stringify(outside))],
        ['r.png', encodePngCompact(atlas)],
      ]),
      'r.nitro',
    ),
    /sprite r_x\.png lies outside the 4x5 atlas/,
  );
});

test('writeAssetLibrary names frames as asked (the group badge library: badgepart_<name>.png)', async () => {
  const bundle = await writeAssetLibrary(
    {
      name: 'group_badge',
      data: { name: 'group_badge' },
      sprites: new Map([['badgepart_x', solid(2, 3, [9, 9, 9, 255])]]),
    },
    { frameName: (s) => `${s}.png` },
  );
  const doc = JSON.parse(readNitroBundle(bundle).get('group_badge.json')!.toString('utf8')) as {
    spritesheet: { frames: Record<string, unknown> };
  };
  assert.deepEqual(Object.keys(doc.spritesheet.frames), ['badgepart_x.png']);
});

test('shelf packing never overlaps', () => {
  const items = Array.from({ length: 40 }, (_, i) => ({
    key: `k${i}`,
    width: 1 + ((i * 7) % 23),
    height: 1 + ((i * 13) % 17),
  }));
  const { placements, width, height } = packShelves(items);
  for (const a of placements) {
    assert.ok(a.x + a.width <= width && a.y + a.height <= height);
    for (const b of placements) {
      if (a === b) continue;
      const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
      assert.ok(!overlap, `${a.key} overlaps ${b.key}`);
    }
  }
});

const body = realdata('nitro/bundled/figure/hh_human_body.nitro');
test('real hh_human_body: h_std_bd_1_2_0 has offset -22,50 and size 25x57', { skip: body.skip }, async () => {
  const lib = await readAssetLibrary(readFileSync(body.path), 'hh_human_body.nitro');
  assert.equal(lib.name, 'hh_human_body');
  assert.deepEqual(lib.data.assets!['h_std_bd_1_2_0'], { x: -22, y: 50 });
  const s = lib.sprites.get('h_std_bd_1_2_0')!;
  assert.equal(s.width, 25);
  assert.equal(s.height, 57);
});

const chair = realdata('nitro/bundled/furniture/chair_plasty.nitro');
test('real furni bundle: aliases have no sprite, real assets do', { skip: chair.skip }, async () => {
  const lib = await readAssetLibrary(readFileSync(chair.path), 'chair_plasty.nitro');
  assert.equal(lib.data.assets!['chair_plasty_64_a_4_0']!.source, 'chair_plasty_64_a_2_0');
  assert.ok(lib.sprites.has('chair_plasty_64_a_2_0'));
  assert.ok(!lib.sprites.has('chair_plasty_64_a_4_0'));
  assert.equal(lib.data.visualizations!.length, 2);
});
