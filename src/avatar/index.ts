// Public API of the avatar renderer (the HTTP service is written against exactly this).
import { encodePng } from '../imaging/codec.js';
import { encodeApng } from '../imaging/apng.js';
import { type AvatarRender } from './render.js';

export { AvatarRenderError, type AvatarRenderErrorCode } from './errors.js';
export { type AvatarHotel, createAvatarHotel, type AvatarHotelInput } from './hotel.js';
export { loadAvatarHotel, type LoadAvatarHotelOptions } from './load.js';
export { animationFrameCount, renderAvatar, type AvatarRender, type DrawnLayer } from './render.js';
export { normalizeAction, normalizeGesture, type AvatarRequest, type AvatarSize } from './request.js';

/** Bump whenever output pixels change: it is part of the service's cache key. */
export const RENDERER_VERSION = 'avatar-1';

/** PNG for a still, APNG (loop forever, 1/6 s a frame) for an animation. */
export async function encodeAvatar(render: AvatarRender): Promise<Buffer> {
  if (render.frames.length <= 1) return encodePng(render.frames[0]!, { compressionLevel: 6 });
  return encodeApng(render.frames, { compressionLevel: 6 });
}
