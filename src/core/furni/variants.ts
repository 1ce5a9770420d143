// On-demand variants (`serve furni --variants`): a reserved name of contract F2.6 under /furni-renders/ is
// rendered from the item's published bundle (never from the hotel's raw assets), kept in a bounded
// memory cache (and a disk folder when configured), and served like a published file: immutable cache,
// strong ETag (sha256 of the bytes, which are deterministic), CORS, HEAD and 304. A file `build
// --variants` pre-rendered into the corpus is served from the corpus instead. Only work costs: renders
// and bundle decodes take a token from the client's rate and the instance's budget (429 when spent),
// run at most `concurrency` at a time behind a bounded queue (429 when full), and a render slower than
// the timeout answers 503 (its result is still cached for the next request).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { readFurniBundle } from '../../furni/bundle.js';
import { RENDERER_VERSION } from '../../furni/version.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { sha256Hex } from '../../util/hash.js';
import { KeyedInflight } from '../../util/keyed-inflight.js';
import { type FurniModel } from '../../furni/model.js';
import { encodeVariant, frameCountOf, renderVariant, sizeOffer } from '../../furni/variant.js';
import { parseVariantName, type VariantRequest } from '../../furni/variant-name.js';
import { ifNoneMatchMatches } from '../../http/etag.js';
import {
  ClientRateLimiter,
  RenderBudget,
  type ClientRateOptions,
  type RenderBudgetOptions,
} from '../../http/limits.js';
import { decodeSegment } from './asset-path.js';
import { type AnswerLog, type AssetAnswer, type FurniTier } from './asset-answer.js';
import { corpusFile, type CorpusFile } from './corpus-manifest.js';
import { type CorpusStore } from './corpus-store.js';

export interface VariantOptions {
  /** Bytes of rendered variant files kept in memory. */
  memoryBudget: number;
  /** Bytes of decoded bundles (their sprites' pixels) kept in memory. */
  modelBudget: number;
  /** Folder where rendered files are also kept (content-addressed by bundle and name); none when absent. */
  cacheDir?: string;
  clientRate: ClientRateOptions;
  budget: RenderBudgetOptions;
  /** Renders running at once; more wait in a queue of `queue` places (429 past it). */
  concurrency: number;
  queue: number;
  /** A render not done in this time answers 503 (Retry-After: 1). */
  timeoutMs: number;
}

export const DEFAULT_VARIANT_OPTIONS: VariantOptions = {
  memoryBudget: 64 * 1024 * 1024,
  modelBudget: 64 * 1024 * 1024,
  clientRate: { perSecond: 20, burst: 60 },
  budget: { renders: 0, windowMs: 60_000 },
  concurrency: 2,
  queue: 64,
  timeoutMs: 5_000,
};

/** What a variant key holds in memory: the file, or a remembered refusal (404). */
type Cached = { file: CorpusFile; body: Buffer } | { refused: string };
/** A variant just produced, and how: read from the disk cache or rendered now. */
type Produced = { cached: Cached; source: FurniTier };

/** Called as variants are produced (the service's metrics). */
export interface VariantHooks {
  /** A render finished: its seconds, bundle decode (when not in memory) and encode included. */
  rendered?(seconds: number): void;
}

interface LoadedModel {
  model: FurniModel;
  bytes: number;
}

export class VariantService {
  private readonly files: LRUCache<string, Cached>;
  private readonly models: LRUCache<string, LoadedModel>;
  /** Variants being produced, by `<bundle sha256>/<name>`. */
  private readonly inflight = new KeyedInflight<Produced | 'busy' | 'timeout'>();
  /** Bundle decodes in flight, by bundle sha256. */
  private readonly modelLoads = new KeyedInflight<FurniModel>();
  private readonly clientRate: ClientRateLimiter;
  private readonly budget: RenderBudget;
  private running = 0;
  private readonly memo = new Map<string, VariantRef | null>();
  private readonly waiting: (() => void)[] = [];
  /** Counters for /healthz and the tests. */
  readonly stats = { rendered: 0, refused: 0, limited: 0, timedOut: 0, diskHits: 0 };

  constructor(
    private readonly store: CorpusStore,
    private readonly opts: VariantOptions,
    private readonly log: AnswerLog,
    private readonly hooks: VariantHooks = {},
  ) {
    this.files = new LRUCache<string, Cached>({
      maxSize: Math.max(1, opts.memoryBudget),
      sizeCalculation: (v, k) => k.length * 2 + ('body' in v ? v.body.length + 600 : v.refused.length * 2 + 100),
    });
    this.models = new LRUCache<string, LoadedModel>({
      maxSize: Math.max(1, opts.modelBudget),
      sizeCalculation: (v) => Math.max(1, v.bytes),
    });
    this.clientRate = new ClientRateLimiter(opts.clientRate);
    this.budget = new RenderBudget(opts.budget);
  }

  /** The answer for a GET/HEAD of a reserved name under /furni-renders/; 404 for any other URL. */
  answer(url: string, ifNoneMatch: string | undefined, client: string, reqId = ''): AssetAnswer | Promise<AssetAnswer> {
    const ref = this.resolve(url);
    if (!ref) return { status: 404 };
    const { name, parsed, base, colorId } = ref;
    // A file `build --variants` wrote is served as it is (the same bytes a render would give).
    const prebuilt = this.store.lookup(ref.listedKey);
    if (prebuilt) return this.serveListed(prebuilt, ifNoneMatch);
    // Only classnames with a published still have variants: colour rows come from furnidata (§2.1).
    if (!this.store.lookup(ref.stillKey)) return { status: 404 };
    const bundle = this.store.bundleOf(base);
    if (!bundle) return { status: 404 };
    const key = `${bundle.sha256}/${name}`;
    const hit = this.files.get(key);
    if (hit) return this.fromCached(hit, ifNoneMatch, 'memory');
    const pending = this.inflight.run(key, () => this.produce(key, name, bundle, colorId, parsed.variant, client));
    return pending.then(
      (c) =>
        c === 'busy'
          ? { status: 429 }
          : c === 'timeout'
            ? { status: 503, rebuilding: false, timedOut: true }
            : this.fromCached(c.cached, ifNoneMatch, c.source),
      (err: unknown): AssetAnswer => {
        this.log.error({ reqId, name, error: (err as Error).stack ?? String(err) }, 'variant render failed');
        return { status: 503, rebuilding: false };
      },
    );
  }

  /** URL → what its name asks for (pure, so remembered: up to MEMO_LIMIT URLs of at most 256 characters). */
  private resolve(url: string): VariantRef | undefined {
    if (url.length > 256) return resolveVariantUrl(url);
    let ref = this.memo.get(url);
    if (ref === undefined) {
      if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
      ref = resolveVariantUrl(url) ?? null;
      this.memo.set(url, ref);
    }
    return ref ?? undefined;
  }

  health(): {
    cachedFiles: number;
    cachedBytes: number;
    models: number;
    modelBytes: number;
    running: number;
    queued: number;
  } & VariantService['stats'] {
    return {
      cachedFiles: this.files.size,
      cachedBytes: this.files.calculatedSize,
      models: this.models.size,
      modelBytes: this.models.calculatedSize,
      running: this.running,
      queued: this.waiting.length,
      ...this.stats,
    };
  }

  private serveListed(file: CorpusFile, ifNoneMatch: string | undefined): AssetAnswer | Promise<AssetAnswer> {
    if (ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, file.etag)) return { status: 304, file };
    const body = this.store.body(file);
    if (Buffer.isBuffer(body)) return { status: 200, file, body, source: 'memory' };
    return body.then(
      (buf): AssetAnswer => ({ status: 200, file, body: buf, source: 'storage' }),
      (): AssetAnswer => ({ status: 404 }),
    );
  }

  private fromCached(c: Cached, ifNoneMatch: string | undefined, source: FurniTier): AssetAnswer {
    if ('refused' in c) return { status: 404 };
    if (ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, c.file.etag)) return { status: 304, file: c.file };
    return { status: 200, file: c.file, body: c.body, source };
  }

  /** Disk cache, else (within the limits) a render; the result is remembered in memory. */
  private async produce(
    key: string,
    name: string,
    bundle: CorpusFile,
    colorId: number,
    v: VariantRequest,
    client: string,
  ): Promise<Produced | 'busy' | 'timeout'> {
    const fromDisk = await this.readDisk(key, name);
    if (fromDisk) {
      this.stats.diskHits++;
      this.files.set(key, fromDisk);
      return { cached: fromDisk, source: 'variant_disk' };
    }
    // A refusal is known without rendering once the bundle is decoded: an invalid name costs no token then.
    let model = this.models.get(bundle.sha256)?.model;
    if (model) {
      const refused = refusal(model, v);
      if (refused) return { cached: this.refuse(key, refused), source: 'render' };
    }
    if (!this.clientRate.take(client) || !this.budget.take()) {
      this.stats.limited++;
      return 'busy';
    }
    if (this.running >= this.opts.concurrency && this.waiting.length >= this.opts.queue) {
      this.stats.limited++;
      return 'busy';
    }
    // Waiting for a slot past the timeout is a busy service (429, and the render is dropped unstarted);
    // a render that started and runs past it is a slow one (503, and its result is still kept).
    let started = false;
    let abandoned = false;
    const work = this.slot(async (): Promise<Produced | 'busy'> => {
      if (abandoned) return 'busy';
      started = true;
      const t0 = performance.now();
      model ??= await this.loadModel(bundle);
      const out = renderVariant(model, colorId, v);
      if (!out.ok) return { cached: this.refuse(key, out.reason), source: 'render' };
      const body = await encodeVariant(out.picture, v.animated);
      const sha256 = sha256Hex(body);
      const cached: Cached = {
        file: corpusFile(`furni-renders/${name}`, v.animated ? 'animation' : 'render', body.length, sha256),
        body,
      };
      this.stats.rendered++;
      this.hooks.rendered?.((performance.now() - t0) / 1000);
      this.files.set(key, cached);
      void this.writeDisk(key, name, body);
      return { cached, source: 'render' };
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.opts.timeoutMs);
      timer.unref();
    });
    const first = await Promise.race([work, timeout]).finally(() => clearTimeout(timer));
    if (first !== 'timeout') return first;
    work.catch(() => undefined);
    if (!started) {
      abandoned = true;
      this.stats.limited++;
      return 'busy';
    }
    this.stats.timedOut++;
    this.log.warn(
      { name, timeoutMs: this.opts.timeoutMs },
      'variant render timed out; its result will be cached when done',
    );
    return 'timeout';
  }

  private refuse(key: string, reason: string): Cached {
    this.stats.refused++;
    const c: Cached = { refused: reason };
    this.files.set(key, c);
    return c;
  }

  /** Runs `fn` when fewer than `concurrency` renders are running (callers check the queue length). */
  private async slot<T>(fn: () => Promise<T>): Promise<T> {
    if (this.running >= this.opts.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await fn();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  private loadModel(bundle: CorpusFile): Promise<FurniModel> {
    return this.modelLoads.run(bundle.sha256, async () => {
      const bytes = await this.store.body(bundle);
      const { model, manifest } = await readFurniBundle(bytes, bundle.key);
      this.models.set(bundle.sha256, {
        model,
        bytes: manifest.atlas.width * manifest.atlas.height * 4 + bytes.length,
      });
      return model;
    });
  }

  private diskPath(key: string, name: string): string | undefined {
    if (!this.opts.cacheDir) return undefined;
    // The renderer version is part of the name: a new renderer never serves an old one's files.
    const digest = sha256Hex(`${RENDERER_VERSION}/${key}`);
    return join(this.opts.cacheDir, digest.slice(0, 2), `${digest}${name.endsWith('.apng') ? '.apng' : '.png'}`);
  }

  private async readDisk(key: string, name: string): Promise<Cached | undefined> {
    const path = this.diskPath(key, name);
    if (!path) return undefined;
    let body: Buffer;
    try {
      body = await readFile(path);
    } catch {
      return undefined;
    }
    const sha256 = sha256Hex(body);
    return {
      file: corpusFile(`furni-renders/${name}`, name.endsWith('.apng') ? 'animation' : 'render', body.length, sha256),
      body,
    };
  }

  private async writeDisk(key: string, name: string, body: Buffer): Promise<void> {
    const path = this.diskPath(key, name);
    if (!path) return;
    try {
      await writeFileAtomic(path, body);
    } catch (e) {
      this.log.warn({ path, error: (e as Error).message }, 'variant disk cache write failed');
    }
  }
}

const MEMO_LIMIT = 10_000;

interface VariantRef {
  name: string;
  parsed: { classname: string; variant: VariantRequest };
  base: string;
  colorId: number;
  /** Where `build --variants` would have put it, and the still that must be published for it to exist. */
  listedKey: string;
  stillKey: string;
}

function resolveVariantUrl(url: string): VariantRef | undefined {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (/%2a/i.test(path) || !path.startsWith('/furni-renders/')) return undefined;
  const name = decodeSegment(path.slice('/furni-renders/'.length));
  const parsed = name === undefined ? undefined : parseVariantName(name);
  if (!parsed || name === undefined) return undefined;
  const star = parsed.classname.indexOf('*');
  const base = star < 0 ? parsed.classname : parsed.classname.slice(0, star);
  const colorId = star < 0 ? 0 : Number(parsed.classname.slice(star + 1));
  if (!Number.isSafeInteger(colorId) || colorId < 0) return undefined;
  return {
    name,
    parsed,
    base,
    colorId,
    listedKey: `furni-renders/${name}`,
    stillKey: `furni-renders/${parsed.classname}.png`,
  };
}

/** Why a model has no picture for a variant (state, direction, frame), without drawing; undefined when it may. */
function refusal(model: FurniModel, v: VariantRequest): string | undefined {
  const offer = sizeOffer(model, v.size);
  if (!offer) return 'no size-64 visualization';
  const state = v.state ?? offer.autoState;
  if (!offer.states.includes(state)) return `no state ${state}`;
  const direction = v.direction ?? offer.autoDirection;
  if (!offer.directions.includes(direction)) return `no direction ${direction}`;
  if (!v.animated && v.frame >= frameCountOf(model, offer, state, direction))
    return `frame ${v.frame} is past the loop`;
  return undefined;
}
