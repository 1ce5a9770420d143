// /habbo-imaging/avatarimage/convert?figure=<pre-v18 numeric figure> → {"figure": "<figure string>"}, the
// JSON Minerva answers there (Quackster/Minerva `FigureController.Convert`), on Node's handler beside the
// avatar route and with its method rules: GET and HEAD the answer, OPTIONS the preflight, others 405. A
// figure that is not 25 digits, or a hotel without the old figure list, is a 404 with the reason (Minerva
// answers 500 with the exception's text). The answer follows the hotel's data, which a reload may change,
// so it is cached for an hour, not for ever.
import { pathOf, queryOf } from '../../http/request-target.js';
import { rawHeader } from '../../http/client-address.js';
import {
  clientOf,
  IMAGE_ALLOW,
  IMAGE_PREFLIGHT,
  jsonResponse,
  methodNotAllowed,
  preflightResponse,
  textResponse,
  writeResponse,
  type RawRoute,
  type RawRouteContext,
} from '../../http/respond.js';
import { type LegacyFigures } from '../../core/avatar/legacy-figures.js';

export const CONVERT_PATH = '/habbo-imaging/avatarimage/convert';
const CONVERT_CACHE_CONTROL = 'public, max-age=3600';

export interface ConvertHandlerOptions extends RawRouteContext {
  legacy: LegacyFigures;
}

function figureParam(url: string): string | undefined {
  try {
    return new URLSearchParams(queryOf(url)).get('figure') ?? undefined;
  } catch {
    return undefined;
  }
}

export function createConvertHandler(opts: ConvertHandlerOptions): RawRoute {
  return (req, res) => {
    const url = req.url ?? '';
    if (pathOf(url) !== CONVERT_PATH) return false;
    const started = performance.now();
    const reqId = opts.nextId();
    const client = clientOf(req, opts.trustProxy);
    const method = req.method ?? '';
    let r;
    if (method === 'GET' || method === 'HEAD') {
      const figure = figureParam(url);
      const converted =
        figure === undefined || figure === ''
          ? { ok: false as const, reason: `no figure: use ${CONVERT_PATH}?figure=<25 digits>` }
          : opts.legacy.convert(figure);
      r = converted.ok
        ? jsonResponse({ figure: converted.figure }, CONVERT_CACHE_CONTROL, rawHeader(req.rawHeaders, 'if-none-match'))
        : textResponse(404, `${converted.reason}\n`);
    } else if (method === 'OPTIONS') {
      r = preflightResponse(IMAGE_PREFLIGHT, rawHeader(req.rawHeaders, 'access-control-request-headers'));
    } else r = methodNotAllowed(IMAGE_ALLOW);
    const bytes = writeResponse(req, res, r);
    opts.done(reqId, method, url, r.status, bytes, started, null, client);
    return true;
  };
}
