// Messages between the render pool (main thread) and its worker threads.
import { type AvatarRequest } from '../../avatar/request.js';

export interface WorkerInit {
  assetsDir: string;
  /** This worker's share of the pool's library budget. */
  libraryCacheBytes: number;
}

export interface RenderJobMessage {
  id: number;
  req: AvatarRequest;
  /** Also return the renderer's description of every drawn layer (for /render). */
  debug: boolean;
}

/** What a worker tells about itself with every answer: its decoded library bytes (figure and effect libraries). */
export interface WorkerLoad {
  figureLibraryBytes: number;
  effectLibraryBytes: number;
}

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'init-failed'; message: string }
  | ({ type: 'done'; id: number; body: Uint8Array; frames: number; width: number; height: number; layers?: unknown[]; /** render + encode */ ms: number } & WorkerLoad)
  | ({ type: 'failed'; id: number; name: string; code: string; message: string } & WorkerLoad);
