// The badge routes' URLs, read into a code and a format. The badge route (server/badge/) owns the paths and
// hands over what follows its path (the rest) and the query:
//   /<code>[<hash>][.png|.gif]   the official imager's form (hash: 32 hex, ignored)
//   /?b=<code>[…]                what retro scripts send (also with an empty rest: no slash)
// The badge-fill path takes the same forms and draws the same badge on opaque white (the game client's
// group_logo_url_template; Havana, Minerva).
// The path's code wins over `b`; other query parameters are ignored (a code names one picture, so
// cache-busters share its entry). No extension is PNG.
import {
  MAX_BADGE_PARTS,
  parseBadgeCode,
  type BadgeCodePart,
  type BadgeFormat,
  type BadgeLayout,
} from '../../badge/index.js';

/** The route a badge request came by: its path (which a 404 for a missing code names) and whether it fills. */
export interface BadgeRoute {
  path: string;
  fill: boolean;
}

export type BadgeRequest =
  | { ok: true; parts: BadgeCodePart[]; layout: BadgeLayout; format: BadgeFormat; code: string; fill: boolean }
  | { ok: false; status: 400 | 404; reason: string };

function firstB(query: string): string | undefined {
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    if (name !== 'b') continue;
    try {
      return decodeURIComponent((eq < 0 ? '' : pair.slice(eq + 1)).replace(/\+/g, ' '));
    } catch {
      return '\uFFFD'; // a malformed escape: not a code
    }
  }
  return undefined;
}

/**
 * Reads a badge URL: `rest` is the path after the route's path (`/…` or empty), `query` the raw query
 * string, `route` the route it came by.
 */
export function parseBadgeRequest(rest: string, query: string, route: BadgeRoute): BadgeRequest {
  const { fill } = route;
  let text: string | undefined;
  if (rest.length > 1) {
    try {
      text = decodeURIComponent(rest.slice(1));
    } catch {
      return { ok: false, status: 404, reason: `the path ${JSON.stringify(rest)} has a malformed %-escape\n` };
    }
    if (text.includes('/')) return { ok: false, status: 404, reason: 'not found: a badge code has no "/"\n' };
  } else {
    text = firstB(query);
  }
  if (text === undefined || text === '') {
    const { path } = route;
    return {
      ok: false,
      status: 404,
      reason: `no badge code: use ${path}/<code>.png (or .gif), or ${path}/?b=<code>\n`,
    };
  }
  let format: BadgeFormat = 'png';
  const ext = /\.([a-z0-9]{1,5})$/i.exec(text);
  if (ext) {
    const e = ext[1]!.toLowerCase();
    if (e !== 'png' && e !== 'gif')
      return { ok: false, status: 404, reason: `unsupported extension .${ext[1]}: badges are .png or .gif\n` };
    format = e;
    text = text.slice(0, -ext[0].length);
  }
  const parsed = parseBadgeCode(text);
  if (!parsed.ok) return { ok: false, status: 404, reason: `${parsed.reason}\n` };
  if (parsed.parts.length > MAX_BADGE_PARTS) {
    return {
      ok: false,
      status: 400,
      reason: `a badge has at most ${MAX_BADGE_PARTS} parts; this code has ${parsed.parts.length}\n`,
    };
  }
  return {
    ok: true,
    parts: parsed.parts,
    layout: parsed.layout,
    format,
    code: parsed.hash ? text.slice(0, -parsed.hash.length) : text,
    fill,
  };
}
