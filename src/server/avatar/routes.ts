// HTTP adapter for the avatar service: /avatar.png, /avatar and /habbo-imaging/avatarimage (every method,
// avatar-handler.ts, on Node's request handler), then Fastify for /render, /healthz, /version, /metrics and
// unknown paths. Every response carries `Access-Control-Allow-Origin: *` (contract A5). No route reads a
// request body.
import { createServer } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { installFastPath, type FastPath } from '../../http/fast-path.js';
import { healthStatus, type HealthBody } from '../../http/health.js';
import { prepareHttpServer } from '../../http/http-server.js';
import {
  installRequestLog,
  logPath,
  logRequest,
  requestIdCounter,
  requestLineWriter,
  serverLogOptions,
  type LogLevel,
  type RequestDone,
} from '../../http/request-log.js';
import {
  htmlResponse,
  IMAGE_ALLOW,
  INTERNAL_ERROR_TEXT,
  IMAGE_PREFLIGHT,
  METHOD_NOT_ALLOWED_TEXT,
  methodNotAllowed,
  preflightResponse,
  textResponse,
  type HttpResponse,
  type RawRoute,
  type RawRouteContext,
} from '../../http/respond.js';
import { createAvatarHandler, type QueryRewrite } from './avatar-handler.js';
import { type AvatarService } from '../../core/avatar/avatar-service.js';
import { type ImageSource } from '../../core/cache/image-cache.js';
import { claimsAvatar, fastAvatarAnswerer } from './fast-answer.js';
import { type HotUrls } from '../../core/cache/hot-urls.js';
import { AVATAR_TIERS, avatarRoute, type AvatarMetrics } from './metrics.js';
import { renderDebugPage } from './render-page.js';

/** A route answered on Node's request handler ahead of Fastify (true: it answered). */
export type RawRouteFactory = (ctx: RawRouteContext) => RawRoute;

export interface AvatarAppOptions {
  service: AvatarService;
  /** URLs answered before → cache keys (the avatar route's shortcut to the memory cache). */
  hot: HotUrls;
  /** Body of /healthz and /version (../health.ts); a failing check makes /healthz answer 503. */
  health: () => HealthBody;
  logLevel: LogLevel;
  /** Where pino and the request lines write (one stream, so lines keep their order). */
  logStream: { write(line: string): unknown };
  /** Take the client address from X-Forwarded-For (behind a CDN or proxy) for the per-client limit and the log. */
  trustProxy: boolean;
  /** The instance's /metrics registry and request counters (see metrics.ts). */
  metrics: AvatarMetrics;
  /** More routes on Node's handler, tried after the avatar route (the badge routes). */
  rawRoutes?: RawRouteFactory[];
  /** Rewrites an avatar query before the service reads it (pre-v18 numeric figures). */
  rewriteQuery?: QueryRewrite;
}

function rawQueryOf(request: FastifyRequest): string {
  const url = request.raw.url ?? '';
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
}

/** Fastify's way of writing a response the route decided (http/respond.ts). */
function send(reply: FastifyReply, r: HttpResponse): FastifyReply {
  return reply.code(r.status).headers(r.headers).send(r.body);
}

export function buildAvatarApp(opts: AvatarAppOptions): FastifyInstance {
  const nextId = requestIdCounter();
  let built: FastifyInstance | undefined;
  let fastPath: FastPath | undefined;
  const { http } = opts.metrics;
  // The line Fastify's request log writes, without pino's generic serialiser on the image route's hot path.
  const logLine = requestLineWriter(opts.logStream, opts.logLevel);
  // For what is answered before Fastify sees it: the metrics and the request line.
  const done: RequestDone = (reqId, method, url, status, bytes, started, cache, client) => {
    const ms = performance.now() - started;
    http.record(avatarRoute(url), status, ms / 1000, cache === null ? -1 : AVATAR_TIERS.indexOf(cache as ImageSource));
    logLine?.(reqId, method, url, status, bytes, Math.round(ms * 100) / 100, cache, client);
  };
  const recordFastify = (request: FastifyRequest, reply: FastifyReply) =>
    http.record(avatarRoute(request.raw.url ?? ''), reply.statusCode, reply.elapsedTime / 1000);
  const avatarHandler = createAvatarHandler({
    service: opts.service,
    hot: opts.hot,
    trustProxy: opts.trustProxy,
    rewriteQuery: opts.rewriteQuery,
    nextId,
    done,
    onError: (err, url, reqId) => built?.log.error({ reqId, err, path: logPath(url) }, 'avatar handler failed'),
  });
  const rawRoutes = (opts.rawRoutes ?? []).map((make) =>
    make({
      nextId,
      done,
      trustProxy: opts.trustProxy,
      onError: (err, url, reqId) => built?.log.error({ reqId, err, path: logPath(url) }, 'request handler failed'),
    }),
  );
  const app = Fastify({
    ...serverLogOptions({ level: opts.logLevel, stream: opts.logStream }),
    genReqId: nextId,
    serverFactory: (fastifyHandler) => {
      const server = createServer((req, res) => {
        if (avatarHandler(req, res)) return;
        for (const route of rawRoutes) if (route(req, res)) return;
        fastifyHandler(req, res);
      });
      prepareHttpServer(server, {
        allow: IMAGE_ALLOW,
        methodNotAllowedBody: METHOD_NOT_ALLOWED_TEXT,
        logConnect: (target, status, bytes, client) =>
          done(nextId(), 'CONNECT', target, status, bytes, performance.now(), null, client),
      });
      // Plain GET/HEAD on the avatar paths are answered on the socket; a connection goes to Node (and the
      // handler above) at its first other request.
      fastPath = installFastPath(server, {
        claims: claimsAvatar,
        answer: fastAvatarAnswerer(opts.service, opts.hot, opts.rewriteQuery),
        done,
        nextId,
        trustProxy: opts.trustProxy,
        keepAliveMs: server.keepAliveTimeout,
        onError: (err, url, reqId) => built?.log.error({ reqId, err, path: logPath(url) }, 'avatar handler failed'),
      });
      return server;
    },
    trustProxy: opts.trustProxy,
    // A URL Fastify cannot route (a malformed escape in the path) is still answered with CORS.
    frameworkErrors: (err, request, rawReply) => {
      const reply = rawReply as FastifyReply;
      void send(reply, textResponse(400, `bad request: ${err.message}\n`));
      // Answered before routing: the onResponse hook does not run for it.
      logRequest(request, reply);
      recordFastify(request, reply);
    },
    // /render reads the raw query itself (every parameter as sent).
    routerOptions: { querystringParser: () => ({}), maxParamLength: 8192 },
  });
  built = app;
  installRequestLog(app, recordFastify);
  // Connections the fast path holds are invisible to Node's closeIdleConnections; end them with the rest.
  app.addHook('preClose', (hookDone) => {
    fastPath?.close();
    hookDone();
  });
  const { service } = opts;

  // Every path serves GET and HEAD only, as the furni service's do: OPTIONS is the CORS preflight and any
  // other method 405 with Allow (contract A4 and F4, docs/contract.md), answered before a body is read.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method === 'GET' || request.method === 'HEAD') return done();
    if (request.method === 'OPTIONS') {
      const asked = request.headers['access-control-request-headers'];
      void send(reply, preflightResponse(IMAGE_PREFLIGHT, typeof asked === 'string' ? asked : undefined));
      return;
    }
    void send(reply, methodNotAllowed(IMAGE_ALLOW));
  });

  app.get('/render', async (request, reply) => {
    const q = rawQueryOf(request);
    const answer = await service.debug(q, request.ip);
    return send(reply, htmlResponse(answer.kind === 'bad-request' ? 400 : 200, renderDebugPage(answer, q)));
  });

  const health = (forHealthz: boolean) => async (_request: FastifyRequest, reply: FastifyReply) => {
    const body = opts.health();
    return reply
      .code(forHealthz ? healthStatus(body) : 200)
      .header('access-control-allow-origin', '*')
      .header('cache-control', 'no-store')
      .send(body);
  };
  app.get('/healthz', health(true));
  app.get('/version', health(false));
  // Prometheus text format; never cached. Restrict it at the proxy if it must not be public (docs/operations.md).
  app.get('/metrics', async (_request, reply) => {
    const { contentType, body } = await opts.metrics.scrape();
    return reply
      .code(200)
      .header('access-control-allow-origin', '*')
      .header('cache-control', 'no-store')
      .header('content-type', contentType)
      .send(body);
  });

  app.setNotFoundHandler(async (_request, reply) => send(reply, textResponse(404, 'not found\n')));
  app.setErrorHandler(async (err: Error & { statusCode?: number }, request, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) request.log.error({ err }, 'unhandled error');
    return send(reply, textResponse(status, status === 500 ? INTERNAL_ERROR_TEXT : `${err.message}\n`));
  });
  return app;
}
