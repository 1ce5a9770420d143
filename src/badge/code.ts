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
  /** Grid position 0-9 (0-8 are the 3×3 cells; 9 is where the client's arithmetic puts it). */
  position: number;
  /** The part's text in the code. */
  text: string;
}

export type BadgeCodeResult = { ok: true; parts: BadgeCodePart[]; hash?: string } | { ok: false; reason: string };

/** A badge of more parts than this is refused (400): real badges have at most five. */
export const MAX_BADGE_PARTS = 20;

const PART = /([bst])(\d+)/y;
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
      // `b0503X…`: the web-group badges of the Shockwave years, drawn from another part set.
      const shockwave =
        code[at] === 'X' ? ' (an X position is the Shockwave-era web badge format, not a guild badge)' : '';
      return {
        error:
          at === 0
            ? `it does not start with a part (b, s or t and digits), found ${found}`
            : `after ${parts.length} part(s), ${found} is not a part (b, s or t and digits)${shockwave}`,
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
    parts.push({
      letter,
      kind: letter === 'b' ? 'base' : 'symbol',
      id: letter === 't' ? id + 100 : id,
      color,
      position,
      text,
    });
    at += text.length;
  }
  if (parts.length === 0) return { error: 'it is empty' };
  return { parts };
}

/**
 * Reads a badge code (without any file extension): its parts, or why it is not a badge code. A trailing
 * 32-hex hash is dropped when the rest is a code (a text that is parts throughout is read whole first, so
 * digits and `b`s at its end are never mistaken for a hash).
 */
export function parseBadgeCode(code: string): BadgeCodeResult {
  const whole = readParts(code);
  if ('parts' in whole) return { ok: true, parts: whole.parts };
  if (code.length > HASH_LENGTH && /^[0-9a-f]+$/i.test(code.slice(-HASH_LENGTH))) {
    const rest = readParts(code.slice(0, -HASH_LENGTH));
    if ('parts' in rest) return { ok: true, parts: rest.parts, hash: code.slice(-HASH_LENGTH) };
  }
  return {
    ok: false,
    reason: `${JSON.stringify(code.length > 80 ? code.slice(0, 80) + '…' : code)} is not a badge code: ${whole.error}`,
  };
}

/** The parts as one canonical text (every spelling of the same parts gives the same text). */
export function canonicalParts(parts: readonly BadgeCodePart[]): string {
  return parts.map((p) => `${p.kind === 'base' ? 'b' : 's'}${p.id}.${p.color}.${p.position}`).join(';');
}
