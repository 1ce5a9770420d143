// Reading a hotel's group badge data: the element table (the emulator's `guilds_elements`, exported) and
// the part images, from either layout:
//   Nitro  bundled/generic/group_badge.nitro            one spritesheet of badgepart_<name>.png
//   Flash  c_images/Badgeparts/badgepart_<name>.png|gif  loose files (the folder's case is not fixed)
//   --badge-parts DIR                                    a group_badge.nitro and/or badgepart_* files
// Images are found by name in that folder first, then the Nitro library, then the Flash folder; a name
// with both a .png and a .gif takes the .png (as the emulators' own imagers do). The table is
// `--badge-elements FILE`, else gamedata/guilds_elements.csv (or .json) in the asset folder.
// Everything is read at once into memory (a real part set is ~250 images of at most 39×39), and the
// result depends on the files' bytes only: same files, same sources and identity.
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { partTextureName, readBadgePartImage, readBadgePartLibrary } from '../formats/badge-parts.js';
import { parseGuildElements, type GuildElements } from '../formats/guild-elements.js';
import { type RgbaImage } from '../imaging/image.js';
import { isDir, isFile, readAssetFile } from './files.js';
import { sha256Hex } from '../util/hash.js';

export interface BadgeSourceOptions {
  /** A folder holding group_badge.nitro and/or badgepart_<name>.png|gif files; searched first. */
  partsDir?: string;
  /** The element table (CSV or JSON export of guilds_elements); default gamedata/guilds_elements.csv|json. */
  elementsFile?: string;
  /** The element table's rows already read (from the hotel's database), as JSON; wins over the files. */
  elementsTable?: { name: string; json: string };
}

export interface BadgeSources {
  elements: GuildElements;
  elementsFile: string;
  /** Part images by texture name (`badgepart_<name>`). */
  images: ReadonlyMap<string, RgbaImage>;
  /** Where images came from, for /healthz: a place and how many images it gave. */
  origins: { place: string; images: number }[];
  /** Every file read (table and parts), for a reload watcher. */
  files: string[];
  /** Part files that could not be read, with why. */
  unreadable: string[];
  /** 16 hex digits over the table and every part file read (by name and content). */
  identity: string;
}

export type BadgeSourcesResult = { ok: true; sources: BadgeSources } | { ok: false; reason: string };

export const NITRO_PARTS_PATH = 'bundled/generic/group_badge.nitro';
export const FLASH_PARTS_DIR = 'c_images/Badgeparts';
export const DEFAULT_ELEMENT_FILES = ['gamedata/guilds_elements.csv', 'gamedata/guilds_elements.json'];

const PART_FILE = /^badgepart_.+\.(png|gif)$/i;

/** The table file to read: the option, else the first default present; undefined when there is none. */
async function findElementsFile(assetsDir: string, opts: BadgeSourceOptions): Promise<string | undefined> {
  if (opts.elementsFile !== undefined) return opts.elementsFile;
  for (const rel of DEFAULT_ELEMENT_FILES) {
    const p = join(assetsDir, rel);
    if (await isFile(p)) return p;
  }
  return undefined;
}

/** `c_images/Badgeparts` with whatever case the hotel gave the last folder. */
export async function findFlashPartsDir(assetsDir: string): Promise<string | undefined> {
  const images = join(assetsDir, 'c_images');
  if (!(await isDir(images))) return undefined;
  const names = (await readdir(images)).sort();
  const found = names.find((n) => n === 'Badgeparts') ?? names.find((n) => n.toLowerCase() === 'badgeparts');
  return found !== undefined && (await isDir(join(images, found))) ? join(images, found) : undefined;
}

/** `badgepart_*.png|gif` files of a folder, one per texture name (.png before .gif), sorted by name. */
async function partFiles(dir: string): Promise<string[]> {
  const byName = new Map<string, string>();
  for (const name of (await readdir(dir)).sort()) {
    if (!PART_FILE.test(name)) continue;
    const key = partTextureName(name);
    const had = byName.get(key);
    if (had === undefined || (had.toLowerCase().endsWith('.gif') && name.toLowerCase().endsWith('.png')))
      byName.set(key, name);
  }
  return [...byName.values()].map((n) => join(dir, n));
}

interface PartSource {
  place: string;
  read: () => Promise<{ images: Map<string, RgbaImage>; files: [string, Buffer][]; unreadable: string[] }>;
}

function librarySource(file: string): PartSource {
  return {
    place: file,
    read: async () => {
      const data = await readAssetFile(file, dirname(file));
      try {
        return { images: await readBadgePartLibrary(data, file), files: [[file, data]], unreadable: [] };
      } catch (e) {
        return { images: new Map(), files: [[file, data]], unreadable: [(e as Error).message] };
      }
    },
  };
}

/** The `badgepart_*` images of a folder by texture name, the files read, and those that did not decode. */
export async function readBadgePartFolder(
  dir: string,
): Promise<{ images: Map<string, RgbaImage>; files: [string, Buffer][]; unreadable: string[] }> {
  const images = new Map<string, RgbaImage>();
  const files: [string, Buffer][] = [];
  const unreadable: string[] = [];
  for (const file of await partFiles(dir)) {
    // A part that is a link out of its folder, or larger than the decode budget, is one that does not read.
    let data: Buffer;
    try {
      data = await readAssetFile(file, dir);
    } catch (e) {
      unreadable.push((e as Error).message);
      continue;
    }
    files.push([file, data]);
    try {
      images.set(partTextureName(basename(file)), await readBadgePartImage(data, file));
    } catch (e) {
      unreadable.push((e as Error).message);
    }
  }
  return { images, files, unreadable };
}

function folderSource(dir: string): PartSource {
  return { place: dir, read: () => readBadgePartFolder(dir) };
}

/**
 * Reads the badge sources of a hotel folder. Not ok (with the reason) when there is no table, the table
 * has no base or symbol rows, or no part image is found; a table or folder named in `opts` that does
 * not exist is reported the same way (the caller decides whether that stops it).
 */
export async function readBadgeSources(assetsDir: string, opts: BadgeSourceOptions = {}): Promise<BadgeSourcesResult> {
  const fromTable = opts.elementsTable;
  const elementsFile = fromTable ? fromTable.name : await findElementsFile(assetsDir, opts);
  if (elementsFile === undefined) {
    return {
      ok: false,
      reason: `no badge element table: looked for ${DEFAULT_ELEMENT_FILES.map((f) => join(assetsDir, f)).join(' and ')}; export the emulator's guilds_elements table there or name it with --badge-elements`,
    };
  }
  let tableBytes: Buffer;
  if (fromTable) tableBytes = Buffer.from(fromTable.json);
  else
    try {
      // Within the decode budget like every hotel file; a table the operator names may live anywhere.
      tableBytes = await readAssetFile(
        elementsFile,
        opts.elementsFile !== undefined ? dirname(elementsFile) : assetsDir,
      );
    } catch (e) {
      return { ok: false, reason: `cannot read the badge element table: ${(e as Error).message}` };
    }
  let elements: GuildElements;
  try {
    elements = parseGuildElements(tableBytes.toString('utf8'), elementsFile);
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
  if (elements.bases.size + elements.symbols.size === 0) {
    return {
      ok: false,
      reason: `the badge element table ${elementsFile} has no base or symbol rows (${elements.rows} rows read${elements.skipped.length ? `, ${elements.skipped.length} skipped: ${elements.skipped[0]}` : ''})`,
    };
  }

  const sources: PartSource[] = [];
  if (opts.partsDir !== undefined) {
    if (!(await isDir(opts.partsDir)))
      return { ok: false, reason: `the badge parts folder ${opts.partsDir} does not exist` };
    const lib = join(opts.partsDir, basename(NITRO_PARTS_PATH));
    if (await isFile(lib)) sources.push(librarySource(lib));
    sources.push(folderSource(opts.partsDir));
  }
  const nitro = join(assetsDir, NITRO_PARTS_PATH);
  if (await isFile(nitro)) sources.push(librarySource(nitro));
  const flash = await findFlashPartsDir(assetsDir);
  if (flash !== undefined) sources.push(folderSource(flash));

  const images = new Map<string, RgbaImage>();
  const origins: BadgeSources['origins'] = [];
  // A table from the database is no file for the reload watcher to look at.
  const read: [string, Buffer][] = fromTable ? [] : [[elementsFile, tableBytes]];
  const unreadable: string[] = [];
  const ranked: string[] = [];
  for (const [rank, source] of sources.entries()) {
    const got = await source.read();
    read.push(...got.files);
    for (const [file, data] of got.files) ranked.push(`part ${rank} ${basename(file)} ${sha256Hex(data)}\n`);
    unreadable.push(...got.unreadable);
    let used = 0;
    for (const [name, image] of got.images) {
      if (images.has(name)) continue; // an earlier place has this name
      images.set(name, image);
      used++;
    }
    if (got.files.length > 0) origins.push({ place: source.place, images: used });
  }
  if (images.size === 0) {
    const looked = [opts.partsDir, nitro, join(assetsDir, FLASH_PARTS_DIR)].filter((p) => p !== undefined).join(', ');
    return {
      ok: false,
      reason: `no badge part images${unreadable.length ? ` that can be read (${unreadable[0]})` : ''}: looked in ${looked}`,
    };
  }
  return {
    ok: true,
    sources: {
      elements,
      elementsFile,
      images,
      origins,
      files: read.map(([f]) => f),
      unreadable,
      identity: identityOf(tableBytes, ranked),
    },
  };
}

/**
 * The table by content, each part file by its place in the search order, name and content: copies of the
 * same files in other folders give the same identity, and any changed byte (or a file that now wins a
 * name) gives another.
 */
function identityOf(table: Buffer, parts: string[]): string {
  const h = createHash('sha256');
  h.update(`table ${table.length}\n`).update(table).update('\n');
  for (const line of [...parts].sort()) h.update(line);
  return h.digest('hex').slice(0, 16);
}
