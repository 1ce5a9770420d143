// What /avatar.png answers, independent of the HTTP framework: parse, resolve a username, look in the
// caches, guard uncached renders with the limits, render in the pool, and turn every failure into the
// spec's fallback redirect (never a 5xx). Each request plans, keys and renders with the hotel in service
// when it arrived (a reload swaps in a new one between requests, never during one).
import { LRUCache } from 'lru-cache';
import {
  avatarRequest,
  usesEffects,
  usesExtras,
  withPart,
  type AvatarPart,
  type AvatarPose,
  type AvatarRequest,
} from '../../avatar/request.js';
import { sha256Hex } from '../../util/hash.js';
import { KeyedInflight } from '../../util/keyed-inflight.js';
import { avatarCacheKey, canonicalAvatarKey } from './cache-key.js';
import { fallbackLocation, FALLBACK_REASONS, type FallbackReason } from './fallback.js';
import {
  cachedImage,
  IMMUTABLE_CACHE_CONTROL,
  type CachedImage,
  type ImageCache,
  type ImageSource,
} from '../cache/image-cache.js';
import { imageFrameCount } from '../cache/png-frames.js';
import { type SharedAvatarCache, type SharedFailure } from '../cache/shared-cache.js';
import { type ClientRateLimiter, type RenderBudget } from '../../http/limits.js';
import { parseAvatarQuery, type AvatarIdentity } from './params.js';
import {
  RenderBusyError,
  RenderCrashError,
  RenderFailedError,
  type DebugRenderOutput,
  type RenderOutput,
} from '../render/render-pool.js';
import { type UserLookup } from './user-lookup.js';

/** A `?figure=` image never changes for its URL. */
export const FIGURE_CACHE_CONTROL = IMMUTABLE_CACHE_CONTROL;
export const USER_CACHE_CONTROL = 'public, max-age=3600, stale-while-revalidate=86400';

/**
 * A `?user=` image's Cache-Control for names kept `ttlMs`: the spec's hour when names are kept an hour or
 * more; shorter keeping (a database's minute) promises no longer, and no stale serving either, so a
 * changed look is not held by a browser or proxy past it.
 */
export function userCacheControl(ttlMs: number): string {
  const seconds = Math.floor(ttlMs / 1000);
  return seconds >= 3600 ? USER_CACHE_CONTROL : `public, max-age=${Math.max(0, seconds)}`;
}

/** One loaded hotel as requests plan with it (a generation: see hotel-reload.ts). */
export interface HotelView {
  readonly generation: number;
  /** Names the whole hotel: remembered failures are shared only between instances serving the same one. */
  readonly identity: string;
  /** Frames of the request's loop (1 = still); no library is loaded. */
  frameCount(req: AvatarRequest): number;
  /**
   * The first line of the request's cache key, part of its ETag: the renderer version and the digest of
   * what its render reads from this hotel (`renderInputs`). A reload that leaves those alone keeps it.
   */
  keyVersion(req: AvatarRequest): string;
  /** Why a request for one kind of layer names nothing this hotel has (an unknown effect or hand item). */
  missingSubject(req: AvatarRequest): string | undefined;
}

/** What the service needs from the renderer side: the hotel in service, and the pool for pixels. */
export interface AvatarRenderer {
  hotel(): HotelView;
  render(req: AvatarRequest, hotel: HotelView): Promise<RenderOutput>;
  renderDebug(req: AvatarRequest, hotel: HotelView): Promise<DebugRenderOutput>;
  /** Resolves true once a hotel newer than `generation` is in service (looking at the folder now), false after `ms`. */
  newerHotel(generation: number, ms: number): Promise<boolean>;
}

/** The render found a library file changed since its hotel was read (`asset-changed`, library.ts). */
const CHANGED_UNDER_IT = 'asset-changed';

export interface AvatarServiceDeps {
  renderer: AvatarRenderer;
  cache: ImageCache;
  users: UserLookup;
  /** Cache-Control of `?user=` images (userCacheControl of the name cache's life); USER_CACHE_CONTROL if absent. */
  userCacheControl?: string;
  clientRate: ClientRateLimiter;
  budget: RenderBudget;
  fallbackUrl: string;
  /** How long a failed key answers render-failed-cached without retrying. */
  failureTtlMs: number;
  /** Longest wait for the next hotel when a render found its hotel's files changed under it. */
  changedWaitMs: number;
  /** The cache every instance shares (Redis), behind the memory and disk caches; undefined = none. */
  shared?: SharedAvatarCache;
  log?: (level: 'info' | 'warn', msg: string, fields: Record<string, unknown>) => void;
}

export type AvatarAnswer =
  /** `generation`: of the hotel the key was made with (the URL map keeps keys of the hotel in service only). */
  | { kind: 'image'; image: CachedImage; key: string; cacheControl: string; source: ImageSource; generation: number }
  | { kind: 'bad-request'; reason: string }
  | { kind: 'fallback'; reason: FallbackReason; location: string; detail: string }
  /** An image of one kind of layer (`part`) that is not there: an unknown id, or nothing visible. */
  | { kind: 'not-found'; reason: string }
  /** An image of one kind of layer that could not be made now (busy, limited): ask again later. */
  | { kind: 'retry'; reason: FallbackReason; detail: string };

export type DebugAnswer =
  | { kind: 'debug'; req: AvatarRequest; key: string; canonicalKey: string; output: DebugRenderOutput }
  | { kind: 'bad-request'; reason: string }
  | { kind: 'failed'; req?: AvatarRequest; reason: FallbackReason; detail: string };

type Failure = SharedFailure;

/**
 * Joins the key of effect and dance requests only: raised when the answer to such a URL changes while the
 * renderer version does not, so disk and Redis entries written before are never served for it (what each
 * value changed: docs/avatar-service.md, "Key versions").
 */
const EFFECT_KEY_REVISION = 3;

/** Joins the key of GIF answers only (`img_format=gif`), for the same reason. */
const GIF_KEY_REVISION = 1;

/**
 * Joins the key of requests that use `gender`, `crop`, `bg`, `zoom` or draw one kind of layer (with the
 * kind): before these were read, such URLs were answered with the plain avatar, and entries of that
 * answer kept on disk or in Redis must not be served for them.
 */
const EXTRAS_KEY_REVISION = 1;

/** Bytes the remembered failures may hold together (~10,000 of them). */
export const FAILURE_CACHE_BYTES = 8 * 1024 * 1024;
/** A remembered message is cut here: it is a fallback's log detail, not a record of the request. */
const MAX_FAILURE_TEXT = 300;
/** The key (64 characters), the failure object and the LRU's bookkeeping (docs/avatar-service.md, "Memory"). */
const FAILURE_OVERHEAD = 300;
const failureBytes = (f: Failure): number => 2 * (f.code.length + f.message.length) + FAILURE_OVERHEAD;

/**
 * What a failed render leaves to remember. Only the renderer's judgement on the request counts: a full
 * queue or a worker that died under the job says nothing about the next try.
 */
function rememberedFailure(err: unknown): Failure | undefined {
  if (err instanceof RenderBusyError || err instanceof RenderCrashError) return undefined;
  if (err instanceof RenderFailedError && err.code === CHANGED_UNDER_IT) return undefined;
  const e = err as Error & { code?: string };
  return {
    code: String(e?.code ?? e?.name ?? 'Error').slice(0, MAX_FAILURE_TEXT),
    message: String(e?.message ?? err).slice(0, MAX_FAILURE_TEXT),
  };
}

export class AvatarService {
  private readonly failures: LRUCache<string, Failure>;
  /**
   * The one map of renders in flight, by cache key: a request for an image being made joins it, whatever
   * the making is (a render here, or a wait on another instance's under the shared lock). A key names what
   * the render reads, so requests planned with different hotel generations may share one.
   */
  private readonly pending = new KeyedInflight<{ image: CachedImage; source: ImageSource }>();
  /** Requests that joined a render in flight instead of starting one. */
  private coalesced = 0;
  readonly fallbackCounts: Record<FallbackReason, number>;
  private renders = 0;
  /** Requests whose render found the hotel's files changed, answered from the hotel loaded after. */
  private changedRetries = 0;

  constructor(private readonly deps: AvatarServiceDeps) {
    this.failures = new LRUCache<string, Failure>({
      maxSize: FAILURE_CACHE_BYTES,
      sizeCalculation: failureBytes,
      ttl: Math.max(1, deps.failureTtlMs),
    });
    this.fallbackCounts = Object.fromEntries(FALLBACK_REASONS.map((r) => [r, 0])) as Record<FallbackReason, number>;
  }

  /**
   * The answer to one /avatar.png query; `reqId` goes on the log line of a fallback. `retried`: a second
   * try on a newer hotel after the first found its files changed; the limits were charged by the first.
   */
  async answer(
    rawQuery: string,
    client: string,
    reqId?: string,
    retried = false,
    part?: AvatarPart,
  ): Promise<AvatarAnswer> {
    const parsed = parseAvatarQuery(rawQuery);
    if (!parsed.ok) return { kind: 'bad-request', reason: parsed.reason };
    const { identity, pairs } = parsed.query;
    const pose = part === undefined ? parsed.query.pose : withPart(parsed.query.pose, part);
    // The upstream imager has no picture of an effect or a held item alone: those are refused, never redirected.
    const fallback = (reason: FallbackReason, detail: string): AvatarAnswer =>
      part === undefined ? this.fallback(reason, detail, identity, pose, reqId) : partRefusal(reason, detail);
    const hotel = this.deps.renderer.hotel();
    try {
      // A `?figure=` request needs no lookup: no await, no extra turn of the event loop.
      const figure =
        identity.kind === 'figure' ? { ok: true as const, figure: identity.figure } : await this.figureOf(identity);
      if (!figure.ok) return fallback('user-unresolved', figure.detail);
      const req = this.request(figure.figure, pose, hotel);
      const missing = part === undefined ? undefined : hotel.missingSubject(req);
      if (missing !== undefined) return { kind: 'not-found', reason: missing };
      const version = this.keyVersion(req, hotel);
      const key = avatarCacheKey({
        pairs,
        identity,
        resolvedFigure: figure.figure,
        animates: req.animated,
        rendererVersion: version,
      });
      const cacheControl =
        identity.kind === 'figure' ? FIGURE_CACHE_CONTROL : (this.deps.userCacheControl ?? USER_CACHE_CONTROL);
      const answer = (image: CachedImage, source: ImageSource): AvatarAnswer => ({
        kind: 'image',
        image,
        key,
        cacheControl,
        source,
        generation: hotel.generation,
      });
      const hot = this.deps.cache.getMemory(key);
      if (hot) return answer(hot, 'memory');
      const onDisk = this.deps.cache.hasDisk ? await this.deps.cache.getDisk(key, version) : undefined;
      if (onDisk) return answer(onDisk, 'disk');
      let failed = this.failures.get(key);
      if (!failed && this.deps.shared && !this.pending.has(key)) {
        const found = await this.deps.shared.lookup(key, hotel.identity);
        if (found.image) return answer(this.keep(key, found.image, version), 'redis');
        if (found.failure) {
          failed = found.failure;
          this.remember(key, failed, hotel);
        }
      }
      if (failed) return fallback('render-failed-cached', `${failed.code}: ${failed.message}`);
      let job = this.pending.get(key);
      if (job) this.coalesced++;
      else {
        // Only a new render costs the client's rate and the instance's budget; joining one is free.
        if (!retried && !this.deps.clientRate.take(client))
          return fallback('rate-limited', `client ${client} is over its render rate`);
        if (!retried && !this.deps.budget.take())
          return fallback('no-budget', 'the render budget of this window is spent');
        job = this.pending.run(key, () => this.startRender(key, version, req, hotel));
      }
      const done = await job;
      return answer(done.image, done.source);
    } catch (err) {
      if (err instanceof RenderFailedError && err.code === CHANGED_UNDER_IT) {
        // The folder changed under the hotel in service (a reload under way): render on the next one.
        if (!retried && (await this.deps.renderer.newerHotel(hotel.generation, this.deps.changedWaitMs))) {
          this.changedRetries++;
          return this.answer(rawQuery, client, reqId, true, part);
        }
        // Still changing: a passing state, like a full queue.
        return fallback(
          'busy',
          retried
            ? `${err.message} (again, on the next hotel)`
            : `${err.message}; no newer hotel loaded within ${this.deps.changedWaitMs} ms`,
        );
      }
      if (err instanceof RenderBusyError) return fallback('busy', err.message);
      if (err instanceof RenderFailedError) return fallback('render-failed', `${err.code}: ${err.message}`);
      return fallback('unexpected', (err as Error)?.message ?? String(err));
    }
  }

  /**
   * A new hotel is in service: failures remembered under the old one are forgotten (a set that was
   * missing may exist now). Keys of unchanged renders are unchanged, so their images stay cached.
   */
  hotelSwapped(): void {
    this.failures.clear();
  }

  /** A fresh render with the layer description, for /render; never cached. */
  async debug(rawQuery: string, client: string): Promise<DebugAnswer> {
    const parsed = parseAvatarQuery(rawQuery);
    if (!parsed.ok) return { kind: 'bad-request', reason: parsed.reason };
    const { identity, pose, pairs } = parsed.query;
    let req: AvatarRequest | undefined;
    const hotel = this.deps.renderer.hotel();
    try {
      const figure = await this.figureOf(identity);
      if (!figure.ok) return { kind: 'failed', reason: 'user-unresolved', detail: figure.detail };
      req = this.request(figure.figure, pose, hotel);
      const canonicalKey = canonicalAvatarKey({
        pairs,
        identity,
        resolvedFigure: figure.figure,
        animates: req.animated,
        rendererVersion: this.keyVersion(req, hotel),
      });
      if (!this.deps.clientRate.take(client))
        return { kind: 'failed', req, reason: 'rate-limited', detail: `client ${client} is over its render rate` };
      const output = await this.deps.renderer.renderDebug(req, hotel);
      return { kind: 'debug', req, key: sha256Hex(canonicalKey), canonicalKey, output };
    } catch (err) {
      const reason: FallbackReason =
        err instanceof RenderBusyError ? 'busy' : err instanceof RenderFailedError ? 'render-failed' : 'unexpected';
      const detail =
        err instanceof RenderFailedError ? `${err.code}: ${err.message}` : ((err as Error)?.message ?? String(err));
      return { kind: 'failed', req, reason, detail };
    }
  }

  /** The image for a key if it is in memory (the raw hot path of the routes). */
  memoryImage(key: string): CachedImage | undefined {
    return this.deps.cache.getMemory(key);
  }

  stats(): {
    renders: number;
    inFlight: number;
    coalesced: number;
    recentFailures: number;
    recentFailureBytes: number;
    changedRetries: number;
    fallbacks: Record<FallbackReason, number>;
  } {
    return {
      renders: this.renders,
      coalesced: this.coalesced,
      changedRetries: this.changedRetries,
      inFlight: this.pending.size,
      recentFailures: this.failures.size,
      recentFailureBytes: this.failures.calculatedSize,
      fallbacks: { ...this.fallbackCounts },
    };
  }

  private async figureOf(
    identity: AvatarIdentity,
  ): Promise<{ ok: true; figure: string } | { ok: false; detail: string }> {
    if (identity.kind === 'figure') return { ok: true, figure: identity.figure };
    const found = await this.deps.users.resolve(identity.name);
    return found.ok ? { ok: true, figure: found.figure } : { ok: false, detail: `${found.reason}: ${found.detail}` };
  }

  /**
   * The first line of a cache key: the hotel's (renderer version and what the render reads), the GIF
   * revision for a GIF, the effect key revision for an effect or dance request, and the extras revision
   * (with the kind of layer drawn) for a request that uses the parameters beyond the spec's.
   */
  private keyVersion(req: AvatarRequest, hotel: HotelView): string {
    let version = req.format === 'gif' ? `${hotel.keyVersion(req)}/gif${GIF_KEY_REVISION}` : hotel.keyVersion(req);
    if (usesEffects(req)) version += `/fx${EFFECT_KEY_REVISION}`;
    if (usesExtras(req)) version += `/x${EXTRAS_KEY_REVISION}${req.part === undefined ? '' : `-${req.part}`}`;
    return version;
  }

  /**
   * The renderer's request: the normalized pose with its figure, settled on the pose's loop under this
   * crop (`settleLoop`: a pose that cannot animate is the plain still). Only a loop is counted.
   * This plans the pose of an animated request here, and the worker plans it again to draw it: the key
   * (whether the loop parameters join it) is needed before any cache is asked, so before a worker is, and
   * a plan cannot go to the worker with the job (it points into this thread's hotel objects; the worker
   * holds its own copy of the hotel). A still is planned once, in the worker.
   */
  private request(figure: string, pose: AvatarPose, hotel: HotelView): AvatarRequest {
    return avatarRequest(figure, pose, (req) => hotel.frameCount(req));
  }

  private startRender(
    key: string,
    version: string,
    req: AvatarRequest,
    hotel: HotelView,
  ): Promise<{ image: CachedImage; source: ImageSource }> {
    const shared = this.deps.shared;
    return shared
      ? this.renderShared(shared, key, version, req, hotel)
      : this.renderHere(key, version, req, hotel).then((image) => ({ image, source: 'render' as const }));
  }

  /** One render across instances: this one renders under the shared lock, or takes another's result. */
  private async renderShared(
    shared: SharedAvatarCache,
    key: string,
    version: string,
    req: AvatarRequest,
    hotel: HotelView,
  ): Promise<{ image: CachedImage; source: ImageSource }> {
    const claim = await shared.claim(key, hotel.identity);
    if (claim.kind === 'image') return { image: this.keep(key, claim.body, version), source: 'redis' };
    if (claim.kind === 'failed') {
      this.remember(key, claim.failure, hotel);
      throw new RenderFailedError(claim.failure.code, claim.failure.message);
    }
    try {
      const image = await this.renderHere(key, version, req, hotel);
      shared.release(key, claim.token, { image: image.body });
      return { image, source: 'render' };
    } catch (err) {
      const failure = rememberedFailure(err);
      shared.release(
        key,
        claim.token,
        failure && { failure, ttlMs: Math.max(1, this.deps.failureTtlMs), scope: hotel.identity },
      );
      throw err;
    }
  }

  private renderHere(key: string, version: string, req: AvatarRequest, hotel: HotelView): Promise<CachedImage> {
    return this.deps.renderer
      .render(req, hotel)
      .then((out) => {
        this.renders++;
        const image = cachedImage(out.body, out.frames, version);
        this.deps.cache.put(key, image);
        return image;
      })
      .catch((err: unknown) => {
        const failure = rememberedFailure(err);
        if (failure) this.remember(key, failure, hotel);
        throw err;
      });
  }

  /** A failure is remembered only while the hotel that produced it is in service. */
  private remember(key: string, failure: Failure, hotel: HotelView): void {
    if (hotel.generation === this.deps.renderer.hotel().generation) this.failures.set(key, failure);
  }

  /** An image from the shared cache, kept in this instance's caches too. */
  private keep(key: string, body: Buffer, version: string): CachedImage {
    const image = cachedImage(body, imageFrameCount(body), version);
    this.deps.cache.put(key, image);
    return image;
  }

  private fallback(
    reason: FallbackReason,
    detail: string,
    identity: AvatarIdentity,
    pose: AvatarPose,
    reqId: string | undefined,
  ): AvatarAnswer {
    this.fallbackCounts[reason]++;
    const location = fallbackLocation(this.deps.fallbackUrl, { identity, pose });
    this.deps.log?.(
      reason === 'unexpected' ? 'warn' : 'info',
      'avatar fallback',
      reqId === undefined ? { reason, detail } : { reqId, reason, detail },
    );
    return { kind: 'fallback', reason, location, detail };
  }
}

/**
 * What an effect or hand-item image answers instead of a fallback: a figure or id that cannot be drawn
 * (or draws nothing) is not there, 404 with the reason; a full queue or a spent rate is a moment, 429.
 */
function partRefusal(reason: FallbackReason, detail: string): AvatarAnswer {
  if (reason === 'render-failed' || reason === 'render-failed-cached' || reason === 'user-unresolved')
    return { kind: 'not-found', reason: `${detail}\n` };
  return { kind: 'retry', reason, detail };
}
