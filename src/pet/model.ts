// A pet library (`bundled/pet/<name>.nitro`) as the pet visualization reads it: a furni-like draw model (layers,
// directions, animations, sprites `<name>_64_<letter>_<direction>_<frame>[_<part>]`) plus what only pets have:
// palettes that recolour the grey sprites, postures and gestures that name animations, and layer tags (head,
// hair, saddle) that decide which layers turn with the head.
import { type AssetLibrary } from '../formats/asset-library.js';
import { type FurniModel, furniModelFromLibrary, type SizeDef, sizeOf } from '../furni/model.js';
import { createImage, type RgbaImage } from '../imaging/image.js';

export interface PetModel {
  /** The library's draw model; `def.classname` is the library name (`dog`). */
  furni: FurniModel;
  /** The size-64 visualization (pets are drawn at 64; size 32 rooms take it at half scale). */
  size: SizeDef;
  /** Palette id → 256 RGB triples (PaletteMap: a sprite's green value picks its colour). */
  palettes: ReadonlyMap<string, Uint8Array>;
  /** Assets drawn through a palette (`usesPalette`). */
  paletteAssets: ReadonlySet<string>;
  /** Posture id → animation id, in data order, and the default posture (PetSizeData.processPostures). */
  postures: ReadonlyMap<string, number>;
  defaultPosture: string | undefined;
  /** Gesture id → animation id. */
  gestures: ReadonlyMap<string, number>;
}

export class PetLibraryError extends Error {}

interface RawPalette {
  id?: unknown;
  rgb?: unknown;
}
interface RawPetVisualization {
  size?: unknown;
  postures?: { defaultPosture?: unknown; postures?: { id?: unknown; animationId?: unknown }[] };
  gestures?: { id?: unknown; animationId?: unknown }[];
}

/** Builds a pet's draw model; throws PetLibraryError when the library has no size-64 visualization to draw. */
export function petModelFromLibrary(lib: AssetLibrary): PetModel {
  const furni = furniModelFromLibrary(lib);
  const size = sizeOf(furni, 64);
  if (!size) throw new PetLibraryError(`pet library ${lib.name} has no size-64 visualization`);
  const data = lib.data as {
    palettes?: Record<string, RawPalette>;
    visualizations?: RawPetVisualization[];
    assets?: Record<string, { usesPalette?: unknown }>;
  };
  const palettes = new Map<string, Uint8Array>();
  for (const p of Object.values(data.palettes ?? {})) {
    if (!p || typeof p !== 'object' || !Array.isArray(p.rgb)) continue;
    const id = String(p.id);
    if (palettes.has(id)) continue; // GraphicAssetCollection.definePalettes: the first of an id stays
    // GraphicAssetPalette pads to 256 entries with black; a missing or odd entry reads as black too.
    const table = new Uint8Array(256 * 3);
    p.rgb.slice(0, 256).forEach((c: unknown, i: number) => {
      if (!Array.isArray(c)) return;
      for (let k = 0; k < 3; k++) table[i * 3 + k] = Math.max(0, Math.min(255, Number(c[k]) || 0));
    });
    palettes.set(id, table);
  }
  const paletteAssets = new Set<string>();
  for (const [name, a] of Object.entries(data.assets ?? {})) if (a && a.usesPalette === true) paletteAssets.add(name);
  const vis = (data.visualizations ?? []).find((v) => v && Number(v.size) === 64);
  // PetSizeData.processPostures: the default is the data's, else the first posture; a repeated id keeps its first.
  const postures = new Map<string, number>();
  let defaultPosture = typeof vis?.postures?.defaultPosture === 'string' ? vis.postures.defaultPosture : undefined;
  for (const p of vis?.postures?.postures ?? []) {
    if (typeof p?.id !== 'string' || postures.has(p.id)) continue;
    defaultPosture ??= p.id;
    postures.set(p.id, Number(p.animationId) || 0);
  }
  const gestures = new Map<string, number>();
  for (const g of vis?.gestures ?? [])
    if (typeof g?.id === 'string' && !gestures.has(g.id)) gestures.set(g.id, Number(g.animationId) || 0);
  return { furni, size, palettes, paletteAssets, postures, defaultPosture, gestures };
}

const recoloured = new WeakMap<RgbaImage, Map<string, RgbaImage>>();

/**
 * A sprite through a palette (GraphicAssetPalette.applyPalette): each pixel's colour becomes the palette entry
 * its green value names, its alpha kept. Kept per image and palette, as the client keeps `name@palette`.
 */
export function withPalette(image: RgbaImage, paletteId: string, palette: Uint8Array): RgbaImage {
  let byPalette = recoloured.get(image);
  const hit = byPalette?.get(paletteId);
  if (hit) return hit;
  const out = createImage(image.width, image.height);
  const src = image.data;
  const dst = out.data;
  for (let i = 0; i < src.length; i += 4) {
    const p = src[i + 1]! * 3;
    dst[i] = palette[p]!;
    dst[i + 1] = palette[p + 1]!;
    dst[i + 2] = palette[p + 2]!;
    dst[i + 3] = src[i + 3]!;
  }
  if (!byPalette) recoloured.set(image, (byPalette = new Map()));
  byPalette.set(paletteId, out);
  return out;
}
