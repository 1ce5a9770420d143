// The badge routes on Node's request handler, beside the avatar route and with its method rules:
// /habbo-imaging/badge[/…] and /habbo-imaging/badge-fill[/…]: GET and HEAD give the image (or a text
// 404/400), OPTIONS the CORS preflight, any other method 405; /render/badge[/…]: GET and HEAD give the
// debug page, OPTIONS the preflight and any other method 405, as every avatar path (contract A4). A
// request body is never read. Answers are logged in the avatar route's line format.
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { rawHeader } from '../../http/client-address.js';
import {
  clientOf,
  htmlResponse,
  IMAGE_ALLOW,
  IMAGE_PREFLIGHT,
  imageResponse,
  INTERNAL_ERROR_TEXT,
  methodNotAllowed,
  preflightResponse,
  textResponse,
  writeResponse,
  type HttpResponse,
  type RawRoute,
  type RawRouteContext,
} from '../../http/respond.js';
import { renderBadgeDebugPage } from './badge-page.js';
import { BADGE_CACHE_CONTROL, type BadgeService } from '../../core/badge/badge-service.js';
import { type BadgeRoute } from '../../core/badge/params.js';
import { BADGE_FILL_PATH, BADGE_PATH, BADGE_RENDER_PATH } from './paths.js';
import { pathAfter, queryOf } from '../../http/request-target.js';

export interface BadgeHandlerOptions extends RawRouteContext {
  service: BadgeService;
}

const PLAIN: BadgeRoute = { path: BADGE_PATH, fill: false };
const FILL: BadgeRoute = { path: BADGE_FILL_PATH, fill: true };

/** Returns the request listener for the badge paths; it reports false for every other request. */
export function createBadgeHandler(opts: BadgeHandlerOptions): RawRoute {
  const { service } = opts;
  /** The request's id and client, and `finish` to count and log its answer. */
  const begin = (req: IncomingMessage) => {
    const started = performance.now();
    const reqId = opts.nextId();
    const client = clientOf(req, opts.trustProxy);
    const finish = (method: string, url: string, status: number, bytes: number, cache: string | null = null) =>
      opts.done(reqId, method, url, status, bytes, started, cache, client);
    return { reqId, finish };
  };
  type Finish = ReturnType<typeof begin>['finish'];
  const ifNoneMatch = (req: IncomingMessage) => rawHeader(req.rawHeaders, 'if-none-match');
  const preflight = (req: IncomingMessage) =>
    preflightResponse(IMAGE_PREFLIGHT, rawHeader(req.rawHeaders, 'access-control-request-headers'));
  /** Writes the response; returns [status, body bytes] for the log. */
  const write = (req: IncomingMessage, res: ServerResponse, r: HttpResponse): [number, number] => [
    r.status,
    writeResponse(req, res, r),
  ];

  const answerImage = async (
    req: IncomingMessage,
    res: ServerResponse,
    url: string,
    rest: string,
    reqId: string,
    finish: Finish,
    route: BadgeRoute,
  ) => {
    let status: number;
    let bytes: number;
    let cache: string | null = null;
    try {
      const answer = await service.answer(rest, queryOf(url), route, url);
      if (answer.kind === 'image') {
        [status, bytes] = write(
          req,
          res,
          imageResponse(answer.image, BADGE_CACHE_CONTROL, answer.source, ifNoneMatch(req)),
        );
        cache = answer.source;
      } else [status, bytes] = write(req, res, textResponse(answer.status, answer.reason));
    } catch (err) {
      opts.onError(err, url, reqId);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      [status, bytes] = write(req, res, textResponse(500, INTERNAL_ERROR_TEXT));
    }
    finish(req.method!, url, status, bytes, cache);
  };

  const debugPage = (req: IncomingMessage, res: ServerResponse, url: string, rest: string): [number, number] => {
    // The page shows the badge as the plain image route serves it.
    const answer = service.debug(rest, queryOf(url), PLAIN);
    return write(
      req,
      res,
      htmlResponse(answer.kind === 'text' ? answer.status : 200, renderBadgeDebugPage(answer, url)),
    );
  };

  return (req, res) => {
    const url = req.url ?? '';
    const method = req.method ?? '';
    const plain = pathAfter(url, BADGE_PATH);
    const filled = plain === undefined ? pathAfter(url, BADGE_FILL_PATH) : undefined;
    const rest = plain ?? filled;
    if (rest !== undefined) {
      const { reqId, finish } = begin(req);
      if (method === 'GET' || method === 'HEAD') {
        // Answered before and still in memory: straight back, nothing parsed.
        const image = service.memoryImage(url);
        if (image !== undefined)
          finish(
            method,
            url,
            ...write(req, res, imageResponse(image, BADGE_CACHE_CONTROL, 'memory', ifNoneMatch(req))),
            'memory',
          );
        else void answerImage(req, res, url, rest, reqId, finish, filled === undefined ? PLAIN : FILL);
      } else if (method === 'OPTIONS') {
        finish(method, url, ...write(req, res, preflight(req)));
      } else {
        finish(method, url, ...write(req, res, methodNotAllowed(IMAGE_ALLOW)));
      }
      return true;
    }
    const debugRest = pathAfter(url, BADGE_RENDER_PATH);
    if (debugRest === undefined) return false;
    const { reqId, finish } = begin(req);
    let status: number;
    let bytes: number;
    try {
      if (method === 'GET' || method === 'HEAD') [status, bytes] = debugPage(req, res, url, debugRest);
      else if (method === 'OPTIONS') [status, bytes] = write(req, res, preflight(req));
      else [status, bytes] = write(req, res, methodNotAllowed(IMAGE_ALLOW));
    } catch (err) {
      opts.onError(err, url, reqId);
      [status, bytes] = res.headersSent ? [500, 0] : write(req, res, textResponse(500, INTERNAL_ERROR_TEXT));
    }
    finish(method, url, status, bytes);
    return true;
  };
}
