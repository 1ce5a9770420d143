// Guards for uncached renders (cache hits are never limited): a per-client token bucket and an
// instance-wide budget per time window. Defaults are set so normal page traffic never trips them.
// Shared by the avatar service and the furni service's on-demand variants.
import { LRUCache } from 'lru-cache';
import { sha256Hex } from '../util/hash.js';

export interface ClientRateOptions {
  /** Sustained uncached renders per second per client; 0 disables the limit. */
  perSecond: number;
  /** Renders a client may do at once before the sustained rate applies. */
  burst: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Bytes the buckets of all clients may hold together (~70,000 clients); the least recently seen go first. */
export const CLIENT_BUCKET_BYTES = 8 * 1024 * 1024;
/** A bucket's object and the LRU's bookkeeping, besides the client id (docs/avatar-service.md, "Memory"). */
const BUCKET_OVERHEAD = 96;
/** Ids longer than an IPv6 address (a forged X-Forwarded-For behind --trust-proxy) are kept as a digest. */
const MAX_CLIENT_ID = 64;

export class ClientRateLimiter {
  private readonly buckets: LRUCache<string, Bucket>;

  constructor(
    private readonly opts: ClientRateOptions,
    private readonly now: () => number = Date.now,
    maxBytes = CLIENT_BUCKET_BYTES,
  ) {
    this.buckets = new LRUCache<string, Bucket>({
      maxSize: maxBytes,
      sizeCalculation: (_b, id) => id.length * 2 + BUCKET_OVERHEAD,
    });
  }

  /** Takes one token for the client; false when the client is over its rate. */
  take(client: string): boolean {
    if (this.opts.perSecond <= 0) return true;
    if (client.length > MAX_CLIENT_ID) client = sha256Hex(client);
    const t = this.now();
    const b = this.buckets.get(client) ?? { tokens: this.opts.burst, at: t };
    b.tokens = Math.min(this.opts.burst, b.tokens + ((t - b.at) / 1000) * this.opts.perSecond);
    b.at = t;
    const ok = b.tokens >= 1;
    if (ok) b.tokens -= 1;
    this.buckets.set(client, b);
    return ok;
  }

  stats(): { clients: number; bytes: number; maxBytes: number } {
    return { clients: this.buckets.size, bytes: this.buckets.calculatedSize, maxBytes: this.buckets.maxSize };
  }
}

export interface RenderBudgetOptions {
  /** Uncached renders the instance does per window; 0 disables the budget. */
  renders: number;
  windowMs: number;
}

export class RenderBudget {
  private windowStart = 0;
  private used = 0;

  constructor(
    private readonly opts: RenderBudgetOptions,
    private readonly now: () => number = Date.now,
  ) {}

  take(): boolean {
    if (this.opts.renders <= 0) return true;
    const t = this.now();
    if (t - this.windowStart >= this.opts.windowMs) {
      this.windowStart = t;
      this.used = 0;
    }
    if (this.used >= this.opts.renders) return false;
    this.used++;
    return true;
  }

  stats(): { renders: number; windowMs: number; usedInWindow: number } {
    const current = this.now() - this.windowStart < this.opts.windowMs ? this.used : 0;
    return { renders: this.opts.renders, windowMs: this.opts.windowMs, usedInWindow: current };
  }
}
