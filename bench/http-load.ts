// A small keep-alive HTTP/1.1 load generator for the benchmarks: N connections each send the next path
// of a shared list as soon as their previous answer is complete, until the list is used up. Latency is
// timed per request with the monotonic clock in microseconds and throughput over the real wall time.
// (autocannon, used before, ends an `amount` run only on its one-second tick, which rounded cold passes
// of a few seconds by up to a second, and it keeps latency in whole milliseconds.)
import { execFile, execFileSync } from 'node:child_process';
import { connect, createServer, type Socket } from 'node:net';
import { promisify } from 'node:util';

export interface LoadOptions {
  /** http://host:port of the server. */
  base: string;
  /** Request targets (path and query); each is requested exactly once. */
  paths: string[];
  connections: number;
  /** A request without a complete answer after this long counts as an error and its connection is replaced. */
  timeoutMs?: number;
  /** No request is sent after this time (performance.now() milliseconds), even with paths left. */
  stopAtMs?: number;
}

export interface LoadResult {
  requests: number;
  /** Answers by status code. */
  status: Record<number, number>;
  errors: number;
  wallMs: number;
  /** Sorted ascending, one per answered request. */
  latenciesMs: number[];
  bodyBytes: number;
}

/** A loopback port free at the moment of asking (for a service the bench starts). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Answers of `status` per second of wall time. */
export function ratePerSecond(r: LoadResult, status = 200): number {
  return ((r.status[status] ?? 0) / r.wallMs) * 1000;
}

const CRLF2 = Buffer.from('\r\n\r\n');

/** Parses one response from `buf`; the byte length it used, or 0 while incomplete. */
function responseLength(buf: Buffer): { used: number; status: number; body: number; close: boolean } | undefined {
  const headEnd = buf.indexOf(CRLF2);
  if (headEnd < 0) return undefined;
  const head = buf.toString('latin1', 0, headEnd);
  const status = Number(head.slice(9, 12));
  const lower = head.toLowerCase();
  const close = /\r\nconnection:\s*close/.test(lower) || head.startsWith('HTTP/1.0');
  const bodyStart = headEnd + 4;
  const cl = /\r\ncontent-length:\s*(\d+)/.exec(lower);
  if (status === 204 || status === 304) return { used: bodyStart, status, body: 0, close };
  if (cl) {
    const n = Number(cl[1]);
    return buf.length >= bodyStart + n ? { used: bodyStart + n, status, body: n, close } : undefined;
  }
  if (/\r\ntransfer-encoding:\s*chunked/.test(lower)) {
    let at = bodyStart;
    let body = 0;
    for (;;) {
      const lineEnd = buf.indexOf('\r\n', at, 'latin1');
      if (lineEnd < 0) return undefined;
      const size = parseInt(buf.toString('latin1', at, lineEnd), 16);
      if (!Number.isFinite(size)) throw new Error('bad chunk size');
      at = lineEnd + 2;
      if (size === 0) {
        // No trailers expected; the chunked body ends with an empty line.
        if (buf.length < at + 2) return undefined;
        return { used: at + 2, status, body, close };
      }
      if (buf.length < at + size + 2) return undefined;
      at += size + 2;
      body += size;
    }
  }
  throw new Error('response has neither Content-Length nor chunked body');
}

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const url = new URL(opts.base);
  const port = Number(url.port || 80);
  const host = url.hostname;
  const hostHeader = url.host;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const result: LoadResult = { requests: 0, status: {}, errors: 0, wallMs: 0, latenciesMs: [], bodyBytes: 0 };
  let next = 0;
  const started = performance.now();

  const worker = () =>
    new Promise<void>((done) => {
      let socket: Socket | undefined;
      let pending: Buffer = Buffer.alloc(0);
      let sentAt = 0;
      let timer: NodeJS.Timeout | undefined;
      let inFlight = false;

      const open = () => {
        pending = Buffer.alloc(0);
        const s = connect({ host, port, noDelay: true });
        socket = s;
        s.on('data', (chunk: Buffer) => {
          if (socket !== s) return;
          pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
          let parsed;
          try {
            parsed = responseLength(pending);
          } catch {
            fail();
            return;
          }
          if (!parsed) return;
          clearTimeout(timer);
          inFlight = false;
          const ms = performance.now() - sentAt;
          result.latenciesMs.push(ms);
          result.status[parsed.status] = (result.status[parsed.status] ?? 0) + 1;
          result.bodyBytes += parsed.body;
          pending = pending.subarray(parsed.used);
          if (parsed.close) {
            s.destroy();
            socket = undefined;
          }
          send();
        });
        s.on('error', () => undefined);
        s.on('close', () => {
          if (socket === s && inFlight) fail();
        });
      };

      const fail = () => {
        clearTimeout(timer);
        result.errors++;
        inFlight = false;
        socket?.destroy();
        socket = undefined;
        send();
      };

      const send = () => {
        if (next >= opts.paths.length || performance.now() >= (opts.stopAtMs ?? Number.POSITIVE_INFINITY)) {
          socket?.destroy();
          done();
          return;
        }
        const path = opts.paths[next++]!;
        if (!socket) open();
        result.requests++;
        inFlight = true;
        sentAt = performance.now();
        timer = setTimeout(fail, timeoutMs);
        socket!.write(`GET ${path} HTTP/1.1\r\nHost: ${hostHeader}\r\nConnection: keep-alive\r\n\r\n`, 'latin1');
      };
      send();
    });

  await Promise.all(Array.from({ length: Math.max(1, opts.connections) }, worker));
  result.wallMs = performance.now() - started;
  result.latenciesMs.sort((a, b) => a - b);
  return result;
}

/** What the benchmarks read of an autocannon run (the package ships no types). */
export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
export type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;

/** Installs wrk (Debian package) when it is missing. */
export function ensureWrk(): void {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return; // wrk --version exits 1 but exists
    execFileSync('apt-get', ['install', '-y', 'wrk'], { stdio: 'ignore' });
  }
}

export interface WrkResult {
  rps: number;
  /** wrk's own renderings of the latency percentiles ("1.23ms"). */
  p50: string;
  p90: string;
  p99: string;
  non2xx: string;
}

/** One wrk run on `url` (`--latency`), off the event loop of the caller (other load may run beside it). */
export async function wrk(
  url: string,
  o: { threads: number; connections: number; seconds: number },
): Promise<WrkResult> {
  const args = [`-t${o.threads}`, `-c${o.connections}`, `-d${o.seconds}s`, '--latency', url];
  const { stdout: out } = await promisify(execFile)('wrk', args, { encoding: 'utf8' });
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
    p50: /^\s+50%\s+(\S+)/m.exec(out)?.[1] ?? '?',
    p90: /^\s+90%\s+(\S+)/m.exec(out)?.[1] ?? '?',
    p99: /^\s+99%\s+(\S+)/m.exec(out)?.[1] ?? '?',
    non2xx: /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? '0',
  };
}
