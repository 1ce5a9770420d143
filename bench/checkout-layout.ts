// Where a checkout keeps the avatar service's modules: benchmarks run another checkout beside this one
// (`--against DIR`), which may predate the move of the service core out of src/server/ (into src/imager/,
// later renamed src/core/).
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const has = (root: string, ...path: string[]): boolean => existsSync(join(root, 'src', ...path));

/** The avatar service settings module of the checkout at `root`, relative to its src/. */
export const avatarConfigModule = (root: string): string => {
  if (has(root, 'core', 'avatar', 'config.ts')) return 'core/avatar/config.ts';
  if (has(root, 'imager', 'avatar', 'config.ts')) return 'imager/avatar/config.ts';
  return has(root, 'imager') ? 'imager/config.ts' : 'server/avatar/config.ts';
};

/** The module with `startAvatarService` in the checkout at `root`, relative to its src/. */
export const avatarServiceModule = (root: string): string =>
  has(root, 'core') || has(root, 'imager') ? 'server/imager.ts' : 'server/avatar/index.ts';
