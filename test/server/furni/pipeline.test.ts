// End to end: the real build pipeline writes the sample kit's corpus, and both the service started in
// process and the `serve furni` command serve every listed file byte for byte, from the folder and from
// a bucket it was published to with `hotel-imager publish`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256Hex } from '../../../src/util/hash.js';
import { startTestBucket } from '../../helpers/s3-bucket.js';
import { builtKitCorpus, rawRequest, withTestServer } from './http-helpers.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
let tmp: { dir: string; cleanup: () => Promise<void> };
let corpus: string;
let listed: Record<string, { size: number; sha256: string }>;

before(async () => {
  ({ tmp, corpus, listed } = await builtKitCorpus('furni-pipeline-'));
});
after(() => tmp.cleanup());

function urlOf(key: string): string {
  return '/' + key.split('/').map(encodeURIComponent).join('/');
}

async function assertServesEveryFile(port: number): Promise<void> {
  const keys = Object.keys(listed).filter((k) => k !== 'build-report.json');
  assert.ok(
    keys.some((k) => k.startsWith('furni-renders/') && k.includes('*')),
    'the kit has colour variants',
  );
  assert.ok(
    keys.some((k) => k.startsWith('hof_furni/')),
    'the kit has bundles',
  );
  for (const key of keys) {
    const res = await rawRequest(port, 'GET', urlOf(key));
    assert.equal(res.status, 200, key);
    assert.equal(res.body.length, listed[key]!.size, key);
    assert.equal(sha256Hex(res.body), listed[key]!.sha256, key);
    assert.equal(res.headers.etag, `"${listed[key]!.sha256}"`, key);
    assert.equal(res.headers['content-type'], key.endsWith('.bundle') ? 'application/octet-stream' : 'image/png', key);
    if (key.endsWith('.png')) assert.deepEqual([...res.body.subarray(1, 4)], [0x50, 0x4e, 0x47], `${key} is a PNG`);
  }
  const health = JSON.parse((await rawRequest(port, 'GET', '/healthz')).body.toString());
  assert.equal(health.status, 'ok');
  assert.equal(health.checks.storage.corpus.files, keys.length);
}

test('every file the pipeline lists is served with its bytes, type and ETag', async () => {
  await withTestServer({ corpus, memoryBudget: 1 << 20 }, (srv) => assertServesEveryFile(srv.port));
});

test('`hotel-imager publish` to a bucket, then `serve furni --corpus s3://…` (S3 settings from the environment) serves every file', async () => {
  const bucket = await startTestBucket();
  const env = { ...process.env, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };
  const target = bucket.url('hotel/furni');
  try {
    const pub = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(repo, 'src/cli/main.ts'),
        'publish',
        '--corpus',
        corpus,
        '--to',
        target,
        '--s3-endpoint',
        bucket.endpoint,
        '--s3-force-path-style',
      ],
      {
        cwd: repo,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    pub.stdout.on('data', (d: Buffer) => (out += d.toString()));
    pub.stderr.on('data', (d: Buffer) => (out += d.toString()));
    assert.equal(await new Promise<number | null>((r) => pub.on('exit', (code) => r(code))), 0, out);
    assert.match(out, /uploaded \d+ .*0 unchanged/);
    assert.match(out, /corpus\.json replaced/);
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(repo, 'src/cli/main.ts'),
        'serve',
        'furni',
        '--corpus',
        target,
        '--port',
        '0',
        '--host',
        '127.0.0.1',
      ],
      {
        cwd: repo,
        env: { ...env, HOTEL_IMAGER_S3_ENDPOINT: bucket.endpoint, HOTEL_IMAGER_S3_FORCE_PATH_STYLE: 'true' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      let log = '';
      child.stderr.on('data', (d: Buffer) => (log += d.toString()));
      const port = await new Promise<number>((resolvePort, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listening line: ${log}`)), 20000);
        child.stdout.on('data', (d: Buffer) => {
          log += d.toString();
          const m = /furni service listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log);
          if (m) {
            clearTimeout(timer);
            resolvePort(Number(m[1]));
          }
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${log}`)));
      });
      await assertServesEveryFile(port);
      const health = JSON.parse((await rawRequest(port, 'GET', '/healthz')).body.toString());
      assert.equal(health.checks.storage.backend, 's3');
      assert.equal(health.checks.storage.endpoint, bucket.endpoint);
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  } finally {
    await bucket.close();
  }
});

test('`hotel-imager serve furni` serves the corpus and stops cleanly on SIGTERM', async () => {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(repo, 'src/cli/main.ts'),
      'serve',
      'furni',
      '--corpus',
      corpus,
      '--port',
      '0',
      '--host',
      '127.0.0.1',
    ],
    {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  try {
    let out = '';
    const port = await new Promise<number>((resolvePort, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 20000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /furni service listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolvePort(Number(m[1]));
        }
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    const key = Object.keys(listed).find((k) => k.startsWith('furni-renders/'))!;
    const res = await rawRequest(port, 'GET', urlOf(key));
    assert.equal(res.status, 200);
    assert.equal(res.headers.etag, `"${listed[key]!.sha256}"`);
    const version = JSON.parse((await rawRequest(port, 'GET', '/version')).body.toString());
    assert.match(version.commit, /^([0-9a-f]{40}|unknown)$/);
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
    // The request line made it to stdout before exit.
    assert.ok(
      out.split('\n').some((l) => l.includes('"msg":"request"') && l.includes('"status":200')),
      out,
    );
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});
