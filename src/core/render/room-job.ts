// Rooms in a render worker: the room assets of a hotel folder loaded once per room.nitro (by digest), bundle
// folder, pet folder and hotel generation (its bundles from the worker's folders, its bots drawn with the worker's own
// avatar hotel of that generation), then the room drawn. The picture goes back unencoded: the room service
// encodes it (libvips, off the event loop) for each background, zoom or thumbnail.
import { LRUCache } from 'lru-cache';
import { type AvatarHotel } from '../../avatar/index.js';
import { loadRoomAssets, renderRoom, type RoomAssets, type RoomPicture } from '../../room/index.js';
import { type BundleFolders } from './furni-job.js';
import { type PetFolders } from './pet-job.js';
import { type RoomJob } from './render-protocol.js';

export interface RoomJobRunner {
  run(job: RoomJob): Promise<RoomPicture>;
  /** Forgets the assets loaded for a generation the pool dropped. */
  drop(generation: number): void;
}

export function roomJobRunner(
  bundlesOf: BundleFolders,
  petsOf: PetFolders,
  hotelOf: (generation: number) => AvatarHotel | undefined,
): RoomJobRunner {
  // The assets in service and one being reloaded (a new generation, bundle folder or room.nitro).
  const loadedAssets = new LRUCache<string, Promise<RoomAssets>>({ max: 2 });
  const assetsFor = (job: RoomJob): Promise<RoomAssets> => {
    const key =
      `${job.generation}\0${job.hotelRoot}\0${job.bundlesSignature}\0${job.visualizationDigest}` +
      `\0${job.petsSignature}`;
    let loading = loadedAssets.get(key);
    if (!loading) {
      const avatarHotel = hotelOf(job.generation);
      if (!avatarHotel) throw new Error(`hotel generation ${job.generation} is not loaded in this worker`);
      loading = loadRoomAssets(job.hotelRoot, {
        bundles: bundlesOf(job.hotelRoot, job.bundlesSignature),
        pets: petsOf(job.hotelRoot, job.petsSignature),
        avatarHotel,
      });
      // A room.nitro that did not read is read again by the next job (the service keeps the last good assets).
      loading.catch(() => loadedAssets.get(key) === loading && loadedAssets.delete(key));
      loadedAssets.set(key, loading);
    }
    return loading;
  };
  return {
    run: async (job) => renderRoom(job.room, await assetsFor(job), job.options),
    drop: (generation) => {
      for (const key of [...loadedAssets.keys()]) if (key.startsWith(`${generation}\0`)) loadedAssets.delete(key);
    },
  };
}
