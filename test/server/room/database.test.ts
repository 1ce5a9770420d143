// Rooms read from a real MariaDB with the Arcturus tables and the emulator's default room models (the sample
// kit's furni and figures draw them): rooms placed on a model with stairs, on a custom model, with hidden
// walls, multi-tile items in four rotations, a stack, wall items on both walls and a bot; a chair moved by an
// UPDATE shows after the re-read window; a 5,100-item room is drawn with its first 5,000; and the database's
// faults (frozen, killed) give the last image marked stale, or a 503 with Retry-After, within the deadlines.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSampleKit } from '../../../src/samplekit/index.js';
import { startAvatarService, type AvatarServiceInstance } from '../../../src/server/imager.js';
import { type AvatarServiceConfig } from '../../../src/core/avatar/config.js';
import { MARIADB_SKIP, startMariaDb, type TestMariaDb } from '../../helpers/mariadb.js';
import { deadBase, testAvatarConfig } from '../avatar/fixtures.js';

const skip = MARIADB_SKIP;
let scratch: string;
let kit: string;
let db: TestMariaDb;
let userApi: string;
const started: (AvatarServiceInstance & { url: string })[] = [];

async function start(over: Partial<AvatarServiceConfig> = {}) {
  const s = await startAvatarService(
    testAvatarConfig(kit, userApi, { checkIntervalMs: 0, databaseUrl: db.url, databaseTimeoutMs: 500, ...over }),
  );
  started.push(s);
  return s;
}

async function get(base: string, path: string, init: RequestInit = {}) {
  const res = await fetch(base + path, init);
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

// items_base rows for the kit's furni (ids 1…): classname, type, width, length.
const BASES: [string, 's' | 'i', number, number][] = [
  ['kit_chair_4dir', 's', 1, 1],
  ['kit_big_3x2', 's', 3, 2],
  ['kit_crate', 's', 1, 1],
  ['kit_wall_poster', 'i', 1, 1],
  ['kit_wall_shelf*2', 'i', 1, 1],
  ['kit_table_sd', 's', 2, 2],
  ['kit_missing_bundle', 's', 1, 1],
];
const base = (classname: string) => BASES.findIndex((b) => b[0] === classname) + 1;
const FIGURE = 'hd-180-1.hr-100-61.ch-210-66.lg-270-82.sh-290-80';
const CUSTOM = 'xxxxxx\\r\\nx00000\\r\\nx00000\\r\\n000000\\r\\nx00000';

before(async () => {
  if (skip) return;
  scratch = await mkdtemp(join(tmpdir(), 'room-db-'));
  kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  userApi = await deadBase();
  db = await startMariaDb();
  const item = (room: number, cn: string, x: number, y: number, z: number, rot: number, wall = '') =>
    `(${room}, ${base(cn)}, ${x}, ${y}, ${z}, ${rot}, '${wall}', '0')`;
  await db.sql(`
    INSERT INTO items_base (id, item_name, type, width, length) VALUES
      ${BASES.map(([cn, type, w, l], i) => `(${i + 1}, '${cn}', '${type}', ${w}, ${l})`).join(',\n')};
    INSERT INTO rooms (id, name, model) VALUES (10, 'stairs', 'model_r'), (13, 'crowded', 'model_a');
    INSERT INTO rooms (id, name, model, override_model) VALUES (11, 'custom', 'model_a', '1');
    INSERT INTO rooms (id, name, model, allow_hidewall, paper_floor) VALUES (12, 'hidden walls', 'model_a', '1', '101');
    INSERT INTO room_models_custom (id, name, door_x, door_y, door_dir, heightmap) VALUES
      (11, 'custom_11', 0, 3, 2, '${CUSTOM}');
    INSERT INTO items (room_id, item_id, x, y, z, rot, wall_pos, extra_data) VALUES
      ${[
        item(10, 'kit_big_3x2', 12, 5, 4, 0),
        item(10, 'kit_big_3x2', 16, 5, 4, 2),
        item(10, 'kit_big_3x2', 12, 9, 4, 4),
        item(10, 'kit_big_3x2', 16, 9, 4, 6),
        item(10, 'kit_crate', 13, 13, 4, 0),
        item(10, 'kit_crate', 13, 13, 5, 0),
        item(10, 'kit_crate', 13, 13, 6, 0),
        item(10, 'kit_chair_4dir', 14, 14, 4, 2),
        item(10, 'kit_wall_poster', 0, 0, 0, 0, ':w=13,0 l=10,30 r'),
        item(10, 'kit_wall_shelf*2', 0, 0, 0, 0, ':w=10,7 l=8,34 l'),
        item(10, 'kit_missing_bundle', 15, 15, 4, 0),
        item(11, 'kit_chair_4dir', 2, 2, 0, 4),
        item(12, 'kit_table_sd', 5, 5, 0, 0),
      ].join(',\n')};
    INSERT INTO bots (room_id, name, figure, gender, x, y, z, rot) VALUES (10, 'Kit', '${FIGURE}', 'M', 14, 12, 4, 4);
    INSERT INTO items (room_id, item_id, x, y, z, rot, extra_data)
      SELECT 13, ${base('kit_crate')}, 4 + (seq % 8), 1 + (seq DIV 8) % 13, (seq DIV 104) * 0.5, 0, '0'
      FROM seq_0_to_5099;
  `);
});

after(async () => {
  for (const s of started) await s.close();
  if (db) await db.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

test('rooms from the rows: stairs, four rotations, a stack, both walls, a bot; a missing bundle is skipped', {
  skip,
}, async () => {
  const s = await start();
  const img = await get(s.url, '/habbo-imaging/room/10.png');
  assert.equal(img.res.status, 200);
  assert.equal(img.res.headers.get('content-type'), 'image/png');
  const page = (await get(s.url, '/render/room/10')).body.toString();
  assert.match(page, /source: database/);
  // The footprint turns with the rotation (3 × 2 at 0 and 4, 2 × 3 at 2 and 6).
  for (const [tile, footprint] of [
    ['12, 5, 4', '3×2'],
    ['16, 5, 4', '2×3'],
    ['12, 9, 4', '3×2'],
    ['16, 9, 4', '2×3'],
  ])
    assert.match(
      page,
      new RegExp(`<td>kit_big_3x2</td><td>${tile}</td><td>\\d</td><td>0</td><td></td><td>${footprint}</td>`),
    );
  assert.match(page, /<td>kit_crate<\/td><td>13, 13, 6<\/td>/, 'the top of the stack at its height');
  assert.match(page, /<td>wall<\/td><td>\d+<\/td><td>kit_wall_poster<\/td><td>:w=13,0 l=10,30 r<\/td>/);
  assert.match(page, /<td>wall<\/td><td>\d+<\/td><td>kit_wall_shelf\*2<\/td><td>:w=10,7 l=8,34 l<\/td>/);
  assert.match(page, /<td>bot<\/td>/);
  assert.match(page, /<h2>Skipped \(1\)<\/h2><ul><li>floor \d+ kit_missing_bundle: /);
  assert.equal((await get(s.url, '/habbo-imaging/room/99.png')).body.toString(), 'no room 99 in this hotel\n');
  const health = (await (await fetch(`${s.url}/healthz`)).json()) as { rooms: { source: string } };
  assert.equal(health.rooms.source, 'database');
});

test('a custom model (override_model) and hidden walls (allow_hidewall) are read from their rows', {
  skip,
}, async () => {
  const s = await start();
  const custom = (await get(s.url, '/render/room/11')).body.toString();
  assert.match(custom, /heightmap: 6 × 5, 21 tiles/);
  assert.match(custom, /door: 0, 3 at 0/);
  const hidden = (await get(s.url, '/render/room/12')).body.toString();
  assert.match(hidden, /walls hidden by the room/);
  const withWalls = await get(s.url, '/habbo-imaging/room/13.png?furni=0');
  const noWalls = await get(s.url, '/habbo-imaging/room/12.png?furni=0&floor=0.0');
  assert.equal(withWalls.res.status, 200);
  assert.equal(noWalls.res.status, 200);
  assert.ok(noWalls.body.length < withWalls.body.length, 'the same model without its walls is less to draw');
});

test('a chair moved by an UPDATE is in the picture after the re-read window; concurrent requests read once', {
  skip,
}, async () => {
  const s = await start({ roomRereadMs: 1000 });
  const reads = s.rooms!.service.stats().reads!;
  const all = await Promise.all(Array.from({ length: 10 }, () => get(s.url, '/habbo-imaging/room/11.png')));
  assert.equal(s.rooms!.service.stats().reads! - reads, 1);
  const first = all[0]!;
  assert.equal(new Set(all.map((a) => a.res.headers.get('etag'))).size, 1);
  await db.sql(`UPDATE items SET x = 4, y = 3 WHERE room_id = 11`);
  await new Promise((r) => setTimeout(r, 1100));
  const moved = await get(s.url, '/habbo-imaging/room/11.png');
  assert.notEqual(moved.res.headers.get('etag'), first.res.headers.get('etag'));
  await db.sql(`UPDATE items SET x = 2, y = 2 WHERE room_id = 11`);
  await new Promise((r) => setTimeout(r, 1100));
  const back = await get(s.url, '/habbo-imaging/room/11.png');
  assert.equal(back.res.headers.get('etag'), first.res.headers.get('etag'));
  assert.equal(back.res.headers.get('x-imager-cache'), 'memory');
});

test('5,100 items: the first 5,000 are read (the query limit) and drawn, the debug page says the rest were not', {
  skip,
}, async () => {
  const s = await start();
  const t = Date.now();
  const img = await get(s.url, '/habbo-imaging/room/13.png');
  assert.equal(img.res.status, 200);
  const page = (await get(s.url, '/render/room/13')).body.toString();
  assert.match(page, /items read: 5000, bots read: 0/);
  assert.match(page, /the room has more than 5000 items: only the first ones \(by id\) were read and drawn/);
  assert.ok(Date.now() - t < 60_000);
});

test('database frozen: a held room answers its last image marked stale, an unseen one 503 + Retry-After, in time', {
  skip,
}, async () => {
  const s = await start({ roomRereadMs: 0 });
  const held = await get(s.url, '/habbo-imaging/room/11.png?size=s');
  assert.equal(held.res.status, 200);
  await db.pause();
  try {
    let t = Date.now();
    const stale = await get(s.url, '/habbo-imaging/room/11.png?size=s');
    assert.ok(Date.now() - t < 3000, `answered in ${Date.now() - t} ms`);
    assert.equal(stale.res.status, 200);
    assert.ok(stale.body.equals(held.body));
    assert.match(stale.res.headers.get('x-imager-stale')!, /the room's data could not be read \(timeout: /);
    assert.equal(stale.res.headers.get('cache-control'), 'public, max-age=5');
    t = Date.now();
    const unseen = await get(s.url, '/habbo-imaging/room/10.png?size=s');
    assert.ok(Date.now() - t < 3000, `answered in ${Date.now() - t} ms`);
    assert.equal(unseen.res.status, 503);
    assert.equal(unseen.res.headers.get('retry-after'), '5');
    assert.equal(unseen.res.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.match(
      unseen.body.toString(),
      /^the room cannot be drawn now: the room's data could not be read \(timeout: /,
    );
    assert.match(unseen.body.toString(), /; try again in 5 s\n$/);
  } finally {
    db.resume();
  }
  const fresh = await get(s.url, '/habbo-imaging/room/11.png?size=s');
  assert.equal(fresh.res.headers.get('x-imager-stale'), null);
});

test('database killed, then back: 503 or stale at once while down, pictures again after the restart', {
  skip,
}, async () => {
  const s = await start({ roomRereadMs: 0 });
  assert.equal((await get(s.url, '/habbo-imaging/room/12.png')).res.status, 200);
  await db.kill();
  try {
    const t = Date.now();
    const stale = await get(s.url, '/habbo-imaging/room/12.png');
    assert.equal(stale.res.status, 200);
    assert.match(stale.res.headers.get('x-imager-stale')!, /\((unavailable|timeout): /);
    const none = await get(s.url, '/habbo-imaging/room/12.png?walls=0');
    assert.equal(none.res.status, 503);
    assert.ok(Date.now() - t < 5000);
  } finally {
    await db.restart();
  }
  const back = await get(s.url, '/habbo-imaging/room/12.png?walls=0');
  assert.equal(back.res.status, 200);
});
