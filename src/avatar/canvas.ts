// Where sprites land: registration points and mirror constants of the reference client, and the
// output windows that give the spec's dimension table (§2.3) for every size × headonly × lay.
import { type AvatarSize } from './request.js';

export interface Placement {
  /** Registration point: an unmirrored sprite's top-left is (rx − offsetX, ry − offsetY). */
  rx: number;
  ry: number;
  /**
   * Mirror shift of the reference client: a mirrored sprite's left edge is rx + shift + offsetX − width
   * (67 upright at the normal scale, 0 lying), and a non-mirrored exception part at a mirrored
   * direction sits at rx + shift − 65 − offsetX.
   */
  mirrorShift: number;
  exceptionShift: number;
}

export interface OutputWindow {
  /** The part of the drawing plane that becomes the image, before scaling. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** 2 = nearest-neighbour upscale (size l); 0.5 = 2×2 box downscale (size s from `h` sprites); 1 = as drawn. */
  scale: number;
}

export const UPRIGHT_H: Placement = { rx: 0, ry: 100, mirrorShift: 67, exceptionShift: 2 };
// The client's horizontal canvas (128×80, dx 30) keeps the registration at (62, 64).
export const LYING_H: Placement = { rx: 62, ry: 64, mirrorShift: 0, exceptionShift: -65 };

/**
 * The direction a lying avatar is drawn at, from the direction it is given: lying has sprites for one side only
 * (AvatarImage.appendAction, after AvatarVisualization has set the unit's direction: 0 lies at 4, the mirror of
 * 2, with its head on the right; every other direction at 2, head on the left). Not idempotent (4 gives 2): apply
 * it once, to the unit's own direction.
 */
export function lyingDirection(direction: number): number {
  return direction === 0 ? 4 : 2;
}

// Size-m windows on the drawing plane. Full body: the 64×110 canvas itself. Head only: a fixed
// window around the head, the same for every head part. Lying: a fixed window on the horizontal plane.
const M_FULL = { x: 0, y: 0, width: 64, height: 110 };
export const M_HEAD = { x: 6, y: 10, width: 54, height: 62 };
// Lying faces right (direction 2) or left (4, mirrored about the registration): the window follows.
export const M_LAY = { x: 24, y: 16, width: 110, height: 64 };

// The small scale (`sh_` sprites positioned by the hotel, Flash libraries), doubled onto the normal
// scale's plane: half-scale registration and the client's small mirror constant (31 for the body and
// for exception parts alike), times two.
export const UPRIGHT_SH2: Placement = { rx: 0, ry: 100, mirrorShift: 62, exceptionShift: 0 };
export const LYING_SH2: Placement = { rx: 62, ry: 64, mirrorShift: 0, exceptionShift: -62 };

export function outputWindow(size: AvatarSize, headOnly: boolean, lying: boolean, mirrored = false): OutputWindow {
  const w = plainWindow(size, headOnly, lying);
  if (lying && !headOnly && mirrored) return { ...w, x: 2 * LYING_H.rx - w.x - w.width };
  return w;
}

function plainWindow(size: AvatarSize, headOnly: boolean, lying: boolean): OutputWindow {
  const base = headOnly ? M_HEAD : lying ? M_LAY : M_FULL;
  if (size === 'm') return { ...base, scale: 1 };
  if (size === 'l') return { ...base, scale: 2 };
  // Size s (33×56, 27×30, 56×33) is half of a window a little larger (or, head only, a little
  // shorter) than size m's. Its origin is on even coordinates so that `sh_` sprites drawn doubled
  // come back pixel for pixel after halving.
  if (headOnly) return { x: base.x, y: base.y, width: 54, height: 60, scale: 0.5 };
  return { x: base.x, y: base.y, width: lying ? 112 : 66, height: lying ? 66 : 112, scale: 0.5 };
}

/** Final pixel size of the image for a request (the spec's §2.3 table). */
export function outputSize(size: AvatarSize, headOnly: boolean, lying: boolean): { width: number; height: number } {
  const w = outputWindow(size, headOnly, lying);
  return { width: Math.round(w.width * w.scale), height: Math.round(w.height * w.scale) };
}
