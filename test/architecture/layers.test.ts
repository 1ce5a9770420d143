// The README's import rules, kept by the test run: no import circles in src/ and no import from a lower
// layer to a higher one (.dependency-cruiser.cjs states them; dependency-cruiser reads the sources with swc).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(import.meta.dirname, '..', '..');

interface CruiseResult {
  summary: {
    totalCruised: number;
    violations: { rule: { name: string }; from: string; to: string; cycle?: { name: string }[] }[];
  };
}

test('src/ has no import circles and imports point down the layers (README, Layout of the code)', async () => {
  const bin = join(ROOT, 'node_modules', '.bin', 'depcruise');
  const { stdout } = await promisify(execFile)(bin, ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  const result = JSON.parse(stdout) as CruiseResult;
  // Every source file was read (a parser that cannot read TypeScript cruises nothing and finds nothing).
  assert.ok(result.summary.totalCruised > 150, `only ${result.summary.totalCruised} modules cruised`);
  const found = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.cycle ? v.cycle.map((c) => c.name).join(' → ') : v.to}`);
  assert.deepEqual(found, []);
});
