// Avatar effects and dances: the hotel's EffectMap (effect id → library) and each effect library's
// animation, read the way the game client reads them (nitro-renderer `animation/Animation.ts`,
// `AddDataContainer`, `SpriteDataContainer`, `AvatarDataContainer`). The animation is data only:
// what the render does with it is render.ts and effect-frame.ts.
import { type EffectAnimationJson, type EffectFrameJson, type EffectMapDoc } from '../formats/gamedata/effect-types.js';

/** A frame layer: a body part (`torso`) or an effect part (`fx6_1`, `avatar`) in one animation tick. */
export interface EffectLayer {
  id: string;
  kind: 'bodypart' | 'fx';
  frame: number;
  dx: number;
  dy: number;
  /** Direction offset. */
  dd: number;
  /** Action id (`Move`, `CarryItem`) whose sprites and frames the body part draws, if any. */
  action: string | undefined;
  /** The action's parameter (a held item's id, `fx5_1`), '' when none. */
  base: string;
  /** Part type → part id drawn instead of the figure's part of that type. */
  items: Map<string, string>;
}

export interface EffectSprite {
  id: string;
  /** Asset name stem: `h_<member>_<direction>_<frame>`. */
  member: string;
  ink: number;
  staticY: boolean;
  hasDirections: boolean;
  /** Per direction offsets (`SpriteDataContainer.getDirectionOffset*`). */
  dx: number[];
  dy: number[];
  dz: number[];
}

export interface EffectAdd {
  /** Part type of the added part (`fx6_1`, `ri`). */
  id: string;
  /** Body part it is added to (`behind`, `rightitem`, `top`…). */
  align: string;
  base: string;
}

export interface AvatarColorData {
  ink: number;
  foreground: number;
  background: number;
}

export interface EffectAnimation {
  /** `fx.2`, `dance.1`. */
  name: string;
  /** One entry per animation tick (repeats expanded, as `Animation.parseFrames`). */
  ticks: EffectLayer[][];
  /** The frame entry each tick came from (consecutive ticks of one entry are one drawn frame). */
  tickEntry: number[];
  /**
   * Per tick, a text equal for ticks whose layers are equal (whole avatar / head only): loops are runs of equal ticks.
   */
  tickKeys: { full: string[]; head: string[] };
  /** Overriding frame lists, keyed by the action state they override (`mv`, `wave`). */
  overrides: Map<string, TickList & { name: string }>;
  sprites: EffectSprite[];
  adds: EffectAdd[];
  removes: string[];
  /** Added to the avatar's direction (`DirectionDataContainer`): a hoverboard rider stands sideways. */
  directionOffset: number;
  /** Colour treatment of the whole avatar image (`AvatarDataContainer`): Ghost, Ice… */
  avatar: AvatarColorData | undefined;
}

function num(v: unknown, dflt = 0): number {
  const n = Number(v);
  return Number.isFinite(n) ? n : dflt;
}

export interface TickList {
  ticks: EffectLayer[][];
  tickEntry: number[];
  tickKeys: { full: string[]; head: string[] };
}

const layerKey = (l: EffectLayer): unknown[] => [
  l.id,
  l.kind,
  l.frame,
  l.dx,
  l.dy,
  l.dd,
  l.action ?? '',
  l.base,
  [...l.items],
];

/** What a tick draws, as text: the whole avatar's layers, or only the head's (and the parts added to it). */
function tickKeys(ticks: EffectLayer[][], adds: EffectAdd[]): { full: string[]; head: string[] } {
  const headIds = new Set(['head', ...adds.filter((a) => a.align === 'head').map((a) => a.id)]);
  return {
    full: ticks.map((t) => JSON.stringify(t.map(layerKey))),
    head: ticks.map((t) => JSON.stringify(t.filter((l) => headIds.has(l.id)).map(layerKey))),
  };
}

function parseTicks(frames: EffectFrameJson[] | undefined): { ticks: EffectLayer[][]; tickEntry: number[] } {
  const ticks: EffectLayer[][] = [];
  const tickEntry: number[] = [];
  (frames ?? []).forEach((frame, entry) => {
    if (!frame) return;
    const layers: EffectLayer[] = [];
    const add = (kind: EffectLayer['kind'], list: EffectFrameJson['bodyparts']): void => {
      for (const p of list ?? []) {
        if (!p || typeof p.id !== 'string') continue;
        layers.push({
          id: p.id,
          kind,
          frame: num(p.frame),
          dx: num(p.dx),
          dy: num(p.dy),
          dd: num(p.dd),
          action: typeof p.action === 'string' && p.action ? p.action : undefined,
          base: typeof p.base === 'string' ? p.base : '',
          items: new Map(
            (p.items ?? []).filter((i) => i && typeof i.id === 'string').map((i) => [i.id, String(i.base ?? '')]),
          ),
        });
      }
    };
    add('bodypart', frame.bodyparts);
    add('fx', frame.fxs);
    const repeats = Math.max(1, Math.floor(num(frame.repeats, 1)));
    for (let r = 0; r < repeats; r++) {
      ticks.push(layers);
      tickEntry.push(entry);
    }
  });
  return { ticks, tickEntry };
}

/** `#FFFFFF`, `66000000`, `FFFFFFFF` → the number the client parses (`parseInt(hex, 16)`). */
function hexColour(v: unknown): number {
  const n = parseInt(String(v ?? '').replace('#', ''), 16);
  return Number.isFinite(n) ? n : 0;
}

export function parseEffectAnimation(json: EffectAnimationJson): EffectAnimation {
  const adds = (json.adds ?? [])
    .filter((x) => x && typeof x.id === 'string')
    .map((x) => ({ id: x.id, align: String(x.align ?? ''), base: String(x.base ?? '') }));
  const { ticks, tickEntry } = parseTicks(json.frames);
  const overrides = new Map<string, TickList & { name: string }>();
  for (const o of json.overrides ?? []) {
    if (!o || typeof o.override !== 'string') continue;
    const t = parseTicks(o.frames);
    overrides.set(o.override, { name: String(o.name ?? ''), ...t, tickKeys: tickKeys(t.ticks, adds) });
  }
  const sprites: EffectSprite[] = (json.sprites ?? [])
    .filter((s) => s && typeof s.id === 'string')
    .map((s) => {
      const dx: number[] = [];
      const dy: number[] = [];
      const dz: number[] = [];
      for (const d of s.directionList ?? []) {
        if (!d || d.id === undefined) continue;
        dx[d.id] = num(d.dx);
        dy[d.id] = num(d.dy);
        dz[d.id] = num(d.dz);
      }
      return {
        id: s.id,
        member: String(s.member ?? ''),
        ink: num(s.ink),
        staticY: !!s.staticY,
        hasDirections: !!s.directions,
        dx,
        dy,
        dz,
      };
    });
  const a = json.avatars?.[0];
  return {
    name: String(json.name ?? ''),
    ticks,
    tickEntry,
    tickKeys: tickKeys(ticks, adds),
    overrides,
    sprites,
    adds,
    removes: (json.removes ?? []).filter((r) => r && typeof r.id === 'string').map((r) => r.id),
    directionOffset: num(json.directions?.[0]?.offset),
    avatar: a
      ? { ink: num(a.ink), foreground: hexColour(a.foreground), background: hexColour(a.background) }
      : undefined,
  };
}

/** The frame list in use: an override when another active action's state names one (`Animation.getFrame`). */
export function framesOf(anim: EffectAnimation, overriding: string | undefined): TickList {
  return (overriding !== undefined && anim.overrides.get(overriding)) || anim;
}

/**
 * The layer of a body part or sprite in a tick (`Animation.getLayerData`): its own layer, or an effect
 * layer whose added part is aligned to that body part.
 */
export function getLayerData(
  anim: EffectAnimation,
  tick: number,
  id: string,
  overriding?: string,
): EffectLayer | undefined {
  const { ticks } = framesOf(anim, overriding);
  if (ticks.length === 0) return undefined;
  for (const layer of ticks[Math.max(0, tick) % ticks.length]!) {
    if (layer.id === id) return layer;
    if (layer.kind === 'fx' && anim.adds.some((a) => a.align === id && a.id === layer.id)) return layer;
  }
  return undefined;
}

/** Body parts the animation moves (`Animation.getAnimatedBodyPartIds(0)`) plus the ones parts are added to. */
export function animatedBodyParts(anim: EffectAnimation, overriding?: string): string[] {
  const out: string[] = [];
  const { ticks } = framesOf(anim, overriding);
  for (const layer of ticks[0] ?? []) {
    if (layer.kind === 'bodypart') out.push(layer.id);
    else for (const a of anim.adds) if (a.id === layer.id) out.push(a.align);
  }
  for (const a of anim.adds) out.push(a.align);
  return [...new Set(out)];
}

/** One effect of the hotel: its map row, library and parsed animation. */
export interface HotelEffect {
  /** `fx` or `dance`. */
  type: string;
  /** The action parameter: `2` for fx.2, `1` for dance.1. */
  param: string;
  library: string;
  /**
   * Where its sprites are looked for: its own library, then the libraries of other effects holding sprites
   * it names but lacks (TaggedRollerSkating's glow is TaggedIceSkating's `std_fx45_1_1`, its skates
   * RollerSkating's `sh` `fx55_1`): the client finds a sprite in any loaded library, so this is what it
   * draws once those effects have been seen (in the rink, all of them).
   */
  libraries: string[];
  /** Layer items that name a figure part (`bd` → `999`, Snowboard): drawn from the figure libraries. */
  figureParts: { type: string; id: number }[];
  animation: EffectAnimation;
}

/** Effect id (`2`, `dance.1`) → map row, for the rows whose library the hotel has. */
export function effectMapRows(
  doc: EffectMapDoc | undefined,
  libraries: Set<string>,
): Map<string, { lib: string; type: string }> {
  const out = new Map<string, { lib: string; type: string }>();
  for (const e of doc?.effects ?? []) {
    if (!e || e.id === undefined || typeof e.lib !== 'string' || !libraries.has(e.lib)) continue;
    const id = String(e.id);
    if (!out.has(id)) out.set(id, { lib: e.lib, type: String(e.type ?? 'fx') });
  }
  return out;
}

/**
 * `h_<action>_<rest>_<dir>_<frame>` → `rest`: `fx45_1_1` (sprite member `std_fx45_1_1`), `sh_fx38_1` (item `sh` →
 * `fx38_1`).
 */
function assetKey(name: string): string | undefined {
  return /^h_[a-z]+_(.+)_\d+_\d+$/.exec(name)?.[1];
}

/** Asset key → the libraries that hold it (in EffectMap order), and each library's keys. */
interface AssetHolders {
  byKey: Map<string, string[]>;
  keysOf: Map<string, Set<string>>;
}

function assetHolders(libraries: string[], assetNames: Map<string, string[]> | undefined): AssetHolders {
  const byKey = new Map<string, string[]>();
  const keysOf = new Map<string, Set<string>>();
  for (const lib of libraries) {
    const keys = new Set<string>();
    for (const n of assetNames?.get(lib) ?? []) {
      const k = assetKey(n);
      if (k) keys.add(k);
    }
    keysOf.set(lib, keys);
    for (const k of keys) byKey.set(k, [...(byKey.get(k) ?? []), lib]);
  }
  return { byKey, keysOf };
}

/** Its own library, then the first library holding each sprite member, layer item or added part it names but lacks. */
function librariesOf(own: string, anim: EffectAnimation, holders: AssetHolders): string[] {
  const wanted = new Set<string>();
  for (const s of anim.sprites)
    if (s.id !== 'avatar' && s.member.includes('_')) wanted.add(s.member.slice(s.member.indexOf('_') + 1));
  for (const list of [anim.ticks, ...[...anim.overrides.values()].map((o) => o.ticks)]) {
    for (const tick of list) {
      for (const layer of tick) {
        for (const [type, base] of layer.items) wanted.add(`${type}_${base}`);
        // An added part draws with the layer's base as its id (Torch's `ri` `fx5_1`).
        if (layer.base && anim.adds.some((a) => a.id === layer.id)) wanted.add(`${layer.id}_${layer.base}`);
      }
    }
  }
  // Added parts (Easterbunny adds Carpolice's seat `fx19_1`): id 1 without a base (`staticId`).
  for (const a of anim.adds) wanted.add(`${a.id}_${a.base || '1'}`);
  const ownKeys = holders.keysOf.get(own);
  const out = [own];
  for (const k of wanted) {
    if (ownKeys?.has(k)) continue;
    const lib = holders.byKey.get(k)?.[0];
    if (lib && !out.includes(lib)) out.push(lib);
  }
  return out;
}

/** Layer items whose base is a plain number: a figure part id (`bd` → `999`), not an effect's own part. */
function figurePartItems(anim: EffectAnimation): { type: string; id: number }[] {
  const out = new Map<string, { type: string; id: number }>();
  for (const list of [anim.ticks, ...[...anim.overrides.values()].map((o) => o.ticks)]) {
    for (const tick of list)
      for (const layer of tick)
        for (const [type, base] of layer.items)
          if (/^\d+$/.test(base)) out.set(`${type}:${base}`, { type, id: Number(base) });
  }
  return [...out.values()];
}

/** The effects of a hotel by animation name (`fx.2`, `dance.1`). */
export class EffectIndex {
  constructor(private readonly byName: Map<string, HotelEffect>) {}

  static empty(): EffectIndex {
    return new EffectIndex(new Map());
  }

  get size(): number {
    return this.byName.size;
  }

  /** `fx` with parameter `2` → the effect of animation `fx.2`. */
  get(type: string, param: string): HotelEffect | undefined {
    return this.byName.get(`${type}.${param}`);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }
}

/**
 * Builds the index from the map rows and each library's animations: the animation named
 * `<type>.<param>` (the client registers every animation of a library by its name).
 */
export function buildEffectIndex(
  rows: Map<string, { lib: string; type: string }>,
  animationsOf: Map<string, Record<string, EffectAnimationJson>>,
  assetNames?: Map<string, string[]>,
): EffectIndex {
  const byName = new Map<string, HotelEffect>();
  const holders = assetHolders([...new Set([...rows.values()].map((r) => r.lib))], assetNames);
  for (const row of rows.values()) {
    const anims = animationsOf.get(row.lib);
    if (!anims) continue;
    for (const json of Object.values(anims)) {
      if (!json || typeof json.name !== 'string') continue;
      const dot = json.name.indexOf('.');
      if (dot < 0) continue;
      const type = json.name.slice(0, dot);
      const param = json.name.slice(dot + 1);
      // The map row names the library; the animation inside names the action it belongs to.
      if (byName.has(json.name)) continue;
      const animation = parseEffectAnimation(json);
      byName.set(json.name, {
        type,
        param,
        library: row.lib,
        libraries: librariesOf(row.lib, animation, holders),
        figureParts: figurePartItems(animation),
        animation,
      });
    }
  }
  return new EffectIndex(byName);
}
