// What the room routes answer, independent of HTTP. A room changes whenever somebody moves a chair, so its
// picture is keyed by a digest of everything drawn: the room's data as read (its canonical JSON), the assets'
// identity, the options and the renderer version. Rows are read at most once per `rereadMs` per room (reads
// coalesced: concurrent requests for one room share one read); within that window the key is known without
// asking the database, and an unchanged room after it costs one read and a memory hit. The response's max-age
// is what is left of ROOM_FRESH_S after the re-read window, so a moved chair shows in every answer within
// ROOM_FRESH_S.
//
// Renders run in the render workers (the composition hands over the pool's `renderRoom`; renderRoom on this
// thread when none is given), at most `renderJobs` at once with a bounded queue, and the PNG is encoded here by
// libvips, off the event loop. Every wait is bounded: the database client's per-query
// deadline, a read deadline, a queue wait and a render deadline; past one the answer is the last image of the
// room (marked stale) or a 503 with Retry-After, never a hung request.
import {
  encodeRoomAnimation,
  encodeRoomPicture,
  encodeThumbnail,
  ROOM_RENDERER_VERSION,
  renderRoom,
  THUMBNAIL_SIZE,
  type RoomAssets,
  type RoomData,
  type RoomPicture,
  type RoomRenderOptions,
} from '../../room/index.js';
import { LRUCache } from 'lru-cache';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isPng } from '../../imaging/png.js';
import { sha256Hex } from '../../util/hash.js';
import { KeyedInflight } from '../../util/keyed-inflight.js';
import { RenderBusyError, RenderCrashError, RenderFailedError } from '../render/render-pool.js';
import { cachedImage, type CachedImage, type ImageCache, type ImageSource } from '../cache/image-cache.js';
import { type SharedAvatarCache } from '../cache/shared-cache.js';
import { canonicalOptions, parseRoomQuery, type RoomRequest } from './params.js';
import { RoomDataError, type RoomRead, type RoomSource } from './source.js';

/** A moved chair is in every answer, browsers' copies included, within this many seconds. */
export const ROOM_FRESH_S = 60;
/** A browser may show the held picture this long past its max-age while it asks again. */
export const ROOM_STALE_WHILE_REVALIDATE_S = 60;
/** How long a client waits before asking again after a 503. */
export const ROOM_RETRY_AFTER_S = 5;
/** A stale answer (the database away) is kept briefly: the next request may find the database back. */
export const ROOM_STALE_CACHE_CONTROL = 'public, max-age=5';

export interface RoomServiceOptions {
  /** Rows are read again after this long (ms); default 10 s, at most ROOM_FRESH_S. */
  rereadMs: number;
  maxItems: number;
  maxBots: number;
  /** Renders at once on this thread. */
  renderJobs: number;
  /** Renders waiting for a turn; more are answered 503 at once. */
  maxQueue: number;
  /** Longest wait for a room's rows (the database's own per-query deadline is shorter). */
  readTimeoutMs: number;
  /** Longest wait for a render, its turn included. */
  renderTimeoutMs: number;
}

export const DEFAULT_ROOM_OPTIONS: RoomServiceOptions = {
  rereadMs: 10_000,
  maxItems: 5000,
  maxBots: 200,
  renderJobs: 2,
  maxQueue: 64,
  readTimeoutMs: 5000,
  renderTimeoutMs: 15_000,
};

export type RoomRenderer = (room: RoomData, assets: RoomAssets, options: RoomRenderOptions) => Promise<RoomPicture>;

export interface RoomServiceDeps {
  source: RoomSource;
  /** The room assets in service (swapped on a hotel reload). */
  assets: () => RoomAssets;
  cache: ImageCache;
  shared?: SharedAvatarCache;
  /** The hotel's stored room thumbnails (`<room id>.png`), `--room-thumbnails`. */
  thumbnailsDir?: string;
  /** renderRoom unless a test says otherwise. */
  render?: RoomRenderer;
  log?: (level: 'info' | 'warn' | 'error', msg: string, fields: Record<string, unknown>) => void;
}

export type RoomAnswer =
  | {
      kind: 'image';
      image: CachedImage;
      key: string;
      source: ImageSource;
      cacheControl: string;
      /** Why this is the last image held rather than the room now (the database away). */
      stale?: string;
      /** A thumbnail answer: the hotel's stored file or our render. */
      thumbnail?: 'stored' | 'rendered';
    }
  | { kind: 'text'; status: 404 | 503; reason: string; retryAfterS?: number };

export interface RoomDebugAnswer {
  kind: 'debug';
  request: RoomRequest;
  read: RoomRead;
  source: RoomSource['kind'];
  picture: RoomPicture;
  body: Buffer;
  key: string;
  canonicalKey: string;
  identity: string;
}

/** What is known of a room: what its rows said when last read. */
interface RoomState {
  read: RoomRead | null;
  /** Digest of the read's canonical JSON ('' for no room). */
  digest: string;
  readAt: number;
}

class Unavailable extends Error {}

function withDeadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Unavailable(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

/** Database errors (src/database's DatabaseError) carry a kind; anything else thrown by a read is the source's. */
function describeReadError(err: unknown): string {
  const kind = (err as { kind?: unknown }).kind;
  const message = (err as Error).message ?? String(err);
  return typeof kind === 'string' ? `${kind}: ${message}` : message;
}

export class RoomService {
  readonly options: RoomServiceOptions;
  /** Rooms by id, bounded by what their data holds (items and bots). */
  private readonly rooms: LRUCache<number, RoomState>;
  /** Reads in flight, by room id (in decimal). */
  private readonly reading = new KeyedInflight<RoomState>();
  /** Renders in flight, by cache key: the image alone (a joiner's source is 'render'). */
  private readonly rendering = new KeyedInflight<CachedImage>();
  /** The key last answered for a room and options: what is served stale while the database is away. */
  private readonly lastKeys = new LRUCache<string, string>({ max: 50_000 });
  private running = 0;
  private readonly queue: (() => void)[] = [];
  private readonly counts = {
    reads: 0,
    readErrors: 0,
    renders: 0,
    renderErrors: 0,
    coalescedReads: 0,
    coalescedRenders: 0,
    notFound: 0,
    stale: 0,
    unavailable: 0,
    queueFull: 0,
    storedThumbnails: 0,
  };
  private readonly render: RoomRenderer;

  constructor(
    private readonly deps: RoomServiceDeps,
    options: Partial<RoomServiceOptions> = {},
  ) {
    this.options = { ...DEFAULT_ROOM_OPTIONS, ...options };
    this.options.rereadMs = Math.min(this.options.rereadMs, ROOM_FRESH_S * 1000);
    this.rooms = new LRUCache<number, RoomState>({
      maxSize: 500_000,
      sizeCalculation: (s) => 1 + (s.read ? s.read.room.items.length + s.read.room.bots.length : 0),
    });
    this.render = deps.render ?? renderRoom;
  }

  get sourceKind(): RoomSource['kind'] {
    return this.deps.source.kind;
  }

  /** The Cache-Control of a fresh answer: the rest of ROOM_FRESH_S after the re-read window. */
  get cacheControl(): string {
    const maxAge = Math.max(0, ROOM_FRESH_S - Math.ceil(this.options.rereadMs / 1000));
    return `public, max-age=${maxAge}, stale-while-revalidate=${ROOM_STALE_WHILE_REVALIDATE_S}`;
  }

  /** The picture of a room for a query string; `format` is the path's (`.gif`: the room as it moves). */
  answer(roomId: number, query: string, format: 'png' | 'gif' = 'png'): Promise<RoomAnswer> {
    return this.answerFor(parseRoomQuery(roomId, query, format), false);
  }

  /**
   * The navigator's thumbnail of a room (the thumbnail route of server/room/, the client's camera.url): the
   * hotel's stored `<id>.png` when the operator named their folder and it has one, else the room at size 32
   * fitted into the THUMBNAIL_SIZE square the client shows.
   */
  async thumbnail(roomId: number): Promise<RoomAnswer> {
    const dir = this.deps.thumbnailsDir;
    if (dir !== undefined) {
      const file = join(dir, `${roomId}.png`);
      let body: Buffer | undefined;
      try {
        body = await readFile(file);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ENOTDIR')
          this.deps.log?.('warn', 'stored room thumbnail unreadable', { file, error: (err as Error).message });
      }
      if (body !== undefined && isPng(body)) {
        this.counts.storedThumbnails++;
        const image = cachedImage(body, 1, 'stored-thumbnail');
        return { kind: 'image', image, key: '', source: 'disk', cacheControl: this.cacheControl, thumbnail: 'stored' };
      }
    }
    return this.answerFor(parseRoomQuery(roomId, 'size=s'), true);
  }

  private async answerFor(req: RoomRequest, thumb: boolean): Promise<RoomAnswer> {
    const roomId = req.roomId;
    const lastKey = `${thumb ? 'thumb:' : ''}${roomId}?${canonicalOptions(req)}`;
    let state: RoomState;
    try {
      state = await this.state(roomId);
    } catch (err) {
      if (err instanceof RoomDataError) return this.notFound(`room ${roomId} cannot be drawn: ${err.message}\n`);
      return this.heldOr503(lastKey, `the room's data could not be read (${describeReadError(err)})`);
    }
    if (!state.read) return this.notFound(`no room ${roomId} in this hotel\n`);
    const assets = this.deps.assets();
    const { key, version } = roomKey(state.digest, assets.identity, req, thumb);
    this.lastKeys.set(lastKey, key);
    const hit = this.deps.cache.getMemory(key);
    if (hit) return this.image(hit, key, 'memory', thumb);
    try {
      const { image, source } = await this.imageOf(key, version, state.read, assets, req, thumb);
      return this.image(image, key, source, thumb);
    } catch (err) {
      if (err instanceof Unavailable) return this.heldOr503(lastKey, err.message);
      throw err;
    }
  }

  /** A fresh render of the room with its report, for the debug page; never cached. */
  async debug(roomId: number, query: string): Promise<RoomDebugAnswer | Extract<RoomAnswer, { kind: 'text' }>> {
    const req = parseRoomQuery(roomId, query);
    let state: RoomState;
    try {
      state = await this.state(roomId);
    } catch (err) {
      if (err instanceof RoomDataError) return this.notFound(`room ${roomId} cannot be drawn: ${err.message}\n`);
      return this.unavailable(`the room's data could not be read (${describeReadError(err)})`);
    }
    if (!state.read) return this.notFound(`no room ${roomId} in this hotel\n`);
    const assets = this.deps.assets();
    const { key, canonical } = roomKey(state.digest, assets.identity, req);
    try {
      const picture = await this.turn(() => this.render(state.read!.room, assets, req.options));
      const body = await encodeRoomPicture(picture, req.bg, req.zoom);
      return {
        kind: 'debug',
        request: req,
        read: state.read,
        source: this.deps.source.kind,
        picture,
        body,
        key,
        canonicalKey: canonical,
        identity: assets.identity,
      };
    } catch (err) {
      if (err instanceof Unavailable) return this.unavailable(err.message);
      throw err;
    }
  }

  stats(): Record<string, number> {
    return {
      ...this.counts,
      rooms: this.rooms.size,
      rendering: this.running,
      queued: this.queue.length,
    };
  }

  /** Forgets what was read (a hotel reload: the same rows may draw differently). */
  forget(): void {
    this.rooms.clear();
  }

  private image(image: CachedImage, key: string, source: ImageSource, thumb: boolean): RoomAnswer {
    const answer: RoomAnswer = { kind: 'image', image, key, source, cacheControl: this.cacheControl };
    if (thumb) answer.thumbnail = 'rendered';
    return answer;
  }

  private notFound(reason: string): Extract<RoomAnswer, { kind: 'text' }> {
    this.counts.notFound++;
    return { kind: 'text', status: 404, reason };
  }

  private unavailable(why: string): Extract<RoomAnswer, { kind: 'text' }> {
    this.counts.unavailable++;
    return {
      kind: 'text',
      status: 503,
      reason: `the room cannot be drawn now: ${why}; try again in ${ROOM_RETRY_AFTER_S} s\n`,
      retryAfterS: ROOM_RETRY_AFTER_S,
    };
  }

  /** The last image answered for this room and options, marked stale; else 503. */
  private heldOr503(lastKey: string, why: string): RoomAnswer {
    const key = this.lastKeys.get(lastKey);
    const held = key === undefined ? undefined : this.deps.cache.getMemory(key);
    if (key !== undefined && held) {
      this.counts.stale++;
      return { kind: 'image', image: held, key, source: 'memory', cacheControl: ROOM_STALE_CACHE_CONTROL, stale: why };
    }
    return this.unavailable(why);
  }

  /** What the room's rows say, read at most once per re-read window (concurrent callers share one read). */
  private state(roomId: number): Promise<RoomState> {
    const known = this.rooms.get(roomId);
    if (known && Date.now() - known.readAt < this.options.rereadMs) return Promise.resolve(known);
    const key = String(roomId);
    if (this.reading.has(key)) this.counts.coalescedReads++;
    return this.reading.run(key, () => this.readRoom(roomId));
  }

  private async readRoom(roomId: number): Promise<RoomState> {
    this.counts.reads++;
    const { maxItems, maxBots, readTimeoutMs } = this.options;
    let read: RoomRead | null;
    try {
      read = await withDeadline(
        this.deps.source.read(roomId, { maxItems, maxBots }),
        readTimeoutMs,
        'reading the room',
      );
    } catch (err) {
      this.counts.readErrors++;
      throw err;
    }
    const digest = read ? sha256Hex(JSON.stringify(read)) : '';
    const state: RoomState = { read, digest, readAt: Date.now() };
    this.rooms.set(roomId, state);
    return state;
  }

  /** The image of a key from the tiers below memory, else rendered once however many ask at once. */
  private async imageOf(
    key: string,
    version: string,
    read: RoomRead,
    assets: RoomAssets,
    req: RoomRequest,
    thumb: boolean,
  ): Promise<{ image: CachedImage; source: ImageSource }> {
    const { cache, shared } = this.deps;
    if (cache.hasDisk) {
      const onDisk = await cache.getDisk(key, version);
      if (onDisk) return { image: onDisk, source: 'disk' };
    }
    const inFlight = this.rendering.get(key);
    if (inFlight) {
      this.counts.coalescedRenders++;
      return { image: await inFlight, source: 'render' };
    }
    const made = (async (): Promise<{ image: CachedImage; source: ImageSource }> => {
      if (shared) {
        const found = await shared.lookup(key);
        if (found.image) {
          const image = cachedImage(found.image, 1, version);
          cache.put(key, image);
          return { image, source: 'redis' };
        }
      }
      const { body, frames } = await this.turn(async () => {
        const picture = await this.render(read.room, assets, req.options);
        if (thumb) return { body: await encodeThumbnail(picture), frames: 1 };
        if (req.motion) return encodeRoomAnimation(picture, req.motion, req.bg, req.zoom);
        return { body: await encodeRoomPicture(picture, req.bg, req.zoom), frames: 1 };
      });
      this.counts.renders++;
      const image = cachedImage(body, frames, version);
      cache.put(key, image);
      shared?.release(key, undefined, { image: body });
      return { image, source: 'render' };
    })();
    // Nothing is in flight for the key (asked just above, with no await since): `made` is what joiners share.
    const imageOnly = this.rendering.run(key, () => made.then((m) => m.image));
    imageOnly.catch(() => undefined);
    try {
      return await made;
    } catch (err) {
      if (!(err instanceof Unavailable)) {
        this.counts.renderErrors++;
        this.deps.log?.('error', 'room render failed', { room: read.room.id, error: (err as Error).message });
      }
      throw err;
    }
  }

  /** Runs a render when a turn is free, within the render deadline (its wait included). */
  private async turn<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.options.renderJobs && this.queue.length >= this.options.maxQueue) {
      this.counts.queueFull++;
      throw new Unavailable(`${this.queue.length} room renders are already waiting`);
    }
    const started = Date.now();
    if (this.running >= this.options.renderJobs) {
      let entry: () => void = () => undefined;
      const waited = new Promise<void>((resolve) => {
        entry = resolve;
        this.queue.push(resolve);
      });
      try {
        await withDeadline(waited, this.options.renderTimeoutMs, 'waiting for a room render turn');
      } catch (err) {
        const i = this.queue.indexOf(entry);
        if (i >= 0) this.queue.splice(i, 1);
        else {
          // The turn came as the deadline passed: take it and hand it on.
          this.running++;
          this.release();
        }
        throw err;
      }
    }
    this.running++;
    const left = Math.max(1, this.options.renderTimeoutMs - (Date.now() - started));
    // The work keeps its turn until it really ends, even when the request has stopped waiting for it.
    const work$ = work()
      .catch((err: unknown) => {
        // The render workers busy, past their deadline or crashed: the room is fine, try again later.
        if (err instanceof RenderBusyError || err instanceof RenderCrashError) throw new Unavailable(err.message);
        if (err instanceof RenderFailedError && err.code === 'timeout') throw new Unavailable(err.message);
        throw err;
      })
      .finally(() => this.release());
    return withDeadline(work$, left, 'the room render');
  }

  private release(): void {
    this.running--;
    const next = this.queue.shift();
    if (next) next();
  }
}

/**
 * The cache key: renderer version, assets identity, the options (canonical) and the digest of the room's data
 * as read. Digested like the other kinds' keys; the `room` line keeps the kinds apart.
 */
export function roomKey(
  roomDigest: string,
  identity: string,
  req: RoomRequest,
  thumbnail = false,
): { key: string; canonical: string; version: string } {
  const version = `${ROOM_RENDERER_VERSION}/${identity}`;
  const kind = thumbnail ? `room-thumbnail ${THUMBNAIL_SIZE}` : 'room';
  const canonical = `${kind}\n${version}\n${canonicalOptions(req)}\n${req.roomId}\n${roomDigest}`;
  return { key: sha256Hex(canonical), canonical, version };
}
