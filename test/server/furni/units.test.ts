// The pure pieces behind the furni service: URL → corpus key, If-None-Match, corpus.json, build info.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveAssetUrl, isServableKey } from '../../../src/core/furni/asset-path.js';
import { ifNoneMatchMatches } from '../../../src/http/etag.js';
import { ifNoneMatchOf } from '../../../src/core/furni/asset-answer.js';
import { CorpusJsonError } from '../../../src/formats/corpus-json.js';
import { parseCorpusManifest } from '../../../src/core/furni/corpus-manifest.js';
import { readBuildInfo } from '../../../src/http/build-info.js';
import { Command } from 'commander';
import { registerServeFurniCommand } from '../../../src/cli/serve-furni.js';
import { byteSize as parseByteSize } from '../../../src/settings/values.js';
import { corpusJson, fakePng } from './fixture.js';

test('asset URLs map to corpus keys, decoded like decodeURIComponent', () => {
  assert.deepEqual(resolveAssetUrl('/furni-renders/chair.png'), { key: 'furni-renders/chair.png', kind: 'render' });
  assert.deepEqual(resolveAssetUrl('/furni-renders/rare*4.png?x=%zz'), {
    key: 'furni-renders/rare*4.png',
    kind: 'render',
  });
  assert.deepEqual(resolveAssetUrl('/catalog-thumbs/a%20b.png'), { key: 'catalog-thumbs/a b.png', kind: 'icon' });
  assert.deepEqual(resolveAssetUrl('/hof_furni/61856/chair.bundle'), {
    key: 'hof_furni/61856/chair.bundle',
    kind: 'bundle',
  });
  for (const bad of [
    '/furni-renders/rare%2A4.png',
    '/furni-renders/rare%2a4.png',
    '/furni-renders/a__st1.png',
    '/furni-renders/a__s32_f1.png',
    '/furni-renders/a.apng',
    '/furni-renders/.png',
    '/furni-renders/..',
    '/furni-renders/%2e%2e',
    '/furni-renders/a%2Fb.png',
    '/furni-renders/a%5Cb.png',
    '/furni-renders/a%00.png',
    '/furni-renders/a%0a.png',
    '/furni-renders/%E0%A4%A.png',
    '/hof_furni/../a.bundle',
    '/hof_furni/%2e%2e/a.bundle',
    '/hof_furni/1/2/a.bundle',
    'furni-renders/a.png',
    'http://h/furni-renders/a.png',
  ]) {
    assert.equal(resolveAssetUrl(bad), undefined, bad);
  }
  // Tags only reserve the name when they close it; a classname may contain a double underscore elsewhere.
  assert.deepEqual(resolveAssetUrl('/furni-renders/a__b.png')?.key, 'furni-renders/a__b.png');
});

test('only keys in the served layout are servable', () => {
  assert.ok(isServableKey('furni-renders/a*1.png'));
  assert.ok(isServableKey('hof_furni/1/a.bundle'));
  // Hidden names (a build's staging folder or temp files) are never servable, even when listed.
  for (const k of [
    '.staging/furni-renders/a.png',
    'hof_furni/.staging/a.bundle',
    'furni-renders/.a.png.tmp.png',
    'hof_furni/1/.a.bundle',
  ]) {
    assert.ok(!isServableKey(k), k);
  }
  for (const url of [
    '/.staging/furni-renders/a.png',
    '/furni-renders/.staging/a.png',
    '/hof_furni/.staging/a.bundle',
    '/hof_furni/%2Estaging/a.bundle',
    '/furni-renders/.a.png',
    '/furni-renders/%2ea.png',
  ]) {
    assert.equal(resolveAssetUrl(url), undefined, url);
  }
  for (const k of [
    'corpus.json',
    'build-report.json',
    'furni-renders/../x.png',
    'furni-renders/a/b.png',
    '/furni-renders/a.png',
    'hof_furni/a.bundle',
    'furni-renders/.png',
    'catalog-thumbs/a\\b.png',
  ]) {
    assert.ok(!isServableKey(k), k);
  }
});

test('If-None-Match: weak comparison, lists, *, and malformed members', () => {
  const tag = '"abc"';
  assert.ok(ifNoneMatchMatches('"abc"', tag));
  assert.ok(ifNoneMatchMatches('W/"abc"', tag));
  assert.ok(ifNoneMatchMatches('"x", "abc"', tag));
  assert.ok(ifNoneMatchMatches('"x,y",W/"abc"', tag));
  assert.ok(ifNoneMatchMatches(' * ', tag));
  assert.ok(!ifNoneMatchMatches('"ab"', tag));
  assert.ok(!ifNoneMatchMatches('abc', tag));
  assert.ok(!ifNoneMatchMatches('"abc', tag));
  assert.ok(!ifNoneMatchMatches('w/"abc"', tag), 'the weak prefix is case-sensitive');
  assert.ok(!ifNoneMatchMatches('"x" junk "abc"', tag), 'parsing stops at a malformed member');
});

test('If-None-Match is read from raw headers in any case, repeated fields joined as Node joins them', () => {
  assert.equal(ifNoneMatchOf(['Host', 'h', 'If-None-Match', '"a"']), '"a"');
  assert.equal(ifNoneMatchOf(['if-none-match', '"a"', 'X', 'y', 'IF-NONE-MATCH', 'W/"b"']), '"a", W/"b"');
  assert.equal(ifNoneMatchOf(['If-Match', '"a"', 'If-None-Matchx', '"b"']), undefined);
  assert.ok(ifNoneMatchMatches(ifNoneMatchOf(['If-None-Match', '"x"', 'If-None-Match', '"b"'])!, '"b"'));
});

test('corpus.json parses into a table with precomputed headers; invalid documents are rejected by name', () => {
  const png = fakePng(1, 123);
  const m = parseCorpusManifest(
    corpusJson({ 'furni-renders/a.png': png, 'build-report.json': Buffer.from('{}') }),
    'c.json',
  );
  assert.equal(m.files.size, 1);
  assert.equal(m.ignored, 1);
  const f = m.files.get('furni-renders/a.png')!;
  assert.equal(f.size, 123);
  assert.equal(f.headers['content-length'], '123');
  assert.equal(f.headers['etag'], `"${f.sha256}"`);
  const cases: [string, RegExp][] = [
    ['nope', /not JSON/],
    ['[]', /not an object/],
    ['{"format":2}', /unsupported format 2/],
    ['{"format":1,"builtAt":"x","counts":{"renders":1,"icons":0},"files":{}}', /counts/],
    ['{"format":1,"builtAt":"x","counts":{"renders":1,"icons":0,"bundles":0}}', /files is missing/],
    [
      '{"format":1,"builtAt":"x","counts":{"renders":1,"icons":0,"bundles":0},"files":{"furni-renders/a.png":{"size":1,"sha256":"XYZ"}}}',
      /sha256/,
    ],
    [
      '{"format":1,"builtAt":"x","counts":{"renders":1,"icons":0,"bundles":0},"files":{"furni-renders/a.png":{"size":-1,"sha256":"' +
        'a'.repeat(64) +
        '"}}}',
      /byte size/,
    ],
  ];
  for (const [text, re] of cases) {
    assert.throws(
      () => parseCorpusManifest(text, 'bad/corpus.json'),
      (e: unknown) => {
        assert.ok(e instanceof CorpusJsonError);
        assert.match(e.message, /bad\/corpus\.json/);
        assert.match(e.message, re);
        return true;
      },
    );
  }
});

test('build info: the build record when present, else git, else unknown', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'furni-buildinfo-'));
  try {
    const record = join(dir, 'build-info.json');
    await writeFile(record, JSON.stringify({ commit: 'c0ffee'.padEnd(40, '0'), builtAt: '2026-05-05T05:05:05.000Z' }));
    assert.deepEqual(readBuildInfo({ buildInfoFile: record }), {
      commit: 'c0ffee'.padEnd(40, '0'),
      builtAt: '2026-05-05T05:05:05.000Z',
      source: 'build',
    });
    const now = () => new Date('2026-06-06T00:00:00.000Z');
    // No record and no git checkout (a temp folder): unknown, timestamped at startup.
    assert.deepEqual(readBuildInfo({ buildInfoFile: join(dir, 'absent.json'), gitDir: dir, now }), {
      commit: 'unknown',
      builtAt: '2026-06-06T00:00:00.000Z',
      source: 'unknown',
    });
    await writeFile(record, '{ corrupt');
    assert.equal(readBuildInfo({ buildInfoFile: record, gitDir: dir, now }).source, 'unknown');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('serve furni: byte sizes with binary units; bad flag values are refused with the flag named', async () => {
  assert.equal(parseByteSize('268435456'), 268435456);
  assert.equal(parseByteSize('256M'), 256 * 1024 * 1024);
  assert.equal(parseByteSize('1GiB'), 1024 ** 3);
  assert.equal(parseByteSize('64k'), 65536);
  assert.equal(parseByteSize('0'), 0);
  assert.throws(() => parseByteSize('lots'), /a size such as/);
  assert.throws(() => parseByteSize('-1'), /a size such as/);
  for (const [flag, value] of [
    ['--memory-budget', 'lots'],
    ['--port', '70000'],
    ['--log-level', 'loud'],
    ['--check-interval', '1'],
  ]) {
    const program = new Command().exitOverride().configureOutput({ writeErr: () => undefined });
    registerServeFurniCommand(program.command('serve').exitOverride());
    await assert.rejects(
      program.parseAsync(['node', 'hotel-imager', 'serve', 'furni', '--corpus', '/nowhere', flag!, value!]),
      (e: Error) => e.message.includes(flag!),
      flag,
    );
  }
});
