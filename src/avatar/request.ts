// The avatar render request as the HTTP service hands it over, plus the canonical forms of the two
// free-text parameters (`action`, `gesture`). Canonical strings are part of the service's cache key, so
// they must be stable: same meaning → same string.

export type AvatarSize = 's' | 'm' | 'l';

export interface AvatarRequest {
  figure: string;
  /** Body direction 0-7 (callers may pass any integer; it is wrapped). */
  direction: number;
  /** Head direction 0-7 (wrapped like direction). Ignored for `lay` and when an action prevents head turn. */
  headDirection: number;
  size: AvatarSize;
  /** Raw comma list from the query; '' = std. */
  action: string;
  /** Raw gesture from the query; '' = std. */
  gesture: string;
  headOnly: boolean;
  animated: boolean;
  /** 0 = the whole loop, else 1-24 (larger values clamp to 24). */
  frames: number;
  /** Output encoding: PNG/APNG (the default) or GIF (see output.ts). */
  format?: AvatarFormat;
  /** Show only this frame of the loop (any integer, wrapped modulo the loop's length); see output.ts. */
  frameNum?: number;
  /** Avatar effect id of the hotel's EffectMap (`effect=`); absent or 0 = none. */
  effect?: number;
  /** Dance 1-4 (`dance=`); absent or 0 = none. An `action=dance.N` token means the same. */
  dance?: number;
}

export type AvatarFormat = 'png' | 'gif';

/** Pose tokens of the spec, in canonical order (strongest posture first). */
const PLAIN_TOKENS = ['lay', 'sit', 'wlk', 'respect', 'wav', 'blow', 'laugh', 'dance', 'spk', 'sleep'] as const;
/** Held-item tokens: `<token>=<sprite id>`. */
const ITEM_TOKENS = ['drk', 'crr', 'sig'] as const;
const ALIASES: Record<string, string> = { carry: 'crr', use: 'drk', sign: 'sig' };
/** Item ids are sprite ids in `hh_human_item`; anything longer than this is out of range. */
const MAX_ITEM_ID_DIGITS = 5;

export type ItemToken = (typeof ITEM_TOKENS)[number];
export type PlainToken = (typeof PLAIN_TOKENS)[number];

export interface ParsedAction {
  plain: Set<PlainToken>;
  /** Held item per item token, id as given (no translation through the actions' param tables). */
  items: Map<ItemToken, number>;
  /** `dance.N` (1-4): the dance loop N; the plain `dance` token is the spec's still. */
  dance?: number;
}

function isPlain(t: string): t is PlainToken {
  return (PLAIN_TOKENS as readonly string[]).includes(t);
}
function isItem(t: string): t is ItemToken {
  return (ITEM_TOKENS as readonly string[]).includes(t);
}

/** Parses a raw action list; unknown tokens and held items with a bad id are dropped. */
export function parseAction(raw: string): ParsedAction {
  const plain = new Set<PlainToken>();
  const items = new Map<ItemToken, number>();
  let dance: number | undefined;
  for (const piece of String(raw ?? '').split(',')) {
    const tok = piece.trim().toLowerCase();
    if (!tok) continue;
    const eq = tok.indexOf('=');
    let name = eq >= 0 ? tok.slice(0, eq).trim() : tok;
    const param = eq >= 0 ? tok.slice(eq + 1).trim() : '';
    name = ALIASES[name] ?? name;
    if (isItem(name)) {
      // Non-numeric or out-of-range id: the empty-handed pose, i.e. the token is dropped.
      if (!new RegExp(`^[0-9]{1,${MAX_ITEM_ID_DIGITS}}$`).test(param)) continue;
      if (!items.has(name)) items.set(name, Number(param));
      continue;
    }
    if (isPlain(name)) plain.add(name);
    else if (dance === undefined && /^dance\.[1-4]$/.test(name)) dance = Number(name.slice(6));
  }
  return dance === undefined ? { plain, items } : { plain, items, dance };
}

export function formatAction(a: ParsedAction): string {
  const out: string[] = [];
  for (const t of ['lay', 'sit', 'wlk', 'drk', 'respect', 'wav', 'crr', 'sig', 'blow', 'laugh', 'dance', 'spk', 'sleep'] as const) {
    if (isItem(t)) {
      const id = a.items.get(t);
      if (id !== undefined) out.push(`${t}=${id}`);
    } else if (t === 'dance' && a.dance !== undefined) out.push(`dance.${a.dance}`);
    else if (a.plain.has(t)) out.push(t);
  }
  return out.length > 0 ? out.join(',') : 'std';
}

/** Canonical token list ("sit,wav,crr=2"): unknown tokens dropped, duplicates merged, 'std' if none. */
export function normalizeAction(raw: string): string {
  return formatAction(parseAction(raw));
}

export const GESTURES = ['std', 'sml', 'sad', 'agr', 'srp', 'spk', 'eyb'] as const;
export type Gesture = (typeof GESTURES)[number];

/** One of the spec's gestures; `nor` and anything unrecognised → 'std'. */
export function normalizeGesture(raw: string): Gesture {
  const g = String(raw ?? '').trim().toLowerCase();
  return (GESTURES as readonly string[]).includes(g) ? (g as Gesture) : 'std';
}

/** Directions wrap: 9 → 1, -1 → 7. Non-integers are truncated; non-numbers give `fallback`. */
export function wrapDirection(d: number, fallback = 2): number {
  if (!Number.isFinite(d)) return fallback;
  const i = Math.trunc(d);
  return ((i % 8) + 8) % 8;
}

/** Frames cap: 0 = whole loop, 1-24, larger values clamp to 24. */
export function clampFrames(n: number): number {
  if (!Number.isFinite(n) || n <= 0) return 0;
  return Math.min(24, Math.floor(n));
}

/** `effect=`: leading digits as `parseInt` reads them (as the peer imagers do); anything else or 0 is none. */
export function parseEffectId(raw: string | undefined): number {
  const m = /^\s*\+?(\d{1,9})/.exec(String(raw ?? ''));
  return m ? Number(m[1]) : 0;
}

/** `dance=`: 1-4, read like `effect`; anything else is none. */
export function parseDanceId(raw: string | undefined): number {
  const n = parseEffectId(raw);
  return n >= 1 && n <= 4 ? n : 0;
}
