// Where a checkout keeps the avatar service's modules: benchmarks run another checkout beside this one
// (`--against DIR`), which may predate the move of the service core out of src/server/.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const moved = (root: string): boolean => existsSync(join(root, 'src', 'imager'));

/** The avatar service settings module of the checkout at `root`, relative to its src/. */
export const avatarConfigModule = (root: string): string => {
  if (existsSync(join(root, 'src', 'imager', 'avatar', 'config.ts'))) return 'imager/avatar/config.ts';
  return moved(root) ? 'imager/config.ts' : 'server/avatar/config.ts';
};

/** The module with `startAvatarService` in the checkout at `root`, relative to its src/. */
export const avatarServiceModule = (root: string): string =>
  moved(root) ? 'server/imager.ts' : 'server/avatar/index.ts';
