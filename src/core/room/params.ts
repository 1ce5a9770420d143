// The room routes' URLs, read once into a structured request. The room route (server/room/) owns the paths and
// hands over what follows its path (the rest) and the query:
//   /<id>.png?size=m|s|l|b&zoom=&walls=0&furni=0&bots=0&floor=<id>&wall=<id>&landscape=<id>
//       &bg=[AA]RRGGBB&frame=<0-600>             as vortex-imager's parseRoomRequest reads them (zoom in whole steps;
//                                                frame: the tick of every item's animation, as the furni route's)
//       &animated=1                              the room as it moves (APNG), from tick `frame`
//   /<id>.gif?…                                   the same parameters: the room as it moves, as a GIF
// Tolerant as the avatar parameters are: an unknown or malformed value means the default (size=x is size m,
// bg=red is no background), unknown parameters are ignored. Only the room id decides 404.
import { parseBackgroundColor, parseZoom, type FlatColor } from '../../imaging/image.js';
import { parseBoolean } from '../../avatar/request.js';
import { MAX_ROOM_TICK, type RoomAnimationFormat, type RoomRenderOptions } from '../../room/index.js';

/** The largest room id read (Arcturus keeps `rooms.id` in a signed INT). */
export const MAX_ROOM_ID = 2_147_483_647;

export interface RoomRequest {
  roomId: number;
  options: RoomRenderOptions;
  /** Background colour composed under the picture (`parseBackgroundColor`); undefined = transparent. */
  bg?: FlatColor;
  /** Nearest-neighbour zoom of the finished picture, 2–4 (`size=l` 2, `b` 3, or `zoom=`); undefined = 1. */
  zoom?: number;
  /**
   * The room as it moves (`options.animated`), written as an APNG (`.png?animated=1`) or a GIF (`.gif`);
   * undefined for the still.
   */
  motion?: RoomAnimationFormat;
}

/**
 * The room id and the format of an image path rest (`/123.png`, `/123.gif`); undefined when it names no room.
 * A GIF is always the room as it moves.
 */
export function parseRoomImagePath(rest: string): { roomId: number; format: 'png' | 'gif' } | undefined {
  const gif = rest.endsWith('.gif');
  const roomId = parseRoomId(gif ? `${rest.slice(0, -4)}.png` : rest, true);
  return roomId === undefined ? undefined : { roomId, format: gif ? 'gif' : 'png' };
}

/**
 * The room id of a path rest (`/123.png`, or `/123` when `extension` is false); undefined when it names no room.
 * Ids are decimal without sign or leading zeros, so one room has one URL (and one cache entry).
 */
export function parseRoomId(rest: string, extension: boolean): number | undefined {
  const m = (extension ? /^\/([1-9][0-9]{0,9})\.png$/ : /^\/([1-9][0-9]{0,9})$/).exec(rest);
  if (!m) return undefined;
  const id = Number(m[1]);
  return id <= MAX_ROOM_ID ? id : undefined;
}

/** What a 404 for a path that names no room says (`prefix`: the route's path). */
export function badRoomPath(prefix: string, extension: boolean): string {
  return `not found: use ${prefix}/<room id>${extension ? '.png' : ''} (a room id is a whole number ≥ 1)\n`;
}

const DECORATION = /^[0-9]{1,9}(\.[0-9]{1,9})?$/;

function queryParams(query: string): Map<string, string> {
  const out = new Map<string, string>();
  if (query === '') return out;
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    if (out.has(name)) continue; // the first one wins, as for the avatar parameters
    try {
      out.set(name, decodeURIComponent((eq < 0 ? '' : pair.slice(eq + 1)).replace(/\+/g, ' ')));
    } catch {
      out.set(name, '');
    }
  }
  return out;
}

const SIZES: Record<string, { scale: 64 | 32; zoom: number }> = {
  s: { scale: 32, zoom: 1 },
  m: { scale: 64, zoom: 1 },
  l: { scale: 64, zoom: 2 },
  b: { scale: 64, zoom: 3 },
};

const off = (v: string | undefined) => v === '0' || v === 'false' || v === 'no';

/**
 * Reads the query into render options and the background; never fails. `format` is the path's: a `.gif` is the
 * room as it moves, a `.png` with `animated=1` (also `true`, `yes`) too.
 */
export function parseRoomQuery(roomId: number, query: string, format: 'png' | 'gif' = 'png'): RoomRequest {
  const p = queryParams(query);
  const deco = (name: string) => {
    const v = p.get(name);
    return v !== undefined && DECORATION.test(v) ? v : undefined;
  };
  // vortex-imager's `size=` (parseRoomRequest): the room scale, and the zoom l and b imply.
  const size = SIZES[(p.get('size') ?? 'm').toLowerCase()] ?? SIZES.m!;
  const options: RoomRenderOptions = {
    size: size.scale,
    walls: !off(p.get('walls')),
    furni: !off(p.get('furni')),
    bots: !off(p.get('bots')),
  };
  const floor = deco('floor');
  const wall = deco('wall');
  const landscape = deco('landscape');
  if (floor !== undefined) options.floor = floor;
  if (wall !== undefined) options.wall = wall;
  if (landscape !== undefined) options.landscape = landscape;
  // vortex-imager: Math.min(600, Math.max(0, trunc(Number(frame)))), a malformed one 0.
  const frame = Number(p.get('frame'));
  const tick = Number.isFinite(frame) ? Math.min(MAX_ROOM_TICK, Math.max(0, Math.trunc(frame))) : 0;
  if (tick > 0) options.tick = tick;
  const bg = parseBackgroundColor(p.get('bg'));
  const req: RoomRequest = { roomId, options };
  if (bg) req.bg = bg;
  const zoom = parseZoom(p.get('zoom') ?? p.get('scale'), size.zoom);
  if (zoom > 1) req.zoom = zoom;
  if (format === 'gif' || parseBoolean(p.get('animated'))) {
    req.motion = format;
    options.animated = true;
  }
  return req;
}

/** One spelling per meaning: requests that draw the same picture share a key. */
export function canonicalOptions(req: RoomRequest): string {
  const o = req.options;
  // An opaque colour keeps the 6-digit spelling keys had before `AARRGGBB` was read.
  const rgb = req.bg?.rgb.toString(16).padStart(6, '0');
  const bg = req.bg === undefined ? '-' : req.bg.alpha === 255 ? rgb : `${rgb}/${req.bg.alpha}`;
  return [
    `size=${o.size}`,
    `walls=${o.walls ? 1 : 0}`,
    `furni=${o.furni ? 1 : 0}`,
    `bots=${o.bots ? 1 : 0}`,
    `floor=${o.floor ?? '-'}`,
    `wall=${o.wall ?? '-'}`,
    `landscape=${o.landscape ?? '-'}`,
    `bg=${bg}`,
    // Only a zoom, a frame or motion joins the key, so the keys of the pictures before they were read stay.
    ...(req.zoom === undefined ? [] : [`zoom=${req.zoom}`]),
    ...(o.tick === undefined ? [] : [`frame=${o.tick}`]),
    // A GIF moves whatever the query says; an APNG is `animated=1` (the debug page's link reads it back).
    ...(req.motion === undefined ? [] : [req.motion === 'gif' ? 'format=gif' : 'animated=1']),
  ].join('&');
}
