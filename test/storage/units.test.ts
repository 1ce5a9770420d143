// Pure parts of the bucket support: s3:// addresses, retention keys, flag parsing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from 'commander';
import { manifestKey, manifestPublishedAt, objectKey, objectSha256 } from '../../src/storage/bucket-layout.js';
import { formatS3Url, isS3Url, parseS3Url } from '../../src/storage/s3-settings.js';
import { duration } from '../../src/settings/values.js';
import { addOptions, readOptions } from '../../src/cli/options.js';
import { S3_OPTIONS, s3Settings, type S3Flags } from '../../src/cli/s3-options.js';

const parseDuration = duration('s');

test('s3:// addresses: bucket and a normalised prefix; anything else is refused by name', () => {
  assert.deepEqual(parseS3Url('s3://my-bucket'), { bucket: 'my-bucket', prefix: '' });
  assert.deepEqual(parseS3Url('s3://my-bucket/'), { bucket: 'my-bucket', prefix: '' });
  assert.deepEqual(parseS3Url('s3://my-bucket/hotel/furni/'), { bucket: 'my-bucket', prefix: 'hotel/furni/' });
  assert.equal(formatS3Url(parseS3Url('s3://b.example/a')), 's3://b.example/a/');
  assert.throws(() => parseS3Url('http://x/y'), /not an s3:\/\/ address/);
  assert.throws(() => parseS3Url('s3://Upper_Case/x'), /not a valid bucket name: Upper_Case/);
  assert.throws(() => parseS3Url('s3://bucket/a//b'), /empty, \. or \.\. segment/);
  assert.throws(() => parseS3Url('s3://bucket/a/../b'), /empty, \. or \.\. segment/);
  assert.equal(isS3Url('s3://b/x'), true);
  assert.equal(isS3Url('/srv/corpus'), false);
});

test('bucket keys: objects by sha256, corpus.json copies sortable by publication time', () => {
  const sha = 'ab'.repeat(32);
  assert.equal(objectKey('p/', sha), `p/objects/${sha}`);
  assert.equal(objectSha256('p/', `p/objects/${sha}`), sha);
  assert.equal(objectSha256('p/', `p/objects/${sha}.tmp`), undefined);
  assert.equal(objectSha256('p/', `q/objects/${sha}`), undefined);
  const at = new Date('2026-11-23T22:01:02.345Z');
  const key = manifestKey('p/', at, sha);
  assert.equal(key, 'p/manifests/2026-11-23T22-01-02-345Z-abababababababab.json');
  assert.equal(manifestPublishedAt('p/', key)?.toISOString(), at.toISOString());
  assert.equal(manifestPublishedAt('p/', 'p/manifests/notes.json'), undefined);
  assert.ok(
    manifestKey('', new Date('2026-01-02T00:00:00Z'), sha) > manifestKey('', new Date('2026-01-01T23:59:59.999Z'), sha),
  );
});

test('publish --grace durations', () => {
  assert.equal(parseDuration('0'), 0);
  assert.equal(parseDuration('90'), 90_000);
  assert.equal(parseDuration('90s'), 90_000);
  assert.equal(parseDuration('15m'), 900_000);
  assert.equal(parseDuration('1h'), 3_600_000);
  assert.equal(parseDuration('2d'), 172_800_000);
  assert.equal(parseDuration('250ms'), 250);
  assert.throws(() => parseDuration('soon'), /a duration such as 0, 90s/);
  assert.throws(() => parseDuration('-1h'), /a duration such as 0, 90s/);
});

test('the S3 flags: flags, then HOTEL_IMAGER_S3_* variables, then defaults; bad values named', () => {
  const parse = (argv: string[], env: Record<string, string> = {}): S3Flags => {
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      const cmd = addOptions(
        new Command('x').exitOverride().configureOutput({ writeErr: () => undefined }),
        S3_OPTIONS,
      );
      cmd.action(() => undefined);
      cmd.parse(argv, { from: 'user' });
      return readOptions(cmd, S3_OPTIONS);
    } finally {
      for (const k of Object.keys(env)) if (!(k in saved)) delete process.env[k];
    }
  };
  assert.deepEqual(s3Settings(parse([])), { forcePathStyle: false, timeoutMs: 5000 });
  assert.deepEqual(
    s3Settings(parse(['--s3-endpoint', 'http://127.0.0.1:9000', '--s3-force-path-style', '--s3-timeout', '800'])),
    {
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
      timeoutMs: 800,
    },
  );
  assert.deepEqual(
    s3Settings(
      parse([], {
        HOTEL_IMAGER_S3_ENDPOINT: 'https://minio.internal',
        HOTEL_IMAGER_S3_FORCE_PATH_STYLE: 'true',
        HOTEL_IMAGER_S3_TIMEOUT_MS: '1500',
      }),
    ),
    {
      endpoint: 'https://minio.internal',
      forcePathStyle: true,
      timeoutMs: 1500,
    },
  );
  assert.equal(s3Settings(parse([], { HOTEL_IMAGER_S3_FORCE_PATH_STYLE: 'false' })).forcePathStyle, false);
  assert.equal(
    s3Settings(parse(['--s3-endpoint', 'http://a:1'], { HOTEL_IMAGER_S3_ENDPOINT: 'http://b:2' })).endpoint,
    'http://a:1',
  );
  assert.throws(
    () => parse(['--s3-endpoint', 'minio:9000']),
    /^UsageError: --s3-endpoint must be an absolute http:\/\/ or https:\/\/ URL, e.g. http:\/\/127.0.0.1:9000, got "minio:9000"$/,
  );
  assert.throws(
    () => parse(['--s3-timeout', '5']),
    /--s3-timeout must be a whole number of milliseconds ≥ 100, got "5"/,
  );
  assert.throws(
    () => parse([], { HOTEL_IMAGER_S3_FORCE_PATH_STYLE: 'maybe' }),
    /HOTEL_IMAGER_S3_FORCE_PATH_STYLE must be true or false/,
  );
});
