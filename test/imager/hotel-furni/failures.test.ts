// What furni on demand answers when the render workers draw nothing: the pool's failures (a bundle past the
// render deadline, a worker taken down, the queue full, no bundle, nothing visible) each mapped to one answer,
// never a 5xx; and an item that ran out of time or took its worker down is not sent to a worker again until the
// files change (a hostile bundle must not cost a worker a request).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ImageCache } from '../../../src/core/cache/image-cache.js';
import { HotelFurniService, type HotelFurniFiles } from '../../../src/core/hotel-furni/hotel-furni-service.js';
import { parseChromaQuery } from '../../../src/core/hotel-furni/params.js';
import {
  type FurniRenderOutput,
  RenderBusyError,
  RenderCrashError,
  RenderFailedError,
} from '../../../src/core/render/render-pool.js';
import { type FurniWork } from '../../../src/core/render/render-protocol.js';

let cache: ImageCache;
before(async () => {
  cache = new ImageCache({ memoryBytes: 1024 * 1024, diskBytes: 0 });
  await cache.open();
});

function files(signature: string): HotelFurniFiles {
  return {
    bundles: { hotelRoot: '/srv/hotel', signature },
    ids: { room: new Map(), wall: new Map() },
    furnidata: { missing: 'none' },
  };
}

/** A service whose workers fail every job of `failing` with `error`, and draw a 1×1 PNG for the rest. */
function service(failing: string, error: () => Error) {
  const asked: string[] = [];
  const render = async (work: FurniWork): Promise<FurniRenderOutput> => {
    const base = 'draw' in work ? work.draw.base : '(held)';
    asked.push(base);
    if (base === failing) throw error();
    return { body: Buffer.from(`png of ${base}`), frames: 1, width: 1, height: 1 };
  };
  return { svc: new HotelFurniService(files('one'), { cache, render }), asked };
}

const ask = (svc: HotelFurniService, sprite: string) => svc.answer(parseChromaQuery(`sprite=${sprite}`), 'usage');

test('a bundle past the render deadline: 404 with the reason, and the next request does not go to a worker', async () => {
  const { svc, asked } = service('slow_chair', () => new RenderFailedError('timeout', 'render took longer than 50 ms'));
  const first = await ask(svc, 'slow_chair');
  assert.deepEqual(first, {
    kind: 'text',
    status: 404,
    reason: 'nothing to draw for slow_chair: render took longer than 50 ms\n',
  });
  const again = await ask(svc, 'slow_chair&direction=4');
  assert.deepEqual(again, {
    kind: 'text',
    status: 404,
    reason: 'nothing to draw for slow_chair: render took longer than 50 ms\n',
  });
  assert.deepEqual(asked, ['slow_chair']);
  assert.equal(svc.stats().renderErrors, 1);
  // Other items still draw; new files (a changed folder) are tried again.
  assert.equal((await ask(svc, 'good_chair')).kind, 'image');
  svc.swap(files('two'));
  await ask(svc, 'slow_chair');
  assert.deepEqual(asked, ['slow_chair', 'good_chair', 'slow_chair']);
});

test('a worker taken down under the job: 404 naming it, remembered like a timeout', async () => {
  const { svc, asked } = service('crash_lamp', () => new RenderCrashError('render worker exited with code 1'));
  const want = {
    kind: 'text',
    status: 404,
    reason: 'nothing to draw for crash_lamp: render worker exited with code 1\n',
  };
  assert.deepEqual(await ask(svc, 'crash_lamp'), want);
  assert.deepEqual(await ask(svc, 'crash_lamp'), want);
  assert.deepEqual(asked, ['crash_lamp']);
});

test('a bundle that breaks the renderer: 404 saying it cannot be drawn', async () => {
  const { svc } = service('odd_table', () => new RenderFailedError('furni-broken', 'no layer 7'));
  assert.deepEqual(await ask(svc, 'odd_table'), {
    kind: 'text',
    status: 404,
    reason: 'nothing to draw for odd_table: its bundle cannot be drawn (no layer 7)\n',
  });
});

test('the render queue full: 429 Retry-After 1, and the item is asked for again next time', async () => {
  const { svc, asked } = service('any_sofa', () => new RenderBusyError('render queue full (64 waiting)'));
  const want = { kind: 'text', status: 429, reason: 'too many renders: try again in a second\n', retryAfterS: 1 };
  assert.deepEqual(await ask(svc, 'any_sofa'), want);
  assert.deepEqual(await ask(svc, 'any_sofa'), want);
  assert.deepEqual(asked, ['any_sofa', 'any_sofa']);
});

test("no bundle, or nothing visible: 404 with the worker's reason, not remembered", async () => {
  const missing = service(
    'gone',
    () => new RenderFailedError('furni-no-bundle', 'no bundle bundled/furniture/gone.nitro'),
  );
  assert.deepEqual(await ask(missing.svc, 'gone'), {
    kind: 'text',
    status: 404,
    reason: 'no furni gone in this hotel: no bundle bundled/furniture/gone.nitro\n',
  });
  const empty = service(
    'blank',
    () => new RenderFailedError('furni-nothing', 'nothing visible in state 0, direction 2'),
  );
  const want = {
    kind: 'text',
    status: 404,
    reason: 'nothing to draw for blank: nothing visible in state 0, direction 2\n',
  };
  assert.deepEqual(await empty.svc.answer(parseChromaQuery('sprite=blank'), 'usage'), want);
  await ask(missing.svc, 'gone');
  assert.deepEqual(missing.asked, ['gone', 'gone']);
});

test('concurrent asks for one picture share one worker job and its answer, a 429 too; the next ask asks again', async () => {
  const { svc, asked } = service('crowded_sofa', () => new RenderBusyError('render queue full (64 waiting)'));
  const busy = await Promise.all([1, 2, 3].map(() => ask(svc, 'crowded_sofa')));
  assert.equal(busy[1], busy[0], 'the joiners get the answer of the ask that started the job');
  assert.equal(busy[2], busy[0]);
  assert.equal(busy[0].kind === 'text' && busy[0].status, 429);
  assert.deepEqual(asked, ['crowded_sofa']);
  assert.equal(svc.stats().coalesced, 2);
  await ask(svc, 'crowded_sofa');
  assert.deepEqual(asked, ['crowded_sofa', 'crowded_sofa'], 'a settled job is not joined');

  const drawn = await Promise.all([1, 2, 3].map(() => ask(svc, 'shared_lamp')));
  assert.ok(drawn.every((a) => a.kind === 'image' && a.source === 'render'));
  assert.equal(drawn[1], drawn[0]);
  assert.deepEqual(asked, ['crowded_sofa', 'crowded_sofa', 'shared_lamp']);
  assert.equal(svc.stats().coalesced, 4);
  const later = await ask(svc, 'shared_lamp');
  assert.equal(later.kind === 'image' && later.source, 'memory');
});
