// Renders drawn on reused canvas memory (ImageScratch, as the render worker draws) are the renders drawn
// on fresh memory, pixel for pixel and byte for byte once encoded, whatever the memory held before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeAvatar, renderAvatar } from '../../src/avatar/index.js';
import { ImageScratch, imagesEqual } from '../../src/imaging/image.js';
import { kitRenderer, useKitHotel } from './kit-hotel.js';
import { type RequestFields } from '../helpers/avatar-request.js';

const kit = useKitHotel('scratch');
const FIG = 'hd-180-1.hr-115-61.ch-210-66.lg-270-82.sh-290-80';
const { req } = kitRenderer(kit, FIG);

const CASES: [string, Partial<RequestFields>][] = [
  ['m', {}],
  ['l', { size: 'l' }],
  ['s', { size: 's' }],
  ['head only', { headOnly: true }],
  ['lying', { action: 'lay', direction: 4 }],
  ['wave loop', { action: 'wav', animated: true }],
  ['effect with avatar colour', { effect: 2 }],
  ['effect loop', { effect: 5, animated: true }],
];

test('images from a scratch are transparent, distinct while lent, and reused after release', () => {
  const scratch = new ImageScratch();
  const a = scratch.image(4, 3);
  const b = scratch.image(4, 3);
  assert.notEqual(a.data, b.data);
  a.data.fill(200);
  b.data.fill(100);
  scratch.release();
  const c = scratch.image(4, 3);
  const d = scratch.image(4, 3);
  assert.ok(
    (c.data === a.data || c.data === b.data) && (d.data === a.data || d.data === b.data) && c.data !== d.data,
    'both reused',
  );
  assert.ok(c.data.every((v) => v === 0) && d.data.every((v) => v === 0), 'reused memory comes back transparent');
  assert.equal(scratch.image(2, 6).data.length, 48);
  assert.throws(() => scratch.image(1.5, 2), RangeError);
});

test('a render on a scratch that held other renders is the render on fresh memory', async () => {
  const scratch = new ImageScratch();
  // Dirty every size the cases use: draw them all once, twice over, releasing in between.
  for (let pass = 0; pass < 2; pass++) {
    for (const [, over] of CASES) {
      const r = await renderAvatar(kit.hotel, req({ ...over, direction: 6, headDirection: 5 }), scratch.image);
      for (const f of r.frames) f.data.fill(0x7f);
      scratch.release();
    }
  }
  for (const [name, over] of CASES) {
    const fresh = await renderAvatar(kit.hotel, req(over));
    const reused = await renderAvatar(kit.hotel, req(over), scratch.image);
    assert.equal(reused.frames.length, fresh.frames.length, name);
    reused.frames.forEach((f, i) => assert.ok(imagesEqual(f, fresh.frames[i]!), `${name}: frame ${i}`));
    assert.deepEqual(await encodeAvatar(reused), await encodeAvatar(fresh), name);
    assert.deepEqual(await encodeAvatar(reused, 'gif'), await encodeAvatar(fresh, 'gif'), `${name} as GIF`);
    scratch.release();
  }
});
