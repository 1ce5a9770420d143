// `?user=` and group badges from the hotel's own database, on a real MariaDB (Debian's mariadbd, started
// here with the Arcturus Morningstar tables: test/helpers/mariadb.ts, test/fixtures/arcturus/): names as
// the emulator matches them, banned and unknown names, hostile names, the name-in-path form, a changed
// look showing once the name cache expires, and the database going away every way it can (down at start,
// killed, frozen, restarted, wrong password, a table missing) while `?figure=` images are untouched.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSampleKit } from '../../../src/samplekit/index.js';
import { type AvatarServiceConfig } from '../../../src/core/avatar/config.js';
import { startAvatarService, type AvatarServiceInstance } from '../../../src/server/imager.js';
import { MARIADB_SKIP, startMariaDb, type TestMariaDb } from '../../helpers/mariadb.js';
import { deadBase, testAvatarConfig } from './fixtures.js';

const ALICE = 'hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40';
const BOB = 'hd-185-2.ch-210-66.lg-270-82';
const ALICE_NEW = BOB;
type Svc = AvatarServiceInstance & { url: string };

interface Got {
  status: number;
  headers: Headers;
  body: Buffer;
  ms: number;
}

async function get(base: string, path: string): Promise<Got> {
  const started = performance.now();
  const res = await fetch(base + path, { redirect: 'manual' });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body, ms: performance.now() - started };
}

describe('the hotel database', { skip: MARIADB_SKIP }, () => {
  let db: TestMariaDb;
  let scratch: string;
  let kit: string;
  let noApi: string;
  const services: Svc[] = [];
  const logs: string[] = [];

  const start = async (over: Partial<AvatarServiceConfig> = {}): Promise<Svc> => {
    const svc = await startAvatarService(
      testAvatarConfig(kit, noApi, {
        databaseUrl: db.url,
        userCacheTtlMs: 60_000,
        userLookupTimeoutMs: 1500,
        logLevel: 'info',
        checkIntervalMs: 200,
        ...over,
      }),
      { logStream: { write: (line: string) => logs.push(line) } },
    );
    services.push(svc);
    return svc;
  };

  before(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'avatar-database-'));
    kit = join(scratch, 'kit');
    await ensureSampleKit(kit);
    // The user API is not asked when a database is configured: nothing listens there.
    noApi = await deadBase();
    db = await startMariaDb();
    await db.sql(`
      INSERT INTO users (id, username, password, account_created, look, gender, ip_register, ip_current) VALUES
        (10, 'Alice', '', 0, '${ALICE}', 'F', '', ''),
        (11, 'Bob', '', 0, '${BOB}', 'M', '', ''),
        (12, 'Mallory', '', 0, '${BOB}', 'M', '', ''),
        (13, 'Old_Ban', '', 0, '${BOB}', 'M', '', ''),
        (14, 'Zoë', '', 0, '${ALICE}', 'F', '', '');
      INSERT INTO bans (user_id, user_staff_id, timestamp, ban_expire, ban_reason, type) VALUES
        (12, 1, 0, 2147483647, 'test', 'account'),
        (13, 1, 0, 1, 'expired long ago', 'account');
    `);
  });

  after(async () => {
    for (const s of services) await s.close().catch(() => undefined);
    await db?.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  test('?user= is the look in the users table: case-insensitive, banned and unknown names fall back', async () => {
    const svc = await start();
    const byFigure = await get(svc.url, `/avatar.png?figure=${ALICE}`);
    assert.equal(byFigure.status, 200);
    for (const name of ['Alice', 'alice', 'ALICE']) {
      const r = await get(svc.url, `/avatar.png?user=${name}`);
      assert.equal(r.status, 200, name);
      assert.deepEqual(r.body, byFigure.body, name);
      // Looks from the database are kept a minute: no cache may keep the image longer.
      assert.equal(r.headers.get('cache-control'), 'public, max-age=60');
    }
    const zoe = await get(svc.url, `/avatar.png?user=${encodeURIComponent('ZOË')}`);
    assert.equal(zoe.status, 200, 'a non-ASCII name, matched case-insensitively as the emulator does');
    // An expired ban is no ban.
    assert.equal((await get(svc.url, '/avatar.png?user=old_ban')).status, 200);
    for (const name of ['Mallory', 'nobody']) {
      const r = await get(svc.url, `/avatar.png?user=${name}`);
      assert.equal(r.status, 302, name);
      assert.equal(r.headers.get('x-imager-fallback'), 'user-unresolved', name);
      assert.equal(new URL(r.headers.get('location') ?? '').searchParams.get('user'), name);
    }
  });

  test('/habbo-imaging/avatarimage/<name>.png and .gif are ?user=<name> with the same parameters', async () => {
    const svc = await start();
    const png = await get(svc.url, '/avatar.png?user=Bob&direction=4&size=s');
    const path = await get(svc.url, '/habbo-imaging/avatarimage/Bob.png?direction=4&size=s');
    assert.equal(path.status, 200);
    assert.equal(path.headers.get('content-type'), 'image/png');
    assert.deepEqual(path.body, png.body);
    const gif = await get(svc.url, '/habbo-imaging/avatarimage/bob.gif?direction=4&size=s');
    const gifQuery = await get(svc.url, '/avatar.png?user=Bob&direction=4&size=s&img_format=gif');
    assert.equal(gif.status, 200);
    assert.equal(gif.headers.get('content-type'), 'image/gif');
    assert.deepEqual(gif.body, gifQuery.body);
    const unknown = await get(svc.url, '/habbo-imaging/avatarimage/Nobody%20Here.png');
    assert.equal(unknown.status, 302);
    assert.equal(new URL(unknown.headers.get('location') ?? '').searchParams.get('user'), 'Nobody Here');
  });

  test('hostile names are bound parameters: 302 user-unresolved (or 400), never a 5xx, the tables intact', async () => {
    const svc = await start();
    const names = [
      "Alice' OR '1'='1",
      "' OR 1=1 -- ",
      'Alice"; DROP TABLE users; --',
      "x'; UPDATE users SET look='' WHERE '1'='1",
      '%',
      '_lice',
      'Al%',
      'A\\',
      '\u0000Alice',
      'Alice\u0000',
      '😀',
      'Alice😀',
      `${'A'.repeat(64)}`,
      `${'A'.repeat(5000)}`,
      '\'"`',
    ];
    for (const name of names) {
      const r = await get(svc.url, `/avatar.png?user=${encodeURIComponent(name)}`);
      assert.ok(r.status === 302 || r.status === 400, `${JSON.stringify(name.slice(0, 20))}: ${r.status}`);
      if (r.status === 302) assert.equal(r.headers.get('x-imager-fallback'), 'user-unresolved');
    }
    const rows = await db.sql("SELECT COUNT(*), SUM(look <> '') FROM users");
    assert.deepEqual(rows, [['5', '5']]);
    assert.equal((await get(svc.url, '/avatar.png?user=alice')).status, 200);
  });

  test('a look changed in the database shows on the same URL once the name cache expires', async () => {
    await db.sql(`UPDATE users SET look = '${ALICE}' WHERE id = 10`);
    const svc = await start({ userCacheTtlMs: 1000 });
    const url = '/avatar.png?user=Alice&size=s';
    const before = await get(svc.url, url);
    assert.equal(before.headers.get('cache-control'), 'public, max-age=1');
    await db.sql(`UPDATE users SET look = '${ALICE_NEW}' WHERE id = 10`);
    const expected = await get(svc.url, `/avatar.png?figure=${ALICE_NEW}&size=s`);
    assert.notDeepEqual(expected.body, before.body);
    await new Promise((r) => setTimeout(r, 1100));
    const after = await get(svc.url, url);
    assert.deepEqual(after.body, expected.body);
    await db.sql(`UPDATE users SET look = '${ALICE}' WHERE id = 10`);
  });

  test('/healthz and /metrics: reachable, the pool, query durations and errors by query', async () => {
    const svc = await start();
    await get(svc.url, '/avatar.png?user=Bob');
    const health = (await (await fetch(`${svc.url}/healthz`)).json()) as {
      database: { reachable: boolean; target: string; pool: { size: number }; queries: object };
    };
    const d = health.database;
    assert.equal(d.reachable, true);
    assert.equal(d.pool.size, 4);
    assert.ok(!d.target.includes('imager-pass'), 'the password is not shown');
    assert.ok('user_look' in d.queries);
    const metrics = await (await fetch(`${svc.url}/metrics`)).text();
    assert.match(metrics, /^hotel_imager_avatar_database_up 1$/m);
    assert.match(metrics, /^hotel_imager_avatar_database_query_duration_seconds_count\{query="user_look"\} [1-9]/m);
    assert.match(metrics, /^hotel_imager_avatar_database_pool_open [1-4]$/m);
  });

  test('group badges from guilds_elements, re-read when the table changes, kept while the database is away', async () => {
    // The kit's own table, moved into the database (the kit's CSV file is then not read).
    const csv = await readFile(join(kit, 'gamedata/guilds_elements.csv'), 'utf8');
    const rows = csv
      .trim()
      .split(/\r?\n/)
      .map((line) => line.split(',').map((v) => v.replace(/^"|"$/g, '')))
      .map(([id, first, second, type]) => `(${Number(id)}, '${first}', '${second ?? ''}', '${type}', '1')`);
    await db.sql(`DELETE FROM guilds_elements; INSERT INTO guilds_elements VALUES ${rows.join(',')};`);
    const svc = await start();
    const badge = '/habbo-imaging/badge/b03034s04094s02110s03118.png';
    const first = await get(svc.url, badge);
    assert.equal(first.status, 200);
    assert.equal(svc.badges.health().table, 'guilds_elements (database)');
    // Symbol 4 gone from the table: the badge is drawn without it after the next poll (2 s at most).
    const withSymbol = await get(svc.url, '/habbo-imaging/badge/b03034s04094.png');
    await db.sql("DELETE FROM guilds_elements WHERE type = 'symbol' AND id = 4");
    const changed = async () =>
      !(await get(svc.url, '/habbo-imaging/badge/b03034s04094.png')).body.equals(withSymbol.body);
    await waitFor(changed, 3000, 'the changed table');
    await db.kill();
    try {
      await new Promise((r) => setTimeout(r, 600));
      const kept = await get(svc.url, '/habbo-imaging/badge/b03034s02110.png');
      assert.equal(kept.status, 200, 'the last good table serves while the database is away');
      assert.equal(svc.badges.health().enabled, true);
    } finally {
      await db.restart();
    }
    await db.sql(`DELETE FROM guilds_elements; INSERT INTO guilds_elements VALUES ${rows.join(',')};`);
    const restored = async () =>
      (await get(svc.url, '/habbo-imaging/badge/b03034s04094.png')).body.equals(withSymbol.body);
    await waitFor(restored, 8000, 'the table back after the restart');
  });

  test('killed, frozen (SIGSTOP 5 s), restarted, a table missing: ?figure= untouched, ?user= 302 within 1.5 s, back without a restart', async () => {
    // The other tests' services would log the same outages: this one alone.
    for (const s of services.splice(0)) await s.close();
    const svc = await start();
    assert.equal((await get(svc.url, '/avatar.png?user=Bob')).status, 200);
    logs.length = 0;
    let n = 0;
    const during = async (what: string) => {
      // Names not asked before: each one goes to the database.
      for (let i = 0; i < 4; i++) {
        const u = await get(svc.url, `/avatar.png?user=away${n++}`);
        assert.equal(u.status, 302, what);
        assert.equal(u.headers.get('x-imager-fallback'), 'user-unresolved', what);
        assert.ok(u.ms < 1500, `${what}: ?user= answered in ${Math.round(u.ms)} ms`);
        const f = await get(svc.url, `/avatar.png?figure=${ALICE}&direction=${i}`);
        assert.equal(f.status, 200, `${what}: ?figure=`);
      }
    };
    const back = async (what: string) =>
      waitFor(
        async () => (await get(svc.url, `/avatar.png?user=alice&direction=${n++ % 8}`)).status === 200,
        6000,
        what,
      );

    await db.kill();
    await during('killed');
    await db.restart();
    await back('after the restart');

    await db.pause();
    const frozenAt = Date.now();
    try {
      await during('frozen');
      while (Date.now() - frozenAt < 5000) await during('frozen');
    } finally {
      db.resume();
    }
    await back('after SIGCONT');

    await db.sql('RENAME TABLE users TO users_away');
    try {
      await during('table missing');
    } finally {
      await db.sql('RENAME TABLE users_away TO users');
    }
    await back('with the table back');

    // Said once per outage, not once per request.
    const lines = logs.map((l) => JSON.parse(l) as { msg: string });
    const unreachable = lines.filter((l) => l.msg.startsWith('database unreachable')).length;
    assert.ok(unreachable >= 1 && unreachable <= 3, `${unreachable} "database unreachable" lines for 2 outages`);
    assert.equal(lines.filter((l) => l.msg === 'database query user_look fails').length, 1);
  });

  test('down at start, or a wrong password: the service starts, ?user= falls back, and resolves once it answers', async () => {
    const wrong = db.url.replace('imager-pass', 'not-the-password');
    const svc = await start({ databaseUrl: wrong });
    const u = await get(svc.url, '/avatar.png?user=Bob');
    assert.equal(u.status, 302);
    assert.ok(u.ms < 1500);
    assert.equal((await get(svc.url, `/avatar.png?figure=${BOB}`)).status, 200);
    const health = (await (await fetch(`${svc.url}/healthz`)).json()) as {
      status: string;
      database: { reachable: boolean; error: string };
    };
    // Away is not unhealthy: the instance still draws every ?figure= image.
    assert.equal(health.status, 'ok');
    assert.equal(health.database.reachable, false);
    assert.match(health.database.error, /Access denied/);

    await db.kill();
    let down: Svc;
    try {
      down = await start();
      assert.equal((await get(down.url, '/avatar.png?user=Bob')).status, 302);
      assert.equal((await get(down.url, `/avatar.png?figure=${BOB}`)).status, 200);
    } finally {
      await db.restart();
    }
    await waitFor(async () => (await get(down.url, '/avatar.png?user=bob&size=s')).status === 200, 6000);
  });
});

async function waitFor(ok: () => Promise<boolean>, ms: number, what = 'condition'): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`${what}: not within ${ms} ms`);
}
