// The store several avatar instances share (L2 behind each instance's memory cache): a few byte-valued
// operations with expiry, so the avatar side does not depend on one engine. Redis is the production one
// (redis-store.ts); MemorySharedStore is the same contract inside one process (tests, and one process
// running several services). No operation ever throws or waits past the store's own timeout: a store
// that cannot answer says so (undefined), and the caller goes on without it.

export interface SharedStoreStatus {
  kind: 'redis' | 'memory';
  /** Where it is, without credentials. */
  target: string;
  /**
   * 'ready' when commands are sent; otherwise what the connection is doing ('connecting', 'reconnecting', 'paused'…).
   */
  state: string;
  available: boolean;
  /** Commands that failed or timed out. */
  errors: number;
  lastError: string | null;
  /** Times the connection became ready (1 after the first connect; more after each reconnect). */
  connects: number;
}

export interface SharedStore {
  /** The values of `keys` (undefined for a missing one), or undefined when the store cannot answer now. */
  getMany(keys: string[]): Promise<(Buffer | undefined)[] | undefined>;
  /** Stores with an expiry; false when the store could not take it. */
  set(key: string, value: Buffer, ttlMs: number): Promise<boolean>;
  /** Stores only if the key is absent (a lock): true = stored, false = present, undefined = cannot answer now. */
  setIfAbsent(key: string, value: Buffer, ttlMs: number): Promise<boolean | undefined>;
  /** Deletes the key if it still holds `value` (releasing one's own lock, never a successor's). */
  deleteIf(key: string, value: Buffer): Promise<void>;
  /** Tells every instance's `subscribe` listener on `channel` (best effort: a listener may miss it). */
  publish(channel: string, message: string): Promise<void>;
  /** Calls `listener` with each message published on `channel`, by any instance, for the store's life. */
  subscribe(channel: string, listener: (message: string) => void): void;
  status(): SharedStoreStatus;
  close(): Promise<void>;
}

/** The shared-store contract in one process's memory (expiry checked on read). */
export class MemorySharedStore implements SharedStore {
  private readonly entries = new Map<string, { value: Buffer; expiresAt: number }>();
  private readonly listeners = new Map<string, Set<(message: string) => void>>();
  /** While false, every operation answers "cannot answer now", as a Redis that is down does. */
  up = true;
  private errors = 0;

  async getMany(keys: string[]): Promise<(Buffer | undefined)[] | undefined> {
    if (!this.check()) return undefined;
    return keys.map((k) => this.live(k)?.value);
  }

  async set(key: string, value: Buffer, ttlMs: number): Promise<boolean> {
    if (!this.check()) return false;
    this.entries.set(key, { value: Buffer.from(value), expiresAt: Date.now() + ttlMs });
    return true;
  }

  async setIfAbsent(key: string, value: Buffer, ttlMs: number): Promise<boolean | undefined> {
    if (!this.check()) return undefined;
    if (this.live(key)) return false;
    this.entries.set(key, { value: Buffer.from(value), expiresAt: Date.now() + ttlMs });
    return true;
  }

  async deleteIf(key: string, value: Buffer): Promise<void> {
    if (!this.check()) return;
    if (this.live(key)?.value.equals(value)) this.entries.delete(key);
  }

  async publish(channel: string, message: string): Promise<void> {
    if (!this.check()) return;
    for (const listener of this.listeners.get(channel) ?? []) queueMicrotask(() => listener(message));
  }

  subscribe(channel: string, listener: (message: string) => void): void {
    let set = this.listeners.get(channel);
    if (!set) this.listeners.set(channel, (set = new Set()));
    set.add(listener);
  }

  status(): SharedStoreStatus {
    return {
      kind: 'memory',
      target: 'in-process',
      state: this.up ? 'ready' : 'down',
      available: this.up,
      errors: this.errors,
      lastError: null,
      connects: 1,
    };
  }

  async close(): Promise<void> {
    this.entries.clear();
    this.listeners.clear();
  }

  private check(): boolean {
    if (!this.up) this.errors++;
    return this.up;
  }

  private live(key: string): { value: Buffer; expiresAt: number } | undefined {
    const e = this.entries.get(key);
    if (e && e.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }
}
