// The furniture asset service: corpus files with immutable caching, strong ETags and open CORS, plus
// /healthz, /version and /metrics. Asset GET/HEAD are answered by the fast path on the socket
// (src/http/fast-path.ts), or by the raw asset handler on connections Node's http server owns; Fastify
// answers everything else.
// Every path allows GET, HEAD and OPTIONS only.
import { createServer } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { BUILT_AT_MEANING, type BuildInfo } from '../../http/build-info.js';
import { healthBody, healthStatus, type HealthIdentity } from '../../http/health.js';
import { prepareHttpServer } from '../../http/http-server.js';
import { preflightHeaders } from '../../http/cors.js';
import {
  installRequestLog,
  logRequest,
  requestIdCounter,
  requestLineWriter,
  serverLogOptions,
  type RequestDone,
  type ServerLogOptions,
} from '../../http/request-log.js';
import {
  createAssetAnswerer,
  FURNI_TIERS,
  NOT_FOUND_BODY,
  NOT_FOUND_HEADERS,
  type FurniTier,
} from '../../core/furni/asset-answer.js';
import { createAssetHandler } from './asset-handler.js';
import { ALLOWED_METHODS, createClientErrorHandler, METHOD_NOT_ALLOWED_BODY } from './client-error.js';
import { type CorpusStore } from '../../core/furni/corpus-store.js';
import { installFastPath } from '../../http/fast-path.js';
import { claimsAsset, fastAssetAnswerer } from './fast-answer.js';
import { furniRoute, type FurniMetrics } from './metrics.js';
import { type PlayerPage } from './player-page.js';
import { type VariantService } from '../../core/furni/variants.js';

export const FURNI_SERVICE_NAME = 'hotel-imager-furni';
/** Headers a browser may send on a cross-origin asset request, when the preflight names none we can echo. */
const DEFAULT_ALLOWED_HEADERS = 'If-None-Match, If-Modified-Since, Cache-Control, Range';
const KEEP_ALIVE_MS = 72_000;

export interface FurniAppOptions {
  store: CorpusStore;
  /** On-demand reserved names (§2.6); absent: every reserved name is 404 as the spec says. */
  variants?: VariantService;
  /** Serves the bundle player page at /player/<classname>. */
  player?: PlayerPage;
  buildInfo: BuildInfo;
  /** package.json version of the service. */
  version: string;
  log: ServerLogOptions;
  /** The instance's /metrics registry and request counters (see metrics.ts). */
  metrics: FurniMetrics;
  /** Take the client address (request log, variant rate limit) from X-Forwarded-For. */
  trustProxy?: boolean;
}

export function createFurniApp(opts: FurniAppOptions): FastifyInstance {
  const { store } = opts;
  const nextId = requestIdCounter();
  // The asset handler logs through the app's logger, which exists once Fastify has built it.
  let app: FastifyInstance | undefined;
  // One stream for pino and the hot path's request lines, so their order in the log is the real order.
  const logStream = opts.log.stream ?? process.stdout;
  const answerAsset = createAssetAnswerer(
    store,
    {
      warn: (o, m) => app!.log.warn(o, m),
      error: (o, m) => app!.log.error(o, m),
    },
    opts.variants,
  );
  const logLine = requestLineWriter(logStream, opts.log.level);
  const trustProxy = opts.trustProxy ?? false;
  const { http } = opts.metrics;
  // Every request answered outside Fastify (fast path, asset handler, CONNECT, unknown methods) ends here.
  const done: RequestDone = (reqId, method, target, status, bytes, started, cache, client) => {
    const ms = performance.now() - started;
    http.record(furniRoute(target), status, ms / 1000, cache === null ? -1 : FURNI_TIERS.indexOf(cache as FurniTier));
    logLine?.(reqId, method, target, status, bytes, Math.round(ms * 100) / 100, cache, client);
  };
  const handleAsset = createAssetHandler(answerAsset, done, nextId, trustProxy);
  let fastPath: ReturnType<typeof installFastPath> | undefined;

  app = Fastify({
    ...serverLogOptions({ level: opts.log.level, stream: logStream }),
    genReqId: nextId,
    serverFactory: (fastifyHandler) => {
      const server = createServer((req, res) => {
        let handled: boolean;
        try {
          handled = handleAsset(req, res);
        } catch (err) {
          // A bug in the hot path must cost one request, never the process.
          app!.log.error({ path: req.url, error: (err as Error).stack ?? String(err) }, 'asset handler failed');
          if (res.headersSent) res.destroy();
          else
            res
              .writeHead(500, { 'content-type': 'text/plain; charset=utf-8', 'access-control-allow-origin': '*' })
              .end('internal error');
          return;
        }
        if (!handled) fastifyHandler(req, res);
      });
      server.keepAliveTimeout = KEEP_ALIVE_MS;
      prepareHttpServer(server, {
        allow: ALLOWED_METHODS,
        methodNotAllowedBody: METHOD_NOT_ALLOWED_BODY,
        logConnect: (target, status, bytes, client) =>
          done(nextId(), 'CONNECT', target, status, bytes, performance.now(), null, client),
      });
      fastPath = installFastPath(server, {
        claims: claimsAsset,
        answer: fastAssetAnswerer(answerAsset),
        done,
        nextId,
        trustProxy,
        keepAliveMs: KEEP_ALIVE_MS,
        onError: (err, path, reqId) =>
          app!.log.error({ reqId, path, error: (err as Error)?.stack ?? String(err) }, 'asset handler failed'),
      });
      return server;
    },
    // Methods Node's parser does not know (FOO, BREW) arrive here as parse errors: 405 as for any other.
    clientErrorHandler: createClientErrorHandler({ done, nextId, trace: (o, m) => app!.log.trace(o, m) }),
    trustProxy,
    // Requests this service answers carry no body; anything else is refused before it is read.
    bodyLimit: 1024,
    return503OnClosing: true,
    // A malformed percent-escape names nothing we serve: 404 like any other unknown name, not a 400.
    frameworkErrors: (err, request, rawReply) => {
      const reply = rawReply as FastifyReply;
      if (err.code === 'FST_ERR_BAD_URL') gate(request, reply, sendNotFound);
      else
        reply
          .code(400)
          .headers({ 'content-type': 'text/plain; charset=utf-8', 'access-control-allow-origin': '*' })
          .send('bad request');
      logRequest(request, reply);
      recordFastify(request, reply);
    },
  });
  const recordFastify = (request: FastifyRequest, reply: FastifyReply) =>
    http.record(furniRoute(request.raw.url ?? ''), reply.statusCode, reply.elapsedTime / 1000);
  installRequestLog(app, recordFastify);
  // Connections the fast path holds are invisible to Node's closeIdleConnections; end them with the rest.
  app.addHook('preClose', (done) => {
    fastPath?.close();
    done();
  });

  const jsonHeaders = {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'access-control-allow-origin': '*',
  };

  app.get('/version', (_request, reply) => {
    reply.headers(jsonHeaders).send(
      JSON.stringify({
        service: FURNI_SERVICE_NAME,
        version: opts.version,
        commit: opts.buildInfo.commit,
        builtAt: opts.buildInfo.builtAt,
        source: opts.buildInfo.source,
        builtAtMeaning: BUILT_AT_MEANING[opts.buildInfo.source],
      }),
    );
  });

  const identity: HealthIdentity = {
    service: FURNI_SERVICE_NAME,
    version: opts.version,
    build: opts.buildInfo,
    startedAtMs: Date.now(),
  };
  app.get('/healthz', async (_request, reply) => {
    const storage = await store.health();
    // The variant service refuses work over its budgets but never stops the service: always ok.
    const body = healthBody(identity, {
      storage,
      ...(opts.variants ? { variants: { ok: true, ...opts.variants.health() } } : {}),
    });
    reply.code(healthStatus(body)).headers(jsonHeaders).send(JSON.stringify(body));
  });

  // Prometheus text format; never cached. Restrict it at the proxy if it must not be public (docs/operations.md).
  app.get('/metrics', async (_request, reply) => {
    const { contentType, body } = await opts.metrics.scrape();
    reply
      .headers({ 'content-type': contentType, 'cache-control': 'no-store', 'access-control-allow-origin': '*' })
      .send(body);
  });

  if (opts.player) opts.player.register(app);

  // Every other path and method. The gate runs on onRequest, before any body would be parsed.
  app.route({
    method: app.supportedMethods,
    url: '*',
    onRequest: (request, reply, done) => {
      if (request.method === 'GET' || request.method === 'HEAD') return done();
      gate(request, reply, sendNotFound);
    },
    handler: (_request, reply) => sendNotFound(reply),
  });
  app.setNotFoundHandler((request, reply) => gate(request, reply, sendNotFound));

  return app;
}

/** GET/HEAD get `read`; OPTIONS the CORS preflight (any path); every other method 405. */
function gate(request: FastifyRequest, reply: FastifyReply, read: (reply: FastifyReply) => void): void {
  if (request.method === 'GET' || request.method === 'HEAD') read(reply);
  else if (request.method === 'OPTIONS') sendPreflight(request, reply);
  else sendMethodNotAllowed(reply);
}

function sendNotFound(reply: FastifyReply): void {
  reply.code(404).headers(NOT_FOUND_HEADERS).send(NOT_FOUND_BODY);
}

function sendPreflight(request: FastifyRequest, reply: FastifyReply): void {
  const asked = request.headers['access-control-request-headers'];
  reply
    .code(204)
    .headers(
      preflightHeaders(
        { allow: ALLOWED_METHODS, defaultHeaders: DEFAULT_ALLOWED_HEADERS },
        typeof asked === 'string' ? asked : undefined,
      ),
    )
    .send();
}

function sendMethodNotAllowed(reply: FastifyReply): void {
  reply
    .code(405)
    .headers({
      allow: ALLOWED_METHODS,
      'content-type': 'text/plain; charset=utf-8',
      'access-control-allow-origin': '*',
    })
    .send(METHOD_NOT_ALLOWED_BODY);
}
