// Node 20 is end-of-life: the AWS SDK warns on it when the S3 client is made (the start of `serve furni
// --corpus s3://…` and of `publish`) that its releases after the first week of January 2027 need Node
// 22. On 22 and 24 (which CI runs this suite on too) the start is silent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const major = Number(process.versions.node.split('.')[0]);

/** stderr of a fresh process that makes the S3 client the way both commands do. */
function startStderr(): string {
  const code =
    "import('./src/storage/s3-client.ts').then((m) => { m.createS3Client({ endpoint: 'http://127.0.0.1:9' }); })";
  const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', code], { cwd: repo, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stderr;
}

test('Node 22+: no warning when the S3 client is made', {
  skip: major < 22 ? `Node ${process.version}: see the next test` : false,
}, () => {
  assert.equal(startStderr(), '');
});

test('Node 20: the AWS SDK says it will need Node 22 (why the project moves on)', {
  skip: major >= 22 ? `Node ${process.version} is supported` : false,
}, () => {
  assert.match(startStderr(), /NodeVersionSupportWarning: .*AWS SDK[\s\S]*node >=22/);
});
