// A room as it moves over a real socket, on the sample kit (its demo room with the LED board and the lamp
// switched on, as rooms/2.json): `.png?animated=1` is an APNG (acTL), `.gif` a GIF, both the still's size
// on every frame; `frame=N` stays the still; the still's key and bytes do not depend on the motion.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSampleKit } from '../../../src/samplekit/index.js';
import { demoRoom } from '../../../src/samplekit/demo-room.js';
import { startAvatarService, type AvatarServiceInstance } from '../../../src/server/imager.js';
import { canonicalOptions, parseRoomQuery } from '../../../src/core/room/params.js';
import { PNG_SIGNATURE, pngChunk, readPngChunks } from '../../../src/imaging/png-chunks.js';
import { decodeImage } from '../../../src/imaging/codec.js';
import { deadBase, testAvatarConfig } from '../avatar/fixtures.js';

let scratch: string;
let svc: AvatarServiceInstance & { url: string };

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'room-motion-http-'));
  const kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  const room = demoRoom();
  const on: Record<string, string> = { kit_wall_led: '1', kit_lamp_state2: '3' };
  const moving = {
    ...room,
    id: 2,
    items: room.items.map((it) => (on[it.classname] ? { ...it, extraData: on[it.classname]! } : it)),
  };
  await writeFile(join(kit, 'rooms', '2.json'), JSON.stringify(moving));
  svc = await startAvatarService(testAvatarConfig(kit, await deadBase(), { checkIntervalMs: 0 }));
});

after(async () => {
  await svc?.close();
  await rm(scratch, { recursive: true, force: true });
});

async function get(path: string) {
  const res = await fetch(svc.url + path);
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

test('.png?animated=1 is an APNG of the moving room: 6 frames of 2/24 s, the still size, later frames what changed', async () => {
  const still = await get('/habbo-imaging/room/2.png');
  assert.equal(still.res.status, 200);
  assert.equal(
    readPngChunks(still.body).some((c) => c.type === 'acTL'),
    false,
    'the still is a PNG',
  );
  const size = readPngChunks(still.body).find((c) => c.type === 'IHDR')!.data;
  const { res, body } = await get('/habbo-imaging/room/2.png?animated=1');
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/png');
  assert.equal(res.headers.get('x-imager-frames'), '6');
  const chunks = readPngChunks(body);
  assert.equal(chunks.find((c) => c.type === 'acTL')!.data.readUInt32BE(0), 6);
  assert.ok(
    chunks
      .find((c) => c.type === 'IHDR')!
      .data.subarray(0, 8)
      .equals(size.subarray(0, 8)),
    'the still size',
  );
  // Frame 0 the whole canvas; each later frame the rectangle that changed, inside it.
  chunks
    .filter((c) => c.type === 'fcTL')
    .forEach((f, i) => {
      const [w, h, x, y] = [0, 4, 8, 12].map((o) => f.data.readUInt32BE(4 + o));
      if (i === 0) assert.deepEqual([w, h, x, y], [size.readUInt32BE(0), size.readUInt32BE(4), 0, 0]);
      else assert.ok(x + w <= size.readUInt32BE(0) && y + h <= size.readUInt32BE(4), 'inside the canvas');
      assert.deepEqual([f.data.readUInt16BE(20), f.data.readUInt16BE(22)], [2, 24]);
    });
  assert.notEqual(res.headers.get('etag'), still.res.headers.get('etag'));
});

test('.gif is a GIF of the moving room, the still size; a room that does not move is a one-frame GIF', async () => {
  const still = await decodeImage((await get('/habbo-imaging/room/2.png')).body);
  const { res, body } = await get('/habbo-imaging/room/2.gif');
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/gif');
  assert.equal(res.headers.get('x-imager-frames'), '6');
  assert.equal(body.subarray(0, 6).toString('latin1'), 'GIF89a');
  assert.deepEqual([body.readUInt16LE(6), body.readUInt16LE(8)], [still.width, still.height]);
  const demo = await get('/habbo-imaging/room/1.gif');
  assert.equal(demo.res.headers.get('content-type'), 'image/gif');
  assert.equal(demo.res.headers.get('x-imager-frames'), '1');
  assert.equal((await get('/habbo-imaging/room/x.gif')).res.status, 404);
  assert.equal((await get('/thumbnail/2.gif')).res.status, 404, 'thumbnails stay PNG');
});

test('frame=N stays the still at tick N; the APNG from tick N starts with it', async () => {
  const still = await get('/habbo-imaging/room/2.png?frame=4');
  assert.equal(
    readPngChunks(still.body).some((c) => c.type === 'acTL'),
    false,
  );
  const moving = await get('/habbo-imaging/room/2.png?frame=4&animated=1');
  assert.ok(readPngChunks(moving.body).some((c) => c.type === 'acTL'));
  // The APNG's first frame (its IDAT) decodes as the still's pixels.
  const first = readPngChunks(moving.body).filter((c) => c.type !== 'fdAT' && c.type !== 'acTL' && c.type !== 'fcTL');
  const png = Buffer.concat([PNG_SIGNATURE, ...first.map((c) => pngChunk(c.type, c.data))]);
  const [a, b] = [await decodeImage(png), await decodeImage(still.body)];
  assert.ok(Buffer.from(a.data).equals(Buffer.from(b.data)));
});

test("the still's cache key does not change: motion joins it only when asked", () => {
  assert.equal(
    canonicalOptions(parseRoomQuery(2, 'frame=4')),
    'size=64&walls=1&furni=1&bots=1&floor=-&wall=-&landscape=-&bg=-&frame=4',
  );
  assert.equal(
    canonicalOptions(parseRoomQuery(2, 'animated=1')),
    'size=64&walls=1&furni=1&bots=1&floor=-&wall=-&landscape=-&bg=-&animated=1',
  );
  assert.equal(
    canonicalOptions(parseRoomQuery(2, 'animated=0', 'gif')),
    'size=64&walls=1&furni=1&bots=1&floor=-&wall=-&landscape=-&bg=-&format=gif',
  );
  assert.equal(parseRoomQuery(2, 'animated=no').motion, undefined);
});
