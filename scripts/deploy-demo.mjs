#!/usr/bin/env node
// The deployment of docs/deployment.md on loopback, started, exercised and stopped: Redis, two avatar
// instances sharing it, the furni service, and nginx in front of them as load balancer with its proxy
// cache. Sends cold and warm traffic and checks that every cold URL was rendered once across both
// instances. Needs the Debian packages redis-server and nginx. Exit status 0 = every check held.
//
//   node scripts/deploy-demo.mjs [--keep] [--furni-from-disk] [--nginx-port N] [--avatar-ports N,N]
//                                [--furni-port N] [--redis-port N] [--s3-port N]
//   (--keep: leave the working folder for a look at the logs; --furni-from-disk: no bucket; a port not
//    given is a free one, all on 127.0.0.1)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loopbackNginxConf } from './nginx-conf.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

function usageError(message) {
  process.stderr.write(`deploy-demo: ${message}\n`);
  process.exit(2);
}
let args;
try {
  args = parseArgs({
    options: {
      keep: { type: 'boolean', default: false },
      'furni-from-disk': { type: 'boolean', default: false },
      'nginx-port': { type: 'string' },
      'avatar-ports': { type: 'string' },
      'furni-port': { type: 'string' },
      'redis-port': { type: 'string' },
      's3-port': { type: 'string' },
    },
    strict: true,
  }).values;
} catch (err) {
  usageError(err.message);
}
/** A TCP port from a flag: a whole number 1–65535, or a clear error naming the flag. */
function portFlag(name, value = args[name]) {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(String(value).trim()) || n < 1 || n > 65535)
    usageError(`--${name} must be a port number 1-65535, got "${value}"`);
  return n;
}
const wanted = {
  nginx: portFlag('nginx-port'),
  furni: portFlag('furni-port'),
  redis: portFlag('redis-port'),
  s3: portFlag('s3-port'),
  avatars:
    args['avatar-ports'] === undefined
      ? [undefined, undefined]
      : args['avatar-ports'].split(',').map((p) => portFlag('avatar-ports', p)),
};
if (wanted.avatars.length !== 2)
  usageError(`--avatar-ports takes two ports, e.g. 8081,8082; got "${args['avatar-ports']}"`);
const given = [wanted.nginx, wanted.furni, wanted.redis, wanted.s3, ...wanted.avatars].filter((p) => p !== undefined);
if (new Set(given).size !== given.length) usageError(`the same port is given twice: ${given.join(', ')}`);

const keep = args.keep;
const work = await mkdtemp(join(tmpdir(), 'hotel-imager-deploy-'));
const kit = join(work, 'kit');

// ─── Furni corpus location ──────────────────────────────────────────────────────────────────────────
// The corpus is built from the sample kit into a folder, published to a bucket of an S3-compatible
// server (s3rver, the test dependency, on loopback) and served from there, as several machines would.
// `--furni-from-disk` serves the folder instead.
const fromDisk = args['furni-from-disk'];
const BUILT_CORPUS = join(work, 'corpus');
const BUCKET = 'hotel-furni';
const FURNI_CORPUS = fromDisk ? BUILT_CORPUS : `s3://${BUCKET}/corpus`;
// ─────────────────────────────────────────────────────────────────────────────────────────────────────

const children = [];
let s3server;
const log = (msg) => process.stdout.write(msg + '\n');

function which(names) {
  for (const n of names) {
    const r = spawnSync('sh', ['-c', `command -v ${n}`], { encoding: 'utf8' });
    if (r.status === 0 && r.stdout.trim()) return r.stdout.trim();
    if (n.startsWith('/') && existsSync(n)) return n;
  }
  return undefined;
}

/** The port asked for, checked free (a clear error otherwise), or a free one. */
async function port(asked, what) {
  const s = createServer();
  try {
    await new Promise((resolve, reject) => {
      s.once('error', reject);
      s.listen(asked ?? 0, '127.0.0.1', resolve);
    });
  } catch (err) {
    throw new Error(
      `${what}: port ${asked} on 127.0.0.1 is not free (${err.code ?? err.message}); choose another with its flag`,
    );
  }
  const { port: p } = s.address();
  await new Promise((r) => s.close(r));
  return p;
}

function canConnect(port) {
  return new Promise((resolve) => {
    const sock = createConnection({ host: '127.0.0.1', port });
    sock.on('connect', () => {
      sock.destroy();
      resolve(true);
    });
    sock.on('error', () => resolve(false));
  });
}

async function waitFor(what, check, ms = 180_000) {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} did not come up within ${ms / 1000} s (logs in ${work})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A long-running child with its output in <work>/<name>.log. */
async function run(name, cmd, args) {
  const { openSync } = await import('node:fs');
  const out = openSync(join(work, `${name}.log`), 'a');
  const child = spawn(cmd, args, {
    cwd: repo,
    stdio: ['ignore', out, out],
    env: { ...process.env, HOTEL_IMAGER_LOG_LEVEL: 'warn' },
  });
  children.push({ name, child });
  child.on('exit', (code, signal) => {
    if (!stopping) log(`  ! ${name} exited (${signal ?? code}); log: ${join(work, `${name}.log`)}`);
  });
  return child;
}

/** hotel-imager from this checkout (TypeScript through tsx: no build step needed). */
const cli = (args) => [process.execPath, ['--import', 'tsx', join(repo, 'src/cli/main.ts'), ...args]];

function runOnce(args) {
  const [cmd, a] = cli(args);
  const r = spawnSync(cmd, a, { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`hotel-imager ${args.join(' ')} failed:\n${r.stderr}`);
}

let stopping = false;
async function stopAll() {
  stopping = true;
  for (const { child } of children.reverse()) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await Promise.race([new Promise((r) => child.once('exit', r)), new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }
}

/** A stand-in for the hotel's public user API (GET /api/public/users?name=), counting its lookups. */
const USERS = {
  Bob: 'hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40',
  Alice: 'hd-180-1.ch-210-66.lg-270-82.hr-100-40',
};
let userApiHits = 0;
const userApi = createServer((req, res) => {
  const name = new URL(req.url, 'http://x').searchParams.get('name') ?? '';
  userApiHits++;
  const figure = Object.entries(USERS).find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
  if (!figure) return res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not-found"}');
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name, figureString: figure }));
});

/** The shipped deploy/nginx/hotel-imager.conf, on this run's loopback ports and folder. */
function nginxConf({ nginxPort, avatarPorts, furniPort, dir }) {
  const shipped = readFileSync(join(repo, 'deploy/nginx/hotel-imager.conf'), 'utf8');
  return loopbackNginxConf(shipped, {
    dir,
    listenPort: nginxPort,
    avatarPorts,
    furniPort,
    workerConnections: 1024,
    accessLog: true,
  });
}

/**
 * fetch, once more when a kept-alive connection was closed by the server as the request went out (its
 * idle timeout and fetch's reuse of the socket cross under load): what browsers do for a GET.
 */
const retried = [];
async function fetchGet(url, init = {}) {
  try {
    return await fetch(url, init);
  } catch (err) {
    if (!['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET'].includes(err?.cause?.code)) throw err;
    retried.push(err.cause.code);
    return fetch(url, init);
  }
}

async function get(url) {
  const res = await fetchGet(url, { redirect: 'manual' });
  await res.arrayBuffer();
  return { status: res.status, proxy: res.headers.get('x-proxy-cache'), source: res.headers.get('x-imager-cache') };
}

async function health(port) {
  const res = await fetchGet(`http://127.0.0.1:${port}/healthz`);
  return res.json();
}

const checks = [];
function check(ok, what) {
  checks.push({ ok, what });
  log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}`);
}

try {
  const redisServer = which(['redis-server', '/usr/bin/redis-server']);
  const nginx = which(['nginx', '/usr/sbin/nginx']);
  if (!redisServer || !nginx)
    throw new Error('needs the Debian packages redis-server and nginx (apt-get install redis-server nginx)');

  log(`working folder ${work}`);
  log('1. sample kit and furni corpus');
  runOnce(['sample-kit', '--out', kit]);
  runOnce(['build', '--assets', kit, '--out', BUILT_CORPUS]);
  let s3Flags = [];
  if (!fromDisk) {
    const { default: S3rver } = await import('s3rver');
    await mkdir(join(work, 's3'));
    s3server = new S3rver({
      address: '127.0.0.1',
      port: await port(wanted.s3, 's3 server (--s3-port)'),
      silent: true,
      directory: join(work, 's3'),
      configureBuckets: [{ name: BUCKET }],
    });
    const { port: s3Port } = await s3server.run();
    // s3rver's fixed test credentials, through the standard AWS variables every child reads.
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_REGION: 'us-east-1',
    });
    s3Flags = ['--s3-endpoint', `http://127.0.0.1:${s3Port}`, '--s3-force-path-style'];
    // Not runOnce: s3rver answers from this process, whose event loop a synchronous spawn would block.
    const [cmd, args] = cli(['publish', '--corpus', BUILT_CORPUS, '--to', FURNI_CORPUS, ...s3Flags]);
    const published = spawn(cmd, args, { cwd: repo, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    published.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise((r) => published.on('exit', r));
    if (code !== 0) throw new Error(`hotel-imager publish failed:\n${stderr}`);
    log(`   published to ${FURNI_CORPUS} on the S3-compatible server at 127.0.0.1:${s3Port}`);
  }

  // One after another: a free port handed out twice at once would collide.
  const redisPort = await port(wanted.redis, 'redis-server (--redis-port)');
  const a1 = await port(wanted.avatars[0], 'avatar instance 1 (--avatar-ports)');
  const a2 = await port(wanted.avatars[1], 'avatar instance 2 (--avatar-ports)');
  const furniPort = await port(wanted.furni, 'furni service (--furni-port)');
  const nginxPort = await port(wanted.nginx, 'nginx (--nginx-port)');
  if (new Set([redisPort, a1, a2, furniPort, nginxPort]).size !== 5)
    throw new Error('two services were given the same free port; run again');
  await new Promise((r) => userApi.listen(0, '127.0.0.1', r));
  const userApiBase = `http://127.0.0.1:${userApi.address().port}`;

  log(
    `2. redis-server on ${redisPort}, avatar instances on ${a1} and ${a2}, furni on ${furniPort}, nginx on ${nginxPort}`,
  );
  await mkdir(join(work, 'redis'));
  await run('redis', redisServer, [
    '--port',
    String(redisPort),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    join(work, 'redis'),
    '--maxmemory',
    '256mb',
    '--maxmemory-policy',
    'allkeys-lru',
  ]);
  await waitFor('redis-server', () => canConnect(redisPort));
  const redisUrl = `redis://127.0.0.1:${redisPort}/0`;
  for (const [name, port] of [
    ['avatar-1', a1],
    ['avatar-2', a2],
  ]) {
    await run(
      name,
      ...cli([
        'serve',
        'avatar',
        '--assets',
        kit,
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--workers',
        '1',
        '--redis',
        redisUrl,
        '--user-api',
        userApiBase,
        '--trust-proxy',
        '--log-level',
        'warn',
      ]),
    );
  }
  await run(
    'furni',
    ...cli([
      'serve',
      'furni',
      '--corpus',
      FURNI_CORPUS,
      ...s3Flags,
      '--host',
      '127.0.0.1',
      '--port',
      String(furniPort),
      '--log-level',
      'warn',
    ]),
  );
  for (const port of [a1, a2])
    await waitFor(`avatar instance on ${port}`, async () => (await health(port)).redis?.available === true);
  await waitFor('furni service', async () => (await fetch(`http://127.0.0.1:${furniPort}/healthz`)).ok);
  const nginxDir = join(work, 'nginx');
  await mkdir(nginxDir);
  await writeFile(
    join(nginxDir, 'nginx.conf'),
    nginxConf({ nginxPort, avatarPorts: [a1, a2], furniPort, dir: nginxDir }),
  );
  await run('nginx', nginx, [
    '-p',
    nginxDir,
    '-c',
    join(nginxDir, 'nginx.conf'),
    '-e',
    join(nginxDir, 'error.log'),
    '-g',
    'daemon off;',
  ]);
  await waitFor('nginx', () => canConnect(nginxPort));
  const lb = `http://127.0.0.1:${nginxPort}`;

  const renders = async () => (await Promise.all([a1, a2].map(health))).map((h) => h.renders.renders);
  const sum = (xs) => xs.reduce((s, x) => s + x, 0);
  const FIG = USERS.Bob;
  const burst = async (urls, copies) =>
    await Promise.all(urls.flatMap((u) => Array.from({ length: copies }, () => get(u))));

  // After a Redis command outlives --redis-timeout-ms (75 ms), an instance leaves Redis alone for a second
  // and renders locally (docs/deployment.md, "Redis"): by design, but then a sharing check measures the
  // machine's load, not the deployment. The sharing steps start with Redis available on both instances,
  // and a check that fails says how many Redis commands failed or timed out during its step.
  const redisErrors = async () => sum((await Promise.all([a1, a2].map(health))).map((h) => h.redis.errors));
  const redisReady = () =>
    waitFor(
      'Redis available on both instances',
      async () => (await Promise.all([a1, a2].map(health))).every((h) => h.redis.available),
      10_000,
    );
  const duringStep = async (errorsBefore) => {
    const n = (await redisErrors()) - errorsBefore;
    if (n === 0) return '';
    const last = (await Promise.all([a1, a2].map(health)))
      .map((h) => h.redis.lastError)
      .filter(Boolean)
      .join(' / ');
    return `; ${n} Redis commands failed or timed out meanwhile (load average ${(await readFile('/proc/loadavg', 'utf8').catch(() => '?')).split(' ')[0]}; last: ${last})`;
  };

  log('3. traffic');
  // a) Through nginx: 24 cold URLs, 16 clients each at once.
  let before = sum(await renders());
  const coldA = Array.from(
    { length: 24 },
    (_, i) => `${lb}/avatar.png?figure=${FIG}&direction=${i % 8}&size=${'slm'[i % 3]}&demo=lb${i}`,
  );
  let answers = await burst(coldA, 16);
  let done = sum(await renders()) - before;
  check(
    answers.every((r) => r.status === 200),
    `through nginx: ${answers.length} requests for ${coldA.length} cold URLs, all 200`,
  );
  check(done === coldA.length, `through nginx: ${done} renders for ${coldA.length} cold URLs`);
  // b) Around nginx, straight at both instances (several load balancers or CDN edges, each with its own
  //    cache): 24 other cold URLs, 16 clients each, half on each instance. Redis' render lock coalesces.
  await redisReady();
  before = sum(await renders());
  let errorsBefore = await redisErrors();
  const coldB = Array.from(
    { length: 24 },
    (_, i) => `/avatar.png?figure=${FIG}&direction=${i % 8}&size=${'slm'[i % 3]}&action=wav&animated=1&demo=edge${i}`,
  );
  answers = await Promise.all(
    coldB.flatMap((u) => Array.from({ length: 16 }, (_, c) => get(`http://127.0.0.1:${c % 2 ? a2 : a1}${u}`))),
  );
  done = sum(await renders()) - before;
  check(
    answers.every((r) => r.status === 200),
    `two instances directly: ${answers.length} requests for ${coldB.length} cold URLs, all 200`,
  );
  check(
    done === coldB.length,
    `two instances directly: ${done} renders for ${coldB.length} cold URLs (Redis render lock)${await duringStep(errorsBefore)}`,
  );
  // c) The same URLs through nginx again: its cache answers.
  answers = await burst(coldA.slice(0, 8), 4);
  check(
    answers.every((r) => r.proxy === 'HIT'),
    `warm through nginx: ${answers.filter((r) => r.proxy === 'HIT').length}/${answers.length} nginx cache hits`,
  );
  // d) Usernames: asked on one instance, then (in other spellings) on the other: the API is asked once
  //    per name, the other instance takes the name and the image from Redis. On the second instance
  //    'bob' and 'ALICE' go at once (two keys: both from Redis), then 'Bob', the same name as 'bob':
  //    from its own memory now. (Sent together, 'Bob' raced 'bob': whichever request the server
  //    finished first put the image in memory, and the other said 'memory' or 'redis' by timing.)
  await redisReady();
  errorsBefore = await redisErrors();
  const hitsBefore = userApiHits;
  const rendersBefore = await renders();
  const userUrl = (port, n) => `http://127.0.0.1:${port}/avatar.png?user=${n}&size=s`;
  const first = await Promise.all(['Bob', 'Alice'].map((n) => get(userUrl(a1, n))));
  const second = await Promise.all(['bob', 'ALICE'].map((n) => get(userUrl(a2, n))));
  const again = await get(userUrl(a2, 'Bob'));
  answers = [...first, ...second, again];
  const secondRenders = (await renders())[1] - rendersBefore[1];
  const userStep = await duringStep(errorsBefore);
  check(
    second.every((r) => r.source === 'redis') && again.source === 'memory' && secondRenders === 0,
    `?user= on the second instance: ${second.map((r) => r.source).join(', ')}, then ${again.source}; ${secondRenders} renders there${userStep}`,
  );
  check(
    answers.every((r) => r.status === 200),
    `?user= on both instances: ${answers.length} answers, all 200`,
  );
  check(
    userApiHits - hitsBefore === 2,
    `user API asked ${userApiHits - hitsBefore} times for 2 names across both instances${userStep}`,
  );
  // e) Furni through nginx.
  const thumb = `${lb}/catalog-thumbs/kit_table_sd.png`;
  const furni = [await get(thumb), await get(thumb)];
  check(
    furni[0].status === 200 && furni[1].proxy === 'HIT',
    `furni through nginx: ${furni[0].status}, then nginx cache ${furni[1].proxy}`,
  );
  const storage = (await (await fetchGet(`http://127.0.0.1:${furniPort}/healthz`)).json()).checks?.storage ?? {};
  check(
    fromDisk ? storage.backend !== 's3' : storage.backend === 's3' && storage.reachable === true,
    `furni service reads its corpus from ${storage.backend ?? '?'} (${storage.location ?? FURNI_CORPUS}), reachable: ${storage.reachable}`,
  );

  log('4. per instance (from /healthz)');
  log('  instance  renders  redis image hits  render waits  waits answered by the other  redis errors  state');
  for (const [i, port] of [a1, a2].entries()) {
    const h = await health(port);
    log(
      `  avatar-${i + 1}  ${String(h.renders.renders).padStart(7)}  ${String(h.redis.imageHits).padStart(16)}  ${String(h.redis.renderWaits).padStart(12)}  ${String(h.redis.renderWaitHits).padStart(28)}  ${String(h.redis.errors).padStart(12)}  ${h.redis.state}`,
    );
    if (process.env.DEMO_VERBOSE) log(JSON.stringify(h.redis));
  }
} catch (err) {
  // fetch's own message is "fetch failed": the cause says what (refused, reset, timed out) and where.
  const cause = err.cause ? ` (${err.cause.code ?? ''} ${err.cause.message ?? err.cause})` : '';
  check(
    false,
    `${err.message}${cause}${
      err.stack
        ? ' at ' +
          err.stack
            .split('\n')
            .find((l) => l.includes('deploy-demo'))
            ?.trim()
        : ''
    }`,
  );
} finally {
  await stopAll();
  await s3server?.close();
  await new Promise((r) => userApi.close(r));
  if (keep) log(`kept ${work}`);
  else await rm(work, { recursive: true, force: true });
}
if (retried.length > 0)
  log(`(${retried.length} requests sent again on a fresh connection after ${[...new Set(retried)].join(', ')})`);
const failed = checks.filter((c) => !c.ok).length;
log(
  failed === 0 ? `all ${checks.length} checks held; everything stopped` : `${failed} of ${checks.length} checks failed`,
);
process.exit(failed === 0 ? 0 : 1);
