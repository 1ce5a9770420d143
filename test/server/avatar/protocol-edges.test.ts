// Protocol edges of the avatar service over raw TCP (bytes as a client sends and sees them): a request
// followed at once by the client's FIN is answered even when it needs a render; CONNECT is 405; and on
// the avatar route the method alone decides — a body of any type or size never changes the answer.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSampleKit } from '../../../src/samplekit/index.js';
import { startAvatarService, type AvatarServiceInstance } from '../../../src/server/imager.js';
import { deadBase, testAvatarConfig } from './fixtures.js';
import { exchange, type RawReply } from '../raw-exchange.js';

const FIG = 'hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function head(method: string, target: string, extra = ''): string {
  return `${method} ${target} HTTP/1.1\r\nHost: x\r\n${extra}\r\n`;
}

function assertImage(r: RawReply | undefined, label: string): void {
  assert.equal(r?.status, 200, `${label}: status`);
  assert.equal(r!.headers['content-type'], 'image/png', `${label}: type`);
  assert.deepEqual(r!.body.subarray(0, 8), PNG_SIGNATURE, `${label}: a PNG`);
  assert.equal(r!.body.length, Number(r!.headers['content-length']), `${label}: whole body`);
}

function assert405(r: RawReply | undefined, label: string): void {
  assert.equal(r?.status, 405, `${label}: status`);
  assert.equal(r!.headers['allow'], 'GET, HEAD, OPTIONS', `${label}: Allow`);
  assert.equal(r!.headers['access-control-allow-origin'], '*', `${label}: CORS`);
  assert.equal(r!.headers['content-type'], 'text/plain; charset=utf-8', `${label}: type`);
  assert.equal(r!.body.toString(), 'method not allowed\n', `${label}: body`);
}

describe('avatar protocol edges', () => {
  let scratch: string;
  let svc: AvatarServiceInstance & { url: string };
  let port: number;
  let direction = 0;
  /** A URL no earlier request used: its answer needs a render. */
  const coldUrl = () => `/avatar.png?figure=${FIG}&size=s&edge=${direction++}`;

  before(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'avatar-edges-'));
    const kit = join(scratch, 'kit');
    await ensureSampleKit(kit);
    svc = await startAvatarService(testAvatarConfig(kit, await deadBase()));
    port = Number(new URL(svc.url).port);
  });

  after(async () => {
    await svc.close();
    await rm(scratch, { recursive: true, force: true });
  });

  test('FIN right after an uncached render request: the image still comes, then the connection closes', async () => {
    const renders = svc.service.stats().renders;
    const { replies, closed } = await exchange(port, head('GET', coldUrl()), { halfClose: true });
    assert.equal(replies.length, 1);
    assertImage(replies[0], 'cold');
    assert.equal(replies[0]!.headers['x-imager-cache'], 'render');
    assert.equal(svc.service.stats().renders, renders + 1);
    assert.ok(closed);
    // Pipelined: a cached answer, two renders and /healthz, then the FIN: all answered, in order.
    const cached = `/avatar.png?figure=${FIG}&size=s&edge=0`;
    const piped = await exchange(
      port,
      head('GET', cached) + head('GET', coldUrl()) + head('GET', coldUrl()) + head('GET', '/healthz'),
      { halfClose: true },
    );
    assert.deepEqual(
      piped.replies.map((r) => r.status),
      [200, 200, 200, 200],
    );
    assertImage(piped.replies[0], 'cached');
    assert.equal(piped.replies[0]!.headers['x-imager-cache'], 'memory');
    assertImage(piped.replies[1], 'second render');
    assertImage(piped.replies[2], 'third render');
    assert.equal(JSON.parse(piped.replies[3]!.body.toString()).status, 'ok');
    assert.ok(piped.closed);
  });

  test('CONNECT is 405 with Allow and CORS; the tunnel is never opened', async () => {
    const { replies, closed } = await exchange(port, head('CONNECT', 'example.com:443') + head('GET', coldUrl()));
    assert.equal(replies.length, 1, 'bytes after CONNECT are not taken as a request');
    assert405(replies[0], 'CONNECT');
    assert.equal(replies[0]!.headers['connection'], 'close');
    assert.ok(closed);
    const kept = await exchange(port, head('GET', '/version') + head('CONNECT', 'example.com:443'));
    assert.deepEqual(
      kept.replies.map((r) => r.status),
      [200, 405],
    );
  });

  test('POST, PUT, DELETE, PATCH with any body are 405 exactly as without one; OPTIONS is the 204 preflight', async () => {
    const bodies: [string, string][] = [
      ['none', ''],
      ['empty JSON', 'Content-Type: application/json\r\nContent-Length: 0\r\n'],
      ['broken JSON', 'Content-Type: application/json\r\nContent-Length: 4\r\n\r\n{bad'],
      ['valid JSON', 'Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}'],
      ['unknown type', 'Content-Type: application/x-hotel\r\nContent-Length: 3\r\n\r\nabc'],
      ['form', 'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 7\r\n\r\nfigure='],
      ['chunked', 'Content-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n'],
    ];
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      for (const path of [`/avatar.png?figure=${FIG}`, '/avatar']) {
        for (const [label, rest] of bodies) {
          // The head's last line break comes with the body part (or alone for no body); then a GET on the same connection.
          const bytes =
            `${method} ${path} HTTP/1.1\r\nHost: x\r\nAccess-Control-Request-Headers: if-none-match\r\n${rest.includes('\r\n\r\n') ? rest : rest + '\r\n'}` +
            head('GET', path.includes('?') ? path : `${path}?figure=${FIG}`, 'Connection: close\r\n');
          const { replies } = await exchange(port, bytes);
          const what = `${method} ${path} with ${label}`;
          if (method === 'OPTIONS') {
            assert.equal(replies[0]?.status, 204, `${what}: status`);
            assert.equal(replies[0]!.headers['access-control-allow-origin'], '*', `${what}: CORS`);
            assert.equal(replies[0]!.headers['access-control-allow-methods'], 'GET, HEAD, OPTIONS', `${what}: methods`);
            assert.equal(replies[0]!.headers['access-control-allow-headers'], 'if-none-match', `${what}: headers`);
          } else {
            assert405(replies[0], what);
          }
          // The body was passed over, not taken for the next request: the GET after it gets its image.
          assertImage(replies[1], `${what}: the next request`);
        }
      }
    }
  });

  test('a body larger than any body limit changes nothing either; GET with a body still gets its image', async () => {
    const big = 'x'.repeat(3 * 1024 * 1024);
    const post = await exchange(
      port,
      `POST /avatar.png HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\nConnection: close\r\n\r\n${big}`,
    );
    assert405(post.replies[0], 'POST with 3 MiB');
    const get = await exchange(
      port,
      `GET /avatar.png?figure=${FIG}&size=s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4\r\nConnection: close\r\n\r\n{bad`,
    );
    assertImage(get.replies[0], 'GET with a body');
  });

  /** The head lines of every response in `raw` but Date (which moves with the clock), and their bodies; `sent`: the requests. */
  const responses = (raw: Buffer, sent: string[] = []): { head: string[]; body: Buffer }[] => {
    const out: { head: string[]; body: Buffer }[] = [];
    let off = 0;
    while (off < raw.length) {
      const end = raw.indexOf('\r\n\r\n', off, 'latin1');
      if (end < 0) break;
      const head = raw
        .toString('latin1', off, end)
        .split('\r\n')
        .filter((l) => !l.startsWith('Date: '));
      const length = Number(head.find((l) => l.toLowerCase().startsWith('content-length:'))?.split(':')[1] ?? 0);
      const isHead = sent[out.length]?.startsWith('HEAD') ?? false;
      out.push({ head, body: raw.subarray(end + 4, end + 4 + (isHead ? 0 : length)) });
      off = end + 4 + (isHead ? 0 : length);
    }
    return out;
  };
  test("the socket-level fast path and Node's handler give the same bytes: images from memory, 304, HEAD, 400, 302, classic paths", async () => {
    const warm = `/avatar.png?figure=${FIG}&size=m&direction=3`;
    const first = await exchange(port, head('GET', warm), { halfClose: true });
    const etag = responses(first.raw)[0]!
      .head.find((l) => l.startsWith('etag: '))!
      .slice(6);
    await exchange(port, head('GET', `/habbo-imaging/avatarimage.gif?figure=${FIG}&size=m&direction=3`), {
      halfClose: true,
    });
    const heads = [
      head('GET', warm),
      head('HEAD', warm),
      head('GET', warm, `If-None-Match: ${etag}\r\n`),
      head('GET', warm, 'If-None-Match: "other"\r\n'),
      head('GET', `/habbo-imaging/avatarimage.gif?figure=${FIG}&size=m&direction=3`),
      head('GET', '/avatar.png?user=Nobody&size=m'),
      head('GET', '/avatar.png'),
    ];
    // A connection is the fast path's while its requests are plain GET/HEAD on the avatar paths; an
    // OPTIONS first hands it to Node, whose handler then answers the same requests.
    let byNode = 0;
    const count = () => byNode++;
    svc.app.server.on('request', count);
    const fast = responses((await exchange(port, heads.join(''), { halfClose: true })).raw, heads);
    assert.equal(byNode, 0, "none of them reached Node's handler");
    const preflight = head('OPTIONS', warm);
    const node = responses((await exchange(port, preflight + heads.join(''), { halfClose: true })).raw, [
      preflight,
      ...heads,
    ]).slice(1);
    assert.equal(byNode, heads.length + 1, 'after the OPTIONS, Node answered them all');
    svc.app.server.off('request', count);
    assert.equal(fast.length, heads.length, 'every request answered on the fast path');
    assert.equal(node.length, heads.length, 'every request answered by Node');
    heads.forEach((h, i) => {
      const label = h.split('\r\n')[0]!;
      assert.deepEqual(fast[i]!.head, node[i]!.head, `${label}: head`);
      assert.deepEqual(fast[i]!.body, node[i]!.body, `${label}: body`);
    });
    assert.deepEqual(
      fast.map((r) => r.head[0]),
      [
        'HTTP/1.1 200 OK',
        'HTTP/1.1 200 OK',
        'HTTP/1.1 304 Not Modified',
        'HTTP/1.1 200 OK',
        'HTTP/1.1 200 OK',
        'HTTP/1.1 302 Found',
        'HTTP/1.1 400 Bad Request',
      ],
    );
  });

  test('fast path: pipelined renders and memory hits are answered in order on one connection, then the FIN closes it', async () => {
    const cold = [coldUrl(), coldUrl()].map((u) =>
      u.replace('size=s', 'size=m').replace(/edge=(\d+)/, (_m, n) => `direction=${Number(n) % 8}&edge=${n}`),
    );
    const warm = `/avatar.png?figure=${FIG}&size=m&direction=3`;
    const targets = [cold[0]!, warm, cold[1]!, warm];
    const heads = targets.map((t) => head('GET', t));
    const { raw, closed } = await exchange(port, heads.join(''), { halfClose: true });
    const got = responses(raw, heads);
    assert.equal(closed, true);
    assert.deepEqual(
      got.map((r) => r.head[0]),
      targets.map(() => 'HTTP/1.1 200 OK'),
    );
    assert.deepEqual(
      got.map((r) => r.head.find((l) => l.startsWith('x-imager-cache: '))),
      ['x-imager-cache: render', 'x-imager-cache: memory', 'x-imager-cache: render', 'x-imager-cache: memory'],
    );
    for (const r of got) assert.deepEqual(r.body.subarray(0, 8), PNG_SIGNATURE);
  });

  test('fast path: an answer that throws is a 500 for that request, and the service goes on', async () => {
    const warm = `/avatar.png?figure=${FIG}&size=m&direction=3`;
    await exchange(port, head('GET', warm), { halfClose: true });
    const service = svc.service as unknown as { memoryImage: (key: string) => unknown };
    const real = service.memoryImage;
    service.memoryImage = () => {
      throw new Error('a bug');
    };
    try {
      const { raw } = await exchange(port, head('GET', warm), { halfClose: true });
      const [r] = responses(raw);
      assert.equal(r!.head[0], 'HTTP/1.1 500 Internal Server Error');
      assert.ok(r!.head.includes('access-control-allow-origin: *'));
      assert.equal(r!.body.toString(), 'internal error\n');
    } finally {
      service.memoryImage = real;
    }
    const { replies } = await exchange(port, head('GET', warm), { halfClose: true });
    assertImage(replies[0], 'after the failure');
  });
});
