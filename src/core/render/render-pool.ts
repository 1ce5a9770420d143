// Renders off the event loop: worker threads (one a core by default), a bounded queue with a bounded
// wait, for four kinds of job: avatars, furni on demand, rooms and pets. Identical concurrent requests are
// joined before they get here, in each service's one map of renders in flight (avatar-service.ts,
// hotel-furni-service.ts, pet-service.ts), so every job the pool takes is a render to do. A busy worker holds the jobs
// after its current one (up to WORKER_DEPTH) and is refilled in one message when down to half, so it goes
// from render to render without waiting for the main thread and seldom sleeps (each wake-up of a thread
// costs tens of µs of CPU on a virtual machine).
// Hotels come in generations: a reloaded hotel is loaded into every worker beside the one in service
// (`prepare`), then put in service in one step (`commit`); each job renders with the generation it was
// planned with, and a generation is dropped from the workers once no job of it is left (a room job renders
// its bots with one too). Furni and room jobs name their bundle folder by signature: each worker keeps the
// last two folders it was asked for; pet jobs name their pet folder the same way.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { type AvatarRenderErrorCode } from '../../avatar/index.js';
import { decodeBudget } from '../../imaging/decode-budget.js';
import { type AvatarRequest } from '../../avatar/request.js';
import { type RoomPicture } from '../../room/index.js';
import {
  FURNI_FAILURES,
  type FurniJob,
  PET_FAILURES,
  type PetWork,
  type FurniPictureData,
  type FurniWork,
  type RoomWork,
  type HotelLoad,
  type PoolMessage,
  type RenderJob,
  type WorkerInit,
  type WorkerLoad,
  type WorkerMessage,
} from './render-protocol.js';

export interface RenderOutput {
  /** PNG/APNG or GIF bytes, as the request's format asks. */
  body: Buffer;
  frames: number;
  width: number;
  height: number;
}

export interface DebugRenderOutput extends RenderOutput {
  layers: unknown[];
}

export interface FurniRenderOutput extends RenderOutput {
  /** The picture drawn (absent when the job only encoded a held one). */
  picture?: FurniPictureData;
}

/** The queue is full or the job waited too long: answer with the fallback, try again later. */
export class RenderBusyError extends Error {
  override name = 'RenderBusyError';
}

/** The renderer rejected this request (unknown set, unloadable asset, timeout). */
export class RenderFailedError extends Error {
  override name = 'RenderFailedError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The worker died under the job; not a judgement on the request itself. */
export class RenderCrashError extends Error {
  override name = 'RenderCrashError';
}

export interface RenderPoolOptions {
  /** The hotel the workers start with. */
  hotel: HotelLoad;
  /** Decoded-library budget of the whole pool, split evenly across the workers; default 256 MiB. */
  libraryCacheBytes?: number;
  /** Worker threads; defaults to the number of cores. */
  workers?: number;
  /** Jobs allowed to wait for a worker; one more is refused as busy. */
  maxQueue: number;
  /** A job waiting longer than this is refused as busy. */
  maxQueueWaitMs: number;
  /** A render running longer than this is abandoned (the worker is replaced). */
  renderTimeoutMs: number;
  /** Called with each successful avatar render's time in its worker (render + encode), in seconds. */
  onRendered?: (seconds: number) => void;
}

/**
 * Failure codes that say the figure asked for cannot be drawn by this hotel (a malformed figure, a set the
 * hotel does not have, nothing drawable in it), or the furni asked for has no bundle or no such view: a bad or
 * foreign URL, not the service failing. Counted
 * apart so render failures show real trouble (libraries, timeouts, crashed workers).
 */
export const REJECTED_CODES: ReadonlySet<string> = new Set<string>([
  ...(['bad-figure', 'unknown-set', 'no-parts', 'nothing-visible'] satisfies AvatarRenderErrorCode[]),
  FURNI_FAILURES.noBundle,
  FURNI_FAILURES.nothing,
  PET_FAILURES.noLibrary,
  PET_FAILURES.nothing,
]);

export interface RenderPoolStats {
  workers: number;
  /** Decoded-library budget of each worker. */
  libraryBytesPerWorker: number;
  ready: number;
  busy: number;
  queued: number;
  maxQueue: number;
  rendered: number;
  /** Of `rendered`: answers made from a drawing the worker held (another `crop`, `bg` or `zoom` of it). */
  reusedDrawings: number;
  /** Renders the worker finished without an image because of what was asked for (see REJECTED_CODES). */
  rejected: number;
  /** Renders that failed for another reason: the hotel's libraries, a timeout, a crashed worker. */
  failed: number;
  /** The three counts above for each kind of job: avatars, furni on demand, rooms, pets. */
  byKind: Record<RenderJob['kind'], JobCounts>;
  /** Jobs refused as busy: `refusedQueueFull` + `refusedQueueWait`. */
  refusedBusy: number;
  /** Refused on arrival: the queue held `maxQueue` jobs. */
  refusedQueueFull: number;
  /** Refused after waiting `maxQueueWaitMs` for a worker. */
  refusedQueueWait: number;
  restarts: number;
  /** Decoded library bytes the workers hold, as each last reported. */
  libraryBytes: { figure: number; effect: number };
  /** The hotel generation new jobs render with. */
  generation: number;
  /** Generations the workers hold: the one in service, older ones finishing their jobs, one being loaded. */
  generations: number[];
}

export interface JobCounts {
  rendered: number;
  rejected: number;
  failed: number;
}

/** A hotel generation the pool holds, with its jobs queued or running. */
interface Held {
  load: HotelLoad;
  jobs: number;
  state: 'loading' | 'current' | 'draining';
}

/** What a worker's answer gives a job, whatever its kind (each method returns its kind's part). */
/** A room job's picture as the worker sent it: frame 0 is the picture's own bytes, sent once. */
function roomPicture(room: NonNullable<Extract<WorkerMessage, { type: 'done' }>['room']>): RoomPicture {
  const { motion, ...still } = room;
  const rgba = asBuffer(room.rgba);
  return {
    ...still,
    rgba,
    ...(motion
      ? {
          motion: {
            frames: [
              { x: 0, y: 0, width: room.width, height: room.height, data: rgba },
              ...motion.frames.map((f) => ({ ...f, data: asBuffer(f.data) })),
            ],
            updates: motion.updates,
          },
        }
      : {}),
  };
}

type JobOutput = DebugRenderOutput & FurniRenderOutput & { room?: RoomPicture };

interface Job {
  msg: RenderJob;
  resolve: (out: JobOutput) => void;
  reject: (err: Error) => void;
  waitTimer?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** Generations this worker has loaded. */
  hotels: Set<number>;
  /** What the worker last said it holds. */
  load?: WorkerLoad;
  /** Jobs handed to this worker, in the order it takes them; the first is the one it is rendering. */
  jobs: Job[];
  /** Render time limit of the first job. */
  runTimer?: NodeJS.Timeout;
}

/**
 * Jobs a worker holds at once: the one it renders and the ones after it. A thread woken from sleep costs
 * tens of µs of CPU on a virtual machine (a 2-core one here: ~90 µs a bare round trip): a worker holding
 * several jobs seldom runs dry and sleeps between them. Measured on the warm workload at c=64 (CPU per
 * request, all threads): depth 2 ~605 µs, depth 6 ~555 µs, depth 6 with refills in one message ~537 µs.
 */
export const WORKER_DEPTH = 6;
/**
 * A worker holding more than this many jobs gets no more until it is down to it; then it is refilled in one message.
 */
const REFILL_AT = WORKER_DEPTH / 2;

export const DEFAULT_POOL_LIBRARY_BYTES = 256 * 1024 * 1024;

/**
 * Drawings each worker keeps for output-only variants (`crop`, `bg`, `zoom` of an avatar it drew): 16 MiB,
 * about 140 size-l frames or 37 ten-frame loops at size m.
 */
export const DRAWING_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * A render allocates its canvases, layers and PNG buffers afresh: with V8's default young generation a
 * worker under load spends much of its time (and its GC helper threads') on scavenges and promotions.
 * A larger one cut the CPU per render by a fifth in A/B runs on real data (1,299 → 1,796 renders per
 * CPU-second at c=64) at no measurable cost in RSS (it only grows while renders keep coming).
 */
const WORKER_RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 96 };

/** Under tsx the worker entry is TypeScript; Node's worker does not apply tsx's hooks by itself. */
function spawnWorker(init: WorkerInit): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const options = { workerData: init, resourceLimits: WORKER_RESOURCE_LIMITS };
  if (!fromSource) return new Worker(new URL('./render-worker.js', import.meta.url), options);
  const entry = new URL('./render-worker.ts', import.meta.url).href;
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const boot =
    `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return ` +
    `import(${JSON.stringify(entry)}); })`;
  return new Worker(boot, { ...options, eval: true });
}

/** Bytes from a worker as a Buffer over the same memory. */
const asBuffer = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

export class RenderPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly held = new Map<number, Held>();
  private current: number;
  /** Checks run when a worker loads a generation or leaves: a `prepare` waiting for every worker. */
  private readonly loadWaiters = new Set<(failure?: { generation: number; message: string }) => void>();
  private nextId = 1;
  private closed = false;
  /** The dispatch of the jobs queued in this turn of the event loop, once it is set. */
  private dispatchSoon: NodeJS.Immediate | undefined;
  /** Finished jobs by kind and result (the stats' totals are their sums). */
  private readonly byKind: Record<RenderJob['kind'], JobCounts> = {
    avatar: { rendered: 0, rejected: 0, failed: 0 },
    furni: { rendered: 0, rejected: 0, failed: 0 },
    room: { rendered: 0, rejected: 0, failed: 0 },
    pet: { rendered: 0, rejected: 0, failed: 0 },
  };
  private reusedDrawings = 0;
  private refusedQueueFull = 0;
  private refusedQueueWait = 0;
  private restarts = 0;
  private readonly size: number;

  private constructor(private readonly opts: RenderPoolOptions) {
    this.size = Math.max(1, opts.workers ?? availableParallelism());
    this.current = opts.hotel.generation;
    this.held.set(opts.hotel.generation, { load: opts.hotel, jobs: 0, state: 'current' });
  }

  /** Starts the workers and waits until each has loaded the hotel. */
  static async start(opts: RenderPoolOptions): Promise<RenderPool> {
    const pool = new RenderPool(opts);
    try {
      await Promise.all(Array.from({ length: pool.size }, () => pool.addSlot()));
    } catch (err) {
      await pool.close();
      throw err;
    }
    return pool;
  }

  /** Renders the request with `generation` (default: the one in service). */
  render(req: AvatarRequest, generation = this.current): Promise<RenderOutput> {
    return this.submit(req, false, generation);
  }

  renderDebug(req: AvatarRequest, generation = this.current): Promise<DebugRenderOutput> {
    return this.submit(req, true, generation);
  }

  /**
   * Draws a room (its picture unencoded) with the room assets of `work.hotelRoot` and the bots' hotel
   * `generation` (default: the one in service), off the event loop, in the same workers and queue; a worker
   * past the render deadline is replaced, as for an avatar.
   */
  async renderRoom(work: RoomWork, generation = this.current): Promise<RoomPicture> {
    const out = await this.withGeneration(generation, (id) => ({ kind: 'room', id, generation, ...work }));
    if (!out.room) throw new RenderFailedError('no-picture', 'the render worker answered a room job without a picture');
    return out.room;
  }

  /**
   * Draws and encodes a furni picture (furni on demand), or encodes a held one, off the event loop: the
   * same workers, queue, deadlines and replacement of a stuck worker as avatars. A worker reads the bundles
   * into its own bounded cache. An item with nothing to draw rejects with a RenderFailedError whose code is one
   * of FURNI_FAILURES and whose message is the reason.
   */
  renderFurni(work: FurniWork): Promise<FurniRenderOutput> {
    return new Promise<FurniRenderOutput>((resolve, reject) => {
      this.take({ msg: { kind: 'furni', id: this.nextId++, ...work } as FurniJob, resolve, reject });
    });
  }

  /**
   * Draws and encodes a pet alone (the pet picture) off the event loop, in the same workers, queue and
   * deadlines as the other kinds. A worker reads the pet libraries into its own bounded cache. A pet with no
   * library or nothing to draw rejects with a RenderFailedError whose code is one of PET_FAILURES.
   */
  renderPet(work: PetWork): Promise<RenderOutput> {
    return new Promise<RenderOutput>((resolve, reject) => {
      this.take({ msg: { kind: 'pet', id: this.nextId++, ...work }, resolve, reject });
    });
  }

  /** The generation new jobs render with. */
  get generation(): number {
    return this.current;
  }

  /**
   * Loads a hotel generation into every worker beside the ones they hold (a worker started meanwhile
   * loads it at start); resolves when all have it, rejects when one cannot load it (then no worker keeps
   * it) or when they take longer than `timeoutMs`.
   */
  prepare(load: HotelLoad, timeoutMs: number): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the render pool is shut down'));
    if (this.held.has(load.generation))
      return Promise.reject(new Error(`hotel generation ${load.generation} is already held`));
    this.held.set(load.generation, { load, jobs: 0, state: 'loading' });
    for (const slot of this.slots) this.post(slot, { type: 'load', ...load });
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = (err?: Error) => {
        this.loadWaiters.delete(check);
        clearTimeout(timer);
        if (err) {
          this.abandon(load.generation);
          reject(err);
        } else resolve();
      };
      const check = (failure?: { generation: number; message: string }) => {
        if (failure?.generation === load.generation)
          finish(new Error(`a render worker could not load the hotel: ${failure.message}`));
        else if (this.closed) finish(new Error('the render pool is shut down'));
        else if (this.slots.length > 0 && this.slots.every((s) => s.hotels.has(load.generation))) finish();
      };
      timer = setTimeout(
        () => finish(new Error(`the render workers took longer than ${timeoutMs} ms to load the hotel`)),
        timeoutMs,
      );
      this.loadWaiters.add(check);
      check();
    });
  }

  /**
   * Puts a prepared generation in service in one step: jobs submitted from now on render with it; the
   * previous ones finish their jobs, then leave the workers.
   */
  commit(generation: number): void {
    const h = this.held.get(generation);
    if (h?.state !== 'loading') throw new Error(`hotel generation ${generation} is not prepared`);
    h.state = 'current';
    this.current = generation;
    for (const [g, other] of this.held) {
      if (g === generation) continue;
      other.state = 'draining';
      this.dropIfDone(g);
    }
  }

  /** Each worker's share of the pool's library budget. */
  workerLibraryBytes(): number {
    return Math.max(1, Math.floor((this.opts.libraryCacheBytes ?? DEFAULT_POOL_LIBRARY_BYTES) / this.size));
  }

  stats(): RenderPoolStats {
    const sum = (r: keyof JobCounts) => Object.values(this.byKind).reduce((n, c) => n + c[r], 0);
    const libraryBytes = { figure: 0, effect: 0 };
    for (const s of this.slots) {
      libraryBytes.figure += s.load?.figureLibraryBytes ?? 0;
      libraryBytes.effect += s.load?.effectLibraryBytes ?? 0;
    }
    return {
      workers: this.slots.length,
      libraryBytesPerWorker: this.workerLibraryBytes(),
      ready: this.slots.filter((s) => s.ready).length,
      busy: this.slots.filter((s) => s.jobs.length > 0).length,
      queued: this.waiting(),
      maxQueue: this.opts.maxQueue,
      rendered: sum('rendered'),
      reusedDrawings: this.reusedDrawings,
      rejected: sum('rejected'),
      failed: sum('failed'),
      byKind: structuredClone(this.byKind),
      refusedBusy: this.refusedQueueFull + this.refusedQueueWait,
      refusedQueueFull: this.refusedQueueFull,
      refusedQueueWait: this.refusedQueueWait,
      restarts: this.restarts,
      libraryBytes,
      generation: this.current,
      generations: [...this.held.keys()].sort((a, b) => a - b),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearImmediate(this.dispatchSoon);
    for (const check of [...this.loadWaiters]) check();
    for (const job of this.queue.splice(0)) {
      clearTimeout(job.waitTimer);
      job.reject(new RenderBusyError('the render pool is shutting down'));
    }
    await Promise.all(
      this.slots.splice(0).map(async (slot) => {
        clearTimeout(slot.runTimer);
        for (const job of slot.jobs.splice(0)) job.reject(new RenderBusyError('the render pool is shutting down'));
        await slot.worker.terminate();
      }),
    );
  }

  private submit(req: AvatarRequest, debug: boolean, generation: number): Promise<DebugRenderOutput> {
    return this.withGeneration(generation, (id) => ({ kind: 'avatar', id, generation, req, debug }));
  }

  /** Queues a job that renders with a hotel generation, which the workers keep until the job has ended. */
  private withGeneration(generation: number, job: (id: number) => RenderJob): Promise<JobOutput> {
    return new Promise<JobOutput>((res, rej) => {
      if (this.closed) {
        rej(new RenderBusyError('the render pool is shut down'));
        return;
      }
      const held = this.held.get(generation);
      if (!held || held.state === 'loading') {
        rej(new Error(`hotel generation ${generation} is not in service`));
        return;
      }
      // Counted while queued or running: the generation stays in the workers until its last job ends.
      held.jobs++;
      const settled = () => {
        held.jobs--;
        this.dropIfDone(generation);
      };
      const resolve = (out: JobOutput) => {
        settled();
        res(out);
      };
      const reject = (err: Error) => {
        settled();
        rej(err);
      };
      this.take({ msg: job(this.nextId++), resolve, reject });
    });
  }

  /** Hands a job to an idle worker, or queues it (refused as busy over the queue bound). */
  private take(job: Job): void {
    if (this.closed) {
      job.reject(new RenderBusyError('the render pool is shut down'));
      return;
    }
    const idle = this.slots.find((s) => s.ready && s.jobs.length === 0);
    if (idle && this.queue.length === 0) {
      this.hand(idle, [job]);
      return;
    }
    // A job handed to a busy worker waits too: it counts against the queue bound like a queued one.
    if (this.waiting() >= this.opts.maxQueue) {
      this.refusedQueueFull++;
      job.reject(new RenderBusyError(`render queue full (${this.opts.maxQueue} waiting)`));
      return;
    }
    this.enqueue(job, 'back');
    // Busy workers take what arrived in this turn of the event loop together, in one message each.
    if (!this.dispatchSoon) this.dispatchSoon = setImmediate(() => this.dispatch());
  }

  /** Puts a job in line for a worker, refused as busy if it waits longer than the queue wait limit. */
  private enqueue(job: Job, end: 'front' | 'back'): void {
    clearTimeout(job.waitTimer);
    job.waitTimer = setTimeout(() => {
      const at = this.queue.indexOf(job);
      if (at >= 0) {
        this.queue.splice(at, 1);
        this.refusedQueueWait++;
        job.reject(new RenderBusyError(`waited ${this.opts.maxQueueWaitMs} ms for a render worker`));
      }
    }, this.opts.maxQueueWaitMs);
    if (end === 'front') this.queue.unshift(job);
    else this.queue.push(job);
  }

  /**
   * Hands queued jobs, first in line first, to the workers down to `REFILL_AT` jobs, each next job to the
   * one holding fewest, up to `WORKER_DEPTH`; one message a worker.
   */
  private dispatch(): void {
    clearImmediate(this.dispatchSoon);
    this.dispatchSoon = undefined;
    if (this.queue.length === 0) return;
    // What each open worker will hold, and the jobs it gets now.
    const held = new Map(
      this.slots.filter((s) => s.ready && s.jobs.length <= REFILL_AT).map((s) => [s, s.jobs.length]),
    );
    const batches = new Map<Slot, Job[]>();
    while (this.queue.length > 0) {
      let to: Slot | undefined;
      for (const [s, n] of held) if (n < WORKER_DEPTH && (to === undefined || n < held.get(to)!)) to = s;
      if (to === undefined) break;
      held.set(to, held.get(to)! + 1);
      const batch = batches.get(to) ?? [];
      batch.push(this.queue.shift()!);
      batches.set(to, batch);
    }
    for (const [slot, batch] of batches) this.hand(slot, batch);
  }

  /** Jobs not being rendered: queued here or handed to a worker behind the job it renders. */
  private waiting(): number {
    let n = this.queue.length;
    for (const s of this.slots) if (s.jobs.length > 1) n += s.jobs.length - 1;
    return n;
  }

  /** Gives `jobs` to the worker in one message; they join the ones it holds. */
  private hand(slot: Slot, jobs: Job[]): void {
    for (const job of jobs) {
      clearTimeout(job.waitTimer);
      slot.jobs.push(job);
    }
    if (slot.jobs.length === jobs.length) this.startClock(slot);
    this.post(slot, { type: 'render', jobs: jobs.map((j) => j.msg) });
  }

  private post(slot: Slot, msg: PoolMessage): void {
    slot.worker.postMessage(msg);
  }

  /** A generation no longer in service and without jobs leaves the workers (and their library caches). */
  private dropIfDone(generation: number): void {
    const h = this.held.get(generation);
    if (h?.state !== 'draining' || h.jobs > 0) return;
    this.abandon(generation);
  }

  private abandon(generation: number): void {
    if (!this.held.delete(generation)) return;
    for (const slot of this.slots) {
      slot.hotels.delete(generation);
      this.post(slot, { type: 'drop', generation });
    }
  }

  private notifyLoad(failure?: { generation: number; message: string }): void {
    for (const check of [...this.loadWaiters]) check(failure);
  }

  /** The render time limit of the slot's first job, from when the worker starts on it. */
  private startClock(slot: Slot): void {
    clearTimeout(slot.runTimer);
    const job = slot.jobs[0];
    if (!job) return;
    slot.runTimer = setTimeout(() => {
      if (slot.jobs[0] !== job) return;
      slot.jobs.shift();
      this.byKind[job.msg.kind].failed++;
      job.reject(new RenderFailedError('timeout', `render took longer than ${this.opts.renderTimeoutMs} ms`));
      this.replace(slot);
    }, this.opts.renderTimeoutMs);
  }

  private onMessage(slot: Slot, msg: WorkerMessage): void {
    if (msg.type === 'ready' || msg.type === 'init-failed') return; // handled during start
    if (msg.type === 'loaded') {
      if (this.held.has(msg.generation)) slot.hotels.add(msg.generation);
      this.notifyLoad();
      return;
    }
    if (msg.type === 'load-failed') {
      this.notifyLoad({ generation: msg.generation, message: msg.message });
      return;
    }
    const at = slot.jobs.findIndex((j) => j.msg.id === msg.id);
    if (at < 0) return; // a job already given up on (timeout)
    const [job] = slot.jobs.splice(at, 1) as [Job];
    slot.load = { figureLibraryBytes: msg.figureLibraryBytes, effectLibraryBytes: msg.effectLibraryBytes };
    if (at === 0) this.startClock(slot);
    // Refill the worker if it is down to REFILL_AT jobs and work waits.
    this.dispatch();
    const counts = this.byKind[job.msg.kind];
    if (msg.type === 'done') {
      counts.rendered++;
      if (msg.reused) this.reusedDrawings++;
      if (job.msg.kind === 'avatar') this.opts.onRendered?.(msg.ms / 1000);
      const body = asBuffer(msg.body);
      job.resolve({
        body,
        frames: msg.frames,
        width: msg.width,
        height: msg.height,
        layers: msg.layers ?? [],
        ...(msg.picture ? { picture: msg.picture } : {}),
        ...(msg.room ? { room: roomPicture(msg.room) } : {}),
      });
    } else {
      if (REJECTED_CODES.has(msg.code)) counts.rejected++;
      else counts.failed++;
      job.reject(new RenderFailedError(msg.code, msg.message));
    }
  }

  private addSlot(): Promise<void> {
    // Every generation held, so the new worker can take any job queued or to come (and one being prepared).
    const loads = [...this.held.values()].map((h) => h.load);
    const worker = spawnWorker({
      libraryCacheBytes: this.workerLibraryBytes(),
      decodeBudgetBytes: decodeBudget().bytes,
      drawingCacheBytes: DRAWING_CACHE_BYTES,
      hotels: loads,
    });
    const slot: Slot = { worker, ready: false, jobs: [], hotels: new Set() };
    this.slots.push(slot);
    return new Promise<void>((resolve, reject) => {
      worker.on('message', (msg: WorkerMessage) => {
        if (msg.type === 'ready') {
          slot.ready = true;
          // A generation dropped while the worker started is dropped there too.
          for (const l of loads) {
            if (this.held.has(l.generation)) slot.hotels.add(l.generation);
            else this.post(slot, { type: 'drop', generation: l.generation });
          }
          resolve();
          this.dispatch();
          this.notifyLoad();
        } else if (msg.type === 'init-failed') {
          reject(new Error(`render worker could not load the assets: ${msg.message}`));
          this.dropSlot(slot);
          void worker.terminate();
        } else {
          this.onMessage(slot, msg);
        }
      });
      worker.on('error', (err) => {
        if (!slot.ready) reject(err);
        this.crashed(slot, err);
      });
      worker.on('exit', (code) => {
        if (!slot.ready) reject(new Error(`render worker exited with code ${code} while starting`));
        this.crashed(slot, new Error(`render worker exited with code ${code}`));
      });
    });
  }

  private crashed(slot: Slot, err: Error): void {
    if (!this.slots.includes(slot)) return;
    const job = slot.jobs.shift();
    clearTimeout(slot.runTimer);
    if (job) {
      this.byKind[job.msg.kind].failed++;
      job.reject(new RenderCrashError(err.message));
    }
    if (slot.ready) this.replace(slot);
    else this.dropSlot(slot);
  }

  /** Swaps a stuck or dead worker for a fresh one; the jobs it held behind the failed one go back first in line. */
  private replace(slot: Slot): void {
    clearTimeout(slot.runTimer);
    const behind = slot.jobs.splice(0);
    for (let i = behind.length - 1; i >= 0; i--) this.enqueue(behind[i]!, 'front');
    this.dropSlot(slot);
    // Another worker with room takes them at once; otherwise they wait for the new worker.
    this.dispatch();
    void slot.worker.terminate();
    if (this.closed) return;
    this.restarts++;
    this.addSlot().catch(() => undefined);
  }

  private dropSlot(slot: Slot): void {
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    this.notifyLoad();
  }
}
