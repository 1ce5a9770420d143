// What a newcomer sees in a browser on the sample kit: a carried item, a drink and a blown kiss are
// visible in every direction where the face is, as they are with real Habbo data. The renderer draws the
// far arm behind the head and the right-hand item behind the right hand at direction 3 (the client's
// geometry order), so the kit has to place those sprites where they peek out, as real sprites do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useKitHotel } from './kit-hotel.js';
import { renderAvatar, type AvatarRequest } from '../../src/avatar/index.js';
import { type RgbaImage } from '../../src/imaging/image.js';
import { parseAction } from '../../src/avatar/request.js';

const PLAIN = 'hd-180-1.hr-115-61.ch-210-66.lg-270-82.sh-290-80';
/** Directions where the face is drawn (fc/ey have sprites for 1, 2, 3; 4 and 5 mirror 2 and 1). */
const FACING = [1, 2, 3, 4, 5];

const kit = useKitHotel('kit-hands');

async function still(action: string, direction: number): Promise<RgbaImage> {
  const r: AvatarRequest = {
    figure: PLAIN,
    direction,
    headDirection: direction,
    size: 'm',
    action: parseAction(action),
    gesture: '',
    headOnly: false,
    animated: false,
    frames: 0,
  };
  return (await renderAvatar(kit.hotel, r)).frames[0]!;
}

/** Pixels that differ between two renders of one canvas, counted in rows [y0, y1). */
function changed(a: RgbaImage, b: RgbaImage, y0 = 0, y1 = a.height): number {
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = 0; x < a.width; x++) {
      const i = (y * a.width + x) * 4;
      if (
        a.data[i] !== b.data[i] ||
        a.data[i + 1] !== b.data[i + 1] ||
        a.data[i + 2] !== b.data[i + 2] ||
        a.data[i + 3] !== b.data[i + 3]
      )
        n++;
    }
  }
  return n;
}

test('kit: a carried and a drunk item show in every direction that shows the face', async () => {
  const hidden: string[] = [];
  for (const d of FACING) {
    // Id 4 has no sprite: the same pose with an empty hand, so the difference is the item alone.
    for (const [pose, item] of [
      ['crr', 1],
      ['crr', 6],
      ['drk', 1],
      ['drk', 2],
    ] as const) {
      const n = changed(await still(`${pose}=${item}`, d), await still(`${pose}=4`, d));
      if (n < 15) hidden.push(`${pose}=${item} direction ${d}: ${n} px of the item visible`);
    }
  }
  assert.deepEqual(hidden, []);
});

test('kit: the hand raised to the mouth (drink, blow) shows at head height in every direction that shows the face', async () => {
  const hidden: string[] = [];
  for (const d of FACING) {
    const std = await still('std', d);
    for (const pose of ['drk=4', 'blow']) {
      // Rows 26-58 hold the head: only the raised hand can change them (the head does not turn).
      const n = changed(await still(pose, d), std, 26, 58);
      if (n < 10) hidden.push(`${pose} direction ${d}: ${n} px of the hand at head height`);
    }
  }
  assert.deepEqual(hidden, []);
});
