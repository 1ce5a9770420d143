// KeyedInflight: one piece of work per key while it is pending, forgotten when it settles either way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyedInflight } from '../../src/util/keyed-inflight.js';

/** A promise settled from outside, and how many times its maker was called. */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every queued microtask and the next macrotask run. */
const settle = () => new Promise<void>((r) => setImmediate(r));

test('asks for one key while its work is pending share one promise and one make', async () => {
  const flights = new KeyedInflight<string>();
  const d = deferred<string>();
  let made = 0;
  const make = () => {
    made++;
    return d.promise;
  };
  const a = flights.run('k', make);
  const b = flights.run('k', make);
  const c = flights.run('k', () => Promise.resolve('another maker is not called'));
  assert.equal(made, 1);
  assert.equal(a, b);
  assert.equal(a, c);
  assert.equal(flights.get('k'), a);
  assert.equal(flights.has('k'), true);
  assert.equal(flights.size, 1);
  d.resolve('v');
  assert.deepEqual(await Promise.all([a, b, c]), ['v', 'v', 'v']);
  assert.equal(made, 1);
});

test('make is called synchronously inside run, before run returns', async () => {
  const flights = new KeyedInflight<number>();
  const order: string[] = [];
  const p = flights.run('k', () => {
    order.push('make');
    return Promise.resolve(1);
  });
  order.push('after run');
  assert.deepEqual(order, ['make', 'after run']);
  assert.equal(await p, 1);
});

test('forgotten after it resolves: the next run starts afresh', async () => {
  const flights = new KeyedInflight<number>();
  let made = 0;
  const first = await flights.run('k', async () => ++made);
  assert.equal(first, 1);
  assert.equal(flights.has('k'), false);
  assert.equal(flights.get('k'), undefined);
  assert.equal(flights.size, 0);
  const second = await flights.run('k', async () => ++made);
  assert.equal(second, 2);
  assert.equal(made, 2);
  assert.equal(flights.size, 0);
});

test('forgotten after it rejects: every joiner sees the one error, and the next run starts afresh', async () => {
  const flights = new KeyedInflight<string>();
  const d = deferred<string>();
  let made = 0;
  const make = () => {
    made++;
    return d.promise;
  };
  const a = flights.run('k', make);
  const b = flights.run('k', make);
  const boom = new Error('boom');
  d.reject(boom);
  const errors = await Promise.all(
    [a, b].map((p) =>
      p.then(
        () => assert.fail('resolved'),
        (e: unknown) => e,
      ),
    ),
  );
  assert.equal(errors[0], boom);
  assert.equal(errors[1], boom);
  assert.equal(made, 1);
  assert.equal(flights.has('k'), false);
  assert.equal(flights.size, 0);
  assert.equal(await flights.run('k', async () => 'again'), 'again');
  assert.equal(flights.size, 0);
});

test('a caller resumes after the key is forgotten: a retry in its continuation is a new run', async () => {
  const flights = new KeyedInflight<string>();
  let made = 0;
  const ok = deferred<string>();
  const seen: { has: boolean; size: number }[] = [];
  const joiner = flights.run('k', () => {
    made++;
    return ok.promise;
  });
  const watched = joiner.then(() => seen.push({ has: flights.has('k'), size: flights.size }));
  ok.resolve('v');
  await watched;
  assert.deepEqual(seen, [{ has: false, size: 0 }]);

  const bad = deferred<string>();
  const failing = flights.run('k', () => {
    made++;
    return bad.promise;
  });
  const retried = failing.catch(() =>
    flights.run('k', async () => {
      made++;
      return 'retried';
    }),
  );
  bad.reject(new Error('first try'));
  assert.equal(await retried, 'retried');
  assert.equal(made, 3);
  assert.equal(flights.size, 0);
});

test('a make that throws synchronously: a rejected promise, nothing remembered, the next run starts afresh', async () => {
  const flights = new KeyedInflight<string>();
  const boom = new Error('sync');
  let p: Promise<string> | undefined;
  assert.doesNotThrow(() => {
    p = flights.run('k', () => {
      throw boom;
    });
  });
  assert.equal(flights.has('k'), false);
  assert.equal(flights.size, 0);
  await assert.rejects(p as Promise<string>, (e) => e === boom);
  assert.equal(await flights.run('k', async () => 'fresh'), 'fresh');
});

test('an already settled promise from make is still shared until it is seen to settle, then forgotten', async () => {
  const flights = new KeyedInflight<string>();
  let made = 0;
  const make = () => {
    made++;
    return Promise.resolve('done');
  };
  const a = flights.run('k', make);
  const b = flights.run('k', make);
  assert.equal(a, b);
  assert.equal(made, 1);
  assert.equal(await a, 'done');
  assert.equal(flights.has('k'), false);
  const rejected = flights.run('r', () => Promise.reject(new Error('at once')));
  assert.equal(flights.has('r'), true);
  await assert.rejects(rejected, /at once/);
  assert.equal(flights.has('r'), false);
});

test('different keys run concurrently and settle independently', async () => {
  const flights = new KeyedInflight<string>();
  const a = deferred<string>();
  const b = deferred<string>();
  const c = deferred<string>();
  const made: string[] = [];
  /** A maker that notes its key. */
  const maker = (key: string, p: Promise<string>) => () => {
    made.push(key);
    return p;
  };
  const pa = flights.run('a', maker('a', a.promise));
  const pb = flights.run('b', maker('b', b.promise));
  const pc = flights.run('c', maker('c', c.promise));
  assert.deepEqual(made, ['a', 'b', 'c']);
  assert.equal(flights.size, 3);
  assert.notEqual(pa, pb);

  b.reject(new Error('b failed'));
  await assert.rejects(pb, /b failed/);
  assert.equal(flights.size, 2);
  assert.equal(flights.has('a'), true);
  assert.equal(flights.has('b'), false);
  assert.equal(flights.has('c'), true);
  // The pending keys are still joined, the settled one starts again.
  assert.equal(
    flights.run('a', () => assert.fail('a is pending')),
    pa,
  );
  const pb2 = flights.run('b', maker('b', Promise.resolve('b again')));
  assert.deepEqual(made, ['a', 'b', 'c', 'b']);

  c.resolve('c');
  a.resolve('a');
  assert.deepEqual(await Promise.all([pa, pb2, pc]), ['a', 'b again', 'c']);
  assert.equal(flights.size, 0);
});

test('two helpers do not share keys', async () => {
  const one = new KeyedInflight<string>();
  const two = new KeyedInflight<string>();
  const d = deferred<string>();
  const p1 = one.run('k', () => d.promise);
  const p2 = two.run('k', async () => 'two');
  assert.notEqual(p1, p2);
  assert.equal(await p2, 'two');
  assert.equal(one.has('k'), true);
  d.resolve('one');
  assert.equal(await p1, 'one');
});

test('a rejection handled by the caller leaves no unhandled rejection behind', async () => {
  const unhandled: unknown[] = [];
  const listener = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', listener);
  try {
    const flights = new KeyedInflight<string>();
    const d = deferred<string>();
    const p = flights.run('k', () => d.promise);
    d.reject(new Error('handled'));
    await assert.rejects(p, /handled/);
    await assert.rejects(
      flights.run('s', () => {
        throw new Error('sync handled');
      }),
      /sync handled/,
    );
    await settle();
    await settle();
    assert.deepEqual(unhandled, []);
  } finally {
    process.off('unhandledRejection', listener);
  }
});
