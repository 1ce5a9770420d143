// The pet picture's query, read once into a structured request:
//   ?figure=<the client's pet figure string> | id=<users_pets id>
//    &direction=&head_direction=&action=<posture>[,<gesture>]&size=s|m|l&animated=1&img_format=gif&bg=&zoom=
// Every parameter but the identity is read with the helper the avatar (or room) parameter of the same name is
// read with, so a value means the same on every image path: directions wrap, the boolean rule, `size` as the
// avatar's, `bg` and `zoom` as the furni and room URLs'. Only a missing or malformed identity is a 400; an
// unknown or malformed value of any other parameter is its default.
import {
  parseBoolean,
  parseDirection,
  parseImageFormat,
  parseSize,
  type AvatarFormat,
  type AvatarSize,
} from '../../avatar/request.js';
import { type FlatColor, parseBackgroundColor, parseZoom } from '../../imaging/image.js';
import {
  MAX_PET_FIGURE_LENGTH,
  type PetFigure,
  PetFigureError,
  parsePetFigure,
  petFigureString,
} from '../../pet/figure.js';

/** The largest pet id read (Arcturus keeps `users_pets.id` in a signed INT). */
export const MAX_PET_ID = 2_147_483_647;
/** Action tokens read: a posture and a gesture are two; a few more leave room for unknown ones first. */
export const MAX_PET_ACTIONS = 8;
/** The avatar's default direction (the client's pet faces the same way in the catalogue). */
const DEFAULT_DIRECTION = 2;

export type PetIdentity = { kind: 'figure'; figure: PetFigure } | { kind: 'id'; id: number };

export interface PetRequest {
  identity: PetIdentity;
  direction: number;
  headDirection: number;
  /**
   * The action tokens (lower case, in the order sent, repeats dropped); empty when none was sent (a figure's
   * pet then stands, an id's pet shows its stored posture).
   */
  actions: string[];
  size: AvatarSize;
  /** `animated=1`, or a GIF (which shows the loop, as the avatar's `img_format=gif` does). */
  animated: boolean;
  format: AvatarFormat;
  background?: FlatColor;
  /** 2–4; absent = 1. */
  zoom?: number;
}

export type PetParse = { ok: true; req: PetRequest } | { ok: false; reason: string };

/** Name → the first value sent under it (a repeated parameter uses its first value, as on the avatar paths). */
function firstValues(query: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(query)) if (!out.has(name)) out.set(name, value);
  return out;
}

/** `action=`: a comma list of the library's posture and gesture names; anything not a plain name is dropped. */
export function parsePetActions(value: string | undefined): string[] {
  const out: string[] = [];
  for (const raw of (value ?? '').split(',')) {
    const token = raw.trim().toLowerCase();
    if (!/^[a-z0-9_.-]{1,32}$/.test(token) || out.includes(token)) continue;
    out.push(token);
    if (out.length === MAX_PET_ACTIONS) break;
  }
  return out;
}

const USAGE = 'use figure=<pet figure string> (type palette colour, e.g. "0 0 ffffff" for a dog) or id=<users_pets id>';

/** Reads a raw query string into a pet request, or the 400's reason (text ending in a newline). */
export function parsePetQuery(query: string): PetParse {
  const p = firstValues(query);
  const figureText = p.get('figure');
  const idText = p.get('id');
  let identity: PetIdentity;
  if (figureText !== undefined && figureText.trim() !== '') {
    // The figure wins over an id, as an avatar's figure wins over its user.
    if (figureText.length > MAX_PET_FIGURE_LENGTH)
      return { ok: false, reason: `bad pet figure: a pet figure is at most ${MAX_PET_FIGURE_LENGTH} characters\n` };
    try {
      identity = { kind: 'figure', figure: parsePetFigure(figureText) };
    } catch (err) {
      if (!(err instanceof PetFigureError)) throw err;
      return { ok: false, reason: `bad pet figure: ${err.message}; ${USAGE}\n` };
    }
  } else if (idText !== undefined && idText.trim() !== '') {
    const t = idText.trim();
    if (!/^[1-9][0-9]{0,9}$/.test(t) || Number(t) > MAX_PET_ID)
      return { ok: false, reason: `bad pet id ${JSON.stringify(idText)}: a users_pets id is a whole number ≥ 1\n` };
    identity = { kind: 'id', id: Number(t) };
  } else {
    return { ok: false, reason: `missing required parameter: ${USAGE}\n` };
  }
  const direction = parseDirection(p.get('direction'), DEFAULT_DIRECTION);
  const format = parseImageFormat(p.get('img_format'));
  const req: PetRequest = {
    identity,
    direction,
    headDirection: parseDirection(p.get('head_direction'), direction),
    actions: parsePetActions(p.get('action')),
    size: parseSize(p.get('size')),
    animated: parseBoolean(p.get('animated')) || format === 'gif',
    format,
  };
  const background = parseBackgroundColor(p.get('bg'));
  if (background) req.background = background;
  const zoom = parseZoom(p.get('zoom'), 1);
  if (zoom > 1) req.zoom = zoom;
  return { ok: true, req };
}

/**
 * One spelling per picture: the figure as the client writes it (`petFigureString`) and every parameter's
 * meaning, so URLs that differ only in spelling (`size=`, `size=l`, `animated=yes`) share a key. `actions` are
 * the ones the picture is drawn with (an id's stored posture when none was sent).
 */
export function canonicalPetRequest(figure: PetFigure, req: PetRequest, actions: readonly string[]): string {
  const bg = req.background;
  return [
    `figure=${petFigureString(figure)}`,
    `direction=${req.direction}`,
    `head_direction=${req.headDirection}`,
    `action=${actions.join(',')}`,
    `size=${req.size}`,
    `animated=${req.animated ? 1 : 0}`,
    `format=${req.format}`,
    `bg=${bg ? `${bg.rgb.toString(16).padStart(6, '0')}/${bg.alpha}` : '-'}`,
    `zoom=${req.zoom ?? 1}`,
  ].join('&');
}
