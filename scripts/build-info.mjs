// Records the commit id and build time in dist/build-info.json so /version reports the build, not the
// run (`npm run build` runs this after tsc). The built service reads the record one folder above its
// http/ module, i.e. dist/build-info.json. Usage: node scripts/build-info.mjs [OUT_DIR] (default dist/).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Git is asked about this package's checkout wherever the script is run from.
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = resolve(process.argv[2] ?? join(root, 'dist'));

// HOTEL_IMAGER_BUILD_COMMIT names the commit where there is no checkout to ask (a container build).
let commit = /^[0-9a-f]{7,64}$/.test(process.env.HOTEL_IMAGER_BUILD_COMMIT ?? '')
  ? process.env.HOTEL_IMAGER_BUILD_COMMIT
  : 'unknown';
if (commit === 'unknown') {
  try {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
    if (/^[0-9a-f]{40,64}$/.test(head)) commit = head;
  } catch {
    // built outside a git checkout (a tarball): /version says "unknown"
  }
}
mkdirSync(outDir, { recursive: true });
const file = join(outDir, 'build-info.json');
writeFileSync(file, JSON.stringify({ commit, builtAt: new Date().toISOString() }, null, 2) + '\n');
// stderr: `npm pack --json` (whose prepack builds) keeps stdout for its JSON.
console.error(`build-info: ${commit} → ${file}`);
