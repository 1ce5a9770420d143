// The pet picture's query (src/core/pet/params.ts) read with the avatar and room parameter helpers, the pose a
// library gives action tokens (src/core/render/pet-job.ts), and a users_pets row as the emulator draws it
// (src/pet/stored.ts, used by rooms and by id=).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalPetRequest, parsePetActions, parsePetQuery } from '../../src/core/pet/params.js';
import { petPose } from '../../src/core/render/pet-job.js';
import { readAssetLibrary } from '../../src/formats/asset-library.js';
import { petModelFromLibrary } from '../../src/pet/model.js';
import { petOf } from '../../src/pet/stored.js';
import { testPetLibrary } from '../helpers/pet-library.js';

test('parsePetQuery: defaults, the avatar readings of direction, size and booleans, bg and zoom', () => {
  const r = parsePetQuery('figure=0+0+ffffff');
  assert.ok(r.ok);
  assert.deepEqual(r.req, {
    identity: {
      kind: 'figure',
      figure: { typeId: 0, paletteId: 0, color: 0xffffff, headOnly: false, customParts: [] },
    },
    direction: 2,
    headDirection: 2,
    actions: [],
    size: 'l',
    animated: false,
    format: 'png',
  });
  const q = parsePetQuery(
    'figure=0&direction=9&head_direction=-1&size=b&animated=on&bg=80ff0000&zoom=3.9&action=Sit,,sml,sit',
  );
  assert.ok(q.ok);
  assert.equal(q.req.direction, 1);
  assert.equal(q.req.headDirection, 7);
  assert.equal(q.req.size, 'm');
  assert.equal(q.req.animated, true);
  assert.deepEqual(q.req.background, { rgb: 0xff0000, alpha: 0x80 });
  assert.equal(q.req.zoom, 3);
  assert.deepEqual(q.req.actions, ['sit', 'sml']);
  const gif = parsePetQuery('id=12&img_format=GIF');
  assert.ok(gif.ok);
  assert.deepEqual([gif.req.identity, gif.req.format, gif.req.animated], [{ kind: 'id', id: 12 }, 'gif', true]);
  assert.deepEqual(parsePetQuery('id=0'), {
    ok: false,
    reason: 'bad pet id "0": a users_pets id is a whole number ≥ 1\n',
  });
  assert.deepEqual(parsePetActions('a b,c;d,' + 'x'.repeat(33)), []);
});

test('canonicalPetRequest: one spelling per picture', () => {
  const a = parsePetQuery('figure=0%200%20FFFFFF&size=&animated=0');
  const b = parsePetQuery('figure=0+0+ffffff+0&direction=10');
  assert.ok(a.ok && b.ok);
  const fig = (r: typeof a) => (r.ok && r.req.identity.kind === 'figure' ? r.req.identity.figure : undefined)!;
  assert.equal(canonicalPetRequest(fig(a), a.req, a.req.actions), canonicalPetRequest(fig(b), b.req, b.req.actions));
  assert.equal(
    canonicalPetRequest(fig(a), a.req, ['std']),
    'figure=0 0 ffffff 0&direction=2&head_direction=2&action=std&size=l&animated=0&format=png&bg=-&zoom=1',
  );
});

test('petPose: the first posture and the first gesture the library has; else its default posture', async () => {
  const model = petModelFromLibrary(await readAssetLibrary(await testPetLibrary()));
  assert.deepEqual(petPose(model, []), { posture: 'std', gesture: '' });
  assert.deepEqual(petPose(model, ['dance', 'sml', 'lay', 'sit']), { posture: 'lay', gesture: 'sml' });
  assert.deepEqual(petPose(model, ['eat']), { posture: 'std', gesture: '' });
});

test("petOf: a users_pets row → the emulator's figure and posture (a dead monster plant lies as rip)", () => {
  const dog = petOf({ id: 4, name: 'Rex', type: 0, race: 3, color: 'ffffff', x: 1, y: 2, z: '0.5', rot: 4 });
  assert.deepEqual(dog, {
    id: 4,
    name: 'Rex',
    figure: '0 3 ffffff 2 2 -1 0 3 -1 0',
    x: 1,
    y: 2,
    z: 0.5,
    rot: 4,
    posture: 'std',
  });
  const plant = petOf({ id: 5, type: 16, mp_type: 3, mp_color: 2, mp_is_dead: '1' });
  assert.equal(plant.figure, '16 0 FFFFFF 5 0 -1 10 1 3 2 2 0 0 3 0 0 4 0 0');
  assert.equal(plant.posture, 'rip');
});
