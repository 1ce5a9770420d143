// A pet alone (the pet picture of CMS pages): its sprites composed as the room would draw them, every frame of
// its posture's and gesture's loop on one canvas (the union of the frames' bounds, so the picture does not move
// or change size between frames), at the avatar sizes: s half, m the client's 64, l twice.
import { drawSprite } from '../imaging/composite.js';
import { downscaleHalf } from '../imaging/downscale.js';
import { mergeIdenticalFrames } from '../imaging/frame-delay.js';
import { createImage, type RgbaImage, scaleNearest } from '../imaging/image.js';
import { type PetFigure } from './figure.js';
import { type PetModel } from './model.js';
import { type PetPose, petPeriod, petSprites } from './render.js';
import { type RoomSprite } from '../furni/render.js';

/** Most animation updates one animated pet picture covers (10 s): a longer loop is cut there. */
export const MAX_PET_UPDATES = 240;

export type PetSize = 's' | 'm' | 'l';

export interface PetFrames {
  frames: RgbaImage[];
  /** Animation updates (ANIMATION_UPDATES_PER_SECOND a second) each frame shows: identical neighbours merged. */
  updates: number[];
  /** Where the pet's tile point lies in the picture (at size m; halved or doubled with the size). */
  originX: number;
  originY: number;
}

/** Animation updates in one loop of a pose (petPeriod), capped at MAX_PET_UPDATES. */
export function petLoopUpdates(model: PetModel, posture: string, gesture: string, direction = 2): number {
  return Math.min(MAX_PET_UPDATES, petPeriod(model, { posture, gesture, direction }));
}

/** Draws sprites on a canvas with the pet's point at (ox, oy), farthest first (as the room sorts them). */
export function drawPetSprites(canvas: RgbaImage, sprites: RoomSprite[], ox: number, oy: number): void {
  const order = sprites.map((s, i) => ({ s, i })).sort((a, b) => b.s.relativeDepth - a.s.relativeDepth || a.i - b.i);
  for (const { s } of order)
    drawSprite(canvas, s.image, ox + s.left, oy + s.top, { flipH: s.flipH, tint: s.tint, alpha: s.alpha, ink: s.ink });
}

/**
 * The pet at a pose: one frame (the still, at tick `pose.tick`), or with `animated` every distinct frame of its
 * loop from there. Null when nothing of it can be drawn (no sprite for that pose).
 */
export function drawPet(
  model: PetModel,
  figure: PetFigure,
  pose: PetPose,
  opts: { animated: boolean; size: PetSize },
): PetFrames | null {
  const updates = opts.animated ? petLoopUpdates(model, pose.posture, pose.gesture, pose.direction) : 1;
  const perUpdate = Array.from({ length: updates }, (_, t) =>
    petSprites(model, figure, { ...pose, tick: pose.tick + t }),
  );
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const sprites of perUpdate)
    for (const s of sprites) {
      x0 = Math.min(x0, s.left);
      y0 = Math.min(y0, s.top);
      x1 = Math.max(x1, s.left + s.image.width);
      y1 = Math.max(y1, s.top + s.image.height);
    }
  if (!Number.isFinite(x0)) return null;
  const w = x1 - x0;
  const h = y1 - y0;
  const drawn = perUpdate.map((sprites) => {
    const canvas = createImage(w, h);
    drawPetSprites(canvas, sprites, -x0, -y0);
    return Buffer.from(canvas.data.buffer, canvas.data.byteOffset, canvas.data.length);
  });
  const merged = mergeIdenticalFrames(
    drawn,
    drawn.map(() => 1),
  );
  const frames: RgbaImage[] = merged.frames.map((b) => ({
    width: w,
    height: h,
    data: new Uint8Array(b.buffer, b.byteOffset, b.length),
  }));
  const shows = merged.updates;
  const scale = (img: RgbaImage) =>
    opts.size === 'l' ? scaleNearest(img, 2) : opts.size === 's' ? downscaleHalf(img) : img;
  const factor = opts.size === 'l' ? 2 : opts.size === 's' ? 0.5 : 1;
  return {
    frames: frames.map(scale),
    updates: shows,
    originX: Math.floor(-x0 * factor),
    originY: Math.floor(-y0 * factor),
  };
}
