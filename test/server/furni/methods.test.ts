// Methods Node's HTTP parser does not know are still 405 with Allow (spec: every method other than GET,
// HEAD and OPTIONS), on a connection the fast path holds and on one Node's server already owns; real
// garbage stays 400 and an oversized head 431. Over raw TCP, bytes as a client sees them.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { unknownMethodRequest } from '../../../src/server/furni/client-error.js';
import { fakePng } from './fixture.js';
import { CORPUS_BACKENDS, startFixtureServer, tempDir, type TestServer } from './http-helpers.js';

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `data`, reads until the server closes (or 5 s), splits the responses (Content-Length framed). */
function exchange(port: number, data: string | Buffer): Promise<{ replies: Reply[]; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(data));
    const got: Buffer[] = [];
    const timer = setTimeout(() => finish(false), 5000);
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      const all = Buffer.concat(got).toString('latin1');
      const replies: Reply[] = [];
      let off = 0;
      while (off < all.length) {
        const end = all.indexOf('\r\n\r\n', off);
        if (end < 0) break;
        const lines = all.slice(off, end).split('\r\n');
        const headers: Record<string, string> = {};
        for (const l of lines.slice(1))
          headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
        const length = Number(headers['content-length'] ?? 0);
        replies.push({ status: Number(lines[0]!.split(' ')[1]), headers, body: all.slice(end + 4, end + 4 + length) });
        off = end + 4 + length;
      }
      resolve({ replies, closed });
    };
    socket.on('data', (c: Buffer) => got.push(c));
    socket.on('close', () => finish(true));
    socket.on('error', reject);
  });
}

function assert405(r: Reply | undefined, label: string) {
  assert.equal(r?.status, 405, `${label}: status`);
  assert.equal(r!.headers['allow'], 'GET, HEAD, OPTIONS', `${label}: Allow`);
  assert.equal(r!.headers['content-type'], 'text/plain; charset=utf-8', `${label}: type`);
  assert.equal(r!.headers['access-control-allow-origin'], '*', `${label}: CORS`);
  assert.equal(r!.body, 'method not allowed', `${label}: body`);
}

const CHAIR = fakePng(1, 700);

for (const backend of CORPUS_BACKENDS)
  describe(`methods Node does not know (${backend})`, () => {
    let srv: TestServer;
    let tmp: { dir: string; cleanup: () => Promise<void> };
    before(async () => {
      tmp = await tempDir('furni-methods-');
      srv = await startFixtureServer(
        backend,
        tmp.dir,
        { 'furni-renders/chair.png': CHAIR },
        { memoryBudget: 1 << 20, logLevel: 'info' },
      );
    });
    after(async () => {
      await srv.close();
      await tmp.cleanup();
    });

    test('FOO, BREW and others on a fresh connection: 405 with Allow, then the connection closes', async () => {
      for (const line of [
        'FOO /furni-renders/chair.png HTTP/1.1',
        'BREW /pot HTTP/1.1',
        'BREW /furni-renders/nope.png?x=1 HTTP/1.1',
        'WHEN * HTTP/1.1',
        'get /furni-renders/chair.png HTTP/1.1', // methods are case-sensitive: `get` is not GET
        'X-CUSTOM_1 /healthz HTTP/1.1',
      ]) {
        const { replies, closed } = await exchange(srv.port, `${line}\r\nHost: x\r\n\r\n`);
        assert.equal(replies.length, 1, line);
        assert405(replies[0], line);
        assert.equal(replies[0]!.headers['connection'], 'close', line);
        assert.ok(closed, `${line}: closed`);
      }
      // A request line that arrives in pieces is judged on what has come so far.
      const split = await exchange(srv.port, 'FOO /furni-renders/chair.png HT');
      assert405(split.replies[0], 'partial line');
    });

    test('after requests on the same connection: answered in order, then 405 (fast path and Node-owned)', async () => {
      const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;
      // Fast-path connection: two asset requests answered on the socket, then the unknown method.
      const fast = await exchange(
        srv.port,
        get('/furni-renders/chair.png') +
          get('/furni-renders/nope.png') +
          'FOO /furni-renders/chair.png HTTP/1.1\r\nHost: x\r\n\r\n',
      );
      assert.deepEqual(
        fast.replies.map((r) => r.status),
        [200, 404, 405],
      );
      assert.equal(fast.replies[0]!.body, CHAIR.toString('latin1'));
      assert405(fast.replies[2], 'fast path');
      // Node-owned connection (/healthz hands it over; its answer is asynchronous), then an asset on
      // Node's side, then the unknown method: the 405 waits for the answers before it.
      const owned = await exchange(
        srv.port,
        get('/healthz') + get('/furni-renders/chair.png') + 'BREW /pot HTTP/1.1\r\nHost: x\r\n\r\n',
      );
      assert.deepEqual(
        owned.replies.map((r) => r.status),
        [200, 200, 405],
      );
      assert.equal(JSON.parse(owned.replies[0]!.body).status, 'ok');
      assert.equal(owned.replies[1]!.body, CHAIR.toString('latin1'));
      assert405(owned.replies[2], 'Node-owned');
      // The same, in separate writes: a keep-alive connection Node owns meets the method later.
      const later = await exchange(srv.port, get('/version') + 'BREW /pot HTTP/1.1\r\nHost: x\r\n\r\n');
      assert.deepEqual(
        later.replies.map((r) => r.status),
        [200, 405],
      );
    });

    test('each 405 has one request line in the log', async () => {
      const before = srv.requestLines().length;
      await exchange(srv.port, 'BREW /furni-renders/chair.png?q=1 HTTP/1.1\r\nHost: x\r\n\r\n');
      const lines = srv.requestLines().slice(before);
      assert.equal(lines.length, 1);
      assert.equal(lines[0]!.method, 'BREW');
      assert.equal(lines[0]!.path, '/furni-renders/chair.png');
      assert.equal(lines[0]!.status, 405);
      assert.equal(lines[0]!.bytes, 'method not allowed'.length);
    });

    test('garbage is still 400, an oversized head 431, known methods keep their answers', async () => {
      for (const [label, data] of [
        ['TLS hello', Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03])],
        ['words', 'hello world\r\n\r\n'],
        ['no version', 'FOO /x\r\nHost: x\r\n\r\n'],
        ['HTTP/2 preface on an unknown token', 'FOO /x HTTP/2.0\r\n\r\n'],
        ['NUL in the method', 'FO\0O /x HTTP/1.1\r\nHost: x\r\n\r\n'],
        ['bad target', 'FOO x y HTTP/1.1\r\nHost: x\r\n\r\n'],
      ] as const) {
        const { replies, closed } = await exchange(srv.port, data);
        assert.equal(replies[0]?.status, 400, label);
        assert.equal(replies[0]!.body, 'bad request', label);
        assert.ok(closed, `${label}: closed`);
      }
      const big = await exchange(
        srv.port,
        `GET /furni-renders/chair.png HTTP/1.1\r\nHost: x\r\nCookie: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      assert.equal(big.replies[0]?.status, 431);
      const bigFoo = await exchange(
        srv.port,
        `FOO /furni-renders/chair.png HTTP/1.1\r\nHost: x\r\nCookie: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      assert405(bigFoo.replies[0], 'unknown method with a big head: the method is judged first');
      // Methods Node knows go through the router: 405 there too, and the connection stays usable.
      const purge = await exchange(
        srv.port,
        'PURGE /furni-renders/chair.png HTTP/1.1\r\nHost: x\r\n\r\nGET /furni-renders/chair.png HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      );
      assert.deepEqual(
        purge.replies.map((r) => r.status),
        [405, 200],
      );
      assert405(purge.replies[0], 'PURGE');
    });
  });

test('unknownMethodRequest: only a well-formed request line with an unknown token', () => {
  const err = (text: string, at: number) =>
    Object.assign(new Error('x'), {
      code: 'HPE_INVALID_METHOD',
      rawPacket: Buffer.from(text, 'latin1'),
      bytesParsed: at,
    });
  assert.deepEqual(unknownMethodRequest(err('FOO /a HTTP/1.1\r\n\r\n', 1)), { method: 'FOO', target: '/a' });
  assert.deepEqual(unknownMethodRequest(err('GET /x HTTP/1.1\r\nHost: x\r\n\r\nBREW /b?c HTTP/1.1\r\n', 29)), {
    method: 'BREW',
    target: '/b?c',
  });
  assert.deepEqual(unknownMethodRequest(err('FOO http://h/a HTTP/1.1\r\n', 1)), {
    method: 'FOO',
    target: 'http://h/a',
  });
  assert.equal(unknownMethodRequest(err('FOO /a HTTP/1.1\r\n', 1)) !== undefined, true);
  assert.equal(unknownMethodRequest(err('FOO /a HTTX', 1)), undefined);
  assert.equal(unknownMethodRequest(err('\x16\x03\x01', 0)), undefined);
  assert.equal(unknownMethodRequest(err(`${'A'.repeat(65)} /a HTTP/1.1\r\n`, 1)), undefined);
  assert.equal(unknownMethodRequest({ ...err('FOO /a HTTP/1.1\r\n', 1), code: 'HPE_INVALID_HEADER_TOKEN' }), undefined);
});
