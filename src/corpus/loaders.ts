// Readers for each layout's inputs, chosen by the layout: asset file → AssetLibrary, furnidata → rows.
import { readAssetLibrary } from '../formats/asset-library.js';
import { readFurniSwf } from '../formats/flash/furni-library.js';
import { type FurnitureData } from '../formats/furnidata.js';
import { readFurnidataAny } from '../formats/gamedata/furnidata-any.js';
import { type LibraryLoader } from './item.js';
import { type LayoutKind } from './layout.js';

export function libraryLoader(kind: LayoutKind): LibraryLoader {
  return kind === 'nitro' ? readAssetLibrary : (bytes, file) => readFurniSwf(bytes, file);
}

/** Furnidata rows plus the legacy rows that could not be read (reported, not fatal). */
export async function readFurnidata(bytes: Uint8Array, file: string, format: 'json' | 'xml' | 'txt'): Promise<{ data: FurnitureData; problems: { line: number; reason: string; excerpt: string }[] }> {
  return readFurnidataAny(bytes, file, format);
}
