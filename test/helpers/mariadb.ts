// A real MariaDB (Debian's `mariadbd`, package mariadb-server) for tests: a throwaway data directory, its
// own loopback port and socket, the Arcturus Morningstar tables the service reads (test/fixtures/arcturus/:
// the real table definitions and the emulator's default room models and badge elements, each file says
// which source and version), stopped after. Tests skip with `MARIADB_SKIP` when the program is absent.
//
// The service connects as `imager`, an account with SELECT on those tables only (docs/database.md's grants);
// `sql()` seeds and changes things as root through the socket. A data directory with the tables loaded is
// made once per MariaDB version under the temp folder and copied for each server (2-4 s saved per test file).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './ports.js';

export const ARCTURUS_FIXTURES = fileURLToPath(new URL('../fixtures/arcturus/', import.meta.url));

/** The database, the read-only account and its password the service is given. */
export const HOTEL_DB = 'hotel';
export const IMAGER_USER = 'imager';
export const IMAGER_PASSWORD = 'imager-pass';

/** The tables the service reads, each granted SELECT to the imager account (as docs/database.md says). */
export const ARCTURUS_TABLES = [
  'users',
  'bans',
  'guilds_elements',
  'rooms',
  'room_models',
  'room_models_custom',
  'items',
  'items_base',
  'bots',
  'users_pets',
] as const;

function find(candidates: (string | undefined)[], versionPattern: RegExp): string | undefined {
  for (const candidate of candidates) {
    if (!candidate) continue;
    const r = spawnSync(candidate, ['--version'], { encoding: 'utf8' });
    if (r.status === 0 && versionPattern.test(r.stdout)) return candidate;
  }
  return undefined;
}

export const MARIADBD = find([process.env.MARIADBD, '/usr/sbin/mariadbd', 'mariadbd'], /MariaDB/);
// mariadb-install-db has no --version: found by its path.
const INSTALL_DB = ['/usr/bin/mariadb-install-db', '/usr/local/bin/mariadb-install-db'].find((p) => {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
});
const CLIENT = find(['/usr/bin/mariadb', 'mariadb'], /MariaDB|mariadb/);

/** The reason MariaDB tests skip, or false when they run. */
export const MARIADB_SKIP: string | false =
  MARIADBD && INSTALL_DB && CLIENT
    ? false
    : 'mariadbd is not installed (Debian package mariadb-server; .ci/run installs it)';

export interface TestMariaDb {
  port: number;
  /** The service's URL: the read-only imager account over TCP on loopback. */
  url: string;
  /** The same account through the Unix socket (the socket URL form). */
  socketUrl: string;
  socket: string;
  /** Runs statements as root (seeding, edits); answers the rows as arrays of text (NULL as null). */
  sql(statements: string): Promise<(string | null)[][]>;
  /** SIGSTOP / SIGCONT: a server that accepts connections and answers nothing. Resolves once every server
   * thread is stopped (a signal is delivered asynchronously: a query sent at once could still be answered). */
  pause(): Promise<void>;
  resume(): void;
  /** SIGKILL: a crash. */
  kill(): Promise<void>;
  /** Starts it again on the same port and data (killing it first when it still runs: a crash and restart). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Answers once the server sends its greeting on a fresh TCP connection (no client library involved). */
function greets(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = createConnection({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(500, () => done(false));
    sock.on('error', () => done(false));
    sock.on('data', (d) => done(d.length > 4));
  });
}

function run(cmd: string, args: string[], input?: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end(input ?? '');
  });
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function serverArgs(dataDir: string, socket: string, port: number, logFile: string): string[] {
  return [
    '--no-defaults',
    `--datadir=${dataDir}`,
    `--socket=${socket}`,
    `--port=${port}`,
    '--bind-address=127.0.0.1',
    `--pid-file=${join(dataDir, 'mariadbd.pid')}`,
    `--log-error=${logFile}`,
    '--skip-name-resolve',
    '--skip-log-bin',
    '--innodb-buffer-pool-size=16M',
    '--innodb-log-file-size=8M',
    '--performance-schema=OFF',
    '--character-set-server=utf8mb4',
    ...(asRoot ? ['--user=root'] : []),
  ];
}

async function startServer(dataDir: string, socket: string, port: number, logFile: string): Promise<ChildProcess> {
  const child = spawn(MARIADBD as string, serverArgs(dataDir, socket, port, logFile), {
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const deadline = Date.now() + 30_000;
  while (!(await greets(port))) {
    if (child.exitCode !== null) {
      const log = await readFile(logFile, 'utf8').catch(() => '');
      throw new Error(`mariadbd exited with ${child.exitCode}:\n${log.slice(-2000)}`);
    }
    if (Date.now() > deadline) throw new Error('mariadbd did not greet within 30 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  return child;
}

async function client(socket: string, statements: string, database = ''): Promise<string> {
  const r = await run(
    CLIENT as string,
    [
      '--no-defaults',
      `--socket=${socket}`,
      '-uroot',
      '--batch',
      '--raw',
      '--skip-column-names',
      ...(database ? [database] : []),
    ],
    statements,
  );
  if (r.code !== 0) throw new Error(`mariadb client: ${r.err.trim()}`);
  return r.out;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** The data directory with the hotel's tables and the imager account: made once, copied after. */
async function template(): Promise<string> {
  const version = spawnSync(MARIADBD as string, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const fixtures = (await readdir(ARCTURUS_FIXTURES)).filter((f) => f.endsWith('.sql')).sort();
  const sql = await Promise.all(fixtures.map((f) => readFile(join(ARCTURUS_FIXTURES, f), 'utf8')));
  const { createHash } = await import('node:crypto');
  const key = createHash('sha256')
    .update(version)
    .update(sql.join('\n'))
    .update(`${IMAGER_USER}:${IMAGER_PASSWORD}:${ARCTURUS_TABLES.join(',')}`)
    .digest('hex')
    .slice(0, 16);
  const dir = join(tmpdir(), `hotel-imager-mariadb-template-${key}`);
  if (await exists(join(dir, 'ready'))) return dir;

  const work = await mkdtemp(join(tmpdir(), 'hotel-imager-mariadb-make-'));
  const data = join(work, 'data');
  const install = await run(INSTALL_DB as string, [
    '--no-defaults',
    `--datadir=${data}`,
    '--auth-root-authentication-method=normal',
    '--skip-test-db',
    '--skip-name-resolve',
    ...(asRoot ? ['--user=root'] : []),
  ]);
  if (install.code !== 0) throw new Error(`mariadb-install-db failed: ${install.err.slice(-2000)}`);
  const socket = join(work, 's');
  const port = await freePort();
  const child = await startServer(data, socket, port, join(work, 'error.log'));
  try {
    await client(socket, `CREATE DATABASE ${HOTEL_DB} CHARACTER SET utf8mb4;`);
    await client(socket, sql.join('\n'), HOTEL_DB);
    const grants = ARCTURUS_TABLES.map((t) => `GRANT SELECT ON ${HOTEL_DB}.${t} TO '${IMAGER_USER}'@'%';`);
    await client(
      socket,
      [
        `CREATE USER '${IMAGER_USER}'@'%' IDENTIFIED BY '${IMAGER_PASSWORD}';`,
        `CREATE USER '${IMAGER_USER}'@'localhost' IDENTIFIED BY '${IMAGER_PASSWORD}';`,
        ...grants,
        ...ARCTURUS_TABLES.map((t) => `GRANT SELECT ON ${HOTEL_DB}.${t} TO '${IMAGER_USER}'@'localhost';`),
      ].join('\n'),
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
  }
  await rm(join(data, 'mariadbd.pid'), { force: true });
  await mkdir(join(work, 'ready'));
  // Another test process may have made it meanwhile: theirs is as good.
  await rename(work, dir).catch(async () => rm(work, { recursive: true, force: true }));
  return dir;
}

/**
 * Waits until /proc shows every thread of `pid` stopped ('T'). Where /proc is missing or never shows it (a
 * sandboxed kernel may report stopped threads otherwise), it settles for time: 200 ms, or 1 s of polling.
 */
async function allThreadsStopped(pid: number): Promise<void> {
  const deadline = Date.now() + 1000;
  for (;;) {
    let states: string[];
    try {
      const tasks = await readdir(`/proc/${pid}/task`);
      states = await Promise.all(
        tasks.map(async (t) => {
          // Field 3 of stat follows the command name in parentheses, which may itself hold spaces or ')'.
          const stat = await readFile(`/proc/${pid}/task/${t}/stat`, 'utf8').catch(() => ') T');
          return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        }),
      );
    } catch {
      await new Promise((r) => setTimeout(r, 200));
      return;
    }
    if (states.every((s) => s === 'T' || s === 't') || Date.now() > deadline) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

export async function startMariaDb(): Promise<TestMariaDb> {
  if (MARIADB_SKIP) throw new Error(MARIADB_SKIP);
  const made = await template();
  const dir = await mkdtemp(join(tmpdir(), 'hotel-imager-mariadb-'));
  const data = join(dir, 'data');
  await cp(join(made, 'data'), data, { recursive: true });
  // A socket path stays short (108 bytes at most on Linux).
  const socket = join(dir, 's');
  const logFile = join(dir, 'error.log');
  const port = await freePort();
  let child: ChildProcess | undefined = await startServer(data, socket, port, logFile);
  // A test process that dies without stop() leaves no server behind.
  process.once('exit', () => {
    child?.kill('SIGCONT');
    child?.kill('SIGKILL');
  });
  const exited = () =>
    new Promise<void>((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
  const credentials = `${IMAGER_USER}:${IMAGER_PASSWORD}`;
  return {
    port,
    url: `mysql://${credentials}@127.0.0.1:${port}/${HOTEL_DB}`,
    socketUrl: `mysql://${credentials}@localhost/${HOTEL_DB}?socket=${encodeURIComponent(socket)}`,
    socket,
    sql: async (statements) => {
      const out = await client(socket, statements, HOTEL_DB);
      return out
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => line.split('\t').map((v) => (v === 'NULL' ? null : v)));
    },
    pause: async () => {
      child?.kill('SIGSTOP');
      if (child?.pid) await allThreadsStopped(child.pid);
    },
    resume: () => void child?.kill('SIGCONT'),
    kill: async () => {
      child?.kill('SIGCONT');
      child?.kill('SIGKILL');
      await exited();
    },
    restart: async () => {
      child?.kill('SIGCONT');
      child?.kill('SIGKILL');
      await exited();
      child = await startServer(data, socket, port, logFile);
    },
    stop: async () => {
      child?.kill('SIGCONT');
      child?.kill('SIGTERM');
      await exited();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
