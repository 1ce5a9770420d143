// The socket fast path's keep-alive timer closes idle connections only: an answer slower than the timeout
// (a render on a loaded machine) is still written on its connection, and the connection then stays usable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { headBlock, installFastPath } from '../../src/http/fast-path.js';

function startServer(answerDelayMs: number, keepAliveMs: number) {
  const server = createServer((_req, res) => res.end('node\n'));
  const body = Buffer.from('slow\n');
  const fast = installFastPath(server, {
    claims: (target) => target.startsWith('/slow'),
    answer: () =>
      new Promise((resolve) =>
        setTimeout(
          () =>
            resolve({
              status: 200,
              head: headBlock('200 OK', { 'content-type': 'text/plain', 'content-length': String(body.length) }),
              body,
              cache: null,
            }),
          answerDelayMs,
        ),
      ),
    done: () => {},
    nextId: () => 'r',
    trustProxy: false,
    keepAliveMs,
    onError: () => {},
  });
  return new Promise<{ port: number; close: () => Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      resolve({
        port,
        close: () => {
          fast.close();
          return new Promise((r) => server.close(() => r()));
        },
      });
    });
  });
}

/** Sends each request on one connection, waiting for each whole answer; returns the raw answers. */
async function onOneConnection(port: number, paths: string[]): Promise<{ answers: string[]; closedEarly: boolean }> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  const answers: string[] = [];
  let buffered = '';
  let closedEarly = false;
  socket.on('close', () => {
    if (answers.length < paths.length) closedEarly = true;
  });
  for (const path of paths) {
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
    const answer = await new Promise<string | null>((resolve) => {
      const onData = (chunk: Buffer) => {
        buffered += chunk.toString('latin1');
        const end = buffered.indexOf('\r\n\r\n');
        const length = /content-length: (\d+)/i.exec(buffered);
        if (end >= 0 && length && buffered.length >= end + 4 + Number(length[1])) {
          const whole = buffered.slice(0, end + 4 + Number(length[1]));
          buffered = buffered.slice(whole.length);
          socket.off('data', onData);
          resolve(whole);
        }
      };
      socket.on('data', onData);
      socket.once('close', () => resolve(null));
    });
    if (answer === null) break;
    answers.push(answer);
  }
  socket.destroy();
  return { answers, closedEarly };
}

test('an answer slower than the keep-alive timeout is written, and the connection stays open for the next request', async () => {
  const s = await startServer(600, 200);
  try {
    const { answers, closedEarly } = await onOneConnection(s.port, ['/slow/1', '/slow/2']);
    assert.equal(closedEarly, false);
    assert.equal(answers.length, 2);
    for (const a of answers) {
      assert.match(a, /^HTTP\/1\.1 200 OK\r\n/);
      assert.match(a, /\r\n\r\nslow\n$/);
    }
  } finally {
    await s.close();
  }
});

test('an idle kept-alive connection is still closed after the keep-alive timeout', async () => {
  const s = await startServer(0, 200);
  try {
    const socket = connect(s.port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write('GET /slow/1 HTTP/1.1\r\nHost: x\r\n\r\n');
    const started = Date.now();
    socket.resume(); // read the answer, so the close is seen
    await new Promise((r) => socket.once('close', r));
    const idle = Date.now() - started;
    assert.ok(idle >= 150 && idle < 2000, `closed after ${idle} ms (keep-alive 200 ms)`);
  } finally {
    await s.close();
  }
});
