// /healthz has one shape on every service (src/http/health.ts, docs/operations.md "/healthz"): the
// same leading fields in the same order, `status` "ok"/"fail" matching 200/503, and `checks` whose every
// entry carries `ok` (and `error` when it fails). Both services run here as an operator starts them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSampleKit } from '../../src/samplekit/index.js';
import { startAvatarService, type AvatarServiceInstance } from '../../src/server/imager.js';
import { startFurniServer, type RunningFurniServer } from '../../src/server/furni/index.js';
import { healthBody, healthStatus } from '../../src/http/health.js';
import { testAvatarConfig } from './avatar/fixtures.js';
import { fakePng, writeCorpusFixture } from './furni/fixture.js';

const LEADING = ['status', 'service', 'version', 'commit', 'builtAt', 'uptimeSeconds', 'checks'];
const quiet = { write: () => true };

let scratch = '';
let avatar: (AvatarServiceInstance & { url: string }) | undefined;
let furni: RunningFurniServer | undefined;
let furniMissing: RunningFurniServer | undefined;

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'health-shape-'));
  const kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  avatar = await startAvatarService(testAvatarConfig(kit, 'http://127.0.0.1:9'));
  await writeCorpusFixture(join(scratch, 'corpus'), { 'catalog-thumbs/a.png': fakePng(1) });
  furni = await startFurniServer({ corpus: join(scratch, 'corpus'), host: '127.0.0.1', port: 0, logStream: quiet });
  // An existing folder with no corpus in it yet: the service waits for a first build, and says so.
  furniMissing = await startFurniServer({ corpus: scratch, host: '127.0.0.1', port: 0, logStream: quiet });
});

after(async () => {
  await avatar?.close();
  await furni?.close();
  await furniMissing?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

async function healthz(base: string): Promise<{ status: number; type: string | null; body: Record<string, any> }> {
  const res = await fetch(`${base}/healthz`);
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as Record<string, any> };
}

function assertShape(body: Record<string, any>, service: string): void {
  assert.deepEqual(Object.keys(body).slice(0, LEADING.length), LEADING);
  assert.equal(body.service, service);
  assert.equal(body.version, '0.1.0');
  assert.match(body.commit, /^([0-9a-f]{40}|unknown)$/);
  assert.ok(!Number.isNaN(Date.parse(body.builtAt)));
  assert.ok(Number.isInteger(body.uptimeSeconds) && body.uptimeSeconds >= 0);
  for (const [name, check] of Object.entries(body.checks as Record<string, { ok: unknown; error?: unknown }>)) {
    assert.equal(typeof check.ok, 'boolean', `checks.${name}.ok`);
    if (!check.ok) assert.equal(typeof check.error, 'string', `checks.${name}.error says why`);
  }
}

test('both services answer /healthz in the one shape: status ok and 200 when every check passes', async () => {
  const a = await healthz(avatar!.url);
  assert.equal(a.status, 200);
  assertShape(a.body, 'hotel-imager-avatar');
  assert.equal(a.body.status, 'ok');
  assert.deepEqual(Object.keys(a.body.checks), ['workers']);
  assert.deepEqual(a.body.checks.workers, { ok: true, ready: 1, workers: 1 });
  const f = await healthz(furni!.url);
  assert.equal(f.status, 200);
  assert.equal(f.type, 'application/json; charset=utf-8');
  assertShape(f.body, 'hotel-imager-furni');
  assert.equal(f.body.status, 'ok');
  assert.deepEqual(Object.keys(f.body.checks), ['storage']);
  assert.equal(f.body.checks.storage.ok, true);
});

test('a failing check: status fail, 503, and the check says why', async () => {
  const f = await healthz(furniMissing!.url);
  assert.equal(f.status, 503);
  assertShape(f.body, 'hotel-imager-furni');
  assert.equal(f.body.status, 'fail');
  assert.equal(f.body.checks.storage.ok, false);
  assert.match(f.body.checks.storage.error, /corpus\.json/);
  // The avatar service's failing case (no render worker ready) goes through the same function.
  const body = healthBody(
    {
      service: 'hotel-imager-avatar',
      version: '0.1.0',
      build: { commit: 'unknown', builtAt: '2026-01-01T00:00:00.000Z', source: 'unknown' },
      startedAtMs: Date.now(),
    },
    { workers: { ok: false, error: 'no render worker is ready (0 of 2)', ready: 0, workers: 2 } },
    { pool: {} },
  );
  assert.equal(healthStatus(body), 503);
  assert.deepEqual(Object.keys(body), [...LEADING, 'pool']);
  assert.equal(body.status, 'fail');
});
