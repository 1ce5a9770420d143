// Furni on demand in the avatar service: what the furni route (server/hotel-furni/) answers for Chroma's and
// vortex-imager's paths, independent of HTTP. The item comes from the hotel's own files: the furnidata (ids,
// colour rows) and the Nitro bundles (`bundled/furniture/`). A URL names one picture for a set of files, so an
// answer is immutable and keyed by the renderer version, the files' identity and the canonical request. The
// pixel work runs in the avatar render workers (each reads the bundles into a cache of its own): this thread
// resolves the item, looks in the cache tiers and keeps the pictures drawn, so a background, a zoom or no
// crop is a re-encode of the picture held instead of a new drawing.
import { LRUCache } from 'lru-cache';
import { join } from 'node:path';
import { type FurnitureData, splitClassname } from '../../formats/furnidata.js';
import { type FurniPicture } from '../../furni/on-demand.js';
import { RENDERER_VERSION } from '../../furni/version.js';
import { isDir } from '../../hotel/files.js';
import { drawnClassname, type FurniBundles } from '../../furni/bundles.js';
import { sha256Hex } from '../../util/hash.js';
import { KeyedInflight } from '../../util/keyed-inflight.js';
import {
  cachedImage,
  IMMUTABLE_CACHE_CONTROL,
  type CachedImage,
  type ImageCache,
  type ImageSource,
} from '../cache/image-cache.js';
import { type SharedAvatarCache } from '../cache/shared-cache.js';
import { type FurniRenderOutput, RenderBusyError, RenderFailedError } from '../render/render-pool.js';
import { FURNI_FAILURES, type FurniWork, pictureData, pictureOf } from '../render/render-protocol.js';
import { canonicalOutput, canonicalPicture, type FurniTarget, type HotelFurniRequest } from './params.js';

/** A URL names one picture of the hotel's files: cached like a badge. */
export const HOTEL_FURNI_CACHE_CONTROL = IMMUTABLE_CACHE_CONTROL;
/** Pictures (RGBA) kept for re-encoding with another background, zoom or crop. */
export const PICTURE_CACHE_BYTES = 32 * 1024 * 1024;

export type HotelFurniAnswer =
  | { kind: 'image'; image: CachedImage; key: string; source: ImageSource }
  | { kind: 'text'; status: 404; reason: string }
  | { kind: 'text'; status: 429; reason: string; retryAfterS: number };

/** What a request over the client's render rate (or the instance's budget) is told. */
export const TOO_MANY_RENDERS = 'too many renders: try again in a second\n';

/** The furnidata ids of a hotel: a room item's and a wall item's id name different rows. */
export interface FurniIds {
  room: ReadonlyMap<number, string>;
  wall: ReadonlyMap<number, string>;
}

export function furniIds(data: FurnitureData | undefined): FurniIds {
  const room = new Map<number, string>();
  const wall = new Map<number, string>();
  for (const row of data?.roomitemtypes.furnitype ?? []) if (!room.has(row.id)) room.set(row.id, row.classname);
  for (const row of data?.wallitemtypes.furnitype ?? []) if (!wall.has(row.id)) wall.set(row.id, row.classname);
  return { room, wall };
}

/** What the service draws from: swapped whole on a hotel reload. */
export interface HotelFurniFiles {
  /** The bundle folder and its signature (the workers read the bundles; this thread never decodes one). */
  bundles: Pick<FurniBundles, 'hotelRoot' | 'signature'>;
  ids: FurniIds;
  /** The furnidata file read, or why there is none (ids are then unknown; classnames still draw). */
  furnidata: { file: string; digest: string } | { missing: string };
  /** Set when the hotel keeps its furni as SWFs only (Flash layout): what a 404 tells the operator. */
  flashOnly?: string;
}

export interface HotelFurniDeps {
  cache: ImageCache;
  shared?: SharedAvatarCache;
  log?: (level: 'info' | 'warn' | 'error', msg: string, fields: Record<string, unknown>) => void;
  /** Draws or encodes off the event loop: the avatar render pool's `renderFurni`. */
  render: (work: FurniWork) => Promise<FurniRenderOutput>;
  /**
   * Takes one render from the client's rate and the instance's budget (the avatar service's limits); false
   * answers 429. Only work counts: an answer from a cache tier takes nothing.
   */
  limit?: (client: string) => boolean;
}

/** The identity of the files a picture is drawn from (bundle folder and furnidata). */
export function filesIdentity(files: HotelFurniFiles): string {
  const fd = 'digest' in files.furnidata ? files.furnidata.digest : '-';
  return sha256Hex(`hotel-furni\0${files.bundles.signature}\0${fd}`).slice(0, 32);
}

export class HotelFurniService {
  private files: HotelFurniFiles;
  private identity: string;
  private readonly pictures = new LRUCache<string, FurniPicture>({
    maxSize: PICTURE_CACHE_BYTES,
    sizeCalculation: (p) => Math.max(1, p.image.data.length + 64),
  });
  /** Answers being made, by cache key: joiners share the maker's answer (its 429 too). */
  private readonly inFlight = new KeyedInflight<HotelFurniAnswer>();
  /** Items whose bundle failed to draw (broke the renderer, ran out of time, took a worker down), with why. */
  private readonly unDrawable = new LRUCache<string, string>({ max: 1024 });
  private readonly counts = { renders: 0, encodes: 0, notFound: 0, coalesced: 0, renderErrors: 0, limited: 0 };

  constructor(
    files: HotelFurniFiles,
    private readonly deps: HotelFurniDeps,
  ) {
    this.files = files;
    this.identity = filesIdentity(files);
  }

  /** Puts reloaded files in place; pictures of the old files are forgotten. */
  swap(files: HotelFurniFiles): void {
    const identity = filesIdentity(files);
    this.files = files;
    if (identity !== this.identity) {
      this.pictures.clear();
      this.unDrawable.clear();
    }
    this.identity = identity;
  }

  get current(): HotelFurniFiles {
    return this.files;
  }

  get filesId(): string {
    return this.identity;
  }

  /** The answer for a parsed request (undefined: a URL that names no item), for `client` (its rate). */
  async answer(req: HotelFurniRequest | undefined, usage: string, client = ''): Promise<HotelFurniAnswer> {
    if (!req) return this.notFound(`not found: name the furni, ${usage}\n`);
    const found = this.resolve(req);
    if ('reason' in found) return this.notFound(found.reason);
    const { base, colorId, idNote } = found;
    const identity = this.identity;
    const version = `${RENDERER_VERSION}/${identity}`;
    const pictureKey = `${version}\n${canonicalPicture(req, base, colorId)}`;
    const key = sha256Hex(`hotel-furni\n${pictureKey}\n${canonicalOutput(req)}`);
    const { cache, shared } = this.deps;
    const hot = cache.getMemory(key);
    if (hot) return { kind: 'image', image: hot, key, source: 'memory' };
    const running = this.inFlight.get(key);
    if (running) {
      this.counts.coalesced++;
      return running;
    }
    return this.inFlight.run(key, async (): Promise<HotelFurniAnswer> => {
      const onDisk = cache.hasDisk ? await cache.getDisk(key, version) : undefined;
      if (onDisk) return { kind: 'image', image: onDisk, key, source: 'disk' };
      if (shared) {
        const got = await shared.lookup(key);
        if (got.image) {
          const image = cachedImage(got.image, 1, version);
          cache.put(key, image);
          return { kind: 'image', image, key, source: 'redis' };
        }
      }
      if (this.deps.limit && !this.deps.limit(client)) {
        this.counts.limited++;
        return { kind: 'text', status: 429, reason: TOO_MANY_RENDERS, retryAfterS: 1 };
      }
      const broken = this.unDrawable.get(`${identity}\n${base}`);
      if (broken) return this.notFound(`nothing to draw for ${base}: ${broken}\n`);
      const held = this.pictures.get(pictureKey);
      const output = { crop: req.crop, ...(req.background ? { background: req.background } : {}), zoom: req.zoom };
      let done: FurniRenderOutput;
      try {
        done = await this.deps.render(
          held
            ? { picture: pictureData(held, false), output }
            : {
                draw: {
                  hotelRoot: this.files.bundles.hotelRoot,
                  signature: this.files.bundles.signature,
                  base,
                  req: {
                    icon: req.icon,
                    size: req.size,
                    ...(req.state !== undefined ? { state: req.state } : {}),
                    missingState: req.family === 'chroma' ? 'zero' : 'still',
                    ...(req.direction !== undefined ? { direction: req.direction } : {}),
                    tick: req.tick,
                    colorId,
                    shadow: req.shadow,
                  },
                },
                output,
              },
        );
      } catch (err) {
        return this.failed(err, base, identity, idNote);
      }
      if (done.picture) {
        this.counts.renders++;
        // Only pictures of the files still in service are kept (a reload may have come meanwhile).
        if (identity === this.identity) this.pictures.set(pictureKey, pictureOf(done.picture));
      }
      const body = done.body;
      this.counts.encodes++;
      const image = cachedImage(body, 1, version);
      cache.put(key, image);
      shared?.release(key, undefined, { image: body });
      return { kind: 'image', image, key, source: 'render' };
    });
  }

  /** What a render that drew nothing answers: 404 with the reason, or 429 when the workers are busy. */
  private failed(err: unknown, base: string, identity: string, idNote: string): HotelFurniAnswer {
    if (err instanceof RenderBusyError) {
      this.counts.limited++;
      return { kind: 'text', status: 429, reason: TOO_MANY_RENDERS, retryAfterS: 1 };
    }
    const code = err instanceof RenderFailedError ? err.code : '';
    const message = (err as Error)?.message ?? String(err);
    if (code === FURNI_FAILURES.noBundle) {
      const hint = this.files.flashOnly ? `; ${this.files.flashOnly}` : '';
      return this.notFound(`no furni ${base} in this hotel: ${message}${hint}${idNote}\n`);
    }
    if (code === FURNI_FAILURES.nothing) return this.notFound(`nothing to draw for ${base}: ${message}\n`);
    // The bundle broke the renderer, took longer than the render deadline or took its worker down: this item's
    // problem, not the service's. Not tried again with these files (a stuck bundle would cost a worker a request).
    this.counts.renderErrors++;
    this.deps.log?.('warn', 'furni not drawn', { classname: base, error: message });
    const reason = code === FURNI_FAILURES.broken ? `its bundle cannot be drawn (${message})` : message;
    if (identity === this.identity) this.unDrawable.set(`${identity}\n${base}`, reason);
    return this.notFound(`nothing to draw for ${base}: ${reason}\n`);
  }

  stats(): Record<string, number> {
    return { ...this.counts, pictures: this.pictures.size, pictureBytes: this.pictures.calculatedSize };
  }

  /** The base classname and colour a request names, or the 404's reason. */
  private resolve(req: HotelFurniRequest): { base: string; colorId: number; idNote: string } | { reason: string } {
    let classname: string | undefined;
    let idNote = '';
    const t: FurniTarget = req.target;
    if (t.kind === 'class') classname = t.classname;
    else {
      const { room, wall } = this.files.ids;
      const floor = t.wall ? undefined : room.get(t.id);
      const onWall = floor === undefined ? wall.get(t.id) : undefined;
      // A wall poster with an `extra` is that poster (`poster` + extra), as the client names it.
      classname =
        onWall === undefined ? floor : drawnClassname({ classname: onWall, kind: 'wall', extraData: t.extra ?? '' });
      if (classname === undefined) {
        const why = 'missing' in this.files.furnidata ? ` (${this.files.furnidata.missing})` : '';
        const idMiss = `no furni with ${t.wall ? 'wall item ' : ''}id ${t.id} in the hotel's furnidata${why}`;
        // Chroma's digits may also be a classname: tried next, and its 404 says both.
        if (req.alsoClass === undefined) return { reason: `${idMiss}\n` };
        classname = req.alsoClass;
        idNote = `; ${idMiss}`;
      }
    }
    const { base, colorId } = splitClassname(classname);
    if (!/^[A-Za-z0-9_.-]{1,100}$/.test(base))
      return { reason: `not found: ${JSON.stringify(classname)} is not a classname\n` };
    return { base, colorId: req.colorId ?? colorId ?? 0, idNote };
  }

  private notFound(reason: string): HotelFurniAnswer {
    this.counts.notFound++;
    return { kind: 'text', status: 404, reason };
  }
}

/** Where a Flash-layout hotel keeps its furni SWFs (what the 404 names when there are no bundles). */
export async function flashOnlyHint(assetsDir: string): Promise<string | undefined> {
  if (await isDir(join(assetsDir, 'bundled', 'furniture'))) return undefined;
  if (!(await isDir(join(assetsDir, 'hof_furni')))) return undefined;
  return (
    'this hotel keeps its furni as SWFs (hof_furni/, the Flash layout) and furni on demand draws Nitro bundles ' +
    '(bundled/furniture/<classname>.nitro): convert the hotel with `hotel-imager convert` and serve the result'
  );
}
