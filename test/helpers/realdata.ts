// Real Habbo data lives beside the repo in ../shared/realdata; a user's clone has none.
// Tests that need it call realdataDir() and skip, saying so, when it is absent.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const REALDATA = process.env.HOTEL_IMAGER_REALDATA ?? join(repoRoot, '..', 'shared', 'realdata');

/** The path below realdata, or a skip message for `test(name, { skip })`. */
export function realdata(sub: string): { path: string; skip: string | false } {
  const path = join(REALDATA, sub);
  return existsSync(path) ? { path, skip: false } : { path, skip: `real data not present at ${path}; skipping` };
}
