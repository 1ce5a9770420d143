// Which bundle a furnidata id names: room items first, then wall items; a wall `poster` with vortex-imager's
// `extra` is that poster (`poster<extra>`, as the client's RoomContentLoader names it), and the answer's key
// follows the bundle drawn.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ImageCache } from '../../../src/core/cache/image-cache.js';
import { HotelFurniService } from '../../../src/core/hotel-furni/hotel-furni-service.js';
import { parseVortexQuery } from '../../../src/core/hotel-furni/params.js';
import { type FurniRenderOutput } from '../../../src/core/render/render-pool.js';
import { type FurniWork } from '../../../src/core/render/render-protocol.js';

let cache: ImageCache;
before(async () => {
  cache = new ImageCache({ memoryBytes: 1024 * 1024, diskBytes: 0 });
  await cache.open();
});

test("vortex's id= and extra=: a wall poster is poster<extra>; a room item and other wall items are their own", async () => {
  const asked: string[] = [];
  const render = async (work: FurniWork): Promise<FurniRenderOutput> => {
    if ('draw' in work) asked.push(work.draw.base);
    return { body: Buffer.from('png'), frames: 1, width: 1, height: 1 };
  };
  const svc = new HotelFurniService(
    {
      bundles: { hotelRoot: '/srv/hotel', signature: 's' },
      ids: {
        room: new Map([[13, 'chair_plasto']]),
        wall: new Map([
          [4001, 'poster'],
          [4002, 'window_basic'],
          [13, 'poster'],
        ]),
      },
      furnidata: { file: '/srv/hotel/gamedata/FurnitureData.json', digest: 'd' },
    },
    { cache, render },
  );
  const keys: string[] = [];
  for (const q of [
    'id=4001&extra=7',
    'id=4001',
    'id=4001&extra=',
    'id=4002&extra=7',
    'id=13&extra=7',
    'id=13&wallitem=1&extra=52',
  ]) {
    const a = await svc.answer(parseVortexQuery(q), '');
    assert.equal(a.kind, 'image', q);
    if (a.kind === 'image') keys.push(a.key);
  }
  assert.deepEqual(asked, ['poster7', 'poster', 'window_basic', 'chair_plasto', 'poster52']);
  // id=4001 and id=4001&extra= are one picture (one drawing, one key); poster7 another.
  assert.equal(keys[1], keys[2]);
  assert.notEqual(keys[0], keys[1]);
});
