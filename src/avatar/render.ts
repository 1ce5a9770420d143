// Pure rendering: hotel model + request → RGBA frames and a description of every drawn layer.
// Planning (which sprite of which part goes where, in which order) needs no pixels, so the frame
// count of a pose is known without loading a library.
import { drawSprite } from '../imaging/composite.js';
import { createImage, scaleNearest, type RgbaImage } from '../imaging/image.js';
import { isAnimatingAction, resolvePose, stepsFor, WALK_STILL_FRAME, type ActiveAction, type PartStep, type Pose } from './actions.js';
import { LYING_H, LYING_SH2, UPRIGHT_H, UPRIGHT_SH2, outputWindow, type OutputWindow, type Placement } from './canvas.js';
import { downscaleHalf } from './downscale.js';
import { AvatarRenderError } from './errors.js';
import { resolveFigure, type FigurePart } from './figure.js';
import { type AvatarHotel } from './hotel.js';
import { type FigureLibrary, type ResolvedAsset } from './library.js';
import { clampFrames, wrapDirection, type AvatarRequest } from './request.js';

export interface DrawnLayer {
  /** Animation frame this layer belongs to. */
  frame: number;
  /** Draw order within the frame, 0 = bottom. */
  order: number;
  bodyPart: string;
  /** Part type of the figure (`lh`), and the one whose sprite was drawn (`rh` when mirrored). */
  partType: string;
  drawnPartType: string;
  partId: number;
  library: string;
  asset: string;
  /** Top-left in output pixels. */
  x: number;
  y: number;
  width: number;
  height: number;
  flip: boolean;
  /** `#rrggbb` multiply colour, or null. */
  tint: string | null;
}

export interface AvatarRender {
  width: number;
  height: number;
  frames: RgbaImage[];
  layers: DrawnLayer[];
}

/** One part to draw, before its sprite is looked up. */
interface PlannedPart {
  bodyPart: string;
  part: FigurePart;
  action: ActiveAction | null;
  /** Animation steps of this part under its action (empty = frame 0 of the action). */
  steps: PartStep[];
  animates: boolean;
  direction: number;
  libraries: string[];
}

interface Plan {
  pose: Pose;
  parts: PlannedPart[];
  /** Size s on a hotel with small sprites: try `sh_` sprites (drawn doubled) before `h_`. */
  small: boolean;
  placement: Placement;
  smallPlacement: Placement;
  window: OutputWindow;
  /** Distinct frames of the pose inside the crop (1 = still). */
  loop: number;
}

// Parts that keep their own sprites at the mirrored directions 4-6 (asset action → part types).
const MIRROR_EXCEPTIONS: Record<string, Set<string>> = {
  wav: new Set(['lh', 'ls', 'lc']),
  drk: new Set(['rh', 'rs', 'rc']),
  blw: new Set(['rh']),
  sig: new Set(['lh']),
  respect: new Set(['lh']),
};
const ALWAYS_OWN_SPRITES = new Set(['ri', 'li', 'cp']);

function isMirrorException(assetAction: string, partType: string): boolean {
  return ALWAYS_OWN_SPRITES.has(partType) || !!MIRROR_EXCEPTIONS[assetAction]?.has(partType);
}

function stripLay(raw: string): string {
  return String(raw ?? '')
    .split(',')
    .filter((t) => t.trim().toLowerCase() !== 'lay')
    .join(',');
}

function plan(hotel: AvatarHotel, req: AvatarRequest): Plan {
  // The head-only crop has one canvas for every pose: a lying avatar shows its upright head there.
  const action = req.headOnly ? stripLay(req.action) : req.action;
  const pose = resolvePose(action, req.gesture, hotel.actions, hotel.partSets, hotel.geometry);
  const figure = resolveFigure(req.figure, hotel.figure, (set) => (set.parts ?? []).some((p) => hotel.libraries.librariesFor(p.type, Number(p.id)).length > 0));
  let bodyDir = wrapDirection(req.direction);
  let headDir = wrapDirection(req.headDirection, bodyDir);
  // Lying has sprites for one side only: direction 0 lies to the left (4), everything else right (2).
  if (pose.lying) bodyDir = bodyDir === 0 ? 4 : 2;
  // head_direction is ignored for lay (§4.1) even under headonly, where the lying pose itself is not drawn.
  const lyingRequested = req.headOnly && resolvePose(req.action, req.gesture, hotel.actions, hotel.partSets, hotel.geometry).lying;
  if (pose.preventHeadTurn || lyingRequested) headDir = bodyDir;

  const small = req.size === 's' && hotel.smallSprites;
  const placement = pose.lying ? LYING_H : UPRIGHT_H;
  const smallPlacement = pose.lying ? LYING_SH2 : UPRIGHT_SH2;
  const lyingMirrored = pose.lying && bodyDir >= 4 && bodyDir <= 6;
  const window = outputWindow(req.size, req.headOnly, pose.lying, lyingMirrored);

  const byType = new Map<string, FigurePart[]>();
  for (const p of figure.parts) {
    const list = byType.get(p.type) ?? [];
    list.push(p);
    byType.set(p.type, list);
  }
  for (const [type, id] of pose.items) byType.set(type, [{ type, id, tint: undefined, setType: type, setId: id }]);

  // A worn set none of whose parts has a library cannot be drawn at all.
  const setsWithLibrary = new Set<string>();
  const setsSeen = new Set<string>();

  const parts: PlannedPart[] = [];
  const avatarSet = req.headOnly ? 'head' : 'full';
  const ordered = hotel.geometry.ordered(avatarSet, pose.geometryType, bodyDir, pose.main.assetAction);
  // An action whose moving parts are not all inside the crop (wave or blow with headonly) is a still;
  // talking moves only the head, so it still animates there.
  const cropped = new Set(ordered.map((b) => b.id));
  const movesInsideCrop = (a: ActiveAction): boolean => {
    if (!req.headOnly) return true;
    const parts = hotel.animations.byAction.get(a.def.id);
    if (!parts) return true;
    for (const [type, steps] of parts) if (steps.length > 1 && !cropped.has(hotel.geometry.bodyPartOf(pose.geometryType, type))) return false;
    return true;
  };
  // Part types the geometry does not know are still drawn: on top of the torso's own parts.
  const placed = new Set(hotel.geometry.ordered('full', pose.geometryType, bodyDir, pose.main.assetAction).flatMap((b) => b.partTypes));
  const extra = [...byType.keys()].filter((t) => !placed.has(t) && t !== 'ri' && t !== 'li');
  for (const bp of ordered) {
    const governing = pose.bodyParts.get(bp.id) ?? null;
    const direction = bp.id === 'head' ? headDir : bodyDir;
    const types = bp.id === 'torso' && extra.length > 0 ? [...bp.partTypes, ...extra] : bp.partTypes;
    for (const type of types) {
      const list = byType.get(type);
      if (!list) continue;
      if (direction === 7 && (type === 'fc' || type === 'ey')) continue;
      // As in the client: the action governing the body part gives every part type in it its frames
      // (Move gives the shirt its wlk frames), but only the types in its active part set take its asset
      // action; the others keep the default unless a frame names its own (a wlk frame does).
      const active = governing && governing.activeParts.has(type) ? governing : null;
      let steps = governing ? stepsFor(hotel.animations, governing, type) : [];
      if (governing && governing.def.state === 'mv' && steps.length > 0) steps = [steps[WALK_STILL_FRAME % steps.length]!];
      const animates = !!governing && isAnimatingAction(governing) && steps.length > 1 && movesInsideCrop(governing);
      // Same part type twice (a set with two layers): the later one goes underneath, as in the client.
      for (const part of [...list].reverse()) {
        const isItem = type === 'ri' || type === 'li';
        let libraries = hotel.libraries.librariesFor(type, part.id);
        if (isItem && libraries.length === 0 && hotel.itemLibrary) libraries = [hotel.itemLibrary];
        const flippedType = hotel.partSets.flipped.get(type);
        if (flippedType && flippedType !== type) libraries = [...new Set([...libraries, ...hotel.libraries.librariesFor(flippedType, part.id)])];
        if (!isItem) {
          setsSeen.add(`${part.setType}-${part.setId}`);
          if (libraries.length > 0) setsWithLibrary.add(`${part.setType}-${part.setId}`);
        }
        parts.push({ bodyPart: bp.id, part, action: active, steps, animates, direction, libraries });
      }
    }
  }
  for (const s of setsSeen) {
    if (!setsWithLibrary.has(s)) throw new AvatarRenderError('asset-load', `no figure library holds the parts of set ${s}`);
  }
  const loop = parts.reduce((m, p) => (p.animates ? Math.max(m, p.steps.length) : m), 1);
  return { pose, parts, small, placement, smallPlacement, window, loop };
}

/** Distinct frames the pose has under this crop (1 = still); no library is loaded. */
export function animationFrameCount(hotel: AvatarHotel, req: AvatarRequest): number {
  return plan(hotel, req).loop;
}

interface Sprite {
  asset: ResolvedAsset;
  library: string;
}

function findSprite(libs: FigureLibrary[], names: string[]): Sprite | null {
  for (const n of names) {
    for (const l of libs) {
      const a = l.asset(n);
      if (a) return { asset: a, library: l.name };
    }
  }
  return null;
}

const doubledCache = new WeakMap<RgbaImage, RgbaImage>();
function doubledSprite(img: RgbaImage): RgbaImage {
  let d = doubledCache.get(img);
  if (!d) {
    d = scaleNearest(img, 2);
    doubledCache.set(img, d);
  }
  return d;
}

function hex(rgb: number): string {
  return `#${rgb.toString(16).padStart(6, '0')}`;
}

export async function renderAvatar(hotel: AvatarHotel, req: AvatarRequest): Promise<AvatarRender> {
  const p = plan(hotel, req);
  const needed = new Set(p.parts.flatMap((x) => x.libraries));
  const loaded = new Map<string, FigureLibrary>();
  await Promise.all([...needed].map(async (n) => loaded.set(n, await hotel.libraries.get(n))));

  let frameCount = req.animated ? p.loop : 1;
  const cap = clampFrames(req.frames);
  if (cap > 0) frameCount = Math.min(frameCount, cap);

  const { window: win, pose } = p;
  const frames: RgbaImage[] = [];
  const layers: DrawnLayer[] = [];
  const outScale = win.scale;
  for (let f = 0; f < frameCount; f++) {
    const canvas = createImage(win.width, win.height);
    let order = 0;
    for (const item of p.parts) {
      const action = item.action;
      const baseAction = action ? action.assetAction : pose.defaultAssetAction;
      const step: PartStep = item.steps.length > 0 ? item.steps[(item.animates ? f : 0) % item.steps.length]! : { number: 0, assetAction: '' };
      // A step names the normal asset action; while lying the action's lay variant replaces it.
      const assetAction = step.assetAction && !(action && step.assetAction === action.def.assetPartDefinition) ? step.assetAction : baseAction;
      const type = item.part.type;
      const dir = item.direction;
      const mirrored = dir >= 4 && dir <= 6;
      const exception = mirrored && isMirrorException(assetAction, type);
      const assetDir = mirrored && !exception ? 6 - dir : dir;
      const drawType = mirrored && !exception ? hotel.partSets.flipped.get(type) ?? type : type;
      const base = `_%A_${drawType}_${item.part.id}_${assetDir}_`;
      const names = [
        base.replace('%A', assetAction) + step.number,
        base.replace('%A', assetAction) + '0',
        base.replace('%A', pose.defaultAssetAction) + step.number,
        base.replace('%A', pose.defaultAssetAction) + '0',
      ].filter((n, i, a) => a.indexOf(n) === i);
      const libs = item.libraries.map((n) => loaded.get(n)!).filter(Boolean);
      // Size s: the hotel's own small sprite where it has one (drawn doubled, halved back exactly).
      let found = p.small ? findSprite(libs, names.map((n) => 'sh' + n)) : null;
      const doubled = !!found;
      if (!found) found = findSprite(libs, names.map((n) => 'h' + n));
      if (!found) continue;
      const { asset } = found;
      const sprite = doubled ? doubledSprite(asset.sprite) : asset.sprite;
      const pl = doubled ? p.smallPlacement : p.placement;
      const ax = doubled ? asset.x * 2 : asset.x;
      const ay = doubled ? asset.y * 2 : asset.y;
      const w = sprite.width;
      let left: number;
      let flip: boolean;
      if (!mirrored) {
        left = pl.rx - ax;
        flip = asset.flipH;
      } else if (exception) {
        left = pl.rx + pl.exceptionShift - ax;
        flip = asset.flipH;
      } else {
        left = pl.rx + pl.mirrorShift + ax - w;
        flip = !asset.flipH;
      }
      const top = pl.ry - ay;
      const dx = left - win.x;
      const dy = top - win.y;
      const tint = item.part.tint;
      drawSprite(canvas, sprite, dx, dy, { flipH: flip, tint });
      layers.push({
        frame: f,
        order: order++,
        bodyPart: item.bodyPart,
        partType: type,
        drawnPartType: drawType,
        partId: item.part.id,
        library: found.library,
        asset: asset.name,
        x: dx * outScale,
        y: dy * outScale,
        width: w * outScale,
        height: sprite.height * outScale,
        flip,
        tint: tint === undefined ? null : hex(tint),
      });
    }
    frames.push(outScale === 2 ? scaleNearest(canvas, 2) : outScale === 0.5 ? downscaleHalf(canvas) : canvas);
  }
  const first = frames[0]!;
  return { width: first.width, height: first.height, frames, layers };
}
