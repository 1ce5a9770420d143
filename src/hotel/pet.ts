// Reading a hotel's pet libraries (Nitro layout): one bundle per pet type, `bundled/pet/<name>.nitro`, read on
// demand with readAssetFile (inside the folder, within the decode budget) and decoded within the budget.
import { join } from 'node:path';
import { readAssetLibrary, type AssetLibrary } from '../formats/asset-library.js';
import { isFile, readAssetFile } from './files.js';

export const PET_DIR = 'bundled/pet';

/** The library file of a pet name, or undefined when the hotel has none (or the name is not a plain name). */
export async function petLibraryFile(hotelRoot: string, name: string): Promise<string | undefined> {
  if (!/^[A-Za-z0-9_-]+$/.test(name)) return undefined;
  const file = join(hotelRoot, PET_DIR, `${name}.nitro`);
  return (await isFile(file)) ? file : undefined;
}

/** Reads one pet library into an asset library (within the decode budget). */
export async function readPetLibrary(hotelRoot: string, file: string): Promise<AssetLibrary> {
  return readAssetLibrary(await readAssetFile(file, hotelRoot), file, { nativeDecode: true });
}
