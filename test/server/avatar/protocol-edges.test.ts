// Protocol edges of the avatar service over raw TCP (bytes as a client sends and sees them): a request
// followed at once by the client's FIN is answered even when it needs a render; CONNECT is 405; and on
// the avatar route the method alone decides — a body of any type or size never changes the answer.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSampleKit } from '../../../src/samplekit/index.js';
import { startAvatarService, type AvatarServiceInstance } from '../../../src/server/avatar/index.js';
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
    const piped = await exchange(port, head('GET', cached) + head('GET', coldUrl()) + head('GET', coldUrl()) + head('GET', '/healthz'), { halfClose: true });
    assert.deepEqual(piped.replies.map((r) => r.status), [200, 200, 200, 200]);
    assertImage(piped.replies[0], 'cached');
    assert.equal(piped.replies[0]!.headers['x-imager-cache'], 'memory');
    assertImage(piped.replies[1], 'second render');
    assertImage(piped.replies[2], 'third render');
    assert.equal(JSON.parse(piped.replies[3]!.body.toString()).ok, true);
    assert.ok(piped.closed);
  });

  test('CONNECT is 405 with Allow and CORS; the tunnel is never opened', async () => {
    const { replies, closed } = await exchange(port, head('CONNECT', 'example.com:443') + head('GET', coldUrl()));
    assert.equal(replies.length, 1, 'bytes after CONNECT are not taken as a request');
    assert405(replies[0], 'CONNECT');
    assert.equal(replies[0]!.headers['connection'], 'close');
    assert.ok(closed);
    const kept = await exchange(port, head('GET', '/version') + head('CONNECT', 'example.com:443'));
    assert.deepEqual(kept.replies.map((r) => r.status), [200, 405]);
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
          const bytes = `${method} ${path} HTTP/1.1\r\nHost: x\r\nAccess-Control-Request-Headers: if-none-match\r\n${rest.includes('\r\n\r\n') ? rest : rest + '\r\n'}` + head('GET', path.includes('?') ? path : `${path}?figure=${FIG}`, 'Connection: close\r\n');
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
    const post = await exchange(port, `POST /avatar.png HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\nConnection: close\r\n\r\n${big}`);
    assert405(post.replies[0], 'POST with 3 MiB');
    const get = await exchange(port, `GET /avatar.png?figure=${FIG}&size=s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4\r\nConnection: close\r\n\r\n{bad`);
    assertImage(get.replies[0], 'GET with a body');
  });
});
