// The furni-on-demand routes on Node's request handler, with the image paths' method rules (GET and HEAD
// answer, OPTIONS is the CORS preflight, anything else 405):
//   /habbo-imaging/furni?sprite=…                  Chroma's query (Havana's CMS templates call it)
//   /habbo-imaging/furniture?class=…|id=…          vortex-imager's query
//   /habbo-imaging/furniture/<class>[.png|.gif]    vortex-imager's path form
// A request body is never read. Answers are logged in the avatar route's line format.
import { type IncomingMessage } from 'node:http';
import { rawHeader } from '../../http/client-address.js';
import {
  imagePathHandler,
  imageResponse,
  textResponse,
  type HttpResponse,
  type RawRoute,
  type RawRouteContext,
} from '../../http/respond.js';
import { pathAfter, queryOf } from '../../http/request-target.js';
import { HOTEL_FURNI_CACHE_CONTROL, type HotelFurniService } from '../../core/hotel-furni/index.js';
import { parseChromaQuery, parseVortexQuery, pathClassOf } from '../../core/hotel-furni/params.js';

/** The furni-on-demand paths: Chroma's, and vortex-imager's (its query and its path form). */
export const CHROMA_FURNI_PATH = '/habbo-imaging/furni';
export const VORTEX_FURNITURE_PATH = '/habbo-imaging/furniture';

export interface FurniHandlerOptions extends RawRouteContext {
  service: HotelFurniService;
}

const CHROMA_USAGE = `${CHROMA_FURNI_PATH}?sprite=<classname or furnidata id>`;
const VORTEX_USAGE =
  `${VORTEX_FURNITURE_PATH}?class=<classname> ` +
  `(or ?id=<furnidata id>, or ${VORTEX_FURNITURE_PATH}/<classname>.png)`;

/** Returns the request listener for the furni-on-demand paths; it reports false for every other request. */
export function createFurniHandler(opts: FurniHandlerOptions): RawRoute {
  const { service } = opts;
  const ifNoneMatch = (req: IncomingMessage) => rawHeader(req.rawHeaders, 'if-none-match');
  const handle = imagePathHandler(opts);

  const respond = async (
    req: IncomingMessage,
    answer: ReturnType<HotelFurniService['answer']>,
  ): Promise<[HttpResponse, string | null]> => {
    const a = await answer;
    if (a.kind === 'text')
      return [textResponse(a.status, a.reason, a.status === 429 ? { 'retry-after': String(a.retryAfterS) } : {}), null];
    return [imageResponse(a.image, HOTEL_FURNI_CACHE_CONTROL, a.source, ifNoneMatch(req)), a.source];
  };

  return (req, res) => {
    const url = req.url ?? '';
    const chroma = pathAfter(url, CHROMA_FURNI_PATH);
    if (chroma !== undefined) {
      // Chroma answers its query on the folder itself; `/habbo-imaging/furni/` is the same.
      handle(req, res, url, (client) =>
        chroma === '' || chroma === '/'
          ? respond(req, service.answer(parseChromaQuery(queryOf(url)), CHROMA_USAGE, client))
          : Promise.resolve([textResponse(404, `not found: use ${CHROMA_USAGE}\n`), null]),
      );
      return true;
    }
    const vortex = pathAfter(url, VORTEX_FURNITURE_PATH);
    if (vortex !== undefined) {
      handle(req, res, url, (client) => {
        if (vortex === '' || vortex === '/')
          return respond(req, service.answer(parseVortexQuery(queryOf(url)), VORTEX_USAGE, client));
        const cls = pathClassOf(vortex);
        if (cls === undefined) return Promise.resolve([textResponse(404, `not found: use ${VORTEX_USAGE}\n`), null]);
        return respond(req, service.answer(parseVortexQuery(queryOf(url), cls), VORTEX_USAGE, client));
      });
      return true;
    }
    return false;
  };
}
