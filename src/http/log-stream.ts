// A buffered line writer for the logger: one write(2) per batch instead of one per request line,
// which at thousands of requests a second is a large share of a static server's time. Lines are
// flushed FLUSH_MS after the first one waiting, when the buffer passes a size, and synchronously at exit.
// (Flushed at the next turn of the event loop instead, the writes — each handed to libuv's thread pool —
// cost the avatar service's memory-hit path ~8 µs a request: a turn answers only a few requests.)
import { writeSync, write } from 'node:fs';

export interface LineStream {
  write(chunk: string): boolean;
  /** Writes out whatever is buffered, synchronously. */
  flushSync(): void;
  /** Flushes and stops flushing at process exit. */
  close(): void;
}

/** The longest a line waits in the buffer (unless the process exits first: then it is written at once). */
const FLUSH_MS = 20;

/** Past this many bytes waiting on a slow destination, lines are dropped (and counted) to keep memory flat. */
const MAX_PENDING = 4 * 1024 * 1024;

export function bufferedLineStream(fd: number = 1, maxBuffered = 16 * 1024): LineStream {
  let pending: string[] = [];
  let pendingBytes = 0;
  let dropped = 0;
  let scheduled = false;
  let writing = false;

  const take = () => {
    if (dropped > 0) {
      pending.push(
        JSON.stringify({ level: 40, time: Date.now(), dropped, msg: 'log lines dropped: destination too slow' }) + '\n',
      );
      dropped = 0;
    }
    return pending.join('');
  };
  const drain = () => {
    scheduled = false;
    if (writing || pending.length === 0) return;
    const data = take();
    pending = [];
    pendingBytes = 0;
    writing = true;
    write(fd, data, (err) => {
      writing = false;
      // A closed or broken log destination must not take the server down with it.
      if (err) return;
      if (pending.length > 0) schedule();
    });
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    // Unref'd: waiting lines never keep a process alive (its exit writes them).
    setTimeout(drain, FLUSH_MS).unref();
  };
  const flushSync = () => {
    if (pending.length === 0) return;
    const data = take();
    pending = [];
    pendingBytes = 0;
    try {
      writeSync(fd, data);
    } catch {
      // nowhere left to report it
    }
  };
  process.on('exit', flushSync);

  return {
    write(chunk: string): boolean {
      if (pendingBytes > MAX_PENDING) {
        dropped++;
        return true;
      }
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes >= maxBuffered && !writing) drain();
      else schedule();
      return true;
    },
    flushSync,
    close() {
      flushSync();
      process.off('exit', flushSync);
    },
  };
}

let stdoutStream: LineStream | undefined;

/**
 * The process's one buffered stdout: every service in the process (`hotel-imager start` runs two)
 * writes its lines through it, so their lines never interleave mid-line (two writers to one pipe could:
 * each flush is a write(2) of up to many kilobytes from a worker thread). Flushed at exit; a service
 * that stops flushes it, never closes it.
 */
export function stdoutLineStream(): LineStream {
  stdoutStream ??= bufferedLineStream(1);
  return stdoutStream;
}
