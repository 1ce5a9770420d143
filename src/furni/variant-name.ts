// The reserved parameterised filenames of contract F2.6, parsed and written one way only: every image has
// exactly one spelling, so a cache (ours, a CDN's, a browser's) never holds one picture under two names.
//
//   <classname>__<tags>.png | <classname>.apng | <classname>__<tags>.apng
//   tags, in this order, each at most once, joined by `_`:  s32  st<n>  d<n>  f<n>
//
// Canonical: a number is `0` or has no leading zero (at most 6 digits); the size tag is only `s32`
// (64 is the default and is never written); `f0` is never written (frame 0 is the default); `.apng`
// plays the loop, so it takes no `f`. A name that breaks a rule is not a variant (the service answers 404).

/** What a reserved name asks for; absent state/direction mean the still's choice (contract F2.2). */
export interface VariantRequest {
  size: 64 | 32;
  state?: number;
  direction?: number;
  /** Index of a distinct frame of the state's loop (0 = the first). */
  frame: number;
  /** `.apng`: the whole loop. */
  animated: boolean;
}

export interface VariantName {
  /** The classname, colour suffix included (`chair*4`). */
  classname: string;
  variant: VariantRequest;
}

/** Tag keys in their one allowed order. */
const ORDER = ['s', 'st', 'd', 'f'] as const;
const TAG = /^(st|s|d|f)(0|[1-9]\d{0,5})$/;
/** Where the tags start: the last `__` followed by nothing but tag-shaped text. */
const TAIL = /__((?:st|s|d|f)\d+(?:_(?:st|s|d|f)\d+)*)$/;

/**
 * The variant a decoded filename (`kit_chair_4dir__d4.png`) names, or undefined when it is not a
 * canonical reserved name (a default name such as `x.png` is not a variant either).
 */
export function parseVariantName(name: string): VariantName | undefined {
  let stem: string;
  let animated: boolean;
  if (name.endsWith('.apng')) {
    stem = name.slice(0, -5);
    animated = true;
  } else if (name.endsWith('.png')) {
    stem = name.slice(0, -4);
    animated = false;
  } else return undefined;
  const m = TAIL.exec(stem);
  const classname = m ? stem.slice(0, m.index) : stem;
  if (classname === '') return undefined;
  if (!m) return animated ? { classname, variant: { size: 64, frame: 0, animated } } : undefined;
  const v: VariantRequest = { size: 64, frame: 0, animated };
  let last = -1;
  for (const tag of m[1]!.split('_')) {
    const t = TAG.exec(tag);
    if (!t) return undefined;
    const key = t[1] as (typeof ORDER)[number];
    const order = ORDER.indexOf(key);
    if (order <= last) return undefined; // out of order or repeated
    last = order;
    const n = Number(t[2]);
    if (key === 's') {
      if (n !== 32) return undefined;
      v.size = 32;
    } else if (key === 'st') v.state = n;
    else if (key === 'd') v.direction = n;
    else {
      if (n === 0 || animated) return undefined;
      v.frame = n;
    }
  }
  return { classname, variant: v };
}

/** The one filename of a variant (the inverse of parseVariantName). */
export function variantFileName(classname: string, v: VariantRequest): string {
  const tags: string[] = [];
  if (v.size === 32) tags.push('s32');
  if (v.state !== undefined) tags.push(`st${v.state}`);
  if (v.direction !== undefined) tags.push(`d${v.direction}`);
  if (!v.animated && v.frame > 0) tags.push(`f${v.frame}`);
  return `${classname}${tags.length ? `__${tags.join('_')}` : ''}.${v.animated ? 'apng' : 'png'}`;
}
