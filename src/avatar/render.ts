// The avatar path from a normalized request to pixels: request (request.ts) → plan (plan.ts) → draw
// (draw.ts). This file only runs the steps in order and loads the libraries the plan names before the
// sprites are planned; `animationFrameCount` is the plan's loop without any library.
import { type MakeImage } from '../imaging/image.js';
import { AvatarRenderError } from './errors.js';
import { drawAvatar, type AvatarRender } from './draw.js';
import { type AvatarHotel } from './hotel.js';
import { type FigureLibrary } from './library.js';
import { planAvatar, planPose, type PlanLibraries } from './plan.js';
import { type AvatarPlan, type PoseStructure } from './plan-types.js';
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
  for (const name of s.effectLibraries)
    effects.push(hotel.effectLibraries.peek(name) ?? (await hotel.effectLibraries.get(name)));
  return { holding, effects };
}

/** The plan of a normalized request (`normalizeRequest`): plan the pose, load its libraries, plan its sprites. */
export async function planRender(hotel: AvatarHotel, req: AvatarRequest): Promise<AvatarPlan> {
  const structure = planPose(hotel, req);
  const libraries = await loadLibraries(hotel, structure);
  return planAvatar(hotel, req, structure, libraries);
}

/** Renders a normalized request: its plan (`planRender`), drawn (images from `make`: see `drawAvatar`). */
export async function renderAvatar(hotel: AvatarHotel, req: AvatarRequest, make?: MakeImage): Promise<AvatarRender> {
  return drawAvatar(await planRender(hotel, req), make);
}
