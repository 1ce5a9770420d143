// Readers for each layout's inputs, chosen by the layout: asset file → AssetLibrary, furnidata → rows.
import { readAssetLibrary } from '../formats/asset-library.js';
import { readFurnitureDataJson, type FurnitureData } from '../formats/furnidata.js';
import { type LibraryLoader } from './item.js';
import { type LayoutKind } from './layout.js';

export function libraryLoader(kind: LayoutKind): LibraryLoader {
  if (kind === 'nitro') return readAssetLibrary;
  return async () => {
    throw new Error('furni SWF import is not available in this build');
  };
}

export async function readFurnidata(bytes: Uint8Array, file: string, format: 'json' | 'xml' | 'txt'): Promise<FurnitureData> {
  if (format === 'json') return readFurnitureDataJson(bytes, file);
  throw new Error(`furnidata ${format} reader is not available in this build (${file})`);
}
