// The socket-level fast path of the furni service: keep-alive, pipelining, split and odd requests, the
// hand-over to Node's http server, half-close and shutdown — all over raw TCP, bytes as a client sees them.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { writeCorpusFixture, fakePng, sha256 } from './fixture.js';
import {
  CORPUS_BACKENDS,
  startFixtureServer,
  startTestServer,
  tempDir,
  withTempDir,
  withTestServer,
  type TestServer,
} from './http-helpers.js';
import { INCOMPLETE, NOT_SIMPLE, parseSimpleHead, scanRequestHead } from '../../../src/http/request-head.js';

const files: Record<string, Buffer> = {
  'furni-renders/chair_basic.png': fakePng(1, 700),
  'furni-renders/rare_dragonlamp*4.png': fakePng(2, 900),
  // Over the single-write size: written as head + body.
  'hof_furni/61856/chair_basic.bundle': fakePng(8, 40_000),
};
const CHAIR = files['furni-renders/chair_basic.png']!;
const CHAIR_TAG = `"${sha256(CHAIR)}"`;

interface Parsed {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Offset just past this response in the stream. */
  end: number;
}

/** Splits a byte stream of responses; `methods` says which had no body (HEAD). */
function parseResponses(data: Buffer, methods: string[]): Parsed[] {
  const out: Parsed[] = [];
  let off = 0;
  for (const method of methods) {
    const end = data.indexOf('\r\n\r\n', off);
    if (end < 0) break;
    const lines = data.toString('latin1', off, end).split('\r\n');
    const status = Number(lines[0]!.split(' ')[1]);
    const headers: Record<string, string> = {};
    for (const l of lines.slice(1)) {
      const c = l.indexOf(':');
      headers[l.slice(0, c).toLowerCase()] = l.slice(c + 1).trim();
    }
    const bodyless = method === 'HEAD' || status === 304 || status === 204;
    const length = bodyless ? 0 : Number(headers['content-length'] ?? 0);
    out.push({ status, headers, body: data.subarray(end + 4, end + 4 + length), end: end + 4 + length });
    off = end + 4 + length;
  }
  return out;
}

/** Sends `chunks` (with a pause between them) and collects everything until the server closes or `until` holds. */
function exchange(
  port: number,
  chunks: (string | Buffer)[],
  opts: { pauseMs?: number; until?: (data: Buffer) => boolean; endAfter?: boolean } = {},
): Promise<{ data: Buffer; closed: boolean; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const got: Buffer[] = [];
    let settled = false;
    const done = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ data: Buffer.concat(got), closed, socket });
    };
    const timer = setTimeout(() => done(false), 5000);
    socket.on('data', (c) => {
      got.push(c);
      if (opts.until?.(Buffer.concat(got))) done(false);
    });
    socket.on('close', () => done(true));
    socket.on('error', reject);
    socket.on('connect', async () => {
      for (const c of chunks) {
        socket.write(c);
        if (opts.pauseMs) await new Promise((r) => setTimeout(r, opts.pauseMs));
      }
      if (opts.endAfter) socket.end();
    });
  });
}

const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${extra}\r\n`;

for (const backend of CORPUS_BACKENDS)
  for (const budget of [64 * 1024 * 1024, 0]) {
    describe(`fast path (${backend}, memory budget ${budget}: ${budget ? 'bodies from memory' : 'every body read from storage'})`, () => {
      let srv: TestServer;
      let tmp: { dir: string; cleanup: () => Promise<void> };
      before(async () => {
        tmp = await tempDir('furni-fast-');
        srv = await startFixtureServer(backend, tmp.dir, files, { memoryBudget: budget, logLevel: 'info' });
      });
      after(async () => {
        await srv.close();
        await tmp.cleanup();
      });

      test('keep-alive: requests one after another on one connection, each a whole response', async () => {
        const socket = connect(srv.port, '127.0.0.1');
        await new Promise((r) => socket.once('connect', r));
        let buffered = Buffer.alloc(0);
        socket.on('data', (c: Buffer) => (buffered = Buffer.concat([buffered, c])));
        for (let i = 0; i < 3; i++) {
          buffered = Buffer.alloc(0);
          socket.write(get('/furni-renders/chair_basic.png'));
          const until = Date.now() + 5000;
          while (
            parseResponses(buffered, ['GET']).length < 1 ||
            parseResponses(buffered, ['GET'])[0]!.body.length < CHAIR.length
          ) {
            if (Date.now() > until) throw new Error(`response ${i} incomplete`);
            await new Promise((r) => setTimeout(r, 5));
          }
          const [res] = parseResponses(buffered, ['GET']);
          assert.equal(res!.status, 200, `request ${i}`);
          assert.deepEqual(res!.body, CHAIR, `request ${i} bytes`);
          assert.equal(res!.headers['connection'], 'keep-alive', `request ${i}`);
          assert.equal(res!.headers['keep-alive'], 'timeout=72', `request ${i}`);
          assert.match(
            res!.headers['date'] ?? '',
            /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
            `request ${i} date`,
          );
          assert.equal(res!.headers['etag'], CHAIR_TAG, `request ${i}`);
        }
        assert.equal(socket.destroyed, false, 'connection still open');
        socket.destroy();
      });

      test('pipelined: answers in order across memory, 304, 404, HEAD, a large body and a hand-over to Node mid-stream', async () => {
        const requests = [
          ['GET', get('/furni-renders/chair_basic.png')],
          ['HEAD', `HEAD /furni-renders/rare_dragonlamp*4.png HTTP/1.1\r\nHost: x\r\n\r\n`],
          ['GET', get('/furni-renders/chair_basic.png', `If-None-Match: ${CHAIR_TAG}\r\n`)],
          ['GET', get('/furni-renders/missing.png')],
          ['GET', get('/hof_furni/61856/chair_basic.bundle')],
          ['GET', get('/healthz')], // not an asset: the connection goes to Node's http server here
          ['GET', get('/furni-renders/rare_dragonlamp*4.png')], // answered by Node's side now
          ['GET', get('/furni-renders/chair_basic.png', 'Connection: close\r\n')],
        ] as const;
        const { data, closed } = await exchange(srv.port, [requests.map((r) => r[1]).join('')]);
        const res = parseResponses(
          data,
          requests.map((r) => r[0]),
        );
        assert.deepEqual(
          res.map((r) => r.status),
          [200, 200, 304, 404, 200, 200, 200, 200],
        );
        assert.deepEqual(res[0]!.body, CHAIR);
        assert.equal(
          res[1]!.headers['content-length'],
          String(files['furni-renders/rare_dragonlamp*4.png']!.length),
          'HEAD length',
        );
        assert.equal(res[1]!.body.length, 0, 'HEAD has no body');
        assert.equal(res[2]!.headers['etag'], CHAIR_TAG);
        assert.equal(res[3]!.body.toString(), 'not found');
        assert.deepEqual(res[4]!.body, files['hof_furni/61856/chair_basic.bundle'], 'large body');
        assert.equal((JSON.parse(res[5]!.body.toString()) as { status: string }).status, 'ok', 'healthz from Fastify');
        assert.deepEqual(res[6]!.body, files['furni-renders/rare_dragonlamp*4.png']);
        assert.deepEqual(res[7]!.body, CHAIR);
        assert.equal(res[7]!.headers['connection'], 'close');
        assert.ok(closed, 'closed after Connection: close');
        assert.equal(res[7]!.end, data.length, 'nothing after the last response');
      });

      test('a request split into single bytes is answered once it is whole', async () => {
        const bytes = Buffer.from(get('/furni-renders/chair_basic.png', 'Connection: close\r\n'));
        const chunks = [...bytes].map((b) => Buffer.from([b]));
        const { data } = await exchange(srv.port, chunks, { pauseMs: 1 });
        const [res] = parseResponses(data, ['GET']);
        assert.equal(res?.status, 200);
        assert.deepEqual(res!.body, CHAIR);
      });

      test('back-pressure: a client that does not read is not read from, and gets everything once it reads', async () => {
        const n = 400; // 400 × 40 KB: far more than the socket buffers hold
        const bundle = files['hof_furni/61856/chair_basic.bundle']!;
        const before = srv.requestLines().length;
        const socket = connect(srv.port, '127.0.0.1');
        await new Promise((r) => socket.once('connect', r));
        socket.pause();
        socket.write(
          get('/hof_furni/61856/chair_basic.bundle').repeat(n - 1) +
            get('/hof_furni/61856/chair_basic.bundle', 'Connection: close\r\n'),
        );
        await new Promise((r) => setTimeout(r, 400));
        const answeredWhilePaused = srv.requestLines().length - before;
        assert.ok(answeredWhilePaused < n / 2, `answered ${answeredWhilePaused} of ${n} while the client read nothing`);
        const chunks: Buffer[] = [];
        socket.on('data', (c: Buffer) => chunks.push(c));
        socket.resume();
        await new Promise((r) => socket.once('close', r));
        const res = parseResponses(Buffer.concat(chunks), new Array<string>(n).fill('GET'));
        assert.equal(res.length, n, 'every response arrives');
        assert.ok(
          res.every((r) => r.status === 200 && r.body.equals(bundle)),
          'every body whole',
        );
      });

      test('half-close: a client that sends its request and FIN still gets the whole response', async () => {
        const { data, closed } = await exchange(
          srv.port,
          [get('/hof_furni/61856/chair_basic.bundle') + get('/furni-renders/chair_basic.png')],
          { endAfter: true },
        );
        const res = parseResponses(data, ['GET', 'GET']);
        assert.deepEqual(
          res.map((r) => r.status),
          [200, 200],
        );
        assert.deepEqual(res[0]!.body, files['hof_furni/61856/chair_basic.bundle']);
        assert.deepEqual(res[1]!.body, CHAIR);
        assert.ok(closed, 'server closes after answering');
      });
    });
  }

describe('fast path: requests it leaves to Node', () => {
  let srv: TestServer;
  let tmp: { dir: string; cleanup: () => Promise<void> };
  before(async () => {
    tmp = await tempDir('furni-fast-');
    await writeCorpusFixture(join(tmp.dir, 'corpus'), files);
    srv = await startTestServer({ corpus: join(tmp.dir, 'corpus'), memoryBudget: 1 << 20, logLevel: 'info' });
  });
  after(async () => {
    await srv.close();
    await tmp.cleanup();
  });

  test('HTTP/1.0, a body, chunked framing, an oversized head and a missing Host get Node’s answers', async () => {
    const http10 = await exchange(srv.port, ['GET /furni-renders/chair_basic.png HTTP/1.0\r\n\r\n']);
    const [r10] = parseResponses(http10.data, ['GET']);
    assert.equal(r10?.status, 200, 'HTTP/1.0');
    assert.deepEqual(r10!.body, CHAIR, 'HTTP/1.0 bytes');
    assert.ok(http10.closed, 'HTTP/1.0 without keep-alive closes');

    // A POST with a body is 405, and the body is consumed as a body: the next request on the connection is read correctly.
    const post = await exchange(srv.port, [
      `POST /furni-renders/chair_basic.png HTTP/1.1\r\nHost: x\r\nContent-Length: 25\r\n\r\nGET /evil HTTP/1.1\r\nX: y\r\n` +
        get('/furni-renders/chair_basic.png', 'Connection: close\r\n'),
    ]);
    const rp = parseResponses(post.data, ['POST', 'GET']);
    assert.deepEqual(
      rp.map((r) => r.status),
      [405, 200],
      'body not read as a request',
    );
    assert.match(rp[0]!.headers['allow'] ?? '', /GET/);

    const chunked = await exchange(srv.port, [
      `GET /furni-renders/chair_basic.png HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n` +
        get('/furni-renders/chair_basic.png', 'Connection: close\r\n'),
    ]);
    const rc = parseResponses(chunked.data, ['GET', 'GET']);
    assert.deepEqual(
      rc.map((r) => r.status),
      [200, 200],
      'chunked body framed by Node',
    );
    assert.deepEqual(rc[1]!.body, CHAIR);

    const big = await exchange(srv.port, [get('/furni-renders/chair_basic.png', `Cookie: ${'a'.repeat(20_000)}\r\n`)]);
    assert.equal(parseResponses(big.data, ['GET'])[0]?.status, 431, 'oversized head');

    const noHost = await exchange(srv.port, ['GET /furni-renders/chair_basic.png HTTP/1.1\r\n\r\n']);
    assert.equal(parseResponses(noHost.data, ['GET'])[0]?.status, 400, 'missing Host');

    const folded = await exchange(srv.port, [
      'GET /furni-renders/chair_basic.png HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n  folded\r\n\r\n',
    ]);
    assert.equal(parseResponses(folded.data, ['GET'])[0]?.status, 400, 'obs-fold is refused by Node, not read by us');
  });

  test('every request gets one log line, answered here or by Node', async () => {
    const before = srv.requestLines().length;
    await exchange(srv.port, [
      get('/furni-renders/chair_basic.png') +
        get('/furni-renders/nope.png') +
        get('/version') +
        get('/furni-renders/chair_basic.png', 'Connection: close\r\n'),
    ]);
    const lines = srv.requestLines().slice(before);
    // Fastify writes its line when the response has been flushed, so order across the two sides may differ.
    const key = (l: unknown[]) => `${String(l[1])} ${String(l[2])}`;
    assert.deepEqual(
      lines.map((l) => [l.method, l.path, l.status, l.bytes]).sort((a, b) => key(a).localeCompare(key(b))),
      [
        ['GET', '/furni-renders/chair_basic.png', 200, CHAIR.length],
        ['GET', '/furni-renders/nope.png', 404, 9],
        ['GET', '/furni-renders/chair_basic.png', 200, CHAIR.length],
        ['GET', '/version', 200, lines.find((l) => l.path === '/version')?.bytes],
      ].sort((a, b) => key(a).localeCompare(key(b))),
    );
    const version = lines.find((l) => l.path === '/version');
    assert.ok(typeof version?.bytes === 'number' && version.bytes > 0, 'version bytes logged');
  });
});

test('shutdown: close() ends idle kept-alive connections promptly', async () => {
  await withTempDir('furni-fast-', async (dir) => {
    await writeCorpusFixture(join(dir, 'corpus'), files);
    const srv = await startTestServer({ corpus: join(dir, 'corpus'), memoryBudget: 1 << 20, logLevel: 'warn' });
    const { socket, closed } = await exchange(srv.port, [get('/furni-renders/chair_basic.png')], {
      until: (d) => d.includes(CHAIR),
    });
    assert.equal(closed, false, 'kept alive');
    const sawClose = new Promise<void>((r) => socket.once('close', () => r()));
    const t0 = Date.now();
    const closing = srv.close();
    const inTime = await Promise.race([
      Promise.all([closing, sawClose]).then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), 3000)),
    ]);
    if (!inTime) {
      socket.destroy(); // lets the server finish closing so the test ends
      await closing;
    }
    assert.ok(inTime, `close did not end the kept-alive connection within 3 s (${Date.now() - t0} ms)`);
  });
});

test('request heads the fast path answers, and the ones it leaves to Node', () => {
  const ok = (h: string) => parseSimpleHead(h);
  assert.deepEqual(ok('GET /a.png HTTP/1.1\r\nHost: x'), {
    method: 'GET',
    target: '/a.png',
    ifNoneMatch: undefined,
    forwardedFor: undefined,
    close: false,
  });
  assert.deepEqual(
    ok(
      'HEAD /a.png?q=1 HTTP/1.1\r\nhost: x\r\nIF-NONE-MATCH: "a"\r\nIf-None-Match:  "b" \r\nConnection: Keep-Alive, close',
    ),
    {
      method: 'HEAD',
      target: '/a.png?q=1',
      ifNoneMatch: '"a", "b"',
      forwardedFor: undefined,
      close: true,
    },
  );
  assert.equal(
    ok('GET /a HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.7, 10.0.0.1\r\nx-forwarded-for:  10.0.0.2 ')
      ?.forwardedFor,
    '203.0.113.7, 10.0.0.1, 10.0.0.2',
  );
  assert.ok(ok('GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: 0'), 'an empty body is no body');
  assert.ok(
    ok('GET /a HTTP/1.1\r\nHost: x\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64)\r\nX-Obs: caf\xe9'),
    'obs-text in a value',
  );
  const refused: [string, string][] = [
    ['POST /a HTTP/1.1\r\nHost: x', 'another method'],
    ['GET /a HTTP/1.0\r\nHost: x', 'HTTP/1.0'],
    ['GET http://x/a HTTP/1.1\r\nHost: x', 'absolute-form target'],
    ['GET /a b HTTP/1.1\r\nHost: x', 'space in the target'],
    ['GET /a\x7f HTTP/1.1\r\nHost: x', 'control character in the target'],
    ['GET /a HTTP/1.1', 'no Host'],
    ['GET /a HTTP/1.1\r\nHost: x\r\nHost: y', 'two Hosts'],
    ['GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5', 'a body'],
    ['GET /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked', 'chunked'],
    ['GET /a HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade', 'upgrade'],
    ['GET /a HTTP/1.1\r\nHost: x\r\nExpect: 100-continue', 'expect'],
    ['GET /a HTTP/1.1\r\nHost: x\r\n folded', 'obs-fold'],
    ['GET /a HTTP/1.1\r\nHost: x\r\nBad Name: 1', 'space in a field name'],
    ['GET /a HTTP/1.1\r\nHost: x\r\nX: a\nb', 'bare LF'],
    ['GET /a HTTP/1.1\r\nHost: x\r\nX: a\rb', 'bare CR'],
    ['GET /a HTTP/1.1\r\nHost: x\r\nX: a\x00b', 'NUL'],
    ['GET /a HTTP/1.1\r\nHost: x\r\nNo-Colon', 'a line without a colon'],
    ['GET /a HTTP/1.1\r\nHost: x\r\n: empty name', 'empty field name'],
    [`GET /a HTTP/1.1\r\nHost: x\r\nCookie: ${'a'.repeat(9000)}`, 'too long'],
  ];
  for (const [head, why] of refused) assert.equal(parseSimpleHead(head), undefined, why);
});

test('the head scanner: every prefix of an answerable head waits for more; other heads go to Node at their first telling byte', () => {
  const head = `HEAD /furni-renders/a.png?x=1 HTTP/1.1\r\nHost: x\r\nIf-None-Match: ${CHAIR_TAG}\r\nConnection: keep-alive\r\n\r\n`;
  const bytes = Buffer.from(head, 'latin1');
  for (let n = 0; n < bytes.length; n++)
    assert.equal(scanRequestHead(bytes.subarray(0, n)), INCOMPLETE, `prefix of ${n} bytes`);
  const next = Buffer.from('GET /b HTTP/1.1\r\n', 'latin1');
  const full = scanRequestHead(Buffer.concat([bytes, next]));
  assert.ok(typeof full === 'object');
  assert.equal(full.end, bytes.length, 'the head ends at its empty line; the next request is left alone');
  assert.deepEqual(
    { ...full, end: undefined },
    {
      method: 'HEAD',
      target: '/furni-renders/a.png?x=1',
      ifNoneMatch: CHAIR_TAG,
      forwardedFor: undefined,
      close: false,
      end: undefined,
    },
  );
  for (const [bytesSoFar, why] of [
    ['P', 'another method'],
    ['GEX', 'not GET'],
    ['\x16\x03\x01', 'a TLS hello'],
    ['GET  ', 'two spaces'],
    ['GET /a HTTP/1.0', 'HTTP/1.0'],
    ['GET /a HTTP/1.1\r\nX-A: 1\r\n ', 'obs-fold'],
    ['GET /a HTTP/1.1\r\nX-A: 1\r\nBad Name', 'a space in a name'],
    ['GET /a HTTP/1.1\r\nX-A: 1\nX-B', 'a bare LF'],
    ['GET /a HTTP/1.1\r\nX-A: 1\rX', 'a bare CR'],
    ['GET /a HTTP/1.1\r\nX-A: \x00', 'NUL in a value'],
    ['GET /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n', 'framing'],
  ]) {
    assert.equal(scanRequestHead(Buffer.from(bytesSoFar!, 'latin1')), NOT_SIMPLE, why);
  }
  // A head that never ends is handed over once it is longer than any head answered here.
  assert.equal(
    scanRequestHead(Buffer.from(`GET /a HTTP/1.1\r\nCookie: ${'a'.repeat(8200)}`, 'latin1')),
    NOT_SIMPLE,
    'endless head',
  );
  assert.equal(scanRequestHead(Buffer.from(`GET /${'a'.repeat(8200)}`, 'latin1')), NOT_SIMPLE, 'endless target');
});

test('a kept-alive 304 block carries the current Date line, refreshed each second', async () => {
  await withTempDir('furni-fast-date-', async (dir) => {
    await writeCorpusFixture(join(dir, 'corpus'), files);
    await withTestServer({ corpus: join(dir, 'corpus'), memoryBudget: 1 << 20 }, async (srv) => {
      const socket = connect(srv.port, '127.0.0.1');
      await new Promise((r) => socket.once('connect', r));
      let got = Buffer.alloc(0);
      socket.on('data', (c: Buffer) => (got = Buffer.concat([got, c])));
      const ask = async (): Promise<Parsed> => {
        got = Buffer.alloc(0);
        socket.write(get('/furni-renders/chair_basic.png', `If-None-Match: ${CHAIR_TAG}\r\n`));
        const until = Date.now() + 5000;
        while (parseResponses(got, ['GET']).length < 1) {
          if (Date.now() > until) throw new Error('no response');
          await new Promise((r) => setTimeout(r, 5));
        }
        return parseResponses(got, ['GET'])[0]!;
      };
      const dates: number[] = [];
      for (let i = 0; i < 3; i++) {
        const before = Math.floor(Date.now() / 1000) * 1000;
        const res = await ask();
        const after = Date.now();
        assert.equal(res.status, 304);
        assert.equal(res.headers['etag'], CHAIR_TAG);
        assert.equal(res.headers['connection'], 'keep-alive');
        assert.equal(res.end, got.length, 'nothing after the 304 head');
        const date = Date.parse(res.headers['date'] ?? '');
        assert.ok(date >= before && date <= after, `Date ${res.headers['date']} is now`);
        dates.push(date);
        await new Promise((r) => setTimeout(r, 1100));
      }
      assert.equal(new Set(dates).size, 3, 'a new Date line each second');
      socket.destroy();
    });
  });
});
