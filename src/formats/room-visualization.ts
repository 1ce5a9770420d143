// The `roomVisualization` document of a room.nitro (`bundled/generic/room.nitro` → `room.json`): the floor,
// wall and landscape decorations (planes → per-size layers → materials → textures → asset names) and the
// plane masks (doors, windows). Read as the client's RoomVisualizationData does: unknown keys are ignored,
// a malformed entry is skipped, a document without the three plane sets is refused naming the file.
import { FormatError } from './errors.js';

/** One layer of a plane's visualization at a size: a material tinted by a colour, or a plain colour. */
export interface PlaneLayer {
  materialId?: string;
  /** 0xRRGGBB; white (no tint) when absent. */
  color: number;
  /** `top` (the default) or `bottom`: which edge of the plane the material's texture is laid from. */
  align: 'top' | 'bottom';
  offset: number;
}

/** A decoration (`floor=101`, `wall=203`, `landscape=1.1`) at each size it defines. */
export interface PlaneDef {
  id: string;
  /** Layers by size (64, 32); a landscape's animated visualization counts as its layers (items are not read). */
  sizes: Map<number, PlaneLayer[]>;
}

/** A texture: bitmaps chosen by the plane's normal (screen x of the normal between normalMinX and normalMaxX). */
export interface PlaneTexture {
  id: string;
  bitmaps: { assetName: string; normalMinX: number; normalMaxX: number }[];
}

/** A material: its cell matrices; a column repeats its cells (first cell's texture) across the plane. */
export interface PlaneMaterial {
  id: string;
  matrices: {
    align: 'top' | 'bottom';
    normalMinX: number;
    normalMaxX: number;
    columns: { width: number; textureIds: string[]; repeat: boolean; cells: PlaneCell[] }[];
    /** `repeatMode: random`: columns are picked at random along the plane (PlaneMaterialCellMatrix). */
    random: boolean;
  }[];
}

/** A cell of a material column: its texture and the extra items scattered on it (a landscape's trees). */
export interface PlaneCell {
  textureId: string;
  /** How many items are placed (limitMax; else every offset), which assets, and where they may go. */
  limit: number;
  items: string[];
  offsets: [number, number][];
}

export interface PlaneSet {
  planes: Map<string, PlaneDef>;
  materials: Map<string, PlaneMaterial>;
  textures: Map<string, PlaneTexture>;
}

/** A plane mask (door, window): its bitmap per size, chosen by the plane's normal as textures are. */
export interface PlaneMaskDef {
  id: string;
  sizes: Map<number, { assetName: string; normalMinX: number; normalMaxX: number }[]>;
}

export interface RoomVisualizationDoc {
  floor: PlaneSet;
  wall: PlaneSet;
  landscape: PlaneSet;
  masks: Map<string, PlaneMaskDef>;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const num = (v: unknown, d: number): number => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : d;
};
const str = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;

function layersOf(raw: unknown): PlaneLayer[] {
  const out: PlaneLayer[] = [];
  for (const l of arr(raw)) {
    // A layer of items is a landscape's animation layer (LandscapeRasterizer: its moving clouds), not a fill.
    if (!isObj(l) || l.items !== undefined) continue;
    const materialId = str(l.materialId);
    out.push({
      ...(materialId ? { materialId } : {}),
      color: num(l.color, 0xffffff) & 0xffffff,
      align: l.align === 'bottom' ? 'bottom' : 'top',
      offset: num(l.offset, 0),
    });
  }
  return out;
}

function normals(o: Json): { normalMinX: number; normalMaxX: number } {
  return { normalMinX: num(o.normalMinX, -1), normalMaxX: num(o.normalMaxX, 1) };
}

function planeSet(raw: unknown, key: string, file: string): PlaneSet {
  if (!isObj(raw) || !Array.isArray(raw.planes))
    throw new FormatError('room visualization', file, `${key}.planes is missing: not a room.nitro visualization`);
  const planes = new Map<string, PlaneDef>();
  for (const p of raw.planes) {
    if (!isObj(p)) continue;
    const id = str(p.id);
    if (!id || planes.has(id)) continue;
    const sizes = new Map<number, PlaneLayer[]>();
    for (const v of [...arr(p.visualizations), ...arr(p.animatedVisualization)]) {
      if (!isObj(v)) continue;
      const size = num(v.size, 0);
      if (!sizes.has(size)) sizes.set(size, layersOf(v.allLayers ?? v.layers));
    }
    planes.set(id, { id, sizes });
  }
  const materials = new Map<string, PlaneMaterial>();
  for (const m of arr(raw.materials)) {
    if (!isObj(m)) continue;
    const id = str(m.id);
    if (!id || materials.has(id)) continue;
    materials.set(id, {
      id,
      matrices: arr(m.matrices)
        .filter(isObj)
        .map((x) => ({
          align: x.align === 'bottom' ? ('bottom' as const) : ('top' as const),
          ...normals(x),
          random: x.repeatMode === 'random',
          columns: arr(x.columns)
            .filter(isObj)
            .map((c) => {
              const cells = arr(c.cells)
                .filter(isObj)
                .filter((cell) => !!str(cell.textureId))
                .map((cell): PlaneCell => {
                  const extra = isObj(cell.extraData) ? cell.extraData : {};
                  const items = arr(extra.extraItemTypes).filter((t): t is string => typeof t === 'string' && !!t);
                  const offsets = arr(extra.offsets)
                    .filter((o): o is unknown[] => Array.isArray(o) && o.length >= 2)
                    .map((o): [number, number] => [num(o[0], 0), num(o[1], 0)]);
                  const some = items.length > 0 && offsets.length > 0;
                  return {
                    textureId: str(cell.textureId)!,
                    limit: some ? num(extra.limitMax, offsets.length) : 0,
                    items: some ? items : [],
                    offsets: some ? offsets : [],
                  };
                });
              return {
                width: num(c.width, 0),
                repeat: c.repeatMode === undefined || c.repeatMode === 'all' || c.repeatMode === 'borders',
                textureIds: cells.map((cell) => cell.textureId),
                cells,
              };
            }),
        })),
    });
  }
  const textures = new Map<string, PlaneTexture>();
  for (const t of arr(raw.textures)) {
    if (!isObj(t)) continue;
    const id = str(t.id);
    if (!id || textures.has(id)) continue;
    textures.set(id, {
      id,
      bitmaps: arr(t.bitmaps)
        .filter(isObj)
        .map((b) => ({ assetName: str(b.assetName) ?? '', ...normals(b) }))
        .filter((b) => b.assetName),
    });
  }
  return { planes, materials, textures };
}

/** Reads the `roomVisualization` object of a room.nitro's JSON document (`file` names it in errors). */
export function parseRoomVisualization(doc: unknown, file: string): RoomVisualizationDoc {
  const rv = isObj(doc) ? doc.roomVisualization : undefined;
  if (!isObj(rv)) throw new FormatError('room visualization', file, 'no roomVisualization object: not a room.nitro');
  const masks = new Map<string, PlaneMaskDef>();
  const maskData = isObj(rv.maskData) ? rv.maskData : {};
  for (const m of arr(maskData.masks)) {
    if (!isObj(m)) continue;
    const id = str(m.id);
    if (!id || masks.has(id)) continue;
    const sizes = new Map<number, { assetName: string; normalMinX: number; normalMaxX: number }[]>();
    for (const v of arr(m.visualizations)) {
      if (!isObj(v)) continue;
      const size = num(v.size, 0);
      if (sizes.has(size)) continue;
      sizes.set(
        size,
        arr(v.bitmaps)
          .filter(isObj)
          .map((b) => ({ assetName: str(b.assetName) ?? '', ...normals(b) }))
          .filter((b) => b.assetName),
      );
    }
    masks.set(id, { id, sizes });
  }
  return {
    floor: planeSet(rv.floorData, 'floorData', file),
    wall: planeSet(rv.wallData, 'wallData', file),
    landscape: planeSet(rv.landscapeData, 'landscapeData', file),
    masks,
  };
}
