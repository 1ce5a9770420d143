// Pure furni rendering: draw model + request → RGBA. The size-64 still (state, direction and frame
// chosen by the service's rules) and the catalogue icon (size-1 layers).
import { type RgbaImage, createImage, cropImage, alphaBounds } from '../imaging/image.js';
import { lightOf } from '../imaging/light.js';

export { lightOf };
import { drawSprite, parseInk, type Ink } from '../imaging/composite.js';
import {
  type FurniModel,
  type SizeDef,
  type AnimationDef,
  type FurniSprite,
  resolveLayer,
  restingStates,
  sizeOf,
} from './model.js';
import { framesAt, distinctFrameCount, type LayerFrame, roomItemFrames } from './animation.js';
import { seenPixels, MIN_SEEN_PIXELS } from './visibility.js';
import { guildTint, isBadgeLayer } from './special-layers.js';

export { GUILD_DEFAULT_COLORS } from './special-layers.js';

export const ROOM_SIZE = 64;
/** The client's small room scale (zoomed out). */
export const SMALL_SIZE = 32;
export const ICON_SIZE = 1;
/** The still faces direction 2 (90°) when the item has it. */
export const STILL_DIRECTION = 2;

/** The alpha the client draws a furni's shadow sprite at (FurnitureVisualization: the `sd` layer, 48). */
export const SHADOW_ALPHA = 48;

/**
 * The item's shadow sprite at a size and direction (`<cn>_<size>_sd_<direction>_0`) and where its top-left
 * lies from the item's origin, or null when it has none; drawn behind the item at SHADOW_ALPHA.
 */
export function shadowSprite(
  model: FurniModel,
  size: number,
  direction: number,
): { image: RgbaImage; left: number; top: number; flipH: boolean } | null {
  const sprite = model.sprites.get(`${model.def.classname}_${size}_sd_${direction}_0`);
  if (!sprite || sprite.image.width === 0 || sprite.image.height === 0) return null;
  const left = sprite.flipH ? sprite.x - sprite.image.width : -sprite.x;
  return { image: sprite.image, left, top: -sprite.y, flipH: sprite.flipH };
}

const letter = (layerId: number) => String.fromCharCode(97 + layerId);

export function roomAssetName(
  classname: string,
  size: number,
  layerId: number,
  direction: number,
  frame: number,
): string {
  return `${classname}_${size}_${letter(layerId)}_${direction}_${frame}`;
}

export function iconAssetName(classname: string, layerId: number): string {
  return `${classname}_icon_${letter(layerId)}`;
}

/**
 * The client's nearest-direction rule (SizeData.getValidDirection): the defined direction whose angle
 * (id × the size's angle) is closest to the requested one; the first in data order wins a tie; 0 if none.
 */
export function validDirection(size: SizeDef, wanted: number): number {
  if (size.directions.some((d) => d.id === wanted)) return wanted;
  const degrees = (((wanted * size.angle) % 360) + 360) % 360;
  let best = -1;
  let bestDiff = -1;
  for (const d of size.directions) {
    let diff = (d.id * size.angle - degrees + 360) % 360;
    if (diff > 180) diff = 360 - diff;
    if (bestDiff < 0 || diff < bestDiff) {
      bestDiff = diff;
      best = d.id;
    }
  }
  return best >= 0 ? Math.trunc(best) : 0;
}

/** Static visualizations never animate: the client draws frame 0 of every layer. */
export function isStatic(model: FurniModel, size: SizeDef): boolean {
  return model.def.visualizationType === 'furniture_static' || restingStates(size).length === 0;
}

interface Placed {
  layerId: number;
  /** The asset drawn (`<classname>_64_a_2_0`). */
  asset: string;
  sprite: FurniSprite;
  left: number;
  top: number;
  z: number;
  alpha: number;
  ink: Ink;
  tint: number;
  /** Pixels it draws that can be seen (visibility.ts). */
  seen: number;
}

/**
 * The layers drawn at one frame, bottom to top. Not drawn: layers whose sprite is missing (as in the
 * client), badge slots (special-layers.ts), and layers that show nothing that can be seen (fewer than
 * MIN_SEEN_PIXELS pixels at SEEN_ALPHA: "off" frames, single placeholder pixels), which would only
 * stretch the crop box around an invisible dot.
 */
function place(
  model: FurniModel,
  size: SizeDef,
  direction: number,
  frames: LayerFrame[],
  colorId: number | undefined,
  nameOf: (layerId: number, frame: number) => string,
  keepUnseen = false,
): Placed[] {
  const colors = colorId === undefined ? undefined : size.colors[String(colorId)];
  const vis = model.def.visualizationType;
  const out: Placed[] = [];
  for (let i = 0; i < size.layerCount; i++) {
    const frame = frames[i]!;
    const asset = nameOf(i, frame.id);
    const sprite = model.sprites.get(asset);
    if (!sprite) continue;
    const layer = resolveLayer(size, direction, i);
    if (isBadgeLayer(vis, layer.tag)) continue;
    const ink = parseInk(layer.ink);
    const seen = seenPixels(sprite.image, layer.alpha, ink);
    if (seen < MIN_SEEN_PIXELS && !keepUnseen) continue;
    const w = sprite.image.width;
    // Nitro keeps the asset's x,y; an alias mirrored with flipH is anchored at +x and extends left.
    const left = (sprite.flipH ? sprite.x - w : -sprite.x) + layer.x + frame.x;
    const top = -sprite.y + layer.y + frame.y;
    out.push({
      layerId: i,
      asset,
      sprite,
      left,
      top,
      z: layer.z,
      alpha: layer.alpha,
      ink,
      tint: guildTint(vis, layer.tag) ?? colors?.[String(i)] ?? 0xffffff,
      seen,
    });
  }
  // Higher z on top; on a tie the higher layer id on top (client depth = -z/1000 - id/1000).
  out.sort((a, b) => a.z - b.z || a.layerId - b.layerId);
  return out;
}

/**
 * One sprite of a furni in a room, as FurnitureVisualization.updateSprite hands it to the room canvas: the
 * room sorts every sprite of every object on its own (RoomSpriteCanvas), so a layer can pass in front of or
 * behind another item, and an ink blends with whatever the room has drawn under it.
 */
export interface RoomSprite {
  asset: string;
  image: RgbaImage;
  flipH: boolean;
  /** Top-left from the item's screen point. */
  left: number;
  top: number;
  /** 0–255: the layer's alpha (the shadow's 48). */
  alpha: number;
  ink: Ink;
  tint: number;
  /** FurnitureVisualization's relative depth × DEPTH_MULTIPLIER (√½): (z / −1000 − layer id / 1000), shadow 1. */
  relativeDepth: number;
  /** The item's shadow (`<cn>_<size>_sd_<direction>_0`), not one of its layers. */
  shadow: boolean;
}

/**
 * The sprites of a room size (64 or 32) in a state and a direction at a tick, in the visualization's sprite
 * order (layers by id, then the shadow): every layer whose asset exists, as the client draws them, even
 * ones that show next to nothing (a still's visibility rule is for crop boxes, not for rooms). Empty when
 * the item has none.
 */
export function roomSprites(
  model: FurniModel,
  size: SizeDef,
  at: { state: number; direction: number; tick: number; colorId: number | undefined; held?: boolean },
): RoomSprite[] {
  // The client's frame once the room is loaded (roomItemFrames), not the still's first tick.
  const frames = roomItemFrames(model, size, at);
  const cn = model.def.classname;
  const placed = place(
    model,
    size,
    at.direction,
    frames,
    at.colorId,
    (i, f) => roomAssetName(cn, size.size, i, at.direction, f),
    true,
  );
  placed.sort((a, b) => a.layerId - b.layerId);
  const out: RoomSprite[] = placed
    .filter((p) => p.sprite.image.width > 0 && p.sprite.image.height > 0)
    .map((p) => ({
      asset: p.asset,
      image: p.sprite.image,
      flipH: p.sprite.flipH,
      left: p.left,
      top: p.top,
      alpha: p.alpha,
      ink: p.ink,
      tint: p.tint,
      relativeDepth: (p.z / -1000 - p.layerId * 0.001) * Math.SQRT1_2,
      shadow: false,
    }));
  const sd = shadowSprite(model, size.size, at.direction);
  if (sd)
    out.push({
      asset: `${cn}_${size.size}_sd_${at.direction}_0`,
      image: sd.image,
      flipH: sd.flipH,
      left: sd.left,
      top: sd.top,
      alpha: SHADOW_ALPHA,
      ink: 'normal',
      tint: 0xffffff,
      relativeDepth: Math.SQRT1_2,
      shadow: true,
    });
  return out;
}

/** A composed image and where the item's origin (the sprite offsets' 0,0) lies in it. */
export interface Composed {
  image: RgbaImage;
  originX: number;
  originY: number;
  /** The assets drawn, bottom to top (for debug pages). */
  layers: string[];
}

function compose(placed: Placed[], crop: boolean): Composed | null {
  const drawn = placed.filter((p) => p.sprite.image.width > 0 && p.sprite.image.height > 0);
  if (drawn.length === 0) return null;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const p of drawn) {
    x0 = Math.min(x0, p.left);
    y0 = Math.min(y0, p.top);
    x1 = Math.max(x1, p.left + p.sprite.image.width);
    y1 = Math.max(y1, p.top + p.sprite.image.height);
  }
  const canvas = createImage(x1 - x0, y1 - y0);
  for (const p of drawn) {
    const image = p.ink === 'add' ? lightOf(p.sprite.image) : p.sprite.image;
    drawSprite(canvas, image, p.left - x0, p.top - y0, {
      flipH: p.sprite.flipH,
      tint: p.tint,
      alpha: p.alpha,
      ink: p.ink,
    });
  }
  const bounds = alphaBounds(canvas);
  if (!bounds) return null;
  const layers = drawn.map((p) => p.asset);
  // No copy when nothing is cropped: a room backdrop's canvas is 100 MB.
  if (!crop || (bounds.width === canvas.width && bounds.height === canvas.height))
    return { image: canvas, originX: -x0, originY: -y0, layers };
  return { image: cropImage(canvas, bounds), originX: -x0 - bounds.x, originY: -y0 - bounds.y, layers };
}

export interface StillChoice {
  /** The state drawn (0 for a static item). */
  state: number;
  direction: number;
  /** Visible layers in that state (visibility.ts: at least MIN_SEEN_PIXELS pixels that can be seen). */
  visibleLayers: number;
  /** Distinct frames of the state's loop (1 for a static item and for state 0 without an animation). */
  distinctFrames: number;
  /** Seen pixels of the visible layers together (overlaps counted once per layer). */
  seenPixels: number;
}

export type StateSummary = Omit<StillChoice, 'direction'>;

function summarize(
  model: FurniModel,
  size: SizeDef,
  direction: number,
  state: number,
  animation: AnimationDef | undefined,
): StateSummary {
  const cn = model.def.classname;
  const placed = place(model, size, direction, framesAt(size, animation, 0, direction), undefined, (i, f) =>
    roomAssetName(cn, size.size, i, direction, f),
  );
  return {
    state,
    visibleLayers: placed.length,
    distinctFrames: animation ? distinctFrameCount(size, animation, direction) : 1,
    seenPixels: placed.reduce((n, p) => n + p.seen, 0),
  };
}

/**
 * The states a still can show with what each shows at its first tick: every resting state of the size-64
 * visualization, and state 0 when no resting animation has id 0 — the client then draws frame 0 of
 * every layer (no animation is state 0's animation), so state 0 is always a state. A static item has
 * state 0 only.
 */
export function restingStateSummaries(model: FurniModel): StateSummary[] {
  const size = sizeOf(model, ROOM_SIZE);
  if (!size) return [];
  const direction = validDirection(size, STILL_DIRECTION);
  if (isStatic(model, size)) return [summarize(model, size, direction, 0, undefined)];
  const states = restingStates(size);
  const out = states.map((a) => summarize(model, size, direction, a.id, a));
  if (!states.some((a) => a.id === 0)) out.push(summarize(model, size, direction, 0, undefined));
  return out;
}

/** Whether state `a` beats `b` for the still: see chooseStill. */
function fuller(a: StateSummary, b: StateSummary): boolean {
  if (a.visibleLayers !== b.visibleLayers) return a.visibleLayers > b.visibleLayers;
  if (a.distinctFrames !== b.distinctFrames) return a.distinctFrames > b.distinctFrames;
  if (a.seenPixels !== b.seenPixels) return a.seenPixels > b.seenPixels;
  return a.state > b.state;
}

/**
 * The still's state (contract F2.2): the state with the most visible layers at its first tick; ties broken
 * by more distinct frames, then — before the spec's higher state id — by more seen pixels, so that of
 * states showing the same layers the fuller one wins over a depleted or emptied one (a pet bowl's
 * crumbs, a lowered pyramid, a bare tree). Transitions are not resting states.
 */
export function chooseStill(model: FurniModel): StillChoice | null {
  // Asked for by every colour's render and by the bundle: worked out once per model.
  const hit = stillCache.get(model.def);
  if (hit && hit.sprites === model.sprites) return hit.choice;
  const size = sizeOf(model, ROOM_SIZE);
  let choice: StillChoice | null = null;
  if (size) {
    const direction = validDirection(size, STILL_DIRECTION);
    let best: StateSummary | null = null;
    for (const c of restingStateSummaries(model)) if (!best || fuller(c, best)) best = c;
    choice = best && { ...best, direction };
  }
  stillCache.set(model.def, { sprites: model.sprites, choice });
  return choice;
}

const stillCache = new WeakMap<FurniModel['def'], { sprites: FurniModel['sprites']; choice: StillChoice | null }>();

export interface RenderRequest {
  /** Colour table id (`*n`); the base classname is colour 0 like in the client. Absent ids draw untinted. */
  colorId?: number;
  state?: number;
  direction?: number;
  tick?: number;
}

/** Renders one size-64 frame without the shadow, cropped to the pixels with alpha > 0; null when empty. */
export interface RoomRender {
  image: RgbaImage | null;
  state: number;
  direction: number;
  /** Where the item's origin lies in the image (sprite left = originX − asset.x + layer.x + frame.x). */
  originX: number;
  originY: number;
}

export function renderRoom(model: FurniModel, req: RenderRequest = {}): RoomRender {
  const size = sizeOf(model, ROOM_SIZE);
  if (!size) return { image: null, state: 0, direction: 0, originX: 0, originY: 0 };
  const choice = req.state === undefined || req.direction === undefined ? chooseStill(model) : null;
  const state = req.state ?? choice?.state ?? 0;
  const direction = req.direction !== undefined ? validDirection(size, req.direction) : (choice?.direction ?? 0);
  const c = composeRoomFrame(model, size, { state, direction, tick: req.tick ?? 0, colorId: req.colorId }, true);
  return { image: c?.image ?? null, state, direction, originX: c?.originX ?? 0, originY: c?.originY ?? 0 };
}

/** The resting animation a size shows in a state (none for a static item, or state 0 without an entry). */
export function stateAnimation(model: FurniModel, size: SizeDef, state: number): AnimationDef | undefined {
  if (isStatic(model, size)) return undefined;
  return restingStates(size).find((a) => a.id === state) ?? size.animations.find((a) => a.id === state);
}

/**
 * One frame of a room size (64 or 32) in a state and a direction the size defines, at a tick of the
 * state's loop: the drawn layers composed, cropped to their pixels or not (the origin says where the
 * item's 0,0 lies either way); null when nothing visible is drawn.
 */
export function composeRoomFrame(
  model: FurniModel,
  size: SizeDef,
  at: { state: number; direction: number; tick: number; colorId: number | undefined },
  crop: boolean,
): Composed | null {
  const frames = framesAt(size, stateAnimation(model, size, at.state), at.tick, at.direction);
  const cn = model.def.classname;
  const placed = place(model, size, at.direction, frames, at.colorId, (i, f) =>
    roomAssetName(cn, size.size, i, at.direction, f),
  );
  return compose(placed, crop);
}

/** The still the corpus publishes for a classname and colour. */
export function renderStill(model: FurniModel, colorId = 0): RgbaImage | null {
  return renderRoom(model, { colorId }).image;
}

/**
 * The catalogue icon: every size-1 layer (`<cn>_icon_<letter>`) composed by z then layer id, at the
 * icon's natural size (the union of its sprites); null when the item has no drawable icon layer.
 */
export function renderIcon(model: FurniModel, colorId = 0): RgbaImage | null {
  return iconFrame(model, colorId)?.image ?? null;
}

/** The catalogue icon as renderIcon draws it, with where the icon's origin (its sprites' 0,0) lies. */
export function iconFrame(model: FurniModel, colorId = 0): Composed | null {
  const size = sizeOf(model, ICON_SIZE);
  if (!size) return null;
  const direction = validDirection(size, 0);
  const frames = framesAt(size, undefined, 0, direction);
  const cn = model.def.classname;
  const placed = place(model, size, direction, frames, colorId, (i) => iconAssetName(cn, i));
  return compose(placed, false);
}
