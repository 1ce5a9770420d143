// The room routes' paths: the one place they are spelled. The core reads what follows them
// (core/room/params.ts); the handler and the debug page both link to them, so they sit apart from both.
export const ROOM_PATH = '/habbo-imaging/room';
export const ROOM_RENDER_PATH = '/render/room';
export const THUMBNAIL_PATH = '/thumbnail';
