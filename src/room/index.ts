// Public API of the room renderer (the room service is written against exactly this).
export {
  loadRoomAssets,
  roomAssetsSource,
  type RoomAssetsSource,
  type LoadRoomAssetsOptions,
  type RoomAssets,
} from './assets.js';
export type { RoomData, RoomItem, RoomBot, RoomPet } from './model.js';
export { roomData } from './model.js';
export { MAX_DRAWN_ITEMS, MAX_ROOM_TICK, renderRoom, type RoomPicture, type RoomRenderOptions } from './render.js';
export type { ReportItem, ReportPlane, RoomReport } from './report.js';
export {
  currentHeight,
  itemsUnder,
  roomItemPosture,
  unitPosture,
  type Posture,
  type PostureItem,
  type PostureType,
  type PostureUnit,
} from './posture.js';
export { HeightmapError } from './heightmap.js';
export {
  encodeRoomAnimation,
  encodeRoomPicture,
  encodeThumbnail,
  type RoomAnimationFormat,
  THUMBNAIL_SIZE,
} from './encode.js';
export {
  MAX_ANIMATED_PIXELS,
  MAX_ANIMATED_SPRITE_DRAWS,
  MAX_LOOP_UPDATES,
  ROOM_UPDATE_DELAY,
  ROOM_UPDATES_PER_SECOND,
  type FrameRect,
  fullFrames,
  type LoopCut,
  type RoomLoop,
  type RoomMotion,
} from './motion.js';

/** Bump whenever output pixels change: part of the service's cache key, with the assets' identity. */
export const ROOM_RENDERER_VERSION = 'room-5';
