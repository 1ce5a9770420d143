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
import { queryOf } from '../../http/request-target.js';
import { handItemAction, parseBoolean, type AvatarPart } from '../../avatar/index.js';
import { FIGURE_CACHE_CONTROL, type AvatarAnswer, type AvatarService } from '../../core/avatar/avatar-service.js';
import { FALLBACK_CACHE_CONTROL } from '../../core/avatar/fallback.js';
import { type HotUrls } from '../../core/cache/hot-urls.js';
import { type CachedImage } from '../../core/cache/image-cache.js';

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
  /** Rewrites a query before the service reads it (pre-v18 numeric figures); undefined leaves it. */
  rewriteQuery?: QueryRewrite;
}

/** A query as the service should read it, or undefined to leave it as sent. */
export type QueryRewrite = (rawQuery: string) => string | undefined;

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

/** The classic imager's avatar path, the stem of its forms above and below (`serve avatar --help` names it). */
export const CLASSIC_AVATAR_PATH = '/habbo-imaging/avatarimage';

/**
 * The name-in-path form other imagers answer: `/habbo-imaging/avatarimage/<name>.png` (or `.gif`) is
 * `?user=<name>` with the same parameters.
 */
export const USER_PATH_PREFIX = `${CLASSIC_AVATAR_PATH}/`;
const USER_PATH = /^\/habbo-imaging\/avatarimage\/([^/]+)\.(png|gif)$/;

/** Every path of the avatar route, for docs and tests (the name-in-path form with an example name). */
export const AVATAR_ROUTE_PATHS: readonly string[] = [...AVATAR_PATHS.keys(), `${USER_PATH_PREFIX}Alice.png`];

/**
 * What a path of the avatar route asks for beyond its query: parameters it sets (`fixed`, replacing the
 * query's), parameters it gives when the query has none of that name (`defaults`), and the one kind of
 * layer it draws (`part`: the effect and hand-item paths; no query can ask for it).
 */
export interface RouteTarget {
  fixed: Fixed;
  defaults?: Fixed;
  part?: AvatarPart;
}

/** vortex-imager's effect and hand-item paths: `/habbo-imaging/effect/<id>.png`, `/habbo-imaging/handitem/<id>.png`. */
export const EFFECT_PATH_PREFIX = '/habbo-imaging/effect/';
export const HAND_ITEM_PATH_PREFIX = '/habbo-imaging/handitem/';
const PART_PATH = /^\/habbo-imaging\/(effect|handitem)\/([^/]*?)(?:\.(png|gif))?$/i;

/**
 * The figure the effect and hand-item paths hang their layer on when the query names none (vortex-imager's
 * `DEFAULT_FIGURE`): it is planned, so the layer sits where it would on an avatar, and never drawn.
 */
export const PART_DEFAULT_FIGURE = 'hd-180-1.ch-210-66.lg-270-82.sh-290-80';

/**
 * The effect and hand-item paths as vortex-imager's server.ts reads them: the id in the path (an extension
 * `.png`, `.gif` or none; `.gif` is `img_format=gif` as on our other paths), every other avatar parameter
 * from the query, the default figure when it names none. An effect is `effect=<id>`; a hand item is the
 * carry pose with it, or the drinking pose with `drk=1` (`handItemAction`).
 */
function partTarget(url: string, path: string): RouteTarget | undefined {
  const m = PART_PATH.exec(path);
  if (!m) return undefined;
  let id = m[2] ?? '';
  try {
    id = decodeURIComponent(id);
  } catch {
    // a malformed escape: an id that names nothing (the service says so)
  }
  const gif = m[3]?.toLowerCase() === 'gif' ? [GIF] : [];
  const defaults: Fixed = [['figure', PART_DEFAULT_FIGURE]];
  if (m[1]!.toLowerCase() === 'effect')
    return { fixed: [['effect', encodeURIComponent(id)], ...gif], defaults, part: 'effect' };
  const query = new URLSearchParams(queryOf(url));
  const action = handItemAction(id, parseBoolean(query.get('drk') ?? undefined), query.get('action') ?? undefined);
  return { fixed: [['action', encodeURIComponent(action)], ...gif], defaults, part: 'hand' };
}

/** The old official website's comma form: `/habbo-imaging/avatar/<figure>,s-0.g-1.d-4.h-4.a-0,<md5>.gif`. */
export const COMMA_AVATAR_PREFIX = '/habbo-imaging/avatar/';

/**
 * The parameters a comma-form path stands for. The figure is the text before the first comma; the md5
 * after the second is the old site's signature, not part of the picture. Its settings are read as the
 * only imager that answers the form reads it (Havana's `ImagerController.legacyAvatarParameters`): size
 * `b`, gesture `sml`, direction and head direction 3. One difference, on purpose: where the settings
 * carry `d-N` and `h-N` (the pages of the time all wrote them) they are the body and head direction, as
 * their letters say; Havana draws 3 whatever they say. `s`, `g` and `a` keep Havana's values (every
 * official URL we found says s-0.g-1 … a-0, drawn there at 64×110). `.gif` is `img_format=gif`.
 */
export function commaFormParameters(rest: string): Fixed {
  let text = rest;
  try {
    text = decodeURIComponent(rest);
  } catch {
    // a malformed escape: the text as sent (the service refuses a figure it cannot read)
  }
  const ext = /\.(gif|png)$/i.exec(text);
  if (ext) text = text.slice(0, -ext[0].length);
  const [figure = '', settings = ''] = text.split(',');
  const read: Record<string, string> = {};
  for (const token of settings.split('.')) {
    const m = /^([a-z])-(-?\d{1,3})$/.exec(token);
    if (m) read[m[1]!] = m[2]!;
  }
  const direction = read.d ?? '3';
  const fixed: [string, string][] = [
    ['figure', encodeURIComponent(figure)],
    ['size', 'b'],
    ['gesture', 'sml'],
    ['direction', direction],
    ['head_direction', read.h ?? direction],
  ];
  if (ext?.[1]?.toLowerCase() === 'gif') fixed.push([...GIF]);
  return fixed;
}

/** What a path asks for beyond its query, or undefined when the URL is not on the avatar route. */
export function avatarRoute(url: string): RouteTarget | undefined {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (path.startsWith(EFFECT_PATH_PREFIX) || path.startsWith(HAND_ITEM_PATH_PREFIX)) return partTarget(url, path);
  const fixed = fixedParameters(path);
  return fixed === undefined ? undefined : { fixed };
}

/** The parameters a path fixes, or undefined when the path is not one of the avatar's own. */
function fixedParameters(path: string): Fixed | undefined {
  // Exact paths, with or without a query string, and the comma form's folder; anything else (other
  // spellings included) is Fastify's.
  const exact = AVATAR_PATHS.get(path);
  if (exact !== undefined) return exact;
  if (path.startsWith(USER_PATH_PREFIX)) {
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
  if (path.startsWith(COMMA_AVATAR_PREFIX) && path.length > COMMA_AVATAR_PREFIX.length)
    return commaFormParameters(path.slice(COMMA_AVATAR_PREFIX.length));
  return undefined;
}

/**
 * The raw query with each fixed parameter set to its value, and each default added where the query has
 * no pair of that name: other pairs keep their bytes and order.
 */
export function withFixedParameters(rawQuery: string, fixed: Fixed, defaults: Fixed = []): string {
  if (fixed.length === 0 && defaults.length === 0) return rawQuery;
  const names = new Set(fixed.map(([name]) => name));
  const sent = new Set<string>();
  const kept =
    rawQuery === ''
      ? []
      : rawQuery.split('&').filter((pair) => {
          const name = [...new URLSearchParams(pair).keys()][0];
          if (name !== undefined) sent.add(name);
          return name === undefined || !names.has(name);
        });
  const added = defaults.filter(([name]) => !sent.has(name) && !names.has(name));
  return [...kept, ...[...fixed, ...added].map(([name, value]) => `${name}=${value}`)].join('&');
}

/**
 * The avatar route's one response writer: what an answer of the service is as HTTP, for both ways a
 * request arrives (Node's handler here, the socket fast path in fast-answer.ts).
 */
export function avatarResponse(answer: AvatarAnswer, ifNoneMatch: string | undefined): HttpResponse {
  if (answer.kind === 'image') return imageResponse(answer.image, answer.cacheControl, answer.source, ifNoneMatch);
  if (answer.kind === 'bad-request') return textResponse(400, answer.reason);
  if (answer.kind === 'not-found') return textResponse(404, answer.reason);
  if (answer.kind === 'retry')
    return textResponse(429, `not drawn now (${answer.reason}), ask again: ${answer.detail}\n`, { 'retry-after': '1' });
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
  target: RouteTarget,
  client: string,
  reqId: string,
  rewrite?: QueryRewrite,
): Promise<AvatarAnswer> {
  const q = url.indexOf('?');
  const query = withFixedParameters(q < 0 ? '' : url.slice(q + 1), target.fixed, target.defaults);
  const answer = await service.answer(rewrite?.(query) ?? query, client, reqId, false, target.part);
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
  const { service, hot, done, nextId, trustProxy, rewriteQuery } = opts;

  const answerImage = async (
    req: IncomingMessage,
    res: ServerResponse,
    url: string,
    target: RouteTarget,
    started: number,
    reqId: string,
    client: string,
  ) => {
    const method = req.method!;
    let status: number;
    let bytes: number;
    let cache: string | null = null;
    try {
      const answer = await answerAvatarUrl(service, hot, url, target, client, reqId, rewriteQuery);
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
    const target = avatarRoute(url);
    if (target === undefined) return false;
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
      void answerImage(req, res, url, target, started, reqId, client);
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
