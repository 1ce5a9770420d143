// /avatar.png, /avatar and the classic imager's paths (/habbo-imaging/avatarimage, …) on Node's own request handler, ahead of Fastify: every method on these paths
// is answered here. GET and HEAD give the image (straight from memory for a URL answered before, else
// through the service), OPTIONS the CORS preflight, every other method 405. The method alone decides:
// a request body is never read, so its content type or size cannot change the answer (Node discards
// an unread body). Fastify's routing, hooks and reply objects would cost a cold request more than its
// own parsing and caching do; what this side answers is logged in the same line format.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientAddress, rawHeader } from '../../http/client-address.js';
import { preflightHeaders, type PreflightOptions } from '../../http/cors.js';
import { ifNoneMatchMatches } from '../../http/etag.js';
import { type RequestDone } from '../../http/request-log.js';
import { FIGURE_CACHE_CONTROL, type AvatarAnswer, type AvatarService } from '../../imager/avatar/avatar-service.js';
import { FALLBACK_CACHE_CONTROL } from '../../imager/avatar/fallback.js';
import { type HotUrls } from '../../imager/cache/hot-urls.js';
import { type CachedImage } from '../../imager/cache/image-cache.js';

export const AVATAR_ALLOW = 'GET, HEAD, OPTIONS';
export const METHOD_NOT_ALLOWED_TEXT = 'method not allowed\n';
/** So page scripts can read the frame count and cache facts of a cross-origin image response. */
const EXPOSE = 'etag, x-imager-frames, x-imager-fallback, x-imager-cache';
/** The avatar service's preflight: conditional requests only, and the image's facts readable by scripts. */
export const AVATAR_PREFLIGHT: PreflightOptions = { allow: AVATAR_ALLOW, defaultHeaders: 'if-none-match', expose: EXPOSE };

/**
 * What a route on Node's handler beside the avatar route (the badge routes) gets: request ids, the
 * client rule, and `done`, where every answered request is counted and logged.
 */
export interface RawRouteContext {
  nextId: () => string;
  done: RequestDone;
  trustProxy: boolean;
  onError: (err: unknown, url: string, reqId: string) => void;
}

export interface AvatarHandlerOptions {
  service: AvatarService;
  hot: HotUrls;
  /** Take the client address from X-Forwarded-For (behind a CDN or proxy) for the per-client limit and the log. */
  trustProxy: boolean;
  /** Request ids, shared with Fastify's so the log has one sequence. */
  nextId: () => string;
  /** Counts and logs each answered request. */
  done: RequestDone;
  onError: (err: unknown, url: string, reqId: string) => void;
}

/**
 * The paths of the avatar route. `/avatar.png` and `/avatar` are ours; the `/habbo-imaging/` paths are the
 * classic imager's, so a page switches to us by changing only the host. A path may fix one parameter:
 * `.gif` is `img_format=gif`, `head` is `headonly=1` (what pages and emulators' event streams used it
 * for). Whatever the query says of that parameter is replaced, so the URL means what its path says and
 * shares its cache entry with the `/avatar.png` URL that spells the parameter out.
 */
export type Fixed = readonly (readonly [string, string])[];
const GIF = ['img_format', 'gif'] as const;
const HEAD = ['headonly', '1'] as const;
const AVATAR_PATHS: ReadonlyMap<string, Fixed> = new Map<string, Fixed>([
  ['/avatar.png', []],
  ['/avatar', []],
  ['/habbo-imaging/avatarimage', []],
  ['/habbo-imaging/avatarimage.png', []],
  ['/habbo-imaging/avatarimage.gif', [GIF]],
  ['/habbo-imaging/head', [HEAD]],
  ['/habbo-imaging/head.png', [HEAD]],
  ['/habbo-imaging/head.gif', [HEAD, GIF]],
]);

/** Every path of the avatar route, for docs and tests. */
export const AVATAR_ROUTE_PATHS: readonly string[] = [...AVATAR_PATHS.keys()];

/** The parameters a path fixes, or undefined when the URL is not on the avatar route. */
export function avatarRoute(url: string): Fixed | undefined {
  // Exact paths, with or without a query string; anything else (other spellings included) is Fastify's.
  const q = url.indexOf('?');
  return AVATAR_PATHS.get(q < 0 ? url : url.slice(0, q));
}

/** The raw query with each fixed parameter set to its value: other pairs keep their bytes and order. */
export function withFixedParameters(rawQuery: string, fixed: Fixed): string {
  if (fixed.length === 0) return rawQuery;
  const names = new Set(fixed.map(([name]) => name));
  const kept = rawQuery === '' ? [] : rawQuery.split('&').filter((pair) => {
    const name = [...new URLSearchParams(pair).keys()][0];
    return name === undefined || !names.has(name);
  });
  return [...kept, ...fixed.map(([name, value]) => `${name}=${value}`)].join('&');
}


/** The headers of a plain-text answer (400, 302, 405, 500). */
export function textHeaders(text: string, extra: Record<string, string> = {}, cacheControl = 'no-store'): Record<string, string> {
  return {
    ...extra,
    'access-control-allow-origin': '*',
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': cacheControl,
    'content-length': String(Buffer.byteLength(text)),
  };
}

export function sendText(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}, cacheControl = 'no-store'): number {
  res.writeHead(status, textHeaders(text, extra, cacheControl));
  res.end(text);
  return res.req.method === 'HEAD' ? 0 : Buffer.byteLength(text);
}

/** The headers of an image answer: 200 (with its type and length) or 304 (`notModified`). */
export function imageHeaders(image: CachedImage, cacheControl: string, source: string, notModified: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'access-control-allow-origin': '*',
    etag: image.etag,
    'cache-control': cacheControl,
    'x-imager-frames': String(image.frames),
    'x-imager-cache': source,
    'access-control-expose-headers': EXPOSE,
  };
  if (!notModified) {
    headers['content-type'] = image.type;
    headers['content-length'] = String(image.body.length);
  }
  return headers;
}

/** Whether an If-None-Match value names the image's ETag (the answer is then 304). */
export function notModified(ifNoneMatch: string | undefined, image: CachedImage): boolean {
  return ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, image.etag);
}

/** The image, or 304 when If-None-Match names its ETag; returns [status, body bytes]. */
export function sendImage(req: IncomingMessage, res: ServerResponse, image: CachedImage, cacheControl: string, source: string): [number, number] {
  if (notModified(rawHeader(req.rawHeaders, 'if-none-match'), image)) {
    res.writeHead(304, imageHeaders(image, cacheControl, source, true));
    res.end();
    return [304, 0];
  }
  res.writeHead(200, imageHeaders(image, cacheControl, source, false));
  if (req.method === 'HEAD') {
    res.end();
    return [200, 0];
  }
  res.end(image.body);
  return [200, image.body.length];
}

/** The client for the per-client limit and the log: the socket's address, or the first X-Forwarded-For entry behind a proxy. */
export function clientOf(req: IncomingMessage, trustProxy: boolean): string {
  return clientAddress(trustProxy ? rawHeader(req.rawHeaders, 'x-forwarded-for') : undefined, req.socket.remoteAddress, trustProxy);
}

/** The text, extra headers and Cache-Control of a fallback's 302. */
export function fallbackText(answer: Extract<AvatarAnswer, { kind: 'fallback' }>): [string, Record<string, string>, string] {
  // The redirect is cacheable for a minute (contract A7.2), unlike the other plain-text answers.
  const text = `fallback (${answer.reason}): ${answer.location}\n`;
  return [text, { location: answer.location, 'x-imager-fallback': answer.reason, 'access-control-expose-headers': EXPOSE }, FALLBACK_CACHE_CONTROL];
}

function sendAnswer(req: IncomingMessage, res: ServerResponse, answer: AvatarAnswer): [number, number] {
  if (answer.kind === 'image') return sendImage(req, res, answer.image, answer.cacheControl, answer.source);
  if (answer.kind === 'bad-request') return [400, sendText(res, 400, answer.reason)];
  return [302, sendText(res, 302, ...fallbackText(answer))];
}

/**
 * The service's answer to an avatar URL (`fixed`: what its path sets), for both ways a request arrives
 * (Node's handler here, the socket-level fast path in fast-answer.ts). A `?figure=` image never changes
 * for its URL: the next request for it is answered from memory (the URL map).
 */
export async function answerAvatarUrl(service: AvatarService, hot: HotUrls, url: string, fixed: Fixed, client: string, reqId: string): Promise<AvatarAnswer> {
  const q = url.indexOf('?');
  const answer = await service.answer(withFixedParameters(q < 0 ? '' : url.slice(q + 1), fixed), client, reqId);
  if (answer.kind === 'image' && answer.cacheControl === FIGURE_CACHE_CONTROL) hot.set(url, answer.key, answer.generation);
  return answer;
}

/** The image for a URL answered before and still in memory, else undefined (and the URL forgotten if its image was evicted). */
export function rememberedImage(service: AvatarService, hot: HotUrls, url: string): CachedImage | undefined {
  const key = hot.get(url);
  if (key === undefined) return undefined;
  const image = service.memoryImage(key);
  if (image === undefined) hot.delete(url);
  return image;
}

export function sendPreflight(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(204, preflightHeaders(AVATAR_PREFLIGHT, rawHeader(req.rawHeaders, 'access-control-request-headers')));
  res.end();
}

/** Returns the request listener for the avatar paths; it reports false for every other request. */
export function createAvatarHandler(opts: AvatarHandlerOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { service, hot, done, nextId, trustProxy } = opts;

  const answerImage = async (req: IncomingMessage, res: ServerResponse, url: string, fixed: Fixed, started: number, reqId: string, client: string) => {
    const method = req.method!;
    let status: number;
    let bytes: number;
    let cache: string | null = null;
    try {
      const answer = await answerAvatarUrl(service, hot, url, fixed, client, reqId);
      [status, bytes] = sendAnswer(req, res, answer);
      if (answer.kind === 'image') cache = answer.source;
    } catch (err) {
      opts.onError(err, url, reqId);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      status = 500;
      bytes = sendText(res, 500, 'internal error\n');
    }
    done(reqId, method, url, status, bytes, started, cache, client);
  };

  return (req, res) => {
    const url = req.url ?? '';
    const fixed = avatarRoute(url);
    if (fixed === undefined) return false;
    const started = performance.now();
    const reqId = nextId();
    const client = clientOf(req, trustProxy);
    const method = req.method ?? '';
    if (method === 'GET' || method === 'HEAD') {
      // Answered before and still in memory: straight back, nothing parsed.
      const image = rememberedImage(service, hot, url);
      if (image !== undefined) {
        const [status, bytes] = sendImage(req, res, image, FIGURE_CACHE_CONTROL, 'memory');
        done(reqId, method, url, status, bytes, started, 'memory', client);
        return true;
      }
      void answerImage(req, res, url, fixed, started, reqId, client);
    } else if (method === 'OPTIONS') {
      sendPreflight(req, res);
      done(reqId, method, url, 204, 0, started, null, client);
    } else {
      const bytes = sendText(res, 405, METHOD_NOT_ALLOWED_TEXT, { allow: AVATAR_ALLOW });
      done(reqId, method, url, 405, bytes, started, null, client);
    }
    return true;
  };
}
