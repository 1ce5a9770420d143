// The hotel database client on a real MariaDB with the Arcturus Morningstar tables (test/helpers/mariadb.ts):
// every catalogue query runs against the real table definitions with its outputs; an operator's override
// file is read and checked; the URL forms; the per-query deadline holds with the pool taken by slow
// queries; connections cannot write. Plus the parts that need no database (URL and file parsing).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  type DatabaseError,
  DatabaseUrlError,
  HotelDatabase,
  parseDatabaseUrl,
  parseQueryFile,
  QUERY_NAMES,
  QUERY_SHAPES,
  QueryFileError,
} from '../../src/database/index.js';
import { MARIADB_SKIP, startMariaDb, type TestMariaDb } from '../helpers/mariadb.js';

test('the URL forms: TCP, a socket, TLS; the password never shown; mistakes named', () => {
  const tcp = parseDatabaseUrl('mysql://imager:p%40ss@db.example:3307/hotel');
  assert.deepEqual(
    { host: tcp.host, port: tcp.port, user: tcp.user, password: tcp.password, database: tcp.database },
    { host: 'db.example', port: 3307, user: 'imager', password: 'p@ss', database: 'hotel' },
  );
  assert.equal(tcp.display, 'mysql://imager:***@db.example:3307/hotel');
  assert.equal(parseDatabaseUrl('mariadb://u@h/hotel').port, 3306);
  const sock = parseDatabaseUrl('mysql://u:p@localhost/hotel?socket=/run/mysqld/mysqld.sock');
  assert.equal(sock.socketPath, '/run/mysqld/mysqld.sock');
  assert.equal(sock.host, undefined);
  assert.deepEqual(parseDatabaseUrl('mysql://u:p@h/hotel?ssl=true').ssl, {});
  assert.deepEqual(parseDatabaseUrl('mysql://u:p@h/hotel?ssl={"rejectUnauthorized":true}').ssl, {
    rejectUnauthorized: true,
  });
  assert.equal(parseDatabaseUrl('mysql://u:p@h/hotel?ssl=Amazon RDS').ssl, 'Amazon RDS');
  const bad: [string, RegExp][] = [
    ['http://u:p@h/hotel', /must start with mysql:\/\/ or mariadb:\/\//],
    ['mysql://u:p@h', /must name the hotel's database/],
    ['mysql://h/hotel', /must name a user/],
    ['mysql://u:secret@h/hotel?pool=9', /unknown option "pool"/],
    ['mysql://u:secret@h/hotel?ssl-ca=/nonexistent/ca.pem', /cannot read the ssl-ca file/],
    ['not a url', /must be a URL like mysql:\/\/user:password@host:port\/database/],
  ];
  for (const [url, message] of bad) {
    assert.throws(
      () => parseDatabaseUrl(url),
      (e: Error) => e instanceof DatabaseUrlError && message.test(e.message),
    );
    assert.throws(
      () => parseDatabaseUrl(url),
      (e: Error) => !e.message.includes('secret'),
      'no password in messages',
    );
  }
});

test('an override file: known names, one SELECT each, only the query’s own placeholders', () => {
  const ok = parseQueryFile(
    '-- Plus emulator\n-- name: user_look\nSELECT figure AS look, sex AS gender FROM players WHERE name = :name LIMIT 1;\n',
    'plus.sql',
  );
  assert.deepEqual(ok.overridden, ['user_look']);
  assert.equal(ok.sql.user_look, 'SELECT figure AS look, sex AS gender FROM players WHERE name = :name LIMIT 1');
  assert.match(ok.sql.guild_elements, /FROM guilds_elements/, 'the others keep the default');
  const bad: [string, string][] = [
    ['SELECT 1', 'plus.sql:1: SQL before the first "-- name: <query>" line'],
    ['-- name: user_looks\nSELECT 1', 'plus.sql:1: unknown query "user_looks"'],
    ['-- name: user_look\n', 'plus.sql:1: query user_look is empty'],
    ['-- name: user_look\nDELETE FROM users', 'plus.sql:1: query user_look must be a SELECT statement'],
    [
      '-- name: user_look\nSELECT 1; DROP TABLE users',
      "plus.sql:1: query user_look must be one statement (no ';' inside)",
    ],
    ['-- name: user_look\nSELECT look FROM users WHERE username = ?', 'must use named placeholders (:name), not "?"'],
    [
      '-- name: room\nSELECT * FROM rooms WHERE id = :id',
      'uses :id, which the service does not give; it gives :room_id',
    ],
    ['-- name: room\nSELECT 1\n-- name: room\nSELECT 2', 'plus.sql:3: query room is given twice'],
    ['', 'plus.sql names no query'],
  ];
  for (const [text, message] of bad)
    assert.throws(
      () => parseQueryFile(text, 'plus.sql'),
      (e: Error) => e instanceof QueryFileError && e.message.includes(message),
      message,
    );
  // A ';' or ':word' inside a quoted string is text, not SQL.
  assert.doesNotThrow(() =>
    parseQueryFile(
      "-- name: user_look\nSELECT look, gender FROM users WHERE username = :name AND motto <> 'a;b :c'",
      'f',
    ),
  );
});

describe('on MariaDB with the Arcturus tables', { skip: MARIADB_SKIP }, () => {
  let db: TestMariaDb;
  const clients: HotelDatabase[] = [];
  const open = (url: string, opts: Parameters<typeof HotelDatabase.fromUrl>[1] = {}) => {
    const c = HotelDatabase.fromUrl(url, opts);
    clients.push(c);
    return c;
  };

  before(async () => {
    db = await startMariaDb();
    await db.sql(`
      INSERT INTO users (id, username, password, account_created, look, gender, ip_register, ip_current) VALUES
        (1, 'Alice', '', 0, 'hd-180-1', 'F', '', '');
      INSERT INTO rooms (id, owner_id, owner_name, name, model, override_model, paper_floor, allow_hidewall)
        VALUES (7, 1, 'Alice', 'Lobby', 'model_a', '1', '110', '1');
      INSERT INTO room_models_custom VALUES (7, 'custom_7', 1, 2, 4, 'x00\\r\\n000');
      INSERT INTO items_base (id, item_name, type, width, length, interaction_type) VALUES
        (100, 'kit_table', 's', 2, 1, 'default'), (101, 'kit_poster', 'i', 1, 1, 'default'),
        (102, 'an_effect', 'e', 1, 1, 'default');
      INSERT INTO items_base (id, item_name, type, width, length, stack_height, allow_sit, allow_lay, multiheight)
        VALUES (103, 'kit_chair', 's', 1, 1, 1.1, 1, 0, '0'), (104, 'kit_bed', 's', 2, 3, 1.73, 0, 1, '0'),
        (105, 'kit_stool', 's', 1, 1, 0.5, 1, 0, '0.5;1;1.5');
      INSERT INTO items (id, user_id, room_id, item_id, wall_pos, x, y, z, rot, extra_data) VALUES
        (1, 1, 7, 100, '', 3, 4, 0.5, 2, '1'), (2, 1, 7, 101, ':w=2,3 l=10,20 r', 0, 0, 0, 0, ''),
        (3, 1, 7, 102, '', 0, 0, 0, 0, ''), (4, 1, 7, 100, '', 5, 5, 0, 0, ''),
        (5, 1, 8, 103, '', 1, 1, 0, 4, '0'), (6, 1, 8, 104, '', 2, 2, 0, 2, '0'), (7, 1, 8, 105, '', 4, 4, 0, 0, '2');
      INSERT INTO bots (id, user_id, room_id, name, figure, gender, x, y, z, rot, dance, effect) VALUES
        (1, 1, 7, 'Frank', 'hd-180-1', 'M', 2, 2, 0, 4, 1, 0);
      INSERT INTO users_pets (id, user_id, room_id, name, race, type, color, created, x, y, z, rot, hair_style,
        hair_color, saddle) VALUES
        (5, 1, 7, 'Rex', 4, 0, 'FFFFFF', 0, 1, 2, 0.5, 4, -1, 0, '0'),
        (6, 1, 7, 'Star', 2, 15, 'CCAA88', 0, 2, 1, 0, 2, 101, 3, '1'),
        (7, 1, 0, 'Home', 1, 1, 'FFFFFF', 0, 0, 0, 0, 0, -1, 0, '0');
    `);
  });

  after(async () => {
    for (const c of clients) await c.close();
    await db?.stop();
  });

  test('every catalogue query runs on the real table definitions, rows keyed by exactly its outputs', async () => {
    const c = open(db.url);
    const params = { name: 'model_a', room_id: 7, limit: 10, pet_id: 5 };
    for (const q of QUERY_NAMES) {
      const rows = await c.run(q, params);
      const shape = QUERY_SHAPES[q];
      for (const row of rows)
        assert.deepEqual(Object.keys(row), [...shape.outputs, ...(shape.optionalOutputs ?? [])], q);
    }
    assert.deepEqual(await c.run('user_look', { name: 'aLiCe' }), [{ look: 'hd-180-1', gender: 'F' }]);
    assert.equal((await c.run('guild_elements')).length, 480, "the emulator's default badge elements");
    const [room] = await c.run('room', { room_id: 7 });
    assert.equal(room?.override_model, 1);
    assert.equal(room?.allow_hidewall, 1);
    assert.equal(room?.paper_floor, '110');
    assert.deepEqual(await c.run('room_model_custom', { room_id: 7 }), [
      { door_x: 1, door_y: 2, door_dir: 4, heightmap: 'x00\r\n000' },
    ]);
    const [model] = await c.run('room_model', { name: 'model_a' });
    assert.equal(model?.door_x, 3);
    assert.equal(model?.door_y, 5);
    const items = await c.run('room_items', { room_id: 7, limit: 2 });
    assert.deepEqual(
      items.map((i) => [i.id, i.classname, i.type, i.x, i.y, i.z, i.rot, i.wall_pos, i.width, i.length]),
      [
        [1, 'kit_table', 's', 3, 4, 0.5, 2, '', 2, 1],
        [2, 'kit_poster', 'i', 0, 0, 0, 0, ':w=2,3 l=10,20 r', 1, 1],
      ],
      'floor and wall items only, at most the limit, in id order',
    );
    assert.equal((await c.run('room_items', { room_id: 7, limit: 10 })).length, 3, 'the effect row is not an item');
    assert.deepEqual(
      (await c.run('room_items', { room_id: 8, limit: 10 })).map((i) => [
        i.classname,
        i.allow_sit,
        i.allow_lay,
        i.stack_height,
        i.multiheight,
      ]),
      [
        ['kit_chair', 1, 0, 1.1, '0'],
        ['kit_bed', 0, 1, 1.73, '0'],
        ['kit_stool', 1, 0, 0.5, '0.5;1;1.5'],
      ],
      'the seat and bed columns of items_base',
    );
    assert.deepEqual(await c.run('room_bots', { room_id: 7, limit: 5 }), [
      { id: 1, name: 'Frank', figure: 'hd-180-1', gender: 'M', x: 2, y: 2, z: 0, rot: 4, dance: 1, effect: 0 },
    ]);
    const pets = await c.run('room_pets', { room_id: 7, limit: 5 });
    assert.deepEqual(
      pets.map((p) => [
        p.id,
        p.name,
        p.type,
        p.race,
        p.color,
        p.x,
        p.y,
        p.z,
        p.rot,
        p.hair_style,
        p.hair_color,
        p.saddle,
      ]),
      [
        [5, 'Rex', 0, 4, 'FFFFFF', 1, 2, 0.5, 4, -1, 0, '0'],
        [6, 'Star', 15, 2, 'CCAA88', 2, 1, 0, 2, 101, 3, '1'],
      ],
      "the room's pets in id order (not the one in its owner's inventory)",
    );
    assert.deepEqual(
      (await c.run('pet', { pet_id: 7 })).map((p) => p.name),
      ['Home'],
    );
    const [v1] = await c.run('guild_elements_version');
    await db.sql("UPDATE guilds_elements SET enabled = '0' WHERE id = 1 AND type = 'base'");
    const [v2] = await c.run('guild_elements_version');
    assert.notEqual(v1?.version, v2?.version, 'an edited row changes the version');
    await db.sql("UPDATE guilds_elements SET enabled = '1' WHERE id = 1 AND type = 'base'");
  });

  test('the socket URL form', async () => {
    const c = open(db.socketUrl);
    assert.deepEqual(await c.run('user_look', { name: 'alice' }), [{ look: 'hd-180-1', gender: 'F' }]);
  });

  test('connections are read-only, whatever the statement', async () => {
    const catalogue = parseQueryFile(
      '-- name: user_look\nSELECT look, gender FROM users WHERE username = :name FOR UPDATE',
      'q.sql',
    );
    const c = open(db.url, { catalogue });
    // Past the file check (it is a SELECT), a locking read still meets the session's READ ONLY.
    await assert.rejects(
      c.run('user_look', { name: 'alice' }),
      (e: DatabaseError) => e.kind === 'query' && e.code === 'ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION',
    );
  });

  test('an override is checked at start: a wrong table or a missing output is a query error naming the file', async () => {
    const wrongTable = parseQueryFile(
      '-- name: user_look\nSELECT look, gender FROM players WHERE name = :name',
      'plus.sql',
    );
    await assert.rejects(
      open(db.url, { catalogue: wrongTable }).checkOverrides(),
      (e: DatabaseError) => e.kind === 'query' && /plus\.sql: query user_look does not run: .*players/.test(e.message),
    );
    const noGender = parseQueryFile('-- name: user_look\nSELECT look FROM users WHERE username = :name', 'plus.sql');
    await assert.rejects(
      open(db.url, { catalogue: noGender }).checkOverrides(),
      (e: DatabaseError) =>
        e.kind === 'query' && /has no output column gender; alias its columns to look, gender/.test(e.message),
    );
    const good = parseQueryFile(
      '-- name: user_look\nSELECT look AS look, gender AS gender FROM users WHERE LOWER(username) = LOWER(:name)',
      'plus.sql',
    );
    assert.deepEqual(await open(db.url, { catalogue: good }).checkOverrides(), []);
  });

  test('an override of room_items without the seat columns runs: its rows leave them out', async () => {
    const old = parseQueryFile(
      `-- name: room_items
SELECT i.id AS id, b.item_name AS classname, b.type AS type, i.x AS x, i.y AS y, i.z AS z, i.rot AS rot,
  i.wall_pos AS wall_pos, i.extra_data AS extra_data, b.width AS width, b.length AS length,
  b.interaction_type AS interaction_type, b.allow_sit AS allow_sit
FROM items i JOIN items_base b ON b.id = i.item_id WHERE i.room_id = :room_id ORDER BY i.id LIMIT :limit`,
      'old.sql',
    );
    const c = open(db.url, { catalogue: old });
    assert.deepEqual(await c.checkOverrides(), []);
    const [chair] = await c.run('room_items', { room_id: 8, limit: 1 });
    assert.deepEqual(Object.keys(chair ?? {}), [...QUERY_SHAPES.room_items.outputs, 'allow_sit']);
    assert.equal(chair?.allow_sit, 1);
  });

  test('a pool taken by slow queries: callers wait at most the deadline, the overflow is refused at once', async () => {
    const slow = parseQueryFile('-- name: user_look\nSELECT SLEEP(3) AS look, :name AS gender', 'slow.sql');
    const c = open(db.url, { pool: 2, timeoutMs: 400, queueLimit: 4, catalogue: slow });
    const started = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () =>
        c.run('user_look', { name: 'x' }).then(
          () => 'ok',
          (e: DatabaseError) => e.kind,
        ),
      ),
    );
    const ms = performance.now() - started;
    assert.ok(ms < 700, `all answered within the deadline (400 ms): ${Math.round(ms)} ms`);
    assert.equal(outcomes.filter((k) => k === 'timeout').length, 6, outcomes.join(','));
    assert.equal(outcomes.filter((k) => k === 'busy').length, 4, outcomes.join(','));
    assert.equal(c.health().pool.waiting, 0, 'no caller left waiting');
    // The slow connections were destroyed, not returned: the next query gets a fresh one.
    const fast = open(db.url, { pool: 2, timeoutMs: 2000 });
    assert.deepEqual(await fast.run('user_look', { name: 'alice' }), [{ look: 'hd-180-1', gender: 'F' }]);
  });

  test('wrong password and a frozen server: unavailable and timeout within the deadline, reachable false', async () => {
    const wrong = open(db.url.replace('imager-pass', 'nope'), { timeoutMs: 500 });
    await assert.rejects(
      wrong.run('user_look', { name: 'alice' }),
      (e: DatabaseError) => e.kind === 'unavailable' && e.code === 'ER_ACCESS_DENIED_ERROR',
    );
    assert.equal(wrong.health().reachable, false);
    const c = open(db.url, { timeoutMs: 500 });
    await c.run('user_look', { name: 'alice' });
    await db.pause();
    try {
      const started = performance.now();
      await assert.rejects(c.run('user_look', { name: 'alice' }), (e: DatabaseError) => e.kind === 'timeout');
      assert.ok(performance.now() - started < 700);
      assert.equal(await c.ping(), false);
      assert.equal(c.health().reachable, false);
    } finally {
      db.resume();
    }
    assert.deepEqual(await c.run('user_look', { name: 'alice' }), [{ look: 'hd-180-1', gender: 'F' }]);
    assert.equal(c.health().reachable, true);
  });
});
