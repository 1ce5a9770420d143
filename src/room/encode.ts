// A room picture's bytes: PNG on an optional flat background at an optional zoom, or the client's thumbnail
// square.
import { encodePng, encodePngInSquare } from '../imaging/codec.js';
import {
  createImage,
  effectiveZoom,
  type FlatColor,
  overColor,
  type RgbaImage,
  scaleNearest,
} from '../imaging/image.js';
import { type RoomPicture } from './render.js';

/** PNG bytes of a picture (a room with nothing drawn is one transparent pixel: a PNG cannot be 0 × 0). */
export async function encodeRoomPicture(p: RoomPicture, bg: FlatColor | undefined, zoom = 1): Promise<Buffer> {
  const empty = p.width === 0 || p.height === 0;
  let image: RgbaImage = empty ? createImage(1, 1) : { width: p.width, height: p.height, data: p.rgba };
  if (bg !== undefined) image = overColor(image, bg.rgb, bg.alpha);
  const z = effectiveZoom(image.width, image.height, zoom);
  return encodePng(z === 1 ? image : scaleNearest(image, z), { compressionLevel: 6 });
}

/** The square the Nitro client shows a room thumbnail in (nitro-react LayoutRoomThumbnailView: 110 × 110 px). */
export const THUMBNAIL_SIZE = 110;

export function encodeThumbnail(p: RoomPicture): Promise<Buffer> {
  if (p.width === 0 || p.height === 0) return encodeRoomPicture(p, undefined);
  return encodePngInSquare({ width: p.width, height: p.height, data: p.rgba }, THUMBNAIL_SIZE, { compressionLevel: 6 });
}
