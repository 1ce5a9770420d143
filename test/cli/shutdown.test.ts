// Ctrl-C with several services in one process (`npm start`): the process exits only after every
// service has closed, so the avatar service's background disk-cache writes are not cut off by the
// furni service finishing first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { stopOnSignals } from '../../src/cli/shutdown.js';

const tick = () => new Promise((r) => setImmediate(r));

test('exit waits for the slowest service, once, with 0 when all closed', async () => {
  const signals = new EventEmitter();
  const exits: number[] = [];
  let fastClosed = false;
  let releaseSlow!: () => void;
  const slow = new Promise<void>((r) => (releaseSlow = r));
  stopOnSignals(
    [
      async () => {
        fastClosed = true;
      },
      () => slow,
    ],
    signals,
    (code) => exits.push(code),
  );
  signals.emit('SIGINT');
  await tick();
  assert.equal(fastClosed, true);
  assert.deepEqual(exits, [], 'no exit while a service is still closing');
  signals.emit('SIGTERM');
  releaseSlow();
  await tick();
  await tick();
  assert.deepEqual(exits, [0]);
  assert.equal(signals.listenerCount('SIGINT'), 0, 'a second Ctrl-C falls to the default: ends the process at once');
});

test('a service that fails to close: exit 1 after the others closed', async () => {
  const signals = new EventEmitter();
  const exits: number[] = [];
  let otherClosed = false;
  stopOnSignals(
    [
      async () => {
        throw new Error('boom');
      },
      async () => {
        await tick();
        otherClosed = true;
      },
    ],
    signals,
    (code) => exits.push(code),
  );
  signals.emit('SIGTERM');
  for (let i = 0; i < 4; i++) await tick();
  assert.equal(otherClosed, true);
  assert.deepEqual(exits, [1]);
});

test('under npm, the service stops when npm or the shell between goes; started otherwise nothing is watched', async () => {
  const { stopWithLauncher } = await import('../../src/cli/shutdown.js');
  const alive = new Set([100, 50, 1]);
  const probe = {
    ppid: () => (alive.has(100) ? 100 : 1),
    parentOf: (pid: number) => (({ 100: 50, 50: 1 }) as Record<number, number>)[pid],
    commandOf: (pid: number) =>
      (
        ({
          100: ['sh', '-c', 'hotel-imager', 'serve', 'furni'],
          50: ['npm', 'exec', 'hotel-imager', 'serve', 'furni'],
        }) as Record<number, string[]>
      )[pid] ?? [],
    alive: (pid: number) => alive.has(pid),
  };
  // Not run by npm: no watch at all.
  assert.equal(
    stopWithLauncher(() => assert.fail('stopped'), {}, probe, 5),
    undefined,
  );
  // npm killed (SIGKILL: the shell stays): stopped.
  let stops = 0;
  const cancel = stopWithLauncher(() => stops++, { npm_command: 'exec' }, probe, 5);
  assert.ok(cancel);
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(stops, 0, 'npm and the shell alive: serving');
  alive.delete(50);
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(stops, 1, 'npm gone: stopped, once');
  // npm ended by SIGTERM takes the shell with it: the parent changes, stopped too.
  alive.add(50);
  let stops2 = 0;
  stopWithLauncher(() => stops2++, { npm_command: 'exec' }, probe, 5);
  alive.delete(100);
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(stops2, 1);
});
