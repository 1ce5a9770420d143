// The badge routes' paths: the one place they are spelled. The core reads what follows them
// (core/badge/params.ts); the handler and the debug page both link to them, so they sit apart from both.
export const BADGE_PATH = '/habbo-imaging/badge';
export const BADGE_FILL_PATH = '/habbo-imaging/badge-fill';
export const BADGE_RENDER_PATH = '/render/badge';
