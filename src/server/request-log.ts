// One structured log line per request (method, path, status, bytes, ms), in place of Fastify's
// default pair of verbose request/response lines.
import { hostname } from 'node:os';
import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';

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

/** The path of a raw request URL without its query string, capped so a hostile URL cannot bloat logs. */
export function logPath(rawUrl: string): string {
  const q = rawUrl.indexOf('?');
  const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
  return path.length > 512 ? path.slice(0, 512) + '…' : path;
}

/** Writes the request line at `info` (pino drops it below that level). */
export function logRequest(request: FastifyRequest, reply: FastifyReply): void {
  const status = reply.statusCode;
  const length = reply.getHeader('content-length');
  // HEAD, 204 and 304 send headers only; a Content-Length there describes a body never sent.
  const bodyless = request.method === 'HEAD' || status === 204 || status === 304;
  request.log.info(
    {
      method: request.method,
      path: logPath(request.raw.url ?? ''),
      status,
      bytes: bodyless || length === undefined ? 0 : Number(length),
      ms: Math.round(reply.elapsedTime * 100) / 100,
    },
    'request',
  );
}

/**
 * Logs every routed request once it is answered. Requests Fastify answers before routing (its
 * `frameworkErrors` path) skip hooks: a handler there calls logRequest itself.
 */
export function installRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    logRequest(request, reply);
    done();
  });
}

const LEVEL_VALUES: Record<LogLevel, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

/** The request ids of one service (`req-1`, `req-2`, … in base 36), shared by Fastify and its raw paths. */
export function requestIdCounter(): () => string {
  let requests = 0;
  return () => `req-${(++requests).toString(36)}`;
}

export type RequestLineWriter = (reqId: string, method: string, path: string, status: number, bytes: number, ms: number) => void;

/**
 * The request line for a hot path, written straight to the log stream in exactly the shape pino gives
 * `log.child({ reqId }).info({ method, path, status, bytes, ms }, 'request')`, at a fraction of its cost
 * (a generic serialiser is several microseconds a line, a real share of a static file request).
 * Undefined when the level leaves request lines out.
 */
export function requestLineWriter(stream: { write(line: string): unknown }, level: LogLevel): RequestLineWriter | undefined {
  if (LEVEL_VALUES[level] > LEVEL_VALUES.info) return undefined;
  const origin = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;
  return (reqId, method, path, status, bytes, ms) => {
    stream.write(
      `{"level":30,"time":${Date.now()}${origin},"reqId":${jsonString(reqId)},"method":${jsonString(method)},` +
        `"path":${jsonString(path)},"status":${status},"bytes":${bytes},"ms":${ms},"msg":"request"}\n`,
    );
  };
}

// Printable ASCII other than `"` and `\` needs no escaping; JSON.stringify is left for the rest.
const PLAIN_JSON_STRING = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** JSON.stringify for a string, without its cost for the plain ASCII that request lines nearly always are. */
export function jsonString(s: string): string {
  return PLAIN_JSON_STRING.test(s) ? `"${s}"` : JSON.stringify(s);
}
