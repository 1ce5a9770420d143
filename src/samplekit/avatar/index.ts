// The avatar half of the built-in sample kit: figure gamedata + figure libraries in the Nitro layout.
// Everything is drawn procedurally; same call → byte-identical files.
import { createHash } from 'node:crypto';
import { type AssetLibrary, writeAssetLibrary } from '../../formats/asset-library.js';
import { type NitroAssetEntry } from '../../formats/nitro-asset-types.js';
import { type RgbaImage } from '../../imaging/image.js';
import { type KitFile } from '../kit-file.js';
import { avatarActionsJson } from './actions.js';
import { effectLibraries, effectMapJson } from './effects.js';
import { LIBRARIES, type KitLibrary, figureDataJson, figureMapJson } from './catalog.js';
import { drawPart, spriteKeys } from './parts.js';
import { halve } from './raster.js';
import { isMirroredDir, REG_Y } from './rig.js';

/**
 * Own sprites of directions 4-6 (the exceptions) are placed at (−x + OWN_FLIPPED_SHIFT, REG_Y − y), the
 * way nitro-renderer places them at scale h (its +65 pre-flip against the +67 of the mirrored rest).
 */
export const OWN_FLIPPED_SHIFT = 2;

export function assetName(
  action: string,
  type: string,
  id: number,
  dir: number,
  frame: number,
  scale: 'h' | 'sh' = 'h',
): string {
  return `${scale}_${action}_${type}_${id}_${dir}_${frame}`;
}

/** Draws every sprite of one library; identical images become `source` aliases as in real bundles. */
export function buildFigureLibrary(lib: KitLibrary): AssetLibrary {
  const assets: Record<string, NitroAssetEntry> = {};
  const sprites = new Map<string, RgbaImage>();
  const seen = new Map<string, string>();
  for (const part of [...lib.parts, ...lib.unmapped]) {
    for (const key of spriteKeys(part.type, part.id)) {
      const drawn = drawPart(part.type, part.id, key);
      if (!drawn) continue;
      const name = assetName(key.action, part.type, part.id, key.dir, key.frame);
      const shift = isMirroredDir(key.dir) ? OWN_FLIPPED_SHIFT : 0;
      const entry: NitroAssetEntry = { x: shift - drawn.left, y: REG_Y - drawn.top };
      const digest = createHash('sha1').update(drawn.image.data).digest('hex');
      const hash = `${drawn.image.width}x${drawn.image.height}:${digest}`;
      const source = seen.get(hash);
      if (source) entry.source = source;
      else {
        seen.set(hash, name);
        sprites.set(name, drawn.image);
      }
      assets[name] = entry;
    }
  }
  return { name: lib.name, data: { name: lib.name, assets }, sprites };
}

/**
 * `hh_human_50_*` libraries look like the real Nitro ones: `sh_` sprites in the spritesheet but no asset
 * entries (the converter dropped their offsets), so a renderer must not use them and scales `h` instead.
 */
function buildSmallLibrary(lib: KitLibrary, full: AssetLibrary): AssetLibrary {
  const sprites = new Map<string, RgbaImage>();
  for (const [name, img] of full.sprites) {
    if (!/^h_std_(bd|hd|lh|rh|fc|ey)_\d+_[0-7]_0$/.test(name)) continue;
    sprites.set(`s${name}`, halve(img));
  }
  return { name: lib.name, data: { name: lib.name, assets: {} }, sprites };
}

const json = (v: unknown) => Buffer.from(JSON.stringify(v, null, 2) + '\n');

export async function avatarKitFiles(): Promise<KitFile[]> {
  const files: KitFile[] = [
    { path: 'gamedata/FigureData.json', data: json(figureDataJson()) },
    { path: 'gamedata/FigureMap.json', data: json(figureMapJson()) },
    { path: 'gamedata/HabboAvatarActions.json', data: json(avatarActionsJson()) },
  ];
  for (const { lib, asset } of figureLibraries(buildSmallLibrary)) {
    files.push({ path: `bundled/figure/${lib.name}.nitro`, data: await writeAssetLibrary(asset) });
  }
  files.push({ path: 'gamedata/EffectMap.json', data: json(effectMapJson()) });
  for (const lib of effectLibraries())
    files.push({ path: `bundled/effect/${lib.name}.nitro`, data: await writeAssetLibrary(lib) });
  return files;
}

/**
 * Every kit figure library in FigureMap order. The small `hh_human_50_*` libraries are made from their
 * full-size twin by `small`: the Nitro and the Flash layout keep small sprites differently.
 */
export function figureLibraries(
  small: (lib: KitLibrary, full: AssetLibrary) => AssetLibrary,
): { lib: KitLibrary; asset: AssetLibrary }[] {
  const built = new Map<string, AssetLibrary>();
  for (const lib of LIBRARIES) if (!lib.name.startsWith('hh_human_50_')) built.set(lib.name, buildFigureLibrary(lib));
  return LIBRARIES.map((lib) => {
    const asset = built.get(lib.name);
    if (asset) return { lib, asset };
    const full = built.get(lib.name.replace('hh_human_50_', 'hh_human_'));
    if (!full) throw new Error(`no full-size library for ${lib.name}`);
    return { lib, asset: small(lib, full) };
  });
}
