// One home per concept (issue 44), kept by the test run: URL paths are the routes' (src/server/), so the core and
// the domains name a route, never spell its path; one helper runs "one at a time per key". The one `/habbo-imaging`
// allowed outside src/server/ is the upstream imager's default address (habbo.com's), another host's URL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

const SRC = join(import.meta.dirname, '..', '..', 'src');
const UPSTREAM = 'https://www.habbo.com/habbo-imaging/avatarimage';

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await files(p)));
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

test('no /habbo-imaging path is spelled in src/ outside src/server/ (the upstream default URL aside)', async () => {
  const found: string[] = [];
  for (const file of await files(SRC)) {
    const rel = relative(SRC, file);
    if (rel.startsWith('server/')) continue;
    (await readFile(file, 'utf8')).split('\n').forEach((line, i) => {
      if (line.replaceAll(UPSTREAM, '').includes('/habbo-imaging')) found.push(`src/${rel}:${i + 1}`);
    });
  }
  assert.deepEqual(found, []);
});

test('one "one at a time per key" map in src/: KeyedInflight (util/keyed-inflight.ts) holds it for every caller', async () => {
  const found: string[] = [];
  for (const file of await files(SRC))
    if ((await readFile(file, 'utf8')).includes('new Map<string, Promise')) found.push(relative(SRC, file));
  assert.deepEqual(found, ['util/keyed-inflight.ts']);
});
