// Step 2 of the avatar path (request → plan → draw): the plan of one image, built once per request and
// never changed after. `planPose` needs no pixels (the pose, its body parts and draw order, the libraries
// it needs, how many frames its loop has); `planAvatar` adds the sprites of every frame from libraries
// loaded beforehand (render.ts loads them). What the plan holds is plan-types.ts; drawing it is draw.ts.
// The logic is the game client's: nitro-renderer `AvatarImage` (`getImage`), `AvatarImageCache`
// (`getImageContainer`, `renderBodyPart`) and `AvatarStructure` (`getBodyPartsAtAngle`), cited where used.
import { LRUCache } from 'lru-cache';
import {
  isAnimatingAction,
  resolvePose,
  stepsFor,
  WALK_STILL_FRAME,
  type ActiveAction,
  type PartStep,
  type Pose,
  type RequestedEffect,
} from './actions.js';
import { LYING_H, LYING_SH2, UPRIGHT_H, UPRIGHT_SH2, lyingDirection, outputWindow } from './canvas.js';
import { planEffectTicks } from './effect-frame.js';
import { AvatarRenderError } from './errors.js';
import { partsByBodyPart, resolveFigure, withoutSetTypes, type FigurePart } from './figure.js';
import { type AvatarHotel } from './hotel.js';
import { type FigureLibrary, type ResolvedAsset } from './library.js';
import { bodyPartFrame } from './part-frame.js';
import {
  type AvatarPlan,
  type DrawnLayer,
  type EffectTick,
  type PartDraw,
  type PlannedBodyPart,
  type PlannedFrame,
  type PlannedLayer,
  type PlannedPart,
  type PoseStructure,
  type SpriteDraw,
} from './plan-types.js';
import {
  clampFrames,
  withoutToken,
  wrapDirection,
  type AvatarAction,
  type AvatarPart,
  type AvatarRequest,
} from './request.js';

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

/** The effect and the dance the request names, when the hotel has them (unknown ids draw no effect). */
export function requestedEffects(hotel: AvatarHotel, req: AvatarRequest): RequestedEffect[] {
  if (hotel.effects.size === 0) return [];
  const out: RequestedEffect[] = [];
  const d = req.dance ? hotel.effects.get('dance', String(req.dance)) : undefined;
  if (d) out.push({ state: 'dance', effect: d });
  const fx = req.effect ? hotel.effects.get('fx', String(req.effect)) : undefined;
  if (fx) out.push({ state: 'fx', effect: fx });
  return out;
}

/**
 * Why a request for one kind of layer (`part`) names nothing this hotel has, or undefined when it names
 * something: an effect of its effect map (with its library), a held item of its figure map (`ri`).
 */
export function missingPartSubject(hotel: AvatarHotel, req: AvatarRequest): string | undefined {
  if (req.part === 'effect') {
    if (!req.effect) return 'no effect id: the path takes the number of an effect of the hotel (EffectMap)\n';
    if (!hotel.effects.get('fx', String(req.effect)))
      return `effect ${req.effect} is not in this hotel's effect map, or its library is missing\n`;
  } else if (req.part === 'hand') {
    const id = req.action.items.get('crr') ?? req.action.items.get('drk');
    if (id === undefined) return 'no hand item id: the path takes the number of a held item (1-99999)\n';
    if (!hotel.libraries.hasPart('ri', id))
      return `hand item ${id} is not in this hotel's figure map (part ri ${id})\n`;
  }
  return undefined;
}

/**
 * Poses without an effect, per hotel and (action, gesture): the same few are asked for over and over, and
 * resolving one was ~7 % of planning (profiled on the warm workload). A pose is never changed after
 * `resolvePose` (the effect path, which sets fields on its actions, is not memoised). Bounded: `crr=<id>`
 * and the like make many actions.
 */
const plainPoses = new WeakMap<AvatarHotel, LRUCache<string, Pose>>();
function plainPose(hotel: AvatarHotel, action: AvatarAction, gesture: string): Pose {
  let memo = plainPoses.get(hotel);
  if (!memo) plainPoses.set(hotel, (memo = new LRUCache<string, Pose>({ max: 1024 })));
  const key = action.text + '\n' + gesture;
  let pose = memo.get(key);
  if (!pose) memo.set(key, (pose = resolvePose(action, gesture, hotel.actions, hotel.partSets, hotel.geometry)));
  return pose;
}

/**
 * The pose of a request without pixels (`AvatarImage` up to `getImage`): actions, directions, crop, body
 * parts with their parts (`AvatarStructure.getBodyPartsAtAngle`), draw order, the libraries to load
 * (`AvatarAssetDownloadManager`) and the loop's length. Throws when a worn set has no library at all.
 */
export function planPose(hotel: AvatarHotel, req: AvatarRequest): PoseStructure {
  // The head-only crop has one canvas for every pose: a lying avatar shows its upright head there.
  const action = req.headOnly ? withoutToken(req.action, 'lay') : req.action;
  const requested = requestedEffects(hotel, req);
  const pose =
    requested.length === 0
      ? plainPose(hotel, action, req.gesture)
      : resolvePose(action, req.gesture, hotel.actions, hotel.partSets, hotel.geometry, requested);
  const effectActions = pose.actions.filter((a) => a.effect);
  const figure = resolveFigure(req.figure, hotel.figure, req.gender);
  let bodyDir = req.direction;
  let headDir = req.headDirection;
  // `AvatarImage.setDirection` adds the effect's direction offset to both (a hoverboard rider stands sideways).
  const turn = effectActions.reduce((t, a) => a.effect!.animation.directionOffset || t, 0);
  if (turn !== 0) {
    bodyDir = wrapDirection(bodyDir + turn);
    headDir = wrapDirection(headDir + turn);
  }
  // Lying has sprites for one side only: direction 0 lies at 4 (mirrored), everything else at 2.
  if (pose.lying) bodyDir = lyingDirection(bodyDir);
  // head_direction is ignored for lay (docs/contract.md) even under headonly, where the lying pose itself is not drawn.
  const lyingRequested = req.headOnly && action !== req.action && plainPose(hotel, req.action, req.gesture).lying;
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
  const uncheckedSets: { label: string; parts: readonly { type: string; id: number }[] }[] = [];
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
    if (setLibs.length === 0 || drawable === false)
      throw new AvatarRenderError('asset-load', `no figure library has a sprite of set ${label}`);
    // Without a part index, the libraries are looked into once loaded.
    if (drawable === undefined) uncheckedSets.push({ label, parts: w.set.drawParts });
  }
  if (hotel.itemLibrary) all.add(hotel.itemLibrary);
  // A layer item naming a figure part (Snowboard's `bd` → `999`) needs that part's libraries.
  for (const a of pose.actions)
    for (const fp of a.effect?.figureParts ?? []) for (const n of libs.librariesFor(fp.type, fp.id)) all.add(n);

  const avatarSet = req.headOnly ? 'head' : 'full';
  const atAngle = hotel.geometry.getBodyPartsAtAngle(avatarSet, pose.geometryType, bodyDir);
  // An action whose moving parts are not all inside the crop (wave or blow with headonly) is a still;
  // talking moves only the head, so it still animates there.
  const cropped = new Set(atAngle.map((b) => b.id));
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
  for (const bp of atAngle) {
    const governing = pose.bodyParts.get(bp.id) ?? pose.defaultAction;
    const direction = bp.id === 'head' ? headDir : bodyDir;
    let worn = wornBy.get(bp.id) ?? [];
    // A held item is drawn when the body part's action holds it and the figure wears no part of its type
    // (added to a copy: the effect ticks see the figure's own parts).
    for (const [type, id] of pose.items) {
      if (bp.partTypes.includes(type) && governing.activeParts.has(type) && !worn.some((p) => p.type === type))
        worn = [...worn, { type, id, tint: undefined, setType: type, setId: id }];
    }
    const stepsOf = (type: string): PartStep[] => {
      const steps = stepsFor(hotel.animations, governing, type);
      // The walk is one still mid-stride frame (contract A4.2).
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
  // (Loops, not nested flatMap: this runs on every request.)
  const drawOrder: PlannedPart[] = [];
  for (const g of hotel.geometry.ordered(
    avatarSet,
    pose.geometryType,
    bodyDir,
    pose.main.assetAction,
    pose.raisedHand,
  )) {
    const byType = byKey.get(g.id);
    if (!byType) continue;
    for (const t of g.partTypes) {
      const list = byType.get(t);
      if (list) for (const p of list) drawOrder.push(p);
    }
  }
  const poseLoop = drawOrder.reduce((m, p) => (p.animates ? Math.max(m, p.steps.length) : m), 1);
  const at = new Map<PlannedPart, readonly [number, number]>();
  for (let b = 0; b < bodyParts.length; b++) {
    const parts = bodyParts[b]!.parts;
    for (let i = 0; i < parts.length; i++) at.set(parts[i]!, [b, i]);
  }
  const drawIndex: (readonly [number, number])[] = [];
  for (const p of drawOrder) drawIndex.push(at.get(p)!);
  const libraries = [...all];
  // Literals, not a spread of a shared base object: this runs on every request.
  if (effectActions.length === 0) {
    return {
      pose,
      bodyParts,
      drawOrder,
      drawIndex,
      libraries,
      uncheckedSets,
      small,
      placement,
      smallPlacement,
      window,
      poseLoop,
      effectLibraries: [],
      loop: poseLoop,
    };
  }
  // Effects see the figure's own parts (held items are the effect layers' to add).
  const bodyPartOf = (type: string) => hotel.geometry.bodyPartOf(pose.geometryType, type);
  const without = new Map<string, Map<string, FigurePart[]> | undefined>();
  const wornWithout = (setTypes: string[]): Map<string, FigurePart[]> | undefined => {
    const skip = new Set(setTypes.filter((t) => figure.sets.some((w) => w.setType === t)));
    const key = [...skip].sort().join('.');
    if (!without.has(key))
      without.set(
        key,
        skip.size === 0 ? undefined : partsByBodyPart(withoutSetTypes(figure, skip), hotel.figure, bodyPartOf),
      );
    return without.get(key);
  };
  const { runs, tickAt } = planEffectTicks(hotel, req, {
    pose,
    bodyParts,
    loop: poseLoop,
    avatarSet,
    bodyDir,
    headDir,
    effectActions,
    wornBy,
    wornWithout,
  });
  // Each effect's libraries: its own, then those it borrows sprites from (`HotelEffect.libraries`).
  const effectLibraries = [...new Set(effectActions.flatMap((a) => a.effect!.libraries))];
  return {
    pose,
    bodyParts,
    drawOrder,
    drawIndex,
    libraries,
    uncheckedSets,
    small,
    placement,
    smallPlacement,
    window,
    poseLoop,
    effectLibraries,
    effect: { actions: effectActions, runs, tickAt },
    loop: runs.length,
  };
}

/** `_<action>_<type>_<id>_<dir>_<frame>`, then frame 0, then both of the default action; no repeats. */
function spriteNames(
  action: string,
  defaultAction: string,
  type: string,
  id: number | string,
  dir: number,
  frame: number,
): string[] {
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

function findSprite(
  libs: readonly FigureLibrary[],
  suffixes: string[],
  scale: 'h' | 'sh',
): { asset: ResolvedAsset; library: string } | null {
  for (const suffix of suffixes) {
    const n = scale + suffix;
    for (const l of libs) {
      const a = l.asset(n);
      if (a) return { asset: a, library: l.name };
    }
  }
  return null;
}

function hex(rgb: number): string {
  return `#${rgb.toString(16).padStart(6, '0')}`;
}

/** The libraries a plan's sprites come from, loaded: each part's holders, and the effect libraries. */
export interface PlanLibraries {
  /** Figure libraries that hold a sprite of a part type and id, in search order. */
  holding(type: string, id: number): readonly FigureLibrary[];
  effects: readonly FigureLibrary[];
}

/** One part placed (the client's sprite fallbacks, mirroring and placement), or null when no sprite exists. */
function placePart(
  s: PoseStructure,
  hotel: AvatarHotel,
  libs: PlanLibraries,
  d: PartDraw,
  frame: number,
  order: number,
): PlannedLayer | null {
  const { window: win, pose } = s;
  const outScale = win.scale;
  const { assetAction, type } = d;
  const dir = d.direction;
  const mirrored = dir >= 4 && dir <= 6;
  const exception = mirrored && isMirrorException(assetAction, type);
  const assetDir = mirrored && !exception ? 6 - dir : dir;
  const drawType = mirrored && !exception ? (hotel.partSets.flipped.get(type) ?? type) : type;
  // The client's fallbacks: the frame of the action, its frame 0, then the same of the posture's default.
  const names = spriteNames(assetAction, pose.defaultAssetAction, drawType, d.id, assetDir, d.frame);
  // Figure parts: their libraries first, then the effect's (which holds `h_crr_ri_fx5_1_*` and the like);
  // an effect's own part ids (`fx5_1`, `1`) are only in the effect's. A layer item's id that is a plain
  // number names a figure part (Snowboard's `bd` → `999`), found in the figure libraries as the client's
  // `getAsset` finds it in any loaded library.
  const figureId = typeof d.id === 'number' ? d.id : /^\d+$/.test(d.id) ? Number(d.id) : undefined;
  const holders =
    figureId !== undefined
      ? libs.effects.length > 0
        ? [...libs.holding(drawType, figureId), ...libs.effects]
        : libs.holding(drawType, figureId)
      : libs.effects;
  // Size s: the hotel's own small sprite where it has one (drawn doubled, halved back exactly).
  let found = s.small ? findSprite(holders, names, 'sh') : null;
  const doubled = !!found;
  if (!found) found = findSprite(holders, names, 'h');
  if (!found) return null;
  const { asset } = found;
  const pl = doubled ? s.smallPlacement : s.placement;
  const ax = doubled ? asset.x * 2 : asset.x;
  const ay = doubled ? asset.y * 2 : asset.y;
  const w = doubled ? asset.sprite.width * 2 : asset.sprite.width;
  const h = doubled ? asset.sprite.height * 2 : asset.sprite.height;
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
  const x = left - win.x + d.dx;
  const y = pl.ry - ay - win.y + d.dy;
  const described: DrawnLayer = {
    frame,
    order,
    bodyPart: d.bodyPart,
    partType: type,
    drawnPartType: drawType,
    partId: d.id,
    library: found.library,
    asset: asset.name,
    x: x * outScale,
    y: y * outScale,
    width: w * outScale,
    height: h * outScale,
    flip,
    tint: d.tint === undefined ? null : hex(d.tint),
  };
  if (d.effect !== undefined) described.effect = d.effect;
  return { sprite: asset.sprite, doubled, x, y, flip, tint: d.tint, add: false, described };
}

/** An effect sprite placed (`AvatarVisualization`'s sprites), or null when the library lacks it. */
function placeEffectSprite(
  s: PoseStructure,
  libs: PlanLibraries,
  sd: SpriteDraw,
  frame: number,
  order: number,
): PlannedLayer | null {
  // The effect's own library first, then those it borrows from (`HotelEffect.libraries`).
  const names = s.effect?.actions.find((a) => a.effect!.library === sd.library)?.effect?.libraries ?? [sd.library];
  let asset: ResolvedAsset | null = null;
  let library = sd.library;
  for (const n of names) {
    asset = libs.effects.find((l) => l.name === n)?.asset(sd.asset) ?? null;
    if (asset) {
      library = n;
      break;
    }
  }
  if (!asset) return null;
  const { window: win } = s;
  const x = s.placement.rx - asset.x + sd.dx - win.x;
  const y = s.placement.ry - asset.y + sd.dy - win.y;
  const described: DrawnLayer = {
    frame,
    order,
    bodyPart: 'effect',
    partType: sd.id,
    drawnPartType: sd.id,
    partId: sd.frame,
    library,
    asset: asset.name,
    x: x * win.scale,
    y: y * win.scale,
    width: asset.sprite.width * win.scale,
    height: asset.sprite.height * win.scale,
    flip: asset.flipH,
    tint: null,
    effect: sd.effect,
  };
  if (sd.add) described.ink = 'add';
  return { sprite: asset.sprite, doubled: false, x, y, flip: asset.flipH, tint: undefined, add: sd.add, described };
}

/** A pose frame without effect: its parts in draw order. */
function poseFrame(
  s: PoseStructure,
  hotel: AvatarHotel,
  req: AvatarRequest,
  libs: PlanLibraries,
  f: number,
): PlannedFrame {
  // Each body part's frame, then its parts in draw order (`drawIndex`: where each sits in those lists).
  const lists: (PartDraw | null)[][] = [];
  for (const bp of s.bodyParts) lists.push(bodyPartFrame(hotel.animations, req.size, bp, f));
  const avatar: PlannedLayer[] = [];
  for (const [b, i] of s.drawIndex) {
    const d = lists[b]![i];
    const layer = d && placePart(s, hotel, libs, d, f, avatar.length);
    if (layer) avatar.push(layer);
  }
  return { behind: [], avatar, front: [], avatarImage: false, colour: undefined, ticks: 1 };
}

/** An effect frame (`AvatarImage.getImage` and `AvatarVisualization.update` for one tick). */
function effectFrame(
  s: PoseStructure,
  hotel: AvatarHotel,
  libs: PlanLibraries,
  tick: EffectTick,
  f: number,
  ticks: number,
): PlannedFrame {
  let order = 0;
  const sprites = (list: SpriteDraw[]): PlannedLayer[] => {
    const out: PlannedLayer[] = [];
    for (const sd of list) {
      const layer = placeEffectSprite(s, libs, sd, f, order);
      if (!layer) continue;
      order++;
      out.push(layer);
    }
    return out;
  };
  const behind = sprites(tick.behind);
  const mover = s.effect!.actions.find((a) => a.effect!.animation.sprites.some((sp) => sp.id === 'avatar'))?.effect
    ?.animation.name;
  const avatar: PlannedLayer[] = [];
  for (const d of tick.parts) {
    const layer = placePart(s, hotel, libs, { ...d, dx: d.dx + tick.avatarDx, dy: d.dy + tick.avatarDy }, f, order);
    if (!layer) continue;
    // A part the effect moved names it; so does every part under the effect's colour treatment.
    if (layer.described.effect === undefined && (tick.colourBy || tick.avatarDx || tick.avatarDy)) {
      const by = tick.colourBy ?? mover;
      if (by !== undefined) layer.described.effect = by;
    }
    order++;
    avatar.push(layer);
  }
  const front = sprites(tick.front);
  return { behind, avatar, front, avatarImage: true, colour: tick.colour, ticks };
}

/**
 * The plan of the image the request shows: every frame (the pose's loop, or the effect's runs of equal
 * ticks; the first only for a still; at most `frames`), each with its sprites resolved from `libs`.
 */
export function planAvatar(hotel: AvatarHotel, req: AvatarRequest, s: PoseStructure, libs: PlanLibraries): AvatarPlan {
  const cap = clampFrames(req.frames);
  const frames: PlannedFrame[] = [];
  if (s.effect) {
    let runs = req.animated ? s.effect.runs : s.effect.runs.slice(0, 1);
    if (cap > 0) runs = runs.slice(0, cap);
    runs.forEach(([start, length], f) => frames.push(effectFrame(s, hotel, libs, s.effect!.tickAt(start), f, length)));
  } else {
    let count = req.animated ? s.poseLoop : 1;
    if (cap > 0) count = Math.min(count, cap);
    for (let f = 0; f < count; f++) frames.push(poseFrame(s, hotel, req, libs, f));
  }
  if (req.part === undefined) return { window: s.window, frames };
  const fromEffect = new Set(libs.effects.map((l) => l.name));
  return { window: s.window, frames: frames.map((f) => partOnly(f, req.part!, fromEffect)) };
}

/**
 * A frame with only the layers of one kind (`AvatarPart`), each where the whole image has it: an effect's
 * own sprites are those around the avatar and any part drawn from an effect library; a held item is a
 * `ri`/`li` part drawn from a figure library (hh_human_item). Layers are numbered again, bottom first.
 */
function partOnly(f: PlannedFrame, part: AvatarPart, fromEffect: ReadonlySet<string>): PlannedFrame {
  const ownLayer = (l: PlannedLayer): boolean => {
    const effectSprite = fromEffect.has(l.described.library);
    return part === 'effect' ? effectSprite : !effectSprite && ITEM_TYPES.has(l.described.partType);
  };
  let order = 0;
  const renumber = (list: readonly PlannedLayer[]): PlannedLayer[] =>
    list.filter(ownLayer).map((l) => ({ ...l, described: { ...l.described, order: order++ } }));
  const behind = part === 'effect' ? renumber(f.behind) : [];
  const avatar = renumber(f.avatar);
  const front = part === 'effect' ? renumber(f.front) : [];
  return { ...f, behind, avatar, front };
}
