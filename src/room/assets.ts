// What a room render reads from the hotel: the room visualization (read once) and furni bundles (read on
// first use, kept in a bounded cache by base classname), plus the avatar hotel for bots. `identity` names
// all of it: the room.nitro's bytes, the furni folder's signature (names, sizes, times) and the avatar
// hotel's digests, so a cache keyed by it never serves a picture drawn from other files.
import { LRUCache } from 'lru-cache';
import { join } from 'node:path';
import { type AvatarHotel } from '../avatar/index.js';
import { type FurniModel, furniModelFromLibrary } from '../furni/model.js';
import { decodeBudget, setDecodeBudget } from '../imaging/decode-budget.js';
import { pathsSignature } from '../hotel/files.js';
import {
  ROOM_FURNI_DIR,
  readRoomFurni,
  readRoomVisualization,
  roomFurniFile,
  type RoomVisualizationAssets,
} from '../hotel/room.js';
import { sha256Hex } from '../util/hash.js';

/** Furni models kept in memory at once (the most distinct items a busy room shows; real bundles ≤ 0.7 MB). */
export const FURNI_CACHE_ENTRIES = 256;
/**
 * Bytes of decoded sprite pixels one bundle cache keeps, whatever the count: 256 real bundles take ~100 MB,
 * but 256 hostile ones each at the decode budget would take 16 GB. A larger bundle is drawn and not kept.
 */
export const FURNI_CACHE_BYTES = 256 * 1024 * 1024;

export type FurniLookup =
  | { ok: true; model: FurniModel /** The window's plane mask (logic.maskType), if it is one. */; maskType?: string }
  | { ok: false; reason: string };

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
  furni(base: string): Promise<FurniLookup>;
}

/**
 * A hotel's furni bundles (`bundled/furniture/<cn>.nitro`), read on first use and kept in a bounded cache by
 * base classname: what rooms draw from (and, in each render worker, what furni on demand draws from).
 */
export interface FurniBundles {
  readonly hotelRoot: string;
  /** The bundle folder's signature (names, sizes, times): a changed file gives a new one. */
  readonly signature: string;
  furni(base: string): Promise<FurniLookup>;
  /** What the cache holds: decoded bundles (and remembered misses) and their bytes. */
  stats(): { entries: number; bytes: number };
}

/**
 * The bundles of a hotel folder; `previous` again when its folder is unchanged (its decoded bundles kept).
 * @example
 *   let bundles = await openFurniBundles('/srv/hotel');
 *   const chair = await bundles.furni('chair_plasto');   // { ok: true, model } or { ok: false, reason }
 *   bundles = await openFurniBundles('/srv/hotel', bundles); // after a reload: the same object if nothing changed
 */
export async function openFurniBundles(hotelRoot: string, previous?: FurniBundles): Promise<FurniBundles> {
  const signature = await pathsSignature([{ path: join(hotelRoot, ROOM_FURNI_DIR), depth: 0 }]);
  if (previous && previous.hotelRoot === hotelRoot && previous.signature === signature) return previous;
  return furniBundlesAt(hotelRoot, signature);
}

/**
 * The bundles of a hotel folder whose signature is already known (a render worker is told it by the thread
 * that read the folder), with a cache of their own: at most FURNI_CACHE_ENTRIES bundles and `maxBytes` of
 * their pixels, least recently used out; concurrent asks for one bundle share one read.
 */
export function furniBundlesAt(hotelRoot: string, signature: string, maxBytes = FURNI_CACHE_BYTES): FurniBundles {
  const cache = new LRUCache<string, FurniLookup>({
    max: FURNI_CACHE_ENTRIES,
    maxSize: Math.max(1, maxBytes),
    sizeCalculation: lookupBytes,
  });
  const reading = new Map<string, Promise<FurniLookup>>();
  const furni = (base: string): Promise<FurniLookup> => {
    const held = cache.get(base);
    if (held) return Promise.resolve(held);
    let read = reading.get(base);
    if (!read) {
      read = loadFurni(hotelRoot, base)
        .then((found) => {
          cache.set(base, found); // not kept when it alone is over maxBytes
          return found;
        })
        .finally(() => reading.delete(base));
      reading.set(base, read);
    }
    return read;
  };
  return { hotelRoot, signature, furni, stats: () => ({ entries: cache.size, bytes: cache.calculatedSize }) };
}

/** The memory a lookup holds: its sprites' pixels (an image two assets share counted once). */
function lookupBytes(found: FurniLookup): number {
  if (!found.ok) return 64 + found.reason.length * 2;
  const images = new Set<Uint8Array>();
  for (const s of found.model.sprites.values()) images.add(s.image.data);
  let bytes = 1024;
  for (const data of images) bytes += data.byteLength;
  return bytes;
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
  const folder = bundles.signature;
  const avatar = options.avatarHotel;
  const identity = sha256Hex(
    `room-assets\0${visualization.digest}\0${folder}\0${avatar ? JSON.stringify(avatar.digests) : '-'}`,
  ).slice(0, 32);
  const furni = bundles.furni;
  const loaded: LoadedRoomAssets = {
    identity,
    hotelRoot,
    visualization,
    avatarHotel: avatar,
    bundlesSignature: folder,
    furni,
  };
  return loaded;
}

async function loadFurni(hotelRoot: string, base: string): Promise<FurniLookup> {
  const file = await roomFurniFile(hotelRoot, base);
  if (!file) return { ok: false, reason: `no bundle ${ROOM_FURNI_DIR}/${base}.nitro` };
  try {
    const lib = await readRoomFurni(hotelRoot, file);
    const maskType = (lib.data as { logic?: { maskType?: unknown } }).logic?.maskType;
    return {
      ok: true,
      model: furniModelFromLibrary(lib),
      ...(typeof maskType === 'string' && maskType ? { maskType } : {}),
    };
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
}

/** What another thread needs to load the same assets: the folder, and what it held when these were loaded. */
export interface RoomAssetsSource {
  hotelRoot: string;
  /** The bundle folder's signature (`furniBundlesAt(hotelRoot, bundlesSignature)`). */
  bundlesSignature: string;
  /** The room.nitro's digest: assets loaded from another room.nitro are not these. */
  visualizationDigest: string;
}

export function roomAssetsSource(assets: RoomAssets): RoomAssetsSource {
  const a = loaded(assets);
  return { hotelRoot: a.hotelRoot, bundlesSignature: a.bundlesSignature, visualizationDigest: a.visualization.digest };
}

export function loaded(assets: RoomAssets): LoadedRoomAssets {
  const a = assets as LoadedRoomAssets;
  if (!a.visualization || typeof a.furni !== 'function')
    throw new TypeError('renderRoom takes the RoomAssets that loadRoomAssets returned');
  return a;
}
