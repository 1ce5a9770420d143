// The corpus as the server sees it: the current corpus.json table, a size-bounded memory cache of file
// bodies, and a bounded-rate check that picks up a rebuilt corpus.json without a restart. A corpus.json
// that goes missing or fails to load keeps the previous table in service and is reported by health().
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { access, readFile, realpath, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { LRUCache } from 'lru-cache';
import { parseCorpusManifest, type CorpusFile, type CorpusManifest } from './corpus-manifest.js';

export interface StoreLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface CorpusStoreOptions {
  dir: string;
  /** Bytes of file bodies kept in memory (least recently used evicted first). 0 disables the cache. */
  memoryBudget: number;
  /** Minimum milliseconds between two looks at corpus.json's stat. */
  checkIntervalMs: number;
  log: StoreLog;
}

/** Why a listed file could not be served. `missing` → 404; `changed` → 503 until corpus.json catches up. */
export class AssetReadError extends Error {
  constructor(
    readonly reason: 'missing' | 'outside' | 'changed' | 'io',
    message: string,
  ) {
    super(message);
    this.name = 'AssetReadError';
  }
}

export interface StorageCheck {
  ok: boolean;
  dir: string;
  /** What is wrong, when something is. */
  error?: string;
  /** The table in service (possibly older than a broken corpus.json on disk). */
  corpus: {
    builtAt: string;
    rendererVersion: string;
    loadedAt: string;
    counts: CorpusManifest['counts'];
    files: number;
    ignored: number;
  } | null;
  memory: { cachedBytes: number; cachedFiles: number; budget: number };
}

export class CorpusStore {
  readonly dir: string;
  private manifest: CorpusManifest | undefined;
  private loadedAt = '';
  private realRoot = '';
  /** stat signature of the corpus.json last read (loaded or failed), so a broken file is read once. */
  private seenSignature = '';
  private loadError: string | undefined;
  private lastCheck = 0;
  private checking: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly cache: LRUCache<string, Buffer> | undefined;
  private readonly inflight = new Map<string, Promise<Buffer>>();
  /** Base classname → bundle file, built once per loaded table on first use (variants, player page). */
  private readonly bundleIndex = new WeakMap<CorpusManifest, Map<string, CorpusFile>>();

  constructor(private readonly opts: CorpusStoreOptions) {
    this.dir = resolve(opts.dir);
    this.cache = opts.memoryBudget > 0
      ? new LRUCache<string, Buffer>({ maxSize: opts.memoryBudget, sizeCalculation: (b) => Math.max(1, b.length) })
      : undefined;
  }

  get manifestPath(): string {
    return join(this.dir, 'corpus.json');
  }

  /** The file a corpus key names in the current table. */
  lookup(key: string): CorpusFile | undefined {
    return this.manifest?.files.get(key);
  }

  /** The published bundle of a base classname (the highest revision if several are listed). */
  bundleOf(base: string): CorpusFile | undefined {
    const m = this.manifest;
    if (!m) return undefined;
    let index = this.bundleIndex.get(m);
    if (!index) {
      index = new Map();
      const revisionOf = (f: CorpusFile) => Number(f.key.split('/')[1]);
      for (const f of m.files.values()) {
        if (f.kind !== 'bundle') continue;
        const name = f.key.slice(f.key.lastIndexOf('/') + 1, -'.bundle'.length);
        const had = index.get(name);
        if (!had || revisionOf(f) > revisionOf(had)) index.set(name, f);
      }
      this.bundleIndex.set(m, index);
    }
    return index.get(base);
  }

  /** The file's bytes: from memory when hot (synchronously), else read from disk and kept if they fit. */
  body(file: CorpusFile): Buffer | Promise<Buffer> {
    // Keyed by content hash: a rebuild that keeps a file's bytes keeps it hot.
    const hit = this.cache?.get(file.sha256);
    if (hit) return hit;
    let pending = this.inflight.get(file.key);
    if (!pending) {
      pending = this.readListed(file).finally(() => this.inflight.delete(file.key));
      this.inflight.set(file.key, pending);
    }
    return pending;
  }

  private async readListed(file: CorpusFile): Promise<Buffer> {
    const path = join(this.dir, ...file.key.split('/'));
    let real: string;
    try {
      real = await realpath(path);
    } catch (e) {
      throw new AssetReadError('missing', `${file.key}: listed in corpus.json but ${(e as NodeJS.ErrnoException).code ?? 'unreadable'}`);
    }
    // A symlink may point anywhere; only bytes that really live in the corpus are served.
    if (!real.startsWith(this.realRoot + sep)) {
      throw new AssetReadError('outside', `${file.key}: resolves outside the corpus (${real})`);
    }
    let buf: Buffer;
    try {
      buf = await readFile(real);
    } catch (e) {
      throw new AssetReadError('io', `${file.key}: ${(e as Error).message}`);
    }
    // The ETag and immutable caching promise exactly the bytes corpus.json names. A rebuild (or one killed
    // mid-way) can leave different bytes of the same size, so the content itself is checked, once per read
    // from disk: the memory cache is keyed by that verified hash, so a hot file is not hashed again.
    if (buf.length !== file.size) {
      void this.checkForUpdate(true);
      throw new AssetReadError('changed', `${file.key}: ${buf.length} bytes on disk, corpus.json lists ${file.size} (rebuild in progress?)`);
    }
    const digest = createHash('sha256').update(buf).digest('hex');
    if (digest !== file.sha256) {
      void this.checkForUpdate(true);
      throw new AssetReadError('changed', `${file.key}: sha256 on disk ${digest}, corpus.json lists ${file.sha256} (rebuild in progress?)`);
    }
    this.cache?.set(file.sha256, buf);
    return buf;
  }

  /** First load; the store starts even when the corpus is absent or broken, and health() says so. */
  async open(): Promise<void> {
    await this.checkForUpdate(true);
  }

  /** Polls corpus.json at the configured interval; the timer never keeps the process alive. */
  startWatching(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.checkForUpdate(), this.opts.checkIntervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Reloads corpus.json if its stat changed since it was last read; at most once per interval unless forced. */
  checkForUpdate(force = false): Promise<void> {
    const now = Date.now();
    if (this.checking) return this.checking;
    if (!force && now - this.lastCheck < this.opts.checkIntervalMs) return Promise.resolve();
    this.lastCheck = now;
    this.checking = this.reloadIfChanged().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async reloadIfChanged(): Promise<void> {
    const file = this.manifestPath;
    let signature: string;
    try {
      const st = await stat(file);
      signature = `${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch (e) {
      this.fail(`corpus.json cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      this.seenSignature = '';
      return;
    }
    if (signature === this.seenSignature) return;
    this.seenSignature = signature;
    try {
      const [bytes, realRoot] = await Promise.all([readFile(file), realpath(this.dir)]);
      const manifest = parseCorpusManifest(bytes, file);
      this.manifest = manifest;
      this.realRoot = realRoot;
      this.loadedAt = new Date().toISOString();
      this.loadError = undefined;
      this.opts.log.info(
        { corpus: this.dir, builtAt: manifest.builtAt, files: manifest.files.size, counts: manifest.counts },
        'corpus loaded',
      );
    } catch (e) {
      this.fail(`corpus.json failed to load: ${(e as Error).message}`);
    }
  }

  private fail(error: string): void {
    if (error !== this.loadError) {
      this.opts.log.error(
        { corpus: this.dir, error, serving: this.manifest ? this.manifest.builtAt : null },
        this.manifest ? 'corpus reload failed; still serving the previous corpus' : 'corpus unavailable',
      );
    }
    this.loadError = error;
  }

  /** A live storage check: the folder is readable, corpus.json is current and loaded. */
  async health(): Promise<StorageCheck> {
    await this.checkForUpdate(true);
    let error = this.loadError;
    try {
      await access(this.dir, constants.R_OK | constants.X_OK);
    } catch (e) {
      error = `corpus folder is not readable: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
    }
    if (!error && !this.manifest) error = 'no corpus loaded';
    const m = this.manifest;
    return {
      ok: error === undefined,
      dir: this.dir,
      ...(error !== undefined ? { error } : {}),
      corpus: m
        ? {
            builtAt: m.builtAt,
            rendererVersion: m.rendererVersion,
            loadedAt: this.loadedAt,
            counts: m.counts,
            files: m.files.size,
            ignored: m.ignored,
          }
        : null,
      memory: {
        cachedBytes: this.cache?.calculatedSize ?? 0,
        cachedFiles: this.cache?.size ?? 0,
        budget: this.opts.memoryBudget,
      },
    };
  }
}
