// Username → current figure through the hotel's public user API (`GET /api/public/users?name=<name>`
// answering JSON with `figureString`). Found names are cached about an hour (contract A8), failures briefly
// so an unknown name or a down API is not asked again on every image of a page. A lookup ends within its
// timeout whatever the API does (slow headers, a body trickling in, no answer at all): the image request
// waiting on it falls back instead of hanging.
import { LRUCache } from 'lru-cache';
import { MAX_FIGURE_BYTES, MAX_USER_NAME_CHARS } from './params.js';
import { type SharedAvatarCache } from '../cache/shared-cache.js';
import { KeyedInflight } from '../../util/keyed-inflight.js';

export type UserLookupResult =
  | { ok: true; figure: string; cached: boolean }
  | { ok: false; reason: 'unknown' | 'timeout' | 'unreachable' | 'bad-response'; detail: string; cached: boolean };

type Outcome =
  | { ok: true; figure: string }
  | { ok: false; reason: 'unknown' | 'timeout' | 'unreachable' | 'bad-response'; detail: string };

/**
 * Where names are looked up instead of the user API (the hotel's database): the outcome for one name,
 * settled within the lookup's timeout or not (the lookup's own deadline still holds).
 */
export interface UserSource {
  find(name: string): Promise<Outcome>;
}

export type UserSourceOutcome = Outcome;

export interface UserLookupOptions {
  /** Base address of the public API, e.g. https://www.habbo.com (unused when a source is given). */
  apiBase: string;
  /** Asked instead of the API when given. */
  source?: UserSource;
  timeoutMs: number;
  ttlMs: number;
  /** How long an unknown name is remembered. */
  negativeTtlMs: number;
  /** How long a timeout, refused connection or bad answer is remembered. */
  errorTtlMs: number;
  /** Bytes the name → figure cache may hold (names, figures and bookkeeping). */
  maxBytes: number;
}

/** Whole lookup, answer body included; with a render after it the image still answers within 2 s. */
export const DEFAULT_USER_TIMEOUT_MS = 1500;

export const DEFAULT_USER_LOOKUP: Omit<UserLookupOptions, 'apiBase'> = {
  timeoutMs: DEFAULT_USER_TIMEOUT_MS,
  ttlMs: 60 * 60 * 1000,
  negativeTtlMs: 60 * 1000,
  errorTtlMs: 10 * 1000,
  maxBytes: 32 * 1024 * 1024,
};

/** The user API answers a small JSON object; a longer body is not one. */
const MAX_ANSWER_BYTES = 64 * 1024;
/** Lookups waiting on the API at once; more are refused (unreachable) rather than queued without bound. */
export const MAX_LOOKUPS_IN_FLIGHT = 1024;
/**
 * An entry's outcome object and the LRU's bookkeeping, besides its strings (docs/avatar-service.md,
 * "Memory").
 */
const ENTRY_OVERHEAD = 200;

function outcomeBytes(outcome: Outcome, id: string): number {
  // Strings count two bytes a character: a name or figure outside Latin-1 is stored that way.
  const text = outcome.ok ? outcome.figure : outcome.detail;
  return 2 * (id.length + text.length) + ENTRY_OVERHEAD;
}

export interface UserLookupStats {
  entries: number;
  bytes: number;
  maxBytes: number;
  inFlight: number;
  hits: number;
  /** Names answered by the shared cache (another instance asked the API). */
  sharedHits: number;
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
  /** Lookups in flight, by lower-cased name (at most MAX_LOOKUPS_IN_FLIGHT). */
  private readonly inFlight = new KeyedInflight<Outcome>();
  private hits = 0;
  private sharedHits = 0;
  private lookups = 0;
  private failures = 0;

  /** `shared`: found names and unknown names are shared with the other instances (timeouts stay local). */
  constructor(
    private readonly opts: UserLookupOptions,
    private readonly shared?: SharedAvatarCache,
  ) {
    this.cache = new LRUCache<string, Outcome>({
      maxSize: Math.max(1, opts.maxBytes),
      sizeCalculation: outcomeBytes,
      ttl: opts.ttlMs,
      ttlAutopurge: false,
    });
  }

  /** Names are case-insensitive in the hotel, so the cache is too. */
  async resolve(name: string): Promise<UserLookupResult> {
    // No hotel has names this long: not worth a request (nor a cache entry) to learn that.
    if ([...name].length > MAX_USER_NAME_CHARS) {
      return {
        ok: false,
        reason: 'unknown',
        detail: `a user name is at most ${MAX_USER_NAME_CHARS} characters`,
        cached: false,
      };
    }
    const id = name.toLowerCase();
    const cached = this.cache.get(id);
    if (cached !== undefined) {
      this.hits++;
      return { ...cached, cached: true };
    }
    // Joining a lookup is free; only a new one is bounded.
    if (!this.inFlight.has(id) && this.inFlight.size >= MAX_LOOKUPS_IN_FLIGHT) {
      return {
        ok: false,
        reason: 'unreachable',
        detail: `${MAX_LOOKUPS_IN_FLIGHT} user lookups already waiting on the API`,
        cached: false,
      };
    }
    const pending = this.inFlight.run(id, () =>
      this.find(name, id).then(({ outcome, ttl }) => {
        if (ttl > 0) this.cache.set(id, outcome, { ttl });
        return outcome;
      }),
    );
    return { ...(await pending), cached: false };
  }

  stats(): UserLookupStats {
    return {
      entries: this.cache.size,
      bytes: this.cache.calculatedSize,
      maxBytes: this.opts.maxBytes,
      inFlight: this.inFlight.size,
      hits: this.hits,
      sharedHits: this.sharedHits,
      lookups: this.lookups,
      failures: this.failures,
    };
  }

  /** The shared entry (with the time it has left), else the API's answer (shared when it is a name's fact). */
  private async find(name: string, id: string): Promise<{ outcome: Outcome; ttl: number }> {
    const known = await this.shared?.user(id);
    if (known) {
      this.sharedHits++;
      return {
        outcome: known.outcome,
        ttl: Math.min(known.ttlMs, known.outcome.ok ? this.opts.ttlMs : this.opts.negativeTtlMs),
      };
    }
    const outcome = await this.fetchFigure(name);
    const ttl = outcome.ok
      ? this.opts.ttlMs
      : outcome.reason === 'unknown'
        ? this.opts.negativeTtlMs
        : this.opts.errorTtlMs;
    if (this.shared && ttl > 0) {
      if (outcome.ok) this.shared.putUser(id, outcome, ttl);
      else if (outcome.reason === 'unknown')
        this.shared.putUser(id, { ok: false, reason: 'unknown', detail: outcome.detail }, ttl);
    }
    return { outcome, ttl };
  }

  private async fetchFigure(name: string): Promise<Outcome> {
    this.lookups++;
    const outcome = await this.request(name);
    if (!outcome.ok) this.failures++;
    return outcome;
  }

  /** The source's answer, or a timeout outcome once `timeoutMs` has passed, whatever the source is doing. */
  private async request(name: string): Promise<Outcome> {
    const source = this.opts.source;
    if (source) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<Outcome>((resolve) => {
        timer = setTimeout(
          () => resolve({ ok: false, reason: 'timeout', detail: `no answer within ${this.opts.timeoutMs} ms` }),
          this.opts.timeoutMs,
        );
      });
      try {
        return await Promise.race([source.find(name), deadline]);
      } finally {
        clearTimeout(timer);
      }
    }
    const url = usersEndpoint(this.opts.apiBase);
    url.searchParams.set('name', name);
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<Outcome>((resolve) => {
      timer = setTimeout(() => {
        abort.abort();
        resolve({
          ok: false,
          reason: 'timeout',
          detail: `no complete answer from ${url.origin} within ${this.opts.timeoutMs} ms`,
        });
      }, this.opts.timeoutMs);
    });
    try {
      return await Promise.race([this.ask(url, name, abort.signal), deadline]);
    } finally {
      clearTimeout(timer);
      abort.abort();
    }
  }

  private async ask(url: URL, name: string, signal: AbortSignal): Promise<Outcome> {
    let res: Response;
    try {
      res = await fetch(url, {
        headers: { accept: 'application/json', 'user-agent': 'hotel-imager avatar service' },
        signal,
        redirect: 'follow',
      });
    } catch (err) {
      const e = err as Error;
      if (signal.aborted)
        return {
          ok: false,
          reason: 'timeout',
          detail: `no answer from ${url.origin} within ${this.opts.timeoutMs} ms`,
        };
      const cause = (e as { cause?: { code?: string } }).cause?.code;
      return { ok: false, reason: 'unreachable', detail: `${url.origin}: ${cause ?? e.message}` };
    }
    try {
      if (res.status === 404) return { ok: false, reason: 'unknown', detail: `no user named ${JSON.stringify(name)}` };
      if (!res.ok) return { ok: false, reason: 'unreachable', detail: `${url.origin} answered HTTP ${res.status}` };
      const text = await readLimited(res, MAX_ANSWER_BYTES);
      if (text === undefined)
        return { ok: false, reason: 'bad-response', detail: `the answer is longer than ${MAX_ANSWER_BYTES} bytes` };
      const body = JSON.parse(text) as unknown;
      const figure = (body as { figureString?: unknown } | null)?.figureString;
      if (typeof figure !== 'string' || figure === '' || Buffer.byteLength(figure) > MAX_FIGURE_BYTES) {
        return { ok: false, reason: 'bad-response', detail: 'the answer has no usable figureString' };
      }
      return { ok: true, figure };
    } catch (err) {
      if (signal.aborted)
        return {
          ok: false,
          reason: 'timeout',
          detail: `answer from ${url.origin} not complete within ${this.opts.timeoutMs} ms`,
        };
      return { ok: false, reason: 'bad-response', detail: `unreadable answer: ${(err as Error).message}` };
    } finally {
      // Release the connection even when the body was not read to the end.
      await res.body?.cancel().catch(() => undefined);
    }
  }
}

/** The body as text, or undefined when it is longer than `max` bytes (reading stops there). */
async function readLimited(res: Response, max: number): Promise<string | undefined> {
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > max) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
