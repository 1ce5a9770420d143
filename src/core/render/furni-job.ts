// Furni on demand's pixel work (src/core/hotel-furni/ asks for it): draw a picture from the hotel's bundle
// folder, or take one the main thread holds, then finish and encode it. A render worker runs it off the event
// loop; `inThreadFurniRenderer` runs the very same steps on the calling thread (tools and tests without a pool).
import { finishFurniPicture, type FurniPicture, renderFurniPicture } from '../../furni/on-demand.js';
import { type RgbaImage } from '../../imaging/image.js';
import { encodePngCompact } from '../../imaging/png-compact.js';
import { furniBundlesAt, type FurniBundles } from '../../furni/bundles.js';
import { type Folders, lastFolders } from './folders.js';
import { type FurniRenderOutput, RenderFailedError } from './render-pool.js';
import { FURNI_FAILURES, type FurniWork, pictureData, pictureOf } from './render-protocol.js';

/** Why a furni job drew nothing: `code` is one of FURNI_FAILURES, the message the reason. */
export class FurniJobFailure extends Error {
  override name = 'FurniJobFailure';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface FurniJobResult {
  /** The finished image (crop, background, zoom applied) and its PNG. */
  image: RgbaImage;
  body: Buffer;
  /** The picture drawn, when the job drew one (not when it encoded a held one). */
  picture?: FurniPicture;
}

/** The bundle folder of a signature, its decoded bundles kept: what a thread's furni and room jobs draw from. */
export type BundleFolders = Folders<FurniBundles>;

/** Bundle folders by signature (lastFolders: the one in service and one being reloaded). */
export const bundleFolders = (): BundleFolders => lastFolders(furniBundlesAt);

/** A runner of furni jobs drawing from `bundlesOf`. */
export function furniJobRunner(bundlesOf: BundleFolders): (work: FurniWork) => Promise<FurniJobResult> {
  const pictureFor = async (work: FurniWork): Promise<[FurniPicture, boolean]> => {
    if ('picture' in work) return [pictureOf(work.picture), false];
    const { hotelRoot, signature, base, req } = work.draw;
    const bundle = await bundlesOf(hotelRoot, signature).furni(base);
    if (!bundle.ok) throw new FurniJobFailure(FURNI_FAILURES.noBundle, bundle.reason);
    let drawn: ReturnType<typeof renderFurniPicture>;
    try {
      drawn = renderFurniPicture(bundle.model, req);
    } catch (err) {
      throw new FurniJobFailure(FURNI_FAILURES.broken, (err as Error)?.message ?? String(err));
    }
    if (!drawn.ok) throw new FurniJobFailure(FURNI_FAILURES.nothing, drawn.reason);
    return [drawn.picture, true];
  };
  return async (work) => {
    const [picture, drew] = await pictureFor(work);
    const image = finishFurniPicture(picture, work.output);
    return { image, body: encodePngCompact(image), ...(drew ? { picture } : {}) };
  };
}

/** The pool's `renderFurni` on this thread: the same results and the same failures (RenderFailedError). */
export function inThreadFurniRenderer(): (work: FurniWork) => Promise<FurniRenderOutput> {
  const run = furniJobRunner(bundleFolders());
  return async (work) => {
    try {
      const { image, body, picture } = await run(work);
      return {
        body,
        frames: 1,
        width: image.width,
        height: image.height,
        ...(picture ? { picture: pictureData(picture, true) } : {}),
      };
    } catch (err) {
      const code = err instanceof FurniJobFailure ? err.code : FURNI_FAILURES.broken;
      throw new RenderFailedError(code, (err as Error)?.message ?? String(err));
    }
  };
}
