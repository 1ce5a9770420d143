// Reading a hotel's room inputs (Nitro layout): the room visualization `bundled/generic/room.nitro` (plane
// decorations, textures, masks) and one furni bundle per base classname, `bundled/furniture/<cn>.nitro`,
// read on demand. Every file is read with readAssetFile (inside the folder, within the decode budget) and
// decoded within the budget by readAssetLibrary.
import { join } from 'node:path';
import { readAssetLibrary, type AssetLibrary } from '../formats/asset-library.js';
import { parseRoomVisualization, type RoomVisualizationDoc } from '../formats/room-visualization.js';
import { type RgbaImage } from '../imaging/image.js';
import { sha256Hex } from '../util/hash.js';
import { isFile, readAssetFile } from './files.js';

export const ROOM_VISUALIZATION_PATH = 'bundled/generic/room.nitro';
export const ROOM_FURNI_DIR = 'bundled/furniture';

export interface RoomVisualizationAssets {
  doc: RoomVisualizationDoc;
  /** Sprites by asset name (`floor_texture_64_0_floor_basic`, `door_64`; aliases resolved, flipH applied later). */
  assets: ReadonlyMap<string, { image: RgbaImage; x: number; y: number; flipH: boolean }>;
  file: string;
  /** sha-256 hex of the file's bytes. */
  digest: string;
}

/** Reads `bundled/generic/room.nitro`; throws an Error naming the file when it is absent or unreadable. */
export async function readRoomVisualization(hotelRoot: string): Promise<RoomVisualizationAssets> {
  const file = join(hotelRoot, ROOM_VISUALIZATION_PATH);
  if (!(await isFile(file)))
    throw new Error(
      `${file} does not exist: rooms are drawn from the hotel's room visualization (Nitro layout); ` +
        "copy the client's bundled/generic/room.nitro there",
    );
  const bytes = await readAssetFile(file, hotelRoot);
  const lib = await readAssetLibrary(bytes, file, { nativeDecode: true });
  const doc = parseRoomVisualization(lib.data, file);
  const assets = new Map<string, { image: RgbaImage; x: number; y: number; flipH: boolean }>();
  const raw = (lib.data as { assets?: Record<string, { source?: string; x?: number; y?: number; flipH?: boolean }> })
    .assets;
  for (const name of Object.keys(raw ?? {}).sort()) {
    const a = raw![name]!;
    if (!a || typeof a !== 'object') continue;
    const source = typeof a.source === 'string' && a.source ? a.source : '';
    const image = lib.sprites.get(source || name);
    if (!image) continue;
    assets.set(name, { image, x: Number(a.x) || 0, y: Number(a.y) || 0, flipH: !!source && a.flipH === true });
  }
  return { doc, assets, file, digest: sha256Hex(bytes) };
}

/** The bundle file of a base classname, or undefined when the hotel has none. */
export async function roomFurniFile(hotelRoot: string, base: string): Promise<string | undefined> {
  // Classnames come from the database: only plain names are looked up (no path separators, no dots).
  if (!/^[A-Za-z0-9_-]+$/.test(base)) return undefined;
  const file = join(hotelRoot, ROOM_FURNI_DIR, `${base}.nitro`);
  return (await isFile(file)) ? file : undefined;
}

/** Reads one furni bundle of the room's hotel into an asset library (within the decode budget). */
export async function readRoomFurni(hotelRoot: string, file: string): Promise<AssetLibrary> {
  const bytes = await readAssetFile(file, hotelRoot);
  return readAssetLibrary(bytes, file, { nativeDecode: true });
}
