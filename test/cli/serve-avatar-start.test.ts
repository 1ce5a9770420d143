// What `serve avatar` checks and says at start: a port in use before the hotel is read, a fallback URL
// that points at the service itself refused (exit 2), and one line naming where ?user= names and the
// fallback redirects go (habbo.com by default, which a retro hotel may not expect).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createProgram, reportError } from '../../src/cli/program.js';
import { avatarConfigFromFlags, upstreamsLine } from '../../src/cli/serve-avatar.js';
import { defaultAvatarConfig } from '../../src/core/avatar/config.js';
import { ensureSampleKit } from '../../src/samplekit/index.js';
import { MARIADB_SKIP, startMariaDb } from '../helpers/mariadb.js';

const repo = resolve(import.meta.dirname, '../..');
const root = mkdtempSync(join(tmpdir(), 'serve-avatar-start-'));
after(() => rmSync(root, { recursive: true, force: true }));

async function run(argv: string[]): Promise<{ code: number; err: string }> {
  let err = '';
  const savedExit = process.exitCode;
  process.exitCode = undefined;
  let code: number;
  try {
    await createProgram({ writeOut: () => undefined, writeErr: (t) => (err += t) }).parseAsync([
      'node',
      'hotel-imager',
      ...argv,
    ]);
    code = Number(process.exitCode ?? 0);
  } catch (e) {
    code = reportError(e, (t) => (err += t));
  } finally {
    process.exitCode = savedExit;
  }
  return { code, err };
}

test('a port in use is said before the hotel is read: exit 1 with the port message even for a folder with no hotel', async () => {
  const held: Server = createServer();
  await new Promise<void>((r) => held.listen(0, '127.0.0.1', r));
  const port = (held.address() as { port: number }).port;
  const empty = join(root, 'not-a-hotel');
  mkdirSync(empty);
  try {
    const r = await run([
      'serve',
      'avatar',
      '--assets',
      empty,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--jobs',
      '1',
      '--log-level',
      'silent',
    ]);
    assert.equal(r.code, 1);
    assert.equal(
      r.err,
      `port ${port} (the avatar service) is already in use by another program. Stop that program, or pick another port: hotel-imager serve avatar --port <n> (or HOTEL_IMAGER_AVATAR_PORT=<n>)\n`,
    );
  } finally {
    held.close();
  }
});

test('a fallback URL that points at the service itself is refused: exit 2 saying why and what to do', async () => {
  for (const fallback of [
    'http://127.0.0.1:18081/habbo-imaging/avatarimage',
    'http://localhost:18081/avatar.png',
    'http://[::1]:18081/x',
  ]) {
    const r = await run(['serve', 'avatar', '--port', '18081', '--fallback-url', fallback]);
    assert.equal(r.code, 2, fallback);
    assert.equal(
      r.err,
      `error: --fallback-url (HOTEL_IMAGER_FALLBACK_URL) ${fallback} points at this service itself (${new URL(fallback).hostname.replace(/[[\]]/g, '')}, port 18081): ` +
        "every render that fails would redirect back here and fail again. Point it at another imager: the classic one (https://www.habbo.com/habbo-imaging/avatarimage, the default) or the hotel's own\n" +
        '(add --help for every flag and its environment variable)\n',
    );
  }
  // The listen address itself, and port 80 implied by http:.
  assert.throws(
    () =>
      avatarConfigFromFlags(
        { port: '80', host: '10.1.2.3', fallbackUrl: 'http://10.1.2.3/habbo-imaging/avatarimage' },
        {},
      ),
    /points at this service itself \(10\.1\.2\.3, port 80\)/,
  );
  // Another port, or another host, is another imager.
  assert.equal(
    avatarConfigFromFlags({ port: '18081', fallbackUrl: 'http://127.0.0.1:18082/habbo-imaging/avatarimage' }, {})
      .fallbackUrl,
    'http://127.0.0.1:18082/habbo-imaging/avatarimage',
  );
  assert.equal(
    avatarConfigFromFlags({ port: '443', fallbackUrl: 'https://imager.example.org/habbo-imaging/avatarimage' }, {})
      .port,
    443,
  );
});

test('the start names the user API and the fallback imager, and says when they are the defaults', async () => {
  const d = defaultAvatarConfig();
  assert.equal(
    upstreamsLine(d),
    '?user= names are sent to the user API at https://www.habbo.com (the default; --user-api changes it); ' +
      'requests this hotel cannot draw are redirected to https://www.habbo.com/habbo-imaging/avatarimage (the default; --fallback-url changes it)',
  );
  assert.equal(
    upstreamsLine({
      userApiBase: 'https://hotel.example.org',
      fallbackUrl: 'https://hotel.example.org/imaging/avatarimage',
    }),
    '?user= names are sent to the user API at https://hotel.example.org (--user-api); requests this hotel cannot draw are redirected to https://hotel.example.org/imaging/avatarimage (--fallback-url)',
  );
  // With the hotel's database, names go there instead of the user API.
  assert.equal(
    upstreamsLine({ ...d, databaseUrl: 'mysql://imager:p@db/hotel', userCacheTtlMs: 60_000 }),
    "?user= names are looked up in the hotel's database (--database; the user API is not asked), kept 60000 ms; " +
      'requests this hotel cannot draw are redirected to https://www.habbo.com/habbo-imaging/avatarimage (the default; --fallback-url changes it)',
  );
  // And the running service logs it.
  const kit = join(root, 'kit');
  await ensureSampleKit(kit);
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(repo, 'src/cli/main.ts'),
      'serve',
      'avatar',
      '--assets',
      kit,
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--jobs',
      '1',
      '--user-api',
      'https://hotel.example.org',
    ],
    { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise((r) => child.once('exit', r));
  try {
    const until = Date.now() + 60_000;
    while (!out.includes('?user= names') && Date.now() < until && child.exitCode === null)
      await new Promise((r) => setTimeout(r, 100));
    const line = out.split('\n').find((l) => l.includes('?user= names'));
    assert.ok(line, out);
    const entry = JSON.parse(line) as { level: number; msg: string; userApi: string; fallbackUrl: string };
    assert.equal(entry.level, 30);
    assert.equal(entry.msg, upstreamsLine({ userApiBase: 'https://hotel.example.org', fallbackUrl: d.fallbackUrl }));
    assert.equal(entry.userApi, 'https://hotel.example.org');
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
});

test('--database: a bad URL, or --database-queries without it, is exit 2 saying what to give', async () => {
  const cases: [string[], RegExp][] = [
    [['--database', 'http://u:secret@db/hotel'], /--database must start with mysql:\/\/ or mariadb:\/\//],
    [['--database', 'mysql://u:secret@db'], /--database must name the hotel's database/],
    [
      ['--database-queries', join(root, 'q.sql')],
      /--database-queries \(HOTEL_IMAGER_DATABASE_QUERIES\) needs --database/,
    ],
    [
      ['--database', 'mysql://u:p@db/hotel', '--database-pool', '0'],
      /--database-pool must be a whole number from 1 to 64/,
    ],
  ];
  for (const [flags, message] of cases) {
    const r = await run(['serve', 'avatar', '--port', '0', ...flags]);
    assert.equal(r.code, 2, flags.join(' '));
    assert.match(r.err, message);
    assert.ok(!r.err.includes('secret'), 'the password is not repeated');
  }
});

test('--user-cache-ms: 60000 with --database (a changed look shows within a minute), 1 h without; a flag wins', () => {
  const db = 'mysql://imager:p@127.0.0.1/hotel';
  assert.equal(avatarConfigFromFlags({}, {}).userCacheTtlMs, 3_600_000);
  assert.equal(avatarConfigFromFlags({ database: db }, {}).userCacheTtlMs, 60_000);
  assert.equal(avatarConfigFromFlags({}, { HOTEL_IMAGER_DATABASE: db }).userCacheTtlMs, 60_000);
  assert.equal(avatarConfigFromFlags({ database: db, userCacheMs: '30000' }, {}).userCacheTtlMs, 30_000);
  assert.equal(avatarConfigFromFlags({ database: db }, { HOTEL_IMAGER_USER_CACHE_MS: '5000' }).userCacheTtlMs, 5000);
  const c = avatarConfigFromFlags({ database: db }, {});
  assert.deepEqual([c.databasePool, c.databaseTimeoutMs], [4, 1000]);
});

test('a --database-queries override that does not run is a start-up error (exit 2) naming the file and the query', {
  skip: MARIADB_SKIP,
}, async () => {
  const kit = join(root, 'kit');
  await ensureSampleKit(kit);
  const db = await startMariaDb();
  try {
    const bad = join(root, 'plus.sql');
    writeFileSync(bad, '-- name: user_look\nSELECT figure AS look, sex AS gender FROM players WHERE name = :name\n');
    const withQueries = (file: string) =>
      run([
        'serve',
        'avatar',
        '--assets',
        kit,
        '--port',
        '0',
        '--jobs',
        '1',
        '--database',
        db.url,
        '--database-queries',
        file,
      ]);
    const r = await withQueries(bad);
    assert.equal(r.code, 2);
    assert.match(r.err, /plus\.sql: query user_look does not run: .*players.*; fix it in .*plus\.sql/);
    const unknown = join(root, 'typo.sql');
    writeFileSync(unknown, '-- name: user_lok\nSELECT 1\n');
    const t = await withQueries(unknown);
    assert.equal(t.code, 2);
    assert.match(t.err, /typo\.sql:1: unknown query "user_lok"; the queries are user_look, guild_elements/);
  } finally {
    await db.stop();
  }
});
