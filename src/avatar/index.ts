// Public API of the avatar renderer (the HTTP service is written against exactly this).
export { AvatarRenderError, type AvatarRenderErrorCode } from './errors.js';
export { type AvatarHotel, createAvatarHotel, type AvatarHotelInput, type HotelDigests } from './hotel.js';
export { renderInputs, renderInputsDigest, renderInputsFields } from './inputs.js';
export { createLibraryCaches, libraryCacheKey, type LibraryCache } from './library.js';
export { avatarFolderSignature, hotelFromSnapshot, loadAvatarHotel, scanAvatarHotel, type AvatarHotelSnapshot, type LibraryProblem, type LoadAvatarHotelOptions } from './load.js';
export { CONTENT_TYPES, encodeAvatar, pickFrame, shownFrames } from './output.js';
export { POSE_FRAME_DELAY, type AvatarRender } from './draw.js';
export { type DrawnLayer } from './plan-types.js';
export { animationFrameCount, renderAvatar } from './render.js';
export { avatarRequest, normalizeAction, normalizeGesture, normalizeRequest, parseDanceId, parseEffectId, type AvatarFormat, type AvatarPose, type AvatarRequest, type AvatarSize } from './request.js';

/**
 * Bump whenever output pixels or bytes change: it is part of the service's cache key (with the digest of
 * what the render reads from the hotel, inputs.ts). avatar-3: converted Nitro folders render with their carried-over Flash documents
 * (0fa43d6), the sample kit's hands and held items (869afae), head_direction
 * ignored for lay under headonly. avatar-5: drawn as the game client draws (sprites found in any library
 * of the worn sets, same-type parts by index, the client's mandatory defaults and colour rules, every
 * part of a body part with its action, no lay variants, `mc` not drawn). avatar-6 (issues 16 and 19):
 * Flash hotels draw draworder.xml's raised-hand lists, and a direction a posture list lacks takes std's
 * list; `img_format=gif` and `frame_num` change what those URLs answer (before, a PNG, which a disk cache
 * would otherwise keep serving under the same key). A Nitro hotel's other URLs keep avatar-5's bytes
 * (the golden set).
 */
export const RENDERER_VERSION = 'avatar-6';
