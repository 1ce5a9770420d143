// Reading the avatar half of a hotel folder. Nitro layout: gamedata/*.json + bundled/figure/*.nitro
// (plus gamedata/FlashAvatarData.json when converted from Flash); Flash layout: XML gamedata + figure
// SWFs. The gamedata is parsed up front and every library file is read once: its SHA-256 is recorded and
// its header and manifest are checked (a broken one is reported by name). What comes back is plain data
// (no functions), so the avatar service can hand one reading of the folder to every render thread. A
// library's sprites are read later, on first use, by `libraryLoader`, which refuses bytes other than the
// ones recorded here: a thread never draws from a file that changed after its hotel was read.
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { checkAssetCount, readAssetLibrary, readAssetNames, type AssetLibrary } from '../formats/asset-library.js';
import {
  type AvatarActionsDoc,
  type AvatarDocuments,
  type FigureDataDoc,
  type FigureMapDoc,
} from '../formats/gamedata/figure-types.js';
import { type EffectAnimationJson, type EffectMapDoc } from '../formats/gamedata/effect-types.js';
import { readNitroBundle } from '../formats/nitro-container.js';
import { checkFigureSwf, readFigureSwf } from '../formats/flash/figure-library.js';
import { findEffectSwfs, readFlashAvatarSources } from './flash.js';
import { readEffectHeader, readEffectSwf } from '../formats/flash/effect-library.js';
import { parseEffectMapXml } from '../formats/gamedata/effect-xml.js';
import { readFlashAvatarData } from './flash-avatar-data.js';
import { pathsSignature, readAssetFile, type WatchedPath } from './files.js';
import { sha256Hex } from '../util/hash.js';

/** A library file as the folder held it when read: name, path and the SHA-256 (hex) of its bytes. */
export interface LibraryFile {
  name: string;
  file: string;
  digest: string;
}

/** A library whose header or manifest does not read: the hotel loads without it, as the client would. */
export interface LibraryProblem {
  kind: 'figure' | 'effect';
  library: string;
  file: string;
  /** Of the bytes that did not read (an unchanged broken file is the same problem). */
  digest: string;
  error: string;
}

/** What a hotel folder gives the avatar renderer: plain data, read once. */
export interface AvatarSources extends AvatarDocuments {
  layout: 'nitro' | 'flash';
  /** The libraries position `sh_` sprites themselves. */
  smallSprites: boolean;
  /** Every figure library of the folder, broken ones included (a render needing one fails, as before). */
  libraries: LibraryFile[];
  /** The hotel's avatar effects, when it has an effect map and effect libraries. */
  effects?: EffectSources;
  /** Figure and effect libraries that do not read. */
  problems: LibraryProblem[];
}

/** Avatar effects of a hotel folder: the map and every readable effect library's animations. */
export interface EffectSources {
  map: EffectMapDoc;
  /** Library name → its `animations` block (read at load: small, and needed to plan without pixels). */
  animations: Map<string, Record<string, EffectAnimationJson>>;
  /** The effect libraries whose animations read (the others draw nothing). */
  libraries: LibraryFile[];
  /**
   * Library name → the names of its assets and aliases (read with the animations: which library holds which sprite).
   */
  assetNames: Map<string, string[]>;
}

export interface ReadAvatarSourcesOptions {
  /** Called with the asset and alias names of each readable Nitro figure library (for the part index). */
  onAssetNames?: (library: string, names: string[]) => void;
}

/** A library file that no longer holds the bytes its hotel was read with (replaced, removed, being copied). */
export class LibraryChangedError extends Error {
  override name = 'LibraryChangedError';
  constructor(
    readonly library: string,
    readonly file: string,
    detail: string,
  ) {
    super(`${file} changed after the hotel was loaded (${detail})`);
  }
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));
/** Library files read at once while scanning: the disk overlaps the inflating and hashing. */
const SCAN_PARALLEL = 8;

async function readJson<T>(file: string, root: string): Promise<T> {
  let text: string;
  try {
    text = (await readAssetFile(file, root)).toString('utf8');
  } catch (e) {
    throw new Error(`cannot read ${file}: ${message(e)}`);
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as T;
  } catch (e) {
    throw new Error(`${file} is not valid JSON: ${message(e)}`);
  }
}

/** The gamedata documents each layout renders avatars from (what the readers below read). */
const NITRO_DOCUMENTS = [
  'FigureData.json',
  'FigureMap.json',
  'HabboAvatarActions.json',
  'FlashAvatarData.json',
  'EffectMap.json',
];
const FLASH_DOCUMENTS = [
  'figuredata.xml',
  'figuremap.xml',
  'HabboAvatarActions.xml',
  'HabboAvatarGeometry.xml',
  'HabboAvatarAnimation.xml',
  'HabboAvatarPartSets.xml',
  'partsets.xml',
  'draworder.xml',
  'effectmap.xml',
];
/** Folders holding libraries (both layouts). */
const LIBRARY_FOLDERS = [['bundled', 'figure'], ['bundled', 'effect'], ['gordon'], ['figure']];

/** Reads the avatar sources of a hotel folder; a folder that is neither layout, or unreadable gamedata, throws. */
export async function readAvatarSources(
  assetsDir: string,
  opts: ReadAvatarSourcesOptions = {},
): Promise<AvatarSources> {
  const gamedata = join(assetsDir, 'gamedata');
  if (existsSync(join(gamedata, 'FigureData.json'))) return readNitroSources(assetsDir, opts);
  if (existsSync(join(gamedata, 'figuredata.xml'))) return readFlashSources(assetsDir);
  throw new Error(
    `${assetsDir} has neither gamedata/FigureData.json (Nitro layout) nor gamedata/figuredata.xml (Flash layout)`,
  );
}

/**
 * Reads each library (a few at a time, results in name order): its digest, and `check` on its bytes;
 * `check` returns what to keep of a good one, and a library it throws on is a problem.
 */
async function scanLibraries<T>(
  root: string,
  kind: LibraryProblem['kind'],
  files: [string, string][],
  check: (bytes: Buffer, file: string, name: string) => Promise<T>,
): Promise<{ read: (LibraryFile & { value?: T })[]; problems: LibraryProblem[] }> {
  const sorted = [...files].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const read = new Array<LibraryFile & { value?: T }>(sorted.length);
  const problems = new Array<LibraryProblem | undefined>(sorted.length);
  let next = 0;
  const worker = async () => {
    while (next < sorted.length) {
      const at = next++;
      const [name, file] = sorted[at]!;
      let bytes: Buffer;
      try {
        bytes = await readAssetFile(file, root);
      } catch (e) {
        read[at] = { name, file, digest: '' };
        problems[at] = { kind, library: name, file, digest: '', error: `cannot read: ${message(e)}` };
        continue;
      }
      const digest = sha256Hex(bytes);
      try {
        read[at] = { name, file, digest, value: await check(bytes, file, name) };
      } catch (e) {
        read[at] = { name, file, digest };
        problems[at] = { kind, library: name, file, digest, error: message(e) };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(SCAN_PARALLEL, Math.max(1, sorted.length)) }, worker));
  return { read, problems: problems.filter((p): p is LibraryProblem => p !== undefined) };
}

const plainFile = ({ name, file, digest }: LibraryFile): LibraryFile => ({ name, file, digest });

/**
 * Flash layout: XML gamedata (with the hotel's own geometry, animations, part sets, draw order when present) + figure
 * SWFs.
 */
async function readFlashSources(assetsDir: string): Promise<AvatarSources> {
  const src = await readFlashAvatarSources(assetsDir);
  const figures = await scanLibraries(assetsDir, 'figure', [...src.libraries], (bytes, file) =>
    checkFigureSwf(bytes, file),
  );
  const effects = await readFlashEffects(assetsDir);
  return {
    layout: 'flash',
    figureData: src.figureData,
    figureMap: src.figureMap,
    actions: src.actions,
    geometry: src.geometry,
    partSets: src.partSets,
    animations: src.animations,
    drawOrder: src.drawOrder,
    // The SWFs keep the small-size `sh_` sprites with their offsets.
    smallSprites: [...src.libraries.keys()].some((n) => n.startsWith('hh_human_50_')),
    libraries: figures.read.map(plainFile),
    effects: effects?.sources,
    problems: [...figures.problems, ...(effects?.problems ?? [])],
  };
}

/**
 * A Flash hotel's effects: `gamedata/effectmap.xml` and the effect SWFs beside the figure libraries. The
 * SWFs are read at load for their animation documents (bitmaps are not decoded); sprites on first use.
 * An unreadable SWF is left out (its effect draws nothing) and reported.
 */
async function readFlashEffects(
  assetsDir: string,
): Promise<{ sources?: EffectSources; problems: LibraryProblem[] } | undefined> {
  const mapFile = join(assetsDir, 'gamedata', 'effectmap.xml');
  if (!existsSync(mapFile)) return undefined;
  const map = parseEffectMapXml((await readAssetFile(mapFile, assetsDir)).toString('utf8'), mapFile);
  const swfs = await findEffectSwfs(
    assetsDir,
    map.effects.map((e) => e.lib),
  );
  if (swfs.size === 0) return undefined;
  const { read, problems } = await scanLibraries(assetsDir, 'effect', [...swfs], (bytes, file) =>
    readEffectHeader(bytes, file),
  );
  return { sources: effectSources(map, read), problems };
}

type EffectHeader = { animations: Record<string, EffectAnimationJson>; assetNames: string[] };

function effectSources(map: EffectMapDoc, read: (LibraryFile & { value?: EffectHeader })[]): EffectSources {
  const animations = new Map<string, Record<string, EffectAnimationJson>>();
  const assetNames = new Map<string, string[]>();
  const libraries: LibraryFile[] = [];
  for (const r of read) {
    if (!r.value) continue;
    animations.set(r.name, r.value.animations);
    assetNames.set(r.name, r.value.assetNames);
    libraries.push(plainFile(r));
  }
  return { map, animations, assetNames, libraries };
}

async function readNitroSources(assetsDir: string, opts: ReadAvatarSourcesOptions): Promise<AvatarSources> {
  const gamedata = join(assetsDir, 'gamedata');
  const figureDir = join(assetsDir, 'bundled', 'figure');
  const [figureData, figureMap, actions, files] = await Promise.all([
    readJson<FigureDataDoc>(join(gamedata, 'FigureData.json'), assetsDir),
    readJson<FigureMapDoc>(join(gamedata, 'FigureMap.json'), assetsDir),
    existsSync(join(gamedata, 'HabboAvatarActions.json'))
      ? readJson<AvatarActionsDoc>(join(gamedata, 'HabboAvatarActions.json'), assetsDir)
      : Promise.resolve({ actions: [] }),
    readdir(figureDir).catch(() => [] as string[]),
  ]);
  if (!figureData || !Array.isArray(figureData.setTypes)) throw new Error('FigureData.json has no setTypes');
  if (!figureMap || !Array.isArray(figureMap.libraries)) throw new Error('FigureMap.json has no libraries');
  const names = files.filter((f) => f.endsWith('.nitro')).map((f) => f.slice(0, -'.nitro'.length));
  // A folder converted from a Flash hotel carries that hotel's own avatar documents along.
  const flash = await readFlashAvatarData(assetsDir);
  const figures = await scanLibraries(
    assetsDir,
    'figure',
    names.map((n) => [n, join(figureDir, `${n}.nitro`)]),
    async (bytes, file, name) => {
      const assetNames = readAssetNames(bytes, file);
      opts.onAssetNames?.(name, assetNames);
    },
  );
  const effects = await readNitroEffects(assetsDir);
  return {
    layout: 'nitro',
    figureData,
    figureMap,
    actions,
    geometry: flash?.geometry,
    partSets: flash?.partSets,
    animations: flash?.animations,
    drawOrder: flash?.drawOrder,
    // Nitro bundles lose the `sh_` offsets (nitro-converter), so size s halves the `h` sprites, unless
    // the bundles were converted from SWFs that kept them.
    smallSprites: flash?.smallSprites ?? false,
    libraries: figures.read.map(plainFile),
    effects: effects?.sources,
    problems: [...figures.problems, ...(effects?.problems ?? [])],
  };
}

/**
 * `gamedata/EffectMap.json` + `bundled/effect/<lib>.nitro` (EffectAssetDownloadManager's layout). Only the
 * JSON documents are read here; sprites are read on first use. A library whose JSON does not read is left
 * out (its effect then draws nothing, as in a client that cannot download it) and reported.
 */
async function readNitroEffects(
  assetsDir: string,
): Promise<{ sources?: EffectSources; problems: LibraryProblem[] } | undefined> {
  const mapFile = join(assetsDir, 'gamedata', 'EffectMap.json');
  const effectDir = join(assetsDir, 'bundled', 'effect');
  if (!existsSync(mapFile) || !existsSync(effectDir)) return undefined;
  const map = await readJson<EffectMapDoc>(mapFile, assetsDir);
  if (!map || !Array.isArray(map.effects)) throw new Error('EffectMap.json has no effects list');
  const present = new Set(
    (await readdir(effectDir)).filter((f) => f.endsWith('.nitro')).map((f) => f.slice(0, -'.nitro'.length)),
  );
  const wanted = [...new Set(map.effects.map((e) => String(e?.lib ?? '')).filter((l) => present.has(l)))];
  const { read, problems } = await scanLibraries(
    assetsDir,
    'effect',
    wanted.map((l) => [l, join(effectDir, `${l}.nitro`)]),
    async (bytes, file) => {
      const [member, json] = [...readNitroBundle(bytes, file, (n) => n.endsWith('.json')).entries()][0] ?? [];
      if (!json) throw new Error(`nitro bundle ${file}: no .json document inside`);
      let doc: { animations?: Record<string, EffectAnimationJson>; assets?: object; aliases?: object };
      try {
        doc = JSON.parse(json.toString('utf8')) as typeof doc;
      } catch (e) {
        throw new Error(`nitro bundle ${file}: its JSON document is not valid: ${message(e)}`);
      }
      checkAssetCount(doc, file, member!);
      if (!doc?.animations || typeof doc.animations !== 'object')
        throw new Error(`nitro bundle ${file}: its JSON document has no animations`);
      return {
        animations: doc.animations,
        assetNames: [...Object.keys(doc.assets ?? {}), ...Object.keys(doc.aliases ?? {})],
      };
    },
  );
  return { sources: effectSources(map, read), problems };
}

/**
 * Reads a library by name from the files recorded when the folder was read, parsed as its layout and
 * kind store it. Bytes other than the recorded ones (or a file gone) throw `LibraryChangedError`.
 */
export function libraryLoader(
  layout: AvatarSources['layout'],
  kind: LibraryProblem['kind'],
  libraries: readonly LibraryFile[],
  problems: readonly LibraryProblem[] = [],
): (name: string) => Promise<AssetLibrary> {
  const byName = new Map(libraries.map((l) => [l.name, l]));
  // A library refused when the folder was read is not read again (a bomb would cost its budget per render).
  const refused = new Map(
    problems.filter((p) => p.kind === kind && p.digest !== '').map((p) => [`${p.library}\0${p.digest}`, p.error]),
  );
  return async (name) => {
    const lib = byName.get(name);
    if (!lib) throw new Error(`no ${kind} library ${name}`);
    const error = refused.get(`${name}\0${lib.digest}`);
    if (error !== undefined) throw new Error(error);
    let bytes: Buffer;
    try {
      bytes = await readFile(lib.file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new LibraryChangedError(name, lib.file, 'it is gone');
      throw e;
    }
    if (lib.digest !== '' && sha256Hex(bytes) !== lib.digest)
      throw new LibraryChangedError(name, lib.file, 'other bytes');
    if (layout === 'nitro') return readAssetLibrary(bytes, lib.file);
    return kind === 'figure' ? readFigureSwf(bytes, lib.file) : (await readEffectSwf(bytes, lib.file)).library;
  };
}

/**
 * The paths `readAvatarSources` reads, to watch (`pathsSignature`): the avatar gamedata documents and
 * every entry of the library folders, so a file still being copied (under any name) shows.
 */
export function avatarWatchPaths(assetsDir: string): WatchedPath[] {
  return [
    ...[...NITRO_DOCUMENTS, ...FLASH_DOCUMENTS].map((n) => ({ path: join(assetsDir, 'gamedata', n) })),
    // Flash keeps release folders under gordon/ and figure/ (one level, as the reader looks).
    ...LIBRARY_FOLDERS.map((parts) => ({ path: join(assetsDir, ...parts), depth: parts[0] === 'bundled' ? 0 : 1 })),
  ];
}

/** A signature of everything `readAvatarSources` reads, without reading a file. */
export async function avatarFolderSignature(assetsDir: string): Promise<string> {
  return pathsSignature(avatarWatchPaths(assetsDir));
}
