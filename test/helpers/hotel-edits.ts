// Edits an operator makes to a Nitro hotel folder while the avatar service runs: a new library (made from
// an existing one, its parts renumbered), a set added to FigureData and its library to FigureMap, a
// library's sprites changed. Files are written the way an operator's copy ends: complete, in place.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readAssetLibrary, writeAssetLibrary, type AssetLibrary } from '../../src/formats/asset-library.js';
import { type FigureDataDoc, type FigureDataSet, type FigureMapDoc } from '../../src/formats/gamedata/figure-types.js';
import { type NitroAssetEntry } from '../../src/formats/nitro-asset-types.js';
import { type RgbaImage } from '../../src/imaging/image.js';

export const figureFile = (dir: string, lib: string): string => join(dir, 'bundled', 'figure', `${lib}.nitro`);

/** Writes beside the file, then renames over it: readers see the old file or the new one, never half. */
export async function writeWhole(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${file}.part-${process.pid}`;
  await writeFile(tmp, data);
  await rename(tmp, file);
}

export async function readLibrary(dir: string, lib: string): Promise<AssetLibrary> {
  const file = figureFile(dir, lib);
  return readAssetLibrary(await readFile(file), file);
}

/**
 * The bytes of a new figure library `to`, made from library `from` of `dir` with its part ids renumbered
 * (`{ 'ha:5001': 5090 }`): sprite, asset and alias names follow, so it draws the same art as new parts.
 */
export async function renumberedLibrary(
  dir: string,
  from: string,
  to: string,
  ids: Record<string, number>,
): Promise<Buffer> {
  const lib = await readLibrary(dir, from);
  const rename = (name: string): string => {
    const bits = name.split('_');
    if (bits.length !== 6) return name;
    const id = ids[`${bits[2]}:${Number(bits[3])}`];
    return id === undefined ? name : [bits[0], bits[1], bits[2], String(id), bits[4], bits[5]].join('_');
  };
  const assets: Record<string, NitroAssetEntry> = {};
  for (const [n, a] of Object.entries(lib.data.assets ?? {}))
    assets[rename(n)] = a.source ? { ...a, source: rename(a.source) } : a;
  const sprites = new Map<string, RgbaImage>();
  for (const [n, img] of lib.sprites) sprites.set(rename(n), img);
  return writeAssetLibrary({ name: to, data: { ...lib.data, name: to, assets }, sprites });
}

/** The bytes of library `lib` with every sprite's colours inverted (same names and offsets, other pixels). */
export async function recolouredLibrary(dir: string, lib: string): Promise<Buffer> {
  const l = await readLibrary(dir, lib);
  const sprites = new Map<string, RgbaImage>();
  for (const [n, img] of l.sprites) {
    const data = Uint8Array.from(img.data);
    for (let i = 0; i < data.length; i += 4) for (let c = 0; c < 3; c++) data[i + c] = 255 - data[i + c]!;
    sprites.set(n, { width: img.width, height: img.height, data });
  }
  return writeAssetLibrary({ ...l, sprites });
}

async function editJson<T>(file: string, edit: (doc: T) => void): Promise<void> {
  const doc = JSON.parse(await readFile(file, 'utf8')) as T;
  edit(doc);
  await writeWhole(file, JSON.stringify(doc, null, 1));
}

/** Adds a set to a set type of FigureData.json, or removes set `id` when `set` is null. */
export async function editSet(
  dir: string,
  type: string,
  id: number,
  set: Omit<FigureDataSet, 'id'> | null,
): Promise<void> {
  await editJson<FigureDataDoc>(join(dir, 'gamedata', 'FigureData.json'), (doc) => {
    const st = doc.setTypes.find((t) => t.type === type)!;
    st.sets = st.sets.filter((s) => s.id !== id);
    if (set) st.sets.push({ id, ...set });
  });
}

/** Lists a library with its parts in FigureMap.json, or removes it when `parts` is null. */
export async function mapLibrary(
  dir: string,
  lib: string,
  parts: { id: number; type: string }[] | null,
): Promise<void> {
  await editJson<FigureMapDoc>(join(dir, 'gamedata', 'FigureMap.json'), (doc) => {
    doc.libraries = doc.libraries.filter((l) => l.id !== lib);
    if (parts) doc.libraries.push({ id: lib, revision: 1, parts });
  });
}
