// What the badge routes answer, independent of HTTP: read the URL, look in the avatar service's caches
// (memory, disk, then the shared Redis cache), else draw the badge here and keep it. A badge is 39×39
// from images already in memory: drawing and encoding it costs about what one Redis round trip does, so
// it is done on the request's own thread, with no render lock (see docs/badges.md for the figures).
// The hotel's badge data is an immutable BadgeHotel; `swap` puts a reloaded one in place. Keys and
// ETags carry its identity, so nothing cached from older data is ever served for the new.
import {
  BADGE_RENDERER_VERSION,
  canonicalParts,
  planBadge,
  renderBadge,
  type BadgeHotel,
  type BadgeLoadResult,
  type BadgePlan,
} from '../../badge/index.js';
import { sha256Hex } from '../../util/hash.js';
import { HotUrls } from '../cache/hot-urls.js';
import {
  cachedImage,
  IMMUTABLE_CACHE_CONTROL,
  type CachedImage,
  type ImageCache,
  type ImageSource,
} from '../cache/image-cache.js';
import { type SharedAvatarCache } from '../cache/shared-cache.js';
import { parseBadgeRequest, type BadgeRequest, type BadgeRoute } from './params.js';

/** A code names one picture for a given part set: cached like a `?figure=` avatar. */
export const BADGE_CACHE_CONTROL = IMMUTABLE_CACHE_CONTROL;

export type BadgeAnswer =
  | { kind: 'image'; image: CachedImage; key: string; source: ImageSource; data?: BadgeLoadResult }
  | { kind: 'text'; status: 400 | 404; reason: string };

export type BadgeDebugAnswer =
  | {
      kind: 'debug';
      request: Extract<BadgeRequest, { ok: true }>;
      plan: BadgePlan;
      body?: Buffer;
      key: string;
      canonicalKey: string;
      identity: string;
    }
  | { kind: 'text'; status: 400 | 404; reason: string };

export interface BadgeServiceDeps {
  cache: ImageCache;
  shared?: SharedAvatarCache;
}

/** Raw badge URLs answered before → their keys: a repeated URL skips parsing and hashing (as /avatar.png's). */
const HOT_URL_BYTES = 4 * 1024 * 1024;

export class BadgeService {
  private data: BadgeLoadResult;
  private hot = new HotUrls(HOT_URL_BYTES);
  private counts = { renders: 0, notFound: 0, badRequests: 0 };

  constructor(
    data: BadgeLoadResult,
    private readonly deps: BadgeServiceDeps,
  ) {
    this.data = data;
  }

  /** Puts reloaded badge data in place (or takes badges off, with the reason); URLs are judged afresh. */
  swap(data: BadgeLoadResult): void {
    this.data = data;
    this.hot = new HotUrls(HOT_URL_BYTES);
  }

  /** The image of a raw URL answered before, while it is still in memory (the route's hot path). */
  memoryImage(url: string): CachedImage | undefined {
    const key = this.hot.get(url);
    if (key === undefined) return undefined;
    const image = this.deps.cache.getMemory(key);
    if (image === undefined) this.hot.delete(url); // evicted
    return image;
  }

  get current(): BadgeLoadResult {
    return this.data;
  }

  /**
   * `rest` and `query` as parseBadgeRequest reads them, for the route they came by; `url`, the raw request
   * target, is remembered with the key of an image answer (see memoryImage).
   */
  async answer(rest: string, query: string, route: BadgeRoute, url?: string): Promise<BadgeAnswer> {
    const answer = await this.answerFresh(rest, query, route);
    // Only for the data the key was made from: a swap meanwhile drops the URL map.
    if (url !== undefined && answer.kind === 'image' && answer.data === this.data) this.hot.set(url, answer.key);
    return answer;
  }

  private async answerFresh(
    rest: string,
    query: string,
    route: BadgeRoute,
  ): Promise<BadgeAnswer & { data?: BadgeLoadResult }> {
    const data = this.data;
    if (!data.ok) return this.refuse(404, `badges are off on this server: ${data.reason}\n`);
    const req = parseBadgeRequest(rest, query, route);
    if (!req.ok) return this.refuse(req.status, req.reason);
    const { key, version } = badgeKey(data.hotel, req);
    const { cache, shared } = this.deps;
    const hot = cache.getMemory(key);
    if (hot) return { kind: 'image', image: hot, key, source: 'memory', data };
    const onDisk = cache.hasDisk ? await cache.getDisk(key, version) : undefined;
    if (onDisk) return { kind: 'image', image: onDisk, key, source: 'disk', data };
    if (shared) {
      const found = await shared.lookup(key);
      if (found.image) {
        const image = cachedImage(found.image, 1, version);
        cache.put(key, image);
        return { kind: 'image', image, key, source: 'redis', data };
      }
    }
    const drawn = renderBadge(data.hotel, req.parts, req.format, req);
    if (!drawn.image) return this.refuse(404, `nothing to draw for ${req.code}: ${drawn.plan.skipped.join('; ')}\n`);
    this.counts.renders++;
    const image = cachedImage(drawn.body, 1, version);
    cache.put(key, image);
    shared?.release(key, undefined, { image: drawn.body });
    return { kind: 'image', image, key, source: 'render', data };
  }

  /**
   * A fresh render with every part's image, colour and cell, for the debug page; never cached. `route`: the
   * image route the page shows the badge as (its path is what a 404 for a missing code names).
   */
  debug(rest: string, query: string, route: BadgeRoute): BadgeDebugAnswer {
    const data = this.data;
    if (!data.ok) return { kind: 'text', status: 404, reason: `badges are off on this server: ${data.reason}\n` };
    const req = parseBadgeRequest(rest, query, route);
    if (!req.ok) return { kind: 'text', status: req.status, reason: req.reason };
    const { key, canonical } = badgeKey(data.hotel, req);
    const plan = planBadge(data.hotel, req.parts, req.layout);
    const drawn = plan.layers.length > 0 ? renderBadge(data.hotel, req.parts, req.format, req) : undefined;
    return {
      kind: 'debug',
      request: req,
      plan,
      body: drawn?.image ? drawn.body : undefined,
      key,
      canonicalKey: canonical,
      identity: data.hotel.identity,
    };
  }

  stats(): {
    renders: number;
    notFound: number;
    badRequests: number;
    hotUrls: { entries: number; bytes: number; maxBytes: number };
  } {
    return { ...this.counts, hotUrls: this.hot.stats() };
  }

  private refuse(status: 400 | 404, reason: string): BadgeAnswer {
    if (status === 404) this.counts.notFound++;
    else this.counts.badRequests++;
    return { kind: 'text', status, reason };
  }
}

/**
 * The cache key: renderer version, the data's identity, the format and the parts (canonical, so the
 * short and long spellings of the same parts, a hash or a query string share one entry). Digested like
 * the avatar keys; the `badge` line keeps the two kinds apart.
 */
export function badgeKey(
  hotel: BadgeHotel,
  req: Extract<BadgeRequest, { ok: true }>,
): { key: string; canonical: string; version: string } {
  const version = `${BADGE_RENDERER_VERSION}/${hotel.identity}`;
  // A filled badge is another picture of the same code: its line is added only for it, so every key of a
  // plain badge stays what it was.
  const kind = req.fill ? 'badge\nfill' : 'badge';
  const canonical = `${kind}\n${version}\n${req.format}\n${canonicalParts(req.parts, req.layout)}`;
  return { key: sha256Hex(canonical), canonical, version };
}
