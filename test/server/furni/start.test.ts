// `hotel-imager start` (npm start) from nothing: writes the sample kit, builds its furni corpus and
// serves both services; the furni side answers a colour-variant render over a real socket.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rawRequest, tempDir } from './http-helpers.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

test('start builds what it needs on first run and serves furni and avatar services', async () => {
  const tmp = await tempDir('furni-start-');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(repo, 'src/cli/main.ts'),
      'start',
      '--furni-port',
      '0',
      '--avatar-port',
      '0',
      '--host',
      '127.0.0.1',
    ],
    {
      cwd: repo,
      env: { ...process.env, HOTEL_IMAGER_CACHE: tmp.dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  try {
    let out = '';
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const ports = await new Promise<{ furni: number; avatar: number }>((resolvePorts, reject) => {
      const timer = setTimeout(() => reject(new Error(`services did not come up: ${out}`)), 90_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const furni = /furni service listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
        const avatar = /avatar service listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
        if (furni && avatar) {
          clearTimeout(timer);
          resolvePorts({ furni: Number(furni[1]), avatar: Number(avatar[1]) });
        }
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    assert.match(out, /sample kit: .*\(written\)/);
    const health = await rawRequest(ports.furni, 'GET', '/healthz');
    assert.equal(health.status, 200, health.body.toString());
    const counts = JSON.parse(health.body.toString()).checks.storage.corpus.counts;
    assert.ok(counts.renders > 0 && counts.icons > 0 && counts.bundles > 0, JSON.stringify(counts));
    const listed = Object.keys(JSON.parse(readFileSync(join(tmp.dir, 'furni-corpus', 'corpus.json'), 'utf8')).files);
    const key = listed.find((k) => k.startsWith('furni-renders/') && k.includes('*'));
    assert.ok(key, 'the sample kit publishes a colour variant');
    const variant = await rawRequest(ports.furni, 'GET', '/' + key);
    assert.equal(variant.status, 200);
    assert.equal(variant.headers['content-type'], 'image/png');
    assert.equal((await rawRequest(ports.avatar, 'GET', '/healthz')).status, 200);
  } finally {
    const exited = new Promise((r) => child.on('exit', r));
    if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
    await tmp.cleanup();
  }
});
