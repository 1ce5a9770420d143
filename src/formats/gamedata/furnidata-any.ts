// One entry point for every furnidata format a hotel may ship: the Nitro/Habbo JSON, the XML, the legacy
// text. All produce the in-memory FurnitureData (the Nitro FurnitureData.json shape).
import { FormatError } from '../errors.js';
import { type FurnitureData, readFurnitureDataJson } from '../furnidata.js';
import { parseFurnidataXml } from './furnidata-xml.js';
import { type FurnidataProblem, parseLegacyFurnidata } from './furnidata-txt.js';

export type FurnidataFormat = 'json' | 'xml' | 'txt';

/** Guesses the format from the first meaningful character. */
export function sniffFurnidataFormat(bytes: Uint8Array): FurnidataFormat {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 4096))
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (head.startsWith('<')) return 'xml';
  if (head.startsWith('{')) return 'json';
  return 'txt';
}

/** Reads furnidata in any format; `problems` lists legacy rows that could not be read (txt only). */
export function readFurnidataAny(
  bytes: Uint8Array,
  file: string,
  format: FurnidataFormat = sniffFurnidataFormat(bytes),
): { data: FurnitureData; problems: FurnidataProblem[] } {
  if (format === 'json') return { data: readFurnitureDataJson(bytes, file), problems: [] };
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (format === 'xml') return { data: parseFurnidataXml(text, file), problems: [] };
  const legacy = parseLegacyFurnidata(text);
  // The legacy reader skips what it cannot read; a file with no readable row at all is not furnidata
  // (an error page saved under its name, a half-failed export), and reading it as "no items" would
  // unpublish the whole hotel.
  if (legacy.data.roomitemtypes.furnitype.length + legacy.data.wallitemtypes.furnitype.length === 0) {
    const first = legacy.problems[0];
    throw new FormatError(
      'furnidata',
      file,
      first
        ? `no row could be read (${legacy.problems.length} unreadable, the first at ` +
            `line ${first.line}: ${first.reason})`
        : `no furnidata row in it (expected rows such as ["s","1","classname","1",…])`,
    );
  }
  return legacy;
}
