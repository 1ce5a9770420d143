// The HTTP side of /avatar.png's query: who the avatar is (a figure, or a user to look up) and every
// pair as sent (the cache key's input). What each other value means is src/avatar/request.ts
// (`normalizeRequest`), the one place a parameter gets its meaning. Unknown values never reject a
// request; only a missing identity or an oversized figure is a 400 (contract A4.1, docs/contract.md).
import { normalizeRequest, type AvatarPose } from '../../avatar/request.js';

export type AvatarIdentity = { kind: 'figure'; figure: string } | { kind: 'user'; name: string };

export interface ParsedAvatarQuery {
  identity: AvatarIdentity;
  /** Every other parameter's meaning (normalized). */
  pose: AvatarPose;
  /**
   * Every parameter as sent (decoded, each value of a repeated name in the order sent), sorted by name:
   * the cache key input. `cb=1&cb=2` is not `cb=1`, even though only the first value is read.
   */
  pairs: [string, string][];
}

export type ParseResult = { ok: true; query: ParsedAvatarQuery } | { ok: false; reason: string };

export const MAX_FIGURE_BYTES = 4096;
/** Habbo names are at most a few dozen characters; longer ones are not worth a lookup. */
export const MAX_USER_NAME_CHARS = 64;

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
  // A stable sort: the values of a repeated name keep the order they were sent in.
  return parseAvatarParameters(firstValues(all), all.sort(byName));
}

const byName = (a: [string, string], b: [string, string]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/**
 * The same meaning from values already decoded, name → value (the library API's object): what
 * parseAvatarQuery gives for a query with these values. `pairs`, the cache key input, defaults to the
 * values sorted by name.
 */
export function parseAvatarParameters(
  params: ReadonlyMap<string, string>,
  pairs: [string, string][] = [...params].sort(byName),
): ParseResult {
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
  return { ok: true, query: { identity, pose: normalizeRequest(params), pairs } };
}
