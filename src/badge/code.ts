// Group badge codes. A code is a run of parts, each a letter and digits: `b` a base, `s` a symbol, `t` a
// symbol whose id has 100 added (the official short form's way to reach ids 100-199). The digits are read
// as the Nitro client reads them (nitro-renderer `BadgeImageManager.loadGroupBadge`):
//   5 digits  short form  id(2) colour(2) position(1)   b05114 → base 5, colour 11, position 4
//   6 digits  long form   id(3) colour(2) position(1)   s211244 → symbol 211, colour 24, position 4
//   4 digits  no position id(3) colour(1), position 0   b0511 → base 51, colour 1 (the client's slicing)
// Codes from the official site carry a 32-hex hash after the parts (`b27124s36124s05114` + hash): it is
// not part of the picture and is dropped.
//
// Where we differ from the client, on purpose: the client picks parts out of any text with a regex
// (`/[b|s][0-9]{4,6}/g`), skipping whatever lies between them (and reading a stray `|` as a symbol); we
// take a code only when it is parts from end to end (or parts + the hash), so a typo is a clear 404 rather
// than a badge of whatever parts happened to match. And the client's regex has no `t`: Nitro writes
// `t` parts (`GroupBadgePart.getCode`) but skips them when drawing; we draw them as the official imager
// does.
//
// Codes with an `X` where a position goes (`b0503Xs09114s05013s05015`, the default badge of old PHP CMS
// templates) are the Shockwave-era web groups' codes. A code holding one is read whole the way Havana's
// imager reads every code (Quackster/Badger `Badge.ParseBadgeData`, Shockwave mode; Avatara4j the same):
// 4 digits are id(2) colour(2) and no position, 5 and 6 digits as above; `X` only says "no position".
// Such a badge is laid out the Shockwave way (layout.ts `shockwavePosition`).

export type BadgePartType = 'b' | 's' | 't';

export interface BadgeCodePart {
  /** The letter as written. */
  letter: BadgePartType;
  /** `base` for b, `symbol` for s and t. */
  kind: 'base' | 'symbol';
  /** Element id in the table (t parts: the written id + 100). */
  id: number;
  /** Colour id (the table's `base_color` rows). */
  color: number;
  /**
   * Grid position 0-9 (0-8 are the 3×3 cells; 9 is where the client's arithmetic puts it); -1 in a
   * Shockwave-era code for a part without one (`X` or 4 digits).
   */
  position: number;
  /** The part's text in the code. */
  text: string;
}

/** How the parts are placed: the Nitro client's grid, or the Shockwave-era web groups' edges. */
export type BadgeLayout = 'client' | 'shockwave';

export type BadgeCodeResult =
  | { ok: true; parts: BadgeCodePart[]; layout: BadgeLayout; hash?: string }
  | { ok: false; reason: string };

/** A badge of more parts than this is refused (400): real badges have at most five. */
export const MAX_BADGE_PARTS = 20;

const PART = /([bst])(\d+)/y;
const SHOCKWAVE_PART = /([bst])(\d+)(X?)/y;
const HASH_LENGTH = 32;

function readParts(code: string): { parts: BadgeCodePart[] } | { error: string } {
  const parts: BadgeCodePart[] = [];
  PART.lastIndex = 0;
  let at = 0;
  while (at < code.length) {
    PART.lastIndex = at;
    const m = PART.exec(code);
    if (!m) {
      const found = JSON.stringify(code.slice(at, at + 12));
      return {
        error:
          at === 0
            ? `it does not start with a part (b, s or t and digits), found ${found}`
            : `after ${parts.length} part(s), ${found} is not a part (b, s or t and digits)`,
      };
    }
    const [text, letter, digits] = m as unknown as [string, BadgePartType, string];
    if (digits.length < 4 || digits.length > 6) {
      return {
        error:
          `part ${JSON.stringify(text)} has ${digits.length} digit${digits.length === 1 ? '' : 's'}; a part has ` +
          `4 to 6 (b05114, s211244)`,
      };
    }
    // nitro-renderer BadgeImageManager.loadGroupBadge: the same slices of the part's text.
    const short = text.length === 6;
    const id = parseInt(text.slice(1, short ? 3 : 4), 10);
    const color = parseInt(text.slice(short ? 3 : 4, short ? 5 : 6), 10);
    const position = text.length < 6 ? 0 : parseInt(text.slice(short ? 5 : 6, short ? 6 : 7), 10);
    parts.push(codePart(letter, id, color, position, text));
    at += text.length;
  }
  if (parts.length === 0) return { error: 'it is empty' };
  return { parts };
}

/** One part as both readings give it: a `t` part is symbol 100 + its id. */
function codePart(letter: BadgePartType, id: number, color: number, position: number, text: string): BadgeCodePart {
  return {
    letter,
    kind: letter === 'b' ? 'base' : 'symbol',
    id: letter === 't' ? id + 100 : id,
    color,
    position,
    text,
  };
}

/** A Shockwave-era code: parts of 4 digits (+ `X`), 5 or 6 digits, sliced as Badger's Shockwave mode. */
function readShockwaveParts(code: string): { parts: BadgeCodePart[] } | { error: string } {
  const parts: BadgeCodePart[] = [];
  let at = 0;
  while (at < code.length) {
    SHOCKWAVE_PART.lastIndex = at;
    const m = SHOCKWAVE_PART.exec(code);
    if (!m) {
      return { error: `after ${parts.length} part(s), ${JSON.stringify(code.slice(at, at + 12))} is not a part` };
    }
    const [text, letter, digits, x] = m as unknown as [string, BadgePartType, string, string];
    if (digits.length < 4 || digits.length > 6 || (x === 'X' && digits.length !== 4)) {
      return { error: `part ${JSON.stringify(text)} is not a Shockwave-era part (b0503X, s09114, s211244)` };
    }
    const short = digits.length < 6;
    const id = parseInt(digits.slice(0, short ? 2 : 3), 10);
    const color = parseInt(digits.slice(short ? 2 : 3, short ? 4 : 5), 10);
    const position = digits.length === 4 ? -1 : parseInt(digits.slice(-1), 10);
    parts.push(codePart(letter, id, color, position, text));
    at += text.length;
  }
  return { parts };
}

function readAny(code: string): { parts: BadgeCodePart[]; layout: BadgeLayout } | { error: string } {
  const client = readParts(code);
  if ('parts' in client) return { parts: client.parts, layout: 'client' };
  if (!/\dX/.test(code)) return client;
  const old = readShockwaveParts(code);
  return 'parts' in old ? { parts: old.parts, layout: 'shockwave' } : old;
}

/**
 * Reads a badge code (without any file extension): its parts, or why it is not a badge code. A trailing
 * 32-hex hash is dropped when the rest is a code (a text that is parts throughout is read whole first, so
 * digits and `b`s at its end are never mistaken for a hash).
 */
export function parseBadgeCode(code: string): BadgeCodeResult {
  const whole = readAny(code);
  if ('parts' in whole) return { ok: true, parts: whole.parts, layout: whole.layout };
  if (code.length > HASH_LENGTH && /^[0-9a-f]+$/i.test(code.slice(-HASH_LENGTH))) {
    const rest = readAny(code.slice(0, -HASH_LENGTH));
    if ('parts' in rest) return { ok: true, parts: rest.parts, layout: rest.layout, hash: code.slice(-HASH_LENGTH) };
  }
  return {
    ok: false,
    reason: `${JSON.stringify(code.length > 80 ? code.slice(0, 80) + '…' : code)} is not a badge code: ${whole.error}`,
  };
}

/**
 * The parts as one canonical text (every spelling of the same parts gives the same text); a Shockwave-era
 * layout is marked, so it never shares a key with the client's.
 */
export function canonicalParts(parts: readonly BadgeCodePart[], layout: BadgeLayout = 'client'): string {
  const text = parts.map((p) => `${p.kind === 'base' ? 'b' : 's'}${p.id}.${p.color}.${p.position}`).join(';');
  return layout === 'client' ? text : `${layout}:${text}`;
}
