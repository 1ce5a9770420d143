// The poses compared, and how each maps onto our render request and onto the reference imager's query
// (billsonnn/nitro-imager, classic imager parameters; size n = 64x110, our size m).
import { type AvatarRequest } from '../../src/avatar/index.js';
import { parseAction } from '../../src/avatar/request.js';

export interface Pose {
  id: string;
  action: string;
  gesture: string;
  headOnly: boolean;
}

/**
 * std, wav, sit, the gestures sml/agr/spk and headonly. Talk goes through `gesture=spk`: the reference
 * ignores `action=spk`. Directions 0 (read as 2 by the reference) and lay (cut off at its canvas edge)
 * are left out: both are known reference bugs.
 */
export const POSES: Pose[] = [
  { id: 'std', action: '', gesture: '', headOnly: false },
  { id: 'wav', action: 'wav', gesture: '', headOnly: false },
  { id: 'sit', action: 'sit', gesture: '', headOnly: false },
  { id: 'sml', action: '', gesture: 'sml', headOnly: false },
  { id: 'agr', action: '', gesture: 'agr', headOnly: false },
  { id: 'spk', action: '', gesture: 'spk', headOnly: false },
  { id: 'headonly', action: '', gesture: '', headOnly: true },
];

export const DIRECTIONS = [1, 2, 3, 4, 5, 6, 7];

/**
 * Our head-only output is this window of the size-m drawing plane (docs/avatar-rendering.md, "Placement").
 * The reference draws head-only on the full 64x110 canvas, uncropped, with the head where the full body
 * has it; the comparison crops it to this window.
 */
export const HEAD_WINDOW = { x: 6, y: 10, width: 54, height: 62 };

/** Still, size m, head turned with the body. */
export function ourRequest(figure: string, direction: number, pose: Pose): AvatarRequest {
  return {
    figure,
    direction,
    headDirection: direction,
    size: 'm',
    action: parseAction(pose.action),
    gesture: pose.gesture,
    headOnly: pose.headOnly,
    animated: false,
    frames: 0,
  };
}

export function referenceUrl(base: string, figure: string, direction: number, pose: Pose): string {
  const q = new URLSearchParams({
    figure,
    direction: String(direction),
    head_direction: String(direction),
    size: 'n',
    action: pose.action || 'std',
    gesture: pose.gesture || 'std',
  });
  if (pose.headOnly) q.set('headonly', '1');
  return `${base.replace(/\/+$/, '')}/?${q}`;
}
