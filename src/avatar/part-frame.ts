// Frame `f` of a body part under its own action (no effect): which asset action and frame each of its
// parts draws, and the body part's offset in that frame, aligned with `bp.parts` (null: not drawn). Pure.
import { bodyPartOffset, type AnimationIndex } from './actions.js';
import { type PartDraw, type PlannedBodyPart } from './plan-types.js';
import { type AvatarSize } from './request.js';

/**
 * nitro-renderer `AvatarImageCache.renderBodyPart`: one asset-action variable per body part, so a frame
 * that names its own action (Sit's `wa` draws `std`) changes it for every later part that names none.
 */
export function bodyPartFrame(
  animations: AnimationIndex,
  size: AvatarSize,
  bp: PlannedBodyPart,
  f: number,
): (PartDraw | null)[] {
  let assetAction = bp.governing.assetAction;
  // The body part moves with its action's frame (Laugh's head bob); the client shifts by these pixels
  // at its scale, so size s, drawn on the doubled plane, moves twice as far.
  const [ox, oy] = bodyPartOffset(animations, bp.governing, bp.direction, f, bp.id);
  const dx = size === 's' ? 2 * ox : ox;
  const dy = size === 's' ? 2 * oy : oy;
  const out: (PartDraw | null)[] = [];
  for (const item of bp.parts) {
    // Direction 7 faces away: no face, no eyes.
    if (item.direction === 7 && (item.part.type === 'fc' || item.part.type === 'ey')) {
      out.push(null);
      continue;
    }
    const step = item.steps.length > 0 ? item.steps[(item.animates ? f : 0) % item.steps.length]! : undefined;
    if (step?.assetAction) assetAction = step.assetAction;
    out.push({
      bodyPart: item.bodyPart,
      type: item.part.type,
      id: item.part.id,
      tint: item.part.tint,
      assetAction,
      frame: step?.number ?? 0,
      direction: item.direction,
      dx,
      dy,
    });
  }
  return out;
}
