// A room picture's bytes: PNG on an optional flat background at an optional zoom, or the client's thumbnail
// square; a room that moves as an APNG or a GIF with the avatar loops' encoders.
import { encodeFrames } from '../imaging/apng.js';
import { encodePng, encodePngInSquare } from '../imaging/codec.js';
import { encodeGif, gifDelays } from '../imaging/gif.js';
import {
  createImage,
  effectiveZoom,
  type FlatColor,
  overColor,
  type RgbaImage,
  scaleNearest,
} from '../imaging/image.js';
import { frameDelays, MAX_ANIMATED_PIXELS } from './motion.js';
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

/** How a room that moves is written: APNG (`.png?animated=1`) or GIF (`.gif`). */
export type RoomAnimationFormat = 'png' | 'gif';

/**
 * The bytes of a room as it moves: every frame of `p.motion` on the background at the zoom (lowered until the
 * zoomed frames fit MAX_ANIMATED_PIXELS together, as the avatar loops' zoom is bounded), each showing for its
 * updates × 1/24 s: an APNG looping forever (indexed when the frames share 256 colours), or a GIF (centisecond
 * delays, imaging/gif.ts). A picture without motion, or of one frame, is the still's PNG (or a one-frame GIF).
 */
export async function encodeRoomAnimation(
  p: RoomPicture,
  format: RoomAnimationFormat,
  bg: FlatColor | undefined,
  zoom = 1,
): Promise<{ body: Buffer; frames: number }> {
  const motion = p.motion;
  const empty = p.width === 0 || p.height === 0;
  if (format === 'png' && (!motion || motion.frames.length < 2 || empty))
    return { body: await encodeRoomPicture(p, bg, zoom), frames: 1 };
  const sources = !empty && motion ? motion.frames : [p.rgba];
  let frames: RgbaImage[] = empty
    ? [createImage(1, 1)]
    : sources.map((data) => ({ width: p.width, height: p.height, data }));
  if (bg !== undefined) frames = frames.map((f) => overColor(f, bg.rgb, bg.alpha));
  let z = effectiveZoom(frames[0]!.width, frames[0]!.height, zoom);
  while (z > 1 && frames.length * frames[0]!.width * frames[0]!.height * z * z > MAX_ANIMATED_PIXELS) z--;
  if (z > 1) frames = frames.map((f) => scaleNearest(f, z));
  const updates = !empty && motion && frames.length > 1 ? motion.updates : [1];
  if (format === 'gif')
    return {
      body: encodeGif(frames, frames.length > 1 ? gifDelays(frameDelays(updates)) : [0]),
      frames: frames.length,
    };
  return {
    body: await encodeFrames(frames, { compressionLevel: 6, delays: frameDelays(updates) }),
    frames: frames.length,
  };
}
