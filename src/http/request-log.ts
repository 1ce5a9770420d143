// One structured log line per request, in place of Fastify's default pair of verbose request/response
// lines: reqId, method, path, query (each cut at LOG_URL_PART_MAX characters), status, bytes, ms, the
// cache tier that answered (null where none did), and the client address (from X-Forwarded-For only
// behind --trust-proxy, cut at LOG_CLIENT_MAX).
import { hostname } from 'node:os';
import { pathOf, queryOf } from './request-target.js';
import {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function parseLogLevel(v: string): LogLevel {
  const level = v.toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new Error(`unknown log level "${v}" (one of ${LOG_LEVELS.join(', ')})`);
  }
  return level as LogLevel;
}

export interface ServerLogOptions {
  level: LogLevel;
  /** Where JSON lines go (anything with write(line)); stdout when absent. */
  stream?: { write(line: string): unknown };
}

/** Fastify options for the pino logger with its per-request logging turned off. */
export function serverLogOptions(opts: ServerLogOptions): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  return {
    logger: opts.stream ? { level: opts.level, stream: opts.stream } : { level: opts.level },
    logController: new LogController({ disableRequestLogging: true }),
  };
}

/**
 * Characters of a URL's path, and of its query string, a request line keeps (the rest is cut and "…"
 * added): room for any real avatar query (figure strings run to ~300 characters), while a hostile
 * 12 KB URL cannot bloat the log.
 */
export const LOG_URL_PART_MAX = 512;
/** Characters of a client address a request line keeps (an IPv6 address with a zone fits). */
export const LOG_CLIENT_MAX = 64;

const cut = (s: string, max: number): string => (s.length > max ? s.slice(0, max) + '…' : s);

/** The path of a raw request URL without its query string, capped so a hostile URL cannot bloat logs. */
export function logPath(rawUrl: string): string {
  return cut(pathOf(rawUrl), LOG_URL_PART_MAX);
}

/** The query string of a raw request URL as sent (no `?`; "" when none), capped like the path. */
export function logQuery(rawUrl: string): string {
  return cut(queryOf(rawUrl), LOG_URL_PART_MAX);
}

/** A client address as the request line keeps it. */
export function logClient(address: string): string {
  return cut(address, LOG_CLIENT_MAX);
}

/** Body bytes a Fastify reply sent: HEAD, 204 and 304 send headers only, whatever Content-Length says. */
function sentBytes(request: FastifyRequest, reply: FastifyReply): number {
  const status = reply.statusCode;
  const length = reply.getHeader('content-length');
  const bodyless = request.method === 'HEAD' || status === 204 || status === 304;
  return bodyless || length === undefined ? 0 : Number(length);
}

/** Writes the request line at `info` (pino drops it below that level). */
export function logRequest(request: FastifyRequest, reply: FastifyReply): void {
  const url = request.raw.url ?? '';
  request.log.info(
    {
      method: request.method,
      path: logPath(url),
      query: logQuery(url),
      status: reply.statusCode,
      bytes: sentBytes(request, reply),
      ms: Math.round(reply.elapsedTime * 100) / 100,
      cache: null,
      client: logClient(request.ip ?? ''),
    },
    'request',
  );
}

/** Counts a request Fastify answered (HttpMetrics.record with the route's index). */
export type FastifyRequestRecorder = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * Logs (and with `record`, counts) every routed request once it is answered. Requests Fastify answers
 * before routing (its `frameworkErrors` path) skip hooks: a handler there calls both itself.
 */
export function installRequestLog(app: FastifyInstance, record?: FastifyRequestRecorder): void {
  app.addHook('onResponse', (request, reply, done) => {
    logRequest(request, reply);
    record?.(request, reply);
    done();
  });
}

/**
 * One answered request, for its metrics and its log line: `target` is the raw request target,
 * `started` performance.now() when the request arrived, `cache` the tier that answered or null.
 */
export type RequestDone = (
  reqId: string,
  method: string,
  target: string,
  status: number,
  bytes: number,
  started: number,
  cache: string | null,
  client: string,
) => void;

const LEVEL_VALUES: Record<LogLevel, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Infinity,
};

/** The request ids of one service (`req-1`, `req-2`, … in base 36), shared by Fastify and its raw paths. */
export function requestIdCounter(): () => string {
  let requests = 0;
  return () => `req-${(++requests).toString(36)}`;
}

/**
 * Writes one request line: `target` is the raw request target (path and query are taken from it and
 * cut), `cache` the tier that answered or null, `client` the client address. `reqId`, `method` and
 * `cache` are tokens (our ids and tier names; a method as HTTP parsers accept it) and go out unescaped.
 */
export type RequestLineWriter = (
  reqId: string,
  method: string,
  target: string,
  status: number,
  bytes: number,
  ms: number,
  cache: string | null,
  client: string,
) => void;

/**
 * The request line for a hot path, written straight to the log stream in exactly the shape pino gives
 * `log.child({ reqId }).info({ method, path, query, status, bytes, ms, cache, client }, 'request')`, at
 * a fraction of its cost (a generic serialiser is several microseconds a line, a real share of a static
 * file request). Undefined when the level leaves request lines out.
 */
export function requestLineWriter(
  stream: { write(line: string): unknown },
  level: LogLevel,
): RequestLineWriter | undefined {
  if (LEVEL_VALUES[level] > LEVEL_VALUES.info) return undefined;
  const origin = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;
  return (reqId, method, target, status, bytes, ms, cache, client) => {
    const q = target.indexOf('?');
    const path = cut(q < 0 ? target : target.slice(0, q), LOG_URL_PART_MAX);
    const query = q < 0 ? '' : cut(target.slice(q + 1), LOG_URL_PART_MAX);
    stream.write(
      `{"level":30,"time":${Date.now()}${origin},"reqId":"${reqId}","method":"${method}",` +
        `"path":${jsonString(path)},"query":${query === '' ? '""' : jsonString(query)},` +
        `"status":${status},"bytes":${bytes},"ms":${ms},"cache":${cache === null ? 'null' : `"${cache}"`},` +
        `"client":${jsonString(cut(client, LOG_CLIENT_MAX))},"msg":"request"}\n`,
    );
  };
}

// Printable ASCII other than `"` and `\` needs no escaping; JSON.stringify is left for the rest.
const PLAIN_JSON_STRING = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** JSON.stringify for a string, without its cost for the plain ASCII that request lines nearly always are. */
export function jsonString(s: string): string {
  return PLAIN_JSON_STRING.test(s) ? `"${s}"` : JSON.stringify(s);
}
