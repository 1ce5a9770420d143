// One piece of work at a time per key: a second ask for a key whose work is under way joins it instead of
// starting another. The work is forgotten as soon as it settles, fulfilled or rejected, so what it made is
// kept by the caller's own cache (if any) and a failure is tried again by the next ask.

/** Work in flight by key: `run` shares one promise per key while it is pending. */
export class KeyedInflight<T> {
  private readonly pending = new Map<string, Promise<T>>();

  /** How many keys have work in flight (the metrics' "in flight"). */
  get size(): number {
    return this.pending.size;
  }

  /** Whether work for `key` is in flight. */
  has(key: string): boolean {
    return this.pending.has(key);
  }

  /** The promise of the work in flight for `key`, or undefined: for a caller that counts or answers joins. */
  get(key: string): Promise<T> | undefined {
    return this.pending.get(key);
  }

  /**
   * The work in flight for `key` if there is one, else `make()` started now (synchronously) and shared until
   * it settles. Whoever awaits the returned promise resumes after the key is forgotten: a retry on failure
   * starts afresh. A `make` that throws synchronously gives a rejected promise and leaves nothing behind.
   */
  run(key: string, make: () => Promise<T>): Promise<T> {
    const held = this.pending.get(key);
    if (held) return held;
    let started: Promise<T>;
    try {
      started = Promise.resolve(make());
    } catch (err) {
      return Promise.reject(err);
    }
    const shared = started.finally(() => {
      if (this.pending.get(key) === shared) this.pending.delete(key);
    });
    this.pending.set(key, shared);
    return shared;
  }
}
