// Query string of /avatar.png → the renderer's request, exactly per spec §4.1.
// Unknown values never reject a request; only a missing identity or an oversized figure is a 400.
import { type AvatarFormat, parseDanceId, parseEffectId } from '../../avatar/request.js';

/** Mirrors `AvatarRequest` of src/avatar/request.ts minus the figure, which may still need a user lookup. */
export interface AvatarPose {
  direction: number;
  headDirection: number;
  size: 's' | 'm' | 'l';
  action: string;
  gesture: string;
  headOnly: boolean;
  animated: boolean;
  frames: number;
  /** `img_format=gif` (any case) → gif; anything else, or absent, → png. */
  format: AvatarFormat;
  /** `frame_num`: an integer (wrapped modulo the loop later), undefined when absent or not an integer. */
  frameNum?: number;
  /** `effect=<id>` (issue 16): present only when the request names one. */
  effect?: number;
  /** `dance=1-4`: present only when the request names one. */
  dance?: number;
}

export type AvatarIdentity = { kind: 'figure'; figure: string } | { kind: 'user'; name: string };

export interface ParsedAvatarQuery {
  identity: AvatarIdentity;
  pose: AvatarPose;
  /**
   * Every parameter as sent (decoded, each value of a repeated name in the order sent), sorted by name:
   * the cache key input. `cb=1&cb=2` is not `cb=1`, even though only the first value is read.
   */
  pairs: [string, string][];
}

export type ParseResult = { ok: true; query: ParsedAvatarQuery } | { ok: false; reason: string };

export const MAX_FIGURE_BYTES = 4096;
export const MAX_FRAMES = 24;
/** Habbo names are at most a few dozen characters; longer ones are not worth a lookup. */
export const MAX_USER_NAME_CHARS = 64;
const DEFAULT_DIRECTION = 2;

const TRUE_VALUES = new Set(['1', 'true', 'yes', 'on']);

/** 1/true/yes/on (any case) are true; everything else, including 0/false/no/off and empty, is false. */
export function parseBoolean(value: string | undefined): boolean {
  return value !== undefined && TRUE_VALUES.has(value.trim().toLowerCase());
}

/** Integers wrap into 0-7 (9 → 1, -1 → 7); anything non-integer gives the fallback. */
export function parseDirection(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const text = value.trim();
  if (!/^[+-]?\d{1,15}$/.test(text)) return fallback;
  const n = Number(text);
  return ((n % 8) + 8) % 8;
}

/** s, m, l; b is m; absent or empty is l; any other value is m. */
export function parseSize(value: string | undefined): 's' | 'm' | 'l' {
  if (value === undefined || value === '') return 'l';
  if (value === 's' || value === 'm' || value === 'l') return value;
  return 'm';
}

/** 1-24, above 24 clamps to 24; 0, absent, negative or non-numeric mean the whole loop (0). */
export function parseFrames(value: string | undefined): number {
  if (value === undefined) return 0;
  const text = value.trim();
  if (!/^[+-]?\d+$/.test(text)) return 0;
  const n = Number(text);
  if (!(n >= 1)) return 0;
  return Math.min(MAX_FRAMES, Math.floor(n));
}

/** `gif` (trimmed, any case) is GIF; every other value keeps PNG, as the peers' imagers do. */
export function parseImageFormat(value: string | undefined): AvatarFormat {
  return value !== undefined && value.trim().toLowerCase() === 'gif' ? 'gif' : 'png';
}

/**
 * `frame_num`: any integer, negative too (wrapped modulo the loop's length when rendering, so -1 is the
 * last frame, as `direction` wraps); not an integer (empty, `abc`, `2.5`) → undefined, i.e. ignored.
 */
export function parseFrameNum(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (!/^[+-]?\d{1,15}$/.test(text)) return undefined;
  return Number(text);
}

/** Every decoded pair of a raw query string, repeats included, in the order sent. */
export function allPairs(rawQuery: string): [string, string][] {
  return rawQuery === '' ? [] : [...new URLSearchParams(rawQuery)];
}

/** Name → value of decoded pairs; the first value of a repeated name wins. */
export function firstValues(pairs: [string, string][]): Map<string, string> {
  const map = new Map<string, string>();
  for (const [name, value] of pairs) {
    if (!map.has(name)) map.set(name, value);
  }
  return map;
}

export function parseAvatarQuery(rawQuery: string): ParseResult {
  // The query is decoded once: the pairs are both what the request means and what its cache key is made of.
  const all = allPairs(rawQuery);
  const params = firstValues(all);
  const figure = params.get('figure');
  const user = params.get('user');
  let identity: AvatarIdentity;
  if (figure !== undefined && figure !== '') {
    if (Buffer.byteLength(figure, 'utf8') > MAX_FIGURE_BYTES) {
      return { ok: false, reason: `the figure parameter is longer than ${MAX_FIGURE_BYTES} bytes (4 KiB)\n` };
    }
    identity = { kind: 'figure', figure };
  } else if (user !== undefined && user.trim() !== '') {
    identity = { kind: 'user', name: user.trim() };
  } else {
    return {
      ok: false,
      reason: 'missing required parameter: figure (a figure string such as hd-180-1.ch-210-66), or user (a username)\n',
    };
  }
  const direction = parseDirection(params.get('direction'), DEFAULT_DIRECTION);
  const pose: AvatarPose = {
    direction,
    headDirection: parseDirection(params.get('head_direction'), direction),
    size: parseSize(params.get('size')),
    action: params.get('action') ?? '',
    gesture: params.get('gesture') ?? '',
    headOnly: parseBoolean(params.get('headonly')),
    animated: parseBoolean(params.get('animated')),
    frames: parseFrames(params.get('frames')),
    format: parseImageFormat(params.get('img_format')),
  };
  const frameNum = parseFrameNum(params.get('frame_num'));
  if (frameNum !== undefined) pose.frameNum = frameNum;
  // Effects and dances join the pose only when asked for, so every other request is what it always was.
  const effect = parseEffectId(params.get('effect'));
  if (effect > 0) pose.effect = effect;
  const dance = parseDanceId(params.get('dance'));
  if (dance > 0) pose.dance = dance;
  // A stable sort: the values of a repeated name keep the order they were sent in.
  const pairs = all.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return { ok: true, query: { identity, pose, pairs } };
}
