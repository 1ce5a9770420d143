// A pet's sprites as the client's pet visualization hands them to the room (PetVisualization, a furniture
// visualization with two animation states): the posture's animation and the gesture's, each layer showing the
// gesture's frame where the gesture animates that layer and the posture's elsewhere, offset by both; head and
// hair layers facing the head direction; custom parts appended to the asset name; sprites drawn through the
// pet's palette (or a part's own) and tinted with the pet's colour; the shadow last.
import { roomLayerFrameAt, roomLayerPeriod } from '../furni/animation.js';
import { lcm } from '../imaging/frame-delay.js';
import { type AnimationDef, resolveLayer } from '../furni/model.js';
import { roomAssetName, type RoomSprite, SHADOW_ALPHA, validDirection } from '../furni/render.js';
import { parseInk } from '../imaging/composite.js';
import { type PetFigure } from './figure.js';
import { type PetModel, withPalette } from './model.js';

/** What a pet is doing: its posture and gesture (names from its library), directions 0–7 and the tick. */
export interface PetPose {
  posture: string;
  /** '' for none. */
  gesture: string;
  direction: number;
  headDirection: number;
  /** Animation updates after the first one the room shows (as room items' ticks). */
  tick: number;
}

const HEAD_TAGS = new Set(['head', 'hair']);

/**
 * The animation a posture plays (PetSizeData.postureToAnimation: an unknown posture, or one on animation 0, plays the
 * default's).
 */
export function postureAnimationId(model: PetModel, posture: string): number | undefined {
  const id = model.postures.get(posture);
  if (id) return id;
  return model.defaultPosture === undefined ? undefined : model.postures.get(model.defaultPosture);
}

/** The animation a gesture plays, or undefined for none (PetSizeData.gestureToAnimation; `ded` disables gestures). */
export function gestureAnimationId(model: PetModel, posture: string, gesture: string): number | undefined {
  if (!gesture || posture === 'ded') return undefined;
  return model.gestures.get(gesture) || undefined;
}

function animation(model: PetModel, id: number | undefined): AnimationDef | undefined {
  return id === undefined ? undefined : model.size.animations.findLast((a) => a.id === id);
}

/** The animations a pose plays, the gesture's first (PetVisualization walks its states from the last down). */
function poseAnimations(model: PetModel, posture: string, gesture: string): AnimationDef[] {
  return [
    animation(model, gestureAnimationId(model, posture, gesture)),
    animation(model, postureAnimationId(model, posture)),
  ].filter((a): a is AnimationDef => a !== undefined);
}

/**
 * Animation updates after which a pose's sprites repeat: the least common multiple of its animated layers'
 * periods (roomLayerPeriod: play-once layers hold their last frame), 1 for a pose that stands still.
 */
export function petPeriod(model: PetModel, pose: Omit<PetPose, 'tick' | 'headDirection'>): number {
  let period = 1;
  const direction = validDirection(model.size, pose.direction);
  for (const a of poseAnimations(model, pose.posture, pose.gesture))
    for (const layer of Object.values(a.layers)) period = lcm(period, roomLayerPeriod(layer, direction) ?? 1);
  return period;
}

/**
 * The sprites of a pet at a pose, in the visualization's sprite order (layers by id, then the shadow), with
 * offsets from the pet's screen point. Layers without a sprite are left out, as the client leaves them empty.
 */
export function petSprites(model: PetModel, figure: PetFigure, pose: PetPose): RoomSprite[] {
  const { size, furni } = model;
  const name = furni.def.classname;
  const direction = validDirection(size, pose.direction);
  const headDirection = validDirection(size, pose.headDirection);
  const states = poseAnimations(model, pose.posture, pose.gesture);
  const mainPalette = String(figure.paletteId);
  const out: RoomSprite[] = [];
  const sprite = (asset: string, layerId: number) => {
    // PetVisualization.getAsset: a custom part's id is appended; its palette, when set, replaces the pet's.
    const part = figure.customParts.find((p) => p.layerId === layerId);
    const named = part && part.partId > -1 ? `${asset}_${part.partId}` : asset;
    const found = furni.sprites.get(named);
    if (!found || found.image.width === 0 || found.image.height === 0) return undefined;
    const paletteId = part && part.paletteId > -1 ? String(part.paletteId) : mainPalette;
    const palette = model.paletteAssets.has(named) ? model.palettes.get(paletteId) : undefined;
    return { asset: named, ...found, image: palette ? withPalette(found.image, paletteId, palette) : found.image };
  };
  for (let layerId = 0; layerId < size.layerCount; layerId++) {
    const tag = resolveLayer(size, -1, layerId).tag;
    // Head-only pets draw the layers tagged head or hair and the untagged ones (isNonHeadSprite).
    if (figure.headOnly && tag !== '' && !HEAD_TAGS.has(tag)) continue;
    const layerDirection = HEAD_TAGS.has(tag) ? headDirection : direction;
    let frameId: number | undefined;
    let dx = 0;
    let dy = 0;
    for (const a of states) {
      const layer = a.layers[String(layerId)];
      const frame = layer && roomLayerFrameAt(layer, pose.tick, direction);
      if (!frame) continue;
      frameId ??= frame.id;
      dx += frame.x;
      dy += frame.y;
    }
    const found = sprite(roomAssetName(name, size.size, layerId, layerDirection, frameId ?? 0), layerId);
    if (!found) continue;
    const layer = resolveLayer(size, direction, layerId);
    const z = resolveLayer(size, layerDirection, layerId).z;
    const w = found.image.width;
    out.push({
      asset: found.asset,
      image: found.image,
      flipH: found.flipH,
      left: (found.flipH ? found.x - w : -found.x) + layer.x + dx,
      top: -found.y + layer.y + dy,
      alpha: layer.alpha,
      ink: parseInk(layer.ink),
      tint: figure.color,
      relativeDepth: (z / -1000 - layerId * 0.001) * Math.SQRT1_2,
      shadow: false,
    });
  }
  const sd = sprite(`${name}_${size.size}_sd_${direction}_0`, size.layerCount);
  if (sd)
    out.push({
      asset: sd.asset,
      image: sd.image,
      flipH: sd.flipH,
      left: sd.flipH ? sd.x - sd.image.width : -sd.x,
      top: -sd.y,
      alpha: SHADOW_ALPHA,
      ink: 'normal',
      tint: figure.color,
      relativeDepth: Math.SQRT1_2,
      shadow: true,
    });
  return out;
}
