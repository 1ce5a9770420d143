// One kind of layer alone (the effect and hand-item paths' `part`), on the sample kit: the plan keeps
// exactly the whole image's layers of that kind, at the same places, and no layer of the figure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type DrawnLayer } from '../../src/avatar/index.js';
import { kitRenderer, useKitHotel } from './kit-hotel.js';

const kit = useKitHotel('part-layers');
const FIG = 'hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40';
const place = (l: DrawnLayer) => `${l.frame} ${l.library}:${l.asset} ${l.x},${l.y} ${l.width}x${l.height} ${l.flip}`;
const effectLibraries = (names: string[]) => new Set(names);

test('part=effect: the effect sprites of the whole image, placed as there, bottom first; none of the figure', async () => {
  const fx = kitRenderer(kit, FIG);
  const kitEffects = effectLibraries(
    [...kit.hotel.effects.names()].map((n) => kit.hotel.effects.get(...(n.split('.') as [string, string]))!.library),
  );
  let checked = 0;
  for (const effect of [1, 2, 3, 5, 6, 7, 8, 9, 10]) {
    for (const direction of [2, 4]) {
      const whole = await fx.render({ effect, direction, animated: true });
      const alone = await fx.render({ effect, direction, animated: true, part: 'effect' });
      const fromEffect = whole.layers.filter((l) => kitEffects.has(l.library));
      assert.ok(fromEffect.length > 0, `effect ${effect} has sprites`);
      assert.deepEqual(alone.layers.map(place), fromEffect.map(place), `effect ${effect} direction ${direction}`);
      for (let f = 0; f < alone.frames.length; f++) {
        const orders = alone.layers.filter((l) => l.frame === f).map((l) => l.order);
        assert.deepEqual(orders, [...orders.keys()], 'numbered again, bottom first');
      }
      assert.equal(alone.frames.length, whole.frames.length, 'the same loop');
      checked++;
    }
  }
  assert.equal(checked, 18);
});

test('part=hand: the held item of the whole image, placed as there; the pose and the figure are not drawn', async () => {
  const r = kitRenderer(kit, FIG);
  for (const action of ['crr=1', 'drk=1', 'crr=2', 'sit,crr=3']) {
    for (const direction of [0, 2, 3, 4, 6]) {
      const whole = await r.render({ action, direction });
      const alone = await r.render({ action, direction, part: 'hand' });
      const items = whole.layers.filter((l) => l.partType === 'ri' || l.partType === 'li');
      assert.ok(items.length > 0, `${action} holds something`);
      assert.deepEqual(alone.layers.map(place), items.map(place), `${action} direction ${direction}`);
      assert.ok(
        alone.layers.every((l) => l.library === 'hh_human_item'),
        'from the item library',
      );
    }
  }
});
