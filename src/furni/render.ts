// Pure furni rendering: draw model + request → RGBA. The size-64 still (state, direction and frame
// chosen by the service's rules) and the catalogue icon (size-1 layers).
import { type RgbaImage, createImage, cropImage, alphaBounds, hasVisiblePixel } from '../imaging/image.js';
import { drawSprite, parseInk } from '../imaging/composite.js';
import { type FurniModel, type SizeDef, type AnimationDef, type FurniSprite, resolveLayer, restingStates, sizeOf } from './model.js';
import { framesAt, distinctFrameCount, type LayerFrame } from './animation.js';

export const ROOM_SIZE = 64;
export const ICON_SIZE = 1;
/** The still faces direction 2 (90°) when the item has it. */
export const STILL_DIRECTION = 2;

const letter = (layerId: number) => String.fromCharCode(97 + layerId);

export function roomAssetName(classname: string, size: number, layerId: number, direction: number, frame: number): string {
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
  sprite: FurniSprite;
  left: number;
  top: number;
  z: number;
  alpha: number;
  ink: string;
  tint: number;
}

/**
 * Guild furni (visualization `furniture_guild_customized`) tint the layers tagged COLOR1 / COLOR2 with
 * the owning group's two colours; with no group (a catalogue still) the client uses these defaults,
 * which keeps the two parts apart instead of drawing both white.
 */
export const GUILD_DEFAULT_COLORS: Readonly<Record<string, number>> = { COLOR1: 0xeeeeee, COLOR2: 0x4b4b4b };

function place(model: FurniModel, size: SizeDef, direction: number, frames: LayerFrame[], colorId: number | undefined, nameOf: (layerId: number, frame: number) => string): Placed[] {
  const colors = colorId === undefined ? undefined : size.colors[String(colorId)];
  const guild = model.def.visualizationType === 'furniture_guild_customized';
  const out: Placed[] = [];
  for (let i = 0; i < size.layerCount; i++) {
    const frame = frames[i]!;
    const sprite = model.sprites.get(nameOf(i, frame.id));
    if (!sprite) continue;
    const layer = resolveLayer(size, direction, i);
    const w = sprite.image.width;
    // Nitro keeps the asset's x,y; an alias mirrored with flipH is anchored at +x and extends left.
    const left = (sprite.flipH ? sprite.x - w : -sprite.x) + layer.x + frame.x;
    const top = -sprite.y + layer.y + frame.y;
    out.push({ layerId: i, sprite, left, top, z: layer.z, alpha: layer.alpha, ink: layer.ink, tint: (guild ? GUILD_DEFAULT_COLORS[layer.tag] : undefined) ?? colors?.[String(i)] ?? 0xffffff });
  }
  // Higher z on top; on a tie the higher layer id on top (client depth = -z/1000 - id/1000).
  out.sort((a, b) => a.z - b.z || a.layerId - b.layerId);
  return out;
}

/** A composed image and where the item's origin (the sprite offsets' 0,0) lies in it. */
export interface Composed {
  image: RgbaImage;
  originX: number;
  originY: number;
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
    const ink = parseInk(p.ink);
    const image = ink === 'add' ? lightOf(p.sprite.image) : p.sprite.image;
    drawSprite(canvas, image, p.left - x0, p.top - y0, { flipH: p.sprite.flipH, tint: p.tint, alpha: p.alpha, ink });
  }
  const bounds = alphaBounds(canvas);
  if (!bounds) return null;
  if (!crop) return { image: canvas, originX: -x0, originY: -y0 };
  return { image: cropImage(canvas, bounds), originX: -x0 - bounds.x, originY: -y0 - bounds.y };
}

const lightCache = new WeakMap<RgbaImage, RgbaImage>();

/**
 * ADD sprites are light drawn on black. In the client they add onto the room behind them; on a
 * transparent still their black would be an opaque box. The sprite is turned into the light it emits
 * (alpha = brightest channel, colour divided by it): its premultiplied colour is unchanged, so over
 * opaque pixels the ADD result is exactly the same, and over nothing it shows only the glow.
 */
export function lightOf(src: RgbaImage): RgbaImage {
  const cached = lightCache.get(src);
  if (cached) return cached;
  const out = createImage(src.width, src.height);
  const s = src.data;
  const d = out.data;
  for (let i = 0; i < s.length; i += 4) {
    const a = s[i + 3]!;
    const m = Math.max(s[i]!, s[i + 1]!, s[i + 2]!);
    if (a === 0 || m === 0) continue;
    d[i] = Math.round((s[i]! * 255) / m);
    d[i + 1] = Math.round((s[i + 1]! * 255) / m);
    d[i + 2] = Math.round((s[i + 2]! * 255) / m);
    d[i + 3] = Math.round((a * m) / 255);
  }
  lightCache.set(src, out);
  return out;
}

export interface StillChoice {
  /** The state drawn (0 for a static item). */
  state: number;
  direction: number;
  /** Visible layers in that state (a layer is visible when its sprite has a pixel with alpha > 0). */
  visibleLayers: number;
  /** Distinct frames of the state's loop (1 for a static item). */
  distinctFrames: number;
}

function visibleLayerCount(model: FurniModel, size: SizeDef, direction: number, frames: LayerFrame[]): number {
  let n = 0;
  for (let i = 0; i < size.layerCount; i++) {
    const s = model.sprites.get(roomAssetName(model.def.classname, size.size, i, direction, frames[i]!.id));
    if (s && hasVisiblePixel(s.image)) n++;
  }
  return n;
}

export interface StateSummary {
  state: number;
  /** Layers whose sprite at the state's first tick has a pixel with alpha > 0. */
  visibleLayers: number;
  distinctFrames: number;
}

/** Every resting state of the size-64 visualization with its visible layers and distinct frames. */
export function restingStateSummaries(model: FurniModel): StateSummary[] {
  const size = sizeOf(model, ROOM_SIZE);
  if (!size || isStatic(model, size)) return [];
  const direction = validDirection(size, STILL_DIRECTION);
  return restingStates(size).map((a) => ({
    state: a.id,
    visibleLayers: visibleLayerCount(model, size, direction, framesAt(size, a, 0, direction)),
    distinctFrames: distinctFrameCount(size, a, direction),
  }));
}

/**
 * The still's state: the resting state with the most visible layers at its first tick, ties broken by
 * more distinct frames, then by the higher state id. Transitions are not resting states.
 */
export function chooseStill(model: FurniModel): StillChoice | null {
  const size = sizeOf(model, ROOM_SIZE);
  if (!size) return null;
  const direction = validDirection(size, STILL_DIRECTION);
  if (isStatic(model, size)) {
    return { state: 0, direction, visibleLayers: visibleLayerCount(model, size, direction, framesAt(size, undefined, 0, direction)), distinctFrames: 1 };
  }
  let best: StateSummary | null = null;
  for (const c of restingStateSummaries(model)) {
    if (!best || c.visibleLayers > best.visibleLayers || (c.visibleLayers === best.visibleLayers && (c.distinctFrames > best.distinctFrames || (c.distinctFrames === best.distinctFrames && c.state > best.state)))) best = c;
  }
  return best && { ...best, direction };
}

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
  let animation: AnimationDef | undefined;
  if (!isStatic(model, size)) animation = restingStates(size).find((a) => a.id === state) ?? size.animations.find((a) => a.id === state);
  const frames = framesAt(size, animation, req.tick ?? 0, direction);
  const cn = model.def.classname;
  const placed = place(model, size, direction, frames, req.colorId, (i, f) => roomAssetName(cn, size.size, i, direction, f));
  const c = compose(placed, true);
  return { image: c?.image ?? null, state, direction, originX: c?.originX ?? 0, originY: c?.originY ?? 0 };
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
  const size = sizeOf(model, ICON_SIZE);
  if (!size) return null;
  const direction = validDirection(size, 0);
  const frames = framesAt(size, undefined, 0, direction);
  const cn = model.def.classname;
  const placed = place(model, size, direction, frames, colorId, (i) => iconAssetName(cn, i));
  return compose(placed, false)?.image ?? null;
}
