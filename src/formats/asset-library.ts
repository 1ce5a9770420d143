// An asset library = the JSON document of a `.nitro` bundle plus its sprites cut out of the
// spritesheet. Furni bundles and figure libraries both load into this; the SWF reader produces it too.
import { type RgbaImage, createImage, cropImage } from '../imaging/image.js';
import { decodeImage, decodeImageNative } from '../imaging/codec.js';
import { encodePngCompact } from '../imaging/png-compact.js';
import { FormatError } from './errors.js';
import { readNitroBundle, writeNitroBundle, type NitroWriteOptions } from './nitro-container.js';
import { type NitroAssetData, type NitroSpriteFrame } from './nitro-asset-types.js';
import { decodeBudget, overBudget } from '../imaging/decode-budget.js';

const keyCount = (o: unknown): number => (o && typeof o === 'object' ? Object.keys(o).length : 0);

/**
 * Refuses a library document naming more assets (assets, aliases, spritesheet frames) than the decode budget allows.
 */
export function checkAssetCount(
  data: { assets?: unknown; aliases?: unknown; spritesheet?: { frames?: unknown } } | null | undefined,
  file: string,
  member: string,
): void {
  const count = keyCount(data?.assets) + keyCount(data?.aliases) + keyCount(data?.spritesheet?.frames);
  const { assets } = decodeBudget();
  if (count > assets)
    throw new FormatError(
      'nitro bundle',
      file,
      overBudget(`${member} with ${count} assets, aliases and frames`, `${assets} a library`, true),
    );
}

export interface AssetLibrary {
  /** Document name, e.g. `chair_plasty` or `hh_human_body`. */
  name: string;
  /** The JSON document without its `spritesheet` (the sprites below replace it). */
  data: NitroAssetData;
  /** Sprite images keyed by asset name without the `<name>_` prefix the spritesheet adds. */
  sprites: Map<string, RgbaImage>;
}

export interface ReadLibraryOptions {
  /**
   * Decode the spritesheet with libvips (`decodeImageNative`) instead of in-thread: cheaper for one
   * large sheet per library (furni); the default suits libraries read by the hundred (figures).
   */
  nativeDecode?: boolean;
}

/** Reads a `.nitro` bundle holding `<name>.json` and the spritesheet image it names. */
export async function readAssetLibrary(
  bundle: Uint8Array,
  file = '<buffer>',
  opts: ReadLibraryOptions = {},
): Promise<AssetLibrary> {
  const files = readNitroBundle(bundle, file);
  const jsonName = [...files.keys()].find((n) => n.endsWith('.json'));
  if (!jsonName) throw new FormatError('nitro bundle', file, 'no .json document inside');
  let data: NitroAssetData;
  try {
    data = JSON.parse(files.get(jsonName)!.toString('utf8')) as NitroAssetData;
  } catch (e) {
    throw new FormatError('nitro bundle', file, `${jsonName} is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof data !== 'object' || data === null)
    throw new FormatError('nitro bundle', file, `${jsonName} is not an object`);
  checkAssetCount(data, file, jsonName);
  const name = typeof data.name === 'string' && data.name ? data.name : jsonName.replace(/\.json$/, '');
  const sheet = data.spritesheet;
  const sprites = new Map<string, RgbaImage>();
  if (sheet?.frames && Object.keys(sheet.frames).length > 0) {
    const imageName = sheet.meta?.image ?? `${name}.png`;
    const imageData = files.get(imageName) ?? [...files.entries()].find(([n]) => n.endsWith('.png'))?.[1];
    if (!imageData) throw new FormatError('nitro bundle', file, `spritesheet image ${imageName} is missing`);
    let atlas: RgbaImage;
    try {
      atlas = await (opts.nativeDecode ? decodeImageNative : decodeImage)(imageData);
    } catch (e) {
      throw new FormatError('nitro bundle', file, `spritesheet ${imageName} does not decode: ${(e as Error).message}`);
    }
    const prefix = `${name}_`;
    for (const key of Object.keys(sheet.frames).sort()) {
      const assetName = key.startsWith(prefix) ? key.slice(prefix.length) : key;
      sprites.set(assetName, cutSprite(atlas, sheet.frames[key]!, file, key));
    }
  }
  const { spritesheet: _drop, ...rest } = data;
  return { name, data: rest as NitroAssetData, sprites };
}

/** The asset and alias names of a `.nitro` bundle, reading only its JSON document (no image is decoded). */
export function readAssetNames(bundle: Uint8Array, file = '<buffer>'): string[] {
  const files = readNitroBundle(bundle, file, (n) => n.endsWith('.json'));
  const [member, json] = [...files.entries()][0] ?? [];
  if (!json) throw new FormatError('nitro bundle', file, 'no .json document inside');
  let data: { assets?: object; aliases?: object };
  try {
    data = JSON.parse(json.toString('utf8')) as { assets?: object; aliases?: object };
  } catch (e) {
    throw new FormatError('nitro bundle', file, `its JSON document is not valid: ${(e as Error).message}`);
  }
  checkAssetCount(data, file, member!);
  return [...Object.keys(data?.assets ?? {}), ...Object.keys(data?.aliases ?? {})];
}

/**
 * A frame packed rotated (TexturePacker's `rotated`: turned 90° clockwise in the atlas, so it covers h × w
 * there while `frame` gives its upright w × h, as PixiJS's Spritesheet reads it) turned back upright.
 */
function unrotate(atlas: RgbaImage, x: number, y: number, w: number, h: number): RgbaImage {
  const out = createImage(w, h);
  // upright (u, v) sits at (x + h - 1 - v, y + u) in the atlas
  for (let v = 0; v < h; v++) {
    for (let u = 0; u < w; u++) {
      const from = ((y + u) * atlas.width + x + h - 1 - v) * 4;
      out.data.set(atlas.data.subarray(from, from + 4), (v * w + u) * 4);
    }
  }
  return out;
}

function cutSprite(atlas: RgbaImage, f: NitroSpriteFrame, file: string, key: string): RgbaImage {
  const { x, y, w, h } = f.frame;
  const [aw, ah] = f.rotated ? [h, w] : [w, h];
  if (x < 0 || y < 0 || x + aw > atlas.width || y + ah > atlas.height) {
    throw new FormatError('nitro bundle', file, `sprite ${key} lies outside the ${atlas.width}x${atlas.height} atlas`);
  }
  // A sheet holding one untrimmed sprite (room backdrops: 3000x2015) is that sprite: no copy.
  const whole = !f.rotated && x === 0 && y === 0 && w === atlas.width && h === atlas.height;
  const piece = f.rotated
    ? unrotate(atlas, x, y, w, h)
    : whole
      ? atlas
      : cropImage(atlas, { x, y, width: w, height: h });
  // Trimmed frames: put the trimmed piece back at its place in the untrimmed source size.
  const src = f.spriteSourceSize;
  const size = f.sourceSize;
  if (f.trimmed && src && size && (size.w !== w || size.h !== h || src.x !== 0 || src.y !== 0)) {
    const full = createImage(size.w, size.h);
    for (let row = 0; row < h; row++) {
      const ty = src.y + row;
      if (ty < 0 || ty >= size.h) continue;
      const from = row * w * 4;
      full.data.set(piece.data.subarray(from, from + Math.min(w, size.w - src.x) * 4), (ty * size.w + src.x) * 4);
    }
    return full;
  }
  return piece;
}

export interface WriteLibraryOptions extends NitroWriteOptions {
  /**
   * A sprite's frame name in the spritesheet (default `<library>_<sprite>`; the group badge part library names them
   * `badgepart_<name>.png`).
   */
  frameName?: (sprite: string) => string;
}

/** Packs sprites into one atlas (shelf packing, deterministic order) and writes a `.nitro` bundle. */
export async function writeAssetLibrary(lib: AssetLibrary, opts: WriteLibraryOptions = {}): Promise<Buffer> {
  const names = [...lib.sprites.keys()].sort();
  const { placements, width, height } = packShelves(
    names.map((n) => ({ key: n, width: lib.sprites.get(n)!.width, height: lib.sprites.get(n)!.height })),
  );
  const atlas = createImage(Math.max(1, width), Math.max(1, height));
  const frames: Record<string, NitroSpriteFrame> = {};
  for (const p of placements) {
    const img = lib.sprites.get(p.key)!;
    for (let row = 0; row < img.height; row++) {
      atlas.data.set(
        img.data.subarray(row * img.width * 4, (row + 1) * img.width * 4),
        ((p.y + row) * atlas.width + p.x) * 4,
      );
    }
    frames[opts.frameName ? opts.frameName(p.key) : `${lib.name}_${p.key}`] = {
      frame: { x: p.x, y: p.y, w: img.width, h: img.height },
      rotated: false,
      trimmed: false,
      spriteSourceSize: { x: 0, y: 0, w: img.width, h: img.height },
      sourceSize: { w: img.width, h: img.height },
      pivot: { x: 0.5, y: 0.5 },
    };
  }
  const imageName = `${lib.name}.png`;
  const doc: NitroAssetData = {
    ...lib.data,
    name: lib.name,
    spritesheet: {
      meta: { image: imageName, format: 'RGBA8888', size: { w: atlas.width, h: atlas.height }, scale: 1 },
      frames,
    },
  };
  const entries: [string, Uint8Array][] = [[`${lib.name}.json`, Buffer.from(JSON.stringify(doc))]];
  if (names.length > 0) entries.push([imageName, encodePngCompact(atlas)]);
  return writeNitroBundle(entries, opts);
}

export interface PackInput {
  key: string;
  width: number;
  height: number;
}
export interface Placement extends PackInput {
  x: number;
  y: number;
}

/** Shelf packing: tallest first, rows up to a width near the square root of the total area. */
export function packShelves(
  items: PackInput[],
  padding = 1,
): { placements: Placement[]; width: number; height: number } {
  const sorted = [...items].sort(
    (a, b) => b.height - a.height || b.width - a.width || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
  const area = sorted.reduce((s, i) => s + (i.width + padding) * (i.height + padding), 0);
  const maxItem = sorted.reduce((m, i) => Math.max(m, i.width), 0);
  const rowWidth = Math.max(maxItem, Math.ceil(Math.sqrt(area) * 1.1));
  const placements: Placement[] = [];
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  let width = 0;
  for (const it of sorted) {
    if (x > 0 && x + it.width > rowWidth) {
      y += rowHeight + padding;
      x = 0;
      rowHeight = 0;
    }
    placements.push({ ...it, x, y });
    x += it.width + padding;
    rowHeight = Math.max(rowHeight, it.height);
    width = Math.max(width, x - padding);
  }
  return { placements, width, height: sorted.length ? y + rowHeight : 0 };
}
