// The pet picture's id= against a real MariaDB with Arcturus's users_pets: a dog row drawn as its figure
// (the emulator's figure string, so the same picture as figure= spells it), its stored posture when no action
// is sent, a short Cache-Control; an id with no row is 404 saying so; a database gone is 503 with Retry-After.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSampleKit } from '../../../src/samplekit/index.js';
import { startAvatarService, type AvatarServiceInstance } from '../../../src/server/imager.js';
import { MARIADB_SKIP, startMariaDb, type TestMariaDb } from '../../helpers/mariadb.js';
import { writeTestPetLibrary } from '../../helpers/pet-library.js';
import { deadBase, testAvatarConfig } from '../avatar/fixtures.js';

const skip = MARIADB_SKIP;
let scratch: string;
let db: TestMariaDb;
let svc: AvatarServiceInstance & { url: string };

before(async () => {
  if (skip) return;
  scratch = await mkdtemp(join(tmpdir(), 'pet-db-'));
  const kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  await writeTestPetLibrary(kit);
  db = await startMariaDb();
  await db.sql(`
    INSERT INTO users_pets (id, user_id, room_id, name, race, type, color, created) VALUES
      (1, 1, 0, 'Rex', 1, 0, 'ffffff', 0),
      (2, 1, 0, 'Ghost', 0, 1, 'ffffff', 0);
  `);
  svc = await startAvatarService(
    testAvatarConfig(kit, await deadBase(), { checkIntervalMs: 0, databaseUrl: db.url, databaseTimeoutMs: 500 }),
  );
});

after(async () => {
  if (skip) return;
  await svc?.close();
  await db?.stop();
  await rm(scratch, { recursive: true, force: true });
});

async function get(path: string) {
  const res = await fetch(svc.url + path);
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

test('id= draws the users_pets row: the figure the emulator sends, a minute of caching', { skip }, async () => {
  const byId = await get('/habbo-imaging/pet.png?id=1');
  assert.equal(byId.res.status, 200, byId.body.toString());
  assert.equal(byId.res.headers.get('content-type'), 'image/png');
  assert.equal(byId.res.headers.get('cache-control'), 'public, max-age=60');
  assert.deepEqual([byId.body.readUInt32BE(16), byId.body.readUInt32BE(20)], [58, 68]);
  // Arcturus's figure for a dog of race 1: `0 1 ffffff 2 2 -1 0 3 -1 0` (tail and emoticon layers, palette 0).
  const byFigure = await get(`/habbo-imaging/pet.png?figure=${encodeURIComponent('0 1 ffffff 2 2 -1 0 3 -1 0')}`);
  assert.ok(byId.body.equals(byFigure.body), 'the same picture as its figure string');
  const sitting = await get('/habbo-imaging/pet.png?id=1&action=sit');
  assert.deepEqual([sitting.body.readUInt32BE(16), sitting.body.readUInt32BE(20)], [58, 56]);
});

test('an id with no row, or a pet whose type has no library, is 404 with the reason', { skip }, async () => {
  const none = await get('/habbo-imaging/pet.png?id=999');
  assert.equal(none.res.status, 404);
  assert.equal(none.body.toString(), 'no pet 999 in this hotel (users_pets has no row with that id)\n');
  const cat = await get('/habbo-imaging/pet.png?id=2');
  assert.equal(cat.res.status, 404);
  assert.equal(cat.body.toString(), 'no pet library bundled/pet/cat.nitro in this hotel (pet type 1)\n');
});

test('the database gone: 503 with Retry-After, never a 5xx without one', { skip }, async () => {
  await db.stop();
  const gone = await get('/habbo-imaging/pet.png?id=3');
  assert.equal(gone.res.status, 503);
  assert.equal(gone.res.headers.get('retry-after'), '5');
  assert.match(gone.body.toString(), /^the pet cannot be drawn now: the pet's row could not be read \(/);
  // A pet read before is answered from what was read (within its re-read window) and the image cache.
  assert.equal((await get('/habbo-imaging/pet.png?id=1')).res.status, 200);
});
