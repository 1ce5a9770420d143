// /avatar.png, /avatar and the classic imager's paths (/habbo-imaging/avatarimage, …) on Node's own request handler,
// ahead of Fastify: every method on these paths
// is answered here. GET and HEAD give the image (straight from memory for a URL answered before, else
// through the service), OPTIONS the CORS preflight, every other method 405. The method alone decides:
// a request body is never read, so its content type or size cannot change the answer (Node discards
// an unread body). Fastify's routing, hooks and reply objects would cost a cold request more than its
// own parsing and caching do; what this side answers is logged in the same line format.
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { rawHeader } from '../../http/client-address.js';
import {
  clientOf,
  IMAGE_ALLOW,
  IMAGE_PREFLIGHT,
  imageResponse,
  INTERNAL_ERROR_TEXT,
  methodNotAllowed,
  preflightResponse,
  textResponse,
  writeResponse,
  type HttpResponse,
} from '../../http/respond.js';
import { type RequestDone } from '../../http/request-log.js';
import { FIGURE_CACHE_CONTROL, type AvatarAnswer, type AvatarService } from '../../imager/avatar/avatar-service.js';
import { FALLBACK_CACHE_CONTROL } from '../../imager/avatar/fallback.js';
import { type HotUrls } from '../../imager/cache/hot-urls.js';
import { type CachedImage } from '../../imager/cache/image-cache.js';

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

/**
 * The name-in-path form other imagers answer: `/habbo-imaging/avatarimage/<name>.png` (or `.gif`) is
 * `?user=<name>` with the same parameters.
 */
export const USER_PATH_PREFIX = '/habbo-imaging/avatarimage/';
const USER_PATH = /^\/habbo-imaging\/avatarimage\/([^/]+)\.(png|gif)$/;

/** Every path of the avatar route, for docs and tests (the name-in-path form with an example name). */
export const AVATAR_ROUTE_PATHS: readonly string[] = [...AVATAR_PATHS.keys(), `${USER_PATH_PREFIX}Alice.png`];

/** The parameters a path fixes, or undefined when the URL is not on the avatar route. */
export function avatarRoute(url: string): Fixed | undefined {
  // Exact paths, with or without a query string; anything else (other spellings included) is Fastify's.
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const exact = AVATAR_PATHS.get(path);
  if (exact !== undefined || !path.startsWith(USER_PATH_PREFIX)) return exact;
  const m = USER_PATH.exec(path);
  if (!m) return undefined;
  let name: string;
  try {
    name = decodeURIComponent(m[1] ?? '');
  } catch {
    return undefined; // a malformed escape: Fastify's 400
  }
  const user = ['user', encodeURIComponent(name)] as const;
  return m[2] === 'gif' ? [user, GIF] : [user];
}

/** The raw query with each fixed parameter set to its value: other pairs keep their bytes and order. */
export function withFixedParameters(rawQuery: string, fixed: Fixed): string {
  if (fixed.length === 0) return rawQuery;
  const names = new Set(fixed.map(([name]) => name));
  const kept =
    rawQuery === ''
      ? []
      : rawQuery.split('&').filter((pair) => {
          const name = [...new URLSearchParams(pair).keys()][0];
          return name === undefined || !names.has(name);
        });
  return [...kept, ...fixed.map(([name, value]) => `${name}=${value}`)].join('&');
}

/**
 * The avatar route's one response writer: what an answer of the service is as HTTP, for both ways a
 * request arrives (Node's handler here, the socket fast path in fast-answer.ts).
 */
export function avatarResponse(answer: AvatarAnswer, ifNoneMatch: string | undefined): HttpResponse {
  if (answer.kind === 'image') return imageResponse(answer.image, answer.cacheControl, answer.source, ifNoneMatch);
  if (answer.kind === 'bad-request') return textResponse(400, answer.reason);
  // The redirect is cacheable for a minute (contract A7.2), unlike the other plain-text answers.
  const text = `fallback (${answer.reason}): ${answer.location}\n`;
  return textResponse(
    302,
    text,
    {
      location: answer.location,
      'x-imager-fallback': answer.reason,
      'access-control-expose-headers': IMAGE_PREFLIGHT.expose!,
    },
    FALLBACK_CACHE_CONTROL,
  );
}

/** An image answered from memory by its URL alone (nothing parsed). */
export function rememberedResponse(image: CachedImage, ifNoneMatch: string | undefined): HttpResponse {
  return imageResponse(image, FIGURE_CACHE_CONTROL, 'memory', ifNoneMatch);
}

/**
 * The service's answer to an avatar URL (`fixed`: what its path sets), for both ways a request arrives
 * (Node's handler here, the socket-level fast path in fast-answer.ts). A `?figure=` image never changes
 * for its URL: the next request for it is answered from memory (the URL map).
 */
export async function answerAvatarUrl(
  service: AvatarService,
  hot: HotUrls,
  url: string,
  fixed: Fixed,
  client: string,
  reqId: string,
): Promise<AvatarAnswer> {
  const q = url.indexOf('?');
  const answer = await service.answer(withFixedParameters(q < 0 ? '' : url.slice(q + 1), fixed), client, reqId);
  if (answer.kind === 'image' && answer.cacheControl === FIGURE_CACHE_CONTROL)
    hot.set(url, answer.key, answer.generation);
  return answer;
}

/**
 * The image for a URL answered before and still in memory, else undefined (and the URL forgotten if its image was
 * evicted).
 */
export function rememberedImage(service: AvatarService, hot: HotUrls, url: string): CachedImage | undefined {
  const key = hot.get(url);
  if (key === undefined) return undefined;
  const image = service.memoryImage(key);
  if (image === undefined) hot.delete(url);
  return image;
}

/** Returns the request listener for the avatar paths; it reports false for every other request. */
export function createAvatarHandler(
  opts: AvatarHandlerOptions,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { service, hot, done, nextId, trustProxy } = opts;

  const answerImage = async (
    req: IncomingMessage,
    res: ServerResponse,
    url: string,
    fixed: Fixed,
    started: number,
    reqId: string,
    client: string,
  ) => {
    const method = req.method!;
    let status: number;
    let bytes: number;
    let cache: string | null = null;
    try {
      const answer = await answerAvatarUrl(service, hot, url, fixed, client, reqId);
      const response = avatarResponse(answer, rawHeader(req.rawHeaders, 'if-none-match'));
      status = response.status;
      bytes = writeResponse(req, res, response);
      if (answer.kind === 'image') cache = answer.source;
    } catch (err) {
      opts.onError(err, url, reqId);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      status = 500;
      bytes = writeResponse(req, res, textResponse(500, INTERNAL_ERROR_TEXT));
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
        const response = rememberedResponse(image, rawHeader(req.rawHeaders, 'if-none-match'));
        done(reqId, method, url, response.status, writeResponse(req, res, response), started, 'memory', client);
        return true;
      }
      void answerImage(req, res, url, fixed, started, reqId, client);
    } else if (method === 'OPTIONS') {
      writeResponse(
        req,
        res,
        preflightResponse(IMAGE_PREFLIGHT, rawHeader(req.rawHeaders, 'access-control-request-headers')),
      );
      done(reqId, method, url, 204, 0, started, null, client);
    } else {
      done(reqId, method, url, 405, writeResponse(req, res, methodNotAllowed(IMAGE_ALLOW)), started, null, client);
    }
    return true;
  };
}
