// The migration section's nginx `location` (docs/avatar-service.md), run for real: Debian's nginx with
// that block, read from the doc, in a site's server block in front of the avatar service on the sample
// kit. Pages' /habbo-imaging/ URLs get the /avatar.png bytes through it; the site's other paths stay
// the site's. Skipped, saying why, when nginx is not installed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSampleKit } from '../../../src/samplekit/index.js';
import { startAvatarService, type AvatarServiceInstance } from '../../../src/server/imager.js';
import { testAvatarConfig } from './fixtures.js';
import { freePort, waitForPort } from '../../helpers/ports.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const NGINX = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
const skip = NGINX ? false : 'nginx is not installed (apt-get install nginx)';
const FIG = 'hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40';

let scratch = '';
let svc: (AvatarServiceInstance & { url: string }) | undefined;
let nginx: ChildProcess | undefined;
let base = '';

/** The fenced nginx block of the doc's migration section, as an operator would paste it. */
async function documentedLocation(): Promise<string> {
  const doc = await readFile(join(repo, 'docs/avatar-service.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Moving a page from the classic imager'));
  const m = /```nginx\n([\s\S]*?)```/.exec(section);
  assert.ok(m, 'the migration section has an nginx block');
  return m[1]!;
}

before(async () => {
  if (skip) return;
  scratch = await mkdtemp(join(tmpdir(), 'avatar-nginx-'));
  const kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  svc = await startAvatarService(testAvatarConfig(kit, 'http://127.0.0.1:9', { trustProxy: true }));
  const avatarPort = new URL(svc.url).port;
  const location = (await documentedLocation()).replace('http://127.0.0.1:8081', `http://127.0.0.1:${avatarPort}`);
  assert.ok(location.includes(`127.0.0.1:${avatarPort}`), 'the documented block names the default avatar address');
  const port = await freePort();
  const dir = join(scratch, 'nginx');
  await mkdir(dir);
  // Run as root (CI), nginx's workers would drop to "nobody" and could not use this private folder.
  const user = process.getuid?.() === 0 ? 'user root;\n' : '';
  await writeFile(
    join(dir, 'nginx.conf'),
    `${user}worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy_temp;
  fastcgi_temp_path ${dir}/fastcgi_temp;
  uwsgi_temp_path ${dir}/uwsgi_temp;
  scgi_temp_path ${dir}/scgi_temp;
  server {
    listen 127.0.0.1:${port};
    # The site's own pages.
    location / { return 200 "the site\\n"; }
${location}
  }
}
`,
  );
  nginx = spawn(NGINX!, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  nginx.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<never>((_r, fail) =>
    nginx!.once('exit', (code) => fail(new Error(`nginx exited ${code}: ${err}`))),
  );
  await Promise.race([waitForPort(port, 10_000), exited]);
  base = `http://127.0.0.1:${port}`;
});

after(async () => {
  if (nginx && nginx.exitCode === null) {
    const gone = new Promise((r) => nginx!.once('exit', r));
    nginx.kill('SIGTERM');
    await gone;
  }
  await svc?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

async function bytes(url: string): Promise<{ status: number; type: string | null; body: Buffer }> {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
}

test('through the documented nginx location, /habbo-imaging/ URLs get the /avatar.png answers', { skip }, async () => {
  const cases: [string, string, string][] = [
    [
      `/habbo-imaging/avatarimage?figure=${FIG}&direction=3&size=m`,
      `/avatar.png?figure=${FIG}&direction=3&size=m`,
      'image/png',
    ],
    [
      `/habbo-imaging/avatarimage?figure=${FIG}&action=wav&img_format=gif`,
      `/avatar.png?figure=${FIG}&action=wav&img_format=gif`,
      'image/gif',
    ],
    [
      `/habbo-imaging/avatarimage.gif?figure=${FIG}&action=wav`,
      `/avatar.png?figure=${FIG}&action=wav&img_format=gif`,
      'image/gif',
    ],
    [`/habbo-imaging/head.png?figure=${FIG}&size=s`, `/avatar.png?figure=${FIG}&size=s&headonly=1`, 'image/png'],
    // The old website's comma form, and the group badges the client's group_logo_url_template and old CMS
    // templates ask for (badge-fill; a Shockwave-era code with an X position).
    [
      `/habbo-imaging/avatar/${FIG},s-0.g-1.d-4.h-4.a-0,33c49f659a50a3d1b3505791a6f69334.gif`,
      `/avatar.png?figure=${FIG}&size=b&gesture=sml&direction=4&head_direction=4&img_format=gif`,
      'image/gif',
    ],
    // An effect's own sprites and a held item alone (vortex-imager's paths), with avatar parameters.
    ['/habbo-imaging/effect/1.png?size=m&crop=1', '/habbo-imaging/effect/1.png?size=m&crop=1', 'image/png'],
    ['/habbo-imaging/handitem/1.gif?drk=1&zoom=2', '/habbo-imaging/handitem/1.gif?drk=1&zoom=2', 'image/gif'],
    [
      `/habbo-imaging/avatarimage?figure=${FIG}&size=s&crop=1&bg=336699&zoom=3`,
      `/avatar.png?figure=${FIG}&size=s&crop=1&bg=336699&zoom=3`,
      'image/png',
    ],
    [
      '/habbo-imaging/badge-fill/b03034s04094s02110s03118.gif',
      '/habbo-imaging/badge-fill/b03034s04094s02110s03118.gif',
      'image/gif',
    ],
    [
      '/habbo-imaging/badge/b0503Xs09114s05013s05015.png',
      '/habbo-imaging/badge/b0503Xs09114s05013s05015.png',
      'image/png',
    ],
    // Furni on demand, as Havana's CMS templates (Chroma's query) and vortex-imager's callers ask for it.
    [
      '/habbo-imaging/furni?sprite=kit_table_sd&direction=2&icon=1&canvas=transparent',
      '/habbo-imaging/furni?sprite=kit_table_sd&direction=2&icon=1&canvas=transparent',
      'image/png',
    ],
    ['/habbo-imaging/furniture/kit_table_sd.png', '/habbo-imaging/furniture?class=kit_table_sd', 'image/png'],
  ];
  for (const [page, ours, type] of cases) {
    const proxied = await bytes(base + page);
    const direct = await bytes(svc!.url + ours);
    assert.equal(proxied.status, 200, page);
    assert.equal(proxied.type, type, page);
    assert.ok(proxied.body.equals(direct.body), `${page} through nginx: not the bytes of ${ours}`);
  }
  // A figure this hotel cannot draw: the fallback redirect passes through unchanged.
  const failed = await fetch(base + '/habbo-imaging/avatarimage?figure=hd-99999999-1.ch-210-66', {
    redirect: 'manual',
  });
  assert.equal(failed.status, 302);
  assert.equal(failed.headers.get('x-imager-fallback'), 'render-failed');
  // The rest of the site is still the site.
  const page = await bytes(base + '/index.php?page=home');
  assert.equal(page.body.toString(), 'the site\n');
});
