// Avatar answers as the socket-level fast path writes them (../fast-path.ts): GET and HEAD on the avatar
// paths, the same answers as Node's handler (avatar-handler.ts) gives. An image answered from memory
// has its 200 and 304 heads built once (kept with the image, gone when it leaves the cache).
import { headBlock, type FastAnswerer, type FastResponse } from '../../http/fast-path.js';
import {
  answerAvatarUrl, avatarRoute, fallbackText, imageHeaders, notModified, rememberedImage, textHeaders,
} from './avatar-handler.js';
import { FIGURE_CACHE_CONTROL, type AvatarAnswer, type AvatarService } from '../../imager/avatar/avatar-service.js';
import { type HotUrls } from '../../imager/cache/hot-urls.js';
import { type CachedImage } from '../../imager/cache/image-cache.js';

const STATUS_LINES: Record<number, string> = { 200: '200 OK', 302: '302 Found', 304: '304 Not Modified', 400: '400 Bad Request' };

/** Whether a request target is on the avatar route (anything else on a connection hands it to Node). */
export const claimsAvatar = (target: string): boolean => avatarRoute(target) !== undefined;

function text(status: number, body: string, extra?: Record<string, string>, cacheControl?: string): FastResponse {
  return { status, head: headBlock(STATUS_LINES[status]!, textHeaders(body, extra, cacheControl)), body: Buffer.from(body), cache: null };
}

export function fastAvatarAnswerer(service: AvatarService, hot: HotUrls): FastAnswerer {
  /** The heads of images answered from memory. */
  const memoryHeads = new WeakMap<CachedImage, { ok: Buffer; notModified: Buffer }>();

  const image = (img: CachedImage, cacheControl: string, source: string, ifNoneMatch: string | undefined): FastResponse => {
    const unchanged = notModified(ifNoneMatch, img);
    if (source === 'memory' && cacheControl === FIGURE_CACHE_CONTROL) {
      let heads = memoryHeads.get(img);
      if (!heads) {
        heads = {
          ok: headBlock('200 OK', imageHeaders(img, cacheControl, source, false)),
          notModified: headBlock('304 Not Modified', imageHeaders(img, cacheControl, source, true)),
        };
        memoryHeads.set(img, heads);
      }
      return unchanged
        ? { status: 304, head: heads.notModified, reused: true, cache: source }
        : { status: 200, head: heads.ok, reused: true, body: img.body, cache: source };
    }
    return unchanged
      ? { status: 304, head: headBlock('304 Not Modified', imageHeaders(img, cacheControl, source, true)), cache: source }
      : { status: 200, head: headBlock('200 OK', imageHeaders(img, cacheControl, source, false)), body: img.body, cache: source };
  };

  const response = (a: AvatarAnswer, ifNoneMatch: string | undefined): FastResponse => {
    if (a.kind === 'image') return image(a.image, a.cacheControl, a.source, ifNoneMatch);
    if (a.kind === 'bad-request') return text(400, a.reason);
    return text(302, ...fallbackText(a));
  };

  return (req, client, reqId) => {
    // Answered before and still in memory: straight back, nothing parsed.
    const remembered = rememberedImage(service, hot, req.target);
    if (remembered !== undefined) return image(remembered, FIGURE_CACHE_CONTROL, 'memory', req.ifNoneMatch);
    return answerAvatarUrl(service, hot, req.target, avatarRoute(req.target)!, client, reqId).then((a) => response(a, req.ifNoneMatch));
  };
}
