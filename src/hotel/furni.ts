// Finding a hotel's furni inputs: the furnidata file and one asset file per base classname, in the
// Nitro layout (`gamedata/FurnitureData.json` + `bundled/furniture/<cn>.nitro`) or the Flash layout
// (`gamedata/furnidata.xml|json|txt` + `hof_furni/[<revision>/]<cn>.swf`). Flags override each path.
// Also the reader each layout's files need: asset file → AssetLibrary, furnidata → rows.
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { readAssetLibrary, type AssetLibrary } from '../formats/asset-library.js';
import { readFurniSwf } from '../formats/flash/furni-library.js';
import { type FurnitureData } from '../formats/furnidata.js';
import { readFurnidataAny } from '../formats/gamedata/furnidata-any.js';
import { isDir, isFile } from './files.js';

export type LayoutKind = 'nitro' | 'flash';

export interface LayoutOverrides {
  /** Furnidata file (json, xml or txt). */
  furnidata?: string;
  /** Folder holding the furni asset files. */
  furniDir?: string;
}

export interface AssetLayout {
  kind: LayoutKind;
  furnidataFile: string;
  furnidataFormat: 'json' | 'xml' | 'txt';
  furniDir: string;
  /** Asset file for a base classname, preferring `<revision>/<cn>.swf` in the Flash layout. */
  assetFile(base: string, revision: number): string | undefined;
  /** Base classnames that have an asset file. */
  assetClassnames(): string[];
}

export class LayoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LayoutError';
  }
}

const formatOf = (file: string): 'json' | 'xml' | 'txt' =>
  file.toLowerCase().endsWith('.xml') ? 'xml' : file.toLowerCase().endsWith('.txt') ? 'txt' : 'json';

export async function detectLayout(assetsDir: string, o: LayoutOverrides = {}): Promise<AssetLayout> {
  const root = resolve(assetsDir);
  if (!(await isDir(root))) throw new LayoutError(`the assets folder ${assetsDir} does not exist`);
  // A file or folder named explicitly is named back when it is missing (not the layout's default path).
  if (o.furnidata !== undefined && !(await isFile(resolve(o.furnidata))))
    throw new LayoutError(`the furnidata file ${o.furnidata} does not exist`);
  if (o.furniDir !== undefined && !(await isDir(resolve(o.furniDir))))
    throw new LayoutError(`the furni folder ${o.furniDir} does not exist`);
  const nitroDir = o.furniDir ? resolve(o.furniDir) : join(root, 'bundled', 'furniture');
  const flashDir = o.furniDir ? resolve(o.furniDir) : join(root, 'hof_furni');
  const nitroData = join(root, 'gamedata', 'FurnitureData.json');
  const flashData = ['furnidata.xml', 'furnidata.json', 'furnidata.txt'].map((n) => join(root, 'gamedata', n));

  let kind: LayoutKind | undefined;
  if (await isDir(nitroDir)) {
    const names = await readdir(nitroDir);
    if (names.some((n) => n.endsWith('.nitro'))) kind = 'nitro';
  }
  if (!kind && (await isDir(flashDir))) kind = 'flash';
  if (!kind)
    throw new LayoutError(
      `no furni assets found under ${root}: expected bundled/furniture/*.nitro (Nitro) or hof_furni/*.swf ` +
        `(Flash)${o.furniDir ? ` or files in ${o.furniDir}` : ''}`,
    );

  let furnidataFile = o.furnidata ? resolve(o.furnidata) : undefined;
  if (!furnidataFile) {
    const candidates = kind === 'nitro' ? [nitroData, ...flashData] : [...flashData, nitroData];
    for (const c of candidates)
      if (await isFile(c)) {
        furnidataFile = c;
        break;
      }
  }
  if (!furnidataFile || !(await isFile(furnidataFile)))
    throw new LayoutError(
      `no furnidata found: expected ${kind === 'nitro' ? nitroData : flashData.join(' or ')} (or pass --furnidata ` +
        `FILE)`,
    );

  const dir = kind === 'nitro' ? nitroDir : flashDir;
  const ext = kind === 'nitro' ? '.nitro' : '.swf';
  const flat = new Map<string, string>();
  const byRevision = new Map<string, string>();
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    // Links are listed too: the build refuses those that lead out of the folder, by name, rather than skip them unsaid.
    if ((entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith(ext))
      flat.set(entry.name.slice(0, -ext.length), join(dir, entry.name));
    else if (entry.isDirectory() && kind === 'flash' && /^\d+$/.test(entry.name)) {
      for (const f of await readdir(join(dir, entry.name)))
        if (f.endsWith(ext)) byRevision.set(`${entry.name}/${f.slice(0, -ext.length)}`, join(dir, entry.name, f));
    }
  }
  const anyRevision = new Map<string, string>();
  for (const [k, p] of [...byRevision.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    anyRevision.set(k.slice(k.indexOf('/') + 1), p);
  return {
    kind,
    furnidataFile,
    furnidataFormat: formatOf(furnidataFile),
    furniDir: dir,
    assetFile: (base, revision) => byRevision.get(`${revision}/${base}`) ?? flat.get(base) ?? anyRevision.get(base),
    assetClassnames: () => [...new Set([...flat.keys(), ...anyRevision.keys()])].sort(),
  };
}

/**
 * The reader of one furni asset file of a layout: a `.nitro` bundle or a furni SWF → AssetLibrary. A
 * furni spritesheet is one large PNG per item: libvips decodes it at about half the CPU of pngjs.
 */
export function furniLibraryLoader(kind: LayoutKind): (bytes: Uint8Array, file: string) => Promise<AssetLibrary> {
  return kind === 'nitro'
    ? (bytes, file) => readAssetLibrary(bytes, file, { nativeDecode: true })
    : (bytes, file) => readFurniSwf(bytes, file, { keepAllSizes: true });
}

/** Furnidata rows plus the legacy rows that could not be read (reported, not fatal). */
export async function readFurnidata(
  bytes: Uint8Array,
  file: string,
  format: 'json' | 'xml' | 'txt',
): Promise<{ data: FurnitureData; problems: { line: number; reason: string; excerpt: string }[] }> {
  return readFurnidataAny(bytes, file, format);
}
