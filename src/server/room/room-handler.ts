// The room routes on Node's request handler, with the image paths' method rules (GET and HEAD answer,
// OPTIONS is the CORS preflight, anything else 405):
//   /habbo-imaging/room/<id>.png   the room's picture (404 text/plain for no such room, 503 + Retry-After when
//                                  it cannot be drawn now and no earlier picture is held; a held one is marked
//                                  `x-imager-stale`); `?animated=1`: the room as it moves, an APNG
//   /habbo-imaging/room/<id>.gif   the room as it moves, a GIF
//   /thumbnail/<id>.png            the Nitro client's camera.url thumbnail: the stored file, else our render
//   /render/room/<id>              the debug page (planes, items, skipped and why)
// A request body is never read. Answers are logged in the avatar route's line format.
import { type IncomingMessage } from 'node:http';
import { rawHeader } from '../../http/client-address.js';
import {
  htmlResponse,
  IMAGE_EXPOSE,
  imagePathHandler,
  imageResponse,
  textResponse,
  type HttpResponse,
  type RawRoute,
  type RawRouteContext,
} from '../../http/respond.js';
import { type RoomAnswer, type RoomService } from '../../core/room/room-service.js';
import { badRoomPath, parseRoomId, parseRoomImagePath } from '../../core/room/params.js';
import { pathAfter, queryOf } from '../../http/request-target.js';
import { ROOM_PATH, ROOM_RENDER_PATH, THUMBNAIL_PATH } from './paths.js';
import { renderRoomDebugPage } from './room-page.js';

export interface RoomHandlerOptions extends RawRouteContext {
  service: RoomService;
}

/** The headers scripts may read on a room image: the image paths' own, and whether it is a held one. */
export const ROOM_EXPOSE = `${IMAGE_EXPOSE}, x-imager-stale, x-imager-thumbnail`;

/** The HTTP response of a room answer (and the cache tier, for the log). */
export function roomResponse(answer: RoomAnswer, ifNoneMatch: string | undefined): [HttpResponse, string | null] {
  if (answer.kind === 'text') {
    const extra: Record<string, string> = {};
    if (answer.retryAfterS !== undefined) extra['retry-after'] = String(answer.retryAfterS);
    return [textResponse(answer.status, answer.reason, extra), null];
  }
  const r = imageResponse(answer.image, answer.cacheControl, answer.source, ifNoneMatch);
  r.headers['access-control-expose-headers'] = ROOM_EXPOSE;
  // A header value is one line of visible ASCII: the reason is reduced to that.
  if (answer.stale !== undefined) r.headers['x-imager-stale'] = answer.stale.replace(/[^\x20-\x7e]/g, '?');
  if (answer.thumbnail !== undefined) r.headers['x-imager-thumbnail'] = answer.thumbnail;
  return [r, answer.source];
}

/** Returns the request listener for the room paths; it reports false for every other request. */
export function createRoomHandler(opts: RoomHandlerOptions): RawRoute {
  const { service } = opts;
  const ifNoneMatch = (req: IncomingMessage) => rawHeader(req.rawHeaders, 'if-none-match');
  const handle = imagePathHandler(opts);

  const notFound = (text: string): Promise<[HttpResponse, null]> => Promise.resolve([textResponse(404, text), null]);

  return (req, res) => {
    const url = req.url ?? '';
    const image = pathAfter(url, ROOM_PATH);
    if (image !== undefined) {
      const at = parseRoomImagePath(image);
      handle(req, res, url, async () =>
        at === undefined
          ? notFound(badRoomPath(ROOM_PATH, true))
          : roomResponse(await service.answer(at.roomId, queryOf(url), at.format), ifNoneMatch(req)),
      );
      return true;
    }
    const thumb = pathAfter(url, THUMBNAIL_PATH);
    if (thumb !== undefined) {
      const id = parseRoomId(thumb, true);
      handle(req, res, url, async () =>
        id === undefined
          ? notFound(badRoomPath(THUMBNAIL_PATH, true))
          : roomResponse(await service.thumbnail(id), ifNoneMatch(req)),
      );
      return true;
    }
    const page = pathAfter(url, ROOM_RENDER_PATH);
    if (page !== undefined) {
      const id = parseRoomId(page, false);
      handle(req, res, url, async () => {
        if (id === undefined) return notFound(badRoomPath(ROOM_RENDER_PATH, false));
        const answer = await service.debug(id, queryOf(url));
        return [htmlResponse(answer.kind === 'text' ? answer.status : 200, renderRoomDebugPage(answer, url)), null];
      });
      return true;
    }
    return false;
  };
}
