// GIF output on real data (when ../shared/realdata is present): for real figures at every size and
// direction, still and looping poses, the GIF read back is exactly the render's frames with alpha
// resolved by the threshold (colours exact, one global table), every frame disposed, 17/16 cs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeAvatar, loadAvatarHotel, renderAvatar, type AvatarRequest } from '../../src/avatar/index.js';
import { gifFramesRgba, readGif } from '../helpers/gif-reader.js';
import { gifView } from '../helpers/gif-view.js';
import { realdata } from '../helpers/realdata.js';
import { parseAction } from '../../src/avatar/request.js';

const flash = realdata('flash');
const nitro = realdata('nitro');

const FIGURES = [
  'hd-180-1.hr-100-61.ch-210-66.lg-270-82.sh-290-80',
  'hd-600-10.hr-515-45.ch-635-70.lg-700-82.sh-725-80.ea-1401-62',
];

for (const [label, data] of [
  ['nitro', nitro],
  ['flash', flash],
] as const) {
  test(`${label}: GIFs of real figures are the frames, exact colours, at every size and direction`, {
    skip: data.skip,
  }, async () => {
    const hotel = await loadAvatarHotel(data.path);
    let checked = 0;
    for (const figure of FIGURES) {
      for (const size of ['s', 'm', 'l'] as const) {
        for (let d = 0; d < 8; d++) {
          for (const [action, headOnly] of [
            ['wav', false],
            ['std', false],
            ['spk', true],
            ['sit,wav', false],
          ] as const) {
            const req: AvatarRequest = {
              figure,
              direction: d,
              headDirection: d,
              size,
              action: parseAction(action),
              gesture: '',
              headOnly,
              animated: true,
              frames: 0,
            };
            let render;
            try {
              render = await renderAvatar(hotel, req);
            } catch {
              continue; // a set this data set cannot draw (the service's 302)
            }
            const gif = readGif(await encodeAvatar(render, 'gif'));
            const where = `${figure} ${size} ${d} ${action}${headOnly ? ' headonly' : ''}`;
            assert.deepEqual([gif.width, gif.height], [render.width, render.height], where);
            assert.ok(gif.globalTable, `${where}: one global table`);
            assert.deepEqual(
              gifFramesRgba(gif),
              render.frames.map((f) => gifView(f.data, f.width)),
              where,
            );
            assert.ok(
              gif.frames.every((f) => f.disposal === 2 && f.transparentIndex === 0),
              where,
            );
            if (render.frames.length === 2)
              assert.deepEqual(
                gif.frames.map((f) => f.delayCs),
                [17, 16],
                where,
              );
            checked++;
          }
        }
      }
    }
    assert.ok(checked >= 96, `${checked} renders checked`);
  });
}
