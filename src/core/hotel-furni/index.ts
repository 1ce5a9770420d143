// Furni on demand in the avatar service (Chroma's and vortex-imager's furni paths): reads the hotel's furnidata
// and the bundle folder's signature, and gives the service the core, its /healthz section and a reload.
// Self-contained like the badges and rooms: the avatar service hands over its caches, the bundle folder and
// the render pool's furni jobs, and mounts the routes (src/server/hotel-furni/).
import { join } from 'node:path';
import { type FurnitureData } from '../../formats/furnidata.js';
import { isFile, readAssetFile } from '../../hotel/files.js';
import { readFurnidata } from '../../hotel/furni.js';
import { type FurniBundles } from '../../furni/bundles.js';
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

/** A hotel folder's furni files; a furnidata that does not parse is read as none, and `broken` says why. */
async function readFiles(
  assetsDir: string,
  bundles: FurniBundles,
): Promise<{ files: HotelFurniFiles; broken?: string }> {
  let data: FurnitureData | undefined;
  let broken: string | undefined;
  let furnidata: HotelFurniFiles['furnidata'] = {
    missing: `no ${FURNIDATA_FILES.join(', ')} in ${assetsDir}`,
  };
  for (const rel of FURNIDATA_FILES) {
    const file = join(assetsDir, rel);
    if (!(await isFile(file))) continue;
    const bytes = await readAssetFile(file, assetsDir);
    const format = rel.endsWith('.xml') ? 'xml' : rel.endsWith('.txt') ? 'txt' : 'json';
    try {
      data = (await readFurnidata(bytes, file, format)).data;
      furnidata = { file, digest: sha256Hex(bytes) };
    } catch (err) {
      // A half-exported furnidata must not cost the avatars their service: ids are unknown until it is fixed.
      broken = (err as Error).message;
      furnidata = { missing: `${broken}; furnidata ids are unknown until it is fixed (classnames still draw)` };
    }
    break;
  }
  const flashOnly = await flashOnlyHint(assetsDir);
  const files = { bundles, ids: furniIds(data), furnidata, ...(flashOnly ? { flashOnly } : {}) };
  return broken === undefined ? { files } : { files, broken };
}

/**
 * Furni on demand for a hotel folder. A furnidata that does not parse is no furnidata (ids are unknown,
 * classnames still draw), said in /healthz and the log; on a reload, the ids in service stay instead.
 */
export async function openHotelFurni(
  assetsDir: string,
  bundles: () => Promise<FurniBundles>,
  deps: HotelFurniDeps,
): Promise<HotelFurni> {
  const first = await readFiles(assetsDir, await bundles());
  const service = new HotelFurniService(first.files, deps);
  let furnidataError = first.broken ?? null;
  if (furnidataError) deps.log?.('warn', 'furnidata not read: furni on demand knows no ids', { error: furnidataError });
  let reloadError: string | null = null;
  return {
    service,
    health: () => {
      const files = service.current;
      return {
        enabled: true,
        furnidata: 'file' in files.furnidata ? files.furnidata.file : null,
        furnidataMissing: 'missing' in files.furnidata ? files.furnidata.missing : null,
        furnidataError,
        ids: { room: files.ids.room.size, wall: files.ids.wall.size },
        flashOnly: files.flashOnly ?? null,
        identity: service.filesId,
        reloadError,
        ...service.stats(),
      };
    },
    reload: async () => {
      try {
        const next = await readFiles(assetsDir, await bundles());
        const current = service.current;
        // A half-copied furnidata does not take the ids in service away: the bundles are swapped, the ids stay.
        const keep = next.broken !== undefined && 'file' in current.furnidata;
        service.swap(keep ? { ...next.files, ids: current.ids, furnidata: current.furnidata } : next.files);
        furnidataError = next.broken ?? null;
        if (next.broken) deps.log?.('warn', 'furnidata not reloaded', { error: next.broken, idsKept: keep });
        reloadError = null;
      } catch (err) {
        // The files in service stay.
        reloadError = (err as Error).message;
        deps.log?.('warn', 'furni files not reloaded', { error: reloadError });
      }
    },
    watchPaths: () => [...FURNIDATA_FILES.map((f) => join(assetsDir, f)), join(assetsDir, 'bundled/furniture')],
  };
}
