// The 302 to the upstream imager (contract A7.2, docs/contract.md): same parameter names, the normalized
// request's values (src/avatar/request.ts), and no `animated`/`frames` (the upstream animates on its own
// terms). `img_format=gif` and `frame_num` are forwarded: the peers' imagers (nitro-imager and its forks)
// read them, and an image tag that asked for a GIF must not get a PNG from the fallback.
import { type AvatarPose } from '../../avatar/request.js';
import { type AvatarIdentity } from './params.js';

export const FALLBACK_REASONS = [
  'user-unresolved',
  'busy',
  'rate-limited',
  'no-budget',
  'render-failed',
  'render-failed-cached',
  'unexpected',
] as const;
export type FallbackReason = (typeof FALLBACK_REASONS)[number];

export const FALLBACK_CACHE_CONTROL = 'public, max-age=60';

export interface FallbackTarget {
  identity: AvatarIdentity;
  /** The normalized request: canonical action and gesture, one dance. */
  pose: AvatarPose;
}

export function fallbackLocation(fallbackUrl: string, target: FallbackTarget): string {
  const q = new URLSearchParams();
  if (target.identity.kind === 'figure') q.set('figure', target.identity.figure);
  else q.set('user', target.identity.name);
  q.set('direction', String(target.pose.direction));
  q.set('head_direction', String(target.pose.headDirection));
  q.set('size', target.pose.size);
  q.set('action', target.pose.action.text);
  q.set('gesture', target.pose.gesture);
  q.set('headonly', target.pose.headOnly ? '1' : '0');
  if (target.pose.format === 'gif') q.set('img_format', 'gif');
  if (target.pose.frameNum !== undefined) q.set('frame_num', String(target.pose.frameNum));
  // The peers' effect and dance parameters, under the same names (only when the request had them).
  if (target.pose.effect) q.set('effect', String(target.pose.effect));
  if (target.pose.dance) q.set('dance', String(target.pose.dance));
  // URLSearchParams writes spaces as '+', which the upstream reads the same; keep ',', '=', '.' readable.
  const query = q.toString().replace(/%2C/g, ',');
  const hashAt = fallbackUrl.indexOf('#');
  const base = hashAt >= 0 ? fallbackUrl.slice(0, hashAt) : fallbackUrl;
  const joiner = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
  return base + joiner + query;
}
