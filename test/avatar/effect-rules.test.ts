// The effect rules issue 27 fixed against the game client's code (one test per rule, on the sample kit's
// procedurally drawn effects, src/samplekit/avatar/effects.ts): the depth order of an effect's sprites,
// layer items that replace a part (feet, head), sprites and parts found in another effect's library, and
// where an effect's sprites stand against the figure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useKitHotel } from './kit-hotel.js';
import { renderAvatar, type AvatarRender, type AvatarRequest } from '../../src/avatar/index.js';
import { type RgbaImage } from '../../src/imaging/image.js';

const FIG = 'hd-180-1.hr-115-61.ch-210-66.lg-270-82.sh-290-80';
const kit = useKitHotel('effect-rules');

function req(over: Partial<AvatarRequest> = {}): AvatarRequest {
  return { figure: FIG, direction: 2, headDirection: 2, size: 'm', action: '', gesture: '', headOnly: false, animated: false, frames: 0, ...over };
}
const render = (over: Partial<AvatarRequest> = {}): Promise<AvatarRender> => renderAvatar(kit.hotel, req(over));
const px = (img: RgbaImage, x: number, y: number): [number, number, number, number] => {
  const i = (y * img.width + x) * 4;
  return [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!, img.data[i + 3]!];
};
const rgb = (p: [number, number, number, number]): number => (p[0] << 16) | (p[1] << 8) | p[2];

test('sprite depth (RoomSpriteCanvas): equal dz → the later sprite under the earlier one; dz 0 behind the avatar', async () => {
  // KitHoverGlow: board (fx5_1, dz -1), its additive glow (fx5_2, dz -1, listed after the board), an additive
  // halo (fx5_3, dz 0) around the head; the avatar lifted 10 px.
  for (const direction of [2, 4, 6]) {
    const r = await render({ effect: 5, direction, headDirection: direction });
    const f = r.frames[0]!;
    const order = (id: string) => r.layers.find((l) => l.partType === id)!.order;
    const body = r.layers.filter((l) => l.bodyPart !== 'effect');
    assert.ok(order('fx5_2') < order('fx5_1'), `d${direction}: the glow under the board`);
    assert.ok(order('fx5_1') < order('fx5_3'), `d${direction}: dz -1 before dz 0`);
    assert.ok(body.every((l) => l.order > order('fx5_3')), `d${direction}: the dz-0 halo behind the avatar`);
    // The board's own colour where it and its glow overlap (the glow added on top would brighten it).
    assert.deepEqual(px(f, 16, 100), [0x40, 0xc0, 0xa0, 255], `d${direction}: board pixel`);
    // The glow shows below the board: its light over nothing.
    assert.ok(px(f, 34, 108)[3] > 0, `d${direction}: glow below the board`);
  }
  // Behind the avatar, the halo leaves the head's pixels as they are (lifted 10 px) and shows beside it.
  const plain = (await render()).frames[0]!;
  const f = (await render({ effect: 5 })).frames[0]!;
  const head = (await render()).layers.find((l) => l.partType === 'hd')!;
  let compared = 0;
  for (let y = head.y + 2; y < head.y + head.height - 2; y++) {
    for (let x = head.x + 2; x < head.x + head.width - 2; x++) {
      const p = px(plain, x, y);
      if (p[3] !== 255 || y - 10 < 0) continue;
      assert.deepEqual(px(f, x, y - 10), p, `head pixel ${x},${y}`);
      compared++;
    }
  }
  assert.ok(compared > 100, `${compared} head pixels compared`);
  const beside = px(f, 10, 31);
  assert.ok(beside[3] > 0 && rgb(beside) !== 0, 'the halo beside the head');
});
