// What a room render reads from the hotel: the room visualization (read once) and furni bundles (read on
// first use, kept in a bounded cache by base classname), plus the avatar hotel for bots. `identity` names
// all of it: the room.nitro's bytes, the furni folder's signature (names, sizes, times) and the avatar
// hotel's digests, so a cache keyed by it never serves a picture drawn from other files.
import { type AvatarHotel } from '../avatar/index.js';
import { type FurniBundles, type FurniLookup, openFurniBundles } from '../furni/bundles.js';
import { decodeBudget, setDecodeBudget } from '../imaging/decode-budget.js';
import { openPetLibraries, type PetLibraries, type PetLookup } from '../pet/libraries.js';
import { readRoomVisualization, type RoomVisualizationAssets } from '../hotel/room.js';
import { sha256Hex } from '../util/hash.js';

export interface RoomAssets {
  /** Digest naming every asset input the render can read (room.nitro, furni bundle set, avatar hotel). */
  readonly identity: string;
}

/** The loaded inputs behind the opaque RoomAssets (only this folder looks inside). */
export interface LoadedRoomAssets extends RoomAssets {
  readonly hotelRoot: string;
  readonly visualization: RoomVisualizationAssets;
  readonly avatarHotel: AvatarHotel | undefined;
  readonly bundlesSignature: string;
  /** The pet folder's signature (`petLibrariesAt(hotelRoot, petsSignature)`). */
  readonly petsSignature: string;
  furni(base: string): Promise<FurniLookup>;
  /** The library a pet type draws with (the client's pet type list names it). */
  pet(typeId: number): Promise<PetLookup>;
}

export interface LoadRoomAssetsOptions {
  /** The furni bundles to draw with (the service's, kept across reloads); the folder's own when absent. */
  bundles?: FurniBundles;
  /**
   * Byte budget for decoding one file (`--decode-budget`, in bytes): set as this thread's budget, which every
   * asset reader uses; the thread's current budget when absent.
   */
  decodeBudget?: number;
  /** The avatar hotel bots are drawn with; without one bots are listed as skipped. */
  avatarHotel?: AvatarHotel;
  /** The pet libraries to draw with (the service's, kept across reloads); the folder's own when absent. */
  pets?: PetLibraries;
}

/**
 * Reads a hotel's room visualization (`bundled/generic/room.nitro`) and prepares lazy, bounded furni loading.
 * The result is a snapshot: load again when `identity` would change (a new room.nitro, furni or figures).
 * @throws Error naming the file when the hotel has no room.nitro, or FormatError when it does not decode.
 * @example
 *   const assets = await loadRoomAssets('/srv/hotel', { avatarHotel });
 *   const picture = await renderRoom(room, assets, { size: 64, walls: true, furni: true, bots: true });
 */
export async function loadRoomAssets(hotelRoot: string, options: LoadRoomAssetsOptions = {}): Promise<RoomAssets> {
  if (options.decodeBudget !== undefined && options.decodeBudget !== decodeBudget().bytes)
    setDecodeBudget(options.decodeBudget);
  const visualization = await readRoomVisualization(hotelRoot);
  const bundles = options.bundles ?? (await openFurniBundles(hotelRoot));
  const petLibraries = options.pets ?? (await openPetLibraries(hotelRoot));
  const folder = bundles.signature;
  const avatar = options.avatarHotel;
  const identity = sha256Hex(
    `room-assets\0${visualization.digest}\0${folder}\0${avatar ? JSON.stringify(avatar.digests) : '-'}` +
      `\0${petLibraries.signature}`,
  ).slice(0, 32);
  const loaded: LoadedRoomAssets = {
    identity,
    hotelRoot,
    visualization,
    avatarHotel: avatar,
    bundlesSignature: folder,
    petsSignature: petLibraries.signature,
    furni: bundles.furni,
    pet: petLibraries.pet,
  };
  return loaded;
}

/** What another thread needs to load the same assets: the folder, and what it held when these were loaded. */
export interface RoomAssetsSource {
  hotelRoot: string;
  /** The bundle folder's signature (`furniBundlesAt(hotelRoot, bundlesSignature)`). */
  bundlesSignature: string;
  /** The room.nitro's digest: assets loaded from another room.nitro are not these. */
  visualizationDigest: string;
  /** The pet folder's signature (`petLibrariesAt(hotelRoot, petsSignature)`). */
  petsSignature: string;
}

export function roomAssetsSource(assets: RoomAssets): RoomAssetsSource {
  const a = loaded(assets);
  return {
    hotelRoot: a.hotelRoot,
    bundlesSignature: a.bundlesSignature,
    visualizationDigest: a.visualization.digest,
    petsSignature: a.petsSignature,
  };
}

export function loaded(assets: RoomAssets): LoadedRoomAssets {
  const a = assets as LoadedRoomAssets;
  if (!a.visualization || typeof a.furni !== 'function')
    throw new TypeError('renderRoom takes the RoomAssets that loadRoomAssets returned');
  return a;
}
