// Moved to src/imaging/downscale.ts (shared with the furni size-32 fallback).
export { downscaleHalf } from '../imaging/downscale.js';
