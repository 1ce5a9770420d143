// The avatar service picks up a changed hotel without a restart (issue 23 §1), on the sample kit: a set
// and its library added while it serves (302 → 200), a half-copied library and broken JSON refused (the
// old hotel keeps serving, /healthz says why), a folder still being written not read, a removal, SIGHUP
// from the CLI, a swap under load (no 5xx, no 302), a render that finds its library replaced on disk,
// cache keys and ETags across a swap, remembered failures, two instances on one Redis reloading at
// different moments, and every library checked at start (Nitro and Flash layouts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFile, cp, mkdtemp, readFile, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { ensureSampleKit, writeSampleKit } from '../../../src/samplekit/index.js';
import { type AvatarServiceConfig } from '../../../src/core/avatar/config.js';
import {
  startAvatarService,
  type AvatarServiceInstance,
  type OpenAvatarServiceOptions,
} from '../../../src/server/imager.js';
import {
  editSet,
  figureFile,
  mapLibrary,
  recolouredLibrary,
  renumberedLibrary,
  writeWhole,
} from '../../helpers/hotel-edits.js';
import { freePort, REDIS_SKIP, startRedis } from '../../helpers/redis-server.js';
import { startFakeUserApi, testAvatarConfig, type FakeApi } from './fixtures.js';

const FIG = 'hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40';
/**
 * A hat set the kit does not have: set 9090, parts ha 5090 and 5091 in a new library hat_U_kitnew, made
 * from the cap (set 1001, parts 5001 and 5002, hat_U_kitcap): it draws as the cap does.
 */
const NEW_HAT = `${FIG}.ha-9090-62`;
const CAP = `${FIG}.ha-1001-62`;
const NEW_LIB = 'hat_U_kitnew';
const NEW_IDS = { 'ha:5001': 5090, 'ha:5002': 5091 };
const NEW_SET = {
  gender: 'U',
  club: 0,
  colorable: true,
  selectable: true,
  preselectable: false,
  sellable: false,
  parts: [
    { id: 5090, type: 'ha', colorable: true, index: 0, colorindex: 1 },
    { id: 5091, type: 'ha', colorable: true, index: 1, colorindex: 2 },
  ],
  hiddenLayers: [{ partType: 'hr' }],
};

let scratch: string;
let kit: string;
let api: FakeApi;
const started: AvatarServiceInstance[] = [];
let copies = 0;

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'avatar-reload-'));
  kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  api = await startFakeUserApi({});
});

after(async () => {
  for (const s of started.splice(0)) await s.close();
  await api.close();
  await rm(scratch, { recursive: true, force: true });
});

async function hotelCopy(): Promise<string> {
  const dir = join(scratch, `hotel-${++copies}`);
  await cp(kit, dir, { recursive: true });
  return dir;
}

async function start(dir: string, over: Partial<AvatarServiceConfig> = {}, opts: OpenAvatarServiceOptions = {}) {
  const s = await startAvatarService(
    testAvatarConfig(dir, api.base, { checkIntervalMs: 100, clientRatePerSecond: 0, ...over }),
    opts,
  );
  started.push(s);
  return s;
}

const get = (base: string, path: string, headers: Record<string, string> = {}) =>
  fetch(base + path, { redirect: 'manual', headers });

async function avatar(base: string, figure: string, extra = '') {
  const res = await get(base, `/avatar.png?figure=${figure}&size=m${extra}`);
  const body = Buffer.from(await res.arrayBuffer());
  return {
    status: res.status,
    body,
    etag: res.headers.get('etag'),
    source: res.headers.get('x-imager-cache'),
    fallback: res.headers.get('x-imager-fallback'),
  };
}

interface Health {
  status: string;
  assets: {
    generation: number;
    identity: string;
    libraries: {
      figure: number;
      effect: number;
      broken: { kind: string; library: string; file: string; error: string }[];
    };
    reload: {
      state: string;
      checks: number;
      reloads: number;
      unchanged: number;
      reloadFailures: number;
      lastError: { message: string } | null;
      lastReload: { trigger: string; detectToSwappedMs: number } | null;
    };
  };
  renders: { changedRetries: number };
}

async function health(base: string): Promise<Health> {
  const res = await get(base, '/healthz');
  assert.equal(res.status, 200);
  return (await res.json()) as Health;
}

/** Polls `check` until it holds (a deadline for a stuck test, not a timing assertion); returns the wait. */
async function until(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    if (await check()) return Date.now() - t0;
    if (Date.now() - t0 > ms) assert.fail(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Adds the new hat as an operator would: the library first, then FigureMap, then FigureData. */
async function addNewHat(dir: string, library?: Buffer): Promise<void> {
  await writeWhole(
    figureFile(dir, NEW_LIB),
    library ?? (await renumberedLibrary(dir, 'hat_U_kitcap', NEW_LIB, NEW_IDS)),
  );
  await mapLibrary(dir, NEW_LIB, [
    { id: 5090, type: 'ha' },
    { id: 5091, type: 'ha' },
  ]);
  await editSet(dir, 'ha', 9090, NEW_SET);
}

test('a set and its library added while serving: 302 becomes 200 without a restart, the failure remembered before is forgotten, other URLs keep bytes and ETag', async (t) => {
  const dir = await hotelCopy();
  const s = await start(dir);
  const plain = await avatar(s.url, FIG);
  assert.equal(plain.status, 200);
  const before = await avatar(s.url, NEW_HAT);
  assert.equal(before.status, 302);
  assert.equal(before.fallback, 'render-failed');
  assert.equal((await avatar(s.url, NEW_HAT)).fallback, 'render-failed-cached', 'the failure is remembered');

  await addNewHat(dir);
  const waited = await until('the new set to render', async () => (await avatar(s.url, NEW_HAT)).status === 200);
  t.diagnostic(`302 → 200 after ${waited} ms (poll interval 100 ms)`);
  const h = await health(s.url);
  assert.equal(h.assets.generation, 2);
  assert.equal(h.assets.reload.reloads, 1);
  assert.equal(h.assets.reload.lastReload?.trigger, 'poll');
  assert.equal(h.assets.libraries.figure, 39);
  const hat = await avatar(s.url, NEW_HAT);
  assert.ok(!hat.body.equals(plain.body), 'the hat is drawn');
  // The new library is the cap's art under new part ids: the same image as the cap set with the same colour.
  assert.ok(hat.body.equals((await avatar(s.url, CAP)).body));

  const again = await avatar(s.url, FIG);
  assert.equal(again.etag, plain.etag, 'nothing this URL reads changed: same ETag');
  assert.ok(again.body.equals(plain.body));
  assert.equal(again.source, 'memory', 'and its image stayed cached');
});

test('a half-copied library is not swapped in: the old hotel serves until the new one is whole; removing the set later works too', async () => {
  const dir = await hotelCopy();
  const s = await start(dir);
  const full = await renumberedLibrary(dir, 'hat_U_kitcap', NEW_LIB, NEW_IDS);
  // A copy that stopped half-way (the gamedata already copied): stable on disk, broken.
  await addNewHat(dir, full.subarray(0, Math.floor(full.length / 2)));
  await until('the reload to fail', async () => (await health(s.url)).assets.reload.reloadFailures === 1);
  const h = await health(s.url);
  assert.equal(h.status, 'ok', 'the service is healthy: the old hotel serves');
  assert.equal(h.assets.generation, 1);
  assert.equal(h.assets.reload.state, 'failed');
  assert.match(h.assets.reload.lastError!.message, /hat_U_kitnew\.nitro/);
  assert.equal((await avatar(s.url, NEW_HAT)).status, 302, 'the old hotel has no such set');
  assert.equal((await avatar(s.url, FIG, '&direction=5')).status, 200, 'the old hotel still renders');

  // The copy completes: the next look tries again.
  await writeWhole(figureFile(dir, NEW_LIB), full);
  await until('the new set to render', async () => (await avatar(s.url, NEW_HAT)).status === 200);
  const swapped = await health(s.url);
  assert.equal(swapped.assets.generation, 2);
  assert.equal(swapped.assets.reload.reloadFailures, 1);
  assert.equal(swapped.assets.reload.state, 'idle');

  // Removed again (set, map entry, file): the figure falls back once the removal is loaded.
  const plain = await avatar(s.url, FIG);
  await editSet(dir, 'ha', 9090, null);
  await mapLibrary(dir, NEW_LIB, null);
  await unlink(figureFile(dir, NEW_LIB));
  await until('the removal to be loaded', async () => (await health(s.url)).assets.generation === 3);
  const gone = await avatar(s.url, NEW_HAT);
  assert.equal(gone.status, 302);
  assert.equal(gone.fallback, 'render-failed');
  const kept = await avatar(s.url, FIG);
  assert.equal(kept.etag, plain.etag);
  assert.ok(kept.body.equals(plain.body));
});

test('a library still being written is not read: the folder is loaded once it looks the same twice', async () => {
  const dir = await hotelCopy();
  const s = await start(dir, { checkIntervalMs: 400 });
  const full = await renumberedLibrary(dir, 'hat_U_kitcap', NEW_LIB, NEW_IDS);
  await mapLibrary(dir, NEW_LIB, [
    { id: 5090, type: 'ha' },
    { id: 5091, type: 'ha' },
  ]);
  await editSet(dir, 'ha', 9090, NEW_SET);
  // The library arrives a few hundred bytes at a time, in place, over more than two looks.
  const file = figureFile(dir, NEW_LIB);
  await writeFile(file, full.subarray(0, 1));
  const step = Math.max(1, Math.ceil(full.length / 60));
  let settling = false;
  for (let at = 1; at < full.length; at += step) {
    await appendFile(file, full.subarray(at, Math.min(full.length, at + step)));
    await new Promise((r) => setTimeout(r, 20));
    const h = await health(s.url);
    settling ||= h.assets.reload.state === 'settling';
    assert.equal(h.assets.reload.reloadFailures, 0, 'nothing was read half-way');
    assert.equal(h.assets.generation, 1);
  }
  assert.ok(settling, 'the change was seen while the file grew');
  await until('the new set to render', async () => (await avatar(s.url, NEW_HAT)).status === 200);
  const h = await health(s.url);
  assert.equal(h.assets.generation, 2);
  assert.equal(h.assets.reload.reloadFailures, 0);
});

test('broken JSON: the old hotel keeps serving, /healthz says why, that state is not tried again, the next change is', async () => {
  const dir = await hotelCopy();
  const s = await start(dir);
  const figureData = join(dir, 'gamedata', 'FigureData.json');
  const good = await readFile(figureData);
  await writeWhole(figureData, good.subarray(0, 200));
  await until('the reload to fail', async () => (await health(s.url)).assets.reload.reloadFailures === 1);
  const h = await health(s.url);
  assert.equal(h.status, 'ok');
  assert.match(h.assets.reload.lastError!.message, /FigureData\.json is not valid JSON/);
  assert.equal((await avatar(s.url, FIG, '&direction=3')).status, 200, 'a cold render on the old hotel');
  const checks = h.assets.reload.checks;
  await until('more looks', async () => (await health(s.url)).assets.reload.checks >= checks + 3);
  assert.equal((await health(s.url)).assets.reload.reloadFailures, 1, 'the same broken state is not read again');

  // Put back: a change, read again; the same content as served, so nothing to swap.
  await writeWhole(figureData, good);
  await until('the fixed folder to be read', async () => (await health(s.url)).assets.reload.unchanged === 1);
  const fixed = await health(s.url);
  assert.equal(fixed.assets.generation, 1);
  assert.equal(fixed.assets.reload.state, 'idle');
});

test('SIGHUP reloads at once (the CLI, with polling off)', async () => {
  const dir = await hotelCopy();
  const port = await freePort();
  const main = fileURLToPath(new URL('../../../src/cli/main.ts', import.meta.url));
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      main,
      'serve',
      'avatar',
      '--assets',
      dir,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--jobs',
      '1',
      '--check-interval',
      '0',
      '--log-level',
      'info',
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await until('the service to listen', async () => out.includes('avatar service listening'), 60_000);
    const base = `http://127.0.0.1:${port}`;
    assert.equal((await avatar(base, NEW_HAT)).status, 302);
    await addNewHat(dir);
    assert.equal((await health(base)).assets.reload.checks, 0, 'no polling');
    child.kill('SIGHUP');
    await until('the new hotel', async () => (await health(base)).assets.generation === 2);
    assert.equal((await avatar(base, NEW_HAT)).status, 200);
    const lines = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; trigger?: string });
    assert.ok(lines.some((l) => l.msg === 'SIGHUP: reloading the hotel'));
    assert.equal(lines.find((l) => l.msg === 'hotel reloaded')?.trigger, 'signal');
  } finally {
    child.kill('SIGTERM');
    assert.equal(await exited, 0, 'SIGTERM still stops it cleanly');
  }
});

test('a swap under load: every request answered 200 (no 5xx, no 302) while the hotel is swapped three times', async (t) => {
  const dir = await hotelCopy();
  const s = await start(dir, { workers: 2 });
  const figures = [
    FIG,
    'hd-180-1.ch-215-66.lg-275-82.sh-295-80.hr-115-40',
    'hd-180-1.ch-255-66.lg-280-82.sh-300-80.ha-1001-62',
    'hd-180-1.ch-210-66.lg-285-82.he-1601-62.ea-1401-62',
  ];
  const statuses = new Map<number, number>();
  let n = 0;
  let running = true;
  const client = async (c: number) => {
    while (running) {
      const i = n++;
      // Half cold (a new cache-buster), half repeated.
      const extra = i % 2 === 0 ? `&direction=${i % 8}&cb=${i}` : `&direction=${c % 8}`;
      const r = await avatar(s.url, figures[i % figures.length]!, extra);
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    }
  };
  const load = Promise.all(Array.from({ length: 8 }, (_, c) => client(c)));
  const changes = [
    async () => writeWhole(figureFile(dir, 'hat_U_kitcrown'), await recolouredLibrary(dir, 'hat_U_kitcrown')),
    async () => addNewHat(dir),
    async () => writeWhole(figureFile(dir, 'hat_U_kitcap'), await recolouredLibrary(dir, 'hat_U_kitcap')),
  ];
  for (let i = 0; i < changes.length; i++) {
    await new Promise((r) => setTimeout(r, 300));
    await changes[i]!();
    await until(`swap ${i + 1}`, async () => (await health(s.url)).assets.generation === i + 2);
  }
  await new Promise((r) => setTimeout(r, 300));
  running = false;
  await load;
  t.diagnostic(`${n} requests: ${JSON.stringify(Object.fromEntries(statuses))}`);
  assert.deepEqual([...statuses.keys()], [200], JSON.stringify(Object.fromEntries(statuses)));
  assert.ok(n > 100, `${n} requests`);
  assert.deepEqual(s.pool.stats().generations, [4], 'the old hotels left the workers');
});

test('a render that finds its library replaced on disk is answered by the hotel loaded after the change', async () => {
  const dir = await hotelCopy();
  // No polling: the render itself asks for the look at the folder.
  const s = await start(dir, { checkIntervalMs: 0 });
  const before = await start(await hotelCopy(), { checkIntervalMs: 0 });
  const old = await avatar(before.url, CAP);
  // Replaced before this service ever drew from it: its worker reads the file, finds other bytes.
  await writeWhole(figureFile(dir, 'hat_U_kitcap'), await recolouredLibrary(dir, 'hat_U_kitcap'));
  const r = await avatar(s.url, CAP);
  assert.equal(r.status, 200, `${r.status} ${r.fallback ?? ''}`);
  const h = await health(s.url);
  assert.equal(h.assets.generation, 2);
  assert.equal(h.renders.changedRetries, 1);
  assert.ok(!r.body.equals(old.body), 'drawn from the new file');
  const fresh = await start(dir, { checkIntervalMs: 0 });
  assert.ok(r.body.equals((await avatar(fresh.url, CAP)).body), 'as a service started on the new folder draws it');
});

test('cache keys across a swap: a URL whose libraries did not change keeps bytes and ETag (304 still), one whose library changed gets new bytes', async () => {
  const dir = await hotelCopy();
  const s = await start(dir);
  const noShirt = 'hd-180-1.lg-270-82.sh-290-80.hr-100-40';
  const a = await avatar(s.url, noShirt);
  const b = await avatar(s.url, FIG);
  await writeWhole(figureFile(dir, 'shirt_U_kittee'), await recolouredLibrary(dir, 'shirt_U_kittee'));
  await until('the swap', async () => (await health(s.url)).assets.generation === 2);
  const a2 = await avatar(s.url, noShirt);
  assert.equal(a2.etag, a.etag);
  assert.ok(a2.body.equals(a.body));
  assert.equal(a2.source, 'memory');
  const revalidated = await get(s.url, `/avatar.png?figure=${noShirt}&size=m`, { 'if-none-match': a.etag! });
  assert.equal(revalidated.status, 304);
  const b2 = await avatar(s.url, FIG);
  assert.equal(b2.status, 200);
  assert.equal(b2.source, 'render');
  assert.notEqual(b2.etag, b.etag);
  assert.ok(!b2.body.equals(b.body), 'the shirt is drawn from the changed library');
  assert.equal(
    (await get(s.url, `/avatar.png?figure=${FIG}&size=m`, { 'if-none-match': b.etag! })).status,
    200,
    'the old ETag no longer matches',
  );
});

test("two instances on one Redis reloading at different moments never serve each other's image of another hotel", {
  skip: REDIS_SKIP,
}, async () => {
  const redis = await startRedis();
  try {
    const dirA = await hotelCopy();
    const dirB = await hotelCopy();
    const a = await start(dirA, { redisUrl: redis.url });
    const b = await start(dirB, { redisUrl: redis.url });
    const first = await avatar(a.url, FIG);
    assert.equal(first.source, 'render');
    assert.equal((await avatar(b.url, FIG)).source, 'redis', 'same hotel: shared');
    const failedA = await avatar(a.url, NEW_HAT);
    assert.equal(failedA.fallback, 'render-failed');
    assert.equal((await avatar(b.url, NEW_HAT)).fallback, 'render-failed-cached', 'same hotel: the failure is shared');

    // A reloads with a changed shirt and the new hat; B still serves the old hotel.
    const shirt = await recolouredLibrary(dirA, 'shirt_U_kittee');
    await writeWhole(figureFile(dirA, 'shirt_U_kittee'), shirt);
    await addNewHat(dirA);
    await until('A to swap', async () => (await health(a.url)).assets.generation === 2);
    const newA = await avatar(a.url, FIG, '&direction=3');
    const oldB = await avatar(b.url, FIG, '&direction=3');
    assert.equal(newA.source, 'render');
    assert.equal(oldB.source, 'render', "another key: B does not take A's image");
    assert.ok(!newA.body.equals(oldB.body));
    assert.equal((await avatar(a.url, NEW_HAT)).status, 200, "A does not take the failure B's hotel had");
    assert.equal((await avatar(b.url, NEW_HAT)).status, 302, 'B still has no such set');
    // The other way round: B renders first, A does not take it.
    const b2 = await avatar(b.url, FIG, '&direction=1');
    const a2 = await avatar(a.url, FIG, '&direction=1');
    assert.equal(a2.source, 'render');
    assert.ok(!a2.body.equals(b2.body), 'each draws its own hotel whoever rendered first');

    // B catches up: it now shares A's entries.
    await writeWhole(figureFile(dirB, 'shirt_U_kittee'), shirt);
    await addNewHat(dirB);
    await until('B to swap', async () => (await health(b.url)).assets.generation === 2);
    const caught = await avatar(b.url, FIG, '&direction=3');
    assert.equal(caught.source, 'redis');
    assert.ok(caught.body.equals(newA.body));
    assert.equal(caught.etag, newA.etag);
  } finally {
    await redis.stop();
  }
});

test('every library is checked at start and after each swap: a broken one is named in the log and in /healthz (Nitro and Flash layouts)', async () => {
  for (const layout of ['nitro', 'flash'] as const) {
    const dir = join(scratch, `checked-${layout}`);
    await writeSampleKit(dir, { layout });
    const lib = (name: string) => (layout === 'nitro' ? figureFile(dir, name) : join(dir, 'gordon', `${name}.swf`));
    const broken = lib('hat_U_kitcap');
    await writeFile(broken, Buffer.from('FWS\x0a not really a library'));
    const lines: string[] = [];
    const s = await start(
      dir,
      { logLevel: 'error', checkIntervalMs: 0 },
      { logStream: { write: (l: string) => void lines.push(l) } as unknown as NodeJS.WritableStream },
    );
    const namings = () =>
      lines
        .map((l) => JSON.parse(l) as { msg: string; file?: string; generation?: number })
        .filter((l) => l.file === broken);
    const h = await health(s.url);
    assert.equal(h.status, 'ok');
    assert.deepEqual(
      h.assets.libraries.broken.map((p) => [p.kind, p.library, p.file]),
      [['figure', 'hat_U_kitcap', broken]],
      layout,
    );
    assert.match(
      h.assets.libraries.broken[0]!.error,
      layout === 'nitro' ? /nitro bundle .*hat_U_kitcap\.nitro/ : /hat_U_kitcap\.swf/,
    );
    assert.equal(namings().length, 1, `${layout}: ${lines.join('')}`);
    assert.equal(
      namings()[0]!.msg,
      'figure library hat_U_kitcap does not read: renders of figures that need it answer the 302 fallback redirect',
    );
    // A figure without it renders; one wearing it falls back, as before.
    assert.equal((await avatar(s.url, FIG)).status, 200);
    assert.equal((await avatar(s.url, CAP)).status, 302);
    // Already broken is no reason to refuse the next hotel (another library removed): it is swapped in and names it again.
    await unlink(lib('hat_U_kitcrown'));
    assert.equal((await s.reload()).outcome, 'swapped', layout);
    const after = await health(s.url);
    assert.equal(after.assets.reload.reloadFailures, 0);
    assert.equal(after.assets.libraries.broken.length, 1);
    assert.deepEqual(
      namings().map((l) => l.generation),
      [1, 2],
    );
  }
});

test('a deploy that switches a symlink to a new folder is picked up; the old folder may go at once', async () => {
  const a = await hotelCopy();
  const b = await hotelCopy();
  await addNewHat(b);
  const current = join(scratch, `current-${++copies}`);
  await symlink(a, current);
  const s = await start(current);
  assert.equal((await avatar(s.url, NEW_HAT)).status, 302);
  const plain = await avatar(s.url, FIG);
  // `ln -sfn b current`, atomically: a new link renamed over the old one.
  await symlink(b, `${current}.new`);
  await rename(`${current}.new`, current);
  await rm(a, { recursive: true, force: true });
  await until('the new folder to be served', async () => (await avatar(s.url, NEW_HAT)).status === 200);
  assert.equal((await health(s.url)).assets.generation, 2);
  const kept = await avatar(s.url, FIG);
  assert.equal(kept.etag, plain.etag, 'same libraries in the new folder: same ETag');
  assert.equal((await avatar(s.url, FIG, '&direction=6')).status, 200, 'cold renders read the new folder');
});

test('the group badge table is watched and reloaded with the hotel: a recoloured row redraws the badge in the new colour', async () => {
  const dir = await hotelCopy();
  const s = await start(dir);
  const BADGE = '/habbo-imaging/badge/b01054.png'; // base 1 in colour 5
  const badge = async () => {
    const res = await get(s.url, BADGE);
    assert.equal(res.status, 200);
    return { etag: res.headers.get('etag'), png: PNG.sync.read(Buffer.from(await res.arrayBuffer())) };
  };
  const before = await badge();
  // An operator's edit of the emulator export: colour 5 goes from light blue (50c1fb) to navy (000080).
  const table = join(dir, 'gamedata', 'guilds_elements.csv');
  const text = await readFile(table, 'utf8');
  assert.ok(text.includes('"5","50c1fb",,"base_color"'), 'the kit table has colour 5');
  await writeWhole(table, text.replace('"5","50c1fb",,"base_color"', '"5","000080",,"base_color"'));
  await until('the badge data to be reloaded', async () => (await badge()).etag !== before.etag);
  const after = await badge();
  // Tints multiply each channel: under 000080 every tinted pixel has no red and no green, where 50c1fb left green.
  let recoloured = 0;
  for (let i = 0; i < after.png.data.length; i += 4) {
    const [r0, g0, b0, a0] = before.png.data.subarray(i, i + 4);
    const [r1, g1, b1, a1] = after.png.data.subarray(i, i + 4);
    assert.equal(a1, a0, `pixel ${i / 4}: the shape is the same`);
    if (r0 === r1 && g0 === g1 && b0 === b1) continue;
    recoloured++;
    assert.deepEqual([r1, g1], [0, 0], `pixel ${i / 4}: tinted navy`);
    assert.ok(g0! > 0, `pixel ${i / 4}: was tinted light blue`);
  }
  assert.ok(recoloured > 100, `${recoloured} pixels recoloured`);
  assert.equal((await health(s.url)).assets.generation, 1, 'the avatar hotel itself did not change');
});

test('/metrics follows the reloads: the hotel generation and the reloads that failed', async () => {
  const dir = await hotelCopy();
  const s = await start(dir);
  const metric = async (name: string) => {
    const text = await (await get(s.url, '/metrics')).text();
    const line = text.split('\n').find((l) => l.startsWith(`${name} `));
    assert.ok(line, `${name} in /metrics`);
    return Number(line.split(' ')[1]);
  };
  assert.equal(await metric('hotel_imager_avatar_hotel_generation'), 1);
  assert.equal(await metric('hotel_imager_avatar_hotel_reload_failures_total'), 0);
  const figureData = join(dir, 'gamedata', 'FigureData.json');
  const good = await readFile(figureData);
  await writeWhole(figureData, good.subarray(0, 100));
  await until('the failed reload', async () => (await metric('hotel_imager_avatar_hotel_reload_failures_total')) === 1);
  assert.equal(await metric('hotel_imager_avatar_hotel_generation'), 1);
  await writeWhole(figureData, good);
  await addNewHat(dir);
  await until('the swap', async () => (await metric('hotel_imager_avatar_hotel_generation')) === 2);
  assert.equal(s.hotelState.generation, 2);
  assert.equal(s.hotelState.reloadFailures, 1);
});

test('a broken effect library: the log says renders with that effect answer 200 without it, and they do', async () => {
  const dir = join(scratch, 'broken-effect');
  await writeSampleKit(dir, { layout: 'nitro' });
  const broken = join(dir, 'bundled', 'effect', 'KitPedestal.nitro');
  await writeFile(broken, Buffer.from('not really a library'));
  const lines: string[] = [];
  const s = await start(
    dir,
    { logLevel: 'error', checkIntervalMs: 0 },
    { logStream: { write: (l: string) => void lines.push(l) } as unknown as NodeJS.WritableStream },
  );
  const named = lines.map((l) => JSON.parse(l) as { msg: string; file?: string }).filter((l) => l.file === broken);
  assert.deepEqual(
    named.map((l) => l.msg),
    [
      'effect library KitPedestal does not read: renders with that effect answer 200 without it (the avatar is drawn, the effect is not)',
    ],
  );
  const withEffect = await avatar(s.url, FIG, '&effect=1');
  const without = await avatar(s.url, FIG);
  assert.equal(withEffect.status, 200);
  assert.deepEqual(withEffect.body, without.body, 'the avatar without the effect');
});
