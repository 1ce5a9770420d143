// Frame selection for furni animations, following the client's layer/sequence arithmetic. Random
// layers and random sequences are made deterministic: the still and the frame counts use sequence 0
// and frames in order, so the same inputs always give the same bytes.
import { lcm } from '../imaging/frame-delay.js';
import { type AnimationDef, type AnimationLayerDef, type SizeDef, restingStates } from './model.js';

export interface LayerFrame {
  id: number;
  x: number;
  y: number;
}

const STILL_FRAME: LayerFrame = { id: 0, x: 0, y: 0 };
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
  const out: LayerFrame[] = [];
  for (let i = 0; i < size.layerCount; i++) {
    const layer = animation?.layers[String(i)];
    out.push((layer && layerFrameAt(layer, tick, direction)) || STILL_FRAME);
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
