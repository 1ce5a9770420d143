// The package as a user gets it: `npm pack` of a clean copy of the sources (prepack builds dist/), its
// file list (what runs, nothing else), installed into an empty folder with npm (dependencies from the
// npm cache, else the registry), then `hotel-imager --version`, `hotel-imager sample-kit` and
// `hotel-imager serve avatar` from the installed bin, and the library API imported from plain
// JavaScript and from TypeScript (`tsc --noEmit` on a consumer file: the declarations resolve).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const run = promisify(execFile);
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FIG = 'hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

let scratch = '';
let pack: PackResult;
let consumer = '';
let version = '';
let installLog = '';
const bin = () => join(consumer, 'node_modules', '.bin', 'hotel-imager');

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'package-'));
  version = (JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as { version: string }).version;
  // A copy of what a release is made from, so the test neither reads nor replaces the checkout's dist/.
  const source = join(scratch, 'source');
  await mkdir(source);
  for (const entry of [
    'src',
    'scripts',
    'player',
    'docs',
    'package.json',
    'tsconfig.json',
    'tsconfig.build.json',
    'README.md',
    'LICENSE',
  ]) {
    await cp(join(repo, entry), join(source, entry), { recursive: true });
  }
  await symlink(join(repo, 'node_modules'), join(source, 'node_modules'), 'dir');
  const packed = await run('npm', ['pack', '--json', '--pack-destination', scratch], {
    cwd: source,
    maxBuffer: 64 * 1024 * 1024,
  });
  pack = (JSON.parse(packed.stdout) as PackResult[])[0]!;
  consumer = join(scratch, 'consumer');
  await mkdir(consumer);
  await writeFile(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const typesNode = (
    JSON.parse(await readFile(join(repo, 'node_modules/@types/node/package.json'), 'utf8')) as { version: string }
  ).version;
  const installed = await run(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      join(scratch, pack.filename),
      `@types/node@${typesNode}`,
    ],
    {
      cwd: consumer,
      maxBuffer: 64 * 1024 * 1024,
      timeout: 600_000,
    },
  );
  installLog = installed.stdout + installed.stderr;
});

after(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

test('npm pack: what runs (dist/, the player page), the docs the README links and the licence, with the bin, the entry point and its declarations', async () => {
  const paths = pack.files.map((f) => f.path);
  for (const p of paths) {
    assert.ok(
      /^(dist\/|player\/|docs\/[\w.-]+\.md$)/.test(p) || ['package.json', 'README.md', 'LICENSE'].includes(p),
      `unexpected file in the package: ${p}`,
    );
    assert.ok(!p.endsWith('.ts') || p.endsWith('.d.ts'), `TypeScript source in the package: ${p}`);
    assert.ok(!p.endsWith('.map'), `source map without its source: ${p}`);
  }
  for (const p of [
    'dist/cli/main.js',
    'dist/index.js',
    'dist/index.d.ts',
    'dist/build-info.json',
    'dist/core/render/render-worker.js',
    'dist/corpus/worker.js',
    'player/index.html',
    'LICENSE',
  ]) {
    assert.ok(paths.includes(p), `${p} is packed`);
  }
  assert.match(await readFile(join(consumer, 'node_modules/hotel-imager/LICENSE'), 'utf8'), /^MIT License\n/);
  // Every docs/ page the README names is in the package.
  const linked = new Set((await readFile(join(repo, 'README.md'), 'utf8')).match(/docs\/[\w.-]+\.md/g));
  assert.ok(linked.size >= 10, `${linked.size} docs linked`);
  for (const doc of linked) assert.ok(paths.includes(doc), `${doc} (linked from the README) is packed`);
  assert.ok(pack.size < 1024 * 1024, `packed size ${pack.size}`);
});

test('installing the package warns of nothing: no engine mismatch, no install script to approve', () => {
  const warnings = installLog.split('\n').filter((l) => /^npm warn/i.test(l));
  assert.deepEqual(warnings, [], installLog);
  assert.ok(!/EBADENGINE|install-scripts|cbor-extract/.test(installLog), installLog);
});

test('the installed bin: --version, sample-kit, and serve avatar answering the classic imager path', async () => {
  const v = await run(bin(), ['--version']);
  assert.equal(v.stdout.trim(), version);
  const kit = join(scratch, 'kit');
  await run(bin(), ['sample-kit', '--out', kit]);
  const child = spawn(
    bin(),
    ['serve', 'avatar', '--assets', kit, '--host', '127.0.0.1', '--port', '0', '--jobs', '1'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  try {
    const url = await new Promise<string>((found, fail) => {
      const timer = setTimeout(() => fail(new Error(`no listening line after 60 s:\n${out}`)), 60_000);
      const poll = setInterval(() => {
        const m = /avatar service listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) {
          clearInterval(poll);
          clearTimeout(timer);
          found(m[1]!);
        }
      }, 50);
      child.once('exit', (code) => {
        clearInterval(poll);
        clearTimeout(timer);
        fail(new Error(`serve avatar exited ${code}:\n${out}`));
      });
    });
    for (const path of [
      `/habbo-imaging/avatarimage?figure=${FIG}&size=m`,
      `/avatar.png?figure=${FIG}&action=wav&animated=1`,
    ]) {
      const res = await fetch(url + path);
      const body = Buffer.from(await res.arrayBuffer());
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('content-type'), 'image/png');
      assert.ok(body.subarray(0, 4).equals(PNG), path);
    }
    const health = (await (await fetch(`${url}/healthz`)).json()) as { version: string; status: string };
    assert.equal(health.version, version);
    assert.equal(health.status, 'ok');
  } finally {
    const exited = new Promise<number | null>((r) =>
      child.exitCode !== null ? r(child.exitCode) : child.once('exit', (c) => r(c)),
    );
    child.kill('SIGTERM');
    assert.equal(await exited, 0, `serve avatar stops cleanly on SIGTERM:\n${out}`);
  }
});

test('npx hotel-imager serve furni: killing npx (SIGTERM or SIGKILL) stops the server it started', async () => {
  const corpus = join(scratch, 'empty-corpus');
  await mkdir(corpus, { recursive: true });
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    const npx = spawn(
      'npx',
      ['hotel-imager', 'serve', 'furni', '--corpus', corpus, '--host', '127.0.0.1', '--port', '0'],
      { cwd: consumer, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    npx.stdout.on('data', (d: Buffer) => (out += d.toString()));
    npx.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const until = Date.now() + 60_000;
    let server = 0;
    while (server === 0 && Date.now() < until && npx.exitCode === null) {
      const line = out.split('\n').find((l) => l.includes('furni service listening on'));
      if (line) server = (JSON.parse(line) as { pid: number }).pid;
      else await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(server > 0 && server !== npx.pid, `the server's own pid from its log:\n${out}`);
    const alive = () => {
      try {
        process.kill(server, 0);
        return true;
      } catch {
        return false;
      }
    };
    npx.kill(signal);
    const gone = Date.now() + 10_000;
    while (alive() && Date.now() < gone) await new Promise((r) => setTimeout(r, 100));
    const left = alive();
    if (left) process.kill(server, 'SIGKILL');
    assert.equal(left, false, `npx ended by ${signal}: the server (pid ${server}) still runs:\n${out}`);
  }
});

test('the library API from plain JavaScript', async () => {
  const kit = join(scratch, 'kit');
  await writeFile(
    join(consumer, 'use.mjs'),
    `import { openAvatarImager, readNitro, version } from 'hotel-imager';
import { readFile, readdir } from 'node:fs/promises';
const imager = await openAvatarImager(${JSON.stringify(kit)});
const still = await imager.render({ figure: ${JSON.stringify(FIG)}, direction: 3, size: 'm' });
const gif = await imager.render('figure=${FIG}&action=wav&img_format=gif');
const dir = ${JSON.stringify(join(kit, 'bundled', 'furniture'))};
const first = (await readdir(dir)).find((n) => n.endsWith('.nitro'));
const files = readNitro(await readFile(dir + '/' + first));
console.log(JSON.stringify({ version, still: [still.type, still.frames, still.data.subarray(0, 4).toString('hex')], gif: [gif.type, gif.frames], nitroFiles: files.size }));
`,
  );
  const r = await run(process.execPath, ['use.mjs'], { cwd: consumer });
  const got = JSON.parse(r.stdout) as {
    version: string;
    still: [string, number, string];
    gif: [string, number];
    nitroFiles: number;
  };
  assert.equal(got.version, version);
  assert.deepEqual(got.still, ['image/png', 1, '89504e47']);
  assert.deepEqual(got.gif, ['image/gif', 2]);
  assert.ok(got.nitroFiles >= 2);
});

test('the library API from TypeScript: the declarations resolve and check a consumer', async () => {
  await writeFile(
    join(consumer, 'use.ts'),
    `import { buildCorpus, openAvatarImager, readBundle, readNitro, writeBundle, AvatarRenderError, type AvatarImage, type BuildCorpusResult } from 'hotel-imager';
const imager = await openAvatarImager('/srv/hotel', { libraryCacheBytes: 64 * 1024 * 1024 });
const image: AvatarImage = await imager.render({ figure: 'hd-180-1', size: 'm', img_format: 'gif' });
const type: 'image/png' | 'image/gif' = image.type;
// @ts-expect-error size is s, m, b or l
await imager.render({ figure: 'hd-180-1', size: 'xl' });
// @ts-expect-error a figure is required
await imager.render({ direction: 2 });
const built: BuildCorpusResult = await buildCorpus({ assets: '/srv/hotel', out: '/srv/corpus', jobs: 2, variants: 'animated' });
const renders: number = built.renders;
const files: Map<string, Buffer> = readNitro(new Uint8Array());
const bundle = await readBundle(new Uint8Array());
const classname: string = bundle.manifest.classname;
const again: Buffer = await writeBundle(bundle);
const err: Error = new AvatarRenderError('unknown-set', 'x');
export { type, renders, files, classname, again, err };
`,
  );
  await writeFile(
    join(consumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        types: ['node'],
        skipLibCheck: false,
      },
      files: ['use.ts'],
    }),
  );
  const tsc = join(repo, 'node_modules', '.bin', 'tsc');
  const checked = await run(tsc, ['-p', join(consumer, 'tsconfig.json')], { cwd: consumer }).catch(
    (e: { stdout: string; stderr: string }) => e,
  );
  assert.equal(
    checked.stdout + checked.stderr,
    '',
    'tsc --noEmit finds nothing wrong (and both @ts-expect-error lines are real errors)',
  );
});
