// Node http server behaviour both services share, at the edges of the protocol Fastify never sees:
// a request whose client half-closes (FIN) right after sending it is still answered, and CONNECT is
// answered 405 like every other method the services do not serve, instead of the connection dropping.
import { type IncomingMessage, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { type Duplex } from 'node:stream';

export interface HttpEdgeOptions {
  /** The Allow header of the 405 (the methods the service serves). */
  allow: string;
  /** Body of the 405, text/plain. */
  methodNotAllowedBody: string;
  /** Called once the 405 to a CONNECT is written (for the request log and metrics). */
  logConnect?: (target: string, status: number, bytes: number, client: string) => void;
}

/** A client that never reads its 405 does not hold the socket longer than this. */
const CONNECT_LINGER_MS = 5000;

export function prepareHttpServer(server: Server, opts: HttpEdgeOptions): void {
  // By default Node ends our side of the connection as soon as the client's FIN arrives, so a reply
  // that is still being prepared (a disk read, a render, a storage check) is lost: 0 bytes back for a
  // complete request. With this set Node instead marks the pending response as the last one and closes
  // after it is written, as HTTP/1.1 expects of a half-closed connection.
  // (An undocumented but long-standing property of http.Server; the raw-socket tests in
  // test/server/*-protocol-edges.test.ts prove it.)
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  // Without a 'connect' listener Node destroys the socket of a CONNECT request unanswered.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    const body = opts.methodNotAllowedBody;
    const head =
      'HTTP/1.1 405 Method Not Allowed\r\n' +
      `Allow: ${opts.allow}\r\n` +
      'Content-Type: text/plain; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Access-Control-Allow-Origin: *\r\n' +
      `Date: ${new Date().toUTCString()}\r\n` +
      'Connection: close\r\n\r\n';
    socket.on('error', () => socket.destroy());
    // The tunnel is never opened: bytes after the head are not read, the connection closes after the answer.
    socket.end(head + body, 'latin1');
    const linger = setTimeout(() => socket.destroy(), CONNECT_LINGER_MS);
    linger.unref();
    socket.once('close', () => clearTimeout(linger));
    opts.logConnect?.(req.url ?? '', 405, Buffer.byteLength(body), req.socket.remoteAddress ?? '');
  });
}

/**
 * Where both services listen unless told otherwise (`--host`): every interface, as a public image
 * service and a container need. `--host 127.0.0.1` keeps a service to this machine (behind a local proxy).
 */
export const DEFAULT_HOST = '0.0.0.0';

/** A URL this machine reaches a service bound to `host` at (the wildcard addresses → loopback). */
export function localUrl(host: string, port: number): string {
  const h = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}`;
}

/** The bind address as a log line says it: "0.0.0.0:8081 (every interface)", "127.0.0.1:8081". */
export function describeBind(host: string, port: number): string {
  const wildcard = host === '0.0.0.0' || host === '::' || host === '';
  return `${host.includes(':') ? `[${host}]` : host}:${port}${wildcard ? ' (every interface)' : ''}`;
}

/**
 * Resolves when `host:port` can be bound now, else rejects with the listen error (EADDRINUSE, EACCES):
 * checked before a service loads its data, so a port in use is said at once, not after a large hotel has
 * loaded. Port 0 (any free port) always can. The service's own listen still reports a port taken since.
 */
export async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = createNetServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** Every address this machine answers on (loopback names and each interface's address), lower-case. */
export function ownAddresses(): Set<string> {
  const own = new Set(['localhost', '127.0.0.1', '::1', '0.0.0.0', '::', hostname().toLowerCase()]);
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) own.add(a.address.toLowerCase());
  return own;
}
