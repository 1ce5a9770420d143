// The sample kit's pet library (bundled/pet/dog.nitro, drawn by src/samplekit/pet/) read the way rooms and the pet
// picture read a hotel's libraries (src/pet/), and the pet in the kit's demo room.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeKitFrom } from '../../src/samplekit/index.js';
import { KIT_PET_PATH, petKitFiles } from '../../src/samplekit/pet/index.js';
import { demoRoom } from '../../src/samplekit/demo-room.js';
import { openPetLibraries } from '../../src/pet/libraries.js';
import { type PetModel } from '../../src/pet/model.js';
import { parsePetFigure } from '../../src/pet/figure.js';
import { drawPet, type PetSize } from '../../src/pet/picture.js';
import { type PetPose, petSprites } from '../../src/pet/render.js';
import { resolveLayer } from '../../src/furni/model.js';
import { flipHorizontal, hasVisiblePixel } from '../../src/imaging/image.js';

const filesP = petKitFiles();

/** The kit's dog as a hotel's pet libraries give it: written to a folder, looked up by type 0. */
const modelP = (async (): Promise<PetModel> => {
  const root = await mkdtemp(join(tmpdir(), 'kit-pet-'));
  try {
    const hotel = join(root, 'hotel');
    const files = async function* () {
      yield* await filesP;
    };
    await writeKitFrom(hotel, {}, files(), 'pet-only');
    const libraries = await openPetLibraries(hotel);
    const found = await libraries.pet(0);
    if (!found.ok) throw new Error(found.reason);
    const cat = await libraries.pet(1);
    assert.deepEqual(cat, { ok: false, reason: 'no pet library bundled/pet/cat.nitro' });
    return found.model;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
})();

const pose = (posture: string, direction: number, gesture = ''): PetPose => ({
  posture,
  gesture,
  direction,
  headDirection: direction,
  tick: 0,
});
const still = (model: PetModel, figure: string, p: PetPose, size: PetSize = 'm') =>
  drawPet(model, parsePetFigure(figure), p, { animated: false, size });

test('the kit writes bundled/pet/dog.nitro: the same bytes every run, a few kilobytes', async () => {
  const files = await filesP;
  assert.deepEqual(
    files.map((f) => f.path),
    ['bundled/pet/dog.nitro'],
  );
  assert.equal(KIT_PET_PATH, 'bundled/pet/dog.nitro');
  const again = await petKitFiles();
  assert.ok(files[0]!.data.equals(again[0]!.data), 'byte-identical between runs');
  assert.ok(files[0]!.data.length < 10_000, `${files[0]!.data.length} bytes`);
});

test('it reads as a pet library: palettes, postures, the gesture, tagged layers, eight directions', async () => {
  const model = await modelP;
  assert.equal(model.furni.def.classname, 'dog');
  assert.equal(model.size.size, 64);
  assert.equal(model.size.layerCount, 3);
  assert.deepEqual(
    [0, 1, 2].map((i) => resolveLayer(model.size, -1, i).tag),
    ['body', 'head', 'tail'],
  );
  assert.deepEqual(
    model.size.directions.map((d) => d.id),
    [0, 1, 2, 3, 4, 5, 6, 7],
  );
  assert.deepEqual(
    [...model.postures],
    [
      ['std', 0],
      ['eat', 4],
      ['lay', 6],
      ['sit', 10],
    ],
  );
  assert.equal(model.defaultPosture, 'std');
  assert.deepEqual([...model.gestures], [['sml', 27]]);
  // Three palettes of 256 colours; the fur's fully lit shade (grey 143) is each palette's own colour.
  assert.deepEqual([...model.palettes.keys()], ['0', '1', '2']);
  const fur = (id: string) => [...model.palettes.get(id)!.subarray(143 * 3, 144 * 3)];
  for (const table of model.palettes.values()) assert.equal(table.length, 768);
  assert.deepEqual(fur('0'), [0xc9, 0x8b, 0x4e]);
  assert.deepEqual(fur('1'), [0xe4, 0xe4, 0xe0]);
  assert.deepEqual(fur('2'), [0x3b, 0x36, 0x33]);
  // Drawn sprites and their flipped aliases go through the palette; the shadow does not.
  assert.ok(model.paletteAssets.has('dog_64_a_2_0'));
  assert.ok(model.paletteAssets.has('dog_64_b_4_2700'));
  assert.ok(!model.paletteAssets.has('dog_64_sd_2_0'));
  assert.equal(model.furni.sprites.get('dog_64_a_4_0')!.flipH, true);
  assert.equal(model.furni.sprites.get('dog_64_a_3_0')!.flipH, false);
  for (let d = 0; d < 8; d++) assert.ok(model.furni.sprites.has(`dog_64_sd_${d}_0`), `shadow ${d}`);
});

test('drawPet `0 1 ffffff 0`, std, direction 2: one 43 × 44 picture, the tile point at (20, 32)', async () => {
  const model = await modelP;
  const out = still(model, '0 1 ffffff 0', pose('std', 2))!;
  assert.equal(out.frames.length, 1);
  assert.deepEqual([out.frames[0]!.width, out.frames[0]!.height, out.originX, out.originY], [43, 44, 20, 32]);
  assert.ok(hasVisiblePixel(out.frames[0]!));
  // Sizes s and l halve (rounding down) and double it.
  const s = still(model, '0 1 ffffff 0', pose('std', 2), 's')!.frames[0]!;
  const l = still(model, '0 1 ffffff 0', pose('std', 2), 'l')!.frames[0]!;
  assert.deepEqual([s.width, s.height, l.width, l.height], [21, 22, 86, 88]);
  // The palettes give three different dogs of one shape.
  const dogs = ['0', '1', '2'].map((p) => still(model, `0 ${p} ffffff 0`, pose('std', 2))!.frames[0]!);
  for (const dog of dogs) assert.deepEqual([dog.width, dog.height], [43, 44]);
  assert.equal(new Set(dogs.map((d) => Buffer.from(d.data).toString('hex'))).size, 3);
});

test('the dog faces its direction: the head on that side, 4–6 the mirror pictures of 2–0', async () => {
  const model = await modelP;
  const figure = parsePetFigure('0 0 ffffff 0');
  const headX = (d: number) => {
    const head = petSprites(model, figure, pose('std', d)).find((s) => s.asset.startsWith('dog_64_b_'))!;
    return Math.sign(head.left + head.image.width / 2);
  };
  // 0 up-right, 1 right, 2 down-right, 3 down, 4 down-left, 5 left, 6 up-left, 7 up.
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 7].map(headX), [1, 1, 1, 0, -1, -1, -1, 0]);
  for (const [d, source] of [
    [4, 2],
    [5, 1],
    [6, 0],
  ] as const) {
    const a = still(model, '0 0 ffffff 0', pose('std', d))!;
    const b = still(model, '0 0 ffffff 0', pose('std', source))!;
    assert.deepEqual(a.frames[0], flipHorizontal(b.frames[0]!), `direction ${d} mirrors ${source}`);
  }
});

test('postures and the gesture pick their frames: sit 1000, lay 600, sml the head only', async () => {
  const model = await modelP;
  const figure = parsePetFigure('0 0 ffffff 0');
  const assets = (p: PetPose) => petSprites(model, figure, p).map((s) => s.asset);
  assert.deepEqual(assets(pose('std', 2)), ['dog_64_a_2_0', 'dog_64_b_2_0', 'dog_64_c_2_0', 'dog_64_sd_2_0']);
  assert.deepEqual(assets(pose('sit', 2)), ['dog_64_a_2_1000', 'dog_64_b_2_0', 'dog_64_c_2_1000', 'dog_64_sd_2_0']);
  assert.deepEqual(assets(pose('lay', 2)), ['dog_64_a_2_600', 'dog_64_b_2_0', 'dog_64_c_2_1000', 'dog_64_sd_2_0']);
  const std = petSprites(model, figure, pose('std', 2));
  const smile = petSprites(model, figure, pose('std', 2, 'sml'));
  assert.equal(smile[1]!.asset, 'dog_64_b_2_2700');
  assert.deepEqual([smile[1]!.left, smile[1]!.top], [std[1]!.left, std[1]!.top], 'the head stays where it was');
  assert.deepEqual(smile[0], std[0]);
  // Lying, the head is lower than standing.
  assert.ok(petSprites(model, figure, pose('lay', 2))[1]!.top > std[1]!.top);
});

test('eat, animated: the head bobs (frames 400/401, three updates each) in 3 frames of 1, 3 and 2 updates (1/24 s each)', async () => {
  const model = await modelP;
  const out = drawPet(model, parsePetFigure('0 1 ffffff 0'), pose('eat', 2), { animated: true, size: 'm' })!;
  assert.equal(out.frames.length, 3);
  assert.deepEqual(out.updates, [1, 3, 2]);
  for (const f of out.frames) assert.deepEqual([f.width, f.height], [45, 44]);
  // The loop starts one update into frame 400's three, so the first and last pictures are the same head.
  assert.deepEqual(out.frames[0], out.frames[2]);
  assert.notDeepEqual(out.frames[0], out.frames[1]);
});

test("the demo room has the kit's dog, sitting on a free floor tile", async () => {
  const model = await modelP;
  const room = demoRoom();
  assert.deepEqual(room.pets, [
    { id: 1, name: 'Biscuit', figure: '0 0 ffffff 2 2 -1 0 3 -1 0', x: 7, y: 5, z: 0, rot: 4, posture: 'sit' },
  ]);
  const [pet] = room.pets;
  const figure = parsePetFigure(pet!.figure);
  assert.equal(figure.typeId, 0);
  assert.ok(model.postures.has(pet!.posture));
  const rows = room.heightmap.split('\r');
  assert.equal(rows[pet!.y]![pet!.x], '0', 'open floor at height 0');
  const taken = room.items
    .filter((it) => it.kind === 'floor')
    .some((it) => {
      const [w, l] = it.rot % 4 === 2 ? [it.length, it.width] : [it.width, it.length];
      return pet!.x >= it.x && pet!.x < it.x + w && pet!.y >= it.y && pet!.y < it.y + l;
    });
  assert.ok(!taken, 'no floor item on the tile');
  assert.ok(!room.bots.some((b) => b.x === pet!.x && b.y === pet!.y), 'no bot on the tile');
  assert.ok(still(model, pet!.figure, pose(pet!.posture, pet!.rot)));
});
