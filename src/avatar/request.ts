// Step 1 of the avatar path (request → plan → draw): what a query means. `normalizeRequest` is the only
// place a query value gets its meaning: directions wrap, sizes and frame caps clamp, the action list is
// parsed once into an `AvatarAction` (aliases and tokens made canonical) that the plan and the render
// inputs read as it is, `dance` and `action=dance.N` become one dance, `img_format=gif` and `frame_num`
// ask for the loop as `animated=1` does, `gender`, `crop`, `bg` and `zoom` join only when they change
// something, and `keyedPairs` says which parameters join the cache key
// (contract A4.1 and A8.1, docs/contract.md). Canonical strings are part of the service's cache key and
// of the fallback's URL, so they must be stable: same meaning → same string.
import { parseBackgroundColor, parseZoom, type FlatColor } from '../imaging/image.js';

export type AvatarSize = 's' | 'm' | 'l';

/** A normalized avatar request: every field already holds its one meaning (see `normalizeRequest`). */
export interface AvatarRequest {
  figure: string;
  /** Body direction 0-7. */
  direction: number;
  /** Head direction 0-7. Ignored for `lay` and when an action prevents head turn. */
  headDirection: number;
  size: AvatarSize;
  /** The action list, parsed once (`parseAction`); its `text` is the canonical form. */
  action: AvatarAction;
  /** Canonical gesture (`normalizeGesture`). */
  gesture: string;
  headOnly: boolean;
  /** Show the pose's loop (asked by `animated`, by `img_format=gif` or by `frame_num`). */
  animated: boolean;
  /** 0 = the whole loop, else 1-MAX_FRAMES. */
  frames: number;
  /** Output encoding: PNG/APNG (the default) or GIF (see output.ts). */
  format?: AvatarFormat;
  /** Show only this frame of the loop (any integer, wrapped modulo the loop's length); see output.ts. */
  frameNum?: number;
  /** Avatar effect id of the hotel's EffectMap (`effect=`); absent = none. */
  effect?: number;
  /** Dance 1-4 (`dance=`, or an `action=dance.N` token); absent = none. */
  dance?: number;
  /** `gender=M|F`: the gender whose mandatory defaults fill what the figure leaves open; absent = the figure's own. */
  gender?: AvatarGender;
  /** Which layers are drawn (set by the effect and hand-item paths, never by a query); absent = every layer. */
  part?: AvatarPart;
  /** `crop=1`: trimmed to the visible pixels of every frame; absent = the spec's fixed canvas. */
  crop?: true;
  /** `bg=`: the colour every frame is put on (`parseBackgroundColor`); absent = transparent. */
  background?: FlatColor;
  /** `zoom=2..4`: a nearest-neighbour enlargement of the finished image; absent = 1. */
  zoom?: number;
}

/** A normalized request before the figure is known (a `user` request is looked up first). */
export type AvatarPose = Omit<AvatarRequest, 'figure'>;

export type AvatarFormat = 'png' | 'gif';

export type AvatarGender = 'M' | 'F';

/**
 * The layers an image draws, as vortex-imager's `part` (`AvatarRequest.readPart`): `effect` an effect's own
 * sprites (those around the avatar and those its layers put in place of a part, drawn from an effect
 * library), `hand` the held item (the `ri`/`li` part of `crr`, `drk`, `sig`). Every other layer is dropped
 * from the plan, so what is left sits exactly where the whole avatar's image has it.
 */
export type AvatarPart = 'effect' | 'hand';

/** Pose tokens of the spec, in canonical order (strongest posture first). */
const PLAIN_TOKENS = ['lay', 'sit', 'wlk', 'respect', 'wav', 'blow', 'laugh', 'dance', 'spk', 'sleep'] as const;
/** Held-item tokens: `<token>=<sprite id>`. */
const ITEM_TOKENS = ['drk', 'crr', 'sig'] as const;
const ALIASES: Record<string, string> = { carry: 'crr', use: 'drk', sign: 'sig' };
/** Item ids are sprite ids in `hh_human_item`; anything longer than this is out of range. */
const MAX_ITEM_ID_DIGITS = 5;

export type ItemToken = (typeof ITEM_TOKENS)[number];
export type PlainToken = (typeof PLAIN_TOKENS)[number];

/**
 * What `action=` means, decided once by `parseAction` and passed on as this: the pose reads its tokens, the
 * render inputs its held items; `text` is the memo key of poses and render inputs and the fallback's value.
 */
export interface AvatarAction {
  readonly plain: ReadonlySet<PlainToken>;
  /** Held item per item token, id as given (no translation through the actions' param tables). */
  readonly items: ReadonlyMap<ItemToken, number>;
  /** `dance.N` (1-4): the dance loop N; the plain `dance` token is the spec's still. */
  readonly dance?: number;
  /** Canonical token list ("sit,wav,crr=2"): tokens in the spec's order, duplicates merged, 'std' if none. */
  readonly text: string;
}

function isPlain(t: string): t is PlainToken {
  return (PLAIN_TOKENS as readonly string[]).includes(t);
}
function isItem(t: string): t is ItemToken {
  return (ITEM_TOKENS as readonly string[]).includes(t);
}

/** Parses a raw action list; unknown tokens and held items with a bad id are dropped. */
export function parseAction(raw: string): AvatarAction {
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
  return actionOf(plain, items, dance);
}

function actionOf(plain: Set<PlainToken>, items: Map<ItemToken, number>, dance: number | undefined): AvatarAction {
  const text = formatAction(plain, items, dance);
  return dance === undefined ? { plain, items, text } : { plain, items, dance, text };
}

/** The same action without one of its plain tokens (the head-only crop draws a lying avatar upright). */
export function withoutToken(action: AvatarAction, token: PlainToken): AvatarAction {
  if (!action.plain.has(token)) return action;
  const plain = new Set(action.plain);
  plain.delete(token);
  return actionOf(plain, new Map(action.items), action.dance);
}

function formatAction(
  plain: ReadonlySet<PlainToken>,
  items: ReadonlyMap<ItemToken, number>,
  dance: number | undefined,
): string {
  const out: string[] = [];
  for (const t of [
    'lay',
    'sit',
    'wlk',
    'drk',
    'respect',
    'wav',
    'crr',
    'sig',
    'blow',
    'laugh',
    'dance',
    'spk',
    'sleep',
  ] as const) {
    if (isItem(t)) {
      const id = items.get(t);
      if (id !== undefined) out.push(`${t}=${id}`);
    } else if (t === 'dance' && dance !== undefined) out.push(`dance.${dance}`);
    else if (plain.has(t)) out.push(t);
  }
  return out.length > 0 ? out.join(',') : 'std';
}

/** Canonical token list ("sit,wav,crr=2"): unknown tokens dropped, duplicates merged, 'std' if none. */
export function normalizeAction(raw: string): string {
  return parseAction(raw).text;
}

export const GESTURES = ['std', 'sml', 'sad', 'agr', 'srp', 'spk', 'eyb'] as const;
export type Gesture = (typeof GESTURES)[number];

/** One of the spec's gestures; `nor` and anything unrecognised → 'std'. */
export function normalizeGesture(raw: string): Gesture {
  const g = String(raw ?? '')
    .trim()
    .toLowerCase();
  return (GESTURES as readonly string[]).includes(g) ? (g as Gesture) : 'std';
}

/**
 * Directions wrap: 9 → 1, -1 → 7. Non-integers are truncated; non-numbers give `fallback`. (Also turns by an effect's
 * offset.)
 */
export function wrapDirection(d: number, fallback = 2): number {
  if (!Number.isFinite(d)) return fallback;
  const i = Math.trunc(d);
  return ((i % 8) + 8) % 8;
}

/** Most frames a request may cap a loop at (`frames=`). */
export const MAX_FRAMES = 24;

/** Frames cap: 0 = whole loop, 1-MAX_FRAMES, larger values clamp to MAX_FRAMES. */
export function clampFrames(n: number): number {
  if (!Number.isFinite(n) || n <= 0) return 0;
  return Math.min(MAX_FRAMES, Math.floor(n));
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

const TRUE_VALUES = new Set(['1', 'true', 'yes', 'on']);
const DEFAULT_DIRECTION = 2;

/** 1/true/yes/on (any case) are true; everything else, including 0/false/no/off and empty, is false. */
export function parseBoolean(value: string | undefined): boolean {
  return value !== undefined && TRUE_VALUES.has(value.trim().toLowerCase());
}

/** Integers wrap into 0-7 (9 → 1, -1 → 7); anything non-integer gives the fallback. */
export function parseDirection(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const text = value.trim();
  if (!/^[+-]?\d{1,15}$/.test(text)) return fallback;
  return wrapDirection(Number(text));
}

/** s, m, l; b is m; absent or empty is l; any other value is m. */
export function parseSize(value: string | undefined): AvatarSize {
  if (value === undefined || value === '') return 'l';
  if (value === 's' || value === 'm' || value === 'l') return value;
  return 'm';
}

/** 1-MAX_FRAMES, above clamps to MAX_FRAMES; 0, absent, negative or non-numeric mean the whole loop (0). */
export function parseFrames(value: string | undefined): number {
  if (value === undefined) return 0;
  const text = value.trim();
  if (!/^[+-]?\d+$/.test(text)) return 0;
  return clampFrames(Number(text));
}

/** `gif` (trimmed, any case) is GIF; every other value keeps PNG, as the peers' imagers do. */
export function parseImageFormat(value: string | undefined): AvatarFormat {
  return value !== undefined && value.trim().toLowerCase() === 'gif' ? 'gif' : 'png';
}

/**
 * `frame_num`: any integer, negative too (wrapped modulo the loop's length when rendering, so -1 is the
 * last frame, as `direction` wraps); not an integer (empty, `abc`, `2.5`) → undefined, i.e. ignored.
 */
export function parseFrameNum(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (!/^[+-]?\d{1,15}$/.test(text)) return undefined;
  return Number(text);
}

/** `gender`: `M` or `F` (trimmed, any case), as vortex-imager's `readGender`; anything else leaves the figure's own. */
export function parseGender(value: string | undefined): AvatarGender | undefined {
  const g = value?.trim().toUpperCase();
  return g === 'M' || g === 'F' ? g : undefined;
}

/** The query's values by name (the first of a repeated name): what `normalizeRequest` reads. */
export type AvatarQuery = ReadonlyMap<string, string>;

/**
 * The meaning of every avatar parameter but the identity (contract A4.1, docs/contract.md). Unknown
 * values never reject: they take the default. A GIF or a `frame_num` shows the pose's loop as `animated=1`
 * does (`frame_num` always of the whole loop, whatever `frames` says); effects and dances join only when
 * asked for, so every other request is what it always was.
 */
export function normalizeRequest(query: AvatarQuery): AvatarPose {
  const direction = parseDirection(query.get('direction'), DEFAULT_DIRECTION);
  const action = parseAction(query.get('action') ?? '');
  const format = parseImageFormat(query.get('img_format'));
  const frameNum = parseFrameNum(query.get('frame_num'));
  const pose: AvatarPose = {
    direction,
    headDirection: parseDirection(query.get('head_direction'), direction),
    size: parseSize(query.get('size')),
    action,
    gesture: normalizeGesture(query.get('gesture') ?? ''),
    headOnly: parseBoolean(query.get('headonly')),
    animated: parseBoolean(query.get('animated')) || format === 'gif' || frameNum !== undefined,
    frames: frameNum !== undefined ? 0 : parseFrames(query.get('frames')),
    format,
  };
  if (frameNum !== undefined) pose.frameNum = frameNum;
  const effect = parseEffectId(query.get('effect'));
  if (effect > 0) pose.effect = effect;
  // `dance=N` wins over an `action=dance.N` token; either is the same dance.
  const dance = parseDanceId(query.get('dance')) || action.dance;
  if (dance) pose.dance = dance;
  // Output parameters join only when they change something, so every other request is what it always was.
  const gender = parseGender(query.get('gender'));
  if (gender) pose.gender = gender;
  if (parseBoolean(query.get('crop'))) pose.crop = true;
  const background = parseBackgroundColor(query.get('bg'));
  if (background !== undefined) pose.background = background;
  // The furni and room URLs' reading: a size-l lay canvas at 4× is 880 × 512 pixels, 1.8 MB a frame.
  const zoom = parseZoom(query.get('zoom'), 1);
  if (zoom > 1) pose.zoom = zoom;
  return pose;
}

/** The same pose drawing only one kind of layer (the effect and hand-item paths: `AvatarPart`). */
export function withPart<T extends AvatarPose>(pose: T, part: AvatarPart): T {
  return { ...pose, part };
}

/**
 * The action of vortex-imager's hand-item path (server.ts): the item `id` held in the carry pose, or in the
 * drinking pose when `drinking` (its `drk=1`), before the query's own action tokens (its item wins).
 */
export function handItemAction(id: string, drinking: boolean, action: string | undefined): string {
  const token = `${drinking ? 'drk' : 'crr'}=${id}`;
  return action ? `${token},${action}` : token;
}

/** Whether the request asks for more than the spec's avatar: a gender, one kind of layer, or a changed output. */
export function usesExtras(req: AvatarPose): boolean {
  return (
    req.gender !== undefined ||
    req.part !== undefined ||
    req.crop !== undefined ||
    req.background !== undefined ||
    req.zoom !== undefined
  );
}

/**
 * A pose that cannot animate under this crop (its loop has one frame) is the plain still, whatever
 * `animated`, `frames` or `frame_num` say: its key and bytes are the still's, in the asked format.
 */
export function settleLoop<T extends AvatarPose>(req: T, loopLength: number): T {
  if (req.animated ? loopLength > 1 : req.frames === 0) return req;
  const still = { ...req, animated: false, frames: 0 };
  delete still.frameNum;
  return still;
}

/**
 * The renderer's request for a normalized pose and its figure, settled on the pose's loop (`settleLoop`).
 * `loopOf` counts the loop (the plan's, no library loaded), asked only when the request shows a loop; a
 * figure it cannot plan counts as a still, and its render reports what is wrong.
 */
export function avatarRequest(figure: string, pose: AvatarPose, loopOf: (req: AvatarRequest) => number): AvatarRequest {
  const req: AvatarRequest = { figure, ...pose };
  let loop = 1;
  if (req.animated) {
    try {
      loop = loopOf(req);
    } catch {
      loop = 1;
    }
  }
  return settleLoop(req, loop);
}

/** Parameters that only choose frames of a loop: they join the cache key only when the pose animates. */
const LOOP_PARAMETERS = new Set(['animated', 'frames', 'frame_num']);

/**
 * What joins the cache key (contract A8.1, docs/contract.md): every parameter as sent (a reordered figure or a
 * varied ignored parameter is a new entry), except the loop parameters of a pose that does not animate,
 * so a still has one entry whatever `animated` says. `img_format` always joins (GIF and PNG differ).
 */
export function keyedPairs(pairs: readonly [string, string][], animates: boolean): [string, string][] {
  return animates ? [...pairs] : pairs.filter(([name]) => !LOOP_PARAMETERS.has(name));
}

/** Whether the request draws the hotel's effect files (an effect or a dance): its key then names them. */
export function usesEffects(req: AvatarPose): boolean {
  return !!req.effect || !!req.dance;
}
