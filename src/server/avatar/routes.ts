// HTTP adapter for the avatar service (Fastify): /avatar.png and /avatar (GET, HEAD, OPTIONS),
// /render, /healthz, /version. Every response carries `Access-Control-Allow-Origin: *` (spec §5).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ifNoneMatchMatches } from '../etag.js';
import { installRequestLog, logPath, serverLogOptions, type LogLevel } from '../request-log.js';
import { FIGURE_CACHE_CONTROL, type AvatarService } from './avatar-service.js';
import { FALLBACK_CACHE_CONTROL } from './fallback.js';
import { type HotUrls } from './hot-urls.js';
import { renderDebugPage } from './render-page.js';

export interface AvatarAppOptions {
  service: AvatarService;
  /** URLs answered before → cache keys (the hot path's shortcut to the memory cache). */
  hot: HotUrls;
  /** Body of /healthz and /version; `ok: false` makes /healthz answer 503. */
  health: () => Record<string, unknown> & { ok: boolean };
  logLevel: LogLevel;
  logStream?: NodeJS.WritableStream;
  /** Take the client address from X-Forwarded-For (behind a CDN or proxy) for the per-client limit. */
  trustProxy: boolean;
}

const AVATAR_PATHS = ['/avatar.png', '/avatar'];
/** So page scripts can read the frame count and cache facts of a cross-origin image response. */
const EXPOSE = 'etag, x-imager-frames, x-imager-fallback, x-imager-cache';
const ALLOW = 'GET, HEAD, OPTIONS';

function rawQueryOf(request: FastifyRequest): string {
  const url = request.raw.url ?? '';
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
}

function plain(reply: FastifyReply, status: number, text: string): FastifyReply {
  return reply
    .code(status)
    .header('access-control-allow-origin', '*')
    .header('content-type', 'text/plain; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(text);
}

/**
 * The hot path on Node's own request handler: a GET/HEAD whose exact URL was answered before and whose
 * image is still in the memory cache goes straight to the socket. Everything else (first sight of a URL,
 * `?user=` requests, evicted images, other routes) is left to Fastify. Returns false when not handled.
 */
function createHotHandler(service: AvatarService, hot: HotUrls, log: () => FastifyInstance['log'] | undefined, nextId: () => string) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const url = req.url ?? '';
    const key = hot.get(url);
    if (key === undefined) return false;
    const image = service.memoryImage(key);
    if (image === undefined) {
      hot.delete(url);
      return false;
    }
    const started = performance.now();
    const inm = req.headers['if-none-match'];
    const notModified = typeof inm === 'string' && ifNoneMatchMatches(inm, image.etag);
    const headers: Record<string, string> = {
      'access-control-allow-origin': '*',
      etag: image.etag,
      'cache-control': FIGURE_CACHE_CONTROL,
      'x-imager-frames': String(image.frames),
      'x-imager-cache': 'memory',
      'access-control-expose-headers': EXPOSE,
    };
    let status = 200;
    if (notModified) {
      status = 304;
      res.writeHead(304, headers);
      res.end();
    } else {
      headers['content-type'] = 'image/png';
      headers['content-length'] = String(image.body.length);
      res.writeHead(200, headers);
      if (method === 'HEAD') res.end();
      else res.end(image.body);
    }
    const logger = log();
    if (logger !== undefined && logger.level !== 'silent' && logger.level !== 'warn' && logger.level !== 'error' && logger.level !== 'fatal') {
      const bytes = status === 200 && method === 'GET' ? image.body.length : 0;
      const ms = Math.round((performance.now() - started) * 100) / 100;
      logger.info({ reqId: nextId(), method, path: logPath(url), status, bytes, ms }, 'request');
    }
    return true;
  };
}

export function buildAvatarApp(opts: AvatarAppOptions): FastifyInstance {
  const { hot } = opts;
  let requests = 0;
  const nextId = () => `req-${(++requests).toString(36)}`;
  let built: FastifyInstance | undefined;
  const hotHandler = createHotHandler(opts.service, hot, () => built?.log, nextId);
  const app = Fastify({
    ...serverLogOptions({ level: opts.logLevel, stream: opts.logStream }),
    genReqId: nextId,
    serverFactory: (fastifyHandler) =>
      createServer((req, res) => {
        if (!hotHandler(req, res)) fastifyHandler(req, res);
      }),
    trustProxy: opts.trustProxy,
    // A URL Fastify cannot route (a malformed escape in the path) is still answered with CORS.
    frameworkErrors: (err, _request, rawReply) => {
      void (rawReply as FastifyReply)
        .code(400)
        .headers({ 'access-control-allow-origin': '*', 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
        .send(`bad request: ${err.message}\n`);
    },
    // The avatar route reads the raw query itself (every parameter as sent).
    routerOptions: { querystringParser: () => ({}), maxParamLength: 8192 },
  });
  built = app;
  installRequestLog(app);
  const { service } = opts;

  const avatar = async (request: FastifyRequest, reply: FastifyReply) => {
    const answer = await service.answer(rawQueryOf(request), request.ip);
    reply.header('access-control-allow-origin', '*');
    if (answer.kind === 'bad-request') return plain(reply, 400, answer.reason);
    if (answer.kind === 'fallback') {
      return reply
        .code(302)
        .header('location', answer.location)
        .header('cache-control', FALLBACK_CACHE_CONTROL)
        .header('x-imager-fallback', answer.reason)
        .header('access-control-expose-headers', EXPOSE)
        .header('content-type', 'text/plain; charset=utf-8')
        .send(`fallback (${answer.reason}): ${answer.location}\n`);
    }
    const { image } = answer;
    if (answer.cacheControl === FIGURE_CACHE_CONTROL) hot.set(request.raw.url ?? '', answer.key);
    reply
      .header('etag', image.etag)
      .header('cache-control', answer.cacheControl)
      .header('x-imager-frames', String(image.frames))
      .header('x-imager-cache', answer.source)
      .header('access-control-expose-headers', EXPOSE);
    const inm = request.headers['if-none-match'];
    if (typeof inm === 'string' && ifNoneMatchMatches(inm, image.etag)) return reply.code(304).send();
    return reply.code(200).header('content-type', 'image/png').send(image.body);
  };

  const preflight = async (request: FastifyRequest, reply: FastifyReply) => {
    const asked = request.headers['access-control-request-headers'];
    return reply
      .code(204)
      .header('access-control-allow-origin', '*')
      .header('access-control-allow-methods', ALLOW)
      .header('access-control-allow-headers', typeof asked === 'string' && asked !== '' ? asked : 'if-none-match')
      .header('access-control-expose-headers', EXPOSE)
      .header('access-control-max-age', '86400')
      .header('allow', ALLOW)
      .send();
  };

  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    plain(reply.header('allow', ALLOW), 405, 'method not allowed\n');

  for (const path of AVATAR_PATHS) {
    app.get(path, avatar);
    app.options(path, preflight);
    app.route({ method: ['POST', 'PUT', 'DELETE', 'PATCH'], url: path, handler: notAllowed });
  }

  app.get('/render', async (request, reply) => {
    const q = rawQueryOf(request);
    const answer = await service.debug(q, request.ip);
    return reply
      .code(answer.kind === 'bad-request' ? 400 : 200)
      .header('access-control-allow-origin', '*')
      .header('cache-control', 'no-store')
      .header('content-type', 'text/html; charset=utf-8')
      .send(renderDebugPage(answer, q));
  });

  const health = (forHealthz: boolean) => async (_request: FastifyRequest, reply: FastifyReply) => {
    const body = opts.health();
    return reply
      .code(forHealthz && !body.ok ? 503 : 200)
      .header('access-control-allow-origin', '*')
      .header('cache-control', 'no-store')
      .send(body);
  };
  app.get('/healthz', health(true));
  app.get('/version', health(false));

  app.setNotFoundHandler(async (_request, reply) => plain(reply, 404, 'not found\n'));
  app.setErrorHandler(async (err: Error & { statusCode?: number }, request, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) request.log.error({ err }, 'unhandled error');
    return plain(reply, status, status === 500 ? 'internal error\n' : `${err.message}\n`);
  });
  return app;
}
