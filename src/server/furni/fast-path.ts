// Asset requests answered straight from the socket. Node's http module spends about twice nginx's CPU
// on each request before our code runs (measured: a bare `http.createServer` returning a fixed buffer
// costs ~32 µs a request here, nginx ~15 µs), which alone keeps a static service under half of nginx's
// throughput. So the service takes each new connection first: while its requests are plain HTTP/1.1
// GET/HEAD heads on asset paths (see request-head.ts) they are answered here with header blocks built
// once per file; at the first request that is anything else, the connection — with every byte not yet
// answered — is handed to Node's http server, which owns it from then on (Fastify answers the rest).
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { logPath, type RequestLineWriter } from '../request-log.js';
import {
  isAssetPath,
  NOT_FOUND_BODY,
  NOT_FOUND_HEADERS,
  unavailableResponse,
  type AssetAnswer,
  type AssetAnswerer,
} from './asset-answer.js';
import type { CorpusFile } from './corpus-manifest.js';
import { MAX_SIMPLE_HEAD, parseSimpleHead, type SimpleRequest } from './request-head.js';

export interface FastPathOptions {
  answerAsset: AssetAnswerer;
  logLine: RequestLineWriter | undefined;
  nextId: () => string;
  /** Idle time after which a kept-alive connection is closed (as Node's keepAliveTimeout). */
  keepAliveMs: number;
}

export interface FastPath {
  /** Stops keeping connections alive: idle ones close now, busy ones after their response. */
  close(): void;
  /** Connections currently held by the fast path (not handed to Node). */
  readonly connections: number;
}

const END_OF_HEAD = Buffer.from('\r\n\r\n', 'latin1');
/** Bytes a client may pipeline while a disk read holds its connection, before reading from it pauses. */
const MAX_QUEUED = 64 * 1024;

/**
 * Responses up to this size are copied into one (pooled) buffer and written at once; larger ones go out
 * as a gathered write of head and body, since copying a bigger body costs more than the gather saves.
 */
const SINGLE_WRITE_MAX = 2 * 1024;

const GET_START = Buffer.from('GET /', 'latin1');
const HEAD_START = Buffer.from('HEAD /', 'latin1');

/** Whether the bytes of an incomplete head could still be the start of a GET or HEAD request line. */
function startsLikeSimpleHead(buf: Buffer): boolean {
  const isPrefix = (start: Buffer) => {
    const n = Math.min(buf.length, start.length);
    return buf.compare(start, 0, n, 0, n) === 0;
  };
  return isPrefix(GET_START) || isPrefix(HEAD_START);
}

/** The status line and fixed header lines of a response, as Node's http writes them. */
function headBlock(status: string, headers: Record<string, string>): Buffer {
  let s = `HTTP/1.1 ${status}\r\n`;
  for (const [name, value] of Object.entries(headers)) s += `${name}: ${value}\r\n`;
  return Buffer.from(s, 'latin1');
}

const NOT_FOUND_HEAD = headBlock('404 Not Found', NOT_FOUND_HEADERS);
const NOT_FOUND_BODY_BYTES = Buffer.from(NOT_FOUND_BODY);

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
    heads: new WeakMap(),
    date: responseTails(opts.keepAliveMs),
    handOff: (socket, rest, ended) => {
      for (const listener of nodeListeners) listener.call(server, socket);
      // Node's parser is now attached; what this side read but did not answer goes to it first, and a
      // FIN that came in while a disk read was pending is passed on after it.
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
  /** 200 and 304 header blocks per corpus file, built on first use. */
  heads: WeakMap<CorpusFile, [Buffer, Buffer]>;
  date: ResponseTails;
  handOff(socket: Socket, rest: Buffer | undefined, ended: boolean): void;
}

class FastConnection {
  /** Bytes received and not yet answered. */
  private pending: Buffer | undefined;
  /** A response is waiting on a disk read; later requests wait their turn. */
  private busy = false;
  private waitingDrain = false;
  /** Reading paused because requests queued up behind a disk read. */
  private pausedForBusy = false;
  /** The client sent FIN: finish what was asked, then close. */
  private ended = false;
  /** Handed to Node or closing: this object no longer touches the socket. */
  private done = false;

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
      const end = buf.indexOf(END_OF_HEAD);
      if (end < 0) {
        // Incomplete: wait for more, unless it is already longer than any head we answer or cannot
        // become a GET/HEAD head (another method, a TLS hello): Node answers those without waiting.
        if (buf.length > MAX_SIMPLE_HEAD || !startsLikeSimpleHead(buf)) this.handOff();
        return;
      }
      const req = parseSimpleHead(buf.toString('latin1', 0, end));
      if (!req || !isAssetPath(req.target)) {
        this.handOff();
        return;
      }
      this.pending = end + 4 < buf.length ? buf.subarray(end + 4) : undefined;
      const started = performance.now();
      const answer = this.ctx.opts.answerAsset(req.target, req.ifNoneMatch);
      if (answer instanceof Promise) {
        this.busy = true;
        void answer.then((a) => {
          this.busy = false;
          if (this.socket.destroyed) return;
          if (this.pausedForBusy) {
            this.pausedForBusy = false;
            this.socket.resume();
          }
          this.respond(req, a, started);
          this.process();
          if (this.ended && !this.busy && !this.waitingDrain) this.finishAfterEnd();
        });
        return;
      }
      this.respond(req, answer, started);
    }
  }

  private respond(req: SimpleRequest, answer: AssetAnswer, started: number): void {
    const { ctx, socket } = this;
    let head: Buffer;
    let body: Buffer | undefined;
    if (answer.status === 200 || answer.status === 304) {
      let heads = ctx.heads.get(answer.file);
      if (!heads) {
        heads = [headBlock('200 OK', answer.file.headers), headBlock('304 Not Modified', answer.file.notModifiedHeaders)];
        ctx.heads.set(answer.file, heads);
      }
      head = answer.status === 200 ? heads[0] : heads[1];
      if (answer.status === 200) body = answer.body;
    } else if (answer.status === 404) {
      head = NOT_FOUND_HEAD;
      body = NOT_FOUND_BODY_BYTES;
    } else {
      const r = unavailableResponse(answer.rebuilding);
      head = headBlock('503 Service Unavailable', r.headers);
      body = Buffer.from(r.body);
    }
    if (req.method === 'HEAD') body = undefined;
    const close = req.close || ctx.closing;
    const tail = close ? ctx.date.closeTail() : ctx.date.keepAliveTail();
    const size = head.length + tail.length + (body?.length ?? 0);
    if (size <= SINGLE_WRITE_MAX) {
      const out = Buffer.allocUnsafe(size);
      head.copy(out, 0);
      tail.copy(out, head.length);
      body?.copy(out, head.length + tail.length);
      socket.write(out);
    } else {
      socket.cork();
      socket.write(head);
      socket.write(tail);
      if (body !== undefined) socket.write(body);
      socket.uncork();
    }
    const bytes = body?.length ?? 0;
    ctx.opts.logLine?.(ctx.opts.nextId(), req.method, logPath(req.target), answer.status, bytes, Math.round((performance.now() - started) * 100) / 100);
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

interface ResponseTails {
  /** `Date`, `Connection: keep-alive`, `Keep-Alive` and the empty line ending the head. */
  keepAliveTail(): Buffer;
  /** `Date`, `Connection: close` and the empty line. */
  closeTail(): Buffer;
}

/** The header lines that end every response, rebuilt at most once a second (the Date changes). */
function responseTails(keepAliveMs: number): ResponseTails {
  const keepAlive = `Connection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(keepAliveMs / 1000)}\r\n\r\n`;
  let second = -1;
  let open = Buffer.alloc(0);
  let closing = Buffer.alloc(0);
  const refresh = () => {
    const now = Math.floor(Date.now() / 1000);
    if (now === second) return;
    second = now;
    const date = `Date: ${new Date(now * 1000).toUTCString()}\r\n`;
    open = Buffer.from(date + keepAlive, 'latin1');
    closing = Buffer.from(`${date}Connection: close\r\n\r\n`, 'latin1');
  };
  return {
    keepAliveTail() {
      refresh();
      return open;
    },
    closeTail() {
      refresh();
      return closing;
    },
  };
}
