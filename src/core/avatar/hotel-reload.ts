// The avatar service's hotel, live: the generation in service, and the reloads that replace it. The
// asset folder is looked at every `intervalMs` (a stat of the avatar gamedata and of every entry of the
// library folders, nothing read); a change is loaded once the folder looked the same on two looks in a
// row (so a copy in progress is not read half-way), or at once on `reload()` (SIGHUP). A reload reads
// the folder into a new hotel beside the one in service, checks it (gamedata parses, no library newly
// broken, the folder did not move while it was read), loads it into every render worker, then swaps it
// in with one synchronous step; requests already planned finish on the hotel they were planned with. A
// hotel that fails is not swapped in: the old one keeps serving, the error is logged and kept for
// /healthz, and that state of the folder is not tried again until it changes.
import { LRUCache } from 'lru-cache';
import {
  animationFrameCount,
  hotelFromSnapshot,
  missingPartSubject,
  RENDERER_VERSION,
  renderInputsDigest,
  renderInputsFields,
  scanAvatarHotel,
  type AvatarHotel,
  type AvatarHotelSnapshot,
  type AvatarRequest,
  type LibraryProblem,
} from '../../avatar/index.js';
import { avatarWatchPaths } from '../../hotel/avatar.js';
import { pathsSignature } from '../../hotel/files.js';
import { type HotelView } from './avatar-service.js';
import { type RenderPool } from '../render/render-pool.js';

/** Bytes of request → key version memos per hotel (~20,000 typical figures). */
const KEY_VERSION_CACHE_BYTES = 4 * 1024 * 1024;
/** Longest wait for every render worker to load a new hotel before the reload counts as failed. */
export const WORKER_LOAD_TIMEOUT_MS = 60_000;
/** With polling off, how soon a folder seen changing (by a render) is looked at again. */
const SETTLE_LOOK_MS = 1000;

export type ReloadTrigger = 'poll' | 'signal';

/**
 * Other data the service reads from files (group badges): watched with the hotel, reloaded on the same
 * settled change and on SIGHUP. It swaps, logs and reports its own result.
 */
export interface ReloadCompanion {
  name: string;
  /** Files and folders to watch besides the avatar assets. */
  paths(): string[];
  reload(): Promise<unknown>;
}

export interface ReloadResult {
  /**
   * swapped: a new hotel is in service; unchanged: same content; changing: the folder moved while read; failed: see
   * error.
   */
  outcome: 'swapped' | 'unchanged' | 'changing' | 'failed';
  generation: number;
  error?: string;
}

/** One hotel generation as the main thread holds it: what requests plan and key with. */
export class ServedHotel implements HotelView {
  readonly hotel: AvatarHotel;
  readonly identity: string;
  readonly layout: string;
  readonly problems: LibraryProblem[];
  readonly figureLibraries: number;
  readonly effectLibraries: number;
  readonly loadedAt = new Date().toISOString();
  /** Request fields → key version: planning the libraries of a figure again costs tens of µs. */
  private readonly versions = new LRUCache<string, string>({
    maxSize: KEY_VERSION_CACHE_BYTES,
    sizeCalculation: (v, k) => 2 * (k.length + v.length) + 100,
  });

  constructor(
    readonly generation: number,
    /** The folder's reading this hotel was built from (rooms build their own bot-drawing hotel from it). */
    readonly snapshot: AvatarHotelSnapshot,
  ) {
    const snap = snapshot;
    // The main thread only plans (frame counts, key versions): it never loads a library, so it needs no library budget.
    this.hotel = hotelFromSnapshot(snap, { libraryCacheBytes: 1 });
    this.identity = snap.identity;
    this.layout = snap.sources.layout;
    this.problems = snap.sources.problems;
    this.figureLibraries = snap.sources.libraries.length;
    this.effectLibraries = snap.sources.effects?.libraries.length ?? 0;
  }

  frameCount(req: AvatarRequest): number {
    return animationFrameCount(this.hotel, req);
  }

  missingSubject(req: AvatarRequest): string | undefined {
    return missingPartSubject(this.hotel, req);
  }

  keyVersion(req: AvatarRequest): string {
    const fields = renderInputsFields(req);
    let v = this.versions.get(fields);
    if (v === undefined) {
      v = `${RENDERER_VERSION}/${renderInputsDigest(this.hotel, req)}`;
      this.versions.set(fields, v);
    }
    return v;
  }
}

export interface HotelReloaderOptions {
  assetsDir: string;
  pool: RenderPool;
  /**
   * The hotel the service started with (generation 1) and the folder's signature (`avatarFolderSignature`) when it was
   * read.
   */
  first: ServedHotel;
  firstSignature: string;
  /** Milliseconds between looks at the folder; 0 = no polling (SIGHUP only). */
  intervalMs: number;
  log: (level: 'info' | 'warn' | 'error', msg: string, fields: Record<string, unknown>) => void;
  /** Called in the swap's synchronous step, after the new hotel is in service. */
  onSwap: (served: ServedHotel, previous: ServedHotel) => void;
}

export interface ReloadTimings {
  trigger: ReloadTrigger;
  /** When the change was first seen (poll), or the reload asked for (signal). */
  detectedAt: string;
  swappedAt: string;
  /** Seen → in service: the settling look, the read, the workers. */
  detectToSwappedMs: number;
  /** Reading and checking the folder (main thread). */
  readMs: number;
  /** Every render worker loading it. */
  workersMs: number;
}

/** The hotel in service and what reloads did (`/healthz` → `assets`; metrics: generation, reload failures). */
export interface HotelStats {
  /** 1 at start, +1 per swap. */
  generation: number;
  identity: string;
  layout: string;
  loadedAt: string;
  libraries: {
    figure: number;
    effect: number;
    broken: { kind: string; library: string; file: string; error: string }[];
  };
  reload: {
    intervalMs: number;
    state: 'idle' | 'settling' | 'loading' | 'failed';
    checks: number;
    reloads: number;
    unchanged: number;
    /** Reloads not swapped in (the hotel before kept serving). */
    reloadFailures: number;
    lastError: { message: string; at: string; generation: number } | null;
    lastReload: ReloadTimings | null;
  };
}

const companionSignature = (c: ReloadCompanion): Promise<string> =>
  pathsSignature(c.paths().map((path) => ({ path, depth: 0 })));

const problemKey = (p: LibraryProblem): string => `${p.kind}\0${p.library}\0${p.digest}`;
const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export class HotelReloader {
  private served: ServedHotel;
  private lastGeneration: number;
  private servedSignature: string;
  /**
   * A signature seen, waiting for a second look: `since` when this one was first seen, `seenAt` when the
   * folder was first seen changing (the start of the reload timing).
   */
  private pending: { signature: string; since: number; seenAt: number } | undefined;
  /** The folder state that failed to load: not tried again until the folder changes. */
  private failedSignature: string | undefined;
  private running: Promise<ReloadResult> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private looking = false;
  private lookAgain = false;
  private closed = false;
  private readonly waiters = new Set<() => void>();
  /** With the signature of their files when they last loaded. */
  private readonly companions: { companion: ReloadCompanion; signature: string }[] = [];
  private checks = 0;
  private reloads = 0;
  private unchanged = 0;
  private reloadFailures = 0;
  private lastError: { message: string; at: string; generation: number } | undefined;
  private lastFailed = false;
  private lastReload: ReloadTimings | undefined;

  /** How long a signature must hold before it is loaded: half an interval (timers fire a little late or early). */
  private readonly minStableMs: number;

  constructor(private readonly opts: HotelReloaderOptions) {
    this.minStableMs = Math.max(50, (opts.intervalMs > 0 ? opts.intervalMs : SETTLE_LOOK_MS) / 2);
    this.served = opts.first;
    this.lastGeneration = opts.first.generation;
    this.servedSignature = opts.firstSignature;
  }

  /** The hotel in service. */
  current(): ServedHotel {
    return this.served;
  }

  /** Watches `companion`'s files too (added before `start`, which takes their state as served). */
  addCompanion(companion: ReloadCompanion): void {
    this.companions.push({ companion, signature: '' });
  }

  /** The avatar assets' files, without reading one. */
  private hotelSignature(): Promise<string> {
    return pathsSignature(avatarWatchPaths(this.opts.assetsDir));
  }

  /** Starts polling (when the interval is not 0); the timer never keeps the process alive. */
  async start(): Promise<void> {
    // The hotel's files as they were before it was read (the constructor's); the companions' as they are now (just
    // loaded).
    for (const c of this.companions) c.signature = await companionSignature(c.companion);
    if (this.opts.intervalMs > 0) this.schedule(this.opts.intervalMs);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    for (const wake of [...this.waiters]) wake();
  }

  /**
   * Reads the folder now and swaps the hotel in if it changed and loads (SIGHUP). A reload asked for
   * while one runs runs once more after it, so the folder's latest state is what ends up served.
   */
  reload(trigger: ReloadTrigger = 'signal'): Promise<ReloadResult> {
    if (this.running) {
      if (trigger === 'signal') this.again = true;
      return this.running;
    }
    const run = this.load(trigger).finally(() => {
      this.running = undefined;
      if (this.again && !this.closed) {
        this.again = false;
        void this.reload('signal');
      }
    });
    this.running = run;
    return run;
  }

  /**
   * Resolves true once a hotel newer than `generation` is in service, false after `ms`. Asks for a look
   * at the folder now: a render found one of its files changed.
   */
  newerThan(generation: number, ms: number): Promise<boolean> {
    if (this.served.generation > generation) return Promise.resolve(true);
    if (this.closed) return Promise.resolve(false);
    this.schedule(0);
    return new Promise<boolean>((resolve) => {
      const wake = () => {
        if (this.served.generation <= generation && !this.closed) return;
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve(this.served.generation > generation);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        resolve(this.served.generation > generation);
      }, ms);
      timer.unref();
      this.waiters.add(wake);
    });
  }

  stats(): HotelStats {
    const s = this.served;
    return {
      generation: s.generation,
      identity: s.identity,
      layout: s.layout,
      loadedAt: s.loadedAt,
      libraries: {
        figure: s.figureLibraries,
        effect: s.effectLibraries,
        broken: s.problems.map((p) => ({ kind: p.kind, library: p.library, file: p.file, error: p.error })),
      },
      reload: {
        intervalMs: this.opts.intervalMs,
        state: this.running ? 'loading' : this.pending ? 'settling' : this.lastFailed ? 'failed' : 'idle',
        checks: this.checks,
        reloads: this.reloads,
        unchanged: this.unchanged,
        reloadFailures: this.reloadFailures,
        lastError: this.lastError ?? null,
        lastReload: this.lastReload ?? null,
      },
    };
  }

  private schedule(ms: number): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    // One look at a time: a look asked for while one runs is taken right after it.
    if (this.looking) {
      this.lookAgain = true;
      return;
    }
    this.looking = true;
    try {
      await this.poll();
    } catch (e) {
      this.opts.log('warn', 'asset folder check failed', { assets: this.opts.assetsDir, error: message(e) });
    } finally {
      this.looking = false;
    }
    if (this.lookAgain) {
      this.lookAgain = false;
      this.schedule(0);
    } else if (this.opts.intervalMs > 0) this.schedule(this.opts.intervalMs);
    else if (this.pending) this.schedule(SETTLE_LOOK_MS);
  }

  /** One look at the folder: a change is loaded once two looks in a row agree on it. */
  private async poll(): Promise<void> {
    if (this.running || this.closed) return;
    this.checks++;
    const [hotel, ...others] = await Promise.all([
      this.hotelSignature(),
      ...this.companions.map((c) => companionSignature(c.companion)),
    ]);
    const hotelNew = hotel !== this.servedSignature && hotel !== this.failedSignature;
    if (!hotelNew && others.every((o, i) => o === this.companions[i]!.signature)) {
      this.pending = undefined;
      return;
    }
    const signature = [hotel, ...others].join('|');
    const now = Date.now();
    if (signature !== this.pending?.signature) {
      // Seen for the first time, or still moving: the next look decides.
      this.pending = { signature, since: now, seenAt: this.pending?.seenAt ?? now };
      return;
    }
    // Two looks agree, and not just two in a row (a look asked for by a render comes at any time).
    if (now - this.pending.since < this.minStableMs) return;
    await this.reload('poll');
  }

  /**
   * The hotel when its files changed (or when asked: SIGHUP), then each companion whose files changed
   * (or when asked), whatever the hotel's outcome unless its folder moved while it was read.
   */
  private async load(trigger: ReloadTrigger): Promise<ReloadResult> {
    let result: ReloadResult;
    if (trigger === 'signal' || (await this.hotelChanged())) result = await this.loadHotel(trigger);
    else {
      this.pending = undefined;
      result = { outcome: 'unchanged', generation: this.served.generation };
    }
    if (result.outcome === 'changing' || this.closed) return result;
    for (const c of this.companions) {
      const signature = await companionSignature(c.companion);
      if (trigger !== 'signal' && signature === c.signature) continue;
      try {
        await c.companion.reload();
        c.signature = signature;
      } catch (e) {
        this.opts.log('error', `${c.companion.name} reload failed`, { assets: this.opts.assetsDir, error: message(e) });
      }
    }
    return result;
  }

  private async hotelChanged(): Promise<boolean> {
    const hotel = await this.hotelSignature();
    return hotel !== this.servedSignature && hotel !== this.failedSignature;
  }

  private async loadHotel(trigger: ReloadTrigger): Promise<ReloadResult> {
    const startedAt = Date.now();
    const detectedAt = this.pending?.seenAt ?? startedAt;
    let signature: string | undefined;
    let snap: AvatarHotelSnapshot;
    try {
      signature = await this.hotelSignature();
      snap = await scanAvatarHotel(this.opts.assetsDir);
      const after = await this.hotelSignature();
      if (after !== signature) {
        // Written to while it was read: what was read may mix two states. The next looks decide.
        // (The next look takes the folder's state afresh; the change keeps its first-seen time.)
        this.pending = { signature: '', since: Date.now(), seenAt: detectedAt };
        if (this.opts.intervalMs === 0) this.schedule(SETTLE_LOOK_MS);
        return { outcome: 'changing', generation: this.served.generation };
      }
    } catch (e) {
      return this.failed(signature, message(e));
    }
    this.pending = undefined;
    if (snap.identity === this.served.identity) {
      // Touched, copied over with the same bytes, or changed and changed back.
      this.servedSignature = signature;
      this.failedSignature = undefined;
      if (this.lastFailed)
        this.opts.log('info', 'asset folder holds the hotel in service again; nothing to reload', {
          assets: this.opts.assetsDir,
          generation: this.served.generation,
        });
      this.lastFailed = false;
      this.unchanged++;
      return { outcome: 'unchanged', generation: this.served.generation };
    }
    // A library that was already broken in the hotel in service is no reason to refuse the new one.
    const known = new Set(this.served.problems.map(problemKey));
    const broken = snap.sources.problems.filter((p) => !known.has(problemKey(p)));
    if (broken.length > 0) {
      const named = broken
        .slice(0, 5)
        .map((p) => (p.error.includes(p.file) ? p.error : `${p.file}: ${p.error}`))
        .join('; ');
      return this.failed(
        signature,
        `${broken.length} ${broken.length === 1 ? 'library does' : 'libraries do'} not ` +
          `read: ${named}${broken.length > 5 ? '; …' : ''}`,
      );
    }
    const generation = ++this.lastGeneration;
    let next: ServedHotel;
    try {
      next = new ServedHotel(generation, snap);
    } catch (e) {
      return this.failed(signature, message(e));
    }
    const readAt = Date.now();
    try {
      await this.opts.pool.prepare({ generation, snapshot: snap }, WORKER_LOAD_TIMEOUT_MS);
    } catch (e) {
      return this.failed(signature, message(e));
    }
    if (this.closed) return { outcome: 'failed', generation: this.served.generation, error: 'the service is closing' };
    // The swap: one synchronous step, in the pool and here.
    const previous = this.served;
    this.opts.pool.commit(generation);
    this.served = next;
    this.servedSignature = signature;
    this.failedSignature = undefined;
    this.lastFailed = false;
    this.reloads++;
    this.opts.onSwap(next, previous);
    const swappedAt = Date.now();
    this.lastReload = {
      trigger,
      detectedAt: new Date(detectedAt).toISOString(),
      swappedAt: new Date(swappedAt).toISOString(),
      detectToSwappedMs: swappedAt - detectedAt,
      readMs: readAt - startedAt,
      workersMs: swappedAt - readAt,
    };
    for (const wake of [...this.waiters]) wake();
    this.opts.log('info', 'hotel reloaded', {
      assets: this.opts.assetsDir,
      generation,
      identity: next.identity,
      previous: previous.identity,
      figureLibraries: next.figureLibraries,
      effectLibraries: next.effectLibraries,
      brokenLibraries: next.problems.length,
      ...this.lastReload,
    });
    logLibraryProblems(next, this.opts.log);
    return { outcome: 'swapped', generation };
  }

  private failed(signature: string | undefined, error: string): ReloadResult {
    this.reloadFailures++;
    this.failedSignature = signature;
    this.pending = undefined;
    this.lastFailed = true;
    this.lastError = { message: error, at: new Date().toISOString(), generation: this.served.generation };
    this.opts.log('error', 'hotel reload failed; still serving the hotel loaded before', {
      assets: this.opts.assetsDir,
      error,
      serving: this.served.generation,
      identity: this.served.identity,
    });
    return { outcome: 'failed', generation: this.served.generation, error };
  }
}

/** What a request meets when a library of that kind does not read (said where it is logged). */
export const LIBRARY_PROBLEM_OUTCOME: Record<'figure' | 'effect', string> = {
  figure: 'renders of figures that need it answer the 302 fallback redirect',
  effect: 'renders with that effect answer 200 without it (the avatar is drawn, the effect is not)',
};

/** Names every library of the hotel that does not read (at start and after each swap). */
export function logLibraryProblems(hotel: ServedHotel, log: HotelReloaderOptions['log']): void {
  for (const p of hotel.problems) {
    log('error', `${p.kind} library ${p.library} does not read: ${LIBRARY_PROBLEM_OUTCOME[p.kind]}`, {
      generation: hotel.generation,
      library: p.library,
      file: p.file,
      error: p.error,
    });
  }
}
