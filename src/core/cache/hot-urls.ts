// Raw URLs of `?figure=` requests answered before → their image cache key, so a repeated URL skips
// parsing and hashing on the way to the memory cache. Bounded in bytes it holds: a URL can be kilobytes
// of ignored parameters (a cache-buster with padding), and each one counts at its own length.
import { LRUCache } from 'lru-cache';

/**
 * The 64-character key, the LRU's bookkeeping and string headers, besides the URL (rounded up:
 * docs/avatar-service.md, "Memory").
 */
export const HOT_URL_OVERHEAD = 352;

/**
 * Longer URLs are not kept: real avatar URLs are a few hundred bytes, and a stream of padded cache-busters
 * would turn the map over once per request, each evicted URL kilobytes of old-generation garbage that
 * made the heap, and RSS, grow hundreds of megabytes past what the caches hold. Such a URL still gets its
 * image from the image cache, through the ordinary path.
 */
export const HOT_URL_MAX_LENGTH = 1024;

export interface HotUrlStats {
  entries: number;
  bytes: number;
  maxBytes: number;
}

export class HotUrls {
  private readonly map: LRUCache<string, string>;
  /** The hotel generation whose keys the map holds: a reload may change a URL's key. */
  private generation = 0;

  constructor(
    readonly maxBytes: number,
    generation = 0,
  ) {
    this.generation = generation;
    // req.url is Latin-1 text (one byte a character); a URL longer than the whole budget is not kept.
    this.map = new LRUCache<string, string>({
      maxSize: Math.max(1, maxBytes),
      sizeCalculation: (_key, url) => url.length + HOT_URL_OVERHEAD,
    });
  }

  get(url: string): string | undefined {
    return this.map.get(url);
  }

  /** Keeps `url` → `key` when the key was made with the hotel generation whose keys the map holds (default: it was). */
  set(url: string, key: string, generation = this.generation): void {
    if (url.length > HOT_URL_MAX_LENGTH || generation !== this.generation) return;
    this.map.set(url, key);
  }

  /** A new hotel is in service: forget every URL (a request planned before the swap cannot add one back). */
  reset(generation: number): void {
    this.generation = generation;
    this.map.clear();
  }

  delete(url: string): void {
    this.map.delete(url);
  }

  stats(): HotUrlStats {
    return { entries: this.map.size, bytes: this.map.calculatedSize, maxBytes: this.maxBytes };
  }
}
