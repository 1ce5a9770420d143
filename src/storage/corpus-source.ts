// Where a served corpus lives: corpus.json plus the bytes of each file it lists. The furni server's
// store (src/core/furni/corpus-store.ts) keeps the table, the memory cache and the polling; a source
// only reads. Two sources: a local folder (disk-corpus-source.ts) and a bucket (s3-corpus-source.ts).

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

/** corpus.json could not be read; `unreachable` when the storage itself did not answer. */
export class ManifestReadError extends Error {
  constructor(
    message: string,
    readonly unreachable: boolean,
  ) {
    super(message);
    this.name = 'ManifestReadError';
  }
}

/** A corpus.json read: unchanged since the version the caller holds, or new bytes with their version. */
export type ManifestRead = { changed: false } | { changed: true; bytes: Buffer; version: string };

/** What a listed file is, as far as reading it goes. */
export interface ListedFile {
  key: string;
  sha256: string;
  size: number;
}

export interface CorpusSource {
  readonly backend: 'disk' | 's3';
  /** The folder, or s3://bucket/prefix/. */
  readonly location: string;
  /**
   * corpus.json unless it is still `known` (a version this source returned before). Throws a
   * ManifestReadError whose message says what is wrong (shown in /healthz) when it cannot be read.
   */
  readManifest(known: string | undefined): Promise<ManifestRead>;
  /** The bytes of a listed file, unverified (the store checks size and sha256). Throws AssetReadError. */
  readObject(file: ListedFile): Promise<Buffer>;
  /** A check beyond reading corpus.json (e.g. folder permissions); the problem, or undefined. */
  probe(): Promise<string | undefined>;
  /** Extra fields for /healthz (e.g. the endpoint). */
  describe(): Record<string, unknown>;
  close(): void;
}
