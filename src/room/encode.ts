// A room picture's bytes: PNG on an optional flat background at an optional zoom, or the client's thumbnail
// square; a room that moves as an APNG or a GIF with the avatar loops' encoders.
import { encodeFrames } from '../imaging/apng.js';
import { encodePng, encodePngInSquare } from '../imaging/codec.js';
import { encodeGif, encodeGifRects, gifDelays } from '../imaging/gif.js';
import {
  createImage,
  effectiveZoom,
  type FlatColor,
  overColor,
  type RgbaImage,
  scaleNearest,
} from '../imaging/image.js';
import { frameDelays, MAX_ANIMATED_PIXELS, storedPixels } from './motion.js';
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
 * The bytes of a room as it moves: frame 0 whole and every later frame as the rectangle that changed
 * (`p.motion`), on the background at the zoom (lowered until the zoomed frames' kept pixels fit
 * MAX_ANIMATED_PIXELS, as the avatar loops' zoom is bounded), each showing for its updates × 1/24 s: an APNG
 * looping forever whose later frames are those rectangles (fcTL x/y, dispose NONE, blend SOURCE; indexed when
 * the frames share 256 colours), or a GIF of the same pixels (centisecond delays, imaging/gif.ts
 * encodeGifRects). A picture without motion, or of one frame, is the still's PNG (or a one-frame GIF).
 */
export async function encodeRoomAnimation(
  p: RoomPicture,
  format: RoomAnimationFormat,
  bg: FlatColor | undefined,
  zoom = 1,
): Promise<{ body: Buffer; frames: number }> {
  const motion = p.motion;
  const empty = p.width === 0 || p.height === 0;
  if (!motion || motion.frames.length < 2 || empty) {
    if (format === 'png') return { body: await encodeRoomPicture(p, bg, zoom), frames: 1 };
    let still: RgbaImage = empty ? createImage(1, 1) : { width: p.width, height: p.height, data: p.rgba };
    if (bg !== undefined) still = overColor(still, bg.rgb, bg.alpha);
    let z = effectiveZoom(still.width, still.height, zoom);
    while (z > 1 && still.width * still.height * z * z > MAX_ANIMATED_PIXELS) z--;
    return { body: encodeGif([z > 1 ? scaleNearest(still, z) : still], [0]), frames: 1 };
  }
  let z = effectiveZoom(p.width, p.height, zoom);
  const stored = storedPixels(motion.frames);
  while (z > 1 && stored * z * z > MAX_ANIMATED_PIXELS) z--;
  const rects = motion.frames.map((f) => {
    let image: RgbaImage = { width: f.width, height: f.height, data: f.data };
    if (bg !== undefined) image = overColor(image, bg.rgb, bg.alpha);
    return { x: f.x, y: f.y, image };
  });
  const zoomed = (r: { x: number; y: number; image: RgbaImage }) =>
    z > 1 ? { x: r.x * z, y: r.y * z, image: scaleNearest(r.image, z) } : r;
  const delays = frameDelays(motion.updates);
  if (format === 'gif') return { body: encodeGifRects(rects.map(zoomed), gifDelays(delays)), frames: rects.length };
  const blends: (0 | 1)[] = [0];
  const canvas = Uint8Array.from(rects[0]!.image.data);
  const drawn = rects.map((r, i) => {
    if (i === 0) return zoomed(r);
    const over = keptOver(canvas, p.width, r);
    blends.push(over ? 1 : 0);
    return zoomed(over ? { ...r, image: over } : r);
  });
  return {
    body: await encodeFrames(
      drawn.map((r) => r.image),
      { compressionLevel: 6, delays, offsets: drawn.map(({ x, y }) => ({ x, y })), blends },
    ),
    frames: rects.length,
  };
}

/**
 * A later APNG frame to draw OVER the frame before (`canvas`, which takes its pixels): its changed pixels, the
 * others transparent, when every changed pixel is opaque (OVER then gives exactly what SOURCE gives, and the
 * unchanged pixels cost next to nothing to compress); else null (SOURCE, the rectangle as it is).
 */
function keptOver(canvas: Uint8Array, width: number, r: { x: number; y: number; image: RgbaImage }): RgbaImage | null {
  const { image } = r;
  const c32 = new Uint32Array(canvas.buffer, canvas.byteOffset, canvas.length / 4);
  const data = image.data.byteOffset % 4 === 0 ? image.data : image.data.slice();
  const s32 = new Uint32Array(data.buffer, data.byteOffset, image.width * image.height);
  const out = createImage(image.width, image.height);
  const o32 = new Uint32Array(out.data.buffer, out.data.byteOffset, image.width * image.height);
  let opaque = true;
  for (let y = 0; y < image.height; y++) {
    const at = (r.y + y) * width + r.x;
    for (let x = 0; x < image.width; x++) {
      const v = s32[y * image.width + x]!;
      if (c32[at + x] === v) continue;
      // little-endian: alpha is the top byte
      if (v >>> 24 !== 255) opaque = false;
      o32[y * image.width + x] = v;
      c32[at + x] = v;
    }
  }
  return opaque ? out : null;
}
