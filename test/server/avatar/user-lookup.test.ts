// Username → figure against a real local HTTP server standing in for the hotel's public user API:
// found, unknown (404), slow (timeout), down (connection refused); plus the positive and negative caches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type RequestListener } from 'node:http';
import { type AddressInfo } from 'node:net';
import { UserLookup, DEFAULT_USER_LOOKUP } from '../../../src/core/avatar/user-lookup.js';
import { deadBase, startFakeUserApi } from './fixtures.js';

test('found: the figureString, cached (case-insensitively) for the next ask', async () => {
  const api = await startFakeUserApi({ Bob: 'hd-180-1.ch-210-66' });
  try {
    const users = new UserLookup({ ...DEFAULT_USER_LOOKUP, apiBase: api.base });
    const first = await users.resolve('Bob');
    assert.deepEqual(first, { ok: true, figure: 'hd-180-1.ch-210-66', cached: false });
    const again = await users.resolve('bob');
    assert.deepEqual(again, { ok: true, figure: 'hd-180-1.ch-210-66', cached: true });
    assert.deepEqual(api.hits, ['Bob']);
  } finally {
    await api.close();
  }
});

test('concurrent asks for one name make one request', async () => {
  const api = await startFakeUserApi({ carol: 'hd-185-2' }, { slowMs: 50 });
  try {
    const users = new UserLookup({ ...DEFAULT_USER_LOOKUP, apiBase: api.base });
    const all = await Promise.all([1, 2, 3, 4].map(() => users.resolve('carol')));
    assert.ok(all.every((r) => r.ok && r.figure === 'hd-185-2'));
    assert.equal(api.hits.length, 1);
  } finally {
    await api.close();
  }
});

test('unknown name (404): unresolved, and remembered for the negative TTL only', async () => {
  const api = await startFakeUserApi({});
  try {
    const users = new UserLookup({ ...DEFAULT_USER_LOOKUP, apiBase: api.base, negativeTtlMs: 1500 });
    const r = await users.resolve('nobody');
    assert.equal(r.ok, false);
    if (!r.ok) assert.equal(r.reason, 'unknown');
    const cached = await users.resolve('nobody');
    assert.equal(cached.cached, true);
    assert.equal(api.hits.length, 1);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    await users.resolve('nobody');
    assert.equal(api.hits.length, 2, 'asked again once the negative entry expired');
  } finally {
    await api.close();
  }
});

test('slow API: times out instead of hanging', async () => {
  const api = await startFakeUserApi({ dave: 'hd-180-1' }, { slowMs: 5000 });
  try {
    const users = new UserLookup({ ...DEFAULT_USER_LOOKUP, apiBase: api.base, timeoutMs: 100 });
    const started = Date.now();
    const r = await users.resolve('dave');
    assert.equal(r.ok, false);
    if (!r.ok) assert.equal(r.reason, 'timeout');
    assert.ok(Date.now() - started < 4000, 'gave up long before the API answered');
  } finally {
    await api.close();
  }
});

/** A user API that misbehaves in one of the ways a real one can: never answers, or trickles its body. */
async function stallingApi(
  kind: 'silent' | 'trickle' | 'headers-then-silent',
): Promise<{ base: string; close(): Promise<void> }> {
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((_req, res) => {
    if (kind === 'silent') return; // accepts the request, never sends a byte
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders();
    if (kind === 'headers-then-silent') return;
    // One byte of a valid answer every 100 ms: complete only after ~5 s.
    const body = JSON.stringify({ name: 'x', figureString: 'hd-180-1', motto: ' '.repeat(20) });
    let at = 0;
    const tick = setInterval(() => {
      if (at >= body.length) {
        clearInterval(tick);
        res.end();
      } else res.write(body[at++]);
    }, 100);
    timers.add(tick);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearInterval(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

test('the default timeout leaves room for the render: a lookup gives up within 1.5 s', () => {
  assert.ok(DEFAULT_USER_LOOKUP.timeoutMs <= 1500, `${DEFAULT_USER_LOOKUP.timeoutMs} ms`);
});

test('whatever the API does (no answer, headers then nothing, a body trickling in), the lookup ends at its timeout', async () => {
  for (const kind of ['silent', 'headers-then-silent', 'trickle'] as const) {
    const api = await stallingApi(kind);
    try {
      const users = new UserLookup({ ...DEFAULT_USER_LOOKUP, apiBase: api.base, timeoutMs: 300 });
      const started = performance.now();
      const r = await users.resolve('x');
      const took = performance.now() - started;
      assert.equal(r.ok, false, kind);
      if (!r.ok) assert.equal(r.reason, 'timeout', kind);
      // The API would take 5 s or forever; the lookup ends at its own 300 ms (loose bound for a busy machine).
      assert.ok(took < 1500, `${kind}: ${Math.round(took)} ms`);
    } finally {
      await api.close();
    }
  }
});

/** A user API answering every request with `handler`: the lookup of one name through it. */
async function resolveThrough(handler: RequestListener) {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const users = new UserLookup({
      ...DEFAULT_USER_LOOKUP,
      apiBase: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    });
    return await users.resolve('x');
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

test('an answer body over 64 KiB is refused without reading it all', async () => {
  const r = await resolveThrough((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ figureString: 'hd-180-1', motto: 'x'.repeat(200_000) }));
  });
  assert.equal(r.ok, false);
  if (!r.ok) assert.equal(r.reason, 'bad-response');
});

test('the name cache is bounded in bytes: long figures take more room than short ones', async () => {
  const long = 'hd-180-1.' + 'ch-210-66.'.repeat(300);
  const api = await startFakeUserApi(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`u${i}`, long])));
  try {
    const users = new UserLookup({ ...DEFAULT_USER_LOOKUP, apiBase: api.base, maxBytes: 64 * 1024 });
    for (let i = 0; i < 40; i++) assert.equal((await users.resolve(`u${i}`)).ok, true);
    const st = users.stats();
    assert.ok(st.bytes <= 64 * 1024, `${st.bytes} bytes held`);
    assert.ok(st.entries < 40 && st.entries >= 5, `${st.entries} names kept of 40 (each ~6 KB)`);
    assert.ok(st.bytes >= st.entries * long.length, 'each entry counts at least its figure');
  } finally {
    await api.close();
  }
});

test('API down (connection refused): unreachable', async () => {
  const users = new UserLookup({ ...DEFAULT_USER_LOOKUP, apiBase: await deadBase() });
  const r = await users.resolve('erin');
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.reason, 'unreachable');
    assert.match(r.detail, /ECONNREFUSED/);
  }
});

test('an answer without a usable figureString is a bad response', async () => {
  const r = await resolveThrough((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"x"}'),
  );
  assert.equal(r.ok, false);
  if (!r.ok) assert.equal(r.reason, 'bad-response');
});

test('a source that throws fails that ask only: the name is not held in flight, the next ask asks again', async () => {
  let calls = 0;
  const users = new UserLookup({
    ...DEFAULT_USER_LOOKUP,
    apiBase: 'http://unused.invalid',
    source: {
      async find() {
        calls++;
        if (calls === 1) throw new Error('source bug');
        return { ok: true, figure: 'hd-180-1' };
      },
    },
  });
  await assert.rejects(Promise.all([users.resolve('Frank'), users.resolve('frank')]), /source bug/);
  assert.equal(users.stats().inFlight, 0);
  assert.deepEqual(await users.resolve('frank'), { ok: true, figure: 'hd-180-1', cached: false });
  assert.equal(calls, 2);
});
