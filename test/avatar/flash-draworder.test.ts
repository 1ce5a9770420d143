// draworder.xml, the Flash era's explicit part order: its posture lists (std, sit, lay) and its
// raised-hand lists (lh-up, rh-up, sit.lh-up, sit.rh-up), on the sample kit's Flash layout, whose
// draworder.xml has the built-in geometry's order for postures and the raised arm on top in the hand
// lists (src/samplekit/flash/draworder.ts).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { avatarFlashFiles } from '../../src/samplekit/flash/index.js';
import {
  loadAvatarHotel,
  renderAvatar,
  type AvatarHotel,
  type AvatarRender,
  type AvatarRequest,
} from '../../src/avatar/index.js';
import { AvatarGeometry } from '../../src/avatar/geometry.js';
import { builtinGeometry } from '../../src/avatar/builtin/geometry.js';
import { raisedHandOf, resolvePose } from '../../src/avatar/actions.js';
import { parseAction } from '../../src/avatar/request.js';
import { useKitHotel } from './kit-hotel.js';
import { plainRequest, type RequestFields } from '../helpers/avatar-request.js';

const nitroKit = useKitHotel('draworder');
let dir = '';
let flash: AvatarHotel;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'avatar-flash-draworder-'));
  for (const f of avatarFlashFiles()) {
    await mkdir(dirname(join(dir, f.path)), { recursive: true });
    await writeFile(join(dir, f.path), f.data);
  }
  flash = await loadAvatarHotel(dir);
});
after(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const FIGURE = 'hd-180-1.hr-115-61.ch-210-66.lg-270-82.sh-290-80';
function req(over: Partial<RequestFields>): AvatarRequest {
  return plainRequest(FIGURE, { size: 'l', ...over });
}
const order = (r: AvatarRender, frame = 0) =>
  r.layers
    .filter((l) => l.frame === frame)
    .sort((a, b) => a.order - b.order)
    .map((l) => l.partType);

test('explicitOrder: posture with hand, then posture, then hand, then std; a direction a list lacks or lists empty falls through', () => {
  const list = (id: string, dirs: [number, string[]][]) => ({
    id,
    directions: dirs.map(([d, parts]) => ({ id: d, parts })),
  });
  const g = new AvatarGeometry(builtinGeometry(), {
    actions: [
      list('std', [
        [0, ['std0']],
        [1, ['std1']],
        [2, ['std2']],
        [3, ['std3']],
        [4, ['std4']],
      ]),
      list('sit', [
        [2, ['sit2']],
        [4, ['sit4']],
      ]),
      list('lh-up', [
        [3, []],
        [4, ['lh4']],
        [1, ['lh1']],
      ]),
      list('sit.lh-up', [[4, ['sitlh4']]]),
    ],
  });
  const pick = (posture: string, hand: 'lh-up' | 'rh-up' | null, d: number) =>
    g.explicitOrder(posture, hand, d)?.parts[0];
  assert.equal(pick('sit', 'lh-up', 4), 'sitlh4', 'posture with hand');
  assert.equal(pick('sit', 'lh-up', 2), 'sit2', 'the posture before the hand alone');
  assert.equal(pick('sit', 'lh-up', 1), 'lh1', 'a posture without a list there stands as std: the hand list');
  assert.equal(pick('sit', null, 0), 'std0');
  assert.equal(pick('std', 'lh-up', 4), 'lh4');
  assert.equal(pick('std', 'lh-up', 3), 'std3', 'an empty list falls through to std');
  assert.equal(pick('std', 'rh-up', 4), 'std4', 'a hand without a list');
  assert.equal(pick('wlk', 'lh-up', 1), 'lh1', 'a posture the file does not know (walk) is std');
  assert.equal(pick('std', null, 7), undefined, 'no list at all: the geometry decides');
});

test('raised hand: wave, respect and sign raise the left hand; carry, drink, blow and laugh the right; the left wins', () => {
  const h = nitroKit.hotel;
  const hand = (action: string, gesture = '') =>
    raisedHandOf(resolvePose(parseAction(action), gesture, h.actions, h.partSets, h.geometry).actions);
  for (const a of ['wav', 'respect', 'sig=3', 'sit,wav']) assert.equal(hand(a), 'lh-up', a);
  for (const a of ['crr=1', 'drk=2', 'blow', 'laugh', 'sit,drk=2']) assert.equal(hand(a), 'rh-up', a);
  assert.equal(hand('wav,crr=1'), 'lh-up', 'both hands: the left list');
  for (const a of ['', 'std', 'sit', 'lay', 'wlk', 'spk', 'dance', 'sleep']) assert.equal(hand(a), null, a || '(none)');
  assert.equal(hand('', 'sml'), null, 'gestures raise no hand');
});

test('Flash kit: a posture without a raised hand draws in the geometry order (identical to the Nitro kit)', async () => {
  for (const action of ['', 'sit', 'lay', 'spk', 'wlk']) {
    for (let d = 0; d < 8; d++) {
      const r = req({ action, direction: d, headDirection: d });
      const a = await renderAvatar(flash, r);
      const b = await renderAvatar(nitroKit.hotel, r);
      assert.deepEqual(order(a), order(b), `${action} ${d}: same order`);
      assert.ok(
        a.frames.every((f, i) => Buffer.compare(f.data, b.frames[i]!.data) === 0),
        `${action} ${d}: same pixels`,
      );
    }
  }
});

test('Flash kit: wave draws the left arm over the head where lh-up lists the direction, and only there', async () => {
  for (let d = 0; d < 8; d++) {
    const r = req({ action: 'wav', direction: d, headDirection: d });
    const a = await renderAvatar(flash, r);
    const b = await renderAvatar(nitroKit.hotel, r);
    const o = order(a);
    const lhAboveHead = o.lastIndexOf('hd') < o.indexOf('lh');
    if ([4, 5, 6].includes(d)) {
      assert.ok(lhAboveHead, `direction ${d}: lh after hd in ${o.join(' ')}`);
      const arm = ['lh', 'ls', 'lc'].filter((t) => o.includes(t));
      assert.deepEqual(o.slice(-arm.length), arm, `direction ${d}: the arm is the top of the list`);
    } else {
      // 3 is listed empty, the others not at all: std's list, the Nitro kit's order.
      assert.deepEqual(o, order(b), `direction ${d}: std order`);
      assert.ok(
        a.frames.every((f, i) => Buffer.compare(f.data, b.frames[i]!.data) === 0),
        `direction ${d}: same pixels as the Nitro kit`,
      );
    }
  }
});

/**
 * Where the two renders differ, the Flash render shows the held item's own sprite pixels (it is on top)
 * and the Nitro kit's does not (its geometry draws the head over the item).
 */
const same = (p: Uint8Array, i: number, q: Uint8Array, j: number) =>
  p[i] === q[j] && p[i + 1] === q[j + 1] && p[i + 2] === q[j + 2] && p[i + 3] === q[j + 3];

async function assertItemOnTop(action: string, direction: number, itemType: string): Promise<number> {
  const r = req({ action, direction, headDirection: direction, size: 'm' });
  const a = await renderAvatar(flash, r);
  const b = await renderAvatar(nitroKit.hotel, r);
  const item = a.layers.find((l) => l.frame === 0 && l.partType === itemType);
  assert.ok(item && item.tint === null, `${action} ${direction}: the ${itemType} item is drawn untinted`);
  const sprite = (await flash.libraries.get(item.library)).asset(item.asset)!.sprite;
  const fa = a.frames[0]!;
  const fb = b.frames[0]!;
  let differing = 0;
  let itemPixels = 0;
  for (let y = 0; y < fa.height; y++) {
    for (let x = 0; x < fa.width; x++) {
      const i = (y * fa.width + x) * 4;
      if (same(fa.data, i, fb.data, i)) continue;
      differing++;
      const sx = item.flip ? item.width - 1 - (x - item.x) : x - item.x;
      const sy = y - item.y;
      if (sx < 0 || sy < 0 || sx >= sprite.width || sy >= sprite.height) continue;
      const si = (sy * sprite.width + sx) * 4;
      if (sprite.data[si + 3] === 255 && same(sprite.data, si, fa.data, i)) itemPixels++;
    }
  }
  assert.ok(differing > 10, `${action} ${direction}: the item on top changes ${differing} pixels`);
  assert.equal(
    itemPixels,
    differing,
    `${action} ${direction}: every changed pixel is the ${itemType} sprite's own (${itemPixels} of ${differing})`,
  );
  return differing;
}

test("Flash kit: a raised hand's item lands over the head, in pixels (sign by lh-up, drink by rh-up)", async () => {
  await assertItemOnTop('sig=3', 5, 'li');
  await assertItemOnTop('drk=2', 1, 'ri');
});

test('Flash kit: sit+wave 4 takes sit.lh-up: the arm on top, the rest in the sitting order', async () => {
  const sitWave = await renderAvatar(flash, req({ action: 'sit,wav', direction: 4, headDirection: 4 }));
  const o = order(sitWave);
  assert.ok(o.lastIndexOf('hd') < o.indexOf('lh'), `sit+wave 4: ${o.join(' ')}`);
  const sit = order(await renderAvatar(flash, req({ action: 'sit', direction: 4, headDirection: 4 })));
  assert.deepEqual(
    o.filter((t) => !['lh', 'ls', 'lc'].includes(t)),
    sit.filter((t) => !['lh', 'ls', 'lc'].includes(t)),
    'sit.lh-up keeps the sitting order for the rest',
  );
});

test('Flash kit: drinking raises the right hand over the head where rh-up lists the direction', async () => {
  const o = order(await renderAvatar(flash, req({ action: 'drk=2', direction: 1, headDirection: 1 })));
  assert.ok(o.lastIndexOf('hd') < o.indexOf('rh'), `drk 1: ${o.join(' ')}`);
  const std = order(await renderAvatar(flash, req({ action: 'drk=2', direction: 3, headDirection: 3 })));
  assert.deepEqual(
    std,
    order(await renderAvatar(nitroKit.hotel, req({ action: 'drk=2', direction: 3, headDirection: 3 }))),
    'drk 3: not listed, std order',
  );
});
