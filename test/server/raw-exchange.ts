// Raw TCP exchanges with a server, bytes as a client sends and sees them: for what an HTTP client
// library would hide (a half-close right after the request, CONNECT, bodies on methods that take none).
import { connect } from 'node:net';

export interface RawReply {
  status: number;
  /** Lower-cased names; a repeated field keeps its last value. */
  headers: Record<string, string>;
  body: Buffer;
}

export interface ExchangeOptions {
  /** Half-close (send FIN) right after writing the request bytes. */
  halfClose?: boolean;
  /** Give up waiting for the server to close after this long (default 5 s). */
  timeoutMs?: number;
}

export interface ExchangeResult {
  replies: RawReply[];
  /** The server closed the connection (rather than the wait timing out). */
  closed: boolean;
  /** Every byte received. */
  raw: Buffer;
}

/** Splits responses framed by Content-Length (or bodyless) out of the received bytes. */
export function splitReplies(all: Buffer): RawReply[] {
  const replies: RawReply[] = [];
  let off = 0;
  while (off < all.length) {
    const end = all.indexOf('\r\n\r\n', off, 'latin1');
    if (end < 0) break;
    const lines = all.toString('latin1', off, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const l of lines.slice(1))
      headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
    const length = Number(headers['content-length'] ?? 0);
    replies.push({ status: Number(lines[0]!.split(' ')[1]), headers, body: all.subarray(end + 4, end + 4 + length) });
    off = end + 4 + length;
  }
  return replies;
}

/** Sends `data`, optionally half-closes, and reads until the server closes (or the timeout). */
export function exchange(port: number, data: string | Buffer, opts: ExchangeOptions = {}): Promise<ExchangeResult> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(data);
      if (opts.halfClose) socket.end();
    });
    const got: Buffer[] = [];
    const timer = setTimeout(() => finish(false), opts.timeoutMs ?? 5000);
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(got);
      resolve({ replies: splitReplies(raw), closed, raw });
    };
    socket.on('data', (c: Buffer) => got.push(c));
    socket.on('close', () => finish(true));
    socket.on('error', (err) => (done ? undefined : reject(err)));
  });
}
