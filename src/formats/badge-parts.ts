// Group badge part images, in the two forms hotels keep them: the Nitro client's part library
// (`group_badge.nitro`: one spritesheet of `badgepart_<name>.png` frames, some trimmed) and the loose
// files of Flash-era hotels (`c_images/Badgeparts/badgepart_<name>.png` or `.gif`). Both give images by
// the name the client looks them up by: the frame or file name without its extension
// (nitro-renderer `GraphicAssetCollection.removeFileExtension`), e.g. `badgepart_base_basic_1`.
// A trimmed frame comes back at its untrimmed size (the client positions a part by that size).
import { decodeImage } from '../imaging/codec.js';
import { type RgbaImage } from '../imaging/image.js';
import { readAssetLibrary, writeAssetLibrary, type AssetLibrary } from './asset-library.js';
import { FormatError } from './errors.js';

/** A frame or file name without its extension, as the client registers its texture. */
export function partTextureName(fileName: string): string {
  return fileName.substring(0, fileName.lastIndexOf('.')) || fileName;
}

/** Every frame of a `group_badge.nitro` part library, by texture name. */
export async function readBadgePartLibrary(
  bundle: Uint8Array,
  file = '<group_badge.nitro>',
): Promise<Map<string, RgbaImage>> {
  const lib = await readAssetLibrary(bundle, file);
  const out = new Map<string, RgbaImage>();
  for (const [name, image] of lib.sprites) out.set(partTextureName(name), image);
  if (out.size === 0) throw new FormatError('badge part library', file, 'its spritesheet has no frames');
  return out;
}

/** One loose part image (PNG or GIF; a GIF's first frame). */
export async function readBadgePartImage(data: Uint8Array, file = '<part>'): Promise<RgbaImage> {
  try {
    return await decodeImage(data);
  } catch (e) {
    throw new FormatError('badge part image', file, `does not decode: ${(e as Error).message}`);
  }
}

/**
 * Writes part images (by texture name) as the client's part library: one spritesheet, frames `<name>.png`, no assets.
 */
export async function writeBadgePartLibrary(images: ReadonlyMap<string, RgbaImage>): Promise<Buffer> {
  const lib: AssetLibrary = {
    name: 'group_badge',
    data: { name: 'group_badge', type: 'group_badge' } as AssetLibrary['data'],
    sprites: new Map(images),
  };
  return writeAssetLibrary(lib, { frameName: (sprite) => `${sprite}.png` });
}
