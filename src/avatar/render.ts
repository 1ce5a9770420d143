// Pure rendering: hotel model + request → RGBA frames and a description of every drawn layer.
// Planning (which sprite of which part goes where, in which order) needs no pixels, so the frame
// count of a pose is known without loading a library.
import { drawSprite } from '../imaging/composite.js';
import { type FrameDelay } from '../imaging/frame-delay.js';
import { createImage, scaleNearest, type RgbaImage } from '../imaging/image.js';
import { lightOf } from '../imaging/light.js';
import { bodyPartOffset, isAnimatingAction, resolvePose, stepsFor, WALK_STILL_FRAME, type ActiveAction, type PartStep, type Pose, type RequestedEffect } from './actions.js';
import { applyAvatarColour, planEffectTicks, type EffectTick } from './effect-frame.js';
import { LYING_H, LYING_SH2, UPRIGHT_H, UPRIGHT_SH2, outputWindow, type OutputWindow, type Placement } from './canvas.js';
import { downscaleHalf } from './downscale.js';
import { AvatarRenderError } from './errors.js';
import { partsByBodyPart, resolveFigure, type FigurePart } from './figure.js';
import { type AvatarHotel } from './hotel.js';
import { type FigureLibrary, type ResolvedAsset } from './library.js';
import { clampFrames, parseAction, wrapDirection, type AvatarRequest } from './request.js';

export interface DrawnLayer {
  /** Animation frame this layer belongs to. */
  frame: number;
  /** Draw order within the frame, 0 = bottom. */
  order: number;
  bodyPart: string;
  /** Part type of the figure (`lh`), and the one whose sprite was drawn (`rh` when mirrored). */
  partType: string;
  drawnPartType: string;
  /** A figure part's id, or an effect's part id (`fx5_1`, `1`). */
  partId: number | string;
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
  /** Effect renders only: the animation (`fx.2`, `dance.1`) this layer comes from or is moved by. */
  effect?: string;
  /** Effect sprites only: `add` for the client's additive ink 33. */
  ink?: string;
}

export interface AvatarRender {
  width: number;
  height: number;
  frames: RgbaImage[];
  /** How many client ticks (1/6 s, §2.2) each frame lasts: 1 each, except effect frames the effect holds longer. */
  frameTicks: number[];
  /** How long each frame shows (its ticks × 1/6 s); encoders (APNG, GIF) take the loop's timing from here. */
  delays: FrameDelay[];
  layers: DrawnLayer[];
}

/** The spec's frame time for pose loops (§2.2, §8): 166.67 ms. */
export const POSE_FRAME_DELAY: FrameDelay = { num: 1, den: 6 };

/** One part to draw, before its sprite is looked up. */
export interface PlannedPart {
  bodyPart: string;
  part: FigurePart;
  /** The action of the body part: every part of it draws this action unless a frame names its own. */
  governing: ActiveAction;
  /** Animation steps of this part under its action (empty = frame 0, no asset action of its own). */
  steps: PartStep[];
  animates: boolean;
  direction: number;
  /** Filled per frame while rendering: the asset action and frame number it draws and its body part's
   * offset in the action's frame (plane pixels), or null (not drawn). */
  drawAs?: { assetAction: string; frame: number; dx: number; dy: number } | null;
}

/** A body part's parts in the order the client processes them (`renderBodyPart`), which is bottom first. */
export interface PlannedBodyPart {
  id: string;
  governing: ActiveAction;
  direction: number;
  parts: PlannedPart[];
}

/** A worn set the figure asked for, with what is needed to tell whether the hotel can draw it. */
interface PlannedSet {
  label: string;
  parts: readonly { type: string; id: number }[];
}

interface Plan {
  pose: Pose;
  bodyParts: PlannedBodyPart[];
  /** Every planned part, bottom first (the geometric order, or the hotel's draworder.xml). */
  drawOrder: PlannedPart[];
  /** Libraries the render needs, in search order. */
  libraries: string[];
  sets: PlannedSet[];
  /** Size s on a hotel with small sprites: try `sh_` sprites (drawn doubled) before `h_`. */
  small: boolean;
  placement: Placement;
  smallPlacement: Placement;
  window: OutputWindow;
  /** Distinct frames of the pose inside the crop (1 = still). */
  loop: number;
  /** Effect renders: the effect actions, the ticks of the whole loop, the figure's parts by body part. */
  effect?: EffectPlan;
}

export interface EffectPlan {
  /** The active effect and dance actions (after the client's `prevents` filter). */
  actions: ActiveAction[];
  /** What tick `t` of the loop draws (planned on demand: the render asks for each run's first tick). */
  tickAt: (t: number) => EffectTick;
  /** Output frames: [first tick, tick count] runs of equal consecutive ticks. */
  runs: [number, number][];
  wornBy: Map<string, FigurePart[]>;
  headDir: number;
  bodyDir: number;
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
const ITEM_TYPES = new Set(['ri', 'li']);

function isMirrorException(assetAction: string, partType: string): boolean {
  return ALWAYS_OWN_SPRITES.has(partType) || !!MIRROR_EXCEPTIONS[assetAction]?.has(partType);
}

function stripLay(raw: string): string {
  return String(raw ?? '')
    .split(',')
    .filter((t) => t.trim().toLowerCase() !== 'lay')
    .join(',');
}

/** The effect and the dance the request names, when the hotel has them (unknown ids draw no effect). */
export function requestedEffects(hotel: AvatarHotel, req: AvatarRequest): RequestedEffect[] {
  if (hotel.effects.size === 0) return [];
  const out: RequestedEffect[] = [];
  const dance = req.dance && req.dance >= 1 && req.dance <= 4 ? req.dance : parseAction(req.action).dance;
  const d = dance ? hotel.effects.get('dance', String(dance)) : undefined;
  if (d) out.push({ state: 'dance', effect: d });
  const fx = req.effect && req.effect > 0 ? hotel.effects.get('fx', String(req.effect)) : undefined;
  if (fx) out.push({ state: 'fx', effect: fx });
  return out;
}

function plan(hotel: AvatarHotel, req: AvatarRequest): Plan {
  // The head-only crop has one canvas for every pose: a lying avatar shows its upright head there.
  const action = req.headOnly ? stripLay(req.action) : req.action;
  const requested = requestedEffects(hotel, req);
  const pose = resolvePose(action, req.gesture, hotel.actions, hotel.partSets, hotel.geometry, requested);
  const effectActions = pose.actions.filter((a) => a.effect);
  const figure = resolveFigure(req.figure, hotel.figure);
  let bodyDir = wrapDirection(req.direction);
  let headDir = wrapDirection(req.headDirection, bodyDir);
  // `AvatarImage.setDirection` adds the effect's direction offset to both (a hoverboard rider stands sideways).
  const turn = effectActions.reduce((t, a) => a.effect!.animation.directionOffset || t, 0);
  if (turn !== 0) {
    bodyDir = wrapDirection(bodyDir + turn);
    headDir = wrapDirection(headDir + turn);
  }
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

  // As `AvatarAssetDownloadManager`: every library the figure map names for any part of any worn set,
  // plus the mandatory body and item libraries; a sprite is then found by name in any of them (sleeves,
  // `hrb` and overlays are missing from real figure maps and live in a sibling part's library).
  const libs = hotel.libraries;
  const flipped = hotel.partSets.flipped;
  const sets: PlannedSet[] = [];
  // The search order is the client's load order: the mandatory libraries, loaded at start, then the
  // figure's in the order it asks for them; the first library with a sprite's name wins, as in
  // `AssetManager.getAsset` (duplicates across libraries exist: acc_chest_U_beads and _weaws share ca 2584).
  const all = new Set<string>([...libs.librariesFor('bd', 1), ...libs.librariesFor('li', 0)]);
  for (const w of figure.sets) {
    const setLibs = libs.librariesOfSet(w.set, flipped);
    for (const n of setLibs) all.add(n);
    if (w.isDefault) continue;
    const label = `${w.setType}-${w.setId}`;
    const drawable = libs.setHasSprites(w.set);
    if (setLibs.length === 0 || drawable === false) throw new AvatarRenderError('asset-load', `no figure library has a sprite of set ${label}`);
    // Without a part index, the libraries are looked into once loaded.
    if (drawable === undefined) sets.push({ label, parts: w.set.drawParts });
  }
  if (hotel.itemLibrary) all.add(hotel.itemLibrary);

  const avatarSet = req.headOnly ? 'head' : 'full';
  const geometric = hotel.geometry.geometric(avatarSet, pose.geometryType, bodyDir);
  // An action whose moving parts are not all inside the crop (wave or blow with headonly) is a still;
  // talking moves only the head, so it still animates there.
  const cropped = new Set(geometric.map((b) => b.id));
  const movesInsideCrop = (a: ActiveAction): boolean => {
    if (!req.headOnly) return true;
    const parts = hotel.animations.byAction.get(a.def.id);
    if (!parts) return true;
    for (const [type, steps] of parts) {
      const bp = hotel.geometry.bodyPartOf(pose.geometryType, type);
      if (steps.length > 1 && bp && !cropped.has(bp)) return false;
    }
    return true;
  };

  const bodyParts: PlannedBodyPart[] = [];
  const byKey = new Map<string, Map<string, PlannedPart[]>>();
  const wornBy = partsByBodyPart(figure, hotel.figure, (type) => hotel.geometry.bodyPartOf(pose.geometryType, type));
  for (const bp of geometric) {
    const governing = pose.bodyParts.get(bp.id) ?? pose.defaultAction;
    const direction = bp.id === 'head' ? headDir : bodyDir;
    const types = new Set(bp.partTypes);
    const worn = wornBy.get(bp.id) ?? [];
    // A held item is drawn when the body part's action holds it and the figure wears no part of its type.
    for (const [type, id] of pose.items) {
      if (types.has(type) && governing.activeParts.has(type) && !worn.some((p) => p.type === type)) worn.push({ type, id, tint: undefined, setType: type, setId: id });
    }
    const stepsOf = (type: string): PartStep[] => {
      const steps = stepsFor(hotel.animations, governing, type);
      // The walk is one still mid-stride frame (spec §4.2).
      return governing.def.state === 'mv' && steps.length > 0 ? [steps[WALK_STILL_FRAME % steps.length]!] : steps;
    };
    const parts: PlannedPart[] = [];
    const byType = new Map<string, PlannedPart[]>();
    byKey.set(bp.id, byType);
    // The client lists parts nearest first and draws from the end: farthest type first and, within a
    // type, its list backwards.
    for (const type of bp.partTypes) {
      let ofType: FigurePart[] | undefined;
      for (let i = worn.length - 1; i >= 0; i--) if (worn[i]!.type === type) (ofType ??= []).push(worn[i]!);
      if (!ofType) continue;
      const steps = stepsOf(type);
      const animates = isAnimatingAction(governing) && steps.length > 1 && movesInsideCrop(governing);
      for (const part of ofType) {
        const planned: PlannedPart = { bodyPart: bp.id, part, governing, steps, animates, direction };
        parts.push(planned);
        const list = byType.get(type);
        if (list) list.push(planned);
        else byType.set(type, [planned]);
        if (ITEM_TYPES.has(type)) for (const n of libs.librariesFor(type, part.id)) all.add(n);
      }
    }
    bodyParts.push({ id: bp.id, governing, direction, parts });
  }
  const drawOrder = hotel.geometry
    .ordered(avatarSet, pose.geometryType, bodyDir, pose.main.assetAction, pose.raisedHand)
    .flatMap((g) => g.partTypes.flatMap((t) => byKey.get(g.id)?.get(t) ?? []));
  const loop = drawOrder.reduce((m, p) => (p.animates ? Math.max(m, p.steps.length) : m), 1);
  const out: Plan = { pose, bodyParts, drawOrder, libraries: [...all], sets, small, placement, smallPlacement, window, loop };
  if (effectActions.length > 0) {
    const wornByType = partsByBodyPart(figure, hotel.figure, (type) => hotel.geometry.bodyPartOf(pose.geometryType, type));
    const { tickAt, runs } = planEffectTicks(hotel, req, { pose, bodyParts, loop, avatarSet, bodyDir, headDir, effectActions, wornBy: wornByType, frameOf: (bp, f) => partFrames(hotel, req, bp, f) });
    out.effect = { actions: effectActions, tickAt, runs, wornBy: wornByType, headDir, bodyDir };
  }
  return out;
}

/** Frame `f` of a body part without effect (`renderBodyPart`'s single asset-action variable per body part). */
export function partFrames(hotel: AvatarHotel, req: AvatarRequest, bp: PlannedBodyPart, f: number): void {
  let assetAction = bp.governing.assetAction;
  // The body part moves with its action's frame (Laugh's head bob); the client shifts by these pixels
  // at its scale, so size s, drawn on the doubled plane, moves twice as far.
  const [ox, oy] = bodyPartOffset(hotel.animations, bp.governing, bp.direction, f, bp.id);
  const dx = req.size === 's' ? 2 * ox : ox;
  const dy = req.size === 's' ? 2 * oy : oy;
  for (const item of bp.parts) {
    if (item.direction === 7 && (item.part.type === 'fc' || item.part.type === 'ey')) {
      item.drawAs = null;
      continue;
    }
    const step = item.steps.length > 0 ? item.steps[(item.animates ? f : 0) % item.steps.length]! : undefined;
    if (step?.assetAction) assetAction = step.assetAction;
    item.drawAs = { assetAction, frame: step?.number ?? 0, dx, dy };
  }
}

/** Distinct frames the pose has under this crop (1 = still); no library is loaded. */
export function animationFrameCount(hotel: AvatarHotel, req: AvatarRequest): number {
  // The loop's length whatever this request draws of it: the effect plan of a still request holds only its
  // first tick, and GIF and frame_num ask before they turn `animated` on.
  const p = plan(hotel, req.animated ? req : { ...req, animated: true });
  // An effect loop is known from its animation data alone: the runs of equal ticks of the whole loop.
  return p.effect ? p.effect.runs.length : p.loop;
}

interface Sprite {
  asset: ResolvedAsset;
  library: string;
}

/** `_<action>_<type>_<id>_<dir>_<frame>`, then frame 0, then both of the default action; no repeats. */
function spriteNames(action: string, defaultAction: string, type: string, id: number | string, dir: number, frame: number): string[] {
  const a = `_${action}_${type}_${id}_${dir}_`;
  const d = `_${defaultAction}_${type}_${id}_${dir}_`;
  const out = [a + frame];
  if (frame !== 0) out.push(a + '0');
  if (defaultAction !== action) {
    out.push(d + frame);
    if (frame !== 0) out.push(d + '0');
  }
  return out;
}

const partKey = (type: string, id: number): string => `${type}:${id}`;

function findSprite(libs: FigureLibrary[], suffixes: string[], scale: 'h' | 'sh'): Sprite | null {
  for (const suffix of suffixes) {
    const n = scale + suffix;
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

/** Everything the drawing of one part needs, once its action, frame and direction are known. */
export interface PartDraw {
  bodyPart: string;
  type: string;
  id: number | string;
  tint: number | undefined;
  assetAction: string;
  frame: number;
  direction: number;
  /** Body part offset on the plane. */
  dx: number;
  dy: number;
  /** Effect renders: the animation that placed or moved this part. */
  effect?: string;
}

interface DrawContext {
  p: Plan;
  hotel: AvatarHotel;
  /** Libraries that can hold a sprite of a drawn part type and id, in search order. */
  libsFor: (drawType: string, id: number | string) => FigureLibrary[];
}

/** Draws one part (the client's sprite fallbacks, mirroring and placement); the layer drawn, or null. */
function drawPart(ctx: DrawContext, canvas: RgbaImage, d: PartDraw, frame: number, order: number): DrawnLayer | null {
  const { p, hotel } = ctx;
  const { window: win, pose } = p;
  const outScale = win.scale;
  const { assetAction } = d;
  const type = d.type;
  const dir = d.direction;
  const mirrored = dir >= 4 && dir <= 6;
  const exception = mirrored && isMirrorException(assetAction, type);
  const assetDir = mirrored && !exception ? 6 - dir : dir;
  const drawType = mirrored && !exception ? hotel.partSets.flipped.get(type) ?? type : type;
  // The client's fallbacks: the frame of the action, its frame 0, then the same of the posture's default.
  const names = spriteNames(assetAction, pose.defaultAssetAction, drawType, d.id, assetDir, d.frame);
  const holders = ctx.libsFor(drawType, d.id);
  // Size s: the hotel's own small sprite where it has one (drawn doubled, halved back exactly).
  let found = p.small ? findSprite(holders, names, 'sh') : null;
  const doubled = !!found;
  if (!found) found = findSprite(holders, names, 'h');
  if (!found) return null;
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
  const dx = left - win.x + d.dx;
  const dy = top - win.y + d.dy;
  const tint = d.tint;
  drawSprite(canvas, sprite, dx, dy, { flipH: flip, tint });
  const layer: DrawnLayer = {
    frame,
    order,
    bodyPart: d.bodyPart,
    partType: type,
    drawnPartType: drawType,
    partId: d.id,
    library: found.library,
    asset: asset.name,
    x: dx * outScale,
    y: dy * outScale,
    width: w * outScale,
    height: sprite.height * outScale,
    flip,
    tint: tint === undefined ? null : hex(tint),
  };
  if (d.effect !== undefined) layer.effect = d.effect;
  return layer;
}

export async function renderAvatar(hotel: AvatarHotel, req: AvatarRequest): Promise<AvatarRender> {
  const p = plan(hotel, req);
  const loaded = new Map<string, FigureLibrary>();
  const missing: string[] = [];
  for (const n of p.libraries) {
    const hit = hotel.libraries.peek(n);
    if (hit) loaded.set(n, hit);
    else missing.push(n);
  }
  if (missing.length > 0) await Promise.all(missing.map(async (n) => loaded.set(n, await hotel.libraries.get(n))));
  // A worn set is unrenderable only when none of its sprites is in any library the figure loads.
  const searched = p.libraries.map((n) => loaded.get(n)!);
  // Only libraries with some sprite of a part can hold one of its names: the rest need not be searched.
  const holders = new Map<string, FigureLibrary[]>();
  const holding = (type: string, id: number): FigureLibrary[] => {
    const key = partKey(type, id);
    let hit = holders.get(key);
    if (!hit) {
      hit = [];
      for (const l of searched) if (l.hasPartKey(key)) hit.push(l);
      holders.set(key, hit);
    }
    return hit;
  };
  for (const set of p.sets) {
    // Library files do not change under a loaded hotel: a set found drawable once stays drawable.
    if (hotel.libraries.drawableSets.has(set.label)) continue;
    if (!set.parts.some((part) => holding(part.type, part.id).length > 0)) {
      throw new AvatarRenderError('asset-load', `no figure library has a sprite of set ${set.label}`);
    }
    hotel.libraries.drawableSets.add(set.label);
  }
  if (p.effect) return renderEffect(hotel, req, p, holding);

  let frameCount = req.animated ? p.loop : 1;
  const cap = clampFrames(req.frames);
  if (cap > 0) frameCount = Math.min(frameCount, cap);

  const { window: win } = p;
  const frames: RgbaImage[] = [];
  const layers: DrawnLayer[] = [];
  const outScale = win.scale;
  const ctx: DrawContext = { p, hotel, libsFor: (type, id) => holding(type, id as number) };
  for (let f = 0; f < frameCount; f++) {
    // `renderBodyPart` keeps one asset-action variable per body part: a frame that names its own action
    // (Sit's `wa` draws `std`) changes it for every later part of that body part that names none.
    for (const bp of p.bodyParts) partFrames(hotel, req, bp, f);
    const canvas = createImage(win.width, win.height);
    let order = 0;
    for (const item of p.drawOrder) {
      const at = item.drawAs;
      if (!at) continue;
      const layer = drawPart(ctx, canvas, { bodyPart: item.bodyPart, type: item.part.type, id: item.part.id, tint: item.part.tint, assetAction: at.assetAction, frame: at.frame, direction: item.direction, dx: at.dx, dy: at.dy }, f, order);
      if (!layer) continue;
      order++;
      layers.push(layer);
    }
    frames.push(outScale === 2 ? scaleNearest(canvas, 2) : outScale === 0.5 ? downscaleHalf(canvas) : canvas);
  }
  const first = frames[0]!;
  return { width: first.width, height: first.height, frames, frameTicks: frames.map(() => 1), delays: frames.map(() => POSE_FRAME_DELAY), layers };
}

/**
 * An effect or dance render: per output frame (a run of equal ticks), the avatar's parts as the effect
 * moves, replaces, adds and removes them, composed as one image (with the effect's colour treatment), and
 * the effect's own sprites behind and in front of it (`AvatarVisualization`), all on the spec's canvas.
 */
async function renderEffect(
  hotel: AvatarHotel,
  req: AvatarRequest,
  p: Plan,
  holding: (type: string, id: number) => FigureLibrary[],
): Promise<AvatarRender> {
  const fx = p.effect!;
  const effectLibs: FigureLibrary[] = [];
  for (const a of fx.actions) {
    const name = a.effect!.library;
    effectLibs.push(hotel.effectLibraries.peek(name) ?? (await hotel.effectLibraries.get(name)));
  }
  // Figure parts: their libraries first, then the effect's (which holds `h_crr_ri_fx5_1_*` and the like);
  // an effect's own part ids (`fx5_1`, `1`) are only in the effect's.
  const libsFor = (type: string, id: number | string): FigureLibrary[] =>
    typeof id === 'number' ? [...holding(type, id), ...effectLibs] : effectLibs;
  const ctx: DrawContext = { p, hotel, libsFor };
  let runs = req.animated ? fx.runs : fx.runs.slice(0, 1);
  const cap = clampFrames(req.frames);
  if (cap > 0) runs = runs.slice(0, cap);
  const { window: win } = p;
  const outScale = win.scale;
  const frames: RgbaImage[] = [];
  const frameTicks: number[] = [];
  const layers: DrawnLayer[] = [];
  for (let f = 0; f < runs.length; f++) {
    const [start, length] = runs[f]!;
    const tick = fx.tickAt(start);
    const canvas = createImage(win.width, win.height);
    let order = 0;
    const spriteLayer = (s: EffectTick['behind'][number]): void => {
      const lib = effectLibs.find((l) => l.name === s.library);
      const asset = lib?.asset(s.asset);
      if (!asset) return;
      const dx = p.placement.rx - asset.x + s.dx - win.x;
      const dy = p.placement.ry - asset.y + s.dy - win.y;
      // ADD sprites are light on black: over nothing only their glow shows (as furni glows, `lightOf`).
      drawSprite(canvas, s.add ? lightOf(asset.sprite) : asset.sprite, dx, dy, { flipH: asset.flipH, ink: s.add ? 'add' : 'normal' });
      const layer: DrawnLayer = {
        frame: f,
        order: order++,
        bodyPart: 'effect',
        partType: s.id,
        drawnPartType: s.id,
        partId: s.frame,
        library: s.library,
        asset: asset.name,
        x: dx * outScale,
        y: dy * outScale,
        width: asset.sprite.width * outScale,
        height: asset.sprite.height * outScale,
        flip: asset.flipH,
        tint: null,
        effect: s.effect,
      };
      if (s.add) layer.ink = 'add';
      layers.push(layer);
    };
    for (const s of tick.behind) spriteLayer(s);
    // The avatar is one image in the client: drawn on its own, coloured, then put between the sprites.
    const avatar = createImage(win.width, win.height);
    for (const d of tick.parts) {
      const layer = drawPart(ctx, avatar, { ...d, dx: d.dx + tick.avatarDx, dy: d.dy + tick.avatarDy }, f, order);
      if (!layer) continue;
      // A part the effect moved names it; so does every part under the effect's colour treatment.
      if (layer.effect === undefined && (tick.colourBy || tick.avatarDx || tick.avatarDy)) layer.effect = tick.colourBy ?? fx.actions.find((a) => a.effect!.animation.sprites.some((s) => s.id === 'avatar'))?.effect!.animation.name;
      if (layer.effect === undefined) delete layer.effect;
      order++;
      layers.push(layer);
    }
    if (tick.colour) applyAvatarColour(avatar, tick.colour);
    drawSprite(canvas, avatar, 0, 0);
    for (const s of tick.front) spriteLayer(s);
    frames.push(outScale === 2 ? scaleNearest(canvas, 2) : outScale === 0.5 ? downscaleHalf(canvas) : canvas);
    frameTicks.push(length);
  }
  const first = frames[0]!;
  return { width: first.width, height: first.height, frames, frameTicks, delays: frameTicks.map((t) => ({ num: t * POSE_FRAME_DELAY.num, den: POSE_FRAME_DELAY.den })), layers };
}
