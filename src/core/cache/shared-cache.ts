// What avatar instances share through a SharedStore (L2; each instance's memory cache stays in front):
// rendered images under today's cache key (a digest of the renderer version, of what the render reads
// from the hotel and of every keyed parameter, so instances share an entry exactly when they would
// render the same image, also while one of them serves a newer hotel), the username → figure mapping and
// unknown names, remembered render failures (scoped to the whole hotel they happened on: a reload
// forgets them), and short render locks so N instances asked for the same cold URL at once render it once.
// Whatever the store does, every method returns within a bounded time; a store that cannot answer reads
// as a miss, and a lock that cannot be taken means "render here".
import { randomBytes } from 'node:crypto';
import { imageFrameCount } from './png-frames.js';
import { type SharedStore, type SharedStoreStatus } from './shared-store.js';

export interface SharedFailure {
  code: string;
  message: string;
}

/** What the user lookup shares: a figure, or a name the API does not know. */
export type SharedUserOutcome = { ok: true; figure: string } | { ok: false; reason: 'unknown'; detail: string };

export interface SharedCacheOptions {
  /** How long an image stays in the store (the store's own eviction bounds the bytes). */
  imageTtlMs: number;
  /** Life of a render lock, and the longest wait for another instance's render. */
  lockMs: number;
  /** Key prefix (default `hotel-imager:avatar:`). */
  prefix?: string;
}

/** This instance renders; `token` releases the lock (undefined when the store could not give one). */
export type RenderClaim =
  | { kind: 'render'; token: Buffer | undefined }
  | { kind: 'image'; body: Buffer }
  | { kind: 'failed'; failure: SharedFailure };

export interface SharedCacheStats {
  imageHits: number;
  imageMisses: number;
  userHits: number;
  userMisses: number;
  /** Renders this instance waited for instead of doing them. */
  renderWaits: number;
  /** Waits that ended with the other instance's image. */
  renderWaitHits: number;
  /** Waits that ended in a local render (no result in time, or the holder gone without one). */
  renderWaitGaveUp: number;
  writes: number;
  writeFailures: number;
}

const POLL_FIRST_MS = 5;
const POLL_MAX_MS = 50;
const MAX_SHARED_TEXT = 300;

/** A whole PNG/APNG or GIF (what the renderer stores); anything else from the store reads as a miss. */
function isImage(body: Buffer): boolean {
  try {
    imageFrameCount(body);
    return true;
  } catch {
    return false;
  }
}

function parseJson<T>(value: Buffer | undefined, valid: (v: unknown) => v is T): T | undefined {
  if (value === undefined) return undefined;
  try {
    const parsed = JSON.parse(value.toString('utf8')) as unknown;
    return valid(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

const isFailure = (v: unknown): v is SharedFailure =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as SharedFailure).code === 'string' &&
  typeof (v as SharedFailure).message === 'string';

const isUserEntry = (v: unknown): v is { o: SharedUserOutcome; e: number } => {
  const o = (v as { o?: Record<string, unknown> } | null)?.o;
  if (typeof (v as { e?: unknown }).e !== 'number' || typeof o !== 'object' || o === null) return false;
  return o.ok === true
    ? typeof o.figure === 'string' && o.figure !== ''
    : o.ok === false && o.reason === 'unknown' && typeof o.detail === 'string';
};

export class SharedAvatarCache {
  private readonly prefix: string;
  private readonly writing = new Set<Promise<unknown>>();
  /** Waiters for another instance's render, by key: woken when it announces its result. */
  private readonly wakers = new Map<string, Set<() => void>>();
  private readonly counts: SharedCacheStats = {
    imageHits: 0,
    imageMisses: 0,
    userHits: 0,
    userMisses: 0,
    renderWaits: 0,
    renderWaitHits: 0,
    renderWaitGaveUp: 0,
    writes: 0,
    writeFailures: 0,
  };

  constructor(
    readonly store: SharedStore,
    private readonly opts: SharedCacheOptions,
  ) {
    this.prefix = opts.prefix ?? 'hotel-imager:avatar:';
    store.subscribe(this.k('done', ''), (key) => {
      for (const wake of this.wakers.get(key) ?? []) wake();
    });
  }

  /** The image and a remembered failure (of hotel `scope`; none without one) for a key, in one round trip. */
  async lookup(key: string, scope?: string): Promise<{ image?: Buffer; failure?: SharedFailure }> {
    const values = await this.store.getMany(
      scope === undefined ? [this.k('img', key)] : [this.k('img', key), this.failKey(key, scope)],
    );
    const image = values?.[0];
    if (image !== undefined && isImage(image)) {
      this.counts.imageHits++;
      return { image };
    }
    this.counts.imageMisses++;
    return { failure: parseJson(values?.[1], isFailure) };
  }

  /**
   * Takes the render of a key: this instance renders (holding the lock), or another one's result
   * arrives within the lock's life. A wait that outlives it, or a holder gone without a result, ends
   * in "render here".
   */
  async claim(key: string, scope: string): Promise<RenderClaim> {
    const token = randomBytes(12);
    const lock = this.k('lock', key);
    const deadline = Date.now() + this.opts.lockMs;
    let waited = false;
    for (;;) {
      const taken = await this.store.setIfAbsent(lock, token, this.opts.lockMs);
      if (taken === undefined) return this.endWait(waited, { kind: 'render', token: undefined });
      if (taken) {
        // The previous holder may have finished between our lookup and this lock: its image wins.
        const done = await this.store.getMany([this.k('img', key)]);
        if (done?.[0] !== undefined && isImage(done[0])) {
          this.background(() => this.store.deleteIf(lock, token));
          if (waited) this.counts.renderWaitHits++;
          return { kind: 'image', body: done[0] };
        }
        return this.endWait(waited, { kind: 'render', token });
      }
      if (!waited) this.counts.renderWaits++;
      waited = true;
      let pause = POLL_FIRST_MS;
      for (;;) {
        if (Date.now() >= deadline) return this.endWait(true, { kind: 'render', token: undefined });
        // Woken by the holder's announcement; the poll is for one that is missed (or a holder that died).
        await this.nap(key, Math.min(pause, Math.max(1, deadline - Date.now())));
        pause = Math.min(POLL_MAX_MS, pause * 2);
        const values = await this.store.getMany([this.k('img', key), this.failKey(key, scope), lock]);
        if (values === undefined) return this.endWait(true, { kind: 'render', token: undefined });
        const [image, failed, holder] = values;
        if (image !== undefined && isImage(image)) {
          this.counts.renderWaitHits++;
          return { kind: 'image', body: image };
        }
        const failure = parseJson(failed, isFailure);
        if (failure) return { kind: 'failed', failure };
        if (holder === undefined) break; // released without a result, or expired: try to take it
      }
    }
  }

  /**
   * After this instance's render: stores the image or the failure (of hotel `scope`), then lets the lock go (in the
   * background).
   */
  release(
    key: string,
    token: Buffer | undefined,
    result: { image: Buffer } | { failure: SharedFailure; ttlMs: number; scope: string } | undefined,
  ): void {
    this.background(async () => {
      if (result && 'image' in result) await this.write(this.k('img', key), result.image, this.opts.imageTtlMs);
      else if (result)
        await this.write(this.failKey(key, result.scope), this.failureBytes(result.failure), result.ttlMs);
      if (token) await this.store.deleteIf(this.k('lock', key), token);
      if (token) await this.store.publish(this.k('done', ''), key);
    });
  }

  /** A shared name → outcome entry and how long it has left. */
  async user(id: string): Promise<{ outcome: SharedUserOutcome; ttlMs: number } | undefined> {
    const values = await this.store.getMany([this.k('user', id)]);
    const entry = parseJson(values?.[0], isUserEntry);
    const ttlMs = entry ? entry.e - Date.now() : 0;
    if (!entry || ttlMs <= 0) {
      this.counts.userMisses++;
      return undefined;
    }
    this.counts.userHits++;
    return { outcome: entry.o, ttlMs };
  }

  putUser(id: string, outcome: SharedUserOutcome, ttlMs: number): void {
    const o: SharedUserOutcome = outcome.ok
      ? { ok: true, figure: outcome.figure }
      : { ok: false, reason: 'unknown', detail: outcome.detail.slice(0, MAX_SHARED_TEXT) };
    const body = Buffer.from(JSON.stringify({ o, e: Date.now() + ttlMs }));
    this.background(() => this.write(this.k('user', id), body, ttlMs));
  }

  /** Waits for background writes (on shutdown). */
  async flush(): Promise<void> {
    while (this.writing.size > 0) await Promise.all([...this.writing]);
  }

  stats(): SharedStoreStatus & SharedCacheStats {
    return { ...this.store.status(), ...this.counts };
  }

  /** Sleeps `ms`, or less when the key's result is announced. */
  private nap(key: string, ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      let set = this.wakers.get(key);
      if (!set) this.wakers.set(key, (set = new Set()));
      const wake = () => {
        clearTimeout(timer);
        set.delete(wake);
        if (set.size === 0 && this.wakers.get(key) === set) this.wakers.delete(key);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      set.add(wake);
    });
  }

  private k(kind: 'img' | 'fail' | 'lock' | 'user' | 'done', id: string): string {
    return `${this.prefix}${kind}:${id}`;
  }

  /** A failure is the hotel's as a whole: an instance on another hotel (reloaded before or after) never reads it. */
  private failKey(key: string, scope: string): string {
    return this.k('fail', `${scope}:${key}`);
  }

  private failureBytes(f: SharedFailure): Buffer {
    return Buffer.from(
      JSON.stringify({ code: f.code.slice(0, MAX_SHARED_TEXT), message: f.message.slice(0, MAX_SHARED_TEXT) }),
    );
  }

  private endWait(waited: boolean, claim: RenderClaim): RenderClaim {
    if (waited) this.counts.renderWaitGaveUp++;
    return claim;
  }

  private async write(key: string, value: Buffer, ttlMs: number): Promise<void> {
    if (await this.store.set(key, value, ttlMs)) this.counts.writes++;
    else this.counts.writeFailures++;
  }

  private background(task: () => Promise<void>): void {
    const p: Promise<void> = task()
      .catch(() => undefined)
      .finally(() => this.writing.delete(p));
    this.writing.add(p);
  }
}
