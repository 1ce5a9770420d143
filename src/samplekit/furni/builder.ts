// Assembles one furni asset library in the shape of a real Nitro furni bundle: asset entries named
// `<cn>_64_<letter>_<dir>_<frame>`, `<cn>_64_sd_<dir>_0`, `<cn>_icon_<letter>`, flipH aliases that
// keep their source's offset (mirrored around the anchor), a size-64 and a size-1 visualization.
import { type AssetLibrary } from '../../formats/asset-library.js';
import {
  type NitroAnimation,
  type NitroAnimationLayer,
  type NitroAssetData,
  type NitroAssetEntry,
  type NitroFrame,
  type NitroLayer,
  type NitroVisualization,
} from '../../formats/nitro-asset-types.js';
import { type RgbaImage } from '../../imaging/image.js';
import { type PlacedSprite } from './draw.js';

export const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

export class FurniBuilder {
  private readonly assets = new Map<string, NitroAssetEntry>();
  readonly sprites = new Map<string, RgbaImage>();

  constructor(readonly classname: string) {}

  /** `64_a_2_0` for layer 0, direction 2, frame 0. */
  static layerAsset(layer: number, dir: number, frame: number): string {
    return `64_${LETTERS[layer]}_${dir}_${frame}`;
  }

  /** Adds a drawn sprite under `<cn>_<suffix>`. */
  sprite(suffix: string, s: PlacedSprite): this {
    const name = `${this.classname}_${suffix}`;
    if (this.assets.has(name)) throw new Error(`${name} defined twice`);
    this.assets.set(name, { x: s.x, y: s.y });
    this.sprites.set(name, s.image);
    return this;
  }

  /** An alias asset (`source`, optional flipH) with the source's offset, as the converter writes them. */
  alias(suffix: string, sourceSuffix: string, flipH: boolean): this {
    const name = `${this.classname}_${suffix}`;
    const source = `${this.classname}_${sourceSuffix}`;
    const src = this.assets.get(source);
    if (!src || src.source) throw new Error(`alias ${name}: source ${source} is not a drawn asset`);
    const entry: NitroAssetEntry = { source, x: src.x, y: src.y };
    if (flipH) entry.flipH = true;
    this.assets.set(name, entry);
    return this;
  }

  has(suffix: string): boolean {
    return this.assets.has(`${this.classname}_${suffix}`);
  }

  library(doc: {
    logicType: string;
    visualizationType: string;
    dimensions: { x: number; y: number; z: number };
    /** Directions in 45° units, written in degrees; null leaves them out (some real bundles do). */
    directions: number[] | null;
    visualizations: NitroVisualization[];
  }): AssetLibrary {
    const assets: Record<string, NitroAssetEntry> = {};
    for (const k of [...this.assets.keys()].sort()) assets[k] = this.assets.get(k)!;
    const data: NitroAssetData = {
      name: this.classname,
      logicType: doc.logicType,
      visualizationType: doc.visualizationType,
      assets,
      logic: {
        model: doc.directions
          ? { dimensions: doc.dimensions, directions: doc.directions.map((d) => d * 45) }
          : { dimensions: doc.dimensions },
      },
      visualizations: doc.visualizations,
    };
    return { name: this.classname, data, sprites: this.sprites };
  }
}

export function vis64(v: {
  layerCount: number;
  layers?: Record<string, NitroLayer>;
  directions: Record<string, { layers?: Record<string, NitroLayer> }>;
  colors?: Record<string, Record<string, number>>;
  animations?: Record<string, NitroAnimation>;
}): NitroVisualization {
  const out: NitroVisualization = { angle: 45, layerCount: v.layerCount, size: 64 };
  if (v.layers) out.layers = v.layers;
  out.directions = v.directions;
  if (v.colors) out.colors = colorTable(v.colors);
  if (v.animations) out.animations = v.animations;
  return out;
}

/** The size-1 (icon) visualization: angle 360, direction 0 (some real bundles list no directions). */
export function visIcon(
  layerCount: number,
  colors?: Record<string, Record<string, number>>,
  withDirections = true,
  layers?: Record<string, NitroLayer>,
): NitroVisualization {
  const out: NitroVisualization = { angle: 360, layerCount, size: 1 };
  if (layers) out.layers = layers;
  if (withDirections) out.directions = { '0': {} };
  if (colors) out.colors = colorTable(colors);
  return out;
}

function colorTable(c: Record<string, Record<string, number>>): NonNullable<NitroVisualization['colors']> {
  const out: NonNullable<NitroVisualization['colors']> = {};
  for (const id of Object.keys(c)) {
    const layers: Record<string, { color: number }> = {};
    for (const l of Object.keys(c[id]!)) layers[l] = { color: c[id]![l]! };
    out[id] = { layers };
  }
  return out;
}

type FrameSpec = number | { id: number; x?: number; y?: number };

/** One animation layer with a single frame sequence. */
export function animLayer(
  frames: FrameSpec[],
  opts: { frameRepeat?: number; loopCount?: number; random?: number } = {},
): NitroAnimationLayer {
  const layer: NitroAnimationLayer = { frameSequences: {} };
  if (opts.frameRepeat !== undefined) layer.frameRepeat = opts.frameRepeat;
  if (opts.loopCount !== undefined) layer.loopCount = opts.loopCount;
  if (opts.random !== undefined) layer.random = opts.random;
  layer.frameSequences = { '0': sequence(frames) };
  return layer;
}

export function sequence(
  frames: FrameSpec[],
  loopCount?: number,
): { loopCount?: number; frames: Record<string, NitroFrame> } {
  const out: { loopCount?: number; frames: Record<string, NitroFrame> } = { frames: {} };
  if (loopCount !== undefined) out.loopCount = loopCount;
  frames.forEach((f, i) => {
    out.frames[String(i)] = typeof f === 'number' ? { id: f } : { ...f };
  });
  return out;
}

export function anim(
  layers: Record<string, NitroAnimationLayer>,
  extra: { transitionTo?: number; transitionFrom?: number } = {},
): NitroAnimation {
  return { ...extra, layers };
}
