// Frame selection for furni animations, following the client's layer/sequence arithmetic. Random
// layers and random sequences are made deterministic: the still and the frame counts use sequence 0
// and frames in order, so the same inputs always give the same bytes.
import { lcm } from '../imaging/frame-delay.js';
import {
  type AnimationDef,
  type AnimationLayerDef,
  type FurniModel,
  type SizeDef,
  resolveLayer,
  restingStates,
} from './model.js';
import { digitFrame } from './special-layers.js';

export interface LayerFrame {
  id: number;
  x: number;
  y: number;
}

const STILL_FRAME: LayerFrame = { id: 0, x: 0, y: 0 };
/**
 * The client's animation updates a second (RoomSpriteCanvas.render: `system.fps.animation`, 24): each one steps a
 * furni's or pet's frame counter by 1, so a frame held frameRepeat updates shows frameRepeat/24 s.
 */
export const ANIMATION_UPDATES_PER_SECOND = 24;
/** Upper bound on the ticks examined when counting a state's distinct frames. */
export const MAX_LOOP_TICKS = 10_000;
/** The player's duration of one distinct frame (contract F2.5). */
export const FRAME_MS = 120;

export function layerFrameCount(layer: AnimationLayerDef): number {
  return layer.sequences.reduce((n, s) => n + s.frames.length * s.loopCount, 0);
}

/** The frame a layer shows at `tick` (0 = the state's first tick), or null when it has no frames. */
export function layerFrameAt(layer: AnimationLayerDef, tick: number, direction: number): LayerFrame | null {
  const total = layerFrameCount(layer);
  if (total < 1) return null;
  let f = Math.floor(tick / layer.frameRepeat);
  const loops = Math.floor(f / total);
  f %= total;
  // After loopCount loops the layer holds its last frame; a one-frame forever loop holds too.
  if ((layer.loopCount > 0 && loops >= layer.loopCount) || (layer.loopCount <= 0 && total === 1)) f = total - 1;
  let seen = 0;
  for (const seq of layer.sequences) {
    const n = seq.frames.length * seq.loopCount;
    if (f < seen + n) {
      const frame = seq.frames[(f - seen) % seq.frames.length]!;
      const off = frame.offsets?.[String(direction)];
      return { id: frame.id, x: off ? off.x : frame.x, y: off ? off.y : frame.y };
    }
    seen += n;
  }
  return null;
}

/** Frames of every layer at a tick; layers the animation does not mention show frame 0. */
export function framesAt(
  size: SizeDef,
  animation: AnimationDef | undefined,
  tick: number,
  direction: number,
): LayerFrame[] {
  return layerFrames(size, animation, (layer) => layerFrameAt(layer, tick, direction));
}

/** Every layer's frame by `frameOf`; a layer the animation does not mention (or without frames) shows 0. */
function layerFrames(
  size: SizeDef,
  animation: AnimationDef | undefined,
  frameOf: (layer: AnimationLayerDef) => LayerFrame | null,
): LayerFrame[] {
  const out: LayerFrame[] = [];
  for (let i = 0; i < size.layerCount; i++) {
    const layer = animation?.layers[String(i)];
    out.push((layer && frameOf(layer)) || STILL_FRAME);
  }
  return out;
}

/** Ticks in one play-through of the animation: the common multiple of its layers' cycles, capped. */
export function loopTicks(animation: AnimationDef): number {
  let ticks = 1;
  for (const layer of Object.values(animation.layers)) {
    const cycle = layerFrameCount(layer) * layer.frameRepeat * (layer.loopCount > 0 ? layer.loopCount : 1);
    if (cycle < 1) continue;
    ticks = lcm(ticks, cycle);
    if (ticks > MAX_LOOP_TICKS) return MAX_LOOP_TICKS;
  }
  return ticks;
}

const distinctCache = new WeakMap<AnimationDef, Map<string, number>>();

/** Distinct frames: the ticks of one loop with the ticks where nothing changes dropped (at least 1). */
export function distinctFrameCount(size: SizeDef, animation: AnimationDef, direction: number): number {
  const key = `${size.layerCount}:${direction}`;
  let perAnimation = distinctCache.get(animation);
  const hit = perAnimation?.get(key);
  if (hit !== undefined) return hit;
  const ticks = loopTicks(animation);
  const layers = Array.from({ length: size.layerCount }, (_, i) => animation.layers[String(i)]);
  // What each layer showed at the previous tick (id, x, y), compared as numbers: up to 10 000 ticks.
  const prev = new Float64Array(layers.length * 3);
  let runs = 0;
  for (let t = 0; t < ticks; t++) {
    let changed = t === 0;
    for (let i = 0; i < layers.length; i++) {
      const layer = layers[i];
      const f = (layer && layerFrameAt(layer, t, direction)) || STILL_FRAME;
      const o = i * 3;
      if (prev[o] !== f.id || prev[o + 1] !== f.x || prev[o + 2] !== f.y) {
        changed = true;
        prev[o] = f.id;
        prev[o + 1] = f.x;
        prev[o + 2] = f.y;
      }
    }
    if (changed) runs++;
  }
  const count = Math.max(1, runs);
  if (!perAnimation) distinctCache.set(animation, (perAnimation = new Map()));
  perAnimation.set(key, count);
  return count;
}

export { restingStates };

/**
 * The first tick of each distinct frame of one loop (the ticks where something changes; tick 0 always):
 * frame n of a `__f<n>` name and of the `.apng` is the picture at `ticks[n]`. Its length is
 * distinctFrameCount's count.
 */
export function distinctFrameTicks(size: SizeDef, animation: AnimationDef | undefined, direction: number): number[] {
  if (!animation) return [0];
  const ticks = loopTicks(animation);
  const layers = Array.from({ length: size.layerCount }, (_, i) => animation.layers[String(i)]);
  const prev = new Float64Array(layers.length * 3);
  const out: number[] = [];
  for (let t = 0; t < ticks; t++) {
    let changed = t === 0;
    for (let i = 0; i < layers.length; i++) {
      const layer = layers[i];
      const f = (layer && layerFrameAt(layer, t, direction)) || STILL_FRAME;
      const o = i * 3;
      if (prev[o] !== f.id || prev[o + 1] !== f.x || prev[o + 2] !== f.y) {
        changed = true;
        prev[o] = f.id;
        prev[o + 1] = f.x;
        prev[o + 2] = f.y;
      }
    }
    if (changed) out.push(t);
  }
  return out.length ? out : [0];
}

// ---------------------------------------------------------------------------------------------------------
// Rooms: the frame each layer shows as the client plays it (FurnitureAnimatedVisualization.updateFramesForAnimation).
//
// The client starts a state's animation with its frame counter at 0 and adds 1 at every animation update
// (24 a second). At the first update it asks the layer for the frame at counter 1; a non-random layer answers
// index floor(1 / frameRepeat) of its frame list (AnimationLayerData.getFrame), a random layer frame 0 of a
// sequence it picks; after that each frame is held frameRepeat updates and the next one follows in its
// sequence (getFrameFromSequence). A layer that plays a set number of loops (loopCount > 0, not random) then
// holds its last frame for ever (FRAME_REPEAT_FOREVER); a looping one (loopCount 0) goes round for ever.

/**
 * The animation update a room's tick 0 shows: the room-reference tool steps the client's engine twice and
 * captures with a third canvas render (harness renderDeterministic: ticker.update ×2, then
 * RoomSpriteCanvas.render(-1) in getDisplayAsTexture), each one animation update.
 */
export const ROOM_FIRST_UPDATE = 3;

/** Whether a layer plays a set number of loops and then holds its last frame (AnimationLayerData.getFrame). */
export function holdsLastFrame(layer: AnimationLayerDef): boolean {
  return !layer.random && layer.loopCount > 0;
}

/**
 * The frame a layer shows in a room at `tick` (0 = ROOM_FIRST_UPDATE), or null when it has no frames. A
 * layer that holds its last frame shows it at every tick: the client shows it so from a fraction of a second
 * after the room is loaded for as long as the room stays open, and that held picture, with the looping layers
 * at their update ROOM_FIRST_UPDATE + tick, is one the client shows (at that update plus a whole number of
 * the loops' cycles). A random layer is read as choosing its first sequence (the client picks one at random).
 */
export function roomLayerFrameAt(
  layer: AnimationLayerDef,
  tick: number,
  direction: number,
  held = true,
): LayerFrame | null {
  const total = layerFrameCount(layer);
  if (total < 1) return null;
  if (holdsLastFrame(layer) && held) return layerFrameAt(layer, total * layer.frameRepeat * layer.loopCount, direction);
  const update = ROOM_FIRST_UPDATE + Math.max(0, Math.trunc(tick));
  // Not held (held false): a play-once layer at that update, still playing (AnimationLayerData.getFrame).
  if (holdsLastFrame(layer)) return layerFrameAt(layer, layer.frameRepeat === 1 ? update : update - 1, direction);
  // Counter c such that floor(c / frameRepeat) is the index shown: the first frame is index
  // floor(1 / frameRepeat) (1 when frames are not repeated, else 0), held frameRepeat updates like the rest;
  // a random layer starts its sequence at offset 0.
  const counter = !layer.random && layer.frameRepeat === 1 ? update : update - 1;
  // A looping or random layer never holds: it goes round (layerFrameAt holds only after loopCount loops).
  return layerFrameAt(layer, counter % (total * layer.frameRepeat), direction);
}

/**
 * Visualizations whose data has no animations (RoomObjectVisualizationFactory.getVisualizationData: a
 * FurnitureVisualizationData): their layers always show frame 0.
 */
const UNANIMATED_VISUALIZATIONS: ReadonlySet<string> = new Set([
  'furniture_static',
  'furniture_gift_wrapped',
  'furniture_bb',
  'furniture_isometric_bb',
  'furniture_bg',
  'furniture_stickie',
  'furniture_builder_placeholder',
]);

/**
 * The animation an item plays in a room in a state (FurnitureAnimatedVisualization.getAnimationId): the
 * state's own animation when the state is not 0 and the size has one with that id, else animation 0 (none
 * when the size has no animation 0); a counter clock always plays animation 0 (its animationId getter is 0).
 * A new item takes its state's animation straight, with no transition (setAnimation while _state is -1);
 * visualizations that queue animations of their own settle as restingAnimationId says.
 */
export function roomAnimation(visualizationType: string, size: SizeDef, state: number): AnimationDef | undefined {
  if (UNANIMATED_VISUALIZATIONS.has(visualizationType)) return undefined;
  // AnimationSizeData.defineAnimations: one animation per id, the later key replacing an earlier one.
  const byId = (id: number): AnimationDef | undefined => size.animations.findLast((a) => a.id === id);
  state = restingAnimationId(visualizationType, state);
  const own = visualizationType === 'furniture_counter_clock' || state === 0 ? undefined : byId(state);
  return own ?? byId(0);
}

/**
 * The animation id a visualization settles on for a state, where it queues animations of its own: a queue
 * tile in state 2 rolls once (ANIMATION_DURATION, 15 updates) and rests in animation 1
 * (FurnitureQueueTileVisualization); a wheel starts an animation for states 1–10 only, a bottle for 0–7, any
 * other state leaving none (FurnitureHabboWheelVisualization, FurnitureBottleVisualization.setAnimation); the
 * val randomizer shows OFF (30) for states 1–10 and rolls (31, then the looping 32) in state 0
 * (FurnitureValRandomizerVisualization). -1 is the id the client starts with (AnimationStateData), which a
 * bundle may define (the bottle's spin): then it plays. Any other visualization: the state.
 */
function restingAnimationId(visualizationType: string, state: number): number {
  switch (visualizationType) {
    case 'furniture_queue_tile':
      return state === 2 ? 1 : state;
    case 'furniture_habbowheel':
      return state >= 1 && state <= 10 ? state : -1;
    case 'furniture_bottle':
      return state >= 0 && state <= 7 ? state : -1;
    case 'furniture_val_randomizer':
      return state === 0 ? 32 : state >= 1 && state <= 10 ? 30 : -1;
    default:
      return state;
  }
}

/** Frames of every layer in a room at a tick (roomLayerFrameAt); layers the animation does not mention show 0. */
export function roomFramesAt(
  size: SizeDef,
  animation: AnimationDef | undefined,
  tick: number,
  direction: number,
  held = true,
): LayerFrame[] {
  return layerFrames(size, animation, (layer) => roomLayerFrameAt(layer, tick, direction, held));
}

/**
 * The frame of every layer of an item in a room, as the client shows it once the room is loaded: the
 * animation its state plays there (roomAnimation), each layer at the room's tick (roomFramesAt: play-once
 * layers on their held last frame, looping ones at the update the tick names), and a counter's digit layers
 * at the state's digits (digitFrame, FurnitureScoreBoardVisualization / FurnitureCounterClockVisualization
 * .getFrameNumber, the frame's offsets staying the animation's). The corpus still keeps framesAt.
 */
export function roomItemFrames(
  model: FurniModel,
  size: SizeDef,
  at: { state: number; direction: number; tick: number; held?: boolean },
): LayerFrame[] {
  const vis = model.def.visualizationType;
  const frames = roomFramesAt(size, roomAnimation(vis, size, at.state), at.tick, at.direction, at.held ?? true);
  for (let i = 0; i < frames.length; i++) {
    const digit = digitFrame(vis, resolveLayer(size, at.direction, i).tag, at.state);
    if (digit !== undefined) frames[i] = { ...frames[i]!, id: digit };
  }
  return frames;
}

/**
 * Longest cycle whose shortest period is looked for frame by frame; a longer one (never seen in bundles) is
 * taken whole, which is still a period of the layer.
 */
const MAX_PERIOD_SEARCH = 10_000;

/**
 * The period, in animation updates, of what a layer shows in a room (roomLayerFrameAt at ticks 0, 1, …): 1 for
 * a layer that holds its last frame or shows one picture all along; else the shortest p dividing the layer's
 * cycle (its frames × frameRepeat) with the same frame (id and offset) at every t and t + p. null for a
 * play-once layer drawn still playing (held false): it plays once and holds, it does not repeat.
 */
export function roomLayerPeriod(layer: AnimationLayerDef, direction: number, held = true): number | null {
  const total = layerFrameCount(layer);
  if (total < 1) return 1;
  if (holdsLastFrame(layer)) return held ? 1 : null;
  const cycle = total * layer.frameRepeat;
  if (cycle > MAX_PERIOD_SEARCH) return cycle;
  const shown = Array.from({ length: cycle }, (_, t) => roomLayerFrameAt(layer, t, direction, held));
  const same = (a: LayerFrame | null, b: LayerFrame | null) =>
    a === b || (a !== null && b !== null && a.id === b.id && a.x === b.x && a.y === b.y);
  for (let p = 1; p < cycle; p++) {
    if (cycle % p !== 0) continue;
    let repeats = true;
    for (let t = p; t < cycle && repeats; t++) repeats = same(shown[t]!, shown[t - p]!);
    if (repeats) return p;
  }
  return cycle;
}

/**
 * The period, in animation updates, of an item in a room in a state and direction: the least common multiple of
 * its layers' periods (roomLayerPeriod; layers its animation does not mention show frame 0 and never move), 1
 * for an item that stands still; null when a layer never repeats (held false). Digit layers (score boards,
 * counter clocks) show the state's digits with the animation's offsets, so the animation's period covers them.
 */
export function roomItemPeriod(
  model: FurniModel,
  size: SizeDef,
  at: { state: number; direction: number; held?: boolean },
): number | null {
  const animation = roomAnimation(model.def.visualizationType, size, at.state);
  if (!animation) return 1;
  let period = 1;
  for (let i = 0; i < size.layerCount; i++) {
    const layer = animation.layers[String(i)];
    if (!layer) continue;
    const p = roomLayerPeriod(layer, at.direction, at.held ?? true);
    if (p === null) return null;
    period = lcm(period, p);
  }
  return period;
}
