// A room as it moves (`animated=1`, `.gif`): the client's animation clock, the loop's length and the bounds of
// one animated picture. The drawing is render.ts's (the planes once, the objects at every update); this file
// holds the numbers and rules it follows, so they are read and tested in one place (docs/rooms.md, Motion).
import { ANIMATION_UPDATES_PER_SECOND } from '../furni/animation.js';
import { type FrameDelay, lcm } from '../imaging/frame-delay.js';

/**
 * The client's furniture animation updates a second. RoomSpriteCanvas.render counts the ticker's time
 * (`_totalTimeRunning`, in 60ths of a second: PixiJS's deltaTime) and updates every object's visualization
 * once each time `round(time / (60 / system.fps.animation))` moves on (default 24); each update adds
 * `frameIncrease` (1) to a furni's frame counter (FurnitureAnimatedVisualization.updateFramesForAnimation).
 * The ticker itself runs at `system.fps.max` (Nitro.onConfigurationLoadedEvent, default 24), so one animation
 * update per rendered frame: 1/24 s each.
 */
export const ROOM_UPDATES_PER_SECOND = ANIMATION_UPDATES_PER_SECOND;

/** How long one animation update shows: 1/24 s. */
export const ROOM_UPDATE_DELAY: FrameDelay = { num: 1, den: ROOM_UPDATES_PER_SECOND };

/**
 * Longest loop, in updates: 5 s. A room whose common period is longer is cut here: its picture plays the
 * first 5 s and starts again (the items whose own loops do not divide 120 jump at the wrap).
 */
export const MAX_LOOP_UPDATES = 5 * ROOM_UPDATES_PER_SECOND;

/**
 * Most pixels one animated picture keeps for its frames: the full first frame plus each later frame's changed
 * rectangle (the bounding box of the pixels that differ from the frame before; `RoomMotion.frames`), after
 * identical neighbours are merged: 2^25, 128 MiB of RGBA. This is the hard cap on the frames' memory whatever
 * the room (a 5,000-item 64 × 64 room at size 64, ~9.7 Mpx a frame, keeps its first frame and ~23 Mpx of
 * changes); a typical room's changes are small rectangles, so its whole loop fits (the bench's 16 × 16 room,
 * ~1 Mpx a frame, keeps all 120 updates). The loop is cut after the last frame that fits; a room where not
 * even two fit is its still.
 */
export const MAX_ANIMATED_PIXELS = 2 ** 25;

/**
 * Most sprites drawn over all frames of one animated picture (every object's sprites at every distinct frame):
 * the drawing's time grows with it. 250,000: a 93-item room of ~300 sprites draws its 5 s loop (≤ 120
 * frames) well inside it; a 5,000-item room of ~15,000 sprites keeps 16 frames. The loop is cut after the
 * last frame that fits.
 */
export const MAX_ANIMATED_SPRITE_DRAWS = 250_000;

/** Why a loop is shorter than the room's common period. */
export type LoopCut = 'length' | 'pixels' | 'sprites';

/** The loop an animated room plays. */
export interface RoomLoop {
  /** The objects' common period in updates (their periods' least common multiple); null when one never repeats. */
  period: number | null;
  /** Updates the picture loops over: the period, or MAX_LOOP_UPDATES when the period is longer (or none). */
  updates: number;
  /** Why the loop is shorter than the period, or null. */
  cut: LoopCut | null;
}

/**
 * The loop of objects that repeat every `periods[i]` updates (null: never): their least common multiple,
 * capped at `max` updates (MAX_LOOP_UPDATES). A room where nothing moves has a loop of 1.
 */
export function roomLoop(periods: Iterable<number | null>, max = MAX_LOOP_UPDATES): RoomLoop {
  let period: number | null = 1;
  for (const p of periods) {
    if (p === null) {
      period = null;
      break;
    }
    period = lcm(period, p);
    // Past the cap the exact value no longer matters: stop before the product overflows.
    if (period > Number.MAX_SAFE_INTEGER / 1e6) break;
  }
  if (period !== null && period <= max) return { period, updates: period, cut: null };
  return { period, updates: max, cut: 'length' };
}

/**
 * Room updates per step of an avatar's frame counter: 2. nitro-renderer `AvatarVisualization.update` runs at
 * the canvas's animation updates, gated on time (it returns unless `time >= _lastUpdate +
 * UPDATE_TIME_INCREASER` (41 ms), then moves `_lastUpdate` on by 41, or to `time - 41` when further behind), and
 * calls `AvatarImage.updateAnimationByFrames(1)` only when `_updatesUntilFrameUpdate` (reset to
 * ANIMATION_FRAME_UPDATE_INTERVAL, 2) runs out, or at once on the update that creates or changes it
 * (`update1`). Room updates come every 1/24 s (41.7 ms, or 50 and 33.3 ms in turn on a 60 fps ticker), so
 * the 41 ms gate lets every one through (after a 50 ms gap `_lastUpdate` is `time - 41`, after a 33.3 ms one
 * `time - 33.3`): the counter moves every second room update, 12 steps a second.
 */
export const AVATAR_UPDATES_PER_FRAME = 2;

/**
 * The client's avatar frame counter (`AvatarImage._frameCounter`) at room update `since` (0 = the picture's
 * first frame, ROOM_FIRST_UPDATE): the avatar's first update is the one before it (the reference tool's
 * engine update 1; its capture render passes time -1, which the 41 ms gate keeps out), where the new
 * avatar image's counter goes from 0 to 1 at once; then it moves on every AVATAR_UPDATES_PER_FRAME updates,
 * at updates 1, 3, 5, … So 1, 2, 2, 3, 3, 4, …: `floor((since + 3) / 2)`. The avatar renderer's loop has one
 * tick per counter value (its animation frames with their repeats, `Animation.getFrame(counter % frames)`),
 * so the bot shows tick `counter % ticks` (checked against the client's captures, docs/rooms.md Motion).
 */
export function avatarFrameCounter(since: number): number {
  return Math.floor((Math.max(0, Math.trunc(since)) + 1) / AVATAR_UPDATES_PER_FRAME) + 1;
}

/** The frames' delays as the encoders take them: each frame's updates × 1/24 s, exact. */
export function frameDelays(updates: readonly number[]): FrameDelay[] {
  return updates.map((u) => ({ num: u * ROOM_UPDATE_DELAY.num, den: ROOM_UPDATE_DELAY.den }));
}

/**
 * One frame of a moving room as it is kept: the rectangle (x, y, width, height, in the picture's pixels) of the
 * pixels that differ from the frame before, straight RGBA row-major; the rest of the frame is the frame before.
 * Frame 0 is the whole picture (0, 0, width, height).
 */
export interface FrameRect {
  x: number;
  y: number;
  width: number;
  height: number;
  data: Buffer;
}

/** The frames of a room as it moves (RoomPicture.motion): one loop, identical neighbours merged. */
export interface RoomMotion {
  /** Frame 0 the whole picture (its `rgba`), each later frame the rectangle that changed (never empty). */
  frames: FrameRect[];
  /** Client updates (1/24 s) each frame shows. */
  updates: number[];
}

/** Pixels the frames keep (MAX_ANIMATED_PIXELS counts these): the first frame's and every changed rectangle's. */
export function storedPixels(frames: readonly FrameRect[]): number {
  return frames.reduce((n, f) => n + f.width * f.height, 0);
}

/** Copies `rect`'s pixels onto `canvas` (straight RGBA of `width` pixels a row) at its place. */
export function applyFrameRect(canvas: Uint8Array, width: number, rect: FrameRect): void {
  const row = rect.width * 4;
  for (let y = 0; y < rect.height; y++)
    canvas.set(rect.data.subarray(y * row, (y + 1) * row), ((rect.y + y) * width + rect.x) * 4);
}

/**
 * Every frame of a motion in full (the picture's size), each from the one before and its rectangle: for tests
 * and tools (the encoders take the rectangles).
 */
export function fullFrames(width: number, height: number, motion: RoomMotion): Buffer[] {
  const canvas = new Uint8Array(width * height * 4);
  return motion.frames.map((f) => {
    applyFrameRect(canvas, width, f);
    return Buffer.from(canvas);
  });
}
