// The furni-on-demand URLs, read once into one structured request. Two families, each read as the project
// that defined it reads it (where they disagree, docs/furni-on-demand.md says which and why). The furni route
// (server/hotel-furni/) owns the paths and hands over the query, and the vortex path form's rest:
//   Chroma's path:  ?sprite=<class or furnidata id>&direction=&rotation=&state=&color=&colour=&small=&s=
//       &icon=&shadow=&crop=&canvas=&bg=                       Quackster/Chroma, HomeController.Index
//   vortex's path:  ?class=&id=&wallitem=&extra=&direction=&size=&state=&frame=&frame_num=&color=&bg=&zoom=
//                   /<class>[.png|.gif]                       vortex-imager, FurnitureRequest.parseFurnitureRequest
// Tolerant as the avatar parameters are: a malformed value is the default, unknown parameters are ignored.
// Only the item decides 404 (no class or id, an unknown id, no bundle).
import { MAX_TICK } from '../../furni/on-demand.js';
import { parseBackgroundColor, parseZoom, type FlatColor } from '../../imaging/image.js';

/**
 * Which item: a classname (with an optional `*<colour>`), or a furnidata id (room items first, then wall; a
 * wall `poster` with vortex-imager's `extra` is that poster, as the client names it).
 */
export type FurniTarget =
  | { kind: 'class'; classname: string }
  | { kind: 'id'; id: number; wall: boolean; extra?: string };

export interface HotelFurniRequest {
  family: 'chroma' | 'vortex';
  target: FurniTarget;
  /** A sprite that may be either (Chroma's `sprite=123`): tried as a furnidata id, then as a classname. */
  alsoClass?: string;
  icon: boolean;
  size: 64 | 32;
  state?: number;
  direction?: number;
  tick: number;
  /** Undefined: the classname's own (`*n`), else 0. */
  colorId?: number;
  shadow: boolean;
  crop: boolean;
  /** 0xRRGGBB and alpha, or undefined for transparent. */
  background?: FlatColor;
  zoom: number;
}

function params(query: string): Map<string, string> {
  const out = new Map<string, string>();
  // The first of a repeated name wins, as for the avatar parameters.
  for (const [k, v] of new URLSearchParams(query)) if (!out.has(k)) out.set(k, v);
  return out;
}

/** C#'s `IsNumeric` as Chroma's Extensions define it (digits only) and int.Parse: undefined when not. */
function chromaInt(v: string | undefined): number | undefined {
  if (v === undefined || !/^[0-9]{1,9}$/.test(v)) return undefined;
  return Number(v);
}

const chromaOn = (v: string | undefined) => v === '1' || v === 'true';

/**
 * Chroma's `canvas=` (`HexToColor`): `transparent` is none; `#`-less HTML hex (RRGGBB or RGB) an opaque
 * colour; anything else Chroma's fallback FEFEFE.
 */
function chromaCanvas(v: string | undefined): FlatColor | undefined {
  if (v === undefined || v.toLowerCase() === 'transparent') return undefined;
  if (/^[0-9a-fA-F]{6}$/.test(v)) return { rgb: Number.parseInt(v, 16), alpha: 255 };
  if (/^[0-9a-fA-F]{3}$/.test(v)) return { rgb: Number.parseInt(v.replace(/(.)/g, '$1$1'), 16), alpha: 255 };
  return { rgb: 0xfefefe, alpha: 255 };
}

/** A classname as URLs give it: letters, digits, `_`, `-`, `.`, an optional `*<colour>`. */
const CLASSNAME = /^[A-Za-z0-9_.-]{1,100}(\*[0-9]{1,6})?$/;

/** Reads Chroma's query; undefined when it names no item (no `sprite=`). */
export function parseChromaQuery(query: string): HotelFurniRequest | undefined {
  const p = params(query);
  const sprite = (p.get('sprite') ?? '').trim();
  if (sprite === '') return undefined;
  let target: FurniTarget;
  let alsoClass: string | undefined;
  if (/^[0-9]{1,9}$/.test(sprite)) {
    target = { kind: 'id', id: Number(sprite), wall: false };
    alsoClass = sprite;
  } else target = { kind: 'class', classname: sprite };
  let state = chromaInt(p.get('state'));
  if (state !== undefined && state >= 101) state = 0;
  const direction = chromaInt(p.get('rotation')) ?? chromaInt(p.get('direction'));
  let color = chromaInt(p.get('colour')) ?? chromaInt(p.get('color'));
  if (color !== undefined && color >= 16) color = 0;
  const crop = p.has('crop') ? chromaOn(p.get('crop')) : true;
  return {
    family: 'chroma',
    target,
    ...(alsoClass !== undefined ? { alsoClass } : {}),
    icon: chromaOn(p.get('icon')),
    size: chromaOn(p.get('small')) || chromaOn(p.get('s')) ? 32 : 64,
    ...(state !== undefined ? { state } : {}),
    ...(direction !== undefined ? { direction } : {}),
    tick: 0,
    ...(color !== undefined ? { colorId: color } : {}),
    shadow: chromaOn(p.get('shadow')),
    crop,
    ...withBackground(chromaCanvas(p.get('canvas'))),
    zoom: 1,
  };
}

/** vortex-imager's `readNumber`: a finite number, truncated; else undefined. */
function vortexNumber(v: string | undefined): number | undefined {
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? Math.trunc(n) : undefined;
}

/** vortex-imager's `size=`: the room scale and the zoom it implies. */
const SIZES: Record<string, { size: 64 | 32; zoom: number }> = {
  s: { size: 32, zoom: 1 },
  m: { size: 64, zoom: 1 },
  l: { size: 64, zoom: 2 },
  b: { size: 64, zoom: 3 },
};

/**
 * Reads vortex-imager's query (`pathClass`: the path form's name, which is `class=`); undefined when it
 * names no item (neither `class=` nor a numeric `id=`).
 */
export function parseVortexQuery(query: string, pathClass?: string): HotelFurniRequest | undefined {
  const p = params(query);
  const cls = pathClass ?? p.get('class');
  const wall = p.get('wallitem') === '1';
  let target: FurniTarget;
  if (cls !== undefined && cls !== '') target = { kind: 'class', classname: cls };
  else {
    const id = vortexNumber(p.get('id'));
    if (id === undefined || id < 0) return undefined;
    // vortex-imager's resolveFurniture: getWallItemType(id, extra), an empty one none.
    const extra = p.get('extra');
    target = { kind: 'id', id, wall, ...(extra ? { extra } : {}) };
  }
  const size = SIZES[(p.get('size') ?? 'm').toLowerCase()] ?? SIZES.m!;
  const zoom = parseZoom(p.get('zoom') ?? p.get('scale'), size.zoom);
  const direction = vortexNumber(p.get('direction'));
  const state = vortexNumber(p.get('state'));
  const color = vortexNumber(p.get('color'));
  const frame = vortexNumber(p.get('frame')) ?? vortexNumber(p.get('frame_num')) ?? 0;
  return {
    family: 'vortex',
    target,
    icon: false,
    size: size.size,
    ...(state !== undefined && state >= 0 ? { state } : {}),
    direction: direction === undefined ? 2 : ((direction % 8) + 8) % 8,
    tick: Math.min(MAX_TICK, Math.max(0, frame)),
    ...(color !== undefined && color >= 0 ? { colorId: color } : {}),
    shadow: false,
    crop: true,
    ...withBackground(parseBackgroundColor(p.get('bg'))),
    zoom,
  };
}

function withBackground(bg: FlatColor | undefined): {
  background?: FlatColor;
} {
  return bg === undefined ? {} : { background: bg };
}

/** The class of the path form's rest (`/<class>`, `/<class>.png`, `/<class>.gif`); undefined when it is not one. */
export function pathClassOf(rest: string): string | undefined {
  let name: string;
  try {
    name = decodeURIComponent(rest.slice(1));
  } catch {
    return undefined;
  }
  name = name.replace(/\.(png|gif)$/i, '');
  return CLASSNAME.test(name) ? name : undefined;
}

/** Whether a classname as given is one a bundle file could have (no path, no odd characters). */
export function plainClassname(name: string): boolean {
  return CLASSNAME.test(name);
}

/** The canonical text of what a request draws: every field that changes the picture, in one order. */
export function canonicalPicture(r: HotelFurniRequest, classname: string, colorId: number): string {
  return [
    classname,
    colorId,
    r.icon ? 'icon' : r.size,
    r.family === 'chroma' ? 'zero' : 'still',
    r.state ?? '-',
    r.direction ?? '-',
    r.tick,
    r.shadow ? 1 : 0,
  ].join('\n');
}

/** The canonical text of what the encoding adds to the picture (crop, background, zoom). */
export function canonicalOutput(r: HotelFurniRequest): string {
  const bg = r.background ? `${r.background.rgb.toString(16)}/${r.background.alpha}` : '-';
  return [r.crop ? 1 : 0, bg, r.zoom].join('\n');
}
