// The golden set: every URL of golden-urls.ts (no issue-16 parameter) answers exactly the bytes,
// content type and frame count recorded on main before GIF output, frame_num, effects and dances were
// added. A change here means an existing page's image changed; re-record only for an intended change of
// the renderer (and bump RENDERER_VERSION with it).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Hex } from '../../../src/util/hash.js';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSampleKit } from '../../../src/samplekit/index.js';
import { startAvatarService, type AvatarServiceInstance } from '../../../src/server/imager.js';
import { deadBase, testAvatarConfig } from './fixtures.js';
import { goldenQueries } from './golden-urls.js';

interface Recorded {
  sha256: string;
  type: string;
  frames: string;
}
const golden = JSON.parse(
  readFileSync(new URL('../../golden/avatar-service-hashes.json', import.meta.url), 'utf8'),
) as {
  answers: Record<string, Recorded>;
};

let scratch: string;
let svc: AvatarServiceInstance & { url: string };

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'avatar-golden-'));
  const kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  svc = await startAvatarService(testAvatarConfig(kit, await deadBase(), { clientRatePerSecond: 0 }));
});

after(async () => {
  await svc?.close();
  await rm(scratch, { recursive: true, force: true });
});

test('the golden set lists every URL of the generator, and only those', () => {
  assert.deepEqual(Object.keys(golden.answers).sort(), goldenQueries().sort());
  assert.ok(Object.keys(golden.answers).length >= 500);
});

test('every golden URL answers the recorded bytes, content type and frame count', async () => {
  const changed: string[] = [];
  for (const [q, want] of Object.entries(golden.answers)) {
    const res = await fetch(`${svc.url}/avatar.png?${q}`, { redirect: 'manual' });
    const body = Buffer.from(await res.arrayBuffer());
    const got: Recorded = {
      sha256: sha256Hex(body),
      type: res.headers.get('content-type') ?? `status ${res.status}`,
      frames: res.headers.get('x-imager-frames') ?? '',
    };
    if (got.sha256 !== want.sha256 || got.type !== want.type || got.frames !== want.frames)
      changed.push(`${q}: ${JSON.stringify(got)}`);
  }
  assert.deepEqual(changed, [], `${changed.length} golden answers changed`);
});
