// The pet picture's pixel work (src/core/pet/ asks for it): read the pet's library from the hotel's pet folder,
// pick the posture and gesture its action tokens name, draw every frame of the pose (src/pet/picture.ts), put
// them on the background, enlarge them and encode them (PNG, APNG or GIF). A render worker runs it off the
// event loop; `inThreadPetRenderer` runs the very same steps on the calling thread (tools and tests).
import { boundedZoom } from '../../avatar/output.js';
import { encodeFrames } from '../../imaging/apng.js';
import { type FrameDelay } from '../../imaging/frame-delay.js';
import { encodeGif, gifDelays } from '../../imaging/gif.js';
import { overColor, type RgbaImage, scaleNearest } from '../../imaging/image.js';
import { type PetLibraries, petLibrariesAt } from '../../pet/libraries.js';
import { type PetModel } from '../../pet/model.js';
import { drawPet } from '../../pet/picture.js';
import { ANIMATION_UPDATES_PER_SECOND } from '../../furni/animation.js';
import { type Folders, lastFolders } from './folders.js';
import { type RenderOutput, RenderFailedError } from './render-pool.js';
import { PET_FAILURES, type PetWork } from './render-protocol.js';

/** Decoded pet libraries a thread keeps (each worker its own): the public set's 36 take about 40 MB. */
export const PET_JOB_LIBRARY_BYTES = 48 * 1024 * 1024;

/** Why a pet job drew nothing: `code` is one of PET_FAILURES, the message the reason. */
export class PetJobFailure extends Error {
  override name = 'PetJobFailure';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface PetJobResult {
  body: Buffer;
  frames: number;
  width: number;
  height: number;
  /** The posture and gesture drawn (the library's names; gesture '' for none). */
  posture: string;
  gesture: string;
}

/** The pet folder of a signature, its decoded libraries kept: what a thread's pet and room jobs draw from. */
export type PetFolders = Folders<PetLibraries>;

/** Pet folders by signature (lastFolders: the one in service and one being reloaded). */
export const petFolders = (maxBytes = PET_JOB_LIBRARY_BYTES): PetFolders =>
  lastFolders((hotelRoot, signature) => petLibrariesAt(hotelRoot, signature, undefined, maxBytes));

/**
 * The posture and gesture of action tokens, as the client takes a pet's status: the first token its library
 * lists as a posture, and the first it lists as a gesture; no posture → the library's default (an unknown
 * action is drawn as the pet standing, as the client draws a posture its library lacks).
 */
export function petPose(model: PetModel, actions: readonly string[]): { posture: string; gesture: string } {
  const posture = actions.find((a) => model.postures.has(a)) ?? model.defaultPosture ?? 'std';
  const gesture = actions.find((a) => model.gestures.has(a) && !model.postures.has(a)) ?? '';
  return { posture, gesture };
}

/** How long a frame showing `updates` of the client's animation updates lasts, exactly. */
const updatesDelay = (updates: number): FrameDelay => ({ num: updates, den: ANIMATION_UPDATES_PER_SECOND });

/** A runner of pet jobs reading from `foldersOf`. */
export function petJobRunner(foldersOf: PetFolders): (work: PetWork) => Promise<PetJobResult> {
  return async (work) => {
    const found = await foldersOf(work.hotelRoot, work.signature).pet(work.figure.typeId);
    if (!found.ok) throw new PetJobFailure(PET_FAILURES.noLibrary, found.reason);
    const model = found.model;
    const { posture, gesture } = petPose(model, work.actions);
    let drawn: ReturnType<typeof drawPet>;
    try {
      drawn = drawPet(
        model,
        work.figure,
        { posture, gesture, direction: work.direction, headDirection: work.headDirection, tick: 0 },
        { animated: work.animated, size: work.size },
      );
    } catch (err) {
      throw new PetJobFailure(PET_FAILURES.broken, (err as Error)?.message ?? String(err));
    }
    if (!drawn)
      throw new PetJobFailure(
        PET_FAILURES.nothing,
        `pet library ${model.furni.def.classname} has no sprite for posture ${posture}` +
          `${gesture ? ` and gesture ${gesture}` : ''} at direction ${work.direction}`,
      );
    let frames: RgbaImage[] = drawn.frames;
    const bg = work.background;
    if (bg) frames = frames.map((f) => overColor(f, bg.rgb, bg.alpha));
    const first = frames[0]!;
    const zoom = boundedZoom({ width: first.width, height: first.height, frames }, work.zoom ?? 1);
    if (zoom > 1) frames = frames.map((f) => scaleNearest(f, zoom));
    const delays = drawn.updates.map(updatesDelay);
    const body =
      work.format === 'gif'
        ? encodeGif(frames, frames.length > 1 ? gifDelays(delays) : [0])
        : await encodeFrames(frames, { compressionLevel: 6, delays });
    const { width, height } = frames[0]!;
    return { body, frames: frames.length, width, height, posture, gesture };
  };
}

/** The pool's `renderPet` on this thread: the same results and the same failures (RenderFailedError). */
export function inThreadPetRenderer(): (work: PetWork) => Promise<RenderOutput> {
  const run = petJobRunner(petFolders());
  return async (work) => {
    try {
      const { body, frames, width, height } = await run(work);
      return { body, frames, width, height };
    } catch (err) {
      const code = err instanceof PetJobFailure ? err.code : PET_FAILURES.broken;
      throw new RenderFailedError(code, (err as Error)?.message ?? String(err));
    }
  };
}
