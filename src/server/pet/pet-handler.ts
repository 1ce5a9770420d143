// The pet picture's route on Node's request handler, with the image paths' method rules (GET and HEAD answer,
// OPTIONS is the CORS preflight, anything else 405):
//   /habbo-imaging/pet.png?figure=<pet figure string>|id=<users_pets id>&direction=&head_direction=&action=
//       &size=&animated=&img_format=gif&bg=&zoom=
// 400 text/plain for a missing or malformed figure or id; 404 for a pet that is not there (no such id, a type
// without a library, pets off); 429 + Retry-After over the client's render rate; 503 + Retry-After when it
// cannot be drawn now (no upstream pet imager to redirect to). A request body is never read. Answers are logged
// in the avatar route's line format.
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
import { type PetAnswer, type PetService } from '../../core/pet/index.js';

/** The pet picture's path (ours: no peer imager defines one). */
export const PET_PATH = '/habbo-imaging/pet.png';

export interface PetHandlerOptions extends RawRouteContext {
  service: PetService;
}

/** The HTTP response of a pet answer (and the cache tier, for the log). */
export function petResponse(answer: PetAnswer, ifNoneMatch: string | undefined): [HttpResponse, string | null] {
  if (answer.kind === 'text') {
    const extra: Record<string, string> = {};
    if (answer.retryAfterS !== undefined) extra['retry-after'] = String(answer.retryAfterS);
    return [textResponse(answer.status, answer.reason, extra), null];
  }
  return [imageResponse(answer.image, answer.cacheControl, answer.source, ifNoneMatch), answer.source];
}

/** Returns the request listener for the pet path; it reports false for every other request. */
export function createPetHandler(opts: PetHandlerOptions): RawRoute {
  const { service } = opts;
  const handle = imagePathHandler(opts);
  return (req, res) => {
    const url = req.url ?? '';
    const rest = pathAfter(url, PET_PATH);
    if (rest !== '') return false;
    handle(req, res, url, async (client) =>
      petResponse(await service.answer(queryOf(url), client), rawHeader(req.rawHeaders, 'if-none-match')),
    );
    return true;
  };
}
