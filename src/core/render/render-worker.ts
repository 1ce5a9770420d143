// Worker thread of the render pool: holds the hotel generations the pool tells it to (built from the
// main thread's reading of the folder), then renders and encodes on request with the generation each job
// names, so pixel work never blocks the HTTP event loop. All generations share one library cache keyed
// by content: a reload does not make the unchanged libraries cold. Furni jobs (furni on demand) draw from
// the bundle folder they name, through furni-job.ts; pet jobs (the pet picture) from the pet folder they name,
// through pet-job.ts.
import { LRUCache } from 'lru-cache';
import { parentPort, workerData } from 'node:worker_threads';
import {
  AvatarRenderError,
  changesOutput,
  drawingKey,
  createLibraryCaches,
  encodeAvatar,
  hotelFromSnapshot,
  libraryCacheKey,
  renderAvatar,
  requestedOutput,
  type AvatarHotel,
  type AvatarRender,
  type LibraryCache,
} from '../../avatar/index.js';
import { ImageScratch } from '../../imaging/image.js';
import { setDecodeBudget } from '../../imaging/decode-budget.js';
import { bundleFolders, furniJobRunner, FurniJobFailure } from './furni-job.js';
import { petFolders, PetJobFailure, petJobRunner } from './pet-job.js';
import { roomJobRunner } from './room-job.js';
import { transferableBytes } from './transfer.js';
import {
  type AvatarJob,
  FURNI_FAILURES,
  type FurniJob,
  PET_FAILURES,
  type PetJob,
  type RenderJob,
  type RoomJob,
  type HotelLoad,
  pictureData,
  type PoolMessage,
  type WorkerInit,
  type WorkerLoad,
  type WorkerMessage,
} from './render-protocol.js';

const port = parentPort;
if (!port) throw new Error('render-worker.ts runs only as a worker thread');
const init = workerData as WorkerInit;
setDecodeBudget(init.decodeBudgetBytes);

const hotels = new Map<number, AvatarHotel>();
const caches = createLibraryCaches(init.libraryCacheBytes);

function post(msg: WorkerMessage, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(msg, transfer);
}

function load(h: HotelLoad): void {
  hotels.set(
    h.generation,
    hotelFromSnapshot(h.snapshot, { libraryCacheBytes: init.libraryCacheBytes, libraryCaches: caches }),
  );
}

/** Forgets a generation and the cached libraries no held generation has (their bytes are gone from the folder). */
function drop(generation: number): void {
  hotels.delete(generation);
  rooms.drop(generation);
  for (const key of [...drawings.keys()]) if (key.startsWith(`${generation}\0`)) drawings.delete(key);
  const live = new Set<string>();
  for (const h of hotels.values()) {
    for (const [name, digest] of h.digests.libraries) live.add(libraryCacheKey(name, digest));
    for (const [name, digest] of h.digests.effectLibraries) live.add(libraryCacheKey(name, digest));
  }
  const prune = (cache: LibraryCache) => {
    for (const key of [...cache.keys()]) if (!live.has(key)) cache.delete(key);
  };
  prune(caches.figure);
  prune(caches.effect);
}

/** The decoded library bytes this worker holds (one cache for every hotel it holds). */
function libraryLoad(): WorkerLoad {
  return { figureLibraryBytes: caches.figure.calculatedSize, effectLibraryBytes: caches.effect.calculatedSize };
}

/**
 * Drawings kept for the requests that only change their output (`crop`, `bg`, `zoom`): the second
 * background or zoom of one avatar is an output step on the held frames, not a new drawing. Keyed by
 * generation and `drawingKey`; plain requests neither read nor fill it (their frames live in a scratch).
 */
const drawings = new LRUCache<string, AvatarRender>({
  maxSize: init.drawingCacheBytes,
  sizeCalculation: (r) =>
    Math.max(
      1,
      r.frames.reduce((n, f) => n + f.data.length, 0),
    ),
});

/** The drawing of a job that changes its output: held, or drawn now and kept (copied out of the scratch). */
async function drawingFor(hotel: AvatarHotel, job: AvatarJob, scratch: ImageScratch): Promise<[AvatarRender, boolean]> {
  const key = `${job.generation}\0${drawingKey(job.req)}`;
  const held = drawings.get(key);
  if (held) return [held, true];
  const drawn = await renderAvatar(hotel, job.req, scratch.image);
  const kept = {
    ...drawn,
    frames: drawn.frames.map((f) => ({ width: f.width, height: f.height, data: f.data.slice() })),
  };
  drawings.set(key, kept);
  return [kept, false];
}

/**
 * Canvas memory for renders, reused: each job takes its own scratch (a job waiting for a library lets
 * the next one start) and gives it back once its frames are encoded.
 */
const scratches: ImageScratch[] = [];

/** What a finished job tells besides its id, time and the worker's load. */
type Done = Omit<Extract<WorkerMessage, { type: 'done' }>, 'type' | 'id' | 'ms' | keyof WorkerLoad>;

/**
 * Runs a job and posts its answer: `done` with what `work` made (the buffers it lists transferred), or
 * `failed` with the error's code (`codeOf`) and message.
 */
async function answer(
  job: RenderJob,
  work: () => Promise<[Done, ArrayBuffer[]]>,
  codeOf: (err: unknown) => string,
): Promise<void> {
  const started = performance.now();
  try {
    const [done, transfer] = await work();
    post({ type: 'done', id: job.id, ...done, ms: performance.now() - started, ...libraryLoad() }, transfer);
  } catch (err) {
    const e = err as Error;
    const message = e?.message ?? String(err);
    post({ type: 'failed', id: job.id, name: e?.name ?? 'Error', code: codeOf(err), message, ...libraryLoad() });
  }
}

const errorName = (err: unknown) => (err as Error)?.name ?? 'Error';

function render(job: AvatarJob): Promise<void> {
  const code = (err: unknown) => (err instanceof AvatarRenderError ? err.code : errorName(err));
  return answer(
    job,
    async () => {
      const scratch = scratches.pop() ?? new ImageScratch();
      try {
        const hotel = hotels.get(job.generation);
        if (!hotel) throw new Error(`hotel generation ${job.generation} is not loaded in this worker`);
        const [drawing, reused] = changesOutput(job.req)
          ? await drawingFor(hotel, job, scratch)
          : [await renderAvatar(hotel, job.req, scratch.image), false];
        const out = requestedOutput(drawing, job.req);
        const encoded = await encodeAvatar(out, job.req.format ?? 'png');
        // Transferred, not copied, when the bytes own their ArrayBuffer; else a private copy first.
        const body = transferableBytes(encoded);
        const layers = job.debug ? (JSON.parse(JSON.stringify(out.layers)) as unknown[]) : undefined;
        const { width, height } = out;
        return [{ body, frames: out.frames.length, width, height, layers, reused }, [body.buffer]];
      } finally {
        scratch.release();
        scratches.push(scratch);
      }
    },
    code,
  );
}

// One cache of bundle folders for furni and room jobs, one of pet folders for pet and room jobs: what is
// decoded for one job kind is there for the other.
const bundlesOf = bundleFolders();
const petsOf = petFolders();
const runFurni = furniJobRunner(bundlesOf);
const rooms = roomJobRunner(bundlesOf, petsOf, (generation) => hotels.get(generation));

function renderRoomJob(job: RoomJob): Promise<void> {
  return answer(
    job,
    async () => {
      const { width, height, rgba: pixels, report, motion } = await rooms.run(job);
      const rgba = transferableBytes(pixels);
      // Frame 0 is the picture itself: only the later frames go beside it.
      const later = motion ? motion.frames.slice(1).map((f) => ({ ...f, data: transferableBytes(f.data) })) : [];
      const room = {
        width,
        height,
        rgba,
        report,
        ...(motion ? { motion: { frames: later, updates: motion.updates } } : {}),
      };
      const frames = motion ? motion.frames.length : 1;
      return [
        { body: new Uint8Array(0), frames, width, height, reused: false, room },
        [rgba.buffer, ...later.map((f) => f.data.buffer)],
      ];
    },
    errorName,
  );
}

function renderFurni(job: FurniJob): Promise<void> {
  return answer(
    job,
    async () => {
      const { image, body: encoded, picture } = await runFurni(job);
      const body = transferableBytes(encoded);
      // A copy: the pixels may be a sprite the decoded bundle keeps (an icon), which a transfer would take.
      const held = picture ? pictureData(picture, true) : undefined;
      const transfer = held ? [body.buffer, held.data.buffer as ArrayBuffer] : [body.buffer];
      const { width, height } = image;
      return [{ body, frames: 1, width, height, reused: !held, ...(held ? { picture: held } : {}) }, transfer];
    },
    (err) => (err instanceof FurniJobFailure ? err.code : FURNI_FAILURES.broken),
  );
}

const runPet = petJobRunner(petsOf);

function renderPetJob(job: PetJob): Promise<void> {
  return answer(
    job,
    async () => {
      const { body: encoded, frames, width, height } = await runPet(job);
      const body = transferableBytes(encoded);
      return [{ body, frames, width, height, reused: false }, [body.buffer]];
    },
    (err) => (err instanceof PetJobFailure ? err.code : PET_FAILURES.broken),
  );
}

function run(job: RenderJob): Promise<void> {
  switch (job.kind) {
    case 'avatar':
      return render(job);
    case 'furni':
      return renderFurni(job);
    case 'room':
      return renderRoomJob(job);
    case 'pet':
      return renderPetJob(job);
  }
}

port.on('message', (msg: PoolMessage) => {
  if (msg.type === 'render') {
    for (const job of msg.jobs) void run(job);
  } else if (msg.type === 'load') {
    try {
      load(msg);
      post({ type: 'loaded', generation: msg.generation });
    } catch (err) {
      post({ type: 'load-failed', generation: msg.generation, message: (err as Error)?.message ?? String(err) });
    }
  } else if (msg.type === 'drop') {
    drop(msg.generation);
  }
});

try {
  for (const h of init.hotels) load(h);
  post({ type: 'ready' });
} catch (err) {
  post({ type: 'init-failed', message: (err as Error)?.message ?? String(err) });
}
