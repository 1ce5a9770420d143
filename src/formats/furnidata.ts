// Furnidata in memory = the Nitro FurnitureData.json shape. This module reads the JSON file; the Flash
// parsers (furnidata.xml / legacy .txt) produce the same `FurnitureData`.
import { FormatError } from './errors.js';

export interface FurnitureDataRow {
  id: number;
  /** `<classname>` or a colour variant `<classname>*<n>` that shares the asset file of `<classname>`. */
  classname: string;
  revision: number;
  category?: string;
  defaultdir?: number;
  xdim?: number;
  ydim?: number;
  /** Catalogue swatches, not render tints. */
  partcolors?: { color: string[] };
  name?: string;
  description?: string;
  [key: string]: unknown;
}

export interface FurnitureData {
  roomitemtypes: { furnitype: FurnitureDataRow[] };
  wallitemtypes: { furnitype: FurnitureDataRow[] };
}

export type FurniKind = 'room' | 'wall';

const FORMAT = 'furnidata';

function rows(section: unknown, name: string, file: string): FurnitureDataRow[] {
  if (section === undefined || section === null) return [];
  if (typeof section !== 'object') throw new FormatError(FORMAT, file, `${name} is not an object`);
  const list = (section as { furnitype?: unknown }).furnitype;
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new FormatError(FORMAT, file, `${name}.furnitype is not an array`);
  const out: FurnitureDataRow[] = [];
  list.forEach((r, i) => {
    if (!r || typeof r !== 'object') throw new FormatError(FORMAT, file, `${name}.furnitype[${i}] is not an object`);
    const row = r as Record<string, unknown>;
    if (typeof row.classname !== 'string' || row.classname.trim() === '')
      throw new FormatError(FORMAT, file, `${name}.furnitype[${i}] has no classname`);
    const id = Number(row.id);
    const revision = Number(row.revision ?? 0);
    out.push({
      ...row,
      id: Number.isFinite(id) ? id : 0,
      classname: row.classname.trim(),
      revision: Number.isFinite(revision) ? revision : 0,
    } as FurnitureDataRow);
  });
  return out;
}

/** Reads a FurnitureData.json document (Nitro layout). */
export function readFurnitureDataJson(buf: Uint8Array, file = '<buffer>'): FurnitureData {
  let doc: unknown;
  try {
    doc = JSON.parse(
      Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength)
        .toString('utf8')
        .replace(/^\uFEFF/, ''),
    );
  } catch (e) {
    throw new FormatError(FORMAT, file, `not valid JSON: ${(e as Error).message}`);
  }
  if (!doc || typeof doc !== 'object') throw new FormatError(FORMAT, file, 'not a JSON object');
  const d = doc as Record<string, unknown>;
  if (d.roomitemtypes === undefined && d.wallitemtypes === undefined)
    throw new FormatError(FORMAT, file, 'has neither roomitemtypes nor wallitemtypes');
  return {
    roomitemtypes: { furnitype: rows(d.roomitemtypes, 'roomitemtypes', file) },
    wallitemtypes: { furnitype: rows(d.wallitemtypes, 'wallitemtypes', file) },
  };
}

/** Every row with its kind, room items first, in file order. */
export function allFurniRows(data: FurnitureData): { kind: FurniKind; row: FurnitureDataRow }[] {
  return [
    ...data.roomitemtypes.furnitype.map((row) => ({ kind: 'room' as const, row })),
    ...data.wallitemtypes.furnitype.map((row) => ({ kind: 'wall' as const, row })),
  ];
}

/** `chair_plasty*3` → { base: 'chair_plasty', colorId: 3 }; a base classname has no colour id. */
export function splitClassname(classname: string): { base: string; colorId?: number } {
  const star = classname.indexOf('*');
  if (star < 0) return { base: classname };
  const n = Number.parseInt(classname.slice(star + 1), 10);
  return Number.isFinite(n) ? { base: classname.slice(0, star), colorId: n } : { base: classname.slice(0, star) };
}
