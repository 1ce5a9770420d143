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

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'init-failed'; message: string }
  | { type: 'done'; id: number; body: Uint8Array; frames: number; width: number; height: number; layers?: unknown[] }
  | { type: 'failed'; id: number; name: string; code: string; message: string };
