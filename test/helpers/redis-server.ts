// A real Redis (the Debian `redis-server` program) for tests: on a free loopback port, with a temporary
// directory and no persistence, stopped after. Tests skip with `REDIS_SKIP` when the program is absent.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { freePort } from './ports.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function findRedisServer(): string | undefined {
  for (const candidate of [
    process.env.REDIS_SERVER,
    'redis-server',
    '/usr/bin/redis-server',
    '/usr/sbin/redis-server',
  ]) {
    if (!candidate) continue;
    const r = spawnSync(candidate, ['--version'], { encoding: 'utf8' });
    if (r.status === 0 && /Redis server/.test(r.stdout)) return candidate;
  }
  return undefined;
}

export { freePort };

export const REDIS_SERVER = findRedisServer();
/** The reason Redis tests skip, or false when they run. */
export const REDIS_SKIP: string | false = REDIS_SERVER
  ? false
  : 'redis-server is not installed (Debian package redis-server; .ci/run installs it)';

/** Answers PING on a raw socket (no client library, so the helper tests nothing of ours). */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = createConnection({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(500, () => done(false));
    sock.on('error', () => done(false));
    sock.on('connect', () => sock.write('PING\r\n'));
    sock.on('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}

export interface TestRedis {
  port: number;
  url: string;
  /** SIGKILL: a crash, nothing flushed. */
  kill(): Promise<void>;
  /** SIGSTOP / SIGCONT: a Redis that hangs without closing connections. */
  freeze(): void;
  thaw(): void;
  /** Starts it again on the same port (empty: no persistence). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<TestRedis> {
  if (!REDIS_SERVER) throw new Error(REDIS_SKIP as string);
  const dir = await mkdtemp(join(tmpdir(), 'hotel-imager-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const exited = () =>
    new Promise<void>((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
  const launch = async () => {
    child = spawn(
      REDIS_SERVER,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
        '--maxmemory',
        '64mb',
        '--maxmemory-policy',
        'allkeys-lru',
      ],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    const deadline = Date.now() + 10_000;
    while (!(await ping(port))) {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error('redis-server did not answer PING within 10 s');
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    kill: async () => {
      child?.kill('SIGKILL');
      await exited();
    },
    freeze: () => void child?.kill('SIGSTOP'),
    thaw: () => void child?.kill('SIGCONT'),
    restart: async () => {
      await exited();
      await launch();
    },
    stop: async () => {
      child?.kill('SIGCONT');
      child?.kill('SIGTERM');
      await exited();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
