// The room routes over a real socket, on the sample kit (its procedural room.nitro, its furni and its demo
// room in rooms/1.json, read by the file source): status codes, the headers a page and a CDN depend on, the
// methods, 404 text/plain, bg=, the re-read window (a moved chair shows after it; an unchanged room is the
// same entry), concurrent requests rendering once, the thumbnail (stored file or render), the debug page,
// the item bound, and rooms off without room files.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSampleKit } from '../../../src/samplekit/index.js';
import { demoRoom } from '../../../src/samplekit/demo-room.js';
import { ROOM_LIBRARY_PATH, roomLibrary } from '../../../src/samplekit/room/index.js';
import { writeAssetLibrary } from '../../../src/formats/asset-library.js';
import { startAvatarService, type AvatarServiceInstance } from '../../../src/server/imager.js';
import { type AvatarServiceConfig } from '../../../src/core/avatar/config.js';
import { decodeImage } from '../../../src/imaging/codec.js';
import { scaleNearest } from '../../../src/imaging/image.js';
import { parsePrometheusText, sampleValue } from '../../helpers/prom-text.js';
import { deadBase, testAvatarConfig } from '../avatar/fixtures.js';

const ROOM_CACHE_CONTROL = 'public, max-age=50, stale-while-revalidate=60';

let scratch: string;
let kit: string;
let userApi: string;
let svc: AvatarServiceInstance & { url: string };
const started: (AvatarServiceInstance & { url: string })[] = [];

async function start(assetsDir: string, over: Partial<AvatarServiceConfig> = {}) {
  const s = await startAvatarService(testAvatarConfig(assetsDir, userApi, { checkIntervalMs: 0, ...over }));
  started.push(s);
  return s;
}

type Room = Record<string, unknown> & { items: Record<string, unknown>[] };

async function writeRoom(id: number, room: Room, dir = kit): Promise<void> {
  await writeFile(join(dir, 'rooms', `${id}.json`), JSON.stringify({ ...room, id }));
}

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'room-http-'));
  const shared = join(scratch, 'shared-kit');
  await ensureSampleKit(shared);
  kit = join(scratch, 'kit');
  await cp(shared, kit, { recursive: true });
  userApi = await deadBase();
  svc = await start(kit);
});

after(async () => {
  for (const s of started) await s.close();
  await rm(scratch, { recursive: true, force: true });
});

async function get(path: string, init: RequestInit = {}, base = svc.url) {
  const res = await fetch(base + path, init);
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

test("rooms are drawn in the render workers, the bot with a worker's own figure libraries", async () => {
  // A fresh service: its workers have drawn nothing yet.
  const s = await start(kit);
  assert.equal(s.pool.stats().libraryBytes.figure, 0);
  const a = await get('/habbo-imaging/room/1.png?bg=123456', {}, s.url);
  assert.equal(a.res.status, 200);
  const pool = s.pool.stats();
  assert.equal(pool.rendered, 1, 'one job: the room');
  assert.deepEqual(pool.byKind.room, { rendered: 1, rejected: 0, failed: 0 });
  assert.ok(pool.libraryBytes.figure > 0, "the kit room's bot loaded figure libraries in a worker");
  const thumb = await get('/thumbnail/1.png', {}, s.url);
  assert.equal(thumb.res.status, 200);
  assert.equal(s.pool.stats().rendered, 2, 'the thumbnail is another room job');
  assert.equal(s.pool.stats().failed, 0);
});

test('a changed room.nitro is drawn after a reload: the workers load the new one, not the one they hold', async () => {
  const copy = join(scratch, 'visualization-kit');
  await cp(kit, copy, { recursive: true });
  const s = await start(copy);
  const path = '/habbo-imaging/room/1.png?size=s';
  const before = await get(path, {}, s.url);
  assert.equal(before.res.status, 200);
  // Every floor texture painted solid red (a hotel update of its room visualization).
  const lib = roomLibrary();
  for (const [name, img] of lib.sprites)
    if (name.startsWith('floor_texture'))
      for (let i = 0; i < img.data.length; i += 4) img.data.set([255, 0, 0, 255], i);
  await writeFile(join(copy, ROOM_LIBRARY_PATH), await writeAssetLibrary(lib));
  await s.reload();
  const after = await get(path, {}, s.url);
  assert.equal(after.res.status, 200);
  assert.ok(!after.body.equals(before.body), 'the floor changed');
  const fresh = await start(copy);
  const want = await get(path, {}, fresh.url);
  assert.ok(after.body.equals(want.body), 'the same picture as a service started on the changed folder');
});

test('the demo room: 200 image/png, transparent outside the room, short Cache-Control, ETag, CORS; then memory', async () => {
  const { res, body } = await get('/habbo-imaging/room/1.png');
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/png');
  assert.equal(res.headers.get('cache-control'), ROOM_CACHE_CONTROL);
  assert.match(res.headers.get('etag')!, /^"[A-Za-z0-9_-]{32}"$/);
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  assert.match(res.headers.get('access-control-expose-headers')!, /x-imager-stale/);
  assert.equal(res.headers.get('x-imager-cache'), 'render');
  assert.equal(res.headers.get('x-imager-stale'), null);
  const img = await decodeImage(body);
  assert.ok(img.width > 300 && img.height > 200, `${img.width}×${img.height}`);
  assert.equal(img.data[3], 0, 'the top-left corner is outside the room: transparent');
  const again = await get('/habbo-imaging/room/1.png');
  assert.equal(again.res.headers.get('x-imager-cache'), 'memory');
  assert.equal(again.res.headers.get('etag'), res.headers.get('etag'));
  assert.ok(again.body.equals(body));
});

test('HEAD has the GET headers and no body; If-None-Match → 304; OPTIONS → 204; POST → 405', async () => {
  const full = await get('/habbo-imaging/room/1.png');
  const etag = full.res.headers.get('etag')!;
  const head = await get('/habbo-imaging/room/1.png', { method: 'HEAD' });
  assert.equal(head.res.status, 200);
  assert.equal(head.body.length, 0);
  assert.equal(head.res.headers.get('content-length'), String(full.body.length));
  assert.equal(head.res.headers.get('etag'), etag);
  const cond = await get('/habbo-imaging/room/1.png', { headers: { 'if-none-match': etag } });
  assert.equal(cond.res.status, 304);
  assert.equal(cond.body.length, 0);
  assert.equal(cond.res.headers.get('etag'), etag);
  assert.equal(cond.res.headers.get('cache-control'), ROOM_CACHE_CONTROL);
  const pre = await get('/habbo-imaging/room/1.png', { method: 'OPTIONS' });
  assert.equal(pre.res.status, 204);
  assert.equal(pre.res.headers.get('access-control-allow-methods'), 'GET, HEAD, OPTIONS');
  const post = await get('/habbo-imaging/room/1.png', { method: 'POST' });
  assert.equal(post.res.status, 405);
  assert.equal(post.res.headers.get('allow'), 'GET, HEAD, OPTIONS');
  assert.equal(post.body.toString(), 'method not allowed\n');
});

test('an unknown room and a path that names no room: 404 text/plain with the reason', async () => {
  const none = await get('/habbo-imaging/room/999.png');
  assert.equal(none.res.status, 404);
  assert.equal(none.res.headers.get('content-type'), 'text/plain; charset=utf-8');
  assert.equal(none.body.toString(), 'no room 999 in this hotel\n');
  for (const path of ['/habbo-imaging/room/abc.png', '/habbo-imaging/room/01.png', '/habbo-imaging/room/1.jpg']) {
    const bad = await get(path);
    assert.equal(bad.res.status, 404, path);
    assert.equal(bad.res.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(
      bad.body.toString(),
      'not found: use /habbo-imaging/room/<room id>.png (a room id is a whole number ≥ 1)\n',
      path,
    );
  }
});

test('size=s is half the size; bg=RRGGBB fills the transparent pixels; unknown values are the defaults', async () => {
  const m = await decodeImage((await get('/habbo-imaging/room/1.png')).body);
  const s = await decodeImage((await get('/habbo-imaging/room/1.png?size=s')).body);
  assert.ok(Math.abs(s.width - m.width / 2) <= 2 && Math.abs(s.height - m.height / 2) <= 2, `${s.width} vs ${m.width}`);
  const bg = await decodeImage((await get('/habbo-imaging/room/1.png?bg=336699')).body);
  assert.deepEqual([...bg.data.subarray(0, 4)], [0x33, 0x66, 0x99, 255]);
  const plain = await get('/habbo-imaging/room/1.png');
  const odd = await get('/habbo-imaging/room/1.png?size=xl&bg=blue&walls=maybe&floor=../etc');
  assert.equal(odd.res.status, 200);
  assert.equal(odd.res.headers.get('etag'), plain.res.headers.get('etag'));
  assert.equal(odd.res.headers.get('x-imager-cache'), 'memory', 'the same picture is the same entry');
  const noWalls = await get('/habbo-imaging/room/1.png?walls=0');
  assert.notEqual(noWalls.res.headers.get('etag'), plain.res.headers.get('etag'));
});

test('frame= (vortex-imager): every item at that tick of its state animation, 0 to 600; the resting frame otherwise', async () => {
  // The LED board in state 1: frames 1, 2, 3, each shown for 4 ticks, looping.
  const room = demoRoom() as unknown as Room;
  const led = room.items.findIndex((i) => i.classname === 'kit_wall_led');
  await writeRoom(21, { ...room, items: room.items.map((it, i) => (i === led ? { ...it, extraData: '1' } : it)) });
  const at = async (q: string) => {
    const r = await get(`/habbo-imaging/room/21.png${q}`);
    assert.equal(r.res.status, 200, q);
    return r;
  };
  const rest = await at('');
  for (const same of ['?frame=0', '?frame=-3', '?frame=abc']) {
    const r = await at(same);
    assert.equal(r.res.headers.get('x-imager-cache'), 'memory', `${same} names the resting picture`);
    assert.ok(r.body.equals(rest.body), same);
  }
  const four = await at('?frame=4');
  assert.equal(four.res.headers.get('x-imager-cache'), 'render');
  assert.ok(!four.body.equals(rest.body), 'tick 4 shows the second frame');
  assert.ok((await at('?frame=4.9')).body.equals(four.body), 'whole ticks');
  const twelve = await at('?frame=12');
  assert.equal(twelve.res.headers.get('x-imager-cache'), 'render');
  assert.ok(twelve.body.equals(rest.body), 'tick 12 is the loop back at its first frame');
  const capped = await at('?frame=600');
  const over = await at('?frame=99999');
  assert.equal(over.res.headers.get('x-imager-cache'), 'memory', 'past 600 is 600');
  assert.ok(over.body.equals(capped.body));
});

test("size=l and zoom=: vortex-imager's whole-number enlargements of the same picture, on its background", async () => {
  const m = await decodeImage((await get('/habbo-imaging/room/1.png?bg=80336699')).body);
  const l = await decodeImage((await get('/habbo-imaging/room/1.png?size=l&bg=80336699')).body);
  assert.deepEqual(l, scaleNearest(m, 2));
  assert.deepEqual([...m.data.subarray(0, 4)], [0x33, 0x66, 0x99, 0x80]);
  const z3 = await get('/habbo-imaging/room/1.png?zoom=3');
  const b = await get('/habbo-imaging/room/1.png?size=b');
  assert.equal(z3.res.headers.get('etag'), b.res.headers.get('etag'), 'size=b is zoom=3');
  assert.deepEqual(
    await decodeImage(z3.body),
    scaleNearest(await decodeImage((await get('/habbo-imaging/room/1.png')).body), 3),
  );
});

test('a moved chair shows once the re-read window has passed; moved back, the first picture is the same entry', async () => {
  const s = await start(kit, { roomRereadMs: 3000 });
  const room = demoRoom() as unknown as Room;
  await writeRoom(2, room);
  const first = await get('/habbo-imaging/room/2.png', {}, s.url);
  assert.equal(first.res.status, 200);
  assert.equal(first.res.headers.get('cache-control'), 'public, max-age=57, stale-while-revalidate=60');
  const chair = room.items.findIndex((i) => i.classname === 'kit_chair_4dir');
  const moved = { ...room, items: room.items.map((it, i) => (i === chair ? { ...it, x: 7, y: 7 } : it)) };
  await writeRoom(2, moved);
  const within = await get('/habbo-imaging/room/2.png', {}, s.url);
  assert.equal(within.res.headers.get('etag'), first.res.headers.get('etag'), 'rows trusted within the window');
  await new Promise((r) => setTimeout(r, 3100));
  const after = await get('/habbo-imaging/room/2.png', {}, s.url);
  assert.notEqual(after.res.headers.get('etag'), first.res.headers.get('etag'));
  assert.equal(after.res.headers.get('x-imager-cache'), 'render');
  assert.ok(!after.body.equals(first.body));
  await writeRoom(2, room);
  await new Promise((r) => setTimeout(r, 3100));
  const back = await get('/habbo-imaging/room/2.png', {}, s.url);
  assert.equal(back.res.headers.get('etag'), first.res.headers.get('etag'));
  assert.equal(back.res.headers.get('x-imager-cache'), 'memory', 'unchanged rows: a digest hit, nothing drawn');
  assert.ok(back.body.equals(first.body));
});

test('twenty concurrent requests for one cold room read its rows once and render once', async () => {
  const room = demoRoom() as unknown as Room;
  await writeRoom(3, room);
  const before = svc.rooms!.service.stats();
  const answers = await Promise.all(Array.from({ length: 20 }, () => get('/habbo-imaging/room/3.png?bg=102030')));
  const after = svc.rooms!.service.stats();
  assert.equal(after.renders! - before.renders!, 1);
  assert.equal(after.reads! - before.reads!, 1);
  const etags = new Set(answers.map((a) => a.res.headers.get('etag')));
  assert.equal(etags.size, 1);
  for (const a of answers) assert.equal(a.res.status, 200);
});

test('/thumbnail/<id>.png: our render fitted into the 110 × 110 square the client shows, or the stored file', async () => {
  const rendered = await get('/thumbnail/1.png');
  assert.equal(rendered.res.status, 200);
  assert.equal(rendered.res.headers.get('x-imager-thumbnail'), 'rendered');
  assert.equal(rendered.res.headers.get('cache-control'), ROOM_CACHE_CONTROL);
  const img = await decodeImage(rendered.body);
  assert.deepEqual([img.width, img.height], [110, 110]);
  assert.equal((await get('/thumbnail/999.png')).res.status, 404);
  const thumbs = join(scratch, 'thumbnails');
  await mkdir(thumbs, { recursive: true });
  // Any PNG other than our thumbnail stands for the emulator's saved one: its bytes must come back as they are.
  const file = (await get('/habbo-imaging/room/1.png?size=s')).body;
  assert.ok(!file.equals(rendered.body));
  await writeFile(join(thumbs, '1.png'), file);
  const s = await start(kit, { roomThumbnailsDir: thumbs });
  const fromFile = await get('/thumbnail/1.png', {}, s.url);
  assert.equal(fromFile.res.status, 200);
  assert.equal(fromFile.res.headers.get('x-imager-thumbnail'), 'stored');
  assert.ok(fromFile.body.equals(file));
  await writeRoom(4, demoRoom() as unknown as Room);
  const noFile = await get('/thumbnail/4.png', {}, s.url);
  assert.equal(noFile.res.headers.get('x-imager-thumbnail'), 'rendered');
  await assert.rejects(
    start(kit, { roomThumbnailsDir: join(scratch, 'nope') }),
    /the room thumbnail folder .*nope \(--room-thumbnails, HOTEL_IMAGER_ROOM_THUMBNAILS\) is not a folder/,
  );
});

test('the debug page lists planes, drawn items with tile, state and depth order, and what was skipped and why', async () => {
  const room = demoRoom() as unknown as Room;
  room.items.push({ ...room.items[0]!, id: 99, classname: 'kit_missing_bundle', x: 8, y: 8 });
  await writeRoom(5, room);
  const { res, body } = await get('/render/room/5');
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
  const html = body.toString();
  assert.match(html, /<h2>Planes \(\d+\)<\/h2>/);
  assert.match(html, /<td>\d+<\/td><td>floor<\/td><td>3<\/td><td>kit_chair_4dir<\/td><td>3, 2, 0<\/td><td>4<\/td>/);
  // Each drawn item lists the assets drawn for it, bottom to top.
  const chair = html.split('\n').find((l) => l.includes('<td>kit_chair_4dir</td>')) ?? '';
  assert.match(chair, /<td>kit_chair_4dir_64_a_4_0(<br>kit_chair_4dir_64_[b-z]_4_\d+)*<\/td><\/tr>$/);
  // A bot's: its figure parts as library:asset (the kit bot faces 4, drawn from direction 2 mirrored).
  assert.match(
    html,
    /<td>bot<\/td>.*<td>hh_human_body:h_std_lh_1_2_0(<br>[A-Za-z_]+:h_std_[a-z]+_\d+_2_0){11}<\/td><\/tr>/,
  );
  assert.match(html, /<h2>Skipped \(1\)<\/h2><ul><li>floor 99 kit_missing_bundle: /);
  assert.match(html, /data:image\/png;base64,/);
  const none = await get('/render/room/999');
  assert.equal(none.res.status, 404);
  assert.match(none.body.toString(), /no room 999 in this hotel/);
  assert.equal((await get('/render/room/1', { method: 'DELETE' })).res.status, 405);
});

test('a room with more items than --room-max-items is drawn with the first ones, and the debug page says so', async () => {
  const room = demoRoom() as unknown as Room;
  // 50 × 50 tiles (the renderer takes heightmaps up to 64 an axis), two or three crates a tile.
  const rows = 'x' + '0'.repeat(50);
  room.heightmap = ['x'.repeat(51), ...Array.from({ length: 50 }, () => rows)].join('\r');
  room.items = Array.from({ length: 5100 }, (_, i) => ({
    ...room.items[0]!,
    id: i + 1,
    classname: 'kit_crate',
    x: 1 + (i % 50),
    y: 1 + (Math.floor(i / 50) % 50),
    z: Math.floor(i / 2500),
    width: 1,
    length: 1,
  }));
  room.bots = [];
  room.pets = [];
  await writeRoom(6, room);
  const started = Date.now();
  const { res } = await get('/habbo-imaging/room/6.png');
  assert.equal(res.status, 200);
  const page = (await get('/render/room/6')).body.toString();
  assert.match(page, /the room has more than 5000 items: only the first ones \(by id\) were read and drawn/);
  assert.match(page, /<h2>Drawn \(5000, in depth order/);
  assert.ok(Date.now() - started < 60_000);
});

test('an assets folder without room files and no database: rooms are off, /healthz says why', async () => {
  const bare = join(scratch, 'bare');
  await cp(kit, bare, { recursive: true });
  await rm(join(bare, 'rooms'), { recursive: true });
  const s = await start(bare);
  const health = (await (await fetch(`${s.url}/healthz`)).json()) as { rooms: { enabled: boolean; reason: string } };
  assert.equal(health.rooms.enabled, false);
  assert.match(health.rooms.reason, /no database \(--database\) and no rooms\/ folder of room files/);
  const on = (await (await fetch(`${svc.url}/healthz`)).json()) as { rooms: { enabled: boolean; source: string } };
  assert.equal(on.rooms.enabled, true);
  assert.equal(on.rooms.source, 'file');
});

test('/metrics counts room requests under their folder and the room renders, reads and answers', async () => {
  const s = await start(kit);
  await get('/habbo-imaging/room/1.png', {}, s.url);
  await get('/habbo-imaging/room/1.png', {}, s.url);
  await get('/thumbnail/1.png', {}, s.url);
  await get('/render/room/1', {}, s.url);
  const m = parsePrometheusText(await (await fetch(`${s.url}/metrics`)).text());
  const requests = (route: string) => sampleValue(m, 'hotel_imager_http_requests_total', { route, status: '200' });
  assert.equal(requests('/habbo-imaging/room'), 2);
  assert.equal(requests('/thumbnail'), 1);
  assert.equal(requests('/render/room'), 1);
  assert.equal(sampleValue(m, 'hotel_imager_avatar_room_renders_total', {}), 2, 'the room and its thumbnail');
  assert.equal(sampleValue(m, 'hotel_imager_avatar_room_reads_total', {}), 1, 'one read in the re-read window');
  assert.equal(sampleValue(m, 'hotel_imager_avatar_room_stale_total', {}), 0);
  assert.equal(sampleValue(m, 'hotel_imager_avatar_room_renders_in_progress', {}), 0);
});
