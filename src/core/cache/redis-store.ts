// The shared store on Redis (ioredis). Every command has a short timeout and nothing is queued while the
// connection is down (offline queue off, no resend after a reconnect): a request never waits on Redis
// longer than one timeout. After a failed command the store pauses itself briefly, so a Redis that hangs
// costs one timeout a second, not one per request; it reconnects by itself, and a fresh connection ends
// the pause at once.
import { Redis } from 'ioredis';
import { type SharedStore, type SharedStoreStatus } from './shared-store.js';

export interface RedisStoreOptions {
  /** redis://[user:pass@]host:port/db */
  url: string;
  commandTimeoutMs: number;
  /** How long the store stays off after a failed command (default 1000 ms). */
  pauseMs?: number;
  log?: (level: 'info' | 'warn', msg: string, fields: Record<string, unknown>) => void;
}

/** Compare-and-delete: a lock is released only by the instance that holds it. */
const DELETE_IF = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/** The address without credentials, for /healthz and logs. */
export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return 'redis://(unparsable)';
  }
}

export class RedisSharedStore implements SharedStore {
  private readonly client: Redis;
  /**
   * A second connection for pub/sub (a subscribed Redis connection takes no other commands); made on the first
   * subscribe.
   */
  private subscriber: Redis | undefined;
  private readonly listeners = new Map<string, Set<(message: string) => void>>();
  private readonly pauseMs: number;
  private pausedUntil = 0;
  private errors = 0;
  private lastError: string | null = null;
  private connects = 0;
  private closed = false;

  constructor(private readonly opts: RedisStoreOptions) {
    this.pauseMs = opts.pauseMs ?? 1000;
    this.client = new Redis(opts.url, {
      // No client-side commandTimeout: its timer fires before a reply that arrived while this process
      // was busy is read (a loaded instance would call a healthy Redis slow); `timed` below waits that turn.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      connectTimeout: Math.max(500, opts.commandTimeoutMs * 10),
      // Forever, every 100 ms at first, then every second: Redis back after a restart is used within a second.
      retryStrategy: (times) => Math.min(100 * times, 1000),
      connectionName: 'hotel-imager-avatar',
      disableClientInfo: true,
    });
    this.client.on('ready', () => {
      this.connects++;
      this.pausedUntil = 0;
      opts.log?.('info', 'redis ready', { redis: redactRedisUrl(opts.url), connects: this.connects });
    });
    let reported = false;
    this.client.on('error', (err: Error) => {
      // Reconnect attempts fail once a second while Redis is down: say so once per outage.
      this.note(err);
      if (!reported)
        opts.log?.('warn', 'redis unavailable; serving from memory and rendering locally', {
          redis: redactRedisUrl(opts.url),
          error: err.message,
        });
      reported = true;
    });
    this.client.on('ready', () => {
      reported = false;
    });
  }

  async getMany(keys: string[]): Promise<(Buffer | undefined)[] | undefined> {
    if (!this.available()) return undefined;
    try {
      const values = await this.timed(this.client.mgetBuffer(...keys));
      return values.map((v) => v ?? undefined);
    } catch (err) {
      this.fail(err);
      return undefined;
    }
  }

  async set(key: string, value: Buffer, ttlMs: number): Promise<boolean> {
    if (!this.available()) return false;
    try {
      await this.timed(this.client.set(key, value, 'PX', Math.max(1, Math.round(ttlMs))));
      return true;
    } catch (err) {
      this.fail(err);
      return false;
    }
  }

  async setIfAbsent(key: string, value: Buffer, ttlMs: number): Promise<boolean | undefined> {
    if (!this.available()) return undefined;
    try {
      return (await this.timed(this.client.set(key, value, 'PX', Math.max(1, Math.round(ttlMs)), 'NX'))) === 'OK';
    } catch (err) {
      this.fail(err);
      return undefined;
    }
  }

  async deleteIf(key: string, value: Buffer): Promise<void> {
    if (!this.available()) return;
    try {
      await this.timed(this.client.eval(DELETE_IF, 1, key, value));
    } catch (err) {
      this.fail(err);
    }
  }

  async publish(channel: string, message: string): Promise<void> {
    if (!this.available()) return;
    try {
      await this.timed(this.client.publish(channel, message));
    } catch (err) {
      this.fail(err);
    }
  }

  subscribe(channel: string, listener: (message: string) => void): void {
    let set = this.listeners.get(channel);
    if (!set) this.listeners.set(channel, (set = new Set()));
    set.add(listener);
    if (!this.subscriber) {
      const sub = this.client.duplicate();
      this.subscriber = sub;
      sub.on('error', () => undefined); // the command connection reports the outage
      sub.on('message', (ch: string, msg: string) => {
        for (const l of this.listeners.get(ch) ?? []) l(msg);
      });
      // With the offline queue off, SUBSCRIBE is sent once connected (ioredis resubscribes after a reconnect).
      sub.on('ready', () => void sub.subscribe(...this.listeners.keys()).catch(() => undefined));
    } else if (this.subscriber.status === 'ready') {
      void this.subscriber.subscribe(channel).catch(() => undefined);
    }
  }

  status(): SharedStoreStatus {
    const state = this.client.status === 'ready' && Date.now() < this.pausedUntil ? 'paused' : this.client.status;
    return {
      kind: 'redis',
      target: redactRedisUrl(this.opts.url),
      state,
      available: this.available(),
      errors: this.errors,
      lastError: this.lastError,
      connects: this.connects,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.subscriber?.disconnect();
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }

  /**
   * The command's reply, or a timeout error once `commandTimeoutMs` has passed. When the timer fires,
   * one more turn of the event loop reads what the socket already holds: a reply that came in time
   * while this process was busy rendering or encoding is not a slow Redis.
   */
  private timed<T>(command: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        setImmediate(() => {
          if (settled) return;
          settled = true;
          reject(new Error(`Redis command timed out after ${this.opts.commandTimeoutMs} ms`));
        });
      }, this.opts.commandTimeoutMs);
      command.then(
        (v) => {
          clearTimeout(timer);
          if (settled) return;
          settled = true;
          resolve(v);
        },
        (err: unknown) => {
          clearTimeout(timer);
          if (settled) return;
          settled = true;
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
  }

  /** Ready and not paused after a recent failure. */
  private available(): boolean {
    return !this.closed && this.client.status === 'ready' && Date.now() >= this.pausedUntil;
  }

  private fail(err: unknown): void {
    this.note(err as Error);
    this.pausedUntil = Date.now() + this.pauseMs;
  }

  private note(err: Error): void {
    this.errors++;
    this.lastError = `${new Date().toISOString()} ${err?.message ?? String(err)}`;
  }
}
