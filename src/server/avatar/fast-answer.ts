// Avatar answers as the socket-level fast path writes them (../../http/fast-path.ts): GET and HEAD on the
// avatar paths, the responses avatar-handler.ts's `avatarResponse` decides, as Node's handler writes them.
// An image answered from memory has its 200 and 304 heads built once (kept with the image, gone when it
// leaves the cache).
import { type FastAnswerer, type FastResponse, headBlock } from '../../http/fast-path.js';
import { fastResponse, notModified, statusLine } from '../../http/respond.js';
import { FIGURE_CACHE_CONTROL, type AvatarService } from '../../core/avatar/avatar-service.js';
import { type HotUrls } from '../../core/cache/hot-urls.js';
import { type CachedImage } from '../../core/cache/image-cache.js';
import {
  answerAvatarUrl,
  avatarResponse,
  avatarRoute,
  rememberedImage,
  rememberedResponse,
  type QueryRewrite,
} from './avatar-handler.js';

/** Whether a request target is on the avatar route (anything else on a connection hands it to Node). */
export const claimsAvatar = (target: string): boolean => avatarRoute(target) !== undefined;

export function fastAvatarAnswerer(service: AvatarService, hot: HotUrls, rewrite?: QueryRewrite): FastAnswerer {
  /** The heads of images answered from memory. */
  const memoryHeads = new WeakMap<CachedImage, { ok: Buffer; notModified: Buffer }>();

  const remembered = (img: CachedImage, ifNoneMatch: string | undefined): FastResponse => {
    let heads = memoryHeads.get(img);
    if (!heads) {
      const ok = rememberedResponse(img, undefined);
      const unchanged = rememberedResponse(img, img.etag);
      heads = {
        ok: headBlock(statusLine(ok.status), ok.headers),
        notModified: headBlock(statusLine(unchanged.status), unchanged.headers),
      };
      memoryHeads.set(img, heads);
    }
    // The same 200/304 choice as imageResponse's, on the heads built from it.
    return notModified(ifNoneMatch, img.etag)
      ? { status: 304, head: heads.notModified, reused: true, cache: 'memory' }
      : { status: 200, head: heads.ok, reused: true, body: img.body, cache: 'memory' };
  };

  return (req, client, reqId) => {
    // Answered before and still in memory: straight back, nothing parsed.
    const image = rememberedImage(service, hot, req.target);
    if (image !== undefined) return remembered(image, req.ifNoneMatch);
    return answerAvatarUrl(service, hot, req.target, avatarRoute(req.target)!, client, reqId, rewrite).then((a) => {
      // A memory hit of a `?figure=` URL answers with the heads kept for its image.
      if (a.kind === 'image' && a.source === 'memory' && a.cacheControl === FIGURE_CACHE_CONTROL)
        return remembered(a.image, req.ifNoneMatch);
      return fastResponse(avatarResponse(a, req.ifNoneMatch), a.kind === 'image' ? a.source : null);
    });
  };
}
