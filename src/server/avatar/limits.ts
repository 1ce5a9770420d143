// Moved to src/server/limits.ts (shared with the furni service's on-demand variants).
export * from '../limits.js';
