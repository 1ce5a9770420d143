// Protocol edges of the furni service over raw TCP: a complete request followed at once by the client's
// FIN (half-close) is still answered when the answer is asynchronous, and CONNECT is 405 like every
// other method besides GET, HEAD and OPTIONS (contract F4), not a dropped connection.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fakePng } from './fixture.js';
import { CORPUS_BACKENDS, startFixtureServer, tempDir, type TestServer } from './http-helpers.js';
import { exchange } from '../raw-exchange.js';

const CHAIR = fakePng(1, 700);

for (const backend of CORPUS_BACKENDS)
  describe(`furni protocol edges (${backend})`, () => {
    let srv: TestServer;
    let tmp: { dir: string; cleanup: () => Promise<void> };
    before(async () => {
      tmp = await tempDir('furni-edges-');
      // No memory budget: every asset body is read from storage, so every asset answer is asynchronous.
      srv = await startFixtureServer(
        backend,
        tmp.dir,
        { 'furni-renders/chair.png': CHAIR },
        { memoryBudget: 0, logLevel: 'info' },
      );
    });
    after(async () => {
      await srv.close();
      await tmp.cleanup();
    });

    test('FIN right after GET /healthz: the 200 still comes, then the connection closes', async () => {
      const { replies, closed } = await exchange(srv.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', {
        halfClose: true,
      });
      assert.equal(replies.length, 1);
      assert.equal(replies[0]!.status, 200);
      assert.equal(JSON.parse(replies[0]!.body.toString()).status, 'ok');
      assert.ok(closed);
    });

    test('FIN after asset requests Node parses (HTTP/1.0, a body on GET) that need a disk read', async () => {
      const http10 = await exchange(srv.port, 'GET /furni-renders/chair.png HTTP/1.0\r\n\r\n', { halfClose: true });
      assert.equal(http10.replies[0]?.status, 200, 'HTTP/1.0');
      assert.deepEqual(http10.replies[0]!.body, CHAIR);
      const withBody = await exchange(
        srv.port,
        'GET /furni-renders/chair.png HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc',
        { halfClose: true },
      );
      assert.equal(withBody.replies[0]?.status, 200, 'GET with a body');
      assert.deepEqual(withBody.replies[0]!.body, CHAIR);
      // Several pipelined requests before the FIN: every one is answered, in order.
      const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;
      const piped = await exchange(srv.port, get('/version') + 'GET /furni-renders/chair.png HTTP/1.0\r\n\r\n', {
        halfClose: true,
      });
      assert.deepEqual(
        piped.replies.map((r) => r.status),
        [200, 200],
      );
      // The fast path on its own answered FINs before this fix; it still does.
      const fast = await exchange(srv.port, get('/furni-renders/chair.png') + get('/furni-renders/nope.png'), {
        halfClose: true,
      });
      assert.deepEqual(
        fast.replies.map((r) => r.status),
        [200, 404],
      );
    });

    test('CONNECT is 405 with Allow and CORS, logged, and the tunnel is never opened', async () => {
      const before = srv.requestLines().length;
      const { replies, closed, raw } = await exchange(
        srv.port,
        'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n',
      );
      assert.equal(replies.length, 1, 'nothing after the 405: bytes after CONNECT are not treated as requests');
      const r = replies[0]!;
      assert.equal(r.status, 405);
      assert.equal(r.headers['allow'], 'GET, HEAD, OPTIONS');
      assert.equal(r.headers['access-control-allow-origin'], '*');
      assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
      assert.equal(r.body.toString(), 'method not allowed');
      assert.equal(r.headers['connection'], 'close');
      assert.ok(closed);
      assert.match(raw.toString('latin1'), /^HTTP\/1\.1 405 Method Not Allowed\r\n/);
      const lines = srv.requestLines().slice(before);
      assert.deepEqual(
        lines.map((l) => [l.method, l.status]),
        [['CONNECT', 405]],
      );
      // After a request on a kept-alive connection, too (the connection Node already owns).
      const afterGet = await exchange(
        srv.port,
        'GET /version HTTP/1.1\r\nHost: x\r\n\r\nCONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
      );
      assert.deepEqual(
        afterGet.replies.map((x) => x.status),
        [200, 405],
      );
    });
  });
