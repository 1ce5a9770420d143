// `gamedata/FlashAvatarData.json`: the avatar documents of a Flash hotel that the Nitro layout has no
// place for. The converter writes it into the folder it converts to; reading a Nitro folder picks it up.
import { join } from 'node:path';
import {
  type AnimationSetXml,
  type AvatarGeometryXml,
  type DrawOrderXml,
  type PartSetsXml,
} from '../formats/gamedata/avatar-xml-types.js';
import { isFile, readAssetFile } from './files.js';
import { type FlashAvatarSources } from './flash.js';

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
  const data: FlashAvatarData = {
    format: 1,
    smallSprites: [...src.libraries.keys()].some((n) => n.toLowerCase().startsWith('hh_human_50_')),
  };
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
    doc = JSON.parse((await readAssetFile(file, assetsDir)).toString('utf8'));
  } catch (e) {
    throw new Error(`${file} is not valid JSON: ${(e as Error).message}`);
  }
  if (!doc || typeof doc !== 'object' || (doc as { format?: unknown }).format !== 1)
    throw new Error(`${file} is not a format-1 FlashAvatarData document`);
  const d = doc as FlashAvatarData;
  return { ...d, smallSprites: d.smallSprites === true };
}
