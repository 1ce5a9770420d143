// Reading the avatar half of a hotel folder. Nitro layout: gamedata/*.json + bundled/figure/*.nitro
// (plus gamedata/FlashAvatarData.json when converted from Flash); Flash layout: XML gamedata + figure
// SWFs. Only the gamedata is read up front; a figure library is read when its loader is called.
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readAssetLibrary, readAssetNames, type AssetLibrary } from '../formats/asset-library.js';
import type { AvatarActionsDoc, AvatarDocuments, FigureDataDoc, FigureMapDoc } from '../formats/gamedata/figure-types.js';
import type { EffectAnimationJson, EffectMapDoc } from '../formats/gamedata/effect-types.js';
import { readNitroBundle } from '../formats/nitro-container.js';
import { findEffectSwfs, flashFigureLoader, readFlashAvatarSources } from './flash.js';
import { readEffectHeader, readEffectSwf } from '../formats/flash/effect-library.js';
import { parseEffectMapXml } from '../formats/gamedata/effect-xml.js';
import { readFlashAvatarData } from './flash-avatar-data.js';

/** What a hotel folder gives the avatar renderer. */
export interface AvatarSources extends AvatarDocuments {
  layout: 'nitro' | 'flash';
  /** Names of the figure libraries the folder has. */
  libraryNames: string[];
  /** The libraries position `sh_` sprites themselves. */
  smallSprites: boolean;
  /** Reads a figure library by name. */
  loadLibrary: (name: string) => Promise<AssetLibrary>;
  /** Lists a library's asset names without decoding it, where the layout makes that cheap (Nitro). */
  readAssetNames?: (name: string) => Promise<string[]>;
  /** The files read (for the hotel's asset identity). */
  files: { documents: string[]; libraries: string[] };
  /** The hotel's avatar effects, when it has an effect map and effect libraries. */
  effects?: EffectSources;
}

/** Avatar effects of a hotel folder: the map, every effect library's animations, lazy sprite loading. */
export interface EffectSources {
  map: EffectMapDoc;
  /** Library name → its `animations` block (read at load: small, and needed to plan without pixels). */
  animations: Map<string, Record<string, EffectAnimationJson>>;
  /** Library name → the names of its assets and aliases (read with the animations: which library holds which sprite). */
  assetNames: Map<string, string[]>;
  loadLibrary: (name: string) => Promise<AssetLibrary>;
  /** EffectMap and effect library files, for an identity of their own (effect requests only). */
  files: { documents: string[]; libraries: string[] };
}

async function readJson<T>(file: string): Promise<T> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new Error(`cannot read ${file}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as T;
  } catch (e) {
    throw new Error(`${file} is not valid JSON: ${(e as Error).message}`);
  }
}

/** The gamedata files each layout renders avatars from (what the readers below read). */
const NITRO_DOCUMENTS = ['FigureData.json', 'FigureMap.json', 'HabboAvatarActions.json', 'FlashAvatarData.json'];
const FLASH_DOCUMENTS = [
  'figuredata.xml', 'figuremap.xml', 'HabboAvatarActions.xml', 'HabboAvatarGeometry.xml', 'HabboAvatarAnimation.xml',
  'HabboAvatarPartSets.xml', 'partsets.xml', 'draworder.xml',
];

async function presentFiles(dir: string, names: string[]): Promise<string[]> {
  return names.map((n) => join(dir, n)).filter((p) => existsSync(p));
}

/** Reads the avatar sources of a hotel folder; a folder that is neither layout, or unreadable gamedata, throws. */
export async function readAvatarSources(assetsDir: string): Promise<AvatarSources> {
  const gamedata = join(assetsDir, 'gamedata');
  if (existsSync(join(gamedata, 'FigureData.json'))) return readNitroSources(assetsDir);
  if (existsSync(join(gamedata, 'figuredata.xml'))) return readFlashSources(assetsDir);
  throw new Error(`${assetsDir} has neither gamedata/FigureData.json (Nitro layout) nor gamedata/figuredata.xml (Flash layout)`);
}

/** Flash layout: XML gamedata (with the hotel's own geometry, animations, part sets, draw order when present) + figure SWFs. */
async function readFlashSources(assetsDir: string): Promise<AvatarSources> {
  const src = await readFlashAvatarSources(assetsDir);
  return {
    layout: 'flash',
    figureData: src.figureData,
    figureMap: src.figureMap,
    actions: src.actions,
    geometry: src.geometry,
    partSets: src.partSets,
    animations: src.animations,
    drawOrder: src.drawOrder,
    libraryNames: [...src.libraries.keys()],
    // The SWFs keep the small-size `sh_` sprites with their offsets.
    smallSprites: [...src.libraries.keys()].some((n) => n.startsWith('hh_human_50_')),
    loadLibrary: flashFigureLoader(src.libraries),
    files: { documents: await presentFiles(join(assetsDir, 'gamedata'), FLASH_DOCUMENTS), libraries: [...src.libraries.values()] },
    effects: await readFlashEffects(assetsDir),
  };
}

/**
 * A Flash hotel's effects: `gamedata/effectmap.xml` and the effect SWFs beside the figure libraries. The
 * SWFs are read at load for their animation documents only (bitmaps are not decoded); sprites on first
 * use. An unreadable SWF is left out (its effect draws nothing).
 */
async function readFlashEffects(assetsDir: string): Promise<EffectSources | undefined> {
  const mapFile = join(assetsDir, 'gamedata', 'effectmap.xml');
  if (!existsSync(mapFile)) return undefined;
  const map = parseEffectMapXml(await readFile(mapFile, 'utf8'), mapFile);
  const swfs = await findEffectSwfs(assetsDir, map.effects.map((e) => e.lib));
  if (swfs.size === 0) return undefined;
  const animations = new Map<string, Record<string, EffectAnimationJson>>();
  const assetNames = new Map<string, string[]>();
  for (const [lib, file] of [...swfs].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    try {
      const header = await readEffectHeader(await readFile(file), file);
      animations.set(lib, header.animations);
      assetNames.set(lib, header.assetNames);
    } catch {
      // Unreadable: the effect is not drawn.
    }
  }
  return {
    map,
    animations,
    assetNames,
    loadLibrary: async (name) => {
      const file = swfs.get(name);
      if (!file) throw new Error(`no effect library ${name}`);
      return (await readEffectSwf(await readFile(file), file)).library;
    },
    files: { documents: [mapFile], libraries: [...animations.keys()].map((l) => swfs.get(l)!) },
  };
}

async function readNitroSources(assetsDir: string): Promise<AvatarSources> {
  const gamedata = join(assetsDir, 'gamedata');
  const figureDir = join(assetsDir, 'bundled', 'figure');
  const [figureData, figureMap, actions, files] = await Promise.all([
    readJson<FigureDataDoc>(join(gamedata, 'FigureData.json')),
    readJson<FigureMapDoc>(join(gamedata, 'FigureMap.json')),
    existsSync(join(gamedata, 'HabboAvatarActions.json')) ? readJson<AvatarActionsDoc>(join(gamedata, 'HabboAvatarActions.json')) : Promise.resolve({ actions: [] }),
    readdir(figureDir).catch(() => [] as string[]),
  ]);
  if (!figureData || !Array.isArray(figureData.setTypes)) throw new Error('FigureData.json has no setTypes');
  if (!figureMap || !Array.isArray(figureMap.libraries)) throw new Error('FigureMap.json has no libraries');
  const names = files.filter((f) => f.endsWith('.nitro')).map((f) => f.slice(0, -'.nitro'.length));
  // A folder converted from a Flash hotel carries that hotel's own avatar documents along.
  const flash = await readFlashAvatarData(assetsDir);
  return {
    layout: 'nitro',
    figureData,
    figureMap,
    actions,
    geometry: flash?.geometry,
    partSets: flash?.partSets,
    animations: flash?.animations,
    drawOrder: flash?.drawOrder,
    libraryNames: names,
    // Nitro bundles lose the `sh_` offsets (nitro-converter), so size s halves the `h` sprites, unless
    // the bundles were converted from SWFs that kept them.
    smallSprites: flash?.smallSprites ?? false,
    loadLibrary: async (name) => {
      const file = join(figureDir, `${name}.nitro`);
      return readAssetLibrary(await readFile(file), file);
    },
    readAssetNames: async (name) => {
      const file = join(figureDir, `${name}.nitro`);
      return readAssetNames(await readFile(file), file);
    },
    files: { documents: await presentFiles(gamedata, NITRO_DOCUMENTS), libraries: names.map((n) => join(figureDir, `${n}.nitro`)) },
    effects: await readNitroEffects(assetsDir),
  };
}

/**
 * `gamedata/EffectMap.json` + `bundled/effect/<lib>.nitro` (EffectAssetDownloadManager's layout). Only the
 * JSON documents are read here; sprites are read on first use. A library whose JSON does not read is left
 * out (its effect then draws nothing, as in a client that cannot download it).
 */
async function readNitroEffects(assetsDir: string): Promise<EffectSources | undefined> {
  const mapFile = join(assetsDir, 'gamedata', 'EffectMap.json');
  const effectDir = join(assetsDir, 'bundled', 'effect');
  if (!existsSync(mapFile) || !existsSync(effectDir)) return undefined;
  const map = await readJson<EffectMapDoc>(mapFile);
  if (!map || !Array.isArray(map.effects)) throw new Error('EffectMap.json has no effects list');
  const present = new Set((await readdir(effectDir)).filter((f) => f.endsWith('.nitro')).map((f) => f.slice(0, -'.nitro'.length)));
  const wanted = [...new Set(map.effects.map((e) => String(e?.lib ?? '')).filter((l) => present.has(l)))].sort();
  const animations = new Map<string, Record<string, EffectAnimationJson>>();
  const assetNames = new Map<string, string[]>();
  for (const lib of wanted) {
    const file = join(effectDir, `${lib}.nitro`);
    try {
      const json = [...readNitroBundle(await readFile(file), file, (n) => n.endsWith('.json')).values()][0];
      const doc = json ? (JSON.parse(json.toString('utf8')) as { animations?: Record<string, EffectAnimationJson>; assets?: object; aliases?: object }) : undefined;
      if (doc?.animations && typeof doc.animations === 'object') {
        animations.set(lib, doc.animations);
        assetNames.set(lib, [...Object.keys(doc.assets ?? {}), ...Object.keys(doc.aliases ?? {})]);
      }
    } catch {
      // Unreadable: the effect is not drawn.
    }
  }
  return {
    map,
    animations,
    assetNames,
    loadLibrary: async (name) => {
      const file = join(effectDir, `${name}.nitro`);
      return readAssetLibrary(await readFile(file), file);
    },
    files: { documents: [mapFile], libraries: [...animations.keys()].map((l) => join(effectDir, `${l}.nitro`)) },
  };
}
