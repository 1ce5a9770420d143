// The room core without HTTP, with sources and renderers that misbehave on purpose: a read that never
// answers, a source that throws a database error, a render that never ends, more renders than turns. Each
// ends in an answer within its deadline: the last image marked stale, or 503 with Retry-After 5.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ImageCache } from '../../../src/core/cache/image-cache.js';
import { RoomService, type RoomRenderer } from '../../../src/core/room/room-service.js';
import { type RoomRead, type RoomSource } from '../../../src/core/room/source.js';
import { canonicalOptions, parseRoomId, parseRoomQuery } from '../../../src/core/room/params.js';
import { roomData, type RoomData } from '../../../src/room/index.js';

const ROOM: RoomData = roomData({ id: 1, heightmap: '000\r000', door: { x: 0, y: 0, dir: 2 } });

/** A 2 × 2 opaque picture (the renderer's shape), so no room.nitro is needed here. */
const tinyRender: RoomRenderer = async () => ({
  width: 2,
  height: 2,
  rgba: Buffer.alloc(16, 200),
  report: {} as never,
});

function service(source: RoomSource, render: RoomRenderer = tinyRender, options = {}) {
  return new RoomService(
    {
      source,
      assets: () => ({ identity: 'test-assets' }),
      cache: new ImageCache({ memoryBytes: 1 << 20, diskBytes: 0 }),
      render,
    },
    { rereadMs: 0, readTimeoutMs: 200, renderTimeoutMs: 300, ...options },
  );
}

const found = (read: Partial<RoomRead> = {}): RoomRead => ({ room: ROOM, moreItems: false, moreBots: false, ...read });

test('parameters: one spelling per meaning; malformed values are the defaults; room ids are canonical', () => {
  assert.equal(
    canonicalOptions(parseRoomQuery(1, '')),
    canonicalOptions(parseRoomQuery(1, 'size=x&bg=red&walls=x&zoom=0.5')),
  );
  assert.equal(
    canonicalOptions(
      parseRoomQuery(1, 'size=s&walls=0&furni=false&bots=no&floor=101&wall=2.1&landscape=1.5&bg=%23AbCdEf'),
    ),
    'size=32&walls=0&furni=0&bots=0&floor=101&wall=2.1&landscape=1.5&bg=abcdef',
  );
  assert.equal(parseRoomQuery(1, 'floor=../x').options.floor, undefined);
  // bg= as on the avatar and furni URLs: AARRGGBB too; an opaque one keeps its 6-digit key.
  assert.deepEqual(parseRoomQuery(1, 'bg=80336699').bg, { rgb: 0x336699, alpha: 128 });
  assert.match(canonicalOptions(parseRoomQuery(1, 'bg=80336699')), /&bg=336699\/128$/);
  assert.match(canonicalOptions(parseRoomQuery(1, 'bg=ff336699')), /&bg=336699$/);
  assert.equal(parseRoomQuery(1, 'bg=00336699').bg, undefined);
  // size and zoom as vortex-imager reads them: l and b are 2× and 3× of size 64, zoom= wins, whole steps to 4.
  const zoomOf = (q: string) => [parseRoomQuery(1, q).options.size, parseRoomQuery(1, q).zoom];
  assert.deepEqual(zoomOf('size=l'), [64, 2]);
  assert.deepEqual(zoomOf('size=B'), [64, 3]);
  assert.deepEqual(zoomOf('size=s&zoom=2.9'), [32, 2]);
  assert.deepEqual(zoomOf('size=l&zoom=1'), [64, undefined]);
  assert.deepEqual(zoomOf('scale=9'), [64, 4]);
  assert.deepEqual(zoomOf('size=l&zoom=0.5'), [64, 2]);
  assert.match(canonicalOptions(parseRoomQuery(1, 'size=l')), /&bg=-&zoom=2$/);
  assert.match(canonicalOptions(parseRoomQuery(1, 'size=m&zoom=1')), /&bg=-$/);
  // frame as vortex-imager reads it: whole ticks, 0 to 600; only a tick above 0 joins the key.
  const tickOf = (q: string) => parseRoomQuery(1, q).options.tick;
  assert.deepEqual(['frame=7', 'frame=7.9', 'frame=600', 'frame=601', 'frame=0', 'frame=-1', 'frame=x'].map(tickOf), [
    7,
    7,
    600,
    600,
    undefined,
    undefined,
    undefined,
  ]);
  assert.equal(
    canonicalOptions(parseRoomQuery(1, 'size=l&frame=7')),
    'size=64&walls=1&furni=1&bots=1&floor=-&wall=-&landscape=-&bg=-&zoom=2&frame=7',
  );
  assert.equal(
    canonicalOptions(parseRoomQuery(1, 'frame=0')),
    'size=64&walls=1&furni=1&bots=1&floor=-&wall=-&landscape=-&bg=-',
  );
  assert.equal(parseRoomId('/12.png', true), 12);
  assert.equal(parseRoomId('/012.png', true), undefined);
  assert.equal(parseRoomId('/2147483648.png', true), undefined);
  assert.equal(parseRoomId('/12', false), 12);
});

test('a read that never answers: 503 with Retry-After 5 at the read deadline, and the held image when there is one', async () => {
  let hang = false;
  const source: RoomSource = {
    kind: 'database',
    read: () => (hang ? new Promise(() => undefined) : Promise.resolve(found())),
  };
  const svc = service(source);
  const first = await svc.answer(1, 'size=s');
  assert.equal(first.kind, 'image');
  hang = true;
  let t = Date.now();
  const held = await svc.answer(1, 'size=s');
  assert.ok(Date.now() - t < 1000);
  assert.equal(held.kind, 'image');
  assert.equal(
    held.kind === 'image' && held.stale,
    "the room's data could not be read (reading the room took longer than 200 ms)",
  );
  assert.equal(held.kind === 'image' && held.cacheControl, 'public, max-age=5');
  t = Date.now();
  const other = await svc.answer(1, 'size=m');
  assert.ok(Date.now() - t < 1000);
  assert.deepEqual(other, {
    kind: 'text',
    status: 503,
    reason:
      "the room cannot be drawn now: the room's data could not be read (reading the room took longer than 200 ms); try again in 5 s\n",
    retryAfterS: 5,
  });
});

test('a database error names its kind; a model that is not there is a 404 with the reason', async () => {
  const { RoomDataError } = await import('../../../src/core/room/source.js');
  const down = service({
    kind: 'database',
    read: () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { kind: 'unavailable' })),
  });
  const a = await down.answer(1, '');
  assert.equal(a.kind === 'text' && a.status, 503);
  assert.match(a.kind === 'text' ? a.reason : '', /\(unavailable: connect ECONNREFUSED 127\.0\.0\.1:1\)/);
  const broken = service({
    kind: 'database',
    read: () => Promise.reject(new RoomDataError('room 1\'s model "m" is not in room_models')),
  });
  const b = await broken.answer(1, '');
  assert.deepEqual(b, {
    kind: 'text',
    status: 404,
    reason: 'room 1 cannot be drawn: room 1\'s model "m" is not in room_models\n',
  });
});

test('a render that never ends is a 503 at the render deadline; more renders than turns and queue are refused at once', async () => {
  const never: RoomRenderer = () => new Promise(() => undefined);
  const svc = service({ kind: 'file', read: () => Promise.resolve(found()) }, never, { renderJobs: 1, maxQueue: 1 });
  const t = Date.now();
  const [slow, queued, refused] = await Promise.all([
    svc.answer(1, 'bg=000001'),
    svc.answer(1, 'bg=000002'),
    svc.answer(1, 'bg=000003'),
  ]);
  assert.ok(Date.now() - t < 1500, `${Date.now() - t} ms`);
  for (const a of [slow, queued, refused]) assert.equal(a.kind === 'text' && a.status, 503);
  assert.match(refused.kind === 'text' ? refused.reason : '', /1 room renders are already waiting/);
  assert.match(slow.kind === 'text' ? slow.reason : '', /the room render took longer than 300 ms/);
  assert.equal(svc.stats().queueFull, 1);
});

test('the render workers busy, past their deadline or crashed: 503 with Retry-After 5, not a 500', async () => {
  const { RenderBusyError, RenderCrashError, RenderFailedError } = await import(
    '../../../src/core/render/render-pool.js'
  );
  const failures: [Error, string][] = [
    [new RenderBusyError('render queue full (1024 waiting)'), 'render queue full (1024 waiting)'],
    [new RenderCrashError('render worker exited with code 1'), 'render worker exited with code 1'],
    [new RenderFailedError('timeout', 'render took longer than 20000 ms'), 'render took longer than 20000 ms'],
  ];
  for (const [error, why] of failures) {
    const svc = service({ kind: 'file', read: () => Promise.resolve(found()) }, () => Promise.reject(error));
    assert.deepEqual(await svc.answer(1, ''), {
      kind: 'text',
      status: 503,
      reason: `the room cannot be drawn now: ${why}; try again in 5 s\n`,
      retryAfterS: 5,
    });
    assert.equal(svc.stats().renderErrors, 0, error.name);
  }
  // Any other failure of the renderer is the service's own error, thrown to the handler's 500.
  const broken = service({ kind: 'file', read: () => Promise.resolve(found()) }, () =>
    Promise.reject(new RenderFailedError('TypeError', 'x is undefined')),
  );
  await assert.rejects(broken.answer(1, ''), /x is undefined/);
});

test('concurrent asks share one read and one render, counted as joined; a failed render is not remembered', async () => {
  const pause = () => new Promise((r) => setTimeout(r, 20));
  let reads = 0;
  let renders = 0;
  let fail = true;
  const source: RoomSource = {
    kind: 'file',
    read: async () => {
      reads++;
      await pause();
      return found();
    },
  };
  const render: RoomRenderer = async (...args) => {
    renders++;
    await pause();
    if (fail) throw new Error('the renderer broke');
    return tinyRender(...args);
  };
  const logged: string[] = [];
  const svc = new RoomService(
    {
      source,
      assets: () => ({ identity: 'test-assets' }),
      cache: new ImageCache({ memoryBytes: 1 << 20, diskBytes: 0 }),
      render,
      log: (_level, message) => logged.push(message),
    },
    { rereadMs: 0, readTimeoutMs: 1000, renderTimeoutMs: 1000 },
  );
  const failed = await Promise.allSettled([1, 2, 3].map(() => svc.answer(1, 'size=s')));
  for (const f of failed) assert.match(f.status === 'rejected' ? String(f.reason) : 'fulfilled', /the renderer broke/);
  assert.deepEqual([reads, renders], [1, 1]);
  let stats = svc.stats();
  assert.deepEqual([stats.coalescedReads, stats.coalescedRenders, stats.renderErrors], [2, 2, 1]);
  assert.deepEqual(logged, ['room render failed'], 'the failure is logged once, by the ask that rendered');

  fail = false;
  const answers = await Promise.all([1, 2, 3].map(() => svc.answer(1, 'size=s')));
  assert.deepEqual([reads, renders], [2, 2], 'read and rendered again');
  const images = answers.map((a) => (a.kind === 'image' ? a.image : undefined));
  assert.ok(images[0]);
  assert.ok(
    images.every((i) => i === images[0]),
    'one image for all three',
  );
  assert.deepEqual(
    answers.map((a) => a.kind === 'image' && a.source),
    ['render', 'render', 'render'],
  );
  stats = svc.stats();
  assert.deepEqual([stats.coalescedReads, stats.coalescedRenders, stats.renders, stats.renderErrors], [4, 4, 1, 1]);
});
