// One furni picture for a request of the imagers' query strings (Chroma's and vortex-imager's, as the furni
// route, server/hotel-furni/, serves them): a size (64, or 32), a state and a direction the item has (a
// missing one falls back by the request's rule), an animation tick, a colour, the shadow, or the catalogue
// icon; then what the answer's encoding adds to that one picture (no crop, a background, a zoom). Pure: a
// draw model and a request in, pixels or a refusal out. The default request draws the corpus still.
import { drawSprite } from '../imaging/composite.js';
import { downscaleHalf } from '../imaging/downscale.js';
import {
  alphaBounds,
  createImage,
  cropImage,
  effectiveZoom,
  overColor,
  scaleNearest,
  type FlatColor,
  type RgbaImage,
} from '../imaging/image.js';
import { type FurniModel } from './model.js';
import { iconFrame, SHADOW_ALPHA, shadowSprite, validDirection } from './render.js';
import { drawSize, drawTicks, sizeOffer } from './variant.js';

/** Chroma's drawing canvas (`CANVAS_WIDTH`, `CANVAS_HEIGHT`): an uncropped picture is this square. */
export const UNCROPPED_SIZE = 1200;
/** Highest animation tick drawn (the furni renderer's own cap on one play-through, MAX_LOOP_TICKS − 1). */
export const MAX_TICK = 9999;

export interface FurniPictureRequest {
  /** The catalogue icon (size-1 layers) instead of a room view: size, state, direction, tick and shadow unused. */
  icon: boolean;
  size: 64 | 32;
  /** Undefined: the still's state (contract F2.2). */
  state?: number;
  /** What a state the item does not have becomes: 0 (Chroma) or the still's state (vortex-imager). */
  missingState: 'zero' | 'still';
  /** 45° units; undefined: the still's direction. A direction the item lacks becomes the nearest it has. */
  direction?: number;
  /** Tick of the state's loop (0 = its first); at most MAX_TICK. */
  tick: number;
  colorId: number;
  shadow: boolean;
}

export interface FurniPicture {
  image: RgbaImage;
  /** Where the item's origin (the tile point its sprite offsets hang from) lies in the image. */
  originX: number;
  originY: number;
  /** What was drawn (after fallbacks): for the log and the tests. */
  state: number;
  direction: number;
}

export type FurniPictureOutcome = { ok: true; picture: FurniPicture } | { ok: false; reason: string };

/**
 * The picture a request names, or why there is none (no size-64 visualization, no icon, nothing visible).
 * With the default request (size 64, no state, no direction, tick 0, no shadow) the pixels are the
 * corpus still's of that colour.
 */
export function renderFurniPicture(model: FurniModel, req: FurniPictureRequest): FurniPictureOutcome {
  if (req.icon) {
    const c = iconFrame(model, req.colorId);
    if (!c) return { ok: false, reason: 'it has no catalogue icon (no drawable size-1 layer)' };
    return { ok: true, picture: { image: c.image, originX: c.originX, originY: c.originY, state: 0, direction: 0 } };
  }
  const offer = sizeOffer(model, req.size);
  if (!offer) return { ok: false, reason: 'it has no size-64 visualization' };
  let state = req.state ?? offer.autoState;
  if (!offer.states.includes(state)) state = req.missingState === 'zero' ? 0 : offer.autoState;
  const def = drawSize(model, offer);
  const direction = req.direction === undefined ? offer.autoDirection : validDirection(def, req.direction);
  const tick = Math.max(0, Math.min(MAX_TICK, Math.trunc(req.tick)));
  const drawn = drawTicks(model, offer, state, direction, [tick], req.colorId);
  if (!drawn) return { ok: false, reason: `nothing visible in state ${state}, direction ${direction}` };
  let picture: FurniPicture = {
    image: drawn.frames[0]!,
    originX: drawn.originX,
    originY: drawn.originY,
    state,
    direction,
  };
  if (req.shadow) picture = withShadow(model, def.size, offer.halved, picture);
  return { ok: true, picture };
}

/**
 * The item over its shadow sprite (`<cn>_<size>_sd_<direction>_0`, as the room draws it: behind the item at
 * SHADOW_ALPHA, halved with the item when size 32 is drawn from size-64 art); the item alone when it has none.
 */
function withShadow(model: FurniModel, drawnSize: number, halved: boolean, p: FurniPicture): FurniPicture {
  const sprite = shadowSprite(model, drawnSize, p.direction);
  if (!sprite) return p;
  let { image, left, top } = sprite;
  if (halved) {
    image = downscaleHalf(image);
    left = Math.round(left / 2);
    top = Math.round(top / 2);
  }
  // Both on one canvas around the origin: the shadow's box and the item's.
  const x0 = Math.min(left, -p.originX);
  const y0 = Math.min(top, -p.originY);
  const x1 = Math.max(left + image.width, p.image.width - p.originX);
  const y1 = Math.max(top + image.height, p.image.height - p.originY);
  const canvas = createImage(x1 - x0, y1 - y0);
  drawSprite(canvas, image, left - x0, top - y0, { alpha: SHADOW_ALPHA, flipH: sprite.flipH });
  drawSprite(canvas, p.image, -p.originX - x0, -p.originY - y0);
  const box = alphaBounds(canvas);
  if (!box) return p;
  return {
    ...p,
    image: cropImage(canvas, box),
    originX: -x0 - box.x,
    originY: -y0 - box.y,
  };
}

/** What an answer's encoding adds to a picture. */
export interface FurniOutput {
  /** False: the picture on Chroma's UNCROPPED_SIZE square, its origin at the centre (pixels outside are lost). */
  crop: boolean;
  /** A background colour 0xRRGGBB and its alpha (0–255) under the picture; undefined: transparent. */
  background?: FlatColor;
  /** Integer nearest-neighbour zoom, 1 to MAX_ZOOM (lowered to fit MAX_OUTPUT_PIXELS). */
  zoom: number;
}

/** The image an answer encodes: the picture, uncropped or not, over its background, zoomed. */
export function finishFurniPicture(p: FurniPicture, out: FurniOutput): RgbaImage {
  let image = p.image;
  if (!out.crop) {
    const canvas = createImage(UNCROPPED_SIZE, UNCROPPED_SIZE);
    const half = UNCROPPED_SIZE / 2;
    drawSprite(canvas, image, half - p.originX, half - p.originY);
    image = canvas;
  }
  if (out.background && out.background.alpha > 0) image = overColor(image, out.background.rgb, out.background.alpha);
  const zoom = effectiveZoom(image.width, image.height, out.zoom);
  return zoom === 1 ? image : scaleNearest(image, zoom);
}
