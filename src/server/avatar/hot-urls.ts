// Raw URLs of `?figure=` requests answered before → their image cache key, so a repeated URL skips
// parsing and hashing on the way to the memory cache. Bounded in bytes it holds: a URL can be kilobytes
// of ignored parameters (a cache-buster with padding), and each one counts at its own length.
import { LRUCache } from 'lru-cache';

/** The 64-character key, the LRU's bookkeeping and string headers, besides the URL (measured on Node 20: ~320). */
export const HOT_URL_OVERHEAD = 352;

export interface HotUrlStats {
  entries: number;
  bytes: number;
  maxBytes: number;
}

export class HotUrls {
  private readonly map: LRUCache<string, string>;

  constructor(readonly maxBytes: number) {
    // req.url is Latin-1 text (one byte a character); a URL longer than the whole budget is not kept.
    this.map = new LRUCache<string, string>({ maxSize: Math.max(1, maxBytes), sizeCalculation: (_key, url) => url.length + HOT_URL_OVERHEAD });
  }

  get(url: string): string | undefined {
    return this.map.get(url);
  }

  set(url: string, key: string): void {
    this.map.set(url, key);
  }

  delete(url: string): void {
    this.map.delete(url);
  }

  stats(): HotUrlStats {
    return { entries: this.map.size, bytes: this.map.calculatedSize, maxBytes: this.maxBytes };
  }
}
