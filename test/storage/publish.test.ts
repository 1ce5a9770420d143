// `hotel-imager publish` against a real S3-compatible server (s3rver on loopback) through the real SDK:
// what lands in the bucket, what is uploaded again, what is removed and when, and interrupted publishes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { publishCorpus, PublishError, type PublishOptions } from '../../src/storage/publish.js';
import { createS3Client } from '../../src/storage/s3-client.js';
import { startTestBucket, type TestBucket } from '../helpers/s3-bucket.js';
import { corpusJson, fakePng, sha256, writeCorpusFixture } from '../server/furni/fixture.js';
import { rawRequest, tempDir, withTestServer } from '../server/furni/http-helpers.js';

let b: TestBucket;
let tmp: { dir: string; cleanup: () => Promise<void> };
let client: S3Client;
let n = 0;
/** A fresh prefix (and local folder) per test: tests share one store. */
const fresh = () => {
  n++;
  return { prefix: `t${n}`, dir: join(tmp.dir, `c${n}`) };
};

before(async () => {
  b = await startTestBucket();
  tmp = await tempDir('publish-');
  client = createS3Client(b.settings);
});
after(async () => {
  client.destroy();
  await b.close();
  await tmp.cleanup();
});

const publish = (dir: string, prefix: string, extra: Partial<PublishOptions> = {}) =>
  publishCorpus({ corpus: dir, to: b.url(prefix), s3: b.settings, ...extra });

async function getText(key: string): Promise<string> {
  const res = await client.send(new GetObjectCommand({ Bucket: b.bucket, Key: key }));
  return res.Body!.transformToString();
}

async function listKeys(prefix: string): Promise<string[]> {
  const res = await client.send(new ListObjectsV2Command({ Bucket: b.bucket, Prefix: prefix }));
  return (res.Contents ?? []).map((o) => o.Key!).sort();
}

const v1 = (): Record<string, Buffer> => ({
  'furni-renders/chair.png': fakePng(1, 700),
  'furni-renders/lamp*4.png': fakePng(2, 900),
  'catalog-thumbs/chair.png': fakePng(3, 120),
  'hof_furni/7/chair.bundle': fakePng(4, 5000),
  // Same bytes under two names: one object.
  'catalog-thumbs/lamp.png': fakePng(3, 120),
});

test('publish uploads each distinct content once, with type, immutable caching and checksum, then corpus.json', async () => {
  const { prefix, dir } = fresh();
  const files = v1();
  await writeCorpusFixture(dir, files);
  const from = b.seen.length;
  const s = await publish(dir, prefix);
  assert.equal(s.files, 5);
  assert.equal(s.objects, 4);
  assert.equal(s.uploaded, 4);
  assert.equal(s.corpusJsonWritten, true);
  // Only what the corpus needs: the objects, then the retention copy, then corpus.json (last).
  const puts = b.puts(`${prefix}/`, from);
  assert.equal(puts.length, 6);
  assert.deepEqual(puts.slice(-1), [`${prefix}/corpus.json`]);
  assert.match(puts.at(-2)!, new RegExp(`^${prefix}/manifests/\\d{4}-.*\\.json$`));
  assert.equal(await getText(`${prefix}/corpus.json`), corpusJson(files));
  for (const [path, bytes] of Object.entries(files)) {
    const key = `${prefix}/objects/${sha256(bytes)}`;
    const head = await client.send(new HeadObjectCommand({ Bucket: b.bucket, Key: key }));
    assert.equal(head.ContentType, path.endsWith('.png') ? 'image/png' : 'application/octet-stream', path);
    assert.equal(head.CacheControl, 'public, max-age=31536000, immutable');
    assert.equal(head.Metadata?.sha256, sha256(bytes));
    assert.equal(head.ContentLength, bytes.length);
  }
  // The SHA-256 checksum goes with each upload (a real S3 verifies it and refuses damaged bytes).
  for (const r of b.seen.slice(from).filter((x) => x.method === 'PUT')) {
    const sha = r.key.includes('/objects/')
      ? r.key.slice(r.key.lastIndexOf('/') + 1)
      : sha256(Buffer.from(corpusJson(files)));
    assert.equal(r.checksumSha256, Buffer.from(sha, 'hex').toString('base64'), r.key);
  }
});

test('incremental: only changed contents are uploaded; a removed file stays for one more publish; an identical rerun writes nothing', async () => {
  const { prefix, dir } = fresh();
  const files = v1();
  await writeCorpusFixture(dir, files);
  await publish(dir, prefix, { graceMs: 0 });
  const oldChair = sha256(files['furni-renders/chair.png']!);
  const oldLamp = sha256(files['furni-renders/lamp*4.png']!);

  // v2: chair changes, lamp is removed, sofa is new.
  const v2 = { ...files, 'furni-renders/chair.png': fakePng(11, 710), 'furni-renders/sofa.png': fakePng(12, 300) };
  delete (v2 as Record<string, Buffer>)['furni-renders/lamp*4.png'];
  await writeCorpusFixture(dir, v2);
  let from = b.seen.length;
  // Half the stills go (lamp): past the shrink guard's limit, so on purpose.
  const s2 = await publish(dir, prefix, { graceMs: 0, allowShrink: true });
  assert.deepEqual(
    b.puts(`${prefix}/objects/`, from).sort(),
    [sha256(v2['furni-renders/chair.png']), sha256(v2['furni-renders/sofa.png'])]
      .map((h) => `${prefix}/objects/${h}`)
      .sort(),
  );
  assert.equal(s2.uploaded, 2);
  assert.equal(s2.unchanged, 2);
  // The previous corpus.json's objects stay: a reader that loaded it may not have polled yet.
  const objects = await listKeys(`${prefix}/objects/`);
  assert.ok(objects.includes(`${prefix}/objects/${oldChair}`));
  assert.ok(objects.includes(`${prefix}/objects/${oldLamp}`));
  assert.equal(s2.deletedObjects, 0);

  // An identical rerun: no upload, corpus.json not rewritten.
  from = b.seen.length;
  const same = await publish(dir, prefix, { graceMs: 0 });
  assert.deepEqual(b.puts(`${prefix}/`, from), []);
  assert.equal(same.corpusJsonWritten, false);
  assert.equal(same.uploaded, 0);

  // v3 (one more change): v1's objects are now two publishes old and past the grace period → removed.
  const v3 = { ...v2, 'catalog-thumbs/chair.png': fakePng(13, 130) };
  await writeCorpusFixture(dir, v3);
  const s3 = await publish(dir, prefix, { graceMs: 0 });
  const after3 = await listKeys(`${prefix}/objects/`);
  assert.ok(!after3.includes(`${prefix}/objects/${oldChair}`));
  assert.ok(!after3.includes(`${prefix}/objects/${oldLamp}`));
  assert.equal(s3.deletedObjects, 2);
  // Everything v2 and v3 list is there.
  for (const bytes of [...Object.values(v2), ...Object.values(v3)])
    assert.ok(after3.includes(`${prefix}/objects/${sha256(bytes)}`));
  assert.equal(
    (await listKeys(`${prefix}/manifests/`)).length,
    2,
    'the v1 copy of corpus.json is gone, v2 and v3 kept',
  );
});

test('within the grace period a replaced corpus.json keeps its objects, however many publishes follow', async () => {
  const { prefix, dir } = fresh();
  const a = { 'furni-renders/a.png': fakePng(21, 100) };
  await writeCorpusFixture(dir, a);
  await publish(dir, prefix);
  for (let i = 0; i < 3; i++) {
    await writeCorpusFixture(dir, { 'furni-renders/a.png': fakePng(22 + i, 100) });
    await publish(dir, prefix, { keepPrevious: 0 });
  }
  assert.ok((await listKeys(`${prefix}/objects/`)).includes(`${prefix}/objects/${sha256(a['furni-renders/a.png'])}`));
  // Past it (the clock moved on by more than the grace period), only the objects of the new corpus.json and
  // of the one it just replaced (current until this moment) remain.
  await writeCorpusFixture(dir, { 'furni-renders/a.png': fakePng(30, 100) });
  const later = await publish(dir, prefix, { keepPrevious: 0, now: () => new Date(Date.now() + 2 * 3_600_000) });
  assert.deepEqual(
    await listKeys(`${prefix}/objects/`),
    [fakePng(24, 100), fakePng(30, 100)].map((x) => `${prefix}/objects/${sha256(x)}`).sort(),
  );
  assert.equal(later.deletedObjects, 3);
  assert.equal((await listKeys(`${prefix}/manifests/`)).length, 2);
});

test('a publish aborted after some uploads leaves the served corpus whole; the next one uploads only the rest', async () => {
  const { prefix, dir } = fresh();
  const old: Record<string, Buffer> = {};
  for (let i = 0; i < 10; i++) old[`furni-renders/item${i}.png`] = fakePng(100 + i, 400);
  await writeCorpusFixture(dir, old);
  await publish(dir, prefix);
  const next: Record<string, Buffer> = {};
  for (let i = 0; i < 30; i++) next[`furni-renders/item${i}.png`] = fakePng(200 + i, 450);
  await writeCorpusFixture(dir, next);

  await withTestServer({ corpus: b.url(prefix), s3: b.settings, memoryBudget: 0, checkIntervalMs: 20 }, async (srv) => {
    const abort = new AbortController();
    await assert.rejects(
      publish(dir, prefix, {
        concurrency: 2,
        signal: abort.signal,
        onProgress: (p) => p.done >= 7 && abort.abort(new Error('stop here')),
      }),
      /stop here/,
    );
    const uploaded = b.puts(`${prefix}/objects/`).length - 10;
    assert.ok(uploaded >= 7 && uploaded < 30, `uploaded ${uploaded}`);
    assert.equal(await getText(`${prefix}/corpus.json`), corpusJson(old), 'corpus.json untouched');
    // The service still serves the old corpus, every file with its own bytes.
    for (const [path, bytes] of Object.entries(old)) {
      const res = await rawRequest(srv.port, 'GET', `/${path}`);
      assert.equal(res.status, 200, path);
      assert.deepEqual(res.body, bytes, path);
    }
    const from = b.seen.length;
    const s = await publish(dir, prefix);
    assert.equal(s.resumed, uploaded);
    assert.equal(s.uploaded, 30 - uploaded);
    assert.equal(b.puts(`${prefix}/objects/`, from).length, 30 - uploaded);
    // Picked up live.
    const until = Date.now() + 5000;
    while ((await rawRequest(srv.port, 'GET', '/furni-renders/item29.png')).status !== 200 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
    for (const [path, bytes] of Object.entries(next))
      assert.deepEqual((await rawRequest(srv.port, 'GET', `/${path}`)).body, bytes, path);
  });
});

test('`hotel-imager publish` killed midway (SIGKILL): corpus.json is the old one or the new one, and a rerun resumes', async () => {
  const { prefix, dir } = fresh();
  const old = { 'furni-renders/x.png': fakePng(300, 300) };
  await writeCorpusFixture(dir, old);
  await publish(dir, prefix);
  // x stays: a corpus that lost its only still would be stopped by the shrink guard.
  const next: Record<string, Buffer> = { ...old };
  for (let i = 0; i < 60; i++) next[`furni-renders/n${i}.png`] = fakePng(400 + i, 256);
  await writeCorpusFixture(dir, next);
  const from = b.seen.length;
  b.delayMs = 15; // slow enough that the kill lands mid-way
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli/main.ts',
      'publish',
      '--corpus',
      dir,
      '--to',
      b.url(prefix),
      '--s3-endpoint',
      b.endpoint,
      '--s3-force-path-style',
      '--concurrency',
      '2',
    ],
    {
      env: { ...process.env, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  try {
    const until = Date.now() + 60_000;
    while (b.puts(`${prefix}/objects/`, from).length < 10 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 5));
    child.kill('SIGKILL');
    await exited;
  } finally {
    b.delayMs = 0;
  }
  const uploaded = b.puts(`${prefix}/objects/`, from).length;
  assert.ok(uploaded >= 10, `${uploaded} uploads before the kill; stderr: ${stderr}`);
  assert.ok(uploaded < 60, 'killed before the end');
  assert.equal(await getText(`${prefix}/corpus.json`), corpusJson(old));
  await new Promise((r) => setTimeout(r, 100)); // requests in flight at the kill have landed
  const s = await publish(dir, prefix);
  assert.ok(s.resumed >= 9, `resumed ${s.resumed}`);
  assert.equal(s.resumed + s.uploaded, 60);
  assert.equal(await getText(`${prefix}/corpus.json`), corpusJson(next));
});

test('a file that does not match corpus.json (a build running) stops the publish before corpus.json', async () => {
  const { prefix, dir } = fresh();
  await writeCorpusFixture(dir, { 'furni-renders/a.png': fakePng(1, 100), 'furni-renders/b.png': fakePng(2, 100) });
  await writeFile(join(dir, 'furni-renders', 'b.png'), fakePng(3, 100));
  await assert.rejects(
    publish(dir, prefix),
    (e: unknown) => e instanceof PublishError && /b\.png: the file does not match corpus\.json/.test(e.message),
  );
  assert.deepEqual(await listKeys(`${prefix}/corpus.json`), []);
  await assert.rejects(
    publish(join(dir, 'nope'), prefix),
    /^PublishError: no corpus\.json in .*nope \(--corpus\): build the corpus there first \(hotel-imager build --out .*nope\), or check the path$/,
  );
  await assert.rejects(publish(dir, prefix, { to: 'http://x/y' }), /not an s3:\/\/ address/);
});

test('a publish that would take more than 10 % of the stills from the bucket stops before any upload; --allow-shrink lets it through', async () => {
  const { prefix, dir } = fresh();
  const full: Record<string, Buffer> = { 'catalog-thumbs/item0.png': fakePng(99, 120) };
  for (let i = 0; i < 20; i++) full[`furni-renders/item${i}.png`] = fakePng(100 + i, 200);
  // A pre-rendered variant is not a still of its own: losing it counts for nothing.
  full['furni-renders/item0__s32.png'] = fakePng(98, 90);
  await writeCorpusFixture(dir, full);
  await publish(dir, prefix);
  // 2 of 20 (10 %) may go.
  const fewer = { ...full };
  for (const i of [18, 19]) delete fewer[`furni-renders/item${i}.png`];
  delete fewer['furni-renders/item0__s32.png'];
  await writeCorpusFixture(dir, fewer);
  await publish(dir, prefix);
  assert.equal(await getText(`${prefix}/corpus.json`), corpusJson(fewer));

  // 3 of the 18 left (a build that stopped part way): stopped, the bucket untouched.
  const part = { ...fewer };
  for (const i of [0, 1, 2]) delete part[`furni-renders/item${i}.png`];
  await writeCorpusFixture(dir, part);
  const keys = await listKeys(`${prefix}/`);
  const from = b.seen.length;
  const expected =
    /^ShrinkError: publish stopped, nothing in s3:\/\/furni-test\/t\d+\/ was changed: it would unpublish 3 of the 18 published furni stills \(16\.7 %, more than the 10 % a run may remove\); for example item0, item1, item2\. Is .+ the whole corpus \(a build that stopped part way, another folder\)\? If these items were removed on purpose, publish with --allow-shrink \(HOTEL_IMAGER_PUBLISH_ALLOW_SHRINK=1\)\.$/;
  await assert.rejects(publish(dir, prefix), expected);
  assert.deepEqual(b.puts(`${prefix}/`, from), []);
  assert.deepEqual(
    b.seen.slice(from).filter((r) => r.method === 'DELETE' || r.method === 'POST'),
    [],
  );
  assert.deepEqual(await listKeys(`${prefix}/`), keys);
  assert.equal(await getText(`${prefix}/corpus.json`), corpusJson(fewer));

  // The command: exit 1 with the same sentence; with --allow-shrink the smaller corpus is published.
  // Spawned, not spawnSync: the store runs in this process and must keep answering.
  const cli = (extra: string[]) =>
    new Promise<{ status: number | null; stderr: string }>((done) => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'src/cli/main.ts',
          'publish',
          '--corpus',
          dir,
          '--to',
          b.url(prefix),
          '--s3-endpoint',
          b.endpoint,
          '--s3-force-path-style',
          ...extra,
        ],
        {
          env: {
            ...process.env,
            AWS_ACCESS_KEY_ID: 'S3RVER',
            AWS_SECRET_ACCESS_KEY: 'S3RVER',
            AWS_REGION: 'us-east-1',
          },
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.on('exit', (status) => done({ status, stderr }));
    });
  const stopped = await cli([]);
  assert.equal(stopped.status, 1);
  assert.match(
    stopped.stderr,
    /^publish stopped, nothing in s3:\/\/furni-test\/t\d+\/ was changed: it would unpublish 3 of the 18 /m,
  );
  assert.equal(await getText(`${prefix}/corpus.json`), corpusJson(fewer));
  const allowed = await cli(['--allow-shrink']);
  assert.equal(allowed.status, 0, allowed.stderr);
  assert.equal(await getText(`${prefix}/corpus.json`), corpusJson(part));
});

test('an object over the multipart threshold goes up in parts (lib-storage) and comes back whole', async () => {
  const { prefix, dir } = fresh();
  const big = fakePng(9, 9 * 1024 * 1024 + 123);
  await writeCorpusFixture(dir, { 'hof_furni/1/big.bundle': big });
  const from = b.seen.length;
  await publish(dir, prefix);
  assert.ok(
    b.seen.slice(from).some((r) => r.method === 'PUT' && r.query.includes('uploadId')),
    'multipart parts were sent',
  );
  await withTestServer({ corpus: b.url(prefix), s3: b.settings, memoryBudget: 0 }, async (srv) => {
    const res = await rawRequest(srv.port, 'GET', '/hof_furni/1/big.bundle');
    assert.equal(res.status, 200);
    assert.ok(res.body.equals(big));
  });
});
