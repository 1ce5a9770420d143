// What the pet picture (the pet route, server/pet/) answers, independent of HTTP: a pet alone, drawn from the
// hotel's own pet libraries (`bundled/pet/<name>.nitro`) as the client's pet visualization draws it. The figure
// comes from the query, or from the hotel's database (`id=`, a users_pets row, read at most once per
// PET_ROW_TTL_MS per id). The key digests the canonical request, the pet renderer version and the content of
// the one library the pet is drawn with (read when the pet folder's signature changes), so a changed library is
// a new key and a new ETag, and an unchanged one keeps both, on every instance sharing Redis. The pixel work
// runs in the avatar service's render workers (a pet job), behind the same per-client rate and instance
// budget as avatars and furni on demand.
//
// No upstream imager draws pets, so there is nothing to redirect to: what cannot be drawn now (the workers
// busy or past their deadline, a worker lost, the database away) is a 503 with Retry-After, as the room route
// answers; a client over its render rate is a 429, as furni on demand answers; a pet that is not there
// (no such id, a type without a library, nothing to draw) is a 404 with the reason.
import { LRUCache } from 'lru-cache';
import { readFile } from 'node:fs/promises';
import { petLibraryFile, PET_DIR } from '../../hotel/pet.js';
import { type PetFigure, PetFigureError, parsePetFigure } from '../../pet/figure.js';
import { type StoredPet, petOf } from '../../pet/stored.js';
import { DEFAULT_PET_TYPES, petLibraryName } from '../../pet/types.js';
import { sha256Hex } from '../../util/hash.js';
import { KeyedInflight } from '../../util/keyed-inflight.js';
import {
  cachedImage,
  IMMUTABLE_CACHE_CONTROL,
  type CachedImage,
  type ImageCache,
  type ImageSource,
} from '../cache/image-cache.js';
import { imageFrameCount } from '../cache/png-frames.js';
import { type SharedAvatarCache } from '../cache/shared-cache.js';
import { RenderBusyError, RenderCrashError, RenderFailedError, type RenderOutput } from '../render/render-pool.js';
import { PET_FAILURES, type PetWork } from '../render/render-protocol.js';
import { canonicalPetRequest, parsePetQuery } from './params.js';

/**
 * Joins every key and ETag: raised when the pictures of unchanged libraries change (the drawing, the output
 * steps, the encoders), so entries kept on disk or in Redis are not served for them.
 */
export const PET_RENDERER_VERSION = 'pet-1';

/** A `figure=` picture never changes for its URL and library: cached like an avatar's `figure=`. */
export const PET_FIGURE_CACHE_CONTROL = IMMUTABLE_CACHE_CONTROL;
/** An `id=` picture follows the pet's row: a dyed pet shows within a minute, as a moved chair in a room does. */
export const PET_ID_CACHE_CONTROL = 'public, max-age=60';
/** A users_pets row is read again after this long. */
export const PET_ROW_TTL_MS = 10_000;
/** How long a client waits before asking again after a 503 (as the room route). */
export const PET_RETRY_AFTER_S = 5;

export type PetAnswer =
  | { kind: 'image'; image: CachedImage; key: string; source: ImageSource; cacheControl: string }
  | { kind: 'text'; status: 400 | 404 | 429 | 503; reason: string; retryAfterS?: number };

/** The pet folder the service draws from: swapped whole on a reload. */
export interface PetFolder {
  hotelRoot: string;
  /** The folder's signature (names, sizes, times of `bundled/pet/`): the workers' library cache key. */
  signature: string;
}

/** What the service needs of the hotel database client (src/database's HotelDatabase has it). */
export interface PetQueries {
  run(query: 'pet', params: Record<string, string | number>): Promise<Record<string, string | number | null>[]>;
}

export interface PetServiceDeps {
  /** The pet folder in service, or why pets are off (the hotel folder has no `bundled/pet/`). */
  folder: () => PetFolder | { off: string };
  cache: ImageCache;
  shared?: SharedAvatarCache;
  /** Draws and encodes off the event loop: the avatar render pool's `renderPet`. */
  render: (work: PetWork) => Promise<RenderOutput>;
  /** Takes one render from the client's rate and the instance's budget; false answers 429. */
  limit?: (client: string) => boolean;
  /** The hotel's database, for `id=`; absent: `id=` is a 404 saying so. */
  database?: PetQueries;
  /** The hotel's pet type list (type id → library name); the public client's by default. */
  types?: readonly string[];
  log?: (level: 'info' | 'warn' | 'error', msg: string, fields: Record<string, unknown>) => void;
}

export class PetService {
  /** Library content digests ('' for no file) by library name, of the folder signature `digestsOf`. */
  private digests = new Map<string, string>();
  private digestsOf = '';
  private readonly digesting = new KeyedInflight<string>();
  private readonly rows = new LRUCache<number, { pet: StoredPet | null }>({ max: 10_000, ttl: PET_ROW_TTL_MS });
  private readonly reading = new KeyedInflight<StoredPet | null>();
  /** The one map of renders in flight, by cache key. */
  private readonly inFlight = new KeyedInflight<{ image: CachedImage; source: ImageSource }>();
  private readonly counts = {
    renders: 0,
    coalesced: 0,
    badRequests: 0,
    notFound: 0,
    limited: 0,
    unavailable: 0,
    renderErrors: 0,
    rowReads: 0,
  };

  constructor(private readonly deps: PetServiceDeps) {}

  /** The answer to one query string, for `client` (its render rate). */
  async answer(query: string, client = ''): Promise<PetAnswer> {
    const parsed = parsePetQuery(query);
    if (!parsed.ok) {
      this.counts.badRequests++;
      return { kind: 'text', status: 400, reason: parsed.reason };
    }
    const req = parsed.req;
    let figure: PetFigure;
    let actions = req.actions;
    let cacheControl = PET_FIGURE_CACHE_CONTROL;
    if (req.identity.kind === 'figure') figure = req.identity.figure;
    else {
      const id = req.identity.id;
      if (!this.deps.database)
        return this.notFound(
          `pet ${id}: pet pictures by id read the hotel's database, and this service has none (--database); ` +
            'use figure=<pet figure string>\n',
        );
      let pet: StoredPet | null;
      try {
        pet = await this.storedPet(id);
      } catch (err) {
        const kind = (err as { kind?: unknown }).kind;
        const message = (err as Error)?.message ?? String(err);
        // The database answered with an error for this query (no users_pets, no grant): not a passing state.
        if (kind === 'query') return this.notFound(`pet ${id}: the database cannot read pets (${message})\n`);
        return this.unavailable(
          `the pet's row could not be read (${typeof kind === 'string' ? `${kind}: ` : ''}${message})`,
        );
      }
      if (!pet) return this.notFound(`no pet ${id} in this hotel (users_pets has no row with that id)\n`);
      try {
        figure = parsePetFigure(pet.figure);
      } catch (err) {
        if (!(err instanceof PetFigureError)) throw err;
        return this.notFound(`pet ${id} cannot be drawn: its figure ${JSON.stringify(pet.figure)}: ${err.message}\n`);
      }
      if (actions.length === 0) actions = [pet.posture];
      cacheControl = PET_ID_CACHE_CONTROL;
    }
    const folder = this.deps.folder();
    if ('off' in folder) return this.notFound(`pets are off: ${folder.off}\n`);
    const name = petLibraryName(figure.typeId, this.deps.types ?? DEFAULT_PET_TYPES);
    if (name === undefined)
      return this.notFound(
        `no pet type ${figure.typeId}: the pet type list has ${this.typeCount()} types (0–${this.typeCount() - 1})\n`,
      );
    const digest = await this.libraryDigest(folder, name);
    if (digest === undefined)
      return this.notFound(`no pet library ${PET_DIR}/${name}.nitro in this hotel (pet type ${figure.typeId})\n`);
    const version = `${PET_RENDERER_VERSION}/${digest.slice(0, 16)}`;
    const canonical = canonicalPetRequest(figure, req, actions);
    const key = sha256Hex(`pet\n${version}\n${canonical}`);
    const answer = (image: CachedImage, source: ImageSource): PetAnswer => ({
      kind: 'image',
      image,
      key,
      source,
      cacheControl,
    });
    const { cache, shared } = this.deps;
    const hot = cache.getMemory(key);
    if (hot) return answer(hot, 'memory');
    if (this.inFlight.has(key)) this.counts.coalesced++;
    const work = this.inFlight.run(key, async () => {
      const onDisk = cache.hasDisk ? await cache.getDisk(key, version) : undefined;
      if (onDisk) return { image: onDisk, source: 'disk' as const };
      if (shared) {
        const got = await shared.lookup(key);
        if (got.image) {
          const image = cachedImage(got.image, imageFrameCount(got.image), version);
          cache.put(key, image);
          return { image, source: 'redis' as const };
        }
      }
      if (this.deps.limit && !this.deps.limit(client)) throw new Limited();
      const done = await this.deps.render({
        hotelRoot: folder.hotelRoot,
        signature: folder.signature,
        figure,
        actions,
        direction: req.direction,
        headDirection: req.headDirection,
        size: req.size,
        animated: req.animated,
        format: req.format,
        ...(req.background ? { background: req.background } : {}),
        ...(req.zoom ? { zoom: req.zoom } : {}),
      });
      this.counts.renders++;
      const image = cachedImage(done.body, done.frames, version);
      cache.put(key, image);
      shared?.release(key, undefined, { image: done.body });
      return { image, source: 'render' as const };
    });
    return this.settle(work, answer, name);
  }

  /** The pet folder changed (a reload): library digests are read again, pet rows too. */
  folderChanged(): void {
    this.digests = new Map();
    this.digestsOf = '';
    this.rows.clear();
  }

  stats(): Record<string, number> {
    return { ...this.counts, inFlight: this.inFlight.size, rows: this.rows.size };
  }

  private typeCount(): number {
    return (this.deps.types ?? DEFAULT_PET_TYPES).length;
  }

  /** The image of a render (or a tier), or the answer its failure gives. */
  private async settle(
    work: Promise<{ image: CachedImage; source: ImageSource }>,
    answer: (image: CachedImage, source: ImageSource) => PetAnswer,
    library: string,
  ): Promise<PetAnswer> {
    try {
      const { image, source } = await work;
      return answer(image, source);
    } catch (err) {
      return this.failed(err, library);
    }
  }

  private failed(err: unknown, library: string): PetAnswer {
    if (err instanceof Limited) {
      this.counts.limited++;
      return { kind: 'text', status: 429, reason: 'too many renders: try again in a second\n', retryAfterS: 1 };
    }
    const message = (err as Error)?.message ?? String(err);
    if (err instanceof RenderFailedError) {
      if (err.code === PET_FAILURES.noLibrary)
        return this.notFound(`pet library ${library} cannot be read: ${message}\n`);
      if (err.code === PET_FAILURES.nothing) return this.notFound(`nothing to draw: ${message}\n`);
      if (err.code === PET_FAILURES.broken) {
        this.counts.renderErrors++;
        this.deps.log?.('warn', 'pet not drawn', { library, error: message });
        return this.notFound(`pet library ${library} cannot be drawn (${message})\n`);
      }
    }
    // The workers busy or past their deadline, or a worker lost under the job: the pet is fine, try again later.
    if (!(err instanceof RenderBusyError || err instanceof RenderCrashError || err instanceof RenderFailedError))
      this.deps.log?.('error', 'pet render failed', { library, error: message });
    return this.unavailable(message);
  }

  private notFound(reason: string): PetAnswer {
    this.counts.notFound++;
    return { kind: 'text', status: 404, reason };
  }

  private unavailable(why: string): PetAnswer {
    this.counts.unavailable++;
    return {
      kind: 'text',
      status: 503,
      reason: `the pet cannot be drawn now: ${why}; try again in ${PET_RETRY_AFTER_S} s\n`,
      retryAfterS: PET_RETRY_AFTER_S,
    };
  }

  /**
   * The SHA-256 of a library's file, read once per folder signature (undefined: the hotel has no such file). What
   * a picture is drawn from, whatever the file's times: a copy of the same library keeps its keys and ETags.
   */
  private async libraryDigest(folder: PetFolder, name: string): Promise<string | undefined> {
    if (this.digestsOf !== folder.signature) {
      this.digests = new Map();
      this.digestsOf = folder.signature;
    }
    const known = this.digests.get(name);
    if (known !== undefined) return known || undefined;
    const digests = this.digests;
    try {
      const digest = await this.digesting.run(`${folder.signature}\0${name}`, async () => {
        const file = await petLibraryFile(folder.hotelRoot, name);
        return file === undefined ? '' : sha256Hex(await readFile(file));
      });
      digests.set(name, digest);
      return digest || undefined;
    } catch {
      // A file that could not be read is looked at again by the next request.
      return undefined;
    }
  }

  /** A users_pets row by id (null: no such pet), read at most once per PET_ROW_TTL_MS; lookups coalesced. */
  private storedPet(id: number): Promise<StoredPet | null> {
    const known = this.rows.get(id);
    if (known) return Promise.resolve(known.pet);
    if (!this.reading.has(String(id))) this.counts.rowReads++;
    return this.reading.run(String(id), async () => {
      const [row] = await this.deps.database!.run('pet', { pet_id: id });
      const pet = row ? petOf(row) : null;
      this.rows.set(id, { pet });
      return pet;
    });
  }
}

/** A render refused by the client's rate or the instance's budget (answered 429). */
class Limited extends Error {}
