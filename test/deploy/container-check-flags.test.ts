// scripts/container-check.mjs takes the ports it publishes on as flags, and refuses bad ones before it
// builds anything (podman need not be installed for these: they are checked first).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

const script = join(resolve(import.meta.dirname, '../..'), 'scripts/container-check.mjs');
const run = (...args: string[]) =>
  spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', timeout: 30_000 });

test('--help lists the port flags with their defaults and exits 0', () => {
  const r = run('--help');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^usage: node scripts\/container-check\.mjs \[options\]/);
  assert.match(
    r.stdout,
    /--furni-port N {7}the single container's furni service on 127\.0\.0\.1:N \(default: a free port\)/,
  );
  assert.match(
    r.stdout,
    /--avatar-port N {6}the single container's avatar service on 127\.0\.0\.1:N \(default: a free port\)/,
  );
  assert.match(r.stdout, /--http-port N {8}the compose stack's nginx on 127\.0\.0\.1:N \(default: a free port\)/);
});

test('a bad port, a port given twice, an unknown flag: exit 2 naming the flag', () => {
  const cases: [string[], RegExp][] = [
    [['--furni-port', '0'], /^container-check: --furni-port must be a port number 1-65535, got "0"\n/],
    [['--avatar-port', '70000'], /^container-check: --avatar-port must be a port number 1-65535, got "70000"\n/],
    [['--http-port', 'eighty'], /^container-check: --http-port must be a port number 1-65535, got "eighty"\n/],
    [
      ['--furni-port', '18080', '--http-port', '18080'],
      /^container-check: the same port is given twice: 18080, 18080\n/,
    ],
    [['--port', '8080'], /^container-check: Unknown option '--port'/],
    [['--node-image', 'x', '--fresh-base'], /^container-check: --node-image and --fresh-base do not go together/],
  ];
  for (const [args, message] of cases) {
    const r = run(...args);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, message, args.join(' '));
    assert.match(r.stderr, /--help lists the flags/);
  }
});

test('a port given that is in use: exit 1 before anything is built', async () => {
  const busy = createServer();
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
  const { port } = busy.address() as { port: number };
  try {
    const r = await new Promise<{ status: number | null; out: string }>((done) => {
      // Asynchronous: the port's listener must keep answering while the script probes it.
      const child = spawnAsync(['--http-port', String(port)]);
      let out = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.on('exit', (status) => done({ status, out }));
    });
    assert.equal(r.status, 1);
    assert.equal(
      r.out,
      `container-check: --http-port ${port}: 127.0.0.1:${port} is in use; pick another port or leave the flag out for a free one\n`,
    );
  } finally {
    await new Promise((r) => busy.close(r));
  }
});

function spawnAsync(args: string[]) {
  return spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}
