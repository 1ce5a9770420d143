// Asset requests answered straight from the socket. Node's http module spends about twice nginx's CPU
// on each request before our code runs (measured: a bare `http.createServer` returning a fixed buffer
// costs ~32 µs a request here, nginx ~15 µs), which alone keeps a static service under half of nginx's
// throughput. So the service takes each new connection first: while its requests are plain HTTP/1.1
// GET/HEAD heads on asset paths (see request-head.ts) they are answered here with header blocks built
// once per file; at the first request that is anything else, the connection — with every byte not yet
// answered — is handed to Node's http server, which owns it from then on (Fastify answers the rest).
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { clientAddress } from '../client-address.js';
import { type RequestDone } from '../request-log.js';
import {
  isAssetPath,
  NOT_FOUND_BODY,
  NOT_FOUND_HEADERS,
  TOO_MANY_BODY,
  TOO_MANY_HEADERS,
  unavailableResponse,
  type AssetAnswer,
  type AssetAnswerer,
} from './asset-answer.js';
import type { CorpusFile } from './corpus-manifest.js';
import { INCOMPLETE, NOT_SIMPLE, scanRequestHead, type SimpleRequest } from './request-head.js';

export interface FastPathOptions {
  answerAsset: AssetAnswerer;
  /** Counts and logs each answered request. */
  done: RequestDone;
  nextId: () => string;
  /** The client is the first X-Forwarded-For entry (see client-address.ts). */
  trustProxy: boolean;
  /** Idle time after which a kept-alive connection is closed (as Node's keepAliveTimeout). */
  keepAliveMs: number;
}

export interface FastPath {
  /** Stops keeping connections alive: idle ones close now, busy ones after their response. */
  close(): void;
  /** Connections currently held by the fast path (not handed to Node). */
  readonly connections: number;
}

/** Bytes a client may pipeline while a disk read holds its connection, before reading from it pauses. */
const MAX_QUEUED = 64 * 1024;

/**
 * Responses up to this size are copied into one (pooled) buffer and written at once; larger ones go out
 * as a gathered write of head and body, since copying a bigger body costs more than the gather saves.
 */
const SINGLE_WRITE_MAX = 2 * 1024;

/** The status line and fixed header lines of a response, as Node's http writes them. */
function headBlock(status: string, headers: Record<string, string>): Buffer {
  let s = `HTTP/1.1 ${status}\r\n`;
  for (const [name, value] of Object.entries(headers)) s += `${name}: ${value}\r\n`;
  return Buffer.from(s, 'latin1');
}

const NOT_FOUND_HEAD = headBlock('404 Not Found', NOT_FOUND_HEADERS);
const NOT_FOUND_BODY_BYTES = Buffer.from(NOT_FOUND_BODY);
const TOO_MANY_HEAD = headBlock('429 Too Many Requests', TOO_MANY_HEADERS);
const TOO_MANY_BODY_BYTES = Buffer.from(TOO_MANY_BODY);

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
  heads: WeakMap<CorpusFile, FileHeads>;
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
      // Incomplete: wait for more. Anything that is not (or cannot become) an asset GET/HEAD head this
      // side answers — another method, a TLS hello, an oversized head — goes to Node at once.
      const req = scanRequestHead(buf);
      if (req === INCOMPLETE) return;
      if (req === NOT_SIMPLE || !isAssetPath(req.target)) {
        this.handOff();
        return;
      }
      this.pending = req.end < buf.length ? buf.subarray(req.end) : undefined;
      const started = performance.now();
      const { opts } = this.ctx;
      const reqId = opts.nextId();
      const client = clientAddress(req.forwardedFor, this.peer, opts.trustProxy);
      const answer = opts.answerAsset(req.target, req.ifNoneMatch, client, reqId);
      if (answer instanceof Promise) {
        this.busy = true;
        void answer.then((a) => {
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

  private respond(req: SimpleRequest, answer: AssetAnswer, started: number, reqId: string, client: string): void {
    const { ctx, socket } = this;
    const close = req.close || ctx.closing;
    const date = ctx.date;
    date.refresh();
    // `head` is the status line and headers; `tail` the Date/Connection lines and the empty line, unless
    // `head` is a per-file block that already ends with them (kept-alive 200/304, rebuilt once a second).
    let head: Buffer;
    let tail: Buffer | undefined;
    let body: Buffer | undefined;
    if (answer.status === 200 || answer.status === 304) {
      const file = answer.file;
      let heads = ctx.heads.get(file);
      if (!heads) {
        heads = {
          ok: headBlock('200 OK', file.headers),
          notModified: headBlock('304 Not Modified', file.notModifiedHeaders),
          second: -1,
          okBlock: EMPTY,
          notModifiedBlock: EMPTY,
        };
        ctx.heads.set(file, heads);
      }
      if (close) {
        head = answer.status === 200 ? heads.ok : heads.notModified;
        tail = date.closeTail;
      } else {
        if (heads.second !== date.second) {
          // New buffers, never rewritten in place: earlier writes may still hold the old ones.
          heads.okBlock = Buffer.concat([heads.ok, date.keepAliveTail]);
          heads.notModifiedBlock = Buffer.concat([heads.notModified, date.keepAliveTail]);
          heads.second = date.second;
        }
        head = answer.status === 200 ? heads.okBlock : heads.notModifiedBlock;
      }
      if (answer.status === 200) body = answer.body;
    } else if (answer.status === 404) {
      head = NOT_FOUND_HEAD;
      tail = close ? date.closeTail : date.keepAliveTail;
      body = NOT_FOUND_BODY_BYTES;
    } else if (answer.status === 429) {
      head = TOO_MANY_HEAD;
      tail = close ? date.closeTail : date.keepAliveTail;
      body = TOO_MANY_BODY_BYTES;
    } else {
      const r = unavailableResponse(answer.rebuilding, answer.timedOut);
      head = headBlock('503 Service Unavailable', r.headers);
      tail = close ? date.closeTail : date.keepAliveTail;
      body = Buffer.from(r.body);
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
    ctx.opts.done(reqId, req.method, req.target, answer.status, body?.length ?? 0, started, answer.status === 200 ? answer.source : null, client);
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

interface FileHeads {
  /** Status line and the file's fixed headers. */
  ok: Buffer;
  notModified: Buffer;
  /** The same followed by the kept-alive tail of `second` (the Date line changes once a second). */
  second: number;
  okBlock: Buffer;
  notModifiedBlock: Buffer;
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
