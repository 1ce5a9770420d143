// Requests answered straight from the socket. Node's http module spends about twice nginx's CPU
// on each request before our code runs (docs/furni-service.md, "How it is built"), which alone keeps a
// static service under half of nginx's throughput. So a service takes each new connection first: while
// its requests are plain HTTP/1.1 GET/HEAD heads (see request-head.ts) that the service's `answer` takes,
// they are answered here, with header blocks the service may build once; at the first request that is
// anything else, the connection — with every byte not yet answered — is handed to Node's http server,
// which owns it from then on.
// The furni service answers its asset paths here (furni/fast-answer.ts), the avatar service its image
// paths (avatar/fast-answer.ts).
import { type Server } from 'node:http';
import { type Socket } from 'node:net';
import { clientAddress } from './client-address.js';
import { type RequestDone } from './request-log.js';
import { INCOMPLETE, NOT_SIMPLE, scanRequestHead, type SimpleRequest } from './request-head.js';

/** A response as the fast path writes it. */
export interface FastResponse {
  status: number;
  /**
   * The status line and header lines (`headBlock`), without Date, Connection and the empty line, which the
   * fast path adds. With `reused`, the same Buffer comes back for the same headers (a file's, an image's):
   * the fast path keeps it joined to the current second's keep-alive lines and writes that block as it is.
   */
  head: Buffer;
  reused?: boolean;
  /** The body (not written for HEAD; the head's Content-Length says its size either way). */
  body?: Buffer;
  /** The cache tier the answer came from, for the request log and metrics (null: not an image or file). */
  cache: string | null;
}

/**
 * The service's answer to a simple GET/HEAD head it claims: a response, or one to come (a promise that never rejects).
 */
export type FastAnswerer = (req: SimpleRequest, client: string, reqId: string) => FastResponse | Promise<FastResponse>;

export interface FastPathOptions {
  /** Whether the service answers this request target here (else the connection goes to Node). */
  claims: (target: string) => boolean;
  answer: FastAnswerer;
  /** Counts and logs each answered request. */
  done: RequestDone;
  nextId: () => string;
  /** The client is the first X-Forwarded-For entry (see client-address.ts). */
  trustProxy: boolean;
  /** Idle time after which a kept-alive connection is closed (as Node's keepAliveTimeout). */
  keepAliveMs: number;
  /** An answer threw or rejected (the client gets a 500). */
  onError: (err: unknown, target: string, reqId: string) => void;
}

export interface FastPath {
  /** Stops keeping connections alive: idle ones close now, busy ones after their response. */
  close(): void;
  /** Connections currently held by the fast path (not handed to Node). */
  readonly connections: number;
}

const INTERNAL_ERROR_BODY = Buffer.from('internal error\n');
const INTERNAL_ERROR: FastResponse = {
  status: 500,
  head: headBlock('500 Internal Server Error', {
    'access-control-allow-origin': '*',
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': String(INTERNAL_ERROR_BODY.length),
  }),
  reused: true,
  body: INTERNAL_ERROR_BODY,
  cache: null,
};

/**
 * Bytes a client may pipeline while an answer to come (a disk read, a render) holds its connection, before reading from
 * it pauses.
 */
const MAX_QUEUED = 64 * 1024;

/**
 * Responses up to this size are copied into one (pooled) buffer and written at once; larger ones go out
 * as a gathered write of head and body, since copying a bigger body costs more than the gather saves.
 */
const SINGLE_WRITE_MAX = 2 * 1024;

/** The status line (`200 OK`) and header lines of a response, as Node's http writes them (names as given). */
export function headBlock(status: string, headers: Record<string, string>): Buffer {
  let s = `HTTP/1.1 ${status}\r\n`;
  for (const name in headers) s += `${name}: ${headers[name]}\r\n`;
  return Buffer.from(s, 'latin1');
}

/**
 * Takes over `server`'s new connections. Call before the server listens; Node's own connection
 * handling is kept and receives every connection the fast path hands over.
 */
export function installFastPath(server: Server, opts: FastPathOptions): FastPath {
  const nodeListeners = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  const open = new Set<FastConnection>();
  const ctx: Context = {
    opts,
    open,
    closing: false,
    blocks: new WeakMap(),
    date: responseTails(opts.keepAliveMs),
    handOff: (socket, rest, ended) => {
      for (const listener of nodeListeners) listener.call(server, socket);
      // Node's parser is now attached; what this side read but did not answer goes to it first, and a
      // FIN that came in while an answer was pending is passed on after it.
      if (rest) socket.emit('data', rest);
      if (ended) socket.emit('end');
    },
  };
  server.on('connection', (socket: Socket) => {
    open.add(new FastConnection(socket, ctx));
  });
  return {
    close() {
      ctx.closing = true;
      for (const c of open) c.closeIfIdle();
    },
    get connections() {
      return open.size;
    },
  };
}

interface Context {
  opts: FastPathOptions;
  open: Set<FastConnection>;
  closing: boolean;
  /** Reused heads joined to the keep-alive lines of `second`. */
  blocks: WeakMap<Buffer, KeptAliveBlock>;
  date: ResponseTails;
  handOff(socket: Socket, rest: Buffer | undefined, ended: boolean): void;
}

class FastConnection {
  /** Bytes received and not yet answered. */
  private pending: Buffer | undefined;
  /** A response is waiting on an answer to come; later requests wait their turn. */
  private busy = false;
  private waitingDrain = false;
  /** Reading paused because requests queued up behind such an answer. */
  private pausedForBusy = false;
  /** The client sent FIN: finish what was asked, then close. */
  private ended = false;
  /** Handed to Node or closing: this object no longer touches the socket. */
  private done = false;
  /** The peer's address, read once (it cannot change, and is gone once the socket closes). */
  private readonly peer: string | undefined;

  constructor(
    private readonly socket: Socket,
    private readonly ctx: Context,
  ) {
    socket.on('data', this.onData);
    socket.on('end', this.onEnd);
    socket.on('error', this.onError);
    socket.on('timeout', this.onTimeout);
    socket.on('close', this.onClose);
    socket.setTimeout(ctx.opts.keepAliveMs);
    this.peer = socket.remoteAddress;
  }

  closeIfIdle(): void {
    if (!this.busy && !this.done) {
      this.done = true;
      this.socket.destroy();
    }
  }

  private readonly onData = (chunk: Buffer): void => {
    this.pending = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    if (this.busy) {
      if (this.pending.length > MAX_QUEUED && !this.pausedForBusy) {
        this.pausedForBusy = true;
        this.socket.pause();
      }
      return;
    }
    this.process();
  };

  private readonly onEnd = (): void => {
    this.ended = true;
    if (!this.busy && !this.waitingDrain) this.finishAfterEnd();
  };

  private readonly onError = (): void => {
    // A reset or broken pipe ends this connection only; nothing to answer.
    this.done = true;
    this.socket.destroy();
  };

  private readonly onTimeout = (): void => {
    // The keep-alive timeout is for idle connections, as Node's: a request whose answer is still coming (a render
    // slower than the timeout on a loaded machine) keeps its connection; the timer starts again when it is written.
    if (this.busy) return;
    this.done = true;
    this.socket.destroy();
  };

  private readonly onClose = (): void => {
    this.done = true;
    this.ctx.open.delete(this);
  };

  private process(): void {
    while (this.pending && !this.busy && !this.waitingDrain && !this.done) {
      const buf = this.pending;
      // Incomplete: wait for more. Anything that is not (or cannot become) a GET/HEAD head the service claims this
      // side answers — another method, a TLS hello, an oversized head — goes to Node at once.
      const req = scanRequestHead(buf);
      if (req === INCOMPLETE) return;
      const { opts } = this.ctx;
      if (req === NOT_SIMPLE || !opts.claims(req.target)) {
        this.handOff();
        return;
      }
      this.pending = req.end < buf.length ? buf.subarray(req.end) : undefined;
      const started = performance.now();
      const reqId = opts.nextId();
      const client = clientAddress(req.forwardedFor, this.peer, opts.trustProxy);
      let answer: FastResponse | Promise<FastResponse>;
      // A bug in an answer must cost one request (a 500), never the process.
      try {
        answer = opts.answer(req, client, reqId);
      } catch (err) {
        answer = this.failed(err, req.target, reqId);
      }
      if (answer instanceof Promise) {
        this.busy = true;
        void answer
          .catch((err: unknown) => this.failed(err, req.target, reqId))
          .then((a) => {
            this.busy = false;
            if (this.socket.destroyed) return;
            if (this.pausedForBusy) {
              this.pausedForBusy = false;
              this.socket.resume();
            }
            this.respond(req, a, started, reqId, client);
            this.process();
            if (this.ended && !this.busy && !this.waitingDrain) this.finishAfterEnd();
          });
        return;
      }
      this.respond(req, answer, started, reqId, client);
    }
  }

  private failed(err: unknown, target: string, reqId: string): FastResponse {
    this.ctx.opts.onError(err, target, reqId);
    return INTERNAL_ERROR;
  }

  private respond(req: SimpleRequest, answer: FastResponse, started: number, reqId: string, client: string): void {
    const { ctx, socket } = this;
    const close = req.close || ctx.closing;
    const date = ctx.date;
    date.refresh();
    // `head` is the status line and headers; `tail` the Date/Connection lines and the empty line, unless
    // `head` is a reused block that already ends with them (kept alive, rebuilt once a second).
    let head = answer.head;
    let tail: Buffer | undefined = close ? date.closeTail : date.keepAliveTail;
    let body = answer.body;
    if (answer.reused && !close) {
      let block = ctx.blocks.get(head);
      if (!block || block.second !== date.second) {
        // A new buffer, never rewritten in place: earlier writes may still hold the old one.
        block = { second: date.second, bytes: Buffer.concat([head, date.keepAliveTail]) };
        ctx.blocks.set(head, block);
      }
      head = block.bytes;
      tail = undefined;
    }
    if (req.method === 'HEAD') body = undefined;
    if (tail === undefined && body === undefined) {
      // A kept-alive 304 or HEAD: one prebuilt block, no copy.
      socket.write(head);
    } else {
      const size = head.length + (tail?.length ?? 0) + (body?.length ?? 0);
      if (size <= SINGLE_WRITE_MAX) {
        const out = Buffer.allocUnsafe(size);
        let at = head.copy(out, 0);
        if (tail) at += tail.copy(out, at);
        body?.copy(out, at);
        socket.write(out);
      } else {
        socket.cork();
        socket.write(head);
        if (tail) socket.write(tail);
        if (body !== undefined) socket.write(body);
        socket.uncork();
      }
    }
    ctx.opts.done(reqId, req.method, req.target, answer.status, body?.length ?? 0, started, answer.cache, client);
    if (close) {
      this.done = true;
      socket.destroySoon();
    } else if (socket.writableNeedDrain) {
      // The client is not reading: stop reading its requests until it catches up.
      this.waitingDrain = true;
      socket.pause();
      socket.once('drain', () => {
        this.waitingDrain = false;
        socket.resume();
        this.process();
        if (this.ended && !this.busy && !this.waitingDrain) this.finishAfterEnd();
      });
    }
  }

  /** After the client's FIN: whatever complete requests came were answered; close our side too. */
  private finishAfterEnd(): void {
    if (this.done) return;
    this.done = true;
    this.socket.destroySoon();
  }

  private handOff(): void {
    this.done = true;
    const { socket } = this;
    socket.off('data', this.onData);
    socket.off('end', this.onEnd);
    socket.off('error', this.onError);
    socket.off('timeout', this.onTimeout);
    socket.off('close', this.onClose);
    socket.setTimeout(0);
    this.ctx.open.delete(this);
    const rest = this.pending;
    this.pending = undefined;
    this.ctx.handOff(socket, rest, this.ended);
  }
}

const EMPTY = Buffer.alloc(0);

interface KeptAliveBlock {
  /** The second (Unix time) of the Date line in `bytes`. */
  second: number;
  /** A reused head followed by that second's keep-alive lines. */
  bytes: Buffer;
}

interface ResponseTails {
  /** Brings the tails up to the current second. */
  refresh(): void;
  /** The second (Unix time) the tails were built for. */
  readonly second: number;
  /** `Date`, `Connection: keep-alive`, `Keep-Alive` and the empty line ending the head. */
  readonly keepAliveTail: Buffer;
  /** `Date`, `Connection: close` and the empty line. */
  readonly closeTail: Buffer;
}

/** The header lines that end every response, rebuilt at most once a second (the Date changes). */
function responseTails(keepAliveMs: number): ResponseTails {
  const keepAlive = `Connection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(keepAliveMs / 1000)}\r\n\r\n`;
  const tails: ResponseTails = {
    second: -1,
    keepAliveTail: EMPTY,
    closeTail: EMPTY,
    refresh() {
      const now = Math.floor(Date.now() / 1000);
      if (now === tails.second) return;
      const date = `Date: ${new Date(now * 1000).toUTCString()}\r\n`;
      (tails as { second: number }).second = now;
      (tails as { keepAliveTail: Buffer }).keepAliveTail = Buffer.from(date + keepAlive, 'latin1');
      (tails as { closeTail: Buffer }).closeTail = Buffer.from(`${date}Connection: close\r\n\r\n`, 'latin1');
    },
  };
  return tails;
}
