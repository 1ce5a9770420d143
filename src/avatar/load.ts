// Loads a hotel's avatar model from a folder, in two steps: `scanAvatarHotel` reads the folder once
// (src/hotel/avatar.ts: gamedata, every library's digest and check, the part index) into a snapshot of
// plain data; `hotelFromSnapshot` builds the model from it, with libraries read on first use (see
// library.ts). The avatar service scans once and builds the same hotel in every render thread.
import { libraryLoader, readAvatarSources, type AvatarSources } from '../hotel/avatar.js';

export { avatarFolderSignature, type LibraryProblem } from '../hotel/avatar.js';
import { AvatarRenderError } from './errors.js';
import { createAvatarHotel, type AvatarHotel } from './hotel.js';
import { partIndexFrom, partKeysOf, type LibraryCache, type PartIndex } from './library.js';
import { sha256Hex } from '../util/hash.js';

/** One reading of a hotel folder: structured-cloneable, so it can be posted to worker threads. */
export interface AvatarHotelSnapshot {
  dir: string;
  sources: AvatarSources;
  /** Which libraries really hold which part (Nitro: from every library's asset names). */
  partIndex?: PartIndex;
  /** Digest of the documents every render reads (actions, geometry, part sets, animations, draw order). */
  poseDigest: string;
  /** 16 hex digits for the whole hotel: its avatar documents and every library's bytes. */
  identity: string;
}

export interface LoadAvatarHotelOptions {
  /** Bound on decoded library bytes kept in memory (default 256 MiB). */
  libraryCacheBytes?: number;
  /** Caches shared with the thread's other hotels (keyed by library digest); see `createLibraryCaches`. */
  libraryCaches?: { figure: LibraryCache; effect: LibraryCache };
}

/**
 * Reads a hotel folder: throws (`gamedata`) when its gamedata does not read; libraries that do not read
 * are listed in `sources.problems` (the hotel loads without them, as the client would).
 */
export async function scanAvatarHotel(assetsDir: string): Promise<AvatarHotelSnapshot> {
  // Which library really holds which part, read from the libraries' asset names (about a second for a
  // 2,000-library hotel): it finds sets the figure map forgot, and tells a set no library can draw.
  const partKeys = new Map<string, string[]>();
  let src: AvatarSources;
  try {
    src = await readAvatarSources(assetsDir, { onAssetNames: (lib, names) => partKeys.set(lib, partKeysOf(names)) });
  } catch (e) {
    throw new AvatarRenderError('gamedata', (e as Error).message);
  }
  const pose = {
    actions: src.actions,
    geometry: src.geometry,
    partSets: src.partSets,
    animations: src.animations,
    drawOrder: src.drawOrder,
    smallSprites: src.smallSprites,
  };
  const poseDigest = sha256Hex(JSON.stringify(pose));
  // By meaning for the documents (a re-indented file is the same hotel), by bytes for the libraries.
  const whole = [
    src.layout,
    poseDigest,
    sha256Hex(JSON.stringify(src.figureData)),
    sha256Hex(JSON.stringify(src.figureMap)),
  ];
  for (const l of src.libraries) whole.push(`lib ${l.name} ${l.digest}`);
  if (src.effects) {
    whole.push(sha256Hex(JSON.stringify(src.effects.map)));
    for (const l of src.effects.libraries) whole.push(`fx ${l.name} ${l.digest}`);
  }
  return {
    dir: assetsDir,
    sources: src,
    partIndex: src.layout === 'nitro' ? partIndexFrom(partKeys) : undefined,
    poseDigest,
    identity: sha256Hex(whole.join('\n')).slice(0, 16),
  };
}

/** The hotel model of a snapshot; its libraries are read (and checked against the snapshot) on first use. */
export function hotelFromSnapshot(snap: AvatarHotelSnapshot, opts: LoadAvatarHotelOptions = {}): AvatarHotel {
  const s = snap.sources;
  return createAvatarHotel({
    layout: s.layout,
    figureData: s.figureData,
    figureMap: s.figureMap,
    actions: s.actions,
    geometry: s.geometry,
    partSets: s.partSets,
    animations: s.animations,
    drawOrder: s.drawOrder,
    smallSprites: s.smallSprites,
    libraryNames: s.libraries.map((l) => l.name),
    loadLibrary: libraryLoader(s.layout, 'figure', s.libraries, s.problems),
    libraryCacheBytes: opts.libraryCacheBytes,
    libraryCaches: opts.libraryCaches,
    partIndex: snap.partIndex,
    digests: {
      pose: snap.poseDigest,
      libraries: new Map(s.libraries.map((l) => [l.name, l.digest])),
      effectLibraries: new Map((s.effects?.libraries ?? []).map((l) => [l.name, l.digest])),
    },
    effects: s.effects && {
      map: s.effects.map,
      animations: s.effects.animations,
      assetNames: s.effects.assetNames,
      loadLibrary: libraryLoader(s.layout, 'effect', s.effects.libraries),
    },
  });
}

export async function loadAvatarHotel(assetsDir: string, opts: LoadAvatarHotelOptions = {}): Promise<AvatarHotel> {
  return hotelFromSnapshot(await scanAvatarHotel(assetsDir), opts);
}
