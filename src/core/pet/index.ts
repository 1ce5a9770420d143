// The pet picture in the avatar service: finds the hotel's pet folder (`bundled/pet/`, Nitro layout), keeps its
// signature in service (the render workers read the libraries; this thread never decodes one), and gives the
// service the pet core, its /healthz section and a reload. Self-contained like the rooms and furni on demand: the
// avatar service hands over its caches, the database and the render pool's pet jobs, and mounts the route
// (src/server/pet/). Without a `bundled/pet/` folder pets are off: the route answers 404 saying so.
import { join } from 'node:path';
import { isDir } from '../../hotel/files.js';
import { PET_DIR } from '../../hotel/pet.js';
import { openPetLibraries, type PetLibraries } from '../../pet/libraries.js';
import { DEFAULT_PET_TYPES } from '../../pet/types.js';
import { PetService, type PetFolder, type PetServiceDeps } from './pet-service.js';

export {
  PET_FIGURE_CACHE_CONTROL,
  PET_ID_CACHE_CONTROL,
  PET_RENDERER_VERSION,
  PetService,
  type PetAnswer,
} from './pet-service.js';

export interface Pets {
  service: PetService;
  health: () => Record<string, unknown>;
  /** Looks at the pet folder again; a changed one is put in service (the workers read it anew). */
  reload: () => Promise<void>;
  watchPaths: () => string[];
  announce: () => void;
}

/** Pets for a hotel folder: on when it has `bundled/pet/`, else off with the reason (and on once it appears). */
export async function openPets(assetsDir: string, deps: Omit<PetServiceDeps, 'folder'>): Promise<Pets> {
  const dir = join(assetsDir, PET_DIR);
  let libraries: PetLibraries | undefined;
  let off = '';
  let reloadError: string | null = null;
  const look = async () => {
    if (!(await isDir(dir))) {
      libraries = undefined;
      off =
        `this hotel has no ${PET_DIR}/ folder (${dir}): ` +
        'put the pet libraries there (<name>.nitro, named by the pet type list)';
      return;
    }
    // The signature only: nothing is read from the libraries here.
    libraries = await openPetLibraries(assetsDir, libraries);
    off = '';
  };
  await look();
  const folder = (): PetFolder | { off: string } =>
    libraries ? { hotelRoot: libraries.hotelRoot, signature: libraries.signature } : { off };
  const service = new PetService({ ...deps, folder });
  const types = deps.types ?? DEFAULT_PET_TYPES;
  return {
    service,
    health: () => ({
      enabled: libraries !== undefined,
      ...(libraries ? {} : { reason: off }),
      dir,
      types: types.length,
      database: deps.database !== undefined,
      reloadError,
      ...service.stats(),
    }),
    reload: async () => {
      const before = libraries?.signature;
      try {
        await look();
        reloadError = null;
      } catch (err) {
        // The folder in service stays.
        reloadError = (err as Error).message;
        deps.log?.('warn', 'pet folder not reloaded', { error: reloadError });
      }
      if (libraries?.signature !== before) service.folderChanged();
    },
    watchPaths: () => [dir],
    announce: () =>
      libraries
        ? deps.log?.('info', 'pets on', { dir, types: types.length, idLookups: deps.database !== undefined })
        : deps.log?.('info', 'pets are off', { reason: off }),
  };
}
