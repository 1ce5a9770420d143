// The furni draw model: one normalized description of an item (logic, draw definition per size, colour
// tables, animations, sprites) that both an asset library and our own bundle load into, so the still is
// rendered by the same code from either source.
import { type RgbaImage } from '../imaging/image.js';
import { type AssetLibrary } from '../formats/asset-library.js';
import { type NitroLayer, type NitroVisualization, type NitroAnimation } from '../formats/nitro-asset-types.js';

/** A drawable asset: its pixels (shared between aliases), the asset's x/y as stored, and the mirror flag. */
export interface FurniSprite {
  image: RgbaImage;
  x: number;
  y: number;
  flipH: boolean;
}

/** Layer fields as the data sets them; absent fields take the defaults of `layerDefaults`. */
export type LayerProps = NitroLayer;

export interface ResolvedLayer {
  x: number;
  y: number;
  z: number;
  alpha: number;
  ink: string;
  tag: string;
  ignoreMouse: boolean;
}

export const layerDefaults: ResolvedLayer = {
  x: 0,
  y: 0,
  z: 0,
  alpha: 255,
  ink: 'NORMAL',
  tag: '',
  ignoreMouse: false,
};

export interface AnimationFrameDef {
  id: number;
  x: number;
  y: number;
  randomX: number;
  randomY: number;
  /** Per-direction offsets that replace x/y in that direction. */
  offsets?: Record<string, { x: number; y: number }>;
}

export interface FrameSequenceDef {
  loopCount: number;
  random: boolean;
  frames: AnimationFrameDef[];
}

export interface AnimationLayerDef {
  /** Layer loop count; 0 loops forever (client default 1: play once, then hold the last frame). */
  loopCount: number;
  frameRepeat: number;
  random: boolean;
  sequences: FrameSequenceDef[];
}

export interface AnimationDef {
  /** The key the data used (`"1"`, `"1_1"`, `"100"`…). */
  key: string;
  /**
   * The animation id: the state for a resting animation; for a transition the client's id (1 000 000 + to, 2 000 000 +
   * from).
   */
  id: number;
  transitionTo?: number;
  transitionFrom?: number;
  immediateChangeFrom?: string;
  randomStart?: boolean;
  layers: Record<string, AnimationLayerDef>;
}

export interface SizeDef {
  size: number;
  layerCount: number;
  angle: number;
  layers: Record<string, LayerProps>;
  /** Defined directions (45° units for size 64) with their per-layer overrides, in data order. */
  directions: { id: number; layers: Record<string, LayerProps> }[];
  /** colour id → layer id → 0xRRGGBB */
  colors: Record<string, Record<string, number>>;
  animations: AnimationDef[];
}

export interface FurniDefinition {
  classname: string;
  logicType: string;
  visualizationType: string;
  dimensions: { x: number; y: number; z: number };
  /** Logic directions in degrees, as the data lists them. */
  directions: number[];
  /**
   * The draw definitions the service uses: size 64 (room), size 32 (the small room scale) and size 1 (icon), when
   * present.
   */
  sizes: SizeDef[];
}

export interface FurniModel {
  def: FurniDefinition;
  /** Drawable assets by full asset name (`<cn>_64_a_2_0`, `<cn>_icon_a`). */
  sprites: Map<string, FurniSprite>;
}

export const TRANSITION_TO_OFFSET = 1_000_000;
export const TRANSITION_FROM_OFFSET = 2_000_000;

const num = (v: unknown, d: number): number =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
      ? Number(v)
      : d;
const bool = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 'true';

function layerProps(l: NitroLayer | undefined): LayerProps {
  const out: LayerProps = {};
  if (!l || typeof l !== 'object') return out;
  if (l.x !== undefined) out.x = num(l.x, 0);
  if (l.y !== undefined) out.y = num(l.y, 0);
  if (l.z !== undefined) out.z = num(l.z, 0);
  if (l.alpha !== undefined) out.alpha = num(l.alpha, 255);
  if (l.ink !== undefined && l.ink !== null) out.ink = String(l.ink);
  if (l.tag !== undefined && l.tag !== null) out.tag = String(l.tag);
  if (l.ignoreMouse !== undefined) out.ignoreMouse = bool(l.ignoreMouse);
  return out;
}

function layerMap(layers: Record<string, NitroLayer> | undefined, layerCount: number): Record<string, LayerProps> {
  const out: Record<string, LayerProps> = {};
  for (const [k, v] of Object.entries(layers ?? {})) {
    const id = Number.parseInt(k, 10);
    // The client ignores the whole layer block when an id is out of range; dropping the one entry is kinder.
    if (!Number.isInteger(id) || id < 0 || id >= layerCount) continue;
    out[String(id)] = layerProps(v);
  }
  return out;
}

function animationDef(key: string, a: NitroAnimation): AnimationDef {
  let id = Number.parseInt(key.split('_')[0]!, 10);
  if (!Number.isFinite(id)) id = 0;
  const def: AnimationDef = { key, id, layers: {} };
  if (a.transitionTo !== undefined && a.transitionTo !== null) {
    def.transitionTo = num(a.transitionTo, 0);
    def.id = TRANSITION_TO_OFFSET + def.transitionTo;
  }
  if (a.transitionFrom !== undefined && a.transitionFrom !== null) {
    def.transitionFrom = num(a.transitionFrom, 0);
    def.id = TRANSITION_FROM_OFFSET + def.transitionFrom;
  }
  if (a.immediateChangeFrom !== undefined) def.immediateChangeFrom = String(a.immediateChangeFrom);
  if (a.randomStart) def.randomStart = true;
  for (const [lk, l] of Object.entries(a.layers ?? {})) {
    if (!l || typeof l !== 'object') continue;
    const sequences: FrameSequenceDef[] = [];
    for (const s of Object.values(l.frameSequences ?? {})) {
      if (!s || typeof s !== 'object') continue;
      const frames: AnimationFrameDef[] = [];
      for (const f of Object.values(s.frames ?? {})) {
        if (!f || typeof f !== 'object') continue;
        const frame: AnimationFrameDef = {
          id: num(f.id, 0),
          x: num(f.x, 0),
          y: num(f.y, 0),
          randomX: num(f.randomX, 0),
          randomY: num(f.randomY, 0),
        };
        if (f.offsets && typeof f.offsets === 'object') {
          const offsets: Record<string, { x: number; y: number }> = {};
          for (const o of Object.values(f.offsets))
            if (o && typeof o === 'object') offsets[String(num(o.direction, 0))] = { x: num(o.x, 0), y: num(o.y, 0) };
          if (Object.keys(offsets).length > 0) frame.offsets = offsets;
        }
        frames.push(frame);
      }
      sequences.push({
        loopCount: Math.max(1, num(s.loopCount, 1)),
        random: bool(s.random) || num(s.random, 0) !== 0,
        frames,
      });
    }
    def.layers[String(Number.parseInt(lk, 10))] = {
      loopCount: Math.max(0, num(l.loopCount, 1)),
      frameRepeat: Math.max(1, num(l.frameRepeat, 1)),
      random: bool(l.random) || num(l.random, 0) !== 0,
      sequences,
    };
  }
  return def;
}

function sizeDef(v: NitroVisualization): SizeDef {
  const layerCount = Math.max(0, Math.min(26, Math.trunc(num(v.layerCount, 0))));
  const colors: Record<string, Record<string, number>> = {};
  for (const [ck, c] of Object.entries(v.colors ?? {})) {
    const table: Record<string, number> = {};
    for (const [lk, l] of Object.entries(c?.layers ?? {})) {
      if (!l || typeof l !== 'object') continue;
      const color = num(l.color, 0xffffff) & 0xffffff;
      // ColorData.getLayerColor: a colour of 0 reads as "none", and the layer stays white.
      if (color !== 0) table[String(Number.parseInt(lk, 10))] = color;
    }
    colors[String(Number.parseInt(ck, 10))] = table;
  }
  return {
    size: num(v.size, 0),
    layerCount,
    angle: Math.max(1, Math.min(360, num(v.angle, 45))),
    layers: layerMap(v.layers, layerCount),
    directions: Object.entries(v.directions ?? {})
      .map(([k, d]) => ({ id: Number.parseInt(k, 10), layers: layerMap(d?.layers, layerCount) }))
      .filter((d) => Number.isInteger(d.id)),
    colors,
    animations: Object.entries(v.animations ?? {})
      .filter(([, a]) => a && typeof a === 'object')
      .map(([k, a]) => animationDef(k, a)),
  };
}

/** Builds the draw model of a furni asset library (Nitro bundle or SWF read into the same shape). */
export function furniModelFromLibrary(lib: AssetLibrary): FurniModel {
  const d = lib.data;
  const dims = d.logic?.model?.dimensions;
  const def: FurniDefinition = {
    classname: lib.name,
    logicType: typeof d.logicType === 'string' ? d.logicType : '',
    visualizationType: typeof d.visualizationType === 'string' ? d.visualizationType : '',
    dimensions: { x: num(dims?.x, 1), y: num(dims?.y, 1), z: num(dims?.z, 0) },
    directions: Array.isArray(d.logic?.model?.directions) ? d.logic!.model!.directions!.map((x) => num(x, 0)) : [],
    sizes: [],
  };
  // One definition per size; the first one wins, as in the client.
  for (const v of d.visualizations ?? []) {
    if (!v || typeof v !== 'object') continue;
    const s = num(v.size, 0);
    if ((s === 64 || s === 32 || s === 1) && !def.sizes.some((x) => x.size === s)) def.sizes.push(sizeDef(v));
  }
  def.sizes.sort((a, b) => b.size - a.size);
  const sprites = new Map<string, FurniSprite>();
  for (const name of Object.keys(d.assets ?? {}).sort()) {
    const a = d.assets![name]!;
    if (!a || typeof a !== 'object') continue;
    const source = typeof a.source === 'string' && a.source.length > 0 ? a.source : '';
    const image = lib.sprites.get(source || name);
    if (!image) continue; // the client skips assets whose texture is missing
    sprites.set(name, { image, x: num(a.x, 0), y: num(a.y, 0), flipH: source.length > 0 && bool(a.flipH) });
  }
  return { def, sprites };
}

export function sizeOf(model: FurniModel, size: number): SizeDef | undefined {
  return model.def.sizes.find((s) => s.size === size);
}

/** Layer fields for one direction: defaults, then the size's layer entry, then the direction's override. */
export function resolveLayer(size: SizeDef, direction: number, layerId: number): ResolvedLayer {
  const base = size.layers[String(layerId)] ?? {};
  const dir = size.directions.find((d) => d.id === direction)?.layers[String(layerId)] ?? {};
  return { ...layerDefaults, ...base, ...dir };
}

/** Resting animations (states) in data order; a later key with the same id replaces the earlier one. */
export function restingStates(size: SizeDef): AnimationDef[] {
  const byId = new Map<number, AnimationDef>();
  for (const a of size.animations)
    if (a.transitionTo === undefined && a.transitionFrom === undefined) byId.set(a.id, a);
  return [...byId.values()];
}

export type { NitroLayer };
