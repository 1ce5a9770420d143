// Public API of the avatar renderer (the HTTP service is written against exactly this).
export { AvatarRenderError, type AvatarRenderErrorCode } from './errors.js';
export { type AvatarHotel, createAvatarHotel, type AvatarHotelInput, type HotelDigests } from './hotel.js';
export { renderInputs, renderInputsDigest, renderInputsFields } from './inputs.js';
export { createLibraryCaches, libraryCacheKey, type LibraryCache } from './library.js';
export {
  avatarFolderSignature,
  hotelFromSnapshot,
  loadAvatarHotel,
  scanAvatarHotel,
  type AvatarHotelSnapshot,
  type LibraryProblem,
  type LoadAvatarHotelOptions,
} from './load.js';
export {
  boundedZoom,
  changesOutput,
  drawingKey,
  CONTENT_TYPES,
  encodeAvatar,
  MAX_ZOOMED_BYTES,
  pickFrame,
  requestedOutput,
  shownFrames,
} from './output.js';
export { POSE_FRAME_DELAY, type AvatarRender } from './draw.js';
export type { DrawnLayer } from './plan-types.js';
export { animationFrameCount, renderAvatar } from './render.js';
export { missingPartSubject } from './plan.js';
export {
  avatarRequest,
  handItemAction,
  normalizeAction,
  normalizeGesture,
  normalizeRequest,
  parseAction,
  parseBoolean,
  parseDanceId,
  parseEffectId,
  type AvatarAction,
  type AvatarFormat,
  type AvatarPart,
  type AvatarPose,
  type AvatarRequest,
  type AvatarSize,
} from './request.js';

/**
 * Bump whenever output pixels or bytes change: it is part of the service's cache key (with the digest of
 * what the render reads from the hotel, inputs.ts), so images cached under the old rules are never served
 * for the new. What each version changed: docs/avatar-service.md, "Key versions".
 */
export const RENDERER_VERSION = 'avatar-6';
