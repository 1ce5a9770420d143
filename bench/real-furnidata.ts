// A stand-in FurnitureData.json for benchmarking a Nitro furni folder that came without one (the public
// Soubran/quech snapshot lacks its FurnitureData.json: too big for the snapshot). A hotel always has the
// real file and the build publishes exactly what it lists; this approximation lists every `.nitro` bundle
// found, once as its base classname and once per colour id (≥ 1) of its size-64 colour table, which is
// how real furnidata lists colour variants. Revisions are 1. Written only into the benchmark's own
// folder, never into the repository or the hotel folder.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { readNitroBundle } from '../src/formats/nitro-container.js';

export interface GeneratedFurnidata {
  json: string;
  bundles: number;
  variantRows: number;
  /** Bundles whose container or JSON could not be read: listed with their base row only. */
  unreadable: number;
  /** Identifies the folder listing (names and sizes), to reuse a generated file. */
  listingKey: string;
}

/** Key of a furni folder's listing: names and sizes of its `.nitro` files. */
export function listingKey(furniDir: string): string {
  const h = createHash('sha256');
  for (const n of readdirSync(furniDir)
    .filter((x) => x.endsWith('.nitro'))
    .sort())
    h.update(`${n}\0${readFileSync(join(furniDir, n)).length}\n`);
  return h.digest('hex').slice(0, 16);
}

function colourIds(bytes: Buffer, file: string): number[] {
  const files = readNitroBundle(bytes, file);
  const json = [...files.entries()].find(([n]) => n.endsWith('.json'))?.[1];
  if (!json) return [];
  const doc = JSON.parse(json.toString('utf8')) as {
    visualizations?: { size?: number; colors?: Record<string, unknown> }[];
  };
  const v64 = (doc.visualizations ?? []).find((v) => Number(v?.size) === 64);
  return Object.keys(v64?.colors ?? {})
    .map((k) => Number.parseInt(k, 10))
    .filter((n) => Number.isInteger(n) && n >= 1)
    .sort((a, b) => a - b);
}

export function generateFurnidata(furniDir: string): GeneratedFurnidata {
  const names = readdirSync(furniDir)
    .filter((x) => x.endsWith('.nitro'))
    .sort();
  const rows: Record<string, unknown>[] = [];
  let variantRows = 0;
  let unreadable = 0;
  let id = 1;
  for (const n of names) {
    const cn = n.slice(0, -'.nitro'.length);
    let ids: number[] = [];
    try {
      ids = colourIds(readFileSync(join(furniDir, n)), n);
    } catch {
      unreadable++;
    }
    rows.push({ id: id++, classname: cn, revision: 1, name: cn });
    for (const c of ids) {
      rows.push({ id: id++, classname: `${cn}*${c}`, revision: 1, name: `${cn} colour ${c}` });
      variantRows++;
    }
  }
  const json = JSON.stringify({ roomitemtypes: { furnitype: rows }, wallitemtypes: { furnitype: [] } });
  return { json, bundles: names.length, variantRows, unreadable, listingKey: listingKey(furniDir) };
}
