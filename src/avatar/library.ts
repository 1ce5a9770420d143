// Figure libraries: which library holds a part (from the figure map), lazy loading on first use into
// a byte-bounded LRU, and asset lookup inside a library (aliases, flipped aliases).
import { LRUCache } from 'lru-cache';
import { KeyedInflight } from '../util/keyed-inflight.js';
import { type AssetLibrary } from '../formats/asset-library.js';
import { type RgbaImage } from '../imaging/image.js';
import { AvatarRenderError } from './errors.js';
import { LibraryChangedError } from '../hotel/avatar.js';
import { type FigureMapDoc } from '../formats/gamedata/figure-types.js';

export interface ResolvedAsset {
  sprite: RgbaImage;
  /** Registration offset as the library stores it (sprite top-left = registration − offset). */
  x: number;
  y: number;
  /** The asset is an alias drawn mirrored. */
  flipH: boolean;
  /** Name of the asset looked up (not the alias source). */
  name: string;
}

interface RawAsset {
  x?: number;
  y?: number;
  source?: string;
  flipH?: boolean;
  usesPalette?: boolean;
}

/** `ch:215` for a sprite name `{h|sh}_{action}_{type}_{id}_{direction}_{frame}`; undefined for other names. */
export function partKeyOfAsset(name: string): string | undefined {
  const bits = name.split('_');
  return bits.length === 6 && (bits[0] === 'h' || bits[0] === 'sh') ? `${bits[2]}:${Number(bits[3])}` : undefined;
}

/** Part key (`ch:215`) → the libraries with a sprite of it, from every library's asset names. */
export type PartIndex = Map<string, string[]>;

/** The part keys (`ch:215`) a library has sprites or aliases of, from its asset and alias names. */
export function partKeysOf(names: Iterable<string>): string[] {
  const keys = new Set<string>();
  for (const n of names) {
    const key = partKeyOfAsset(n);
    if (key) keys.add(key);
  }
  return [...keys];
}

/** The part index from each readable library's part keys (`partKeysOf`); libraries listed in name order. */
export function partIndexFrom(keysByLibrary: Iterable<[string, readonly string[]]>): PartIndex {
  const index: PartIndex = new Map();
  for (const [lib, keys] of [...keysByLibrary].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    for (const key of keys) {
      const list = index.get(key);
      if (!list) index.set(key, [lib]);
      else if (list[list.length - 1] !== lib) list.push(lib);
    }
  }
  return index;
}

/** One loaded library with a memo of resolved asset names. */
export class FigureLibrary {
  private readonly memo = new Map<string, ResolvedAsset | null>();
  private partKeys: Set<string> | undefined;
  readonly bytes: number;

  constructor(readonly lib: AssetLibrary) {
    let b = 4096;
    for (const s of lib.sprites.values()) b += s.data.length;
    this.bytes = b;
  }

  get name(): string {
    return this.lib.name;
  }

  /** True when the library positions `sh_` (small) sprites itself. */
  hasSmallOffsets(): boolean {
    const assets = (this.lib.data.assets ?? {}) as Record<string, RawAsset>;
    for (const [n, a] of Object.entries(assets))
      if (n.startsWith('sh_') && a && (a.x !== undefined || a.source)) return true;
    return false;
  }

  /** True when the library has any sprite of part `type`-`id` (`h_std_ch_210_2_0`, `sh_…`), any action or direction. */
  hasPart(type: string, id: number): boolean {
    return this.hasPartKey(`${type}:${id}`);
  }

  /** `hasPart` by its key `type:id`. */
  hasPartKey(key: string): boolean {
    if (!this.partKeys) {
      this.partKeys = new Set();
      const names = [
        ...Object.keys((this.lib.data.assets ?? {}) as Record<string, unknown>),
        ...Object.keys((this.lib.data as { aliases?: object }).aliases ?? {}),
      ];
      for (const n of names) {
        const key = partKeyOfAsset(n);
        if (key) this.partKeys.add(key);
      }
    }
    return this.partKeys.has(key);
  }

  asset(name: string): ResolvedAsset | null {
    const hit = this.memo.get(name);
    if (hit !== undefined) return hit;
    const r = this.resolve(name, 0);
    this.memo.set(name, r);
    return r;
  }

  private resolve(name: string, depth: number): ResolvedAsset | null {
    if (depth > 4) return null;
    // `AssetAliasCollection.getAsset` follows an alias before it looks for an asset of that name: a name
    // that is both (UFOblue's `h_std_fx3_2_1_7_0`, its direction-7 glow) draws the alias's target.
    const aliases = (this.lib.data as { aliases?: Record<string, { link?: string; fliph?: number | boolean }> })
      .aliases;
    const al = aliases?.[name];
    if (al?.link) {
      const inner = this.resolve(al.link, depth + 1);
      if (inner) return { ...inner, flipH: inner.flipH !== !!al.fliph, name };
    }
    const assets = (this.lib.data.assets ?? {}) as Record<string, RawAsset>;
    const a = assets[name];
    if (a) {
      const src = a.source && a.source !== name ? a.source : name;
      let sprite = this.lib.sprites.get(src);
      let flipH = !!a.flipH;
      if (!sprite && a.source && a.source !== name) {
        // An alias of an alias: take the pixels (and flip) of the final source, our own offset.
        const inner = this.resolve(a.source, depth + 1);
        if (inner) {
          sprite = inner.sprite;
          flipH = flipH !== inner.flipH;
        }
      }
      if (!sprite) return null;
      return { sprite, x: Number(a.x ?? 0), y: Number(a.y ?? 0), flipH, name };
    }
    return null;
  }
}

/** One hotel's libraries in one thread; the avatar service splits its own budget across its workers. */
export const DEFAULT_LIBRARY_CACHE_BYTES = 256 * 1024 * 1024;

export type LibraryLoader = (name: string) => Promise<AssetLibrary>;

/** Loaded libraries by key, bounded in decoded bytes. */
export type LibraryCache = LRUCache<string, FigureLibrary>;

/** A library's key in a shared cache: its name and the digest of its bytes. */
export const libraryCacheKey = (name: string, digest: string | undefined): string => `${name}\0${digest ?? ''}`;

export function createLibraryCache(bytes: number): LibraryCache {
  return new LRUCache<string, FigureLibrary>({
    maxSize: Math.max(1, Math.floor(bytes)),
    sizeCalculation: (l) => l.bytes,
  });
}

/**
 * A figure cache and an effect cache for one thread: effect libraries are small (the public set's 203 are
 * 4 MB), so an eighth of the figure budget bounds them.
 */
export function createLibraryCaches(bytes = DEFAULT_LIBRARY_CACHE_BYTES): {
  figure: LibraryCache;
  effect: LibraryCache;
} {
  return { figure: createLibraryCache(bytes), effect: createLibraryCache(Math.max(1, Math.floor(bytes / 8))) };
}

export interface LibraryStoreOptions {
  /** Upper bound of decoded sprite bytes kept in memory (default 256 MiB); ignored with `cache`. */
  cacheBytes?: number;
  /** Which libraries hold which parts, read from the libraries themselves (when the layout allows). */
  partIndex?: PartIndex;
  /**
   * A cache shared with other stores (the hotels a render thread holds across a reload), keyed by
   * `cacheKey`: a library with the same bytes in two hotels is loaded once and stays warm.
   */
  cache?: LibraryCache;
  /** The shared cache's key of a library: what identifies its bytes (their digest). */
  cacheKey?: (name: string) => string;
}

export class LibraryStore {
  private readonly cache: LibraryCache;
  private readonly keyOf: (name: string) => string;
  /** Loads in flight, by library name (not the cache key): concurrent asks share one load. */
  private readonly inflight = new KeyedInflight<FigureLibrary>();
  /** `type:id` → library names holding that part, preferred first. */
  private readonly partLibs = new Map<string, string[]>();
  /** Bounded by the figure data's parts: only parts of real sets are asked for. */
  private readonly withMirror = new Map<string, string[]>();
  private readonly ofSet = new WeakMap<object, string[]>();
  /** Worn sets (`ch-210`) found to have sprites; bounded by the figure data's sets. */
  private readonly drawableSets = new Set<string>();

  private readonly partIndex: PartIndex | undefined;

  constructor(
    map: FigureMapDoc,
    readonly available: Set<string>,
    private readonly loader: LibraryLoader,
    opts: LibraryStoreOptions = {},
  ) {
    this.partIndex = opts.partIndex;
    this.cache = opts.cache ?? createLibraryCache(opts.cacheBytes ?? DEFAULT_LIBRARY_CACHE_BYTES);
    this.keyOf = opts.cache && opts.cacheKey ? opts.cacheKey : (name) => name;
    for (const lib of map.libraries ?? []) {
      if (!lib?.id || !available.has(lib.id)) continue;
      for (const p of lib.parts ?? []) {
        if (p?.id === null || p?.id === undefined || !p.type) continue;
        const key = `${p.type}:${p.id}`;
        const list = this.partLibs.get(key) ?? [];
        if (!list.includes(lib.id)) list.push(lib.id);
        this.partLibs.set(key, list);
      }
    }
    // The small-size `hh_human_50_*` copies are a last resort for every part.
    for (const list of this.partLibs.values())
      list.sort((a, b) => Number(a.startsWith('hh_human_50_')) - Number(b.startsWith('hh_human_50_')));
  }

  /** Decoded sprite bytes held now (what the cache budget bounds). */
  get cachedBytes(): number {
    return this.cache.calculatedSize;
  }

  librariesFor(type: string, id: number): string[] {
    return this.partLibs.get(`${type}:${id}`) ?? [];
  }

  /** Whether the figure map or the part index names a library with this part (a hand item's id, say). */
  hasPart(type: string, id: number): boolean {
    const key = `${type}:${id}`;
    return this.partLibs.has(key) || !!this.partIndex?.has(key);
  }

  /**
   * The libraries a render wearing a set loads, memoised per set: every figure-map library of its parts
   * (and their mirror types). When none of those holds a sprite of the set but other libraries of the
   * hotel do (the figure map forgot the whole set), those: the client draws them once any avatar loaded
   * them, and a render must not depend on what was rendered before.
   */
  librariesOfSet(
    set: { drawParts: readonly { type: string; id: number }[] },
    mirrors: ReadonlyMap<string, string>,
  ): string[] {
    let hit = this.ofSet.get(set);
    if (!hit) {
      const mapped = [
        ...new Set(set.drawParts.flatMap((p) => this.librariesWithMirror(p.type, p.id, mirrors.get(p.type)))),
      ];
      hit = mapped;
      const index = this.partIndex;
      if (index) {
        const keys = set.drawParts.map((p) => `${p.type}:${p.id}`);
        if (!keys.some((k) => index.get(k)?.some((l) => mapped.includes(l))))
          hit = [...new Set([...mapped, ...keys.flatMap((k) => index.get(k) ?? [])])];
      }
      this.ofSet.set(set, hit);
    }
    return hit;
  }

  /** Whether any library of the hotel has a sprite of the set; undefined when the hotel has no part index. */
  setHasSprites(set: { drawParts: readonly { type: string; id: number }[] }): boolean | undefined {
    const index = this.partIndex;
    if (!index) return undefined;
    return set.drawParts.some((p) => index.has(`${p.type}:${p.id}`));
  }

  /** The libraries of a part and of its mirror type (`ls` → also `rs`), memoised: planned for every part drawn. */
  librariesWithMirror(type: string, id: number, mirror: string | undefined): string[] {
    const key = `${type}:${id}:${mirror ?? ''}`;
    let hit = this.withMirror.get(key);
    if (!hit) {
      hit = [
        ...new Set([
          ...this.librariesFor(type, id),
          ...(mirror && mirror !== type ? this.librariesFor(mirror, id) : []),
        ]),
      ];
      this.withMirror.set(key, hit);
    }
    return hit;
  }

  /**
   * Whether a worn set has sprites in the libraries a figure loads, asking `check` only until it says yes:
   * library files do not change under a loaded hotel, so a set found drawable once stays drawable.
   */
  isDrawable(label: string, check: () => boolean): boolean {
    if (this.drawableSets.has(label)) return true;
    if (!check()) return false;
    this.drawableSets.add(label);
    return true;
  }

  peek(name: string): FigureLibrary | undefined {
    return this.cache.get(this.keyOf(name));
  }

  get size(): number {
    return this.cache.size;
  }

  async get(name: string): Promise<FigureLibrary> {
    const key = this.keyOf(name);
    const hit = this.cache.get(key);
    if (hit) return hit;
    return this.inflight.run(name, async () => {
      try {
        const lib = new FigureLibrary(await this.loader(name));
        this.cache.set(key, lib);
        return lib;
      } catch (e) {
        // The file is no longer what this hotel was read from: not a judgement on the request.
        if (e instanceof LibraryChangedError) throw new AvatarRenderError('asset-changed', e.message);
        throw new AvatarRenderError(
          'asset-load',
          `figure library ${name} could not be loaded: ${(e as Error).message}`,
        );
      }
    });
  }
}
