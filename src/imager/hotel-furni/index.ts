// Furni on demand in the avatar service (`/habbo-imaging/furni`, `/habbo-imaging/furniture`): reads the
// hotel's furnidata, takes the furni bundles the rooms draw from, and gives the service the core, its
// /healthz section and a reload. Self-contained like the badges and rooms: the avatar service hands over
// its caches and the shared bundle loader, and mounts the routes (src/server/hotel-furni/).
import { join } from 'node:path';
import { type FurnitureData } from '../../formats/furnidata.js';
import { isFile, readAssetFile } from '../../hotel/files.js';
import { readFurnidata } from '../../hotel/furni.js';
import { type FurniBundles } from '../../room/index.js';
import { sha256Hex } from '../../util/hash.js';
import {
  flashOnlyHint,
  furniIds,
  HotelFurniService,
  type HotelFurniDeps,
  type HotelFurniFiles,
} from './hotel-furni-service.js';

export { HotelFurniService, HOTEL_FURNI_CACHE_CONTROL } from './hotel-furni-service.js';

/** Where the furnidata is looked for, first found wins: the Nitro file, then the Flash-era ones. */
export const FURNIDATA_FILES = [
  'gamedata/FurnitureData.json',
  'gamedata/furnidata.json',
  'gamedata/furnidata.xml',
  'gamedata/furnidata.txt',
] as const;

export interface HotelFurni {
  service: HotelFurniService;
  health: () => Record<string, unknown>;
  /** Reads the furnidata and the bundle folder again and swaps them in when they changed. */
  reload: () => Promise<void>;
  watchPaths: () => string[];
}

async function readFiles(assetsDir: string, bundles: FurniBundles): Promise<HotelFurniFiles> {
  let data: FurnitureData | undefined;
  let furnidata: HotelFurniFiles['furnidata'] = {
    missing: `no ${FURNIDATA_FILES.join(', ')} in ${assetsDir}`,
  };
  for (const rel of FURNIDATA_FILES) {
    const file = join(assetsDir, rel);
    if (!(await isFile(file))) continue;
    const bytes = await readAssetFile(file, assetsDir);
    const format = rel.endsWith('.xml') ? 'xml' : rel.endsWith('.txt') ? 'txt' : 'json';
    data = (await readFurnidata(bytes, file, format)).data;
    furnidata = { file, digest: sha256Hex(bytes) };
    break;
  }
  const flashOnly = await flashOnlyHint(assetsDir);
  return { bundles, ids: furniIds(data), furnidata, ...(flashOnly ? { flashOnly } : {}) };
}

/**
 * Furni on demand for a hotel folder. A furnidata that does not parse stops the start (a later reload with
 * one keeps the files in service and says why in /healthz); a hotel without one still draws classnames.
 */
export async function openHotelFurni(
  assetsDir: string,
  bundles: () => Promise<FurniBundles>,
  deps: HotelFurniDeps,
): Promise<HotelFurni> {
  const service = new HotelFurniService(await readFiles(assetsDir, await bundles()), deps);
  let reloadError: string | null = null;
  return {
    service,
    health: () => {
      const files = service.current;
      return {
        enabled: true,
        furnidata: 'file' in files.furnidata ? files.furnidata.file : null,
        furnidataMissing: 'missing' in files.furnidata ? files.furnidata.missing : null,
        ids: { room: files.ids.room.size, wall: files.ids.wall.size },
        flashOnly: files.flashOnly ?? null,
        identity: service.filesId,
        reloadError,
        ...service.stats(),
      };
    },
    reload: async () => {
      try {
        service.swap(await readFiles(assetsDir, await bundles()));
        reloadError = null;
      } catch (err) {
        // The files in service stay: a half-copied furnidata does not take furni away.
        reloadError = (err as Error).message;
        deps.log?.('warn', 'furnidata not reloaded', { error: reloadError });
      }
    },
    watchPaths: () => [...FURNIDATA_FILES.map((f) => join(assetsDir, f)), join(assetsDir, 'bundled/furniture')],
  };
}
