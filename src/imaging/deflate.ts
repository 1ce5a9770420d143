// zlib streams for the PNGs we encode by the thousand (avatar frames, badges, furni stills): the bytes of
// `deflateSync(raw, options)`, from one zlib stream per option set and thread that is reset after each use
// instead of built and freed each time. For a size-m avatar, building the stream (a Transform stream in JS,
// ~270 KiB of zlib state allocated and cleared) cost as much as a third of compressing it.
//
// Node has no public call that compresses synchronously and keeps the stream: `deflateSync` closes it.
// So this drives the stream's native handle (`_handle.writeSync`, `_writeState`, `reset`), as
// `zlib.deflateSync` itself does internally, and checks once per option set that the result is
// `deflateSync`'s to the byte; where that check fails, or the handle is not as expected (another Node),
// every call is plain `deflateSync`.
import { constants, createDeflate, deflateSync, type ZlibOptions } from 'node:zlib';

export interface DeflateOptions {
  level: number;
  memLevel?: number;
}

interface NativeHandle {
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
  reset(): void;
}

/** One kept stream: the handle, where it reports what is left of the input and output, and its output buffer. */
interface KeptStream {
  handle: NativeHandle;
  state: Uint32Array;
  stream: { _hadError?: boolean };
  out: Buffer;
}

const kept = new Map<string, KeptStream | null>();

/** The input sizes the check compresses both ways: empty, short, runs and noise longer than one output chunk. */
function probes(): Buffer[] {
  const noise = Buffer.alloc(70_000);
  let s = 7;
  for (let i = 0; i < noise.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    noise[i] = i % 97 < 60 ? 0 : s >>> 24;
  }
  return [Buffer.alloc(0), Buffer.from('hotel-imager'), Buffer.alloc(9000, 3), noise];
}

/** zlib's worst case for `length` bytes at any level (deflateBound with its wrapper), plus slack. */
function bound(length: number): number {
  return length + (length >>> 12) + (length >>> 14) + (length >>> 25) + 64;
}

function keep(options: DeflateOptions): KeptStream | null {
  try {
    const stream = createDeflate(options as ZlibOptions) as unknown as { _handle?: NativeHandle; _writeState?: Uint32Array; _hadError?: boolean };
    const handle = stream._handle;
    const state = stream._writeState;
    if (!handle || typeof handle.writeSync !== 'function' || typeof handle.reset !== 'function' || !(state instanceof Uint32Array)) return null;
    const k: KeptStream = { handle, state, stream, out: Buffer.allocUnsafeSlow(bound(16 * 1024)) };
    for (const p of probes()) {
      const ours = run(k, p);
      if (!ours || !ours.equals(deflateSync(p, options as ZlibOptions))) return null;
    }
    return k;
  } catch {
    return null;
  }
}

/** One whole stream through the kept handle, then reset: its bytes in the kept output buffer, or null when it did not end cleanly. */
function run(k: KeptStream, input: Uint8Array): Buffer | null {
  const need = bound(input.length);
  if (k.out.length < need) k.out = Buffer.allocUnsafeSlow(need);
  k.handle.writeSync(constants.Z_FINISH, input, 0, input.length, k.out, 0, k.out.length);
  const [availOut, availIn] = k.state;
  const ok = !k.stream._hadError && availIn === 0 && availOut! > 0;
  k.handle.reset();
  return ok ? k.out.subarray(0, k.out.length - availOut!) : null;
}

/**
 * `deflateSync(input, options)`'s bytes, which may be memory this module uses again: valid until the next
 * call with the same options, for a caller that copies them at once (png.ts writes them into the file).
 */
export function deflateTransient(input: Uint8Array, options: DeflateOptions): Uint8Array {
  const id = `${options.level}/${options.memLevel ?? 8}`;
  let k = kept.get(id);
  if (k === undefined) {
    k = keep(options);
    kept.set(id, k);
  }
  if (k) {
    try {
      const bytes = run(k, input);
      if (bytes) return bytes;
    } catch {
      // a handle that failed once is not trusted again
    }
    kept.set(id, null);
  }
  return deflateSync(input, options as ZlibOptions);
}

/** `deflateSync(input, options)`, byte for byte (a zlib stream: header, deflate data, Adler-32), in memory of its own. */
export function deflate(input: Uint8Array, options: DeflateOptions): Buffer {
  return Buffer.from(deflateTransient(input, options));
}

/** Whether `deflate` keeps its stream for these options on this Node (false: it calls `deflateSync`). */
export function deflateKeepsStream(options: DeflateOptions): boolean {
  deflate(Buffer.alloc(0), options);
  return kept.get(`${options.level}/${options.memLevel ?? 8}`) != null;
}
