// The house width (120, biome.jsonc) holds in src/ for strings and comments too, which Biome's formatter
// leaves as they are: scripts/check-width.mjs, the second half of `npm run lint`, counts them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'check-width.mjs');

const check = (root: string) => spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });

test('no line of src/ is wider than 120 characters', () => {
  const run = check(ROOT);
  assert.equal(run.stderr, '');
  assert.equal(run.status, 0);
});

test('npm run lint runs the width check after Biome', async () => {
  const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
  assert.equal(pkg.scripts.lint, 'biome check --error-on-warnings . && node scripts/check-width.mjs');
});

test('a line of 121 characters fails the check naming its file and line; 120, and 120 code points of ×, pass', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'width-'));
  try {
    await mkdir(join(dir, 'src', 'a'), { recursive: true });
    await writeFile(join(dir, 'src', 'ok.ts'), `${'x'.repeat(120)}\n// ${'×'.repeat(117)}\n`);
    let run = check(dir);
    assert.equal(run.status, 0, run.stderr);
    await writeFile(join(dir, 'src', 'a', 'wide.ts'), `const a = 1;\n// ${'y'.repeat(118)}\n`);
    run = check(dir);
    assert.equal(run.status, 1);
    assert.equal(
      run.stderr,
      'src/a/wide.ts:2: 121 characters\n' +
        '1 line is wider than 120 characters (biome.jsonc lineWidth): wrap it (split a long string into parts ' +
        'joined with +, a comment over two lines)\n',
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
