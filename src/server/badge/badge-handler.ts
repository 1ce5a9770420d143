// The badge routes on Node's request handler, beside the avatar route and with its method rules:
// /habbo-imaging/badge[/…]: GET and HEAD give the image (or a text 404/400), OPTIONS the CORS preflight,
// any other method 405; /render/badge[/…]: GET and HEAD give the debug page, OPTIONS the preflight and any
// other method 405, as every avatar path (contract A4). A request body is never read. Answers are logged in
// the avatar route's line format.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AVATAR_ALLOW, METHOD_NOT_ALLOWED_TEXT, sendImage, sendPreflight, sendText, type RequestLineLogger } from '../avatar/avatar-handler.js';
import { renderBadgeDebugPage } from './badge-page.js';
import { BADGE_CACHE_CONTROL, type BadgeService } from './badge-service.js';
import { BADGE_PATH, BADGE_RENDER_PATH, pathAfter } from './params.js';

export interface BadgeHandlerOptions {
  service: BadgeService;
  logLine: RequestLineLogger | undefined;
  onError: (err: unknown, url: string) => void;
}

export type RawRoute = (req: IncomingMessage, res: ServerResponse) => boolean;

const queryOf = (url: string) => {
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q + 1);
};

/** Returns the request listener for the badge paths; it reports false for every other request. */
export function createBadgeHandler(opts: BadgeHandlerOptions): RawRoute {
  const { service, logLine } = opts;
  const finish = (method: string, url: string, status: number, bytes: number, started: number) =>
    logLine?.(method, url, status, bytes, Math.round((performance.now() - started) * 100) / 100);

  const answerImage = async (req: IncomingMessage, res: ServerResponse, url: string, rest: string, started: number) => {
    let status: number;
    let bytes: number;
    try {
      const answer = await service.answer(rest, queryOf(url), url);
      if (answer.kind === 'image') [status, bytes] = sendImage(req, res, answer.image, BADGE_CACHE_CONTROL, answer.source);
      else [status, bytes] = [answer.status, sendText(res, answer.status, answer.reason)];
    } catch (err) {
      opts.onError(err, url);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      [status, bytes] = [500, sendText(res, 500, 'internal error\n')];
    }
    finish(req.method!, url, status, bytes, started);
  };

  const debugPage = (req: IncomingMessage, res: ServerResponse, url: string, rest: string): [number, number] => {
    const answer = service.debug(rest, queryOf(url));
    const html = renderBadgeDebugPage(answer, url);
    const status = answer.kind === 'text' ? answer.status : 200;
    const length = Buffer.byteLength(html);
    res.writeHead(status, {
      'access-control-allow-origin': '*',
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-length': String(length),
    });
    res.end(req.method === 'HEAD' ? undefined : html);
    return [status, req.method === 'HEAD' ? 0 : length];
  };

  return (req, res) => {
    const url = req.url ?? '';
    const method = req.method ?? '';
    const started = performance.now();
    const rest = pathAfter(url, BADGE_PATH);
    if (rest !== undefined) {
      if (method === 'GET' || method === 'HEAD') {
        // Answered before and still in memory: straight back, nothing parsed.
        const image = service.memoryImage(url);
        if (image !== undefined) finish(method, url, ...sendImage(req, res, image, BADGE_CACHE_CONTROL, 'memory'), started);
        else void answerImage(req, res, url, rest, started);
      } else if (method === 'OPTIONS') {
        sendPreflight(req, res);
        finish(method, url, 204, 0, started);
      } else {
        finish(method, url, 405, sendText(res, 405, METHOD_NOT_ALLOWED_TEXT, { allow: AVATAR_ALLOW }), started);
      }
      return true;
    }
    const debugRest = pathAfter(url, BADGE_RENDER_PATH);
    if (debugRest === undefined) return false;
    let status: number;
    let bytes: number;
    try {
      if (method === 'GET' || method === 'HEAD') [status, bytes] = debugPage(req, res, url, debugRest);
      else if (method === 'OPTIONS') {
        sendPreflight(req, res);
        [status, bytes] = [204, 0];
      } else [status, bytes] = [405, sendText(res, 405, METHOD_NOT_ALLOWED_TEXT, { allow: AVATAR_ALLOW })];
    } catch (err) {
      opts.onError(err, url);
      [status, bytes] = res.headersSent ? [500, 0] : [500, sendText(res, 500, 'internal error\n')];
    }
    finish(method, url, status, bytes, started);
    return true;
  };
}
