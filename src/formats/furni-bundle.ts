// Our published furni bundle (`hof_furni/<revision>/<classname>.bundle`): a 20-byte little-endian
// header, a gzip-compressed CBOR manifest, then a lossless WebP atlas. docs/bundle-format.md is the spec.
import { gzipSync, gunzipSync, crc32 } from 'node:zlib';
import { Encoder, decode as decodeCbor } from 'cbor-x';
import { FormatError } from './errors.js';
import { packShelves } from './asset-library.js';
import { type RgbaImage, createImage, cropImage } from '../imaging/image.js';
import { decodeImage, encodeWebpLossless } from '../imaging/codec.js';
import {
  type FurniModel,
  type FurniSprite,
  type SizeDef,
  type LayerProps,
  type AnimationDef,
  type AnimationLayerDef,
  restingStates,
  sizeOf,
} from '../furni/model.js';
import { distinctFrameCount, loopTicks, FRAME_MS } from '../furni/animation.js';
import { chooseStill, validDirection, ROOM_SIZE, STILL_DIRECTION } from '../furni/render.js';

export const BUNDLE_MAGIC = 'HFUR';
export const BUNDLE_VERSION = 1;
export const BUNDLE_HEADER_SIZE = 20;
const FORMAT = 'furni bundle';

export interface BundleHeader {
  version: number;
  flags: number;
  manifestLength: number;
  atlasLength: number;
  crc32: number;
}

/** Frame as stored: zero fields are omitted. */
export interface ManifestFrame {
  id: number;
  x?: number;
  y?: number;
  randomX?: number;
  randomY?: number;
  offsets?: Record<string, { x: number; y: number }>;
}

export interface ManifestAnimationLayer {
  frameRepeat: number;
  loopCount: number;
  random: boolean;
  sequences: { loopCount: number; random: boolean; frames: ManifestFrame[] }[];
}

export interface ManifestState {
  /** Key of the animation in the source data. */
  key: string;
  layers: Record<string, ManifestAnimationLayer>;
  /** Ticks of one play-through (common multiple of the layer cycles, capped at 10 000). */
  loopTicks: number;
  /** Distinct frames: the loop's ticks with the unchanged ones dropped. */
  frameCount: number;
  /** frameCount × 120 ms: what the §2.5 player uses for one loop. */
  loopMs: number;
  immediateChangeFrom?: string;
  randomStart?: boolean;
}

export interface ManifestTransition {
  key: string;
  /** The client's animation id: 1 000 000 + to for transitionTo, 2 000 000 + from for transitionFrom. */
  id: number;
  transitionTo?: number;
  transitionFrom?: number;
  layers: Record<string, ManifestAnimationLayer>;
}

export interface ManifestSize {
  layerCount: number;
  angle: number;
  layers: Record<string, LayerProps>;
  directions: { id: number; layers: Record<string, LayerProps> }[];
  /** Colour table of this size (size 64's is the top-level `cl`). */
  cl?: Record<string, Record<string, number>>;
}

export interface ManifestSprite {
  /** Atlas rectangle [x, y, width, height]; aliases share their source's rectangle. */
  rect: [number, number, number, number];
  /** The asset's x, y as the source data stores them (see the offset rule in the spec). */
  x: number;
  y: number;
  flipH: boolean;
}

export interface BundleManifest {
  format: 1;
  classname: string;
  logicType: string;
  visualizationType: string;
  logic: { dimensions: { x: number; y: number; z: number }; directions: number[] };
  atlas: { width: number; height: number };
  sprites: Record<string, ManifestSprite>;
  sizes: Record<string, ManifestSize>;
  /** Size-64 colour table: colour id → layer id → 0xRRGGBB. Not a list of valid variants. */
  cl: Record<string, Record<string, number>>;
  /** Resting states by id. */
  states: Record<string, ManifestState>;
  transitions: ManifestTransition[];
  /** What the published still shows (state, direction); frame is the state's first tick. */
  still: { state: number; direction: number };
}

const encoder = new Encoder({ useRecords: false, mapsAsObjects: true, tagUint8Array: false } as ConstructorParameters<typeof Encoder>[0]);

function sortedRecord<T>(r: Record<string, T>, map: (v: T) => unknown = (v) => v): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(r).sort((a, b) => Number(a) - Number(b) || (a < b ? -1 : a > b ? 1 : 0))) out[k] = map(r[k]!);
  return out;
}

function layerPropsOut(p: LayerProps): LayerProps {
  const out: LayerProps = {};
  for (const k of ['x', 'y', 'z', 'alpha', 'ink', 'tag', 'ignoreMouse'] as const) if (p[k] !== undefined) (out as Record<string, unknown>)[k] = p[k];
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
        frames: (s.frames ?? []).map((f) => ({ id: f.id, x: f.x ?? 0, y: f.y ?? 0, randomX: f.randomX ?? 0, randomY: f.randomY ?? 0, ...(f.offsets ? { offsets: f.offsets } : {}) })),
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
    directions: s.directions.map((d) => ({ id: d.id, layers: sortedRecord(d.layers, layerPropsOut) as Record<string, LayerProps> })),
  };
  if (withColors) out.cl = sortedRecord(s.colors, (t) => sortedRecord(t)) as Record<string, Record<string, number>>;
  return out;
}

/** Sprites the bundle carries: every drawable asset except other sizes than 64 and the icon. */
function bundledSprites(model: FurniModel): [string, FurniSprite][] {
  const other = new RegExp(`^${model.def.classname.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}_(?!64_|icon_)\\d+_`);
  return [...model.sprites.entries()].filter(([n]) => !other.test(n)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Builds the manifest and the atlas image of a model (pure; no encoding). */
export function buildManifest(model: FurniModel): { manifest: BundleManifest; atlas: RgbaImage } {
  const sprites = bundledSprites(model);
  // One atlas cell per distinct image: aliases share their source's pixels.
  const keys = new Map<RgbaImage, string>();
  for (const [name, s] of sprites) if (!keys.has(s.image)) keys.set(s.image, name);
  const images = new Map([...keys.entries()].map(([img, k]) => [k, img]));
  const { placements, width, height } = packShelves([...images.entries()].map(([k, img]) => ({ key: k, width: img.width, height: img.height })));
  const atlas = createImage(Math.max(1, width), Math.max(1, height));
  const rects = new Map<string, [number, number, number, number]>();
  for (const p of placements) {
    const img = images.get(p.key)!;
    for (let row = 0; row < img.height; row++) atlas.data.set(img.data.subarray(row * img.width * 4, (row + 1) * img.width * 4), ((p.y + row) * atlas.width + p.x) * 4);
    rects.set(p.key, [p.x, p.y, p.width, p.height]);
  }
  const spriteOut: Record<string, ManifestSprite> = {};
  for (const [name, s] of sprites) spriteOut[name] = { rect: rects.get(keys.get(s.image)!)!, x: s.x, y: s.y, flipH: s.flipH };

  const room = sizeOf(model, ROOM_SIZE);
  const icon = sizeOf(model, 1);
  const sizes: Record<string, ManifestSize> = {};
  if (room) sizes['64'] = sizeOut(room, false);
  if (icon) sizes['1'] = sizeOut(icon, true);
  const states: Record<string, ManifestState> = {};
  const transitions: ManifestTransition[] = [];
  if (room) {
    const dir = validDirection(room, STILL_DIRECTION);
    for (const a of [...restingStates(room)].sort((x, y) => x.id - y.id)) {
      const frameCount = distinctFrameCount(room, a, dir);
      const st: ManifestState = { key: a.key, layers: animationLayersOut(a.layers), loopTicks: loopTicks(a), frameCount, loopMs: frameCount * FRAME_MS };
      if (a.immediateChangeFrom !== undefined) st.immediateChangeFrom = a.immediateChangeFrom;
      if (a.randomStart) st.randomStart = true;
      states[String(a.id)] = st;
    }
    for (const a of room.animations) {
      if (a.transitionTo === undefined && a.transitionFrom === undefined) continue;
      const t: ManifestTransition = { key: a.key, id: a.id, layers: animationLayersOut(a.layers) };
      if (a.transitionTo !== undefined) t.transitionTo = a.transitionTo;
      if (a.transitionFrom !== undefined) t.transitionFrom = a.transitionFrom;
      transitions.push(t);
    }
  }
  const still = chooseStill(model);
  const manifest: BundleManifest = {
    format: 1,
    classname: model.def.classname,
    logicType: model.def.logicType,
    visualizationType: model.def.visualizationType,
    logic: { dimensions: { ...model.def.dimensions }, directions: [...model.def.directions] },
    atlas: { width: atlas.width, height: atlas.height },
    sprites: spriteOut,
    sizes,
    cl: room ? (sortedRecord(room.colors, (t) => sortedRecord(t)) as Record<string, Record<string, number>>) : {},
    states,
    transitions,
    still: { state: still?.state ?? 0, direction: still?.direction ?? 0 },
  };
  return { manifest, atlas };
}

export function encodeBundle(manifestBytes: Uint8Array, atlasBytes: Uint8Array): Buffer {
  const out = Buffer.alloc(BUNDLE_HEADER_SIZE + manifestBytes.length + atlasBytes.length);
  out.write(BUNDLE_MAGIC, 0, 'ascii');
  out.writeUInt16LE(BUNDLE_VERSION, 4);
  out.writeUInt16LE(0, 6);
  out.writeUInt32LE(manifestBytes.length, 8);
  out.writeUInt32LE(atlasBytes.length, 12);
  out.set(manifestBytes, BUNDLE_HEADER_SIZE);
  out.set(atlasBytes, BUNDLE_HEADER_SIZE + manifestBytes.length);
  out.writeUInt32LE(crc32(out.subarray(BUNDLE_HEADER_SIZE)) >>> 0, 16);
  return out;
}

/** Writes the bundle of a model: deterministic bytes for the same model. */
export async function writeFurniBundle(model: FurniModel): Promise<Buffer> {
  const { manifest, atlas } = buildManifest(model);
  const manifestBytes = gzipSync(encoder.encode(manifest), { level: 9 });
  return encodeBundle(manifestBytes, await encodeWebpLossless(atlas));
}

export function readBundleHeader(buf: Uint8Array, file = '<buffer>'): BundleHeader {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.length < BUNDLE_HEADER_SIZE) throw new FormatError(FORMAT, file, `only ${b.length} bytes, shorter than the 20-byte header`);
  if (b.toString('latin1', 0, 4) !== BUNDLE_MAGIC) throw new FormatError(FORMAT, file, `bad magic ${JSON.stringify(b.toString('latin1', 0, 4))}, expected "HFUR"`, 0);
  const h: BundleHeader = { version: b.readUInt16LE(4), flags: b.readUInt16LE(6), manifestLength: b.readUInt32LE(8), atlasLength: b.readUInt32LE(12), crc32: b.readUInt32LE(16) };
  if (h.version !== BUNDLE_VERSION) throw new FormatError(FORMAT, file, `unsupported format version ${h.version}`, 4);
  if (h.flags !== 0) throw new FormatError(FORMAT, file, `unknown flags 0x${h.flags.toString(16)}`, 6);
  const want = BUNDLE_HEADER_SIZE + h.manifestLength + h.atlasLength;
  if (want !== b.length) throw new FormatError(FORMAT, file, `header says ${want} bytes, file has ${b.length}`, 8);
  const crc = crc32(b.subarray(BUNDLE_HEADER_SIZE)) >>> 0;
  if (crc !== h.crc32) throw new FormatError(FORMAT, file, `CRC-32 mismatch: header 0x${h.crc32.toString(16)}, content 0x${crc.toString(16)}`, 16);
  return h;
}

/** Decodes header and manifest (no image decoding). */
export function readBundleManifest(buf: Uint8Array, file = '<buffer>'): { header: BundleHeader; manifest: BundleManifest; atlasBytes: Uint8Array } {
  const header = readBundleHeader(buf, file);
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  let manifest: BundleManifest;
  try {
    manifest = decodeCbor(gunzipSync(b.subarray(BUNDLE_HEADER_SIZE, BUNDLE_HEADER_SIZE + header.manifestLength))) as BundleManifest;
  } catch (e) {
    throw new FormatError(FORMAT, file, `manifest does not decode: ${(e as Error).message}`, BUNDLE_HEADER_SIZE);
  }
  if (!manifest || typeof manifest !== 'object' || manifest.format !== 1 || typeof manifest.classname !== 'string' || typeof manifest.sprites !== 'object') {
    throw new FormatError(FORMAT, file, 'manifest is not a format-1 furni manifest', BUNDLE_HEADER_SIZE);
  }
  return { header, manifest, atlasBytes: b.subarray(BUNDLE_HEADER_SIZE + header.manifestLength) };
}

function sizeIn(size: number, m: ManifestSize, colors: Record<string, Record<string, number>>, animations: AnimationDef[]): SizeDef {
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
export async function readFurniBundle(buf: Uint8Array, file = '<buffer>'): Promise<{ header: BundleHeader; manifest: BundleManifest; model: FurniModel }> {
  const { header, manifest, atlasBytes } = readBundleManifest(buf, file);
  try {
    return { header, manifest, model: await modelFromManifest(manifest, atlasBytes, header, file) };
  } catch (e) {
    if (e instanceof FormatError) throw e;
    throw new FormatError(FORMAT, file, `manifest is malformed: ${(e as Error).message}`, BUNDLE_HEADER_SIZE);
  }
}

async function modelFromManifest(manifest: BundleManifest, atlasBytes: Uint8Array, header: BundleHeader, file: string): Promise<FurniModel> {
  let atlas: RgbaImage;
  try {
    atlas = await decodeImage(atlasBytes);
  } catch (e) {
    throw new FormatError(FORMAT, file, `atlas does not decode: ${(e as Error).message}`, BUNDLE_HEADER_SIZE + header.manifestLength);
  }
  const cells = new Map<string, RgbaImage>();
  const sprites = new Map<string, FurniSprite>();
  for (const [name, s] of Object.entries(manifest.sprites)) {
    const [x, y, w, h] = s.rect;
    if (x < 0 || y < 0 || x + w > atlas.width || y + h > atlas.height) throw new FormatError(FORMAT, file, `sprite ${name} lies outside the ${atlas.width}x${atlas.height} atlas`);
    const key = s.rect.join(',');
    let image = cells.get(key);
    if (!image) cells.set(key, (image = cropImage(atlas, { x, y, width: w, height: h })));
    sprites.set(name, { image, x: s.x, y: s.y, flipH: !!s.flipH });
  }
  const sizes: SizeDef[] = [];
  const room = manifest.sizes?.['64'];
  if (room) {
    const animations: AnimationDef[] = [];
    for (const [id, st] of Object.entries(manifest.states ?? {})) {
      const a: AnimationDef = { key: st.key, id: Number(id), layers: animationLayersIn(st.layers) };
      if (st.immediateChangeFrom !== undefined) a.immediateChangeFrom = st.immediateChangeFrom;
      if (st.randomStart) a.randomStart = true;
      animations.push(a);
    }
    for (const t of manifest.transitions ?? []) {
      const a: AnimationDef = { key: t.key, id: t.id, layers: animationLayersIn(t.layers) };
      if (t.transitionTo !== undefined) a.transitionTo = t.transitionTo;
      if (t.transitionFrom !== undefined) a.transitionFrom = t.transitionFrom;
      animations.push(a);
    }
    sizes.push(sizeIn(64, room, manifest.cl ?? {}, animations));
  }
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
