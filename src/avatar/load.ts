// Loads a hotel's avatar assets from a folder. Nitro layout: gamedata/*.json + bundled/figure/*.nitro.
// Only the gamedata is read up front; libraries are read on first use (see library.ts).
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readAssetLibrary } from '../formats/asset-library.js';
import { flashFigureLoader, readFlashAvatarData, readFlashAvatarSources } from '../convert/flash-layout.js';
import { AvatarRenderError } from './errors.js';
import { createAvatarHotel, type AvatarHotel } from './hotel.js';

export interface LoadAvatarHotelOptions {
  /** Bound on decoded library bytes kept in memory (default 256 MiB). */
  libraryCacheBytes?: number;
}

async function readJson<T>(file: string): Promise<T> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new AvatarRenderError('gamedata', `cannot read ${file}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as T;
  } catch (e) {
    throw new AvatarRenderError('gamedata', `${file} is not valid JSON: ${(e as Error).message}`);
  }
}

/** The gamedata files each layout renders avatars from (what the loaders above read). */
const NITRO_DOCUMENTS = ['FigureData.json', 'FigureMap.json', 'HabboAvatarActions.json', 'FlashAvatarData.json'];
const FLASH_DOCUMENTS = [
  'figuredata.xml', 'figuremap.xml', 'HabboAvatarActions.xml', 'HabboAvatarGeometry.xml', 'HabboAvatarAnimation.xml',
  'HabboAvatarPartSets.xml', 'partsets.xml', 'draworder.xml',
];

async function presentFiles(dir: string, names: string[]): Promise<string[]> {
  return names.map((n) => join(dir, n)).filter((p) => existsSync(p));
}

export async function loadAvatarHotel(assetsDir: string, opts: LoadAvatarHotelOptions = {}): Promise<AvatarHotel> {
  const gamedata = join(assetsDir, 'gamedata');
  if (existsSync(join(gamedata, 'FigureData.json'))) return loadNitroHotel(assetsDir, opts);
  if (existsSync(join(gamedata, 'figuredata.xml'))) return loadFlashHotel(assetsDir, opts);
  throw new AvatarRenderError('gamedata', `${assetsDir} has neither gamedata/FigureData.json (Nitro layout) nor gamedata/figuredata.xml (Flash layout)`);
}

/** Flash layout: XML gamedata (with the hotel's own geometry, animations, part sets, draw order when present) + figure SWFs. */
async function loadFlashHotel(assetsDir: string, opts: LoadAvatarHotelOptions): Promise<AvatarHotel> {
  let src;
  try {
    src = await readFlashAvatarSources(assetsDir);
  } catch (e) {
    throw new AvatarRenderError('gamedata', (e as Error).message);
  }
  return createAvatarHotel({
    layout: 'flash',
    figureData: src.figureData,
    figureMap: src.figureMap,
    actions: src.actions,
    geometry: src.geometry,
    partSets: src.partSets,
    animations: src.animations,
    drawOrder: src.drawOrder,
    libraryNames: src.libraries.keys(),
    libraryCacheBytes: opts.libraryCacheBytes,
    // The SWFs keep the small-size `sh_` sprites with their offsets.
    smallSprites: [...src.libraries.keys()].some((n) => n.startsWith('hh_human_50_')),
    loadLibrary: flashFigureLoader(src.libraries),
    files: { documents: await presentFiles(join(assetsDir, 'gamedata'), FLASH_DOCUMENTS), libraries: [...src.libraries.values()] },
  });
}

async function loadNitroHotel(assetsDir: string, opts: LoadAvatarHotelOptions): Promise<AvatarHotel> {
  const gamedata = join(assetsDir, 'gamedata');
  const figureDir = join(assetsDir, 'bundled', 'figure');
  const [figureData, figureMap, actions, files] = await Promise.all([
    readJson<import('../formats/gamedata/figure-types.js').FigureDataDoc>(join(gamedata, 'FigureData.json')),
    readJson<import('../formats/gamedata/figure-types.js').FigureMapDoc>(join(gamedata, 'FigureMap.json')),
    existsSync(join(gamedata, 'HabboAvatarActions.json'))
      ? readJson<import('../formats/gamedata/figure-types.js').AvatarActionsDoc>(join(gamedata, 'HabboAvatarActions.json'))
      : Promise.resolve({ actions: [] }),
    readdir(figureDir).catch(() => [] as string[]),
  ]);
  if (!figureData || !Array.isArray(figureData.setTypes)) throw new AvatarRenderError('gamedata', 'FigureData.json has no setTypes');
  if (!figureMap || !Array.isArray(figureMap.libraries)) throw new AvatarRenderError('gamedata', 'FigureMap.json has no libraries');
  const names = files.filter((f) => f.endsWith('.nitro')).map((f) => f.slice(0, -'.nitro'.length));
  // A folder converted from a Flash hotel carries that hotel's own avatar documents along.
  let flash;
  try {
    flash = await readFlashAvatarData(assetsDir);
  } catch (e) {
    throw new AvatarRenderError('gamedata', (e as Error).message);
  }
  return createAvatarHotel({
    layout: 'nitro',
    figureData,
    figureMap,
    actions,
    geometry: flash?.geometry,
    partSets: flash?.partSets,
    animations: flash?.animations,
    drawOrder: flash?.drawOrder,
    libraryNames: names,
    libraryCacheBytes: opts.libraryCacheBytes,
    // Nitro bundles lose the `sh_` offsets (nitro-converter), so size s halves the `h` sprites, unless
    // the bundles were converted from SWFs that kept them.
    smallSprites: flash?.smallSprites ?? false,
    loadLibrary: async (name) => {
      const file = join(figureDir, `${name}.nitro`);
      return readAssetLibrary(await readFile(file), file);
    },
    files: { documents: await presentFiles(gamedata, NITRO_DOCUMENTS), libraries: names.map((n) => join(figureDir, `${n}.nitro`)) },
  });
}
