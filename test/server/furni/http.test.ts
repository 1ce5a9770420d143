// The furni asset service over a real socket: status codes, headers and bytes a client depends on.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { connect } from 'node:net';
import { writeCorpusFixture, fakePng, sha256 } from './fixture.js';
import {
  CORPUS_BACKENDS,
  rawRequest,
  startFixtureServer,
  tempDir,
  withTempDir,
  withTestServer,
  eventually,
  type TestServer,
  type RawResponse,
} from './http-helpers.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const files: Record<string, Buffer> = {
  'furni-renders/chair_basic.png': fakePng(1, 700),
  'furni-renders/rare_dragonlamp*4.png': fakePng(2, 900),
  'furni-renders/tile a+b.png': fakePng(3, 300),
  'furni-renders/ünicode_sofa.png': fakePng(4, 350),
  'furni-renders/x__st1_f2.png': fakePng(5, 200),
  'furni-renders/lamp__s32.png': fakePng(6, 200),
  'catalog-thumbs/chair_basic.png': fakePng(7, 120),
  'hof_furni/61856/chair_basic.bundle': Buffer.concat([Buffer.from('NITROBUNDLE-like header'), fakePng(8, 5000)]),
  'build-report.json': Buffer.from('{"ok":true}\n'),
};

function assertNotFound(res: RawResponse, label: string) {
  assert.equal(res.status, 404, `${label}: status`);
  assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8', `${label}: type`);
  assert.equal(res.body.toString(), 'not found', `${label}: body`);
  assert.equal(res.headers['access-control-allow-origin'], '*', `${label}: CORS`);
}

for (const backend of CORPUS_BACKENDS)
  for (const budget of [64 * 1024 * 1024, 0]) {
    describe(`asset routes (${backend}, memory budget ${budget})`, () => {
      let srv: TestServer;
      let tmp: { dir: string; cleanup: () => Promise<void> };
      let secret: Buffer;
      before(async () => {
        tmp = await tempDir('furni-http-');
        secret = Buffer.from('TOP SECRET outside the corpus');
        await writeFile(join(tmp.dir, 'secret.txt'), secret);
        srv = await startFixtureServer(backend, tmp.dir, files, { memoryBudget: budget, logLevel: 'info' });
      });
      after(async () => {
        await srv.close();
        await tmp.cleanup();
      });

      test('GET of a render, an icon and a bundle: bytes, type, length, immutable caching, strong ETag, CORS', async () => {
        const cases: [string, string, string][] = [
          ['/furni-renders/chair_basic.png', 'furni-renders/chair_basic.png', 'image/png'],
          ['/catalog-thumbs/chair_basic.png', 'catalog-thumbs/chair_basic.png', 'image/png'],
          ['/hof_furni/61856/chair_basic.bundle', 'hof_furni/61856/chair_basic.bundle', 'application/octet-stream'],
        ];
        for (const [url, key, type] of cases) {
          for (let i = 0; i < 2; i++) {
            // Twice: the first read is cold (disk), the second hot (memory) when the budget allows.
            const res = await rawRequest(srv.port, 'GET', url);
            assert.equal(res.status, 200, url);
            assert.deepEqual(res.body, files[key], url);
            assert.equal(res.headers['content-type'], type, url);
            assert.equal(res.headers['content-length'], String(files[key]!.length), url);
            assert.equal(res.headers['cache-control'], IMMUTABLE, url);
            assert.equal(res.headers['etag'], `"${sha256(files[key]!)}"`, url);
            assert.equal(res.headers['access-control-allow-origin'], '*', url);
          }
        }
      });

      test('a query string is ignored', async () => {
        const res = await rawRequest(srv.port, 'GET', '/furni-renders/chair_basic.png?size=32&state=1');
        assert.equal(res.status, 200);
        assert.deepEqual(res.body, files['furni-renders/chair_basic.png']);
      });

      test('If-None-Match: exact, list, weak and * give 304 with the ETag and no body; others 200', async () => {
        const url = '/furni-renders/chair_basic.png';
        const etag = `"${sha256(files['furni-renders/chair_basic.png']!)}"`;
        for (const inm of [etag, `"nope", ${etag}`, `W/${etag}`, '*', `"a,b", W/${etag}`, ` ${etag} `]) {
          const res = await rawRequest(srv.port, 'GET', url, { 'if-none-match': inm });
          assert.equal(res.status, 304, inm);
          assert.equal(res.body.length, 0, inm);
          assert.equal(res.headers['etag'], etag, inm);
          assert.equal(res.headers['cache-control'], IMMUTABLE, inm);
          assert.equal(res.headers['access-control-allow-origin'], '*', inm);
          const head = await rawRequest(srv.port, 'HEAD', url, { 'if-none-match': inm });
          assert.equal(head.status, 304, `HEAD ${inm}`);
        }
        for (const inm of ['"other"', etag.slice(0, -2) + '"', 'W/"other", "x"', etag.slice(1, -1), '']) {
          const res = await rawRequest(srv.port, 'GET', url, { 'if-none-match': inm });
          assert.equal(res.status, 200, `no match: ${inm}`);
          assert.deepEqual(res.body, files['furni-renders/chair_basic.png']);
        }
        // Two If-None-Match fields count as one list.
        const two = await new Promise<number>((resolve, reject) => {
          const socket = connect(srv.port, '127.0.0.1', () =>
            socket.write(
              `GET ${url} HTTP/1.1\r\nHost: x\r\nIf-None-Match: "nope"\r\nIf-None-Match: ${etag}\r\nConnection: close\r\n\r\n`,
            ),
          );
          let text = '';
          socket.on('data', (d) => (text += d.toString('latin1')));
          socket.on('end', () => resolve(Number(text.slice(9, 12))));
          socket.on('error', reject);
        });
        assert.equal(two, 304, 'repeated If-None-Match fields');
        // `*` only matches a representation that exists.
        assertNotFound(
          await rawRequest(srv.port, 'GET', '/furni-renders/nothing.png', { 'if-none-match': '*' }),
          'inm * on 404',
        );
      });

      test('HEAD carries the same headers as GET and no body', async () => {
        for (const url of ['/furni-renders/rare_dragonlamp*4.png', '/hof_furni/61856/chair_basic.bundle']) {
          const get = await rawRequest(srv.port, 'GET', url);
          const head = await rawRequest(srv.port, 'HEAD', url);
          assert.equal(head.status, 200);
          assert.equal(head.body.length, 0);
          for (const h of ['content-type', 'content-length', 'cache-control', 'etag', 'access-control-allow-origin']) {
            assert.equal(head.headers[h], get.headers[h], `${url} ${h}`);
          }
        }
        const missing = await rawRequest(srv.port, 'HEAD', '/furni-renders/nothing.png');
        assert.equal(missing.status, 404);
        assert.equal(missing.body.length, 0);
      });

      test('classnames are decoded like encodeURIComponent: literal * works, %2A/%2a do not', async () => {
        const lamp = files['furni-renders/rare_dragonlamp*4.png'];
        assert.deepEqual((await rawRequest(srv.port, 'GET', '/furni-renders/rare_dragonlamp*4.png')).body, lamp);
        assertNotFound(await rawRequest(srv.port, 'GET', '/furni-renders/rare_dragonlamp%2A4.png'), '%2A');
        assertNotFound(await rawRequest(srv.port, 'GET', '/furni-renders/rare_dragonlamp%2a4.png'), '%2a');
        const spaced = await rawRequest(srv.port, 'GET', `/furni-renders/${encodeURIComponent('tile a+b')}.png`);
        assert.deepEqual(spaced.body, files['furni-renders/tile a+b.png']);
        const uni = await rawRequest(srv.port, 'GET', `/furni-renders/${encodeURIComponent('ünicode_sofa')}.png`);
        assert.deepEqual(uni.body, files['furni-renders/ünicode_sofa.png']);
        // `+` is not a space in a path.
        assertNotFound(await rawRequest(srv.port, 'GET', '/furni-renders/tile+a%2Bb.png'), 'plus as space');
      });

      test('reserved parameterised names and .apng are 404 even when a file of that name exists', async () => {
        for (const url of [
          '/furni-renders/x__st1_f2.png',
          '/furni-renders/lamp__s32.png',
          '/furni-renders/chair_basic__s32.png',
          '/furni-renders/chair_basic__st1.png',
          '/furni-renders/chair_basic__d2.png',
          '/furni-renders/chair_basic__f0.png',
          '/furni-renders/chair_basic__st1_f2.png',
          '/furni-renders/chair_basic__s32_st0_d4_f1.png',
          '/furni-renders/chair_basic.apng',
          '/catalog-thumbs/chair_basic__s32.png',
          '/furni-renders/rare_dragonlamp*4__st1.png',
        ]) {
          assertNotFound(await rawRequest(srv.port, 'GET', url), url);
        }
      });

      test('unknown names, variants without a render, other folders and non-asset files are 404 text, never an image', async () => {
        for (const url of [
          '/furni-renders/unknown_item.png',
          '/furni-renders/chair_basic*9.png',
          '/catalog-thumbs/rare_dragonlamp*4.png',
          '/catalog-thumbs/tile a+b.png'.replace(' ', '%20'),
          '/hof_furni/1/chair_basic.bundle',
          '/hof_furni/61856/chair_basic.png',
          '/furni-renders/chair_basic.bundle',
          '/furni-renders/chair_basic',
          '/furni-renders/',
          '/furni-renders',
          '/corpus.json',
          '/build-report.json',
          '/',
          '/favicon.ico',
          '/furni-renders/chair_basic.png/',
          '/furni-renders/./chair_basic.png',
          '/FURNI-RENDERS/chair_basic.png',
        ]) {
          assertNotFound(await rawRequest(srv.port, 'GET', url), url);
        }
      });

      test('traversal attempts never read outside the corpus and all answer 404', async () => {
        const attempts = [
          '/furni-renders/../secret.txt',
          '/furni-renders/../../secret.txt',
          '/../secret.txt',
          '/%2e%2e/secret.txt',
          '/furni-renders/%2e%2e/secret.txt',
          '/furni-renders/%2e%2e%2fsecret.txt',
          '/furni-renders/..%2fsecret.txt',
          '/furni-renders/..%2Fcorpus.json',
          '/furni-renders/%2E%2E%2F%2E%2E%2Fsecret.txt',
          '/furni-renders/..%5csecret.txt',
          '/furni-renders/..\\secret.txt',
          '/furni-renders/..\\..\\secret.txt',
          '/hof_furni/..%2f..%2f/secret.txt',
          '/hof_furni/../../secret.txt',
          '/hof_furni/61856/..%2f..%2f..%2fsecret.txt',
          '/hof_furni/%2e%2e/chair_basic.bundle',
          '/hof_furni/61856/../61856/chair_basic.bundle',
          '/furni-renders/chair_basic.png%00',
          '/furni-renders/chair_basic%00.png',
          '/furni-renders/%00',
          '/furni-renders/%2Fetc%2Fpasswd',
          '/furni-renders//etc/passwd',
          '//etc/passwd',
          '/furni-renders/%2F..%2F..%2Fsecret.txt',
          '/furni-renders/%',
          '/furni-renders/%E0%A4%A.png',
          '/furni-renders/%zz.png',
          '/x%zz',
          '/furni-renders/..png',
          '/furni-renders/chair_basic.png%2F',
          '/catalog-thumbs/%2e%2e%2fcatalog-thumbs%2fchair_basic.png',
          '/furni-renders/%252e%252e%252fsecret.txt',
          '/furni-renders/C:%5Csecret.txt',
        ];
        for (const url of attempts) {
          for (const method of ['GET', 'HEAD']) {
            const res = await rawRequest(srv.port, method, url);
            assert.equal(res.status, 404, `${method} ${url}`);
            assert.ok(!res.body.includes(secret), `${url} leaked the secret`);
            if (method === 'GET') assertNotFound(res, url);
          }
        }
      });

      test('OPTIONS is a 204 CORS preflight on any path; it echoes requested headers', async () => {
        const res = await rawRequest(srv.port, 'OPTIONS', '/furni-renders/chair_basic.png', {
          origin: 'https://hotel.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'if-none-match, x-client',
        });
        assert.equal(res.status, 204);
        assert.equal(res.body.length, 0);
        assert.equal(res.headers['access-control-allow-origin'], '*');
        assert.equal(res.headers['access-control-allow-methods'], 'GET, HEAD, OPTIONS');
        assert.equal(res.headers['access-control-allow-headers'], 'if-none-match, x-client');
        assert.equal(res.headers['access-control-max-age'], '86400');
        const plain = await rawRequest(srv.port, 'OPTIONS', '/anything/else');
        assert.equal(plain.status, 204);
        assert.match(String(plain.headers['access-control-allow-headers']), /If-None-Match/);
        const hostile = await rawRequest(srv.port, 'OPTIONS', '/x', { 'access-control-request-headers': 'a b;c' });
        assert.doesNotMatch(String(hostile.headers['access-control-allow-headers']), /;/);
      });

      test('every other method is 405 with Allow, on asset, control and unknown paths, body or not', async () => {
        for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'PROPFIND', 'TRACE']) {
          for (const url of ['/furni-renders/chair_basic.png', '/healthz', '/nowhere', '/furni-renders/%zz']) {
            const res = await rawRequest(
              srv.port,
              method,
              url,
              { 'content-type': 'application/json' },
              method === 'TRACE' ? undefined : '{"a":',
            );
            assert.equal(res.status, 405, `${method} ${url}`);
            assert.equal(res.headers['allow'], 'GET, HEAD, OPTIONS', `${method} ${url}`);
          }
        }
      });

      test('one structured log line per request with method, path, query, status, bytes, ms, cache tier and client', async () => {
        await eventually(() => srv.requestLines().length > 0);
        const before = srv.requestLines().length;
        await rawRequest(srv.port, 'GET', '/furni-renders/chair_basic.png?x=1');
        await rawRequest(srv.port, 'HEAD', '/catalog-thumbs/chair_basic.png');
        await rawRequest(srv.port, 'GET', '/furni-renders/none.png');
        await rawRequest(srv.port, 'POST', '/healthz');
        await rawRequest(srv.port, 'GET', '/x%zz');
        await rawRequest(srv.port, 'GET', '/version');
        await eventually(() => srv.requestLines().length >= before + 6);
        const lines = srv.requestLines().slice(before);
        assert.equal(lines.length, 6, 'exactly one line each');
        const summary = lines.map((l) => [l.method, l.path, l.status, l.bytes]);
        assert.deepEqual(summary.slice(0, 5), [
          ['GET', '/furni-renders/chair_basic.png', 200, 700],
          ['HEAD', '/catalog-thumbs/chair_basic.png', 200, 0],
          ['GET', '/furni-renders/none.png', 404, 9],
          ['POST', '/healthz', 405, 18],
          ['GET', '/x%zz', 404, 9],
        ]);
        assert.equal(lines[5]!.status, 200);
        for (const l of lines) assert.equal(typeof l.ms, 'number');
        assert.deepEqual(
          lines.map((l) => l.query),
          ['x=1', '', '', '', '', ''],
        );
        // A 200 says where its bytes came from (always storage without a memory budget); nothing else has a tier.
        if (budget === 0)
          assert.deepEqual(
            lines.slice(0, 2).map((l) => l.cache),
            ['storage', 'storage'],
          );
        else
          for (const l of lines.slice(0, 2)) assert.ok(l.cache === 'memory' || l.cache === 'storage', String(l.cache));
        assert.deepEqual(
          lines.slice(2).map((l) => l.cache),
          [null, null, null, null],
        );
        for (const l of lines) assert.equal(l.client, '127.0.0.1');
        // Hot-path lines (assets) and framework lines (control routes) have one shape.
        const shape = [
          'level',
          'time',
          'pid',
          'hostname',
          'reqId',
          'method',
          'path',
          'query',
          'status',
          'bytes',
          'ms',
          'cache',
          'client',
          'msg',
        ];
        for (const l of lines) assert.deepEqual(Object.keys(l), shape, JSON.stringify(l));
        assert.equal(new Set(lines.map((l) => l.reqId)).size, lines.length, 'request ids are distinct');
        assert.ok(
          !srv.lines.some((l) => /incoming request|request completed/.test(l)),
          'no default Fastify request logs',
        );
      });
    });
  }

test('a listed file that is a symlink out of the corpus is not served; one within it is', async () => {
  await withTempDir('furni-symlink-', async (dir) => {
    const corpus = join(dir, 'corpus');
    const outside = Buffer.from('outside bytes, not for clients');
    await writeFile(join(dir, 'outside.png'), outside);
    await writeCorpusFixture(
      corpus,
      { 'furni-renders/real.png': fakePng(1, 100) },
      {
        listedOnly: {
          'furni-renders/evil.png': { size: outside.length, sha256: sha256(outside) },
          'furni-renders/alias.png': { size: 100, sha256: sha256(fakePng(1, 100)) },
        },
      },
    );
    await symlink(join(dir, 'outside.png'), join(corpus, 'furni-renders', 'evil.png'));
    await symlink('real.png', join(corpus, 'furni-renders', 'alias.png'));
    await withTestServer({ corpus, memoryBudget: 1 << 20 }, async (srv) => {
      assertNotFound(await rawRequest(srv.port, 'GET', '/furni-renders/evil.png'), 'symlink out');
      const alias = await rawRequest(srv.port, 'GET', '/furni-renders/alias.png');
      assert.equal(alias.status, 200);
      assert.deepEqual(alias.body, fakePng(1, 100));
    });
  });
});

test('hot files come from memory within the budget; larger ones are read from disk each time', async () => {
  await withTempDir('furni-cache-', async (dir) => {
    const corpus = join(dir, 'corpus');
    const small = fakePng(1, 1000);
    const big = fakePng(2, 5000);
    await writeCorpusFixture(corpus, { 'furni-renders/small.png': small, 'furni-renders/big.png': big });
    await withTestServer({ corpus, memoryBudget: 4096 }, async (srv) => {
      assert.deepEqual((await rawRequest(srv.port, 'GET', '/furni-renders/small.png')).body, small);
      assert.deepEqual((await rawRequest(srv.port, 'GET', '/furni-renders/big.png')).body, big);
      const health = JSON.parse((await rawRequest(srv.port, 'GET', '/healthz')).body.toString());
      assert.deepEqual(health.checks.storage.memory, { cachedBytes: 1000, cachedFiles: 1, budget: 4096 });
      // Deleting the files from disk shows which one is held in memory.
      await rm(join(corpus, 'furni-renders', 'small.png'));
      await rm(join(corpus, 'furni-renders', 'big.png'));
      assert.deepEqual((await rawRequest(srv.port, 'GET', '/furni-renders/small.png')).body, small);
      assertNotFound(await rawRequest(srv.port, 'GET', '/furni-renders/big.png'), 'big file gone from disk');
      assert.equal((await rawRequest(srv.port, 'HEAD', '/furni-renders/big.png')).status, 404, 'HEAD agrees with GET');
      assert.equal((await rawRequest(srv.port, 'HEAD', '/furni-renders/small.png')).status, 200);
    });
  });
});

test('a file changed on disk ahead of corpus.json answers 503 rather than bytes under a stale ETag', async () => {
  await withTempDir('furni-stale-', async (dir) => {
    const corpus = join(dir, 'corpus');
    await writeCorpusFixture(corpus, { 'furni-renders/a.png': fakePng(1, 500) });
    await withTestServer({ corpus, memoryBudget: 0 }, async (srv) => {
      await writeFile(join(corpus, 'furni-renders', 'a.png'), fakePng(2, 800));
      const res = await rawRequest(srv.port, 'GET', '/furni-renders/a.png');
      assert.equal(res.status, 503);
      assert.equal(res.headers['retry-after'], '1');
    });
  });
});

test('the log level is configurable: at warn there are no request lines, problems still show', async () => {
  await withTempDir('furni-loglevel-', async (dir) => {
    const corpus = join(dir, 'corpus');
    await writeCorpusFixture(
      corpus,
      { 'furni-renders/a.png': fakePng(1, 100) },
      { listedOnly: { 'furni-renders/gone.png': { size: 5, sha256: 'a'.repeat(64) } } },
    );
    await withTestServer({ corpus, logLevel: 'warn' }, async (srv) => {
      assert.equal((await rawRequest(srv.port, 'GET', '/furni-renders/a.png')).status, 200);
      assert.equal((await rawRequest(srv.port, 'GET', '/healthz')).status, 200);
      assertNotFound(await rawRequest(srv.port, 'GET', '/furni-renders/gone.png'), 'listed but missing');
      assert.equal(srv.requestLines().length, 0);
      assert.ok(srv.lines.some((l) => /listed asset not servable/.test(l) && /gone\.png/.test(l)));
    });
  });
});
