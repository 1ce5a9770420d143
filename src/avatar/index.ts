// Public API of the avatar renderer (the HTTP service is written against exactly this).
import { encodeFrames } from '../imaging/apng.js';
import { type AvatarRender } from './render.js';

export { assetIdentity, type AssetFiles } from './asset-identity.js';
export { AvatarRenderError, type AvatarRenderErrorCode } from './errors.js';
export { type AvatarHotel, createAvatarHotel, type AvatarHotelInput } from './hotel.js';
export { loadAvatarHotel, type LoadAvatarHotelOptions } from './load.js';
export { animationFrameCount, renderAvatar, TICK_DELAY, type AvatarRender, type DrawnLayer } from './render.js';
export { normalizeAction, normalizeGesture, parseDanceId, parseEffectId, type AvatarRequest, type AvatarSize } from './request.js';

/**
 * Bump whenever output pixels or bytes change: it is part of the service's cache key (with the hotel's
 * asset identity). avatar-3: converted Nitro folders render with their carried-over Flash documents
 * (0fa43d6), the sample kit's hands and held items (869afae), head_direction
 * ignored for lay under headonly. avatar-5: drawn as the game client draws (sprites found in any library
 * of the worn sets, same-type parts by index, the client's mandatory defaults and colour rules, every
 * part of a body part with its action, no lay variants, `mc` not drawn).
 */
export const RENDERER_VERSION = 'avatar-5';

/**
 * PNG for a still, APNG (loop forever, 1/6 s a frame) for an animation. Indexed colour when the frames
 * fit one 256-colour palette (nearly always), RGBA otherwise.
 */
export async function encodeAvatar(render: AvatarRender): Promise<Buffer> {
  // Frames an effect holds for several ticks carry their own delay (n/6 s); every other loop is 1/6 s a frame.
  const held = render.frameTicks.some((t) => t !== 1);
  return encodeFrames(render.frames, held ? { compressionLevel: 6, delayNums: render.frameTicks } : { compressionLevel: 6 });
}
