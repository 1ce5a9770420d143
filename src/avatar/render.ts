// The avatar path from a normalized request to pixels: request (request.ts) → plan (plan.ts) → draw
// (draw.ts). This file only runs the steps in order and loads the libraries the plan names before the
// sprites are planned; `animationFrameCount` is the plan's loop without any library.
import { LRUCache } from 'lru-cache';
import { AvatarRenderError } from './errors.js';
import { drawAvatar, type AvatarRender } from './draw.js';
import { partsByBodyPart, resolveOutfit, type FigurePart, type ResolvedFigure } from './figure.js';
import { type AvatarHotel } from './hotel.js';
import { type FigureLibrary } from './library.js';
import { describedTint, planAvatar, planPose, type PlanLibraries } from './plan.js';
import { type AvatarPlan, type PlannedLayer, type PoseStructure } from './plan-types.js';
import { type AvatarRequest } from './request.js';

/** Distinct frames the pose has under this crop (1 = still); no library is loaded. */
export function animationFrameCount(hotel: AvatarHotel, req: AvatarRequest): number {
  // The loop's length whatever this request draws of it: a still request's effect plan holds its first tick only.
  return planPose(hotel, req.animated ? req : { ...req, animated: true }).loop;
}

/**
 * Loads what a pose's sprites come from (`AvatarAssetDownloadManager`): its figure libraries in search
 * order and its effect libraries. A worn set is unrenderable only when none of its sprites is in any
 * library the figure loads.
 */
async function loadLibraries(hotel: AvatarHotel, s: PoseStructure): Promise<PlanLibraries> {
  const store = hotel.libraries;
  const loaded = new Map<string, FigureLibrary>();
  const missing: string[] = [];
  for (const n of s.libraries) {
    const hit = store.peek(n);
    if (hit) loaded.set(n, hit);
    else missing.push(n);
  }
  if (missing.length > 0) await Promise.all(missing.map(async (n) => loaded.set(n, await store.get(n))));
  const searched = s.libraries.map((n) => loaded.get(n)!);
  // Only libraries with some sprite of a part can hold one of its names: the rest need not be searched.
  const holders = new Map<string, FigureLibrary[]>();
  const holding = (type: string, id: number): FigureLibrary[] => {
    const key = `${type}:${id}`;
    let hit = holders.get(key);
    if (!hit) {
      hit = searched.filter((l) => l.hasPartKey(key));
      holders.set(key, hit);
    }
    return hit;
  };
  for (const set of s.uncheckedSets) {
    if (!store.isDrawable(set.label, () => set.parts.some((part) => holding(part.type, part.id).length > 0))) {
      throw new AvatarRenderError('asset-load', `no figure library has a sprite of set ${set.label}`);
    }
  }
  const effects: FigureLibrary[] = [];
  for (const name of s.effectLibraries) effects.push(hotel.effectLibraries.peek(name) ?? (await hotel.effectLibraries.get(name)));
  return { holding, effects };
}

/**
 * A plan without an effect, kept to be drawn again in other colours: the same outfit in the same pose
 * draws the same sprites at the same places, and only the tints follow the figure's colours. `slots`:
 * per frame, per avatar layer, where its part is in `partsByBodyPart`'s list of its body part (null: not
 * a worn part, so never tinted). `libraries`: the loaded libraries the sprites came from; the plan is
 * used only while each is still the one loaded (an evicted or reloaded library plans afresh).
 */
interface PlanTemplate {
  plan: AvatarPlan;
  geometryType: string;
  slots: (readonly [string, number] | null)[][];
  names: readonly string[];
  libraries: readonly FigureLibrary[];
}

/**
 * Per hotel object: plans by outfit and pose. Planning was the largest step of a fresh render on warm
 * libraries after encoding (issue 28's stage table); a popular outfit comes back in pose after pose in new
 * colours. Bounded by the layers held (about 0.4 KB each); templates and the plans made from them are
 * never changed (a retinted plan copies only the layers whose tint differs).
 */
const templates = new WeakMap<AvatarHotel, LRUCache<string, PlanTemplate>>();
const TEMPLATE_LAYERS_PER_HOTEL = 20_000;

/** Where each avatar layer's part sits in the worn parts' lists, or undefined if a layer cannot be told apart. */
function templateSlots(plan: AvatarPlan, worn: Map<string, FigurePart[]>): PlanTemplate['slots'] | undefined {
  const slots: PlanTemplate['slots'] = [];
  for (const f of plan.frames) {
    const frame: (readonly [string, number] | null)[] = [];
    for (const l of f.avatar) {
      const d = l.described;
      const list = worn.get(d.bodyPart) ?? [];
      let at = -1;
      for (let i = 0; i < list.length; i++) {
        if (list[i]!.type !== d.partType || list[i]!.id !== d.partId) continue;
        // Two worn parts of one type and id in a body part: which one a layer is cannot be told here.
        if (at >= 0) return undefined;
        at = i;
      }
      if (at < 0 && l.tint !== undefined) return undefined;
      if (at >= 0 && list[at]!.tint !== l.tint) return undefined;
      frame.push(at < 0 ? null : [d.bodyPart, at]);
    }
    slots.push(frame);
  }
  return slots;
}

/** The template's plan in this figure's colours, or undefined when its parts do not line up (then plan afresh). */
function retinted(hotel: AvatarHotel, t: PlanTemplate, figure: ResolvedFigure): AvatarPlan | undefined {
  const worn = partsByBodyPart(figure, hotel.figure, (type) => hotel.geometry.bodyPartOf(t.geometryType, type));
  const frames = [];
  for (let f = 0; f < t.plan.frames.length; f++) {
    const frame = t.plan.frames[f]!;
    const slots = t.slots[f]!;
    const avatar: PlannedLayer[] = [];
    for (let i = 0; i < frame.avatar.length; i++) {
      const l = frame.avatar[i]!;
      const slot = slots[i];
      if (!slot) {
        avatar.push(l);
        continue;
      }
      const part = worn.get(slot[0])?.[slot[1]];
      if (!part) return undefined;
      avatar.push(part.tint === l.tint ? l : { ...l, tint: part.tint, described: { ...l.described, tint: describedTint(part.tint) } });
    }
    frames.push({ ...frame, avatar });
  }
  return { window: t.plan.window, frames };
}

/** The plan of a normalized request (`normalizeRequest`): plan the pose, load its libraries, plan its sprites. */
export async function planRender(hotel: AvatarHotel, req: AvatarRequest): Promise<AvatarPlan> {
  // Effects and dances (their ticks, colour treatments and libraries) are planned afresh every time.
  if (req.effect !== undefined || req.dance !== undefined) {
    const structure = planPose(hotel, req);
    return planAvatar(hotel, req, structure, await loadLibraries(hotel, structure));
  }
  // Every field planPose and planAvatar read of a request without an effect, the figure as its outfit.
  const { outfit, figure } = resolveOutfit(req.figure, hotel.figure);
  const key = `${outfit}\0${req.direction}\0${req.headDirection}\0${req.size}\0${req.action}\0${req.gesture}\0${req.headOnly}\0${req.animated}\0${req.frames}`;
  let memo = templates.get(hotel);
  if (!memo) templates.set(hotel, (memo = new LRUCache<string, PlanTemplate>({ maxSize: TEMPLATE_LAYERS_PER_HOTEL, sizeCalculation: (t) => 1 + t.slots.reduce((n, f) => n + f.length, 0) })));
  const store = hotel.libraries;
  const held = memo.get(key);
  if (held && held.names.every((n, i) => store.peek(n) === held.libraries[i])) {
    const plan = retinted(hotel, held, figure);
    if (plan) return plan;
  }
  const structure = planPose(hotel, req);
  const plan = planAvatar(hotel, req, structure, await loadLibraries(hotel, structure));
  const libraries: FigureLibrary[] = [];
  for (const n of structure.libraries) {
    const l = store.peek(n);
    if (!l) return plan;
    libraries.push(l);
  }
  const geometryType = structure.pose.geometryType;
  const slots = templateSlots(plan, partsByBodyPart(figure, hotel.figure, (type) => hotel.geometry.bodyPartOf(geometryType, type)));
  if (slots) memo.set(key, { plan, geometryType, slots, names: structure.libraries, libraries });
  return plan;
}

/** Renders a normalized request: its plan (`planRender`), drawn. */
export async function renderAvatar(hotel: AvatarHotel, req: AvatarRequest): Promise<AvatarRender> {
  return drawAvatar(await planRender(hotel, req));
}
