// The README's import rules, kept by the test run: no import circles in src/ and no import from a lower
// layer to a higher one (.dependency-cruiser.cjs states them; dependency-cruiser reads the sources with swc).
// docs/architecture.md draws the layers and says where new code goes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(import.meta.dirname, '..', '..');
const CONFIG = '.dependency-cruiser.cjs';

interface CruiseResult {
  summary: {
    totalCruised: number;
    violations: { rule: { name: string }; from: string; to: string; cycle?: { name: string }[] }[];
  };
}

/** dependency-cruiser over `src` of `cwd` with the repository's rules. */
async function cruise(cwd: string): Promise<CruiseResult> {
  const bin = join(ROOT, 'node_modules', '.bin', 'depcruise');
  const { stdout } = await promisify(execFile)(bin, ['src', '--config', CONFIG, '--output-type', 'json'], {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
  }).catch(
    // It exits non-zero when it finds violations; the JSON is on stdout either way.
    (err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }),
  );
  return JSON.parse(stdout) as CruiseResult;
}

const found = (result: CruiseResult) =>
  result.summary.violations.map(
    (v) => `${v.rule.name}: ${v.from} → ${v.cycle ? v.cycle.map((c) => c.name).join(' → ') : v.to}`,
  );

test('src/ has no import circles and imports point down the layers (README, Layout of the code)', async () => {
  const result = await cruise(ROOT);
  // Every source file was read (a parser that cannot read TypeScript cruises nothing and finds nothing).
  assert.ok(result.summary.totalCruised > 150, `only ${result.summary.totalCruised} modules cruised`);
  assert.deepEqual(found(result), []);
});

test('each rule of the service layers catches the arrow it forbids (planted in a scratch tree)', async () => {
  // One import per rule, each the kind of shortcut the layers exist to stop, in a tree of one-line modules.
  const planted: [from: string, imports: string, rule: string][] = [
    ['src/http/respond.ts', 'src/core/cache/image-cache.ts', 'layer-http'],
    ['src/core/avatar/avatar-service.ts', 'src/server/avatar/routes.ts', 'layer-core'],
    ['src/core/furni/corpus-store.ts', 'src/server/furni/app.ts', 'layer-core'],
    ['src/storage/corpus-source.ts', 'src/core/furni/corpus-store.ts', 'layer-storage'],
    ['src/core/badge/badge-service.ts', 'src/core/avatar/avatar-service.ts', 'core-peers'],
    ['src/core/furni/variants.ts', 'src/core/badge/badge-service.ts', 'core-peers'],
    ['src/core/cache/image-cache.ts', 'src/core/avatar/cache-key.ts', 'core-cache-below-services'],
    ['src/core/render/render-pool.ts', 'src/core/avatar/avatar-service.ts', 'core-render-below-services'],
    ['src/core/avatar/params.ts', 'fastify', 'core-framework-free'],
    ['src/server/badge/badge-handler.ts', 'src/server/avatar/avatar-handler.ts', 'routes-apart'],
    ['src/index.ts', 'src/server/imager.ts', 'facade-uses-the-core'],
  ];
  const dir = await mkdtemp(join(tmpdir(), 'layers-'));
  try {
    await copyFile(join(ROOT, CONFIG), join(dir, CONFIG));
    await copyFile(join(ROOT, 'tsconfig.json'), join(dir, 'tsconfig.json'));
    await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    const files = new Map<string, string[]>();
    for (const [from, to] of planted) {
      files.set(from, [...(files.get(from) ?? []), to]);
      if (to.startsWith('src/') && !files.has(to)) files.set(to, []);
    }
    for (const [file, imports] of files) {
      const lines = imports.map((to, i) => {
        const spec = to.startsWith('src/') ? relative(dirname(file), to).replace(/\.ts$/, '.js') : to;
        return `import * as m${i} from '${spec.startsWith('.') || !to.startsWith('src/') ? spec : `./${spec}`}';\nexport const u${i} = m${i};\n`;
      });
      await mkdir(join(dir, dirname(file)), { recursive: true });
      await writeFile(join(dir, file), lines.join('') + 'export const here = 1;\n');
    }
    const violations = found(await cruise(dir)).map((v) => v.replace(/→ .*node_modules\/fastify\/\S+/, '→ fastify'));
    const expected = planted.map(([from, to, rule]) => `${rule}: ${from} → ${to}`);
    assert.deepEqual(violations.sort(), expected.sort());
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
