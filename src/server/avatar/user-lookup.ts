// Username → current figure through the hotel's public user API (`GET /api/public/users?name=<name>`
// answering JSON with `figureString`). Found names are cached about an hour (spec §8), failures briefly
// so an unknown name or a down API is not asked again on every image of a page.
import { LRUCache } from 'lru-cache';
import { MAX_FIGURE_BYTES, MAX_USER_NAME_CHARS } from './params.js';

export type UserLookupResult =
  | { ok: true; figure: string; cached: boolean }
  | { ok: false; reason: 'unknown' | 'timeout' | 'unreachable' | 'bad-response'; detail: string; cached: boolean };

type Outcome = { ok: true; figure: string } | { ok: false; reason: 'unknown' | 'timeout' | 'unreachable' | 'bad-response'; detail: string };

export interface UserLookupOptions {
  /** Base address of the public API, e.g. https://www.habbo.com */
  apiBase: string;
  timeoutMs: number;
  ttlMs: number;
  /** How long an unknown name is remembered. */
  negativeTtlMs: number;
  /** How long a timeout, refused connection or bad answer is remembered. */
  errorTtlMs: number;
  maxEntries: number;
}

export const DEFAULT_USER_LOOKUP: Omit<UserLookupOptions, 'apiBase'> = {
  timeoutMs: 3000,
  ttlMs: 60 * 60 * 1000,
  negativeTtlMs: 60 * 1000,
  errorTtlMs: 10 * 1000,
  maxEntries: 50_000,
};

export interface UserLookupStats {
  entries: number;
  hits: number;
  lookups: number;
  failures: number;
}

/**
 * `<base>/api/public/users`, keeping a path the base has (`https://host/prefix` → `/prefix/api/public/users`);
 * a query or fragment on the base is dropped.
 */
export function usersEndpoint(apiBase: string): URL {
  const base = new URL(apiBase);
  base.search = '';
  base.hash = '';
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return new URL('api/public/users', base);
}

export class UserLookup {
  private readonly cache: LRUCache<string, Outcome>;
  private readonly inFlight = new Map<string, Promise<Outcome>>();
  private hits = 0;
  private lookups = 0;
  private failures = 0;

  constructor(private readonly opts: UserLookupOptions) {
    this.cache = new LRUCache<string, Outcome>({ max: opts.maxEntries, ttl: opts.ttlMs, ttlAutopurge: false });
  }

  /** Names are case-insensitive in the hotel, so the cache is too. */
  async resolve(name: string): Promise<UserLookupResult> {
    // No hotel has names this long: not worth a request (nor a cache entry) to learn that.
    if ([...name].length > MAX_USER_NAME_CHARS) {
      return { ok: false, reason: 'unknown', detail: `a user name is at most ${MAX_USER_NAME_CHARS} characters`, cached: false };
    }
    const id = name.toLowerCase();
    const cached = this.cache.get(id);
    if (cached !== undefined) {
      this.hits++;
      return { ...cached, cached: true };
    }
    let pending = this.inFlight.get(id);
    if (pending === undefined) {
      pending = this.fetchFigure(name).then((outcome) => {
        this.inFlight.delete(id);
        const ttl = outcome.ok ? this.opts.ttlMs : outcome.reason === 'unknown' ? this.opts.negativeTtlMs : this.opts.errorTtlMs;
        if (ttl > 0) this.cache.set(id, outcome, { ttl });
        return outcome;
      });
      this.inFlight.set(id, pending);
    }
    return { ...(await pending), cached: false };
  }

  stats(): UserLookupStats {
    return { entries: this.cache.size, hits: this.hits, lookups: this.lookups, failures: this.failures };
  }

  private async fetchFigure(name: string): Promise<Outcome> {
    this.lookups++;
    const outcome = await this.request(name);
    if (!outcome.ok) this.failures++;
    return outcome;
  }

  private async request(name: string): Promise<Outcome> {
    const url = usersEndpoint(this.opts.apiBase);
    url.searchParams.set('name', name);
    let res: Response;
    try {
      res = await fetch(url, {
        headers: { accept: 'application/json', 'user-agent': 'hotel-imager avatar service' },
        signal: AbortSignal.timeout(this.opts.timeoutMs),
        redirect: 'follow',
      });
    } catch (err) {
      const e = err as Error;
      if (e.name === 'TimeoutError' || e.name === 'AbortError') {
        return { ok: false, reason: 'timeout', detail: `no answer from ${url.origin} within ${this.opts.timeoutMs} ms` };
      }
      const cause = (e as { cause?: { code?: string } }).cause?.code;
      return { ok: false, reason: 'unreachable', detail: `${url.origin}: ${cause ?? e.message}` };
    }
    try {
      if (res.status === 404) return { ok: false, reason: 'unknown', detail: `no user named ${JSON.stringify(name)}` };
      if (!res.ok) return { ok: false, reason: 'unreachable', detail: `${url.origin} answered HTTP ${res.status}` };
      const body = (await res.json()) as unknown;
      const figure = (body as { figureString?: unknown } | null)?.figureString;
      if (typeof figure !== 'string' || figure === '' || Buffer.byteLength(figure) > MAX_FIGURE_BYTES) {
        return { ok: false, reason: 'bad-response', detail: 'the answer has no usable figureString' };
      }
      return { ok: true, figure };
    } catch (err) {
      const e = err as Error;
      if (e.name === 'TimeoutError' || e.name === 'AbortError') {
        return { ok: false, reason: 'timeout', detail: `answer from ${url.origin} not complete within ${this.opts.timeoutMs} ms` };
      }
      return { ok: false, reason: 'bad-response', detail: `unreadable answer: ${e.message}` };
    } finally {
      // Release the connection even when the body was not read.
      if (!res.bodyUsed) await res.body?.cancel().catch(() => undefined);
    }
  }
}
