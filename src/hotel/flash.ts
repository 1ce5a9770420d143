// Finding and reading a Flash-era hotel folder: where the figure libraries and furni SWFs are, and the
// avatar gamedata documents parsed into the shapes the avatar renderer takes. The avatar service reads a
// Flash folder directly with it; the converter uses it to find what to convert.
import { readFile, readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { type AssetLibrary } from '../formats/asset-library.js';
import { readFigureSwf } from '../formats/flash/figure-library.js';
import {
  parseAnimationXml,
  parseDrawOrderXml,
  parseGeometryXml,
  parsePartSetsXml,
} from '../formats/gamedata/avatar-xml.js';
import { type AvatarDocuments, type FigureMapDoc } from '../formats/gamedata/figure-types.js';
import { parseAvatarActionsXml, parseFigureDataXml, parseFigureMapXml } from '../formats/gamedata/figure-xml.js';
import { isDir, isFile, listSwfs, readAssetFile } from './files.js';

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
  const name = basename(file)
    .replace(/\.swf$/i, '')
    .toLowerCase();
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

/**
 * Furni SWFs by classname for the converter: `hof_furni/<cn>.swf` and `hof_furni/<revision>/<cn>.swf`.
 * When several revisions exist, the furnidata revision wins, else the highest revision folder.
 */
export async function findFurniSwfs(
  root: string,
  revisions: Map<string, number>,
): Promise<{ chosen: Map<string, string>; superseded: string[] }> {
  const dir = join(root, 'hof_furni');
  const candidates = new Map<string, { path: string; revision: number }[]>();
  const add = (path: string, revision: number) => {
    const cn = basename(path).replace(/\.swf$/i, '');
    const list = candidates.get(cn) ?? [];
    list.push({ path, revision });
    candidates.set(cn, list);
  };
  for (const p of await listSwfs(dir)) add(p, -1);
  if (await isDir(dir)) {
    for (const name of (await readdir(dir)).sort()) {
      if (/^\d+$/.test(name) && (await isDir(join(dir, name))))
        for (const p of await listSwfs(join(dir, name))) add(p, Number(name));
    }
  }
  const chosen = new Map<string, string>();
  const superseded: string[] = [];
  for (const cn of [...candidates.keys()].sort()) {
    const list = candidates.get(cn)!.sort((a, b) => b.revision - a.revision || (a.path < b.path ? -1 : 1));
    const want = revisions.get(cn);
    const pick = list.find((c) => c.revision === want) ?? list[0]!;
    chosen.set(cn, pick.path);
    for (const c of list) if (c !== pick) superseded.push(c.path);
  }
  return { chosen, superseded };
}

export interface FlashAvatarSources extends AvatarDocuments {
  /** Figure library name → SWF path. */
  libraries: Map<string, string>;
}

async function optional<T>(
  dir: string,
  names: string[],
  parse: (text: string, file: string) => T,
): Promise<T | undefined> {
  for (const n of names) {
    const p = join(dir, n);
    // The gamedata folder's own documents: links out of the hotel folder (its parent) are refused.
    if (await isFile(p)) return parse((await readAssetFile(p, dirname(dir))).toString('utf8'), n);
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

/** Effect library name → SWF path: effect SWFs sit in the figure folders (`gordon/`); names as the map spells them. */
export async function findEffectSwfs(root: string, libs: Iterable<string>): Promise<Map<string, string>> {
  const wanted = new Map([...libs].map((l) => [l.toLowerCase(), l]));
  const out = new Map<string, string>();
  for (const p of await findFigureFolderSwfs(root)) {
    const lib = wanted.get(
      basename(p)
        .replace(/\.swf$/i, '')
        .toLowerCase(),
    );
    if (lib !== undefined && !out.has(lib)) out.set(lib, p);
  }
  return out;
}

/** Loads a figure library by name from its SWF (keeping the `sh_` sprites). */
export function flashFigureLoader(libraries: Map<string, string>): (name: string) => Promise<AssetLibrary> {
  return async (name) => {
    const path = libraries.get(name);
    if (!path) throw new Error(`no figure library ${name}`);
    return readFigureSwf(await readFile(path), path);
  };
}
