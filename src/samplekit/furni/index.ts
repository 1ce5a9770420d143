// The furni half of the sample kit: gamedata/FurnitureData.json and bundled/furniture/<cn>.nitro,
// in the layout and JSON schemas of a real Nitro hotel.
import { type AssetLibrary, writeAssetLibrary } from '../../formats/asset-library.js';
import { gzipSync } from 'node:zlib';
import { frameNitroBundle, writeNitroBundle } from '../../formats/nitro-container.js';
import { type KitFile } from '../kit-file.js';
import { type KitItem, KIT_ITEMS } from './catalog.js';
import { AtlasCache } from './fast-bundle.js';
import { type FloorRow, type FurnitureDataJson, type RowInput, type WallRow, furniRow, hexColor } from './furnidata.js';
import { GeneratedSprites, generatedLibrary, generatedRows, generatedSpec } from './generated.js';

export { KIT_ITEMS, type KitItem, readableBundle, brokenBundle } from './catalog.js';
export { generatedSpec, GENERATED_PREFIX } from './generated.js';
export type { FurnitureDataJson, FloorRow, WallRow } from './furnidata.js';

export interface FurniKitOptions {
  /** Generated items added after the hand-made ones (benchmarks use ~17,000). */
  extraFurni?: number;
}

export const FURNIDATA_PATH = 'gamedata/FurnitureData.json';
export const furniBundlePath = (classname: string) => `bundled/furniture/${classname}.nitro`;

function extraCount(opts: FurniKitOptions): number {
  const n = opts.extraFurni ?? 0;
  if (!Number.isInteger(n) || n < 0 || n > 99_999)
    throw new RangeError(`extraFurni must be an integer from 0 to 99999, got ${n}`);
  return n;
}

/** Colour of every tinted layer of a variant (catalogue swatches), white when the table lacks it. */
function variantSwatches(lib: AssetLibrary, variant: number | null): string[] {
  const v64 = lib.data.visualizations?.find((v) => v.size === 64);
  const entry = variant === null ? undefined : v64?.colors?.[String(variant)];
  if (!entry) return ['#FFFFFF'];
  return Object.keys(entry.layers).map((l) => hexColor(entry.layers[l]!.color));
}

function itemRows(it: KitItem, lib: AssetLibrary): RowInput[] {
  const base: RowInput = {
    kind: it.kind,
    id: it.id,
    classname: it.classname,
    revision: it.revision,
    name: it.name,
    description: it.description,
    defaultdir: it.defaultdir,
    xdim: it.xdim,
    ydim: it.ydim,
    partcolors: variantSwatches(lib, null),
    cansiton: /chair|sofa/.test(it.classname),
    canstandon: /rug|big|hatch/.test(it.classname),
  };
  const rows = it.baseRow ? [base] : [];
  for (const v of it.variants) {
    rows.push({
      ...base,
      id: it.id * 100 + v,
      classname: `${it.classname}*${v}`,
      name: `${it.name} (colour ${v})`,
      partcolors: variantSwatches(lib, v),
    });
  }
  return rows;
}

/** FurnitureData.json for the kit (hand-made items, then `extraFurni` generated ones). */
export function furnitureData(libs: ReadonlyMap<string, AssetLibrary>, extra: number): FurnitureDataJson {
  const floor: FloorRow[] = [];
  const wall: WallRow[] = [];
  const add = (r: RowInput) => (r.kind === 'wall' ? wall.push(furniRow(r)) : floor.push(furniRow(r) as FloorRow));
  for (const it of KIT_ITEMS) for (const r of itemRows(it, libs.get(it.classname)!)) add(r);
  for (let i = 1; i <= extra; i++) for (const r of generatedRows(generatedSpec(i))) add(r);
  return { roomitemtypes: { furnitype: floor }, wallitemtypes: { furnitype: wall } };
}

/** Bundle bytes as the kit ships them: valid, or deliberately broken for the corrupt-bundle items. */
async function itemBundle(it: KitItem, lib: AssetLibrary): Promise<Buffer | null> {
  switch (it.bundle) {
    case 'missing':
      return null;
    case 'ok':
      return writeAssetLibrary(lib);
    case 'gzip':
      return writeAssetLibrary(lib, { compression: 'gzip' });
    case 'gzip-truncated': {
      // A valid container whose JSON is a gzip member cut short (its length field says so): the
      // stream ends before its end-of-stream marker and trailer.
      const json = gzipSync(Buffer.from(JSON.stringify({ ...lib.data, name: lib.name })), { level: 9 });
      return frameNitroBundle([[`${lib.name}.json`, json.subarray(0, Math.floor(json.length / 2))]]);
    }
    case 'truncated': {
      const whole = await writeAssetLibrary(lib);
      return Buffer.from(whole.subarray(0, Math.floor(whole.length / 2)));
    }
    case 'garbage':
      return kitNoise(1021, it.id);
    case 'bad-json': {
      const json = JSON.stringify({ ...lib.data, name: lib.name });
      return writeNitroBundle([[`${lib.name}.json`, Buffer.from(json.slice(0, Math.floor(json.length / 2)))]]);
    }
  }
}

/**
 * Deterministic noise (xorshift32) for the kit's corrupt files. It starts ff ff: as a .nitro file count
 * (0xffff) or a SWF signature, no reader mistakes it for a valid file.
 */
export function kitNoise(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let s = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    out[i] = s & 0xff;
  }
  out[0] = 0xff;
  out[1] = 0xff;
  return out;
}

/**
 * Streams the furni files: FurnitureData.json first, then one bundle at a time (hand-made items by
 * classname, then generated ones in order), so 17,000 items never sit in memory together.
 */
export async function* furniKitStream(opts: FurniKitOptions = {}): AsyncGenerator<KitFile> {
  const extra = extraCount(opts);
  const libs = new Map<string, AssetLibrary>();
  for (const it of KIT_ITEMS) libs.set(it.classname, it.build());
  yield { path: FURNIDATA_PATH, data: Buffer.from(JSON.stringify(furnitureData(libs, extra), null, 1)) };
  const items = [...KIT_ITEMS].sort((a, b) => (a.classname < b.classname ? -1 : 1));
  for (const it of items) {
    const data = await itemBundle(it, libs.get(it.classname)!);
    if (data) yield { path: furniBundlePath(it.classname), data };
  }
  const sprites = new GeneratedSprites();
  const atlases = new AtlasCache();
  for (let i = 1; i <= extra; i++) {
    const spec = generatedSpec(i);
    yield {
      path: furniBundlePath(spec.classname),
      data: await atlases.write(generatedLibrary(spec, sprites), spec.spriteSetKey),
    };
  }
}

export async function furniKitFiles(opts: FurniKitOptions = {}): Promise<KitFile[]> {
  const out: KitFile[] = [];
  for await (const f of furniKitStream(opts)) out.push(f);
  return out;
}
