// Group badges (what the badge route, server/badge/, serves): codes, the hotel's badge data, the client's
// layout, the drawing. What other layers use; they import this file, not the modules behind it.
export {
  canonicalParts,
  MAX_BADGE_PARTS,
  parseBadgeCode,
  type BadgeCodePart,
  type BadgeCodeResult,
  type BadgeLayout,
} from './code.js';
export {
  BADGE_HEIGHT,
  BADGE_WIDTH,
  clientTint,
  partPosition,
  partTexture,
  planBadge,
  shockwavePosition,
  type BadgeLayer,
  type BadgePlan,
} from './layout.js';
export { loadBadgeHotel, type BadgeLoadResult, type BadgeSourceOptions } from './load.js';
export type { BadgeHotel } from './model.js';
export {
  BADGE_CONTENT_TYPES,
  BADGE_RENDERER_VERSION,
  drawBadge,
  encodeBadge,
  fillBadge,
  renderBadge,
  type BadgeFormat,
  type BadgeRender,
} from './render.js';
