// Finding and reading a Flash-era hotel folder: where the figure libraries and furni SWFs are, and the
// avatar gamedata documents parsed into the shapes the avatar renderer takes. The converter uses it, and
// the avatar service can use it to serve a Flash folder directly.
import { readFile, readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { AvatarActionsDoc, FigureDataDoc, FigureMapDoc } from '../formats/gamedata/figure-types.js';
import { type AssetLibrary } from '../formats/asset-library.js';
import { readFigureSwf } from '../formats/flash/figure-library.js';
import { parseAnimationXml, parseDrawOrderXml, parseGeometryXml, parsePartSetsXml } from '../formats/gamedata/avatar-xml.js';
import type { AnimationSetXml, AvatarGeometryXml, DrawOrderXml, PartSetsXml } from '../formats/gamedata/avatar-xml-types.js';
import { parseAvatarActionsXml, parseFigureDataXml, parseFigureMapXml } from '../formats/gamedata/figure-xml.js';

export async function isDir(p: string): Promise<boolean> {
  return stat(p).then((s) => s.isDirectory(), () => false);
}
export async function isFile(p: string): Promise<boolean> {
  return stat(p).then((s) => s.isFile(), () => false);
}

/** `*.swf` files of a folder (symlinks followed), sorted. */
export async function listSwfs(dir: string): Promise<string[]> {
  if (!(await isDir(dir))) return [];
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (!e.name.toLowerCase().endsWith('.swf')) continue;
    if (e.isFile() || (e.isSymbolicLink() && (await isFile(join(dir, e.name))))) out.push(join(dir, e.name));
  }
  return out.sort();
}

/** SWFs in the figure folders: `gordon/*.swf`, `gordon/<release>/*.swf`, `figure/*.swf`. */
export async function findFigureFolderSwfs(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const base of ['gordon', 'figure']) {
    const dir = join(root, base);
    if (!(await isDir(dir))) continue;
    out.push(...(await listSwfs(dir)));
    for (const name of (await readdir(dir)).sort()) {
      if (await isDir(join(dir, name))) out.push(...(await listSwfs(join(dir, name))));
    }
  }
  return out;
}

/**
 * Figure libraries are the `hh_human_*` libraries and the ones figuremap names; other SWFs sharing the
 * folder (pets, effects) are not. Without a figuremap every SWF there counts.
 */
export function isFigureLibrary(file: string, mapped: Set<string> | undefined): boolean {
  const name = basename(file).replace(/\.swf$/i, '').toLowerCase();
  return name.startsWith('hh_human_') || mapped === undefined || mapped.has(name);
}

/** Figure library name → SWF path; the first folder holding a name wins (top level before releases). */
export async function findFigureLibraries(root: string, figureMap?: FigureMapDoc): Promise<Map<string, string>> {
  const mapped = figureMap ? new Set(figureMap.libraries.map((l) => l.id.toLowerCase())) : undefined;
  const out = new Map<string, string>();
  for (const p of await findFigureFolderSwfs(root)) {
    const name = basename(p).replace(/\.swf$/i, '');
    if (isFigureLibrary(p, mapped) && !out.has(name)) out.set(name, p);
  }
  return out;
}

export interface FlashAvatarSources {
  figureData: FigureDataDoc;
  figureMap: FigureMapDoc;
  actions: AvatarActionsDoc;
  /** The hotel's own avatar documents, when its gamedata has them. */
  geometry?: AvatarGeometryXml;
  partSets?: PartSetsXml;
  animations?: AnimationSetXml;
  drawOrder?: DrawOrderXml;
  /** Figure library name → SWF path. */
  libraries: Map<string, string>;
}

async function optional<T>(dir: string, names: string[], parse: (text: string, file: string) => T): Promise<T | undefined> {
  for (const n of names) {
    const p = join(dir, n);
    if (await isFile(p)) return parse(await readFile(p, 'utf8'), n);
  }
  return undefined;
}

/**
 * Reads the avatar half of a Flash folder: figuredata.xml and figuremap.xml (required),
 * HabboAvatarActions.xml, HabboAvatarGeometry.xml, HabboAvatarAnimation.xml, HabboAvatarPartSets.xml (or
 * partsets.xml) and draworder.xml when present, and the figure library SWFs. Parse errors are FormatErrors
 * naming the file.
 */
export async function readFlashAvatarSources(root: string): Promise<FlashAvatarSources> {
  const gd = join(root, 'gamedata');
  const figureData = await optional(gd, ['figuredata.xml'], parseFigureDataXml);
  if (!figureData) throw new Error(`${root} has no gamedata/figuredata.xml (Flash layout)`);
  const figureMap = await optional(gd, ['figuremap.xml'], parseFigureMapXml);
  if (!figureMap) throw new Error(`${root} has no gamedata/figuremap.xml (Flash layout)`);
  const actions = (await optional(gd, ['HabboAvatarActions.xml'], parseAvatarActionsXml)) ?? { actions: [] };
  return {
    figureData,
    figureMap,
    actions,
    geometry: await optional(gd, ['HabboAvatarGeometry.xml'], parseGeometryXml),
    // animation.xml (older clients) keys actions by state token, not by action id: not a substitute.
    animations: await optional(gd, ['HabboAvatarAnimation.xml'], parseAnimationXml),
    partSets: await optional(gd, ['HabboAvatarPartSets.xml', 'partsets.xml'], parsePartSetsXml),
    drawOrder: await optional(gd, ['draworder.xml'], parseDrawOrderXml),
    libraries: await findFigureLibraries(root, figureMap),
  };
}

/** Loads a figure library by name from its SWF (keeping the `sh_` sprites). */
export function flashFigureLoader(libraries: Map<string, string>): (name: string) => Promise<AssetLibrary> {
  return async (name) => {
    const path = libraries.get(name);
    if (!path) throw new Error(`no figure library ${name}`);
    return readFigureSwf(await readFile(path), path);
  };
}

/**
 * The avatar documents a Flash layout has and the Nitro layout lacks (nitro-renderer compiles them in).
 * `convert` carries them over as `gamedata/FlashAvatarData.json`, so a hotel served from the converted
 * folder renders exactly as from its SWFs: same geometry, animations, part sets and draw order, and the
 * small (`sh_`) sprites the converted figure bundles keep.
 */
export interface FlashAvatarData {
  format: 1;
  geometry?: AvatarGeometryXml;
  partSets?: PartSetsXml;
  animations?: AnimationSetXml;
  drawOrder?: DrawOrderXml;
  /** The figure bundles keep positioned `sh_` sprites (hh_human_50_* converted from SWF). */
  smallSprites: boolean;
}

export const FLASH_AVATAR_DATA_FILE = 'FlashAvatarData.json';

export function flashAvatarData(src: FlashAvatarSources): FlashAvatarData {
  const data: FlashAvatarData = { format: 1, smallSprites: [...src.libraries.keys()].some((n) => n.toLowerCase().startsWith('hh_human_50_')) };
  if (src.geometry) data.geometry = src.geometry;
  if (src.partSets) data.partSets = src.partSets;
  if (src.animations) data.animations = src.animations;
  if (src.drawOrder) data.drawOrder = src.drawOrder;
  return data;
}

/** Reads `gamedata/FlashAvatarData.json` of a converted Nitro folder; undefined when it has none. */
export async function readFlashAvatarData(assetsDir: string): Promise<FlashAvatarData | undefined> {
  const file = join(assetsDir, 'gamedata', FLASH_AVATAR_DATA_FILE);
  if (!(await isFile(file))) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(await readFile(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file} is not valid JSON: ${(e as Error).message}`);
  }
  if (!doc || typeof doc !== 'object' || (doc as { format?: unknown }).format !== 1) throw new Error(`${file} is not a format-1 FlashAvatarData document`);
  const d = doc as FlashAvatarData;
  return { ...d, smallSprites: d.smallSprites === true };
}
