// The corpus as the server sees it: the current corpus.json table, a size-bounded memory cache of file
// bodies, and a bounded-rate check that picks up a newly built or published corpus.json without a
// restart. Where the bytes live (a folder, a bucket) is the source's business (src/storage/). A
// corpus.json that goes missing or fails to load keeps the previous table in service and is reported by
// health().
import { LRUCache } from 'lru-cache';
import { AssetReadError, ManifestReadError, type CorpusSource } from '../../storage/corpus-source.js';
import { parseCorpusManifest, type CorpusFile, type CorpusManifest } from './corpus-manifest.js';
import { sha256Hex } from '../../util/hash.js';
import { KeyedInflight } from '../../util/keyed-inflight.js';

export { AssetReadError } from '../../storage/corpus-source.js';

export interface StoreLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface CorpusStoreOptions {
  source: CorpusSource;
  /** Bytes of file bodies kept in memory (least recently used evicted first). 0 disables the cache. */
  memoryBudget: number;
  /** Minimum milliseconds between two looks at corpus.json. */
  checkIntervalMs: number;
  log: StoreLog;
}

export interface StorageCheck {
  ok: boolean;
  backend: 'disk' | 's3';
  /** The folder or s3://bucket/prefix/. */
  location: string;
  /** The last read of corpus.json reached the storage (a folder: it exists; a bucket: it answered). */
  reachable: boolean;
  /** What is wrong, when something is. */
  error?: string;
  /** The table in service (possibly older than a broken corpus.json in storage). */
  corpus: {
    builtAt: string;
    rendererVersion: string;
    loadedAt: string;
    counts: CorpusManifest['counts'];
    files: number;
    ignored: number;
  } | null;
  memory: { cachedBytes: number; cachedFiles: number; budget: number };
  /** Backend details: `dir` for a folder; `bucket`, `prefix`, `endpoint` for a bucket. */
  [detail: string]: unknown;
}

/** Why a read failed, as the metrics count it: a listed file (`read`) or corpus.json (`manifest`). */
export interface StorageErrorCounts {
  read: Record<AssetReadError['reason'], number>;
  manifest: { unreachable: number; unreadable: number; invalid: number };
}

/** What /metrics reports of the store (cheap: no storage access). */
export interface CorpusStoreStats {
  /** Tables loaded since start: 0 before the first, +1 for each new corpus.json picked up. */
  generation: number;
  /** When the table in service was loaded and built (ms since the epoch); undefined before the first. */
  loadedAtMs: number | undefined;
  builtAtMs: number | undefined;
  /** Served files of the table in service, by kind. */
  files: Record<string, number>;
  /** The last read of corpus.json reached the storage. */
  reachable: boolean;
  errors: StorageErrorCounts;
  memory: { bytes: number; files: number; budget: number };
}

export class CorpusStore {
  readonly source: CorpusSource;
  private manifest: CorpusManifest | undefined;
  private loadedAt = '';
  private generation = 0;
  private filesByKind: Record<string, number> = {};
  private readonly errors: StorageErrorCounts = {
    read: { missing: 0, outside: 0, changed: 0, io: 0 },
    manifest: { unreachable: 0, unreadable: 0, invalid: 0 },
  };
  /** Version (stat signature, ETag) of the corpus.json in service; a broken one is read again at each check. */
  private seenVersion: string | undefined;
  private loadError: string | undefined;
  private reachable = false;
  private lastCheck = 0;
  private checking: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly cache: LRUCache<string, Buffer> | undefined;
  /** Reads in flight, by file key. */
  private readonly inflight = new KeyedInflight<Buffer>();
  /** Base classname → bundle file, built once per loaded table on first use (variants, player page). */
  private readonly bundleIndex = new WeakMap<CorpusManifest, Map<string, CorpusFile>>();

  constructor(private readonly opts: CorpusStoreOptions) {
    this.source = opts.source;
    this.cache =
      opts.memoryBudget > 0
        ? new LRUCache<string, Buffer>({ maxSize: opts.memoryBudget, sizeCalculation: (b) => Math.max(1, b.length) })
        : undefined;
  }

  /** The folder or bucket address the corpus is read from. */
  get location(): string {
    return this.source.location;
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

  /** The file's bytes: from memory when hot (synchronously), else read from storage and kept if they fit. */
  body(file: CorpusFile): Buffer | Promise<Buffer> {
    // Keyed by content hash: a rebuild that keeps a file's bytes keeps it hot.
    const hit = this.cache?.get(file.sha256);
    if (hit) return hit;
    // A failed read is counted once, however many asks shared it.
    return this.inflight.run(file.key, () =>
      this.readListed(file).catch((e: unknown) => {
        this.errors.read[e instanceof AssetReadError ? e.reason : 'io']++;
        throw e;
      }),
    );
  }

  private async readListed(file: CorpusFile): Promise<Buffer> {
    let buf: Buffer;
    try {
      buf = await this.source.readObject(file);
    } catch (e) {
      // Gone from storage: if corpus.json moved on meanwhile, this reader was behind (503, retry);
      // if the current table still lists it, it is really missing (404).
      if (e instanceof AssetReadError && e.reason === 'missing') {
        await this.checkForUpdate(true);
        if (this.lookup(file.key) !== file)
          throw new AssetReadError('changed', `${e.message}; corpus.json has changed since`);
      }
      throw e;
    }
    // The ETag and immutable caching promise exactly the bytes corpus.json names. A rebuild (or one killed
    // mid-way) can leave different bytes of the same size, so the content itself is checked, once per read
    // from storage: the memory cache is keyed by that verified hash, so a hot file is not hashed again.
    const where = this.source.backend === 'disk' ? 'on disk' : 'in the bucket';
    if (buf.length !== file.size) {
      void this.checkForUpdate(true);
      throw new AssetReadError(
        'changed',
        `${file.key}: ${buf.length} bytes ${where}, corpus.json lists ${file.size} (rebuild in progress?)`,
      );
    }
    const digest = sha256Hex(buf);
    if (digest !== file.sha256) {
      void this.checkForUpdate(true);
      throw new AssetReadError(
        'changed',
        `${file.key}: sha256 ${where} ${digest}, corpus.json lists ${file.sha256} (rebuild in progress?)`,
      );
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
    this.source.close();
  }

  /** Reloads corpus.json if it changed since it was last read; at most once per interval unless forced. */
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
    let read;
    try {
      read = await this.source.readManifest(this.seenVersion);
    } catch (e) {
      this.reachable = !(e instanceof ManifestReadError && e.unreachable);
      this.errors.manifest[this.reachable ? 'unreadable' : 'unreachable']++;
      this.fail((e as Error).message);
      this.seenVersion = undefined;
      return;
    }
    this.reachable = true;
    if (!read.changed) return;
    try {
      const manifest = parseCorpusManifest(
        read.bytes,
        `${this.location.endsWith('/') ? this.location : `${this.location}/`}corpus.json`,
      );
      this.manifest = manifest;
      this.seenVersion = read.version;
      this.loadedAt = new Date().toISOString();
      this.loadError = undefined;
      this.generation++;
      const byKind: Record<string, number> = {};
      for (const f of manifest.files.values()) byKind[f.kind] = (byKind[f.kind] ?? 0) + 1;
      this.filesByKind = byKind;
      this.opts.log.info(
        { corpus: this.location, builtAt: manifest.builtAt, files: manifest.files.size, counts: manifest.counts },
        'corpus loaded',
      );
    } catch (e) {
      this.errors.manifest.invalid++;
      // Not remembered as seen: a store that is not atomic (some S3-compatible ones) can show a version
      // before all its bytes; the next check reads it again. The log says it once (fail() dedups).
      this.fail(`corpus.json failed to load: ${(e as Error).message}`);
    }
  }

  private fail(error: string): void {
    if (error !== this.loadError) {
      this.opts.log.error(
        { corpus: this.location, error, serving: this.manifest ? this.manifest.builtAt : null },
        this.manifest ? 'corpus reload failed; still serving the previous corpus' : 'corpus unavailable',
      );
    }
    this.loadError = error;
  }

  stats(): CorpusStoreStats {
    const builtAt = this.manifest ? Date.parse(this.manifest.builtAt) : NaN;
    return {
      generation: this.generation,
      loadedAtMs: this.manifest ? Date.parse(this.loadedAt) : undefined,
      builtAtMs: Number.isFinite(builtAt) ? builtAt : undefined,
      files: { ...this.filesByKind },
      reachable: this.reachable,
      errors: { read: { ...this.errors.read }, manifest: { ...this.errors.manifest } },
      memory: { bytes: this.cache?.calculatedSize ?? 0, files: this.cache?.size ?? 0, budget: this.opts.memoryBudget },
    };
  }

  /** A live storage check: the storage answers, corpus.json is current and loaded. */
  async health(): Promise<StorageCheck> {
    await this.checkForUpdate(true);
    let error = this.loadError;
    const problem = await this.source.probe();
    if (problem !== undefined) error = problem;
    if (!error && !this.manifest) error = 'no corpus loaded';
    const m = this.manifest;
    return {
      ok: error === undefined,
      backend: this.source.backend,
      location: this.location,
      ...this.source.describe(),
      reachable: this.reachable && problem === undefined,
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
