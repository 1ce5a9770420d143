// The shipped nginx config (deploy/nginx/hotel-imager.conf, what compose.yaml mounts) and its copy in
// docs/deployment.md route exactly the public path list (src/server/public-paths.ts): each runs in
// Debian's nginx in front of the avatar service (sample kit) and the furni service (a small corpus) on
// loopback, every public path is sent through it, and each service's request log says which one answered.
// /metrics is refused by nginx and reaches neither. Skipped, saying why, when nginx is not installed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureSampleKit } from '../../src/samplekit/index.js';
import { startAvatarService, type AvatarServiceInstance } from '../../src/server/imager.js';
import { startFurniServer, type RunningFurniServer } from '../../src/server/furni/index.js';
import { nginxLocations, PRIVATE_PATHS, PUBLIC_ROUTES, type PublicService } from '../../src/server/public-paths.js';
import { documentedNginxConf, loopbackNginxConf } from '../../scripts/nginx-conf.mjs';
import { testAvatarConfig } from '../server/avatar/fixtures.js';
import { fakePng, writeCorpusFixture } from '../server/furni/fixture.js';
import { freePort, waitForPort } from '../helpers/ports.js';

const repo = resolve(import.meta.dirname, '../..');
const NGINX = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
const skip = NGINX ? false : 'nginx is not installed (apt-get install nginx)';

/** Request lines a service logged, by path. */
class RequestLog {
  paths: string[] = [];
  write(chunk: string): boolean {
    for (const line of chunk.split('\n')) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as { msg?: string; path?: string };
      if (entry.msg === 'request' && entry.path !== undefined) this.paths.push(entry.path);
    }
    return true;
  }
}

let scratch = '';
const logs: Record<PublicService, RequestLog> = { avatar: new RequestLog(), furni: new RequestLog() };
let avatar: (AvatarServiceInstance & { url: string }) | undefined;
let furni: RunningFurniServer | undefined;
const nginxes: ChildProcess[] = [];

before(async () => {
  if (skip) return;
  scratch = await mkdtemp(join(tmpdir(), 'nginx-routes-'));
  const kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  avatar = await startAvatarService(
    testAvatarConfig(kit, 'http://127.0.0.1:9', { logLevel: 'info', trustProxy: true }),
    { logStream: logs.avatar },
  );
  const corpus = join(scratch, 'corpus');
  await writeCorpusFixture(corpus, {
    'furni-renders/kit_table_sd.png': fakePng(1),
    'catalog-thumbs/kit_table_sd.png': fakePng(2),
    'hof_furni/1/kit_table_sd.bundle': fakePng(3),
  });
  furni = await startFurniServer({ corpus, host: '127.0.0.1', port: 0, player: true, logStream: logs.furni });
});

after(async () => {
  for (const nginx of nginxes) {
    if (nginx.exitCode !== null) continue;
    const gone = new Promise((r) => nginx.once('exit', r));
    nginx.kill('SIGTERM');
    await gone;
  }
  await avatar?.close();
  await furni?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** Runs `conf` (as shipped) in nginx on a free loopback port, in front of both services; its base URL. */
async function runNginx(name: string, conf: string): Promise<string> {
  const dir = join(scratch, name);
  await mkdir(dir);
  const listenPort = await freePort();
  const avatarPort = Number(new URL(avatar!.url).port);
  await writeFile(
    join(dir, 'nginx.conf'),
    loopbackNginxConf(conf, { dir, listenPort, avatarPorts: [avatarPort], furniPort: furni!.port }),
  );
  const nginx = spawn(
    NGINX!,
    ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log'), '-g', 'daemon off;'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  nginxes.push(nginx);
  let err = '';
  nginx.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<never>((_r, fail) =>
    nginx.once('exit', (code) => fail(new Error(`nginx exited ${code}: ${err}`))),
  );
  await Promise.race([waitForPort(listenPort, 10_000), exited]);
  return `http://127.0.0.1:${listenPort}`;
}

/** Which services logged a request for `path` since the counts in `before`, waiting up to 2 s for one. */
async function answeredBy(path: string, before: Record<PublicService, number>): Promise<PublicService[]> {
  const until = Date.now() + 2000;
  for (;;) {
    const by = (['avatar', 'furni'] as const).filter((s) => logs[s].paths.slice(before[s]).includes(path));
    if (by.length > 0 || Date.now() > until) return by;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const counts = (): Record<PublicService, number> => ({
  avatar: logs.avatar.paths.length,
  furni: logs.furni.paths.length,
});
const pathOf = (target: string): string => target.split('?')[0]!;

/** The location lines of an nginx config, whitespace as written. */
function locationLines(conf: string): string[] {
  return conf
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('location '));
}

test('the shipped nginx config and docs/deployment.md carry exactly the locations of the public path list', async () => {
  const shipped = await readFile(join(repo, 'deploy/nginx/hotel-imager.conf'), 'utf8');
  const documented = documentedNginxConf(await readFile(join(repo, 'docs/deployment.md'), 'utf8'));
  assert.deepEqual(locationLines(shipped), nginxLocations());
  assert.deepEqual(locationLines(documented), nginxLocations());
  assert.deepEqual(nginxLocations(), [
    'location = /avatar.png   { proxy_pass http://avatar; }',
    'location = /avatar       { proxy_pass http://avatar; }',
    'location /habbo-imaging/ { proxy_pass http://avatar; }',
    'location = /render       { proxy_pass http://avatar; }',
    'location /render/        { proxy_pass http://avatar; }',
    'location /thumbnail/     { proxy_pass http://avatar; }',
    'location = /metrics      { return 404; }',
    'location /               { proxy_pass http://furni; }',
  ]);
});

for (const [name, read] of [
  ['deploy/nginx/hotel-imager.conf', () => readFile(join(repo, 'deploy/nginx/hotel-imager.conf'), 'utf8')],
  ['docs/deployment.md', async () => documentedNginxConf(await readFile(join(repo, 'docs/deployment.md'), 'utf8'))],
] as const) {
  test(`through ${name} in nginx, every public path reaches its service and /metrics neither`, { skip }, async () => {
    const base = await runNginx(name.replace(/\W/g, '-'), await read());
    const examples = PUBLIC_ROUTES.flatMap((r) => r.examples.map((target) => [target, r.service] as const));
    // Every path the avatar service answers is in the list (a new classic path cannot be forgotten here).
    for (const p of [
      '/avatar.png',
      '/avatar',
      '/habbo-imaging/avatarimage',
      '/habbo-imaging/avatarimage.png',
      '/habbo-imaging/avatarimage.gif',
      '/habbo-imaging/head',
      '/habbo-imaging/head.png',
      '/habbo-imaging/head.gif',
      '/habbo-imaging/avatar/',
      '/habbo-imaging/avatarimage/convert',
      '/habbo-imaging/effect/',
      '/habbo-imaging/handitem/',
      '/habbo-imaging/badge',
      '/habbo-imaging/badge-fill/',
      '/render',
      '/render/badge',
      '/habbo-imaging/room',
      '/render/room',
      '/thumbnail',
      '/habbo-imaging/furni?',
      '/habbo-imaging/furniture?',
      '/habbo-imaging/furniture/',
    ]) {
      assert.ok(
        examples.some(([t, s]) => s === 'avatar' && (p.endsWith('?') ? t.startsWith(p) : pathOf(t).startsWith(p))),
        `${p} has an example`,
      );
    }
    for (const [target, service] of examples) {
      const before = counts();
      const res = await fetch(base + target, { redirect: 'manual' });
      await res.arrayBuffer();
      assert.deepEqual(await answeredBy(pathOf(target), before), [service], `${target} (${res.status})`);
    }
    // Spot checks of the answers themselves.
    const png = await fetch(`${base}/habbo-imaging/avatarimage.png?figure=hd-180-1.ch-210-66.lg-270-82.sh-290-80`);
    assert.equal(png.status, 200);
    assert.equal(png.headers.get('content-type'), 'image/png');
    const badge = await fetch(`${base}/habbo-imaging/badge/b03034s04094s02110s03118.gif`);
    assert.equal(badge.status, 200);
    assert.equal(badge.headers.get('content-type'), 'image/gif');
    // Furni on demand is the avatar service's (the furni service's stand-in would not answer it).
    const chroma = await fetch(`${base}/habbo-imaging/furni?sprite=kit_table_sd&direction=2&canvas=transparent`);
    assert.equal(chroma.status, 200);
    assert.equal(chroma.headers.get('content-type'), 'image/png');
    const thumb = await fetch(`${base}/catalog-thumbs/kit_table_sd.png`);
    assert.equal(thumb.status, 200);
    assert.deepEqual(Buffer.from(await thumb.arrayBuffer()), fakePng(2));
    for (const p of PRIVATE_PATHS) {
      const before = counts();
      const res = await fetch(base + p);
      assert.equal(res.status, 404, `${p} through nginx`);
      assert.match(res.headers.get('server') ?? '', /^nginx/);
      assert.deepEqual(await answeredBy(p, before), [], `${p} reached a service through nginx`);
      // On each service's own port it answers.
      assert.equal((await fetch(avatar!.url + p)).status, 200);
      assert.equal((await fetch(furni!.url + p)).status, 200);
    }
  });
}
