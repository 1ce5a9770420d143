// What goes into an item's bundle (src/formats/furni-bundle.ts writes and reads the bytes): the sprites
// it carries, the size-64 and size-1 draw definitions, the resting states with their frame counts and
// loop durations, the transitions, and the still the build publishes. And back: a bundle → draw model.
import {
  type BundleContent,
  type BundleHeader,
  type BundleManifest,
  type ManifestAnimationLayer,
  type ManifestFrame,
  type ManifestSize,
  type ManifestState,
  type ManifestTransition,
  malformedManifest,
  readBundleManifest,
  readBundleSprites,
  writeBundle,
} from '../formats/furni-bundle.js';
import {
  type FurniModel,
  type FurniSprite,
  type SizeDef,
  type LayerProps,
  type AnimationDef,
  type AnimationLayerDef,
  restingStates,
  sizeOf,
} from './model.js';
import { distinctFrameCount, loopTicks, FRAME_MS } from './animation.js';
import { chooseStill, validDirection, ROOM_SIZE, SMALL_SIZE, STILL_DIRECTION } from './render.js';

function sortedRecord<T>(r: Record<string, T>, map: (v: T) => unknown = (v) => v): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(r).sort((a, b) => Number(a) - Number(b) || (a < b ? -1 : a > b ? 1 : 0)))
    out[k] = map(r[k]!);
  return out;
}

function layerPropsOut(p: LayerProps): LayerProps {
  const out: LayerProps = {};
  for (const k of ['x', 'y', 'z', 'alpha', 'ink', 'tag', 'ignoreMouse'] as const)
    if (p[k] !== undefined) (out as Record<string, unknown>)[k] = p[k];
  return out;
}

function animationLayersOut(layers: Record<string, AnimationLayerDef>): Record<string, ManifestAnimationLayer> {
  return sortedRecord(layers, (l) => ({
    frameRepeat: l.frameRepeat,
    loopCount: l.loopCount,
    random: l.random,
    sequences: l.sequences.map((s) => ({
      loopCount: s.loopCount,
      random: s.random,
      frames: s.frames.map((f) => {
        const o: ManifestFrame = { id: f.id };
        if (f.x) o.x = f.x;
        if (f.y) o.y = f.y;
        if (f.randomX) o.randomX = f.randomX;
        if (f.randomY) o.randomY = f.randomY;
        if (f.offsets) o.offsets = sortedRecord(f.offsets) as Record<string, { x: number; y: number }>;
        return o;
      }),
    })),
  })) as Record<string, ManifestAnimationLayer>;
}

function animationLayersIn(layers: Record<string, ManifestAnimationLayer>): Record<string, AnimationLayerDef> {
  const out: Record<string, AnimationLayerDef> = {};
  for (const [k, l] of Object.entries(layers ?? {})) {
    out[k] = {
      frameRepeat: l.frameRepeat,
      loopCount: l.loopCount,
      random: l.random,
      sequences: (l.sequences ?? []).map((s) => ({
        loopCount: s.loopCount,
        random: s.random,
        frames: (s.frames ?? []).map((f) => ({
          id: f.id,
          x: f.x ?? 0,
          y: f.y ?? 0,
          randomX: f.randomX ?? 0,
          randomY: f.randomY ?? 0,
          ...(f.offsets ? { offsets: f.offsets } : {}),
        })),
      })),
    };
  }
  return out;
}

function sizeOut(s: SizeDef, withColors: boolean): ManifestSize {
  const out: ManifestSize = {
    layerCount: s.layerCount,
    angle: s.angle,
    layers: sortedRecord(s.layers, layerPropsOut) as Record<string, LayerProps>,
    directions: s.directions.map((d) => ({
      id: d.id,
      layers: sortedRecord(d.layers, layerPropsOut) as Record<string, LayerProps>,
    })),
  };
  if (withColors) out.cl = sortedRecord(s.colors, (t) => sortedRecord(t)) as Record<string, Record<string, number>>;
  return out;
}

/** Sprites the bundle carries: every drawable asset except those of other sizes than 64, 32 and the icon. */
function bundledSprites(model: FurniModel): [string, FurniSprite][] {
  const other = new RegExp(`^${model.def.classname.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}_(?!64_|32_|icon_)\\d+_`);
  // `sh_` sprites are the Flash client's small-scale shadows, read only when a SWF keeps every size.
  return [...model.sprites.entries()]
    .filter(([n]) => !other.test(n) && !n.startsWith('sh_'))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * What the bundle of a model holds (pure): every drawable sprite but those of other sizes, the size-64
 * and size-1 definitions, the resting states of size 64 (frame sequences, loop ticks, distinct frames and
 * loop duration at the still's direction), the transitions, and the still.
 */
export function bundleContent(model: FurniModel): { content: BundleContent; sprites: [string, FurniSprite][] } {
  const room = sizeOf(model, ROOM_SIZE);
  const icon = sizeOf(model, 1);
  const sizes: Record<string, ManifestSize> = {};
  if (room) sizes['64'] = sizeOut(room, false);
  if (icon) sizes['1'] = sizeOut(icon, true);
  // Size 32 (the client's small room scale) is carried when the item has it: its own layers, directions,
  // colour table and resting states. Readers that know only 64 and 1 ignore the key (docs/bundle-format.md).
  const small = sizeOf(model, SMALL_SIZE);
  if (small) sizes['32'] = { ...sizeOut(small, true), states: statesOut(small) };
  const states: Record<string, ManifestState> = room ? statesOut(room) : {};
  const transitions: ManifestTransition[] = [];
  if (room) {
    for (const a of room.animations) {
      if (a.transitionTo === undefined && a.transitionFrom === undefined) continue;
      const t: ManifestTransition = { key: a.key, id: a.id, layers: animationLayersOut(a.layers) };
      if (a.transitionTo !== undefined) t.transitionTo = a.transitionTo;
      if (a.transitionFrom !== undefined) t.transitionFrom = a.transitionFrom;
      transitions.push(t);
    }
  }
  const still = chooseStill(model);
  const content: BundleContent = {
    classname: model.def.classname,
    logicType: model.def.logicType,
    visualizationType: model.def.visualizationType,
    logic: { dimensions: { ...model.def.dimensions }, directions: [...model.def.directions] },
    sizes,
    cl: room ? (sortedRecord(room.colors, (t) => sortedRecord(t)) as Record<string, Record<string, number>>) : {},
    states,
    transitions,
    still: { state: still?.state ?? 0, direction: still?.direction ?? 0 },
  };
  return { content, sprites: bundledSprites(model) };
}

/**
 * The resting states of one size, by id, with loop ticks, distinct frames (at the still's direction) and loop duration.
 */
function statesOut(size: SizeDef): Record<string, ManifestState> {
  const states: Record<string, ManifestState> = {};
  const dir = validDirection(size, STILL_DIRECTION);
  for (const a of [...restingStates(size)].sort((x, y) => x.id - y.id)) {
    const frameCount = distinctFrameCount(size, a, dir);
    const st: ManifestState = {
      key: a.key,
      layers: animationLayersOut(a.layers),
      loopTicks: loopTicks(a),
      frameCount,
      loopMs: frameCount * FRAME_MS,
    };
    if (a.immediateChangeFrom !== undefined) st.immediateChangeFrom = a.immediateChangeFrom;
    if (a.randomStart) st.randomStart = true;
    states[String(a.id)] = st;
  }
  return states;
}

/** Writes the bundle of a model: deterministic bytes for the same model. */
export async function writeFurniBundle(model: FurniModel): Promise<Buffer> {
  const { content, sprites } = bundleContent(model);
  return writeBundle(content, sprites);
}

function sizeIn(
  size: number,
  m: ManifestSize,
  colors: Record<string, Record<string, number>>,
  animations: AnimationDef[],
): SizeDef {
  return {
    size,
    layerCount: m.layerCount,
    angle: m.angle,
    layers: m.layers ?? {},
    directions: (m.directions ?? []).map((d) => ({ id: d.id, layers: d.layers ?? {} })),
    colors,
    animations,
  };
}

/** Reads a bundle back into a draw model: everything needed to render the item with no other file. */
export async function readFurniBundle(
  buf: Uint8Array,
  file = '<buffer>',
): Promise<{ header: BundleHeader; manifest: BundleManifest; model: FurniModel }> {
  const { header, manifest, atlasBytes } = readBundleManifest(buf, file);
  const sprites = await readBundleSprites(manifest, atlasBytes, header, file);
  try {
    return { header, manifest, model: modelFromManifest(manifest, sprites) };
  } catch (e) {
    throw malformedManifest(e, file);
  }
}

function statesIn(states: Record<string, ManifestState> | undefined): AnimationDef[] {
  const animations: AnimationDef[] = [];
  for (const [id, st] of Object.entries(states ?? {})) {
    const a: AnimationDef = { key: st.key, id: Number(id), layers: animationLayersIn(st.layers) };
    if (st.immediateChangeFrom !== undefined) a.immediateChangeFrom = st.immediateChangeFrom;
    if (st.randomStart) a.randomStart = true;
    animations.push(a);
  }
  return animations;
}

function modelFromManifest(manifest: BundleManifest, sprites: Map<string, FurniSprite>): FurniModel {
  const sizes: SizeDef[] = [];
  const room = manifest.sizes?.['64'];
  if (room) {
    const animations = statesIn(manifest.states);
    for (const t of manifest.transitions ?? []) {
      const a: AnimationDef = { key: t.key, id: t.id, layers: animationLayersIn(t.layers) };
      if (t.transitionTo !== undefined) a.transitionTo = t.transitionTo;
      if (t.transitionFrom !== undefined) a.transitionFrom = t.transitionFrom;
      animations.push(a);
    }
    sizes.push(sizeIn(64, room, manifest.cl ?? {}, animations));
  }
  const small = manifest.sizes?.['32'];
  if (small) sizes.push(sizeIn(32, small, small.cl ?? {}, statesIn(small.states)));
  const icon = manifest.sizes?.['1'];
  if (icon) sizes.push(sizeIn(1, icon, icon.cl ?? {}, []));
  const model: FurniModel = {
    def: {
      classname: manifest.classname,
      logicType: manifest.logicType ?? '',
      visualizationType: manifest.visualizationType ?? '',
      dimensions: manifest.logic?.dimensions ?? { x: 1, y: 1, z: 0 },
      directions: manifest.logic?.directions ?? [],
      sizes,
    },
    sprites,
  };
  return model;
}
