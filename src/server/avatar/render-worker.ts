// Worker thread of the render pool: loads the hotel once, then renders and encodes on request, so
// pixel work never blocks the HTTP event loop.
import { parentPort, workerData } from 'node:worker_threads';
import { AvatarRenderError, encodeAvatar, loadAvatarHotel, renderAvatar, shownFrames } from '../../avatar/index.js';
import { type RenderJobMessage, type WorkerInit, type WorkerMessage } from './render-protocol.js';

const port = parentPort;
if (!port) throw new Error('render-worker.ts runs only as a worker thread');
const init = workerData as WorkerInit;

function post(msg: WorkerMessage, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(msg, transfer);
}

async function main(): Promise<void> {
  let hotel: Awaited<ReturnType<typeof loadAvatarHotel>>;
  try {
    hotel = await loadAvatarHotel(init.assetsDir, { libraryCacheBytes: init.libraryCacheBytes });
  } catch (err) {
    post({ type: 'init-failed', message: (err as Error).message });
    return;
  }
  const load = () => ({ figureLibraryBytes: hotel.libraries.cachedBytes, effectLibraryBytes: hotel.effectLibraries.cachedBytes });
  port!.on('message', (job: RenderJobMessage) => {
    void (async () => {
      const started = performance.now();
      try {
        const render = shownFrames(await renderAvatar(hotel, job.req), job.req.frameNum);
        const encoded = await encodeAvatar(render, job.req.format ?? 'png');
        // A private copy so its whole ArrayBuffer can be transferred without copying again.
        const body = new Uint8Array(encoded.length);
        body.set(encoded);
        const layers = job.debug ? (JSON.parse(JSON.stringify(render.layers)) as unknown[]) : undefined;
        post(
          { type: 'done', id: job.id, body, frames: render.frames.length, width: render.width, height: render.height, layers, ms: performance.now() - started, ...load() },
          [body.buffer],
        );
      } catch (err) {
        const e = err as Error;
        post({
          type: 'failed',
          id: job.id,
          name: e?.name ?? 'Error',
          code: err instanceof AvatarRenderError ? err.code : e?.name ?? 'Error',
          message: e?.message ?? String(err),
          ...load(),
        });
      }
    })();
  });
  post({ type: 'ready' });
}

void main();
