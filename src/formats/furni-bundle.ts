// Our published furni bundle (`hof_furni/<revision>/<classname>.bundle`): a 20-byte little-endian
// header, a gzip-compressed CBOR manifest, then a lossless WebP atlas. docs/bundle-format.md is the spec.
// This file writes and reads the bytes (and packs the sprites into the atlas); what goes into a bundle
// (which sprites, states, frame counts, the still) is the furni domain's (src/furni/bundle.ts).
import { gzipSync, gunzipSync, crc32 } from 'node:zlib';
import { decodeCbor, encodeCbor } from './cbor.js';
import { FormatError } from './errors.js';
import { packShelves } from './asset-library.js';
import { type NitroLayer } from './nitro-asset-types.js';
import { type RgbaImage, createImage, cropImage } from '../imaging/image.js';
import { decodeImage, encodeWebpLossless } from '../imaging/codec.js';

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
  /** The frame's sprite number: the `<frame>` of the asset name `<cn>_64_<letter>_<dir>_<frame>`. */
  id: number;
  /** Horizontal offset added to the layer's position, in pixels (default 0). */
  x?: number;
  /** Vertical offset added to the layer's position, in pixels (default 0). */
  y?: number;
  /** The client's horizontal random offset range for this frame, in pixels, as the source data gives it. */
  randomX?: number;
  /** The client's vertical random offset range for this frame, in pixels, as the source data gives it. */
  randomY?: number;
  /** Offsets by direction id that replace `x`, `y` when the item faces that direction. */
  offsets?: Record<string, { x: number; y: number }>;
}

/** One layer's part of an animation: its frame sequences and how they play. */
export interface ManifestAnimationLayer {
  /** Ticks each frame is held (at least 1). */
  frameRepeat: number;
  /** Plays of the sequences: 0 loops forever; after the last play the last frame holds. */
  loopCount: number;
  /** The client picks a random sequence instead of playing them in order. */
  random: boolean;
  /** The frame sequences, played one after another, each repeated its own `loopCount` times. */
  sequences: { loopCount: number; random: boolean; frames: ManifestFrame[] }[];
}

/** A resting animation: what the item shows while it stays in one state. */
export interface ManifestState {
  /** Key of the animation in the source data. */
  key: string;
  /** Animated layers by layer id; a layer not listed shows frame 0 with no offset. */
  layers: Record<string, ManifestAnimationLayer>;
  /** Ticks of one play-through (common multiple of the layer cycles, capped at 10 000). */
  loopTicks: number;
  /** Distinct frames: the loop's ticks with the unchanged ones dropped. */
  frameCount: number;
  /** frameCount × 120 ms: what the §2.5 player uses for one loop. */
  loopMs: number;
  /** The client's `immediateChangeFrom` attribute, kept as the source data spells it. */
  immediateChangeFrom?: string;
  /** The client's `randomStart` flag, set when the source data sets it. */
  randomStart?: boolean;
}

/** An animation the client plays between two states; never a resting state. */
export interface ManifestTransition {
  /** Key of the animation in the source data. */
  key: string;
  /** The client's animation id: 1 000 000 + to for transitionTo, 2 000 000 + from for transitionFrom. */
  id: number;
  /** The state this animation leads into (a transitionTo animation). */
  transitionTo?: number;
  /** The state this animation leads out of (a transitionFrom animation). */
  transitionFrom?: number;
  /** Animated layers by layer id, as in a ManifestState. */
  layers: Record<string, ManifestAnimationLayer>;
}

/** Layer fields as the data sets them (absent fields take the client's defaults): the Nitro JSON's own. */
export type ManifestLayer = NitroLayer;

/** The draw definition of one size (64 for the room, 32 for the small room scale, 1 for the icon). */
export interface ManifestSize {
  /** Layers 0 … layerCount − 1, which name the sprite letters a, b, c…. */
  layerCount: number;
  /** Degrees of one direction step (45 at size 64): a direction id × angle is its angle. */
  angle: number;
  /** Layer fields by layer id, for every direction. */
  layers: Record<string, ManifestLayer>;
  /** The defined directions in data order, each with layer fields that override `layers` field by field. */
  directions: { id: number; layers: Record<string, ManifestLayer> }[];
  /** Colour table of this size (size 64's is the top-level `cl`). */
  cl?: Record<string, Record<string, number>>;
  /** Resting states of this size (size 32 only; size 64's are the top-level `states`). */
  states?: Record<string, ManifestState>;
}

/** Where a sprite's pixels are in the atlas, and how it is placed. */
export interface ManifestSprite {
  /** Atlas rectangle [x, y, width, height]; aliases share their source's rectangle. */
  rect: [number, number, number, number];
  /** The asset's x, y as the source data stores them (see the offset rule in the spec). */
  x: number;
  /** See `x`. */
  y: number;
  /** The sprite is drawn mirrored horizontally (an alias of an unmirrored sprite). */
  flipH: boolean;
}

/**
 * A compact furni bundle's manifest (`manifest.json` inside the bundle): what the item is and how the client
 * draws it, with every sprite's place in the bundle's one atlas image.
 */
export interface BundleManifest {
  /** The bundle format version: 1. */
  format: 1;
  /** The base classname (no `*<n>` colour suffix). */
  classname: string;
  /** The client's logic type (`furniture_multistate` …). */
  logicType: string;
  /** The client's visualization type (`furniture_animated`, `furniture_static` …). */
  visualizationType: string;
  /** Footprint in tiles (x, y) and height (z); the directions the item can face, in degrees. */
  logic: { dimensions: { x: number; y: number; z: number }; directions: number[] };
  /** The atlas image's size in pixels. */
  atlas: { width: number; height: number };
  /** Sprites by asset name (`<cn>_64_a_2_0`), each with its rect in the atlas. */
  sprites: Record<string, ManifestSprite>;
  /** The draw definitions by size (`64`, `32`, `1` for the icon). */
  sizes: Record<string, ManifestSize>;
  /** Size-64 colour table: colour id → layer id → 0xRRGGBB. Not a list of valid variants. */
  cl: Record<string, Record<string, number>>;
  /** Resting states by id. */
  states: Record<string, ManifestState>;
  /** Animations that play between two states. */
  transitions: ManifestTransition[];
  /** What the published still shows (state, direction); frame is the state's first tick. */
  still: { state: number; direction: number };
}

/** A sprite as a bundle carries it: its pixels (aliases share them, and so one atlas cell), x, y, mirror flag. */
export interface BundleSprite {
  /** The sprite's pixels; an alias holds the same object as its source. */
  image: RgbaImage;
  /** The asset's x, y offsets as the source data stores them (docs/bundle-format.md, "sprites"). */
  x: number;
  /** See `x`. */
  y: number;
  /** The pixels are drawn mirrored horizontally. */
  flipH: boolean;
}

/** The manifest fields the writer is given; it adds `format`, `atlas` and the sprites' atlas rects. */
export type BundleContent = Omit<BundleManifest, 'format' | 'atlas' | 'sprites'>;

/** Packs the sprites into one atlas image: one cell per distinct image, aliases share their source's cell. */
function packAtlas(sprites: [string, BundleSprite][]): { atlas: RgbaImage; sprites: Record<string, ManifestSprite> } {
  const keys = new Map<RgbaImage, string>();
  for (const [name, s] of sprites) if (!keys.has(s.image)) keys.set(s.image, name);
  const images = new Map([...keys.entries()].map(([img, k]) => [k, img]));
  const { placements, width, height } = packShelves(
    [...images.entries()].map(([k, img]) => ({ key: k, width: img.width, height: img.height })),
  );
  const atlas = createImage(Math.max(1, width), Math.max(1, height));
  const rects = new Map<string, [number, number, number, number]>();
  for (const p of placements) {
    const img = images.get(p.key)!;
    for (let row = 0; row < img.height; row++)
      atlas.data.set(
        img.data.subarray(row * img.width * 4, (row + 1) * img.width * 4),
        ((p.y + row) * atlas.width + p.x) * 4,
      );
    rects.set(p.key, [p.x, p.y, p.width, p.height]);
  }
  const out: Record<string, ManifestSprite> = {};
  for (const [name, s] of sprites) out[name] = { rect: rects.get(keys.get(s.image)!)!, x: s.x, y: s.y, flipH: s.flipH };
  return { atlas, sprites: out };
}

/** The manifest and atlas image of a bundle (pure; no encoding). Sprites are packed in the order given. */
function bundleManifest(
  content: BundleContent,
  sprites: [string, BundleSprite][],
): { manifest: BundleManifest; atlas: RgbaImage } {
  const packed = packAtlas(sprites);
  // Field order is the CBOR map order: part of the bytes.
  const manifest: BundleManifest = {
    format: 1,
    classname: content.classname,
    logicType: content.logicType,
    visualizationType: content.visualizationType,
    logic: content.logic,
    atlas: { width: packed.atlas.width, height: packed.atlas.height },
    sprites: packed.sprites,
    sizes: content.sizes,
    cl: content.cl,
    states: content.states,
    transitions: content.transitions,
    still: content.still,
  };
  return { manifest, atlas: packed.atlas };
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

/** Writes a bundle: deterministic bytes for the same content and sprites. */
export async function writeBundle(content: BundleContent, sprites: [string, BundleSprite][]): Promise<Buffer> {
  const { manifest, atlas } = bundleManifest(content, sprites);
  const manifestBytes = gzipSync(encodeCbor(manifest), { level: 9 });
  return encodeBundle(manifestBytes, await encodeWebpLossless(atlas));
}

export function readBundleHeader(buf: Uint8Array, file = '<buffer>'): BundleHeader {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.length < BUNDLE_HEADER_SIZE)
    throw new FormatError(FORMAT, file, `only ${b.length} bytes, shorter than the 20-byte header`);
  if (b.toString('latin1', 0, 4) !== BUNDLE_MAGIC)
    throw new FormatError(FORMAT, file, `bad magic ${JSON.stringify(b.toString('latin1', 0, 4))}, expected "HFUR"`, 0);
  const h: BundleHeader = {
    version: b.readUInt16LE(4),
    flags: b.readUInt16LE(6),
    manifestLength: b.readUInt32LE(8),
    atlasLength: b.readUInt32LE(12),
    crc32: b.readUInt32LE(16),
  };
  if (h.version !== BUNDLE_VERSION) throw new FormatError(FORMAT, file, `unsupported format version ${h.version}`, 4);
  if (h.flags !== 0) throw new FormatError(FORMAT, file, `unknown flags 0x${h.flags.toString(16)}`, 6);
  const want = BUNDLE_HEADER_SIZE + h.manifestLength + h.atlasLength;
  if (want !== b.length) throw new FormatError(FORMAT, file, `header says ${want} bytes, file has ${b.length}`, 8);
  const crc = crc32(b.subarray(BUNDLE_HEADER_SIZE)) >>> 0;
  if (crc !== h.crc32)
    throw new FormatError(
      FORMAT,
      file,
      `CRC-32 mismatch: header 0x${h.crc32.toString(16)}, content 0x${crc.toString(16)}`,
      16,
    );
  return h;
}

/** Decodes header and manifest (no image decoding). */
export function readBundleManifest(
  buf: Uint8Array,
  file = '<buffer>',
): { header: BundleHeader; manifest: BundleManifest; atlasBytes: Uint8Array } {
  const header = readBundleHeader(buf, file);
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  let manifest: BundleManifest;
  try {
    manifest = decodeCbor(
      gunzipSync(b.subarray(BUNDLE_HEADER_SIZE, BUNDLE_HEADER_SIZE + header.manifestLength)),
    ) as unknown as BundleManifest;
  } catch (e) {
    throw new FormatError(FORMAT, file, `manifest does not decode: ${(e as Error).message}`, BUNDLE_HEADER_SIZE);
  }
  if (
    !manifest ||
    typeof manifest !== 'object' ||
    manifest.format !== 1 ||
    typeof manifest.classname !== 'string' ||
    typeof manifest.sprites !== 'object'
  ) {
    throw new FormatError(FORMAT, file, 'manifest is not a format-1 furni manifest', BUNDLE_HEADER_SIZE);
  }
  return { header, manifest, atlasBytes: b.subarray(BUNDLE_HEADER_SIZE + header.manifestLength) };
}

/**
 * The sprites of a bundle read back from its atlas (one image per cell, shared by the sprites that point
 * at it). A sprite outside the atlas, or a manifest whose sprites do not have the stored shape, is a
 * FormatError.
 */
export async function readBundleSprites(
  manifest: BundleManifest,
  atlasBytes: Uint8Array,
  header: BundleHeader,
  file = '<buffer>',
): Promise<Map<string, BundleSprite>> {
  let atlas: RgbaImage;
  try {
    atlas = await decodeImage(atlasBytes);
  } catch (e) {
    throw new FormatError(
      FORMAT,
      file,
      `atlas does not decode: ${(e as Error).message}`,
      BUNDLE_HEADER_SIZE + header.manifestLength,
    );
  }
  try {
    const cells = new Map<string, RgbaImage>();
    const sprites = new Map<string, BundleSprite>();
    for (const [name, s] of Object.entries(manifest.sprites)) {
      const [x, y, w, h] = s.rect;
      if (x < 0 || y < 0 || x + w > atlas.width || y + h > atlas.height)
        throw new FormatError(FORMAT, file, `sprite ${name} lies outside the ${atlas.width}x${atlas.height} atlas`);
      const key = s.rect.join(',');
      let image = cells.get(key);
      if (!image) cells.set(key, (image = cropImage(atlas, { x, y, width: w, height: h })));
      sprites.set(name, { image, x: s.x, y: s.y, flipH: !!s.flipH });
    }
    return sprites;
  } catch (e) {
    throw malformedManifest(e, file);
  }
}

/** A manifest that decodes but lacks the stored shape: a FormatError naming what failed. */
export function malformedManifest(e: unknown, file: string): FormatError {
  if (e instanceof FormatError) return e;
  return new FormatError(FORMAT, file, `manifest is malformed: ${(e as Error).message}`, BUNDLE_HEADER_SIZE);
}
