// One entry point for every furnidata format a hotel may ship: the Nitro/Habbo JSON, the XML, the legacy
// text. All produce the in-memory FurnitureData (the Nitro FurnitureData.json shape).
import { type FurnitureData, readFurnitureDataJson } from '../furnidata.js';
import { parseFurnidataXml } from './furnidata-xml.js';
import { type FurnidataProblem, parseLegacyFurnidata } from './furnidata-txt.js';

export type FurnidataFormat = 'json' | 'xml' | 'txt';

/** Guesses the format from the first meaningful character. */
export function sniffFurnidataFormat(bytes: Uint8Array): FurnidataFormat {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 4096)).toString('utf8').replace(/^\uFEFF/, '').trimStart();
  if (head.startsWith('<')) return 'xml';
  if (head.startsWith('{')) return 'json';
  return 'txt';
}

/** Reads furnidata in any format; `problems` lists legacy rows that could not be read (txt only). */
export function readFurnidataAny(bytes: Uint8Array, file: string, format: FurnidataFormat = sniffFurnidataFormat(bytes)): { data: FurnitureData; problems: FurnidataProblem[] } {
  if (format === 'json') return { data: readFurnitureDataJson(bytes, file), problems: [] };
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (format === 'xml') return { data: parseFurnidataXml(text, file), problems: [] };
  return parseLegacyFurnidata(text);
}
