// Where the client draws an avatar in the room for its posture, in terms of our imager picture. nitro-renderer's
// AvatarVisualization places the avatar canvas from the screen point of the unit's location (x, y, z + the
// posture height, RoomMessageHandler.onRoomUnitStatusEvent):
//   offsetX = −scale/2 + canvasOffset.x − (canvas.width − scale)/2
//   offsetY = −canvas.height + scale/4 + canvasOffset.y + postureOffset   (postureOffset: scale/2 for sit and lay)
// and AvatarImage draws the figure's registration at ((canvas.width − 64)/2 + dx, canvas.height − 16 + dy) of the
// canvas (AvatarCanvas.regPoint, AvatarImageCache: canvas height − 16). The canvas is the action's geometry type's
// (HabboAvatarGeometry at scale h: vertical and sitting 90 × 130, dx 0; horizontal 128 × 80, dx 30, dy 0), so the
// registration lands at (sx − 32 + dx + canvasOffset.x, sy + dy + postureOffset + canvasOffset.y), whatever the
// canvas size. The sprite's relative depth is −0.01 (AVATAR_SPRITE_DEFAULT_DEPTH), −0.409 lying
// (AVATAR_SPRITE_LAYING_DEPTH), plus canvasOffset.z; the canvas offsets are HabboAvatarActions' actionOffsets of
// the main action at the avatar's direction (lay: (22, 17, −0.9) at 2, (−17, 17, −0.9) at 4).
import { canvasOffsets } from '../avatar/actions.js';
import { type AvatarHotel } from '../avatar/hotel.js';
import { LYING_H, lyingDirection, outputWindow, UPRIGHT_H } from '../avatar/canvas.js';
import { type PostureType } from './posture.js';

/** The room's scale the placement is for (rooms draw at 64 and halve for 32). */
const SCALE = 64;
const DEFAULT_DEPTH = -0.01;
const LAYING_DEPTH = -0.409;
/** The lay offsets every public HabboAvatarActions.json has; used when the hotel's document has none. */
const LAY_OFFSETS: Record<number, readonly [number, number, number]> = { 2: [22, 17, -0.9], 4: [-17, 17, -0.9] };

/** Where our picture of the avatar goes, from the screen point of its location (x, y, z + posture height). */
export interface UnitPlacement {
  /** The picture's top-left relative to that screen point, at scale 64. */
  left: number;
  top: number;
  /** The sprite's depth relative to the location's. */
  relativeDepth: number;
}

/**
 * The avatar's direction as drawn, from the unit's own direction: lying has sprites for one side only
 * (AvatarImage.appendAction: direction 0 lies at 4, the mirror of 2, head on the right; every other at 2). The
 * placement's canvas offsets are for this direction; the avatar request takes the unit's own direction, since the
 * avatar renderer applies the same rule (applying it twice turns 0 into 4 and then 2, head on the wrong side).
 */
export function drawnDirection(posture: PostureType, direction: number): number {
  return posture === 'lay' ? lyingDirection(direction) : direction;
}

/**
 * The placement of an imager picture of size m (`width` wide) for a posture at a drawn direction, with the hotel's
 * canvas offsets for the posture's action.
 */
export function unitPlacement(
  hotel: Pick<AvatarHotel, 'actions'> | undefined,
  posture: PostureType,
  direction: number,
  width: number,
): UnitPlacement {
  const lying = posture === 'lay';
  const offsets = (hotel && canvasOffsets(hotel.actions, posture, 'h', direction)) ??
    (lying ? LAY_OFFSETS[direction] : undefined) ?? [0, 0, 0];
  const postureOffset = posture === 'std' ? 0 : SCALE / 2;
  const dx = lying ? 30 : 0;
  // The registration's screen offset from the location's point.
  const rx = -SCALE / 2 + dx + offsets[0];
  const ry = postureOffset + offsets[1];
  const relativeDepth = (lying ? LAYING_DEPTH : DEFAULT_DEPTH) + offsets[2];
  if (lying) {
    // Our lying picture is the window of the horizontal plane whose registration is LYING_H (mirrored at 4).
    const win = outputWindow('m', false, true, direction >= 4 && direction <= 6);
    return { left: rx - (LYING_H.rx - win.x), top: ry - (LYING_H.ry - win.y), relativeDepth };
  }
  // Upright: the picture's horizontal centre is the registration (size m: 64 wide, x 32), its feet at UPRIGHT_H.ry.
  return { left: rx + SCALE / 2 - Math.floor(width / 2), top: ry - UPRIGHT_H.ry, relativeDepth };
}
