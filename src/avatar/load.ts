// Loads a hotel's avatar model from a folder. Reading the folder (Nitro or Flash layout, its gamedata
// and figure libraries) is src/hotel/avatar.ts; libraries are read on first use (see library.ts).
import { readAvatarSources } from '../hotel/avatar.js';
import { AvatarRenderError } from './errors.js';
import { createAvatarHotel, type AvatarHotel } from './hotel.js';
import { indexLibraryParts } from './library.js';

export interface LoadAvatarHotelOptions {
  /** Bound on decoded library bytes kept in memory (default 256 MiB). */
  libraryCacheBytes?: number;
}

export async function loadAvatarHotel(assetsDir: string, opts: LoadAvatarHotelOptions = {}): Promise<AvatarHotel> {
  let src;
  try {
    src = await readAvatarSources(assetsDir);
  } catch (e) {
    throw new AvatarRenderError('gamedata', (e as Error).message);
  }
  // Which library really holds which part, read from the libraries' asset names (about a second for a
  // 2,000-library hotel): it finds sets the figure map forgot, and tells a set no library can draw.
  const partIndex = src.readAssetNames ? await indexLibraryParts(src.libraryNames, src.readAssetNames) : undefined;
  return createAvatarHotel({ ...src, libraryCacheBytes: opts.libraryCacheBytes, partIndex });
}
