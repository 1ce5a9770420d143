// Rendered images by cache key: an LRU in memory bounded in bytes, and optionally a directory on disk
// (bounded too) that survives restarts. Disk writes go to a temporary name and are renamed into place,
// so a crash never leaves a torn image behind. Keys are fixed-size digests (cache-key.ts), so what an
// entry holds is its image plus a constant, and the memory budget bounds what the cache really holds.
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { isTempName, writeFileAtomic } from '../../util/atomic-write.js';
import { imageContentType, imageFrameCount } from './png-frames.js';

/** Length of a cache key: SHA-256 in hex (every image kind digests its canonical key the same way). */
export const CACHE_KEY_LENGTH = 64;

/** Where an answered image came from (the `x-imager-cache` header): the tiers, then a fresh render. */
export type ImageSource = 'memory' | 'disk' | 'redis' | 'render';

/** An image that never changes for its URL (a `?figure=` avatar, a badge code): cached for a year. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable, stale-while-revalidate=86400';

export interface CachedImage {
  /** PNG/APNG or GIF bytes. */
  body: Buffer;
  /** `image/png` or `image/gif`, from the body's signature. */
  type: string;
  /** Strong ETag, quoted. */
  etag: string;
  frames: number;
}

export interface ImageCacheOptions {
  memoryBytes: number;
  /** Directory for the disk cache; undefined disables it. */
  diskDir?: string;
  diskBytes: number;
}

export interface ImageCacheStats {
  memory: { entries: number; bytes: number; maxBytes: number; hits: number; misses: number };
  disk: {
    dir: string | null;
    entries: number;
    bytes: number;
    maxBytes: number;
    hits: number;
    writes: number;
    errors: number;
  };
}

/**
 * Bytes an entry holds besides its PNG: the 64-character key, the ETag, the entry object, the Buffer's
 * own objects and the LRU's bookkeeping (rounded up: docs/avatar-service.md, "Memory").
 */
export const ENTRY_OVERHEAD = 640;

/**
 * Disk entries count whole 4 KiB blocks, as the filesystem allocates them: a 300-byte PNG takes a block.
 * This also keeps the in-memory index of the disk cache (one entry per file) bounded by the disk budget.
 */
const DISK_BLOCK = 4096;
const diskSize = (bytes: number) => Math.ceil(Math.max(1, bytes) / DISK_BLOCK) * DISK_BLOCK;

const KEY = new RegExp(`^[0-9a-f]{${CACHE_KEY_LENGTH}}$`);
function checkKey(key: string): void {
  // A key names a file on disk: only a digest may be one.
  if (!KEY.test(key)) throw new Error('an image cache key is a SHA-256 digest in hex');
}
/**
 * Strong ETag of the bytes and of what made them (`version`: the key version, renderer version + the
 * digest of what the render read), so a client revalidating after an update of what its image is drawn
 * from never keeps it under a tag the new assets also answer; an update elsewhere keeps the tag.
 */
export function imageEtag(body: Uint8Array, version = ''): string {
  const h = createHash('sha256');
  if (version !== '') h.update(version + '\n');
  return '"' + h.update(body).digest('base64url').slice(0, 32) + '"';
}

export function cachedImage(body: Buffer, frames: number, version = ''): CachedImage {
  return { body, type: imageContentType(body), etag: imageEtag(body, version), frames };
}

export class ImageCache {
  private readonly memory: LRUCache<string, CachedImage>;
  private memoryHits = 0;
  private memoryMisses = 0;
  /** Disk entries oldest first: digest → size on disk (whole blocks). */
  private readonly diskIndex = new Map<string, number>();
  private diskBytesUsed = 0;
  private diskHits = 0;
  private diskWrites = 0;
  private diskErrors = 0;
  private readonly madeDirs = new Set<string>();
  private readonly writing = new Set<Promise<void>>();

  constructor(
    private readonly opts: ImageCacheOptions,
    private readonly onError: (msg: string) => void = () => undefined,
  ) {
    this.memory = new LRUCache<string, CachedImage>({
      maxSize: Math.max(1, opts.memoryBytes),
      sizeCalculation: (v) => v.body.length + ENTRY_OVERHEAD,
    });
  }

  /** Reads what an earlier run left on disk, oldest first, and trims it to the budget. */
  async open(): Promise<void> {
    const dir = this.opts.diskDir;
    if (dir === undefined) return;
    await mkdir(dir, { recursive: true });
    const found: { digest: string; size: number; mtime: number }[] = [];
    for (const sub of await readdir(dir)) {
      if (!/^[0-9a-f]{2}$/.test(sub)) continue;
      for (const name of await readdir(join(dir, sub)).catch(() => [] as string[])) {
        const path = join(dir, sub, name);
        if (isTempName(name) || name.includes('.tmp-')) {
          // `.tmp-` names: temporary files of releases before the shared atomic write
          await unlink(path).catch(() => undefined); // left by a crash mid-write
          continue;
        }
        const m = /^([0-9a-f]{64})\.png$/.exec(name);
        if (!m) continue;
        const st = await stat(path).catch(() => undefined);
        if (st?.isFile()) found.push({ digest: m[1]!, size: diskSize(st.size), mtime: st.mtimeMs });
      }
    }
    found.sort((a, b) => a.mtime - b.mtime);
    for (const f of found) {
      this.diskIndex.set(f.digest, f.size);
      this.diskBytesUsed += f.size;
    }
    await this.trimDisk();
  }

  /** Whether there is a disk cache to look in. */
  get hasDisk(): boolean {
    return this.opts.diskDir !== undefined;
  }

  /** The hot path: memory only, synchronous. */
  getMemory(key: string): CachedImage | undefined {
    const hit = this.memory.get(key);
    if (hit) this.memoryHits++;
    else this.memoryMisses++;
    return hit;
  }

  /**
   * `version`: what made the entry, the key version it was keyed with (its ETag's, see imageEtag; badges share the
   * cache).
   */
  async getDisk(key: string, version: string): Promise<CachedImage | undefined> {
    const dir = this.opts.diskDir;
    if (dir === undefined) return undefined;
    checkKey(key);
    const digest = key;
    const size = this.diskIndex.get(digest);
    if (size === undefined) return undefined;
    try {
      const body = await readFile(this.diskPath(digest));
      const image = cachedImage(body, imageFrameCount(body), version);
      this.diskHits++;
      this.diskIndex.delete(digest);
      this.diskIndex.set(digest, size);
      this.memory.set(key, image);
      return image;
    } catch (err) {
      this.diskErrors++;
      this.forgetDisk(digest);
      this.onError(`disk cache read failed for ${digest}: ${(err as Error).message}`);
      return undefined;
    }
  }

  /** Stores in memory now and on disk in the background. */
  put(key: string, image: CachedImage): void {
    checkKey(key);
    this.memory.set(key, image);
    if (this.opts.diskDir !== undefined) {
      const write = this.writeDisk(key, image.body)
        .catch((err: unknown) => {
          this.diskErrors++;
          this.onError(`disk cache write failed: ${(err as Error).message}`);
        })
        .finally(() => this.writing.delete(write));
      this.writing.add(write);
    }
  }

  /** Waits for background disk writes (on shutdown, so a restart finds what was rendered). */
  async flush(): Promise<void> {
    while (this.writing.size > 0) await Promise.all([...this.writing]);
  }

  stats(): ImageCacheStats {
    return {
      memory: {
        entries: this.memory.size,
        bytes: this.memory.calculatedSize,
        maxBytes: this.opts.memoryBytes,
        hits: this.memoryHits,
        misses: this.memoryMisses,
      },
      disk: {
        dir: this.opts.diskDir ?? null,
        entries: this.diskIndex.size,
        bytes: this.diskBytesUsed,
        maxBytes: this.opts.diskBytes,
        hits: this.diskHits,
        writes: this.diskWrites,
        errors: this.diskErrors,
      },
    };
  }

  /** Named `.png` whatever the format: the key names the image; its signature tells PNG from GIF. */
  private diskPath(digest: string): string {
    return join(this.opts.diskDir!, digest.slice(0, 2), digest + '.png');
  }

  private async writeDisk(digest: string, body: Buffer): Promise<void> {
    if (this.diskIndex.has(digest)) return;
    const size = diskSize(body.length);
    if (size > this.opts.diskBytes) return;
    await writeFileAtomic(this.diskPath(digest), body, this.madeDirs);
    this.diskWrites++;
    if (!this.diskIndex.has(digest)) {
      this.diskIndex.set(digest, size);
      this.diskBytesUsed += size;
    }
    await this.trimDisk();
  }

  private forgetDisk(digest: string): void {
    const size = this.diskIndex.get(digest);
    if (size === undefined) return;
    this.diskIndex.delete(digest);
    this.diskBytesUsed -= size;
  }

  private async trimDisk(): Promise<void> {
    while (this.diskBytesUsed > this.opts.diskBytes && this.diskIndex.size > 0) {
      const oldest = this.diskIndex.keys().next().value as string;
      this.forgetDisk(oldest);
      await unlink(this.diskPath(oldest)).catch(() => undefined);
    }
  }
}
