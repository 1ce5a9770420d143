// What a newcomer sees after `npm start`: a plain summary naming where each service is, whose URLs
// answer; and a port already held by another program gives an error that says how to move it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { type Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { startSummary } from '../../src/cli/start.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

type Child = ChildProcessByStdio<null, Readable, Readable>;

// One cache for the file: the first start writes the kit and corpus, the second reuses them.
let cache = '';
before(async () => {
  cache = await mkdtemp(join(tmpdir(), 'start-cli-'));
});
after(async () => {
  await rm(cache, { recursive: true, force: true });
});

function startCli(args: string[]): { child: Child; output: () => string } {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repo, 'src/cli/main.ts'), 'start', '--host', '127.0.0.1', ...args],
    {
      cwd: repo,
      env: { ...process.env, HOTEL_IMAGER_CACHE: cache, HOTEL_IMAGER_RENDER_WORKERS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return { child, output: () => out };
}

/** One GET on its own connection (no keep-alive socket outlives the test). */
function get(url: string): Promise<{ status: number; type: string }> {
  return new Promise((done, fail) => {
    httpGet(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => done({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? '') }));
    }).on('error', fail);
  });
}

/** SIGTERM, as Ctrl-C would; resolves to the exit code (null when it had to be killed). */
async function stop(child: Child): Promise<number | null> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = await Promise.race([
      exited,
      new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), 10_000))),
    ]);
    clearTimeout(timer);
    if (late === 'late') child.kill('SIGKILL');
  }
  child.stdout.destroy();
  child.stderr.destroy();
  return child.exitCode;
}

test('the summary names a browser address for every bind address, with the real ports', () => {
  const text = startSummary('0.0.0.0', 8080, 8081);
  assert.match(text, /furni service +http:\/\/localhost:8080\/furni-renders\/kit_sofa_colors\*3\.png/);
  assert.match(text, /avatar service +http:\/\/localhost:8081\/avatar\.png\?figure=hd-180-1\./);
  assert.match(startSummary('::', 1, 2), /http:\/\/localhost:1\//);
  assert.match(startSummary('::1', 1, 2), /http:\/\/\[::1\]:2\/avatar\.png/);
  assert.match(startSummary('10.0.0.5', 9080, 9081), /http:\/\/10\.0\.0\.5:9081\/render\?/);
});

test('npm start prints where both services are, and every URL it prints answers', async () => {
  const { child, output } = startCli(['--furni-port', '0', '--avatar-port', '0']);
  try {
    await new Promise<void>((ready, fail) => {
      const timer = setTimeout(() => fail(new Error(`no summary after 90 s:\n${output()}`)), 90_000);
      const poll = setInterval(() => {
        if (!output().includes('Ctrl-C stops both')) return;
        clearInterval(poll);
        clearTimeout(timer);
        ready();
      }, 50);
      child.once('exit', (code) => {
        clearInterval(poll);
        clearTimeout(timer);
        fail(new Error(`start exited ${code}:\n${output()}`));
      });
    });
    const all = output();
    const summary = all.slice(all.indexOf('hotel-imager is serving'), all.indexOf('Ctrl-C stops both'));
    const urls = [...summary.matchAll(/http:\/\/127\.0\.0\.1:\d+\/\S+/g)].map((m) => m[0]);
    assert.equal(urls.length, 6, summary);
    const expected: Record<string, string> = {
      '/furni-renders/': 'image/png',
      '/catalog-thumbs/': 'image/png',
      '/avatar.png': 'image/png',
      '/render': 'text/html',
      '/healthz': 'application/json',
    };
    for (const url of urls) {
      const res = await get(url);
      assert.equal(res.status, 200, url);
      const path = new URL(url).pathname;
      const type = Object.entries(expected).find(([p]) => path.startsWith(p))?.[1];
      assert.ok(type, `unexpected URL in the summary: ${url}`);
      assert.ok(res.type.startsWith(type), `${url}: ${res.type}`);
    }
    assert.equal(await stop(child), 0, 'SIGTERM stops both services cleanly');
  } finally {
    await stop(child);
  }
});

test('a furni port held by another program: exit 1 with the flag and variable that move it', async () => {
  const holder = createServer();
  await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
  const port = (holder.address() as { port: number }).port;
  const { child, output } = startCli(['--furni-port', String(port), '--avatar-port', '0']);
  try {
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    assert.equal(code, 1, output());
    assert.match(output(), new RegExp(`port ${port} \\(the furni service\\) is already in use`));
    assert.match(output(), /npm start -- --furni-port <n> \(or HOTEL_IMAGER_FURNI_PORT=<n>\)/);
  } finally {
    await stop(child);
    holder.close();
  }
});
