// The legacy furnidata.txt: JSON-like arrays of rows `["s"|"i", id, classname, revision, defaultdir, xdim,
// ydim, partcolors, name, description, adurl, offerid, …]`, hand-edited in the wild: rows break across
// lines and lines do not always hold a complete array. We scan row by row (a row starts at `["s"` or
// `["i"`), read its quoted fields, and report — with line numbers — every row we cannot read.
import { type FurnitureData, type FurnitureDataRow } from '../furnidata.js';

export interface FurnidataProblem {
  /** 1-based line where the unreadable row starts. */
  line: number;
  reason: string;
  /** The start of the row's text, for the report. */
  excerpt: string;
}

export interface LegacyFurnidata {
  data: FurnitureData;
  problems: FurnidataProblem[];
}

const ROW_START = /\[\s*"([si])"/g;

/** Reads the fields of one row starting at `[`; returns them and where the row ends, or why it fails. */
function readRow(text: string, start: number): { fields: string[]; end: number } | { error: string; end: number } {
  let i = start + 1;
  const fields: string[] = [];
  const n = text.length;
  for (;;) {
    while (i < n && /\s/.test(text[i]!)) i++;
    if (i >= n) return { error: 'row never closes', end: n };
    const c = text[i]!;
    if (c === ']') return fields.length ? { fields, end: i + 1 } : { error: 'empty row', end: i + 1 };
    if (c === '"') {
      let value = '';
      i++;
      for (;;) {
        if (i >= n) return { error: 'unterminated string', end: n };
        const ch = text[i]!;
        if (ch === '\\' && i + 1 < n) {
          const next = text[i + 1]!;
          const esc: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', '/': '/' };
          if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            value += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
            i += 6;
          } else {
            value += esc[next] ?? next;
            i += 2;
          }
          continue;
        }
        if (ch === '"') {
          i++;
          break;
        }
        // A row start inside a string means the string was never closed on its own row.
        if (ch === '[' && /^\[\s*"[si]"\s*,/.test(text.slice(i, i + 12)) && /[\r\n]/.test(value)) {
          return { error: 'unterminated string', end: i };
        }
        value += ch;
        i++;
      }
      fields.push(value);
    } else if (/[-0-9]/.test(c)) {
      const m = /^-?[0-9]+(?:\.[0-9]+)?/.exec(text.slice(i, i + 32));
      if (!m) return { error: `unexpected ${JSON.stringify(c)}`, end: i };
      fields.push(m[0]);
      i += m[0].length;
    } else {
      return { error: `unexpected ${JSON.stringify(text.slice(i, i + 10))}`, end: i };
    }
    while (i < n && /\s/.test(text[i]!)) i++;
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text[i] === ']') return { fields, end: i + 1 };
    return { error: `expected , or ] but found ${JSON.stringify(text.slice(i, i + 10))}`, end: i };
  }
}

function int(v: string | undefined, fallback: number): number {
  if (v === undefined || v.trim() === '') return fallback;
  const n = parseInt(v, 10);
  return Number.isNaN(n) ? fallback : n;
}

/** Catalogue swatches: `#rrggbb` entries; placeholders such as `0,0,0` carry none. */
function partColors(v: string | undefined): { color: string[] } {
  return {
    color: (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => /^#[0-9a-fA-F]{6}$/.test(s)),
  };
}

function toRow(f: string[], floor: boolean): FurnitureDataRow {
  const r: FurnitureDataRow = {
    id: int(f[1], 0),
    classname: f[2]!.trim(),
    revision: int(f[3], 0),
    category: '',
    name: f[8] ?? '',
    description: f[9] ?? '',
    adurl: f[10] ?? '',
    offerid: int(f[11], -1),
    buyout: false,
    rentofferid: -1,
    rentbuyout: false,
    bc: false,
    excludeddynamic: false,
    customparams: '',
    specialtype: 1,
    furniline: '',
  };
  if (floor) {
    r.defaultdir = int(f[4], 0);
    r.xdim = int(f[5], 1);
    r.ydim = int(f[6], 1);
    r.partcolors = partColors(f[7]);
    r.canstandon = false;
    r.cansiton = false;
    r.canlayon = false;
  }
  return r;
}

/**
 * Parses furnidata.txt. Rows of type `s` are room (floor) items, `i` wall items. A row the scanner cannot
 * read, or one without an id and a classname, is reported and skipped; the rest still load.
 */
export function parseLegacyFurnidata(text: string): LegacyFurnidata {
  const src = text.replace(/^\uFEFF/, '');
  const lineStarts: number[] = [0];
  for (let i = 0; i < src.length; i++) if (src.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const lineOf = (pos: number) => {
    let lo = 0,
      hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const room: FurnitureDataRow[] = [];
  const wall: FurnitureDataRow[] = [];
  const problems: FurnidataProblem[] = [];
  ROW_START.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ROW_START.exec(src))) {
    const start = m.index;
    const res = readRow(src, start);
    const excerpt = src.slice(start, Math.min(start + 80, res.end)).replace(/\s+/g, ' ');
    if ('error' in res) {
      problems.push({ line: lineOf(start), reason: res.error, excerpt });
      ROW_START.lastIndex = Math.max(start + 1, res.end);
      continue;
    }
    ROW_START.lastIndex = res.end;
    const f = res.fields;
    if (f.length < 3 || !f[2]!.trim()) {
      problems.push({ line: lineOf(start), reason: 'row has no classname', excerpt });
      continue;
    }
    if (!/^-?\d+$/.test(f[1]!.trim())) {
      problems.push({ line: lineOf(start), reason: `row id ${JSON.stringify(f[1])} is not a number`, excerpt });
      continue;
    }
    (f[0] === 's' ? room : wall).push(toRow(f, f[0] === 's'));
  }
  return { data: { roomitemtypes: { furnitype: room }, wallitemtypes: { furnitype: wall } }, problems };
}
