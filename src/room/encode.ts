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
  overColorWord,
  type RgbaImage,
  scaleNearest,
} from '../imaging/image.js';
import { type FrameRect, frameDelays, MAX_ANIMATED_PIXELS, storedPixels } from './motion.js';
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
  const onBg = (f: FrameRect): RgbaImage => {
    const image: RgbaImage = { width: f.width, height: f.height, data: f.data };
    return bg === undefined ? image : overColor(image, bg.rgb, bg.alpha);
  };
  const zoomed = (r: { x: number; y: number; image: RgbaImage }) =>
    z > 1 ? { x: r.x * z, y: r.y * z, image: scaleNearest(r.image, z) } : r;
  const delays = frameDelays(motion.updates);
  if (format === 'gif') {
    const rects = motion.frames.map((f) => zoomed({ x: f.x, y: f.y, image: onBg(f) }));
    return { body: encodeGifRects(rects, gifDelays(delays)), frames: rects.length };
  }
  const blends: (0 | 1)[] = [0];
  const canvas = Uint8Array.from(motion.frames[0]!.data);
  const over = bg === undefined ? (v: number) => v : overColorWord(bg.rgb, bg.alpha);
  const drawn = motion.frames.map((f, i) => {
    if (i === 0) return zoomed({ x: 0, y: 0, image: onBg(f) });
    const kept = keptOver(canvas, p.width, f, over);
    blends.push(kept ? 1 : 0);
    return zoomed({ x: f.x, y: f.y, image: kept ?? onBg(f) });
  });
  return {
    body: await encodeFrames(
      drawn.map((r) => r.image),
      { compressionLevel: 6, delays, offsets: drawn.map(({ x, y }) => ({ x, y })), blends },
    ),
    frames: drawn.length,
  };
}

/**
 * A later APNG frame to draw OVER the frame before (`canvas`, the frames' own pixels before the background,
 * which takes the frame's): its changed pixels on the background (`over`), the others transparent, when every
 * changed pixel is then opaque (OVER then gives exactly what SOURCE gives, and the unchanged pixels cost next to
 * nothing to compress); else null (SOURCE, the rectangle as it is).
 */
function keptOver(canvas: Uint8Array, width: number, f: FrameRect, over: (v: number) => number): RgbaImage | null {
  const c32 = new Uint32Array(canvas.buffer, canvas.byteOffset, canvas.length / 4);
  const data = f.data.byteOffset % 4 === 0 ? f.data : f.data.slice();
  const s32 = new Uint32Array(data.buffer, data.byteOffset, f.width * f.height);
  const out = createImage(f.width, f.height);
  const o32 = new Uint32Array(out.data.buffer, out.data.byteOffset, f.width * f.height);
  let opaque = true;
  for (let y = 0; y < f.height; y++) {
    const at = (f.y + y) * width + f.x;
    const row = y * f.width;
    for (let x = 0; x < f.width; x++) {
      const v = s32[row + x]!;
      if (c32[at + x] === v) continue;
      c32[at + x] = v;
      const shown = over(v);
      // little-endian: alpha is the top byte
      if (shown >>> 24 !== 255) opaque = false;
      o32[row + x] = shown;
    }
  }
  return opaque ? out : null;
}
