// The image cache key (contract A8.1, docs/contract.md): the parameters `keyedPairs` (src/avatar/request.ts)
// says join the key, plus the renderer version. Caches hold the SHA-256 of that canonical text, never the
// text itself: a URL can carry kilobytes of parameters the renderer ignores, and a fixed-size key keeps
// every entry's size what the caches count. Two URLs share a digest only if their canonical texts are
// equal, so a changed URL is still a fresh entry.
import { keyedPairs } from '../../avatar/request.js';
import { sha256Hex } from '../../util/hash.js';
import { type AvatarIdentity } from './params.js';

export interface CacheKeyInput {
  pairs: [string, string][];
  identity: AvatarIdentity;
  /** The figure a `user` request resolved to; the image is keyed on it so a changed look is a new entry. */
  resolvedFigure?: string;
  /** The normalized request shows the pose's loop and the pose has more than one frame. */
  animates: boolean;
  rendererVersion: string;
}

const byName = (a: [string, string], b: [string, string]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** The text a key is the digest of: renderer version, then every keyed parameter (shown on /render). */
export function canonicalAvatarKey(input: CacheKeyInput): string {
  let pairs = input.pairs;
  if (input.identity.kind === 'user') {
    if (input.resolvedFigure === undefined) throw new Error('a user request needs its resolved figure for a cache key');
    pairs = pairs.filter(([name]) => name !== 'user' && name !== 'figure');
    pairs.push(['figure', input.resolvedFigure]);
    pairs.sort(byName);
  }
  let key = input.rendererVersion + '\n';
  for (const [name, value] of keyedPairs(pairs, input.animates))
    key += encodeURIComponent(name) + '=' + encodeURIComponent(value) + '&';
  return key;
}

/** The cache key: a fixed-length digest of the canonical key (also the disk cache's file name). */
export function avatarCacheKey(input: CacheKeyInput): string {
  return sha256Hex(canonicalAvatarKey(input));
}
