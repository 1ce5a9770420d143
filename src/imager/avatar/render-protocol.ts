// Messages between the render pool (main thread) and its worker threads.
import { type AvatarHotelSnapshot } from '../../avatar/index.js';
import { type AvatarRequest } from '../../avatar/request.js';

/** One hotel generation as a worker builds it: the main thread's reading of the folder. */
export interface HotelLoad {
  generation: number;
  snapshot: AvatarHotelSnapshot;
}

export interface WorkerInit {
  /** This worker's share of the pool's library budget (one cache for every hotel it holds). */
  libraryCacheBytes: number;
  /** The decode budget of the thread that started the pool (a worker thread starts with the default). */
  decodeBudgetBytes: number;
  /** Bytes of the drawings the worker keeps for output-only variants (`crop`, `bg`, `zoom`). */
  drawingCacheBytes: number;
  /** The hotels to hold from the start: the one in service, and any other still in use. */
  hotels: HotelLoad[];
}

/** One render a worker is given. */
export interface RenderJob {
  id: number;
  /** The hotel generation the request was planned and keyed with: it renders with exactly that one. */
  generation: number;
  req: AvatarRequest;
  /** Also return the renderer's description of every drawn layer (for /render). */
  debug: boolean;
}

/** Main thread → worker. */
export type PoolMessage =
  | { type: 'render'; jobs: RenderJob[] }
  | ({ type: 'load' } & HotelLoad)
  | { type: 'drop'; generation: number };

/** What a worker tells about itself with every answer: its decoded library bytes (figure and effect libraries). */
export interface WorkerLoad {
  figureLibraryBytes: number;
  effectLibraryBytes: number;
}

/** Worker → main thread. */
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'init-failed'; message: string }
  | { type: 'loaded'; generation: number }
  | { type: 'load-failed'; generation: number; message: string }
  | ({
      type: 'done';
      id: number;
      body: Uint8Array;
      frames: number;
      width: number;
      height: number;
      layers?: unknown[] /** render + encode */;
      /** The frames were a held drawing (only the output steps and the encoder ran). */
      reused: boolean;
      ms: number;
    } & WorkerLoad)
  | ({ type: 'failed'; id: number; name: string; code: string; message: string } & WorkerLoad);
