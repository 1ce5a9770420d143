// Renders beyond the default still (contract F2.6's reserved names): any size (64, or 32 from the item's
// size-32 visualization), state, direction and distinct frame, or the state's whole loop as an APNG
// played the way contract F2.5's sprite-sheet player plays it (distinct frames, 120 ms each, one crop for
// every frame, looping forever). Pure: a draw model and a request in, pixels or a refusal out.
import { type RgbaImage, alphaBounds, cropImage, type Rect } from '../imaging/image.js';
import { downscaleHalf } from '../imaging/downscale.js';
import { encodePngCompact } from '../imaging/png-compact.js';
import { encodeIndexedPngs } from '../imaging/png.js';
import { assembleApng } from '../imaging/apng.js';
import { encodePng } from '../imaging/codec.js';
import { type FurniModel, type SizeDef, restingStates, sizeOf } from './model.js';
import { distinctFrameTicks, FRAME_MS } from './animation.js';
import {
  chooseStill,
  composeRoomFrame,
  isStatic,
  stateAnimation,
  validDirection,
  ROOM_SIZE,
  SMALL_SIZE,
  STILL_DIRECTION,
  type Composed,
} from './render.js';
import { type VariantRequest } from './variant-name.js';

/** What an item offers at one room size: its states, its defined directions, the auto choices. */
export interface SizeOffer {
  size: 64 | 32;
  /** True when size 32 is drawn from the size-64 art at half scale (the item has no size-32 visualization). */
  halved: boolean;
  states: number[];
  directions: number[];
  autoState: number;
  autoDirection: number;
}

/**
 * The states and directions an item has at a room size. States: the size's resting states, and state 0
 * always (the client draws frame 0 of every layer when no animation is state 0's); a static item has
 * state 0 only. Directions: the size's defined directions in data order (none defined: 0 only).
 */
export function sizeOffer(model: FurniModel, size: 64 | 32): SizeOffer | undefined {
  const room = sizeOf(model, ROOM_SIZE);
  if (!room) return undefined;
  const own = size === SMALL_SIZE ? sizeOf(model, SMALL_SIZE) : room;
  const def = own ?? room;
  const states = isStatic(model, def)
    ? [0]
    : [...new Set([0, ...restingStates(def).map((a) => a.id)])].sort((a, b) => a - b);
  const directions = def.directions.length ? [...new Set(def.directions.map((d) => d.id))] : [0];
  const still = chooseStill(model);
  const autoState = still && states.includes(still.state) ? still.state : 0;
  return {
    size,
    halved: own === undefined,
    states,
    directions,
    autoState,
    autoDirection: validDirection(def, STILL_DIRECTION),
  };
}

export interface VariantPicture {
  /** One image for a still, every distinct frame of the loop for an APNG; all the same size. */
  frames: RgbaImage[];
  /** Duration of each frame in the APNG (contract F2.5: 120 ms). */
  frameMs: number;
  state: number;
  direction: number;
}

export type VariantOutcome = { ok: true; picture: VariantPicture } | { ok: false; reason: string };

const refuse = (reason: string): VariantOutcome => ({ ok: false, reason });

/** Distinct frames of a state's loop in a direction at a size (1 for a still state). */
export function frameCountOf(model: FurniModel, offer: SizeOffer, state: number, direction: number): number {
  const def = drawSize(model, offer);
  return distinctFrameTicks(def, stateAnimation(model, def, state), direction).length;
}

/** The definition an offer draws from: the size's own, or size 64 for a halved size 32. */
export function drawSize(model: FurniModel, offer: SizeOffer): SizeDef {
  return (offer.size === SMALL_SIZE && !offer.halved ? sizeOf(model, SMALL_SIZE) : sizeOf(model, ROOM_SIZE))!;
}

/**
 * The picture a variant names for a colour, or why there is none: a state or direction the item does
 * not have at that size, a frame past the loop, or nothing visible.
 */
export function renderVariant(model: FurniModel, colorId: number, v: VariantRequest): VariantOutcome {
  const offer = sizeOffer(model, v.size);
  if (!offer) return refuse('no size-64 visualization');
  const state = v.state ?? offer.autoState;
  if (!offer.states.includes(state))
    return refuse(`no state ${state} at size ${v.size} (states: ${offer.states.join(', ')})`);
  const direction = v.direction ?? offer.autoDirection;
  if (!offer.directions.includes(direction))
    return refuse(`no direction ${direction} at size ${v.size} (directions: ${offer.directions.join(', ')})`);
  const def = drawSize(model, offer);
  const ticks = distinctFrameTicks(def, stateAnimation(model, def, state), direction);
  let wanted: number[];
  if (v.animated) wanted = ticks;
  else if (v.frame < ticks.length) wanted = [ticks[v.frame]!];
  else return refuse(`frame ${v.frame} is past the loop (${ticks.length} distinct frames)`);
  const drawn = drawTicks(model, offer, state, direction, wanted, colorId);
  if (!drawn) return refuse('nothing visible');
  return { ok: true, picture: { frames: drawn.frames, frameMs: FRAME_MS, state, direction } };
}

/** Frames drawn at ticks, on one canvas, and where the item's origin lies in it. */
export interface DrawnTicks {
  frames: RgbaImage[];
  originX: number;
  originY: number;
}

/**
 * The item at the given ticks of a state, in a direction, at an offered size (a state and direction the
 * offer lists), on one canvas as renderVariant draws it; null when nothing is visible.
 */
export function drawTicks(
  model: FurniModel,
  offer: SizeOffer,
  state: number,
  direction: number,
  ticks: number[],
  colorId: number,
): DrawnTicks | null {
  const def = drawSize(model, offer);
  const composed = ticks.map((tick) => composeRoomFrame(model, def, { state, direction, tick, colorId }, false));
  return oneCrop(composed, offer.halved);
}

/**
 * Frames on one canvas: the union of their visible pixels, placed by the item's origin so the item does
 * not move between frames. Halved (size 32 from size-64 art): the box is widened to even coordinates
 * around the origin first, so every 2×2 block is the same block in every frame, then cropped again.
 */
function oneCrop(composed: (Composed | null)[], halved: boolean): DrawnTicks | null {
  let box: { x0: number; y0: number; x1: number; y1: number } | null = null;
  for (const c of composed) {
    const b = c && alphaBounds(c.image);
    if (!c || !b) continue;
    const x0 = b.x - c.originX;
    const y0 = b.y - c.originY;
    box = box
      ? {
          x0: Math.min(box.x0, x0),
          y0: Math.min(box.y0, y0),
          x1: Math.max(box.x1, x0 + b.width),
          y1: Math.max(box.y1, y0 + b.height),
        }
      : { x0, y0, x1: x0 + b.width, y1: y0 + b.height };
  }
  if (!box) return null;
  if (halved) {
    box.x0 = Math.floor(box.x0 / 2) * 2;
    box.y0 = Math.floor(box.y0 / 2) * 2;
    box.x1 = Math.ceil(box.x1 / 2) * 2;
    box.y1 = Math.ceil(box.y1 / 2) * 2;
  }
  const b = box;
  const rect = (c: Composed): Rect => ({
    x: b.x0 + c.originX,
    y: b.y0 + c.originY,
    width: b.x1 - b.x0,
    height: b.y1 - b.y0,
  });
  const empty: Composed = {
    image: { width: 0, height: 0, data: new Uint8Array(0) },
    originX: 0,
    originY: 0,
    layers: [],
  };
  let frames = composed.map((c) => cropImage((c ?? empty).image, rect(c ?? empty)));
  if (!halved) return { frames, originX: -b.x0, originY: -b.y0 };
  frames = frames.map((f) => downscaleHalf(f));
  // Averaging can fade a lone edge pixel to nothing: crop the halved frames to what is left, together.
  let union: Rect | null = null;
  for (const f of frames) {
    const fb = alphaBounds(f);
    if (fb) union = union ? unionRect(union, fb) : fb;
  }
  if (!union) return null;
  const u = union;
  return {
    frames: frames.map((f) =>
      u.x === 0 && u.y === 0 && u.width === f.width && u.height === f.height ? f : cropImage(f, u),
    ),
    originX: -b.x0 / 2 - u.x,
    originY: -b.y0 / 2 - u.y,
  };
}

/**
 * The file bytes of a picture: a still as the published stills are written (encodePngCompact); a loop
 * as an APNG (indexed with one palette when the frames fit 256 colours, else RGBA), every frame
 * `frameMs`, looping forever. Deterministic.
 */
export async function encodeVariant(picture: VariantPicture, animated: boolean): Promise<Buffer> {
  if (!animated) return encodePngCompact(picture.frames[0]!);
  const pngs =
    encodeIndexedPngs(picture.frames, 9) ??
    (await Promise.all(picture.frames.map((f) => encodePng(f, { compressionLevel: 9 }))));
  return assembleApng(pngs, { delayNum: picture.frameMs, delayDen: 1000, plays: 0 });
}

function unionRect(a: Rect, b: Rect): Rect {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    x,
    y,
    width: Math.max(a.x + a.width, b.x + b.width) - x,
    height: Math.max(a.y + a.height, b.y + b.height) - y,
  };
}
