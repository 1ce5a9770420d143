// Spec §2.4 frame counts on real data, read back from the encoded bytes (not from the renderer's own
// planning): wav, spk, respect and blow loop 2 frames; every other action and every gesture is a
// still; combined poses animate the moving part; under headonly only spk animates. The numbers below
// are the spec's, written out. Each APNG frame lasts exactly 1/6 s and the loop repeats forever.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  encodeAvatar,
  loadAvatarHotel,
  renderAvatar,
  type AvatarHotel,
  type AvatarRequest,
} from '../../src/avatar/index.js';
import { imagesEqual } from '../../src/imaging/image.js';
import { realdata } from '../helpers/realdata.js';
import { plainRequest, type RequestFields } from '../helpers/avatar-request.js';

const flash = realdata('flash');
const nitro = realdata('nitro');

const FIGURE = 'hd-180-1.hr-100-61.ch-210-66.lg-270-82.sh-290-80';

/** [action, gesture, headonly, frames] — contract A2.4, literally. */
const CASES: [string, string, boolean, number][] = [
  ['wav', '', false, 2],
  ['spk', '', false, 2],
  ['respect', '', false, 2],
  ['blow', '', false, 2],
  ['std', '', false, 1],
  ['sit', '', false, 1],
  ['lay', '', false, 1],
  ['wlk', '', false, 1],
  ['laugh', '', false, 1],
  ['crr=1', '', false, 1],
  ['drk=1', '', false, 1],
  ['sig=1', '', false, 1],
  ['carry=1', '', false, 1],
  ['use=1', '', false, 1],
  ['sign=1', '', false, 1],
  ['dance', '', false, 1],
  ['sleep', '', false, 1],
  ['', 'sml', false, 1],
  ['', 'sad', false, 1],
  ['', 'agr', false, 1],
  ['', 'srp', false, 1],
  ['', 'eyb', false, 1],
  ['', 'nor', false, 1],
  ['', 'spk', false, 2],
  // combined poses animate the moving part
  ['sit,wav', '', false, 2],
  ['sit,spk', '', false, 2],
  ['crr=1,wav', '', false, 2],
  // headonly: only spk still animates
  ['spk', '', true, 2],
  ['', 'spk', true, 2],
  ['wav', '', true, 1],
  ['respect', '', true, 1],
  ['blow', '', true, 1],
  ['std', '', true, 1],
  ['', 'sml', true, 1],
];

interface PngInfo {
  frames: number;
  plays?: number;
  delays: [number, number][];
}

/** Frame count and delays from a PNG/APNG's chunks: acTL's num_frames and each fcTL's delay fraction. */
function pngInfo(buf: Buffer): PngInfo {
  assert.ok(buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'PNG signature');
  let off = 8;
  let actl: { frames: number; plays: number } | undefined;
  const delays: [number, number][] = [];
  while (off + 8 <= buf.length) {
    const len = buf.readUInt32BE(off);
    const type = buf.toString('latin1', off + 4, off + 8);
    const data = buf.subarray(off + 8, off + 8 + len);
    if (type === 'acTL') actl = { frames: data.readUInt32BE(0), plays: data.readUInt32BE(4) };
    if (type === 'fcTL') delays.push([data.readUInt16BE(20), data.readUInt16BE(22)]);
    off += 12 + len;
    if (type === 'IEND') break;
  }
  if (!actl) return { frames: 1, delays };
  assert.equal(delays.length, actl.frames, 'one fcTL per frame');
  return { frames: actl.frames, plays: actl.plays, delays };
}

function req(over: Partial<RequestFields>): AvatarRequest {
  return plainRequest(FIGURE, { animated: true, ...over });
}

async function checkFrames(hotel: AvatarHotel, label: string) {
  for (const [action, gesture, headOnly, expected] of CASES) {
    for (const [direction, size] of [
      [2, 'm'],
      [4, 'l'],
      [7, 's'],
    ] as const) {
      const what = `${label} action=${action} gesture=${gesture} headonly=${headOnly} direction=${direction} size=${size}`;
      const render = await renderAvatar(
        hotel,
        req({ action, gesture, headOnly, direction, headDirection: direction, size }),
      );
      const info = pngInfo(await encodeAvatar(render));
      assert.equal(info.frames, expected, what);
      if (expected > 1) {
        // Facing away (7) the mouth and the blowing hand are not drawn, so those loops hold two equal
        // frames; the spec counts frames, not differences. Facing the viewer they must move.
        if (direction !== 7)
          assert.ok(!imagesEqual(render.frames[0]!, render.frames[1]!), `${what}: the two frames differ`);
        assert.equal(info.plays, 0, `${what}: loops forever`);
        // 1/6 s as a fraction (any equal fraction would do; the delay must be exactly 166.67 ms)
        for (const [num, den] of info.delays) assert.equal(num * 6, den, `${what}: delay ${num}/${den}`);
      }
    }
  }
  // not animated: always a plain PNG, whatever the action
  assert.equal(
    pngInfo(await encodeAvatar(await renderAvatar(hotel, req({ action: 'wav', animated: false })))).frames,
    1,
  );
  // frames caps the loop
  assert.equal(pngInfo(await encodeAvatar(await renderAvatar(hotel, req({ action: 'wav', frames: 1 })))).frames, 1);
}

test('real Flash data: frame counts of contract A2.4 in the encoded APNG', { skip: flash.skip }, async () => {
  await checkFrames(await loadAvatarHotel(flash.path), 'flash');
});

test('real Nitro data: frame counts of contract A2.4 in the encoded APNG', { skip: nitro.skip }, async () => {
  await checkFrames(await loadAvatarHotel(nitro.path), 'nitro');
});
