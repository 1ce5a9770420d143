// Records the avatar golden set: SHA-256 of the body (and the content type and frame count) of every
// URL of golden-urls.ts, as the service on the sample kit answers it now. Run on the commit whose
// answers are the reference (before a feature branch changes anything):
//   node --import tsx test/server/avatar/record-golden.ts
// Hashes only: the kit's renders are our own art, but the fixture need not carry images.
import { sha256Hex } from '../../../src/util/hash.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { ensureSampleKit } from '../../../src/samplekit/index.js';
import { startAvatarService } from '../../../src/server/imager.js';
import { deadBase, testAvatarConfig } from './fixtures.js';
import { goldenQueries } from './golden-urls.js';

export const GOLDEN_FILE = new URL('../../golden/avatar-service-hashes.json', import.meta.url);

const scratch = await mkdtemp(join(tmpdir(), 'avatar-golden-'));
try {
  const kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  const svc = await startAvatarService(testAvatarConfig(kit, await deadBase(), { clientRatePerSecond: 0 }));
  const answers: Record<string, { sha256: string; type: string; frames: string }> = {};
  try {
    for (const q of goldenQueries()) {
      const res = await fetch(`${svc.url}/avatar.png?${q}`, { redirect: 'manual' });
      if (res.status !== 200) throw new Error(`${q}: status ${res.status}`);
      const body = Buffer.from(await res.arrayBuffer());
      answers[q] = {
        sha256: sha256Hex(body),
        type: res.headers.get('content-type') ?? '',
        frames: res.headers.get('x-imager-frames') ?? '',
      };
    }
  } finally {
    await svc.close();
  }
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const doc = {
    recordedAt: commit,
    note: 'SHA-256 of /avatar.png bodies on the sample kit; see test/server/avatar/golden-urls.ts',
    answers,
  };
  // One answer a line, so a diff names the URLs that changed.
  const lines = Object.entries(answers).map(([q, a]) => `  ${JSON.stringify(q)}: ${JSON.stringify(a)}`);
  const head = JSON.stringify({ recordedAt: doc.recordedAt, note: doc.note }).slice(0, -1);
  await writeFile(GOLDEN_FILE, `${head},\n "answers": {\n${lines.join(',\n')}\n }\n}\n`);
  console.log(`recorded ${Object.keys(answers).length} answers at ${commit}`);
} finally {
  await rm(scratch, { recursive: true, force: true });
}
