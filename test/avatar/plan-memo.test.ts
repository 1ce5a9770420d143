// planRender keeps plans without an effect by outfit and pose and retints them for other colours
// (render.ts, issue 28): a retinted plan must be the plan a fresh hotel makes for those colours, layer for
// layer, and drawing it must give the same bytes; the kept plan must not change under later requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeAvatar, loadAvatarHotel, type AvatarHotel, type AvatarRequest } from '../../src/avatar/index.js';
import { drawAvatar } from '../../src/avatar/draw.js';
import { planRender } from '../../src/avatar/render.js';
import { fixtureHotel } from './fixture.js';
import { useKitHotel } from './kit-hotel.js';

const kit = useKitHotel('plan-memo');

function req(figure: string, over: Partial<AvatarRequest> = {}): AvatarRequest {
  return { figure, direction: 2, headDirection: 2, size: 'm', action: 'std', gesture: 'std', headOnly: false, animated: false, frames: 0, ...over };
}

const POSES: Partial<AvatarRequest>[] = [
  {},
  { direction: 4, headDirection: 5 },
  { direction: 7, headDirection: 7 },
  { direction: 0, gesture: 'sml', size: 'l' },
  { size: 's', direction: 6 },
  { headOnly: true, direction: 3 },
  { action: 'wav', animated: true },
  { action: 'crr=1', direction: 5 },
  { action: 'lay', direction: 2 },
  { action: 'sit,wav', direction: 4, animated: true, frames: 2 },
];

/** Plans `first` on `memo` (kept), then `then` on it (retinted), and `then` on a fresh hotel: all must agree. */
async function check(memo: AvatarHotel, fresh: () => Promise<AvatarHotel> | AvatarHotel, first: AvatarRequest, then: AvatarRequest): Promise<void> {
  const kept = await planRender(memo, first);
  const keptBefore = JSON.stringify(kept.frames.map((f) => f.avatar.map((l) => [l.tint, l.described])));
  const retinted = await planRender(memo, then);
  const other = await fresh();
  const expected = await planRender(other, then);
  const layers = (p: typeof retinted) => p.frames.map((f) => f.avatar.map((l) => ({ ...l.described, tint: l.tint, described: l.described.tint, sprite: l.sprite.width * 1000 + l.sprite.height })));
  assert.deepEqual(layers(retinted), layers(expected), `${then.figure} ${JSON.stringify(then)}`);
  assert.deepEqual(await encodeAvatar(drawAvatar(retinted)), await encodeAvatar(drawAvatar(expected)));
  assert.equal(JSON.stringify(kept.frames.map((f) => f.avatar.map((l) => [l.tint, l.described]))), keptBefore, 'the kept plan is unchanged');
  // And the first colours again, from the kept plan: the first plan's bytes.
  assert.deepEqual(await encodeAvatar(drawAvatar(await planRender(memo, first))), await encodeAvatar(drawAvatar(await planRender(await fresh(), first))));
}

test('fixture hotel: a pose in other colours is the fresh plan in those colours (hidden parts, defaults, held items, loops)', async () => {
  const outfits = [
    ['hd-1-1.ch-10-61.lg-20-62', 'hd-1-2.ch-10-62.lg-20-61'],
    ['hd-1-1.ch-11-61.hr-30-62.ha-40', 'hd-1-2.ch-11-62.hr-30-61.ha-40-61'],
    ['ch-10-61', 'ch-10-62'],
    ['hd-1-1.ch-10-61.lg-20-x', 'hd-1.ch-10-62.lg-20-62'],
  ];
  for (const [a, b] of outfits) {
    for (const pose of POSES) {
      const memo = fixtureHotel();
      await check(memo, fixtureHotel, req(a!, pose), req(b!, pose));
    }
  }
});

test('kit hotel: other colours, multi-colour sets and colours left out (the client carries the previous part\'s)', async () => {
  const fresh = () => loadAvatarHotel(kit.dir);
  const memo = await fresh();
  const outfits = [
    ['hd-180-1.hr-115-61.ch-210-66.lg-270-82.sh-290-80', 'hd-180-2.hr-115-45.ch-210-1408.lg-270-110.sh-290-62'],
    ['hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40', 'hd-180-1.ch-210.lg-270-82-61.sh-290-80.hr-100-1408'],
  ];
  for (const [a, b] of outfits) for (const pose of POSES) await check(memo, fresh, req(a!, pose), req(b!, pose));
});
