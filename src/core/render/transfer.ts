// Handing a render's bytes from a worker to the main thread: moved (transferred) when that moves nothing
// else and Node allows it, else copied once into memory of their own.
import * as threads from 'node:worker_threads';

/**
 * Node 21+ says which ArrayBuffers may not be transferred: sharp's output (memory libvips owns) and, on
 * Node 24, `Buffer.allocUnsafe`'s pools; posting one throws DataCloneError. Node 20 cannot say, and
 * transfers such memory without complaint: there everything is copied, as before the transfer existed.
 */
const untransferable =
  (threads as { isMarkedAsUntransferable?: (b: ArrayBufferLike) => boolean }).isMarkedAsUntransferable ?? (() => true);

/**
 * `bytes` itself when they are the whole of their ArrayBuffer and Node lets it move (a still's PNG is:
 * png.ts allocates it on its own), else a copy that is. Post the result with `[result.buffer]` in the
 * transfer list: a slice of Node's shared buffer pool, an APNG joined by `Buffer.concat` or an RGBA PNG
 * from sharp is copied.
 */
export function transferableBytes(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  if (
    bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength &&
    !untransferable(bytes.buffer) &&
    bytes.buffer instanceof ArrayBuffer
  ) {
    return bytes as Uint8Array<ArrayBuffer>;
  }
  return new Uint8Array(bytes);
}
