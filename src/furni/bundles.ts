// A hotel's furni bundles (`bundled/furniture/<classname>.nitro`) as the things that draw furni read them: rooms,
// furni on demand and the render workers. Read on first use, kept in a bounded cache, and named the way the
// client names a stored item's bundle.
import { LRUCache } from 'lru-cache';
import { KeyedInflight } from '../util/keyed-inflight.js';
import { join } from 'node:path';
import { pathsSignature } from '../hotel/files.js';
import { ROOM_FURNI_DIR, readRoomFurni, roomFurniFile } from '../hotel/room.js';
import { type FurniModel, furniModelFromLibrary } from './model.js';

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
  const lookups = cachedLookups((base) => loadFurni(hotelRoot, base), {
    max: FURNI_CACHE_ENTRIES,
    maxBytes,
    bytes: (found) => lookupBytes(found, (f) => f.model.sprites.values()),
  });
  return { hotelRoot, signature, furni: lookups.get, stats: lookups.stats };
}

/**
 * Lookups by name read on first use and kept in a cache of at most `max` entries and `maxBytes` (by `bytes`),
 * least recently used out; concurrent asks for one name share one read. A lookup alone over `maxBytes` is given
 * and not kept. The furni bundles' cache, and the pet libraries'.
 */
export function cachedLookups<T extends {}>(
  load: (name: string) => Promise<T>,
  limits: { max: number; maxBytes: number; bytes: (found: T) => number },
): { get(name: string): Promise<T>; stats(): { entries: number; bytes: number } } {
  const cache = new LRUCache<string, T>({
    max: limits.max,
    maxSize: Math.max(1, limits.maxBytes),
    sizeCalculation: limits.bytes,
  });
  const reading = new KeyedInflight<T>();
  const get = (name: string): Promise<T> => {
    const held = cache.get(name);
    if (held) return Promise.resolve(held);
    return reading.run(name, () =>
      load(name).then((found) => {
        cache.set(name, found); // not kept when it alone is over maxBytes
        return found;
      }),
    );
  };
  return { get, stats: () => ({ entries: cache.size, bytes: cache.calculatedSize }) };
}

/** The memory a lookup holds: its sprites' pixels (an image two assets share counted once), or its reason. */
export function lookupBytes<T extends { ok: true }>(
  found: T | { ok: false; reason: string },
  spritesOf: (found: T) => Iterable<{ image: { data: Uint8Array } }>,
): number {
  if (!found.ok) return 64 + found.reason.length * 2;
  const images = new Set<Uint8Array>();
  for (const s of spritesOf(found as T)) images.add(s.image.data);
  let bytes = 1024;
  for (const data of images) bytes += data.byteLength;
  return bytes;
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

/**
 * The classname the client draws a stored item as (RoomContentLoader.getFurnitureWallNameForTypeId): a wall
 * item of type `poster` is `poster<extra_data>` (poster 5 is the `poster5` bundle); any other is its own.
 */
export function drawnClassname(it: { classname: string; kind: 'floor' | 'wall'; extraData: string }): string {
  return it.kind === 'wall' && it.classname === 'poster' ? `poster${it.extraData ?? ''}` : it.classname;
}
