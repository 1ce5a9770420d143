// The image cache key (spec §8.1 rules 1-3, §9): every parameter as sent plus the renderer version.
// A reordered figure string or a varied ignored parameter is a new key; `animated` (and `frames`, which
// only means something with it) join the key only when the pose really animates, so a still pose has one
// entry whatever `animated` says.
import { createHash } from 'node:crypto';
import { type AvatarIdentity } from './params.js';

export interface CacheKeyInput {
  pairs: [string, string][];
  identity: AvatarIdentity;
  /** The figure a `user` request resolved to; the image is keyed on it so a changed look is a new entry. */
  resolvedFigure?: string;
  animates: boolean;
  rendererVersion: string;
}

const byName = (a: [string, string], b: [string, string]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

export function avatarCacheKey(input: CacheKeyInput): string {
  let pairs = input.pairs;
  if (input.identity.kind === 'user') {
    if (input.resolvedFigure === undefined) throw new Error('a user request needs its resolved figure for a cache key');
    pairs = pairs.filter(([name]) => name !== 'user' && name !== 'figure');
    pairs.push(['figure', input.resolvedFigure]);
    pairs.sort(byName);
  }
  if (!input.animates) pairs = pairs.filter(([name]) => name !== 'animated' && name !== 'frames');
  let key = input.rendererVersion + '\n';
  for (const [name, value] of pairs) key += encodeURIComponent(name) + '=' + encodeURIComponent(value) + '&';
  return key;
}

/** Fixed-length name for a key (disk file names, ETags). */
export function keyDigest(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
