// A hotel's pet libraries (`bundled/pet/<name>.nitro`) as rooms and the pet picture read them: by type id through
// the client's pet type list, read on first use and kept in a bounded cache.
import { join } from 'node:path';
import { pathsSignature } from '../hotel/files.js';
import { cachedLookups, lookupBytes } from '../furni/bundles.js';
import { PET_DIR, petLibraryFile, readPetLibrary } from '../hotel/pet.js';
import { type PetModel, petModelFromLibrary } from './model.js';
import { DEFAULT_PET_TYPES, petLibraryName } from './types.js';

/** Libraries kept at once: more than the public set's 36 distinct pets. */
export const PET_CACHE_ENTRIES = 64;
/** Bytes of decoded sprite pixels kept, whatever the count (the public set's 36 libraries take about 40 MB). */
export const PET_CACHE_BYTES = 128 * 1024 * 1024;

export type PetLookup = { ok: true; model: PetModel } | { ok: false; reason: string };

export interface PetLibraries {
  readonly hotelRoot: string;
  /** The pet folder's signature (names, sizes, times): a changed file gives a new one. */
  readonly signature: string;
  /** The library a pet type draws with, or why there is none (a type the list lacks, a missing or bad file). */
  pet(typeId: number): Promise<PetLookup>;
  stats(): { entries: number; bytes: number };
}

/**
 * The pet libraries of a hotel folder; `previous` again when the folder is unchanged (its decoded libraries kept).
 * `types` is the hotel's pet type list (default: the public client's).
 */
export async function openPetLibraries(
  hotelRoot: string,
  previous?: PetLibraries,
  types: readonly string[] = DEFAULT_PET_TYPES,
): Promise<PetLibraries> {
  const signature = await pathsSignature([{ path: join(hotelRoot, PET_DIR), depth: 0 }]);
  if (previous && previous.hotelRoot === hotelRoot && previous.signature === signature) return previous;
  return petLibrariesAt(hotelRoot, signature, types);
}

/** The libraries of a folder whose signature is known, with a cache of their own (least recently used out). */
export function petLibrariesAt(
  hotelRoot: string,
  signature: string,
  types: readonly string[] = DEFAULT_PET_TYPES,
  maxBytes = PET_CACHE_BYTES,
): PetLibraries {
  const lookups = cachedLookups((name) => loadPet(hotelRoot, name), {
    max: PET_CACHE_ENTRIES,
    maxBytes,
    bytes: (found) => lookupBytes(found, (f) => f.model.furni.sprites.values()),
  });
  const pet = (typeId: number): Promise<PetLookup> => {
    const name = petLibraryName(typeId, types);
    if (name === undefined) return Promise.resolve({ ok: false, reason: `no pet type ${typeId} in the pet type list` });
    return lookups.get(name);
  };
  return { hotelRoot, signature, pet, stats: lookups.stats };
}

async function loadPet(hotelRoot: string, name: string): Promise<PetLookup> {
  const file = await petLibraryFile(hotelRoot, name);
  if (!file) return { ok: false, reason: `no pet library ${PET_DIR}/${name}.nitro` };
  try {
    return { ok: true, model: petModelFromLibrary(await readPetLibrary(hotelRoot, file)) };
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
}
