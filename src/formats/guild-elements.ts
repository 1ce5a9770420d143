// The emulator's `guilds_elements` table (group badge parts and colours), as an operator exports it from
// the hotel's database: CSV (columns `id, firstvalue, secondvalue, type, enabled`, no header, as the
// emulators' own exports; a header row naming the columns is accepted too, in any order) or JSON (an
// array of row objects with those keys, or phpMyAdmin's JSON export of the table). Rows of type `base`
// and `symbol` name one or two part images (firstvalue is tinted, secondvalue drawn over it untinted);
// `base_color`, `symbol_color` and `background_color` rows give a colour in hex.
//
// Like the emulators (Arcturus `GuildManager.loadGuildParts`), every row counts whatever `enabled` says
// (the flag only hides a part in the badge editor), a later row of the same type and id replaces an
// earlier one, and the type is read case-insensitively. A row that cannot be read is skipped and reported.
import { parse } from 'csv-parse/sync';
import { FormatError } from './errors.js';

export const GUILD_ELEMENT_TYPES = ['base', 'symbol', 'base_color', 'symbol_color', 'background_color'] as const;
export type GuildElementType = (typeof GUILD_ELEMENT_TYPES)[number];

/** A part's images as the table names them: [tinted, overlay]; either may be empty. */
export type PartImages = readonly [string, string];

export interface GuildElements {
  bases: ReadonlyMap<number, PartImages>;
  symbols: ReadonlyMap<number, PartImages>;
  /** What the game client tints every part with (base and symbol alike): `base_color` rows. */
  baseColors: ReadonlyMap<number, string>;
  /** The badge editor's symbol palette (the client draws with baseColors). */
  symbolColors: ReadonlyMap<number, string>;
  /** Group colours for furni and the group page, not used on the badge. */
  backgroundColors: ReadonlyMap<number, string>;
  /** Rows read (skipped ones included). */
  rows: number;
  /** One line per skipped row: which row and why. */
  skipped: string[];
}

const COLUMNS = ['id', 'firstvalue', 'secondvalue', 'type', 'enabled'] as const;
type Column = (typeof COLUMNS)[number];
type Row = Partial<Record<Column, unknown>>;

/** MySQL's `SELECT … INTO OUTFILE` writes SQL NULL as `\N`, phpMyAdmin as `NULL`: an empty value. */
function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = String(v).trim();
  return s === '\\N' || s === 'NULL' ? '' : s;
}

class Builder {
  readonly bases = new Map<number, PartImages>();
  readonly symbols = new Map<number, PartImages>();
  readonly baseColors = new Map<number, string>();
  readonly symbolColors = new Map<number, string>();
  readonly backgroundColors = new Map<number, string>();
  readonly skipped: string[] = [];
  rows = 0;

  add(row: Row, where: string): void {
    this.rows++;
    const idText = text(row.id);
    // Arcturus reads the id with ResultSet.getInt: a whole number.
    if (!/^-?\d{1,9}$/.test(idText)) {
      this.skipped.push(`${where}: id ${JSON.stringify(idText)} is not a whole number`);
      return;
    }
    const id = Number(idText);
    const type = text(row.type).toLowerCase();
    const first = text(row.firstvalue);
    const second = text(row.secondvalue);
    switch (type) {
      case 'base':
        this.bases.set(id, [first, second]);
        return;
      case 'symbol':
        this.symbols.set(id, [first, second]);
        return;
      case 'base_color':
        this.baseColors.set(id, first);
        return;
      case 'symbol_color':
        this.symbolColors.set(id, first);
        return;
      case 'background_color':
        this.backgroundColors.set(id, first);
        return;
      default:
        this.skipped.push(`${where}: type ${JSON.stringify(type)} is not one of ${GUILD_ELEMENT_TYPES.join(', ')}`);
    }
  }

  done(): GuildElements {
    const { bases, symbols, baseColors, symbolColors, backgroundColors, rows, skipped } = this;
    return Object.freeze({ bases, symbols, baseColors, symbolColors, backgroundColors, rows, skipped });
  }
}

/** Reads the CSV export; `file` only names it in errors. */
export function parseGuildElementsCsv(csv: string, file = '<csv>'): GuildElements {
  let records: string[][];
  try {
    records = parse(csv, { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][];
  } catch (e) {
    throw new FormatError('guilds_elements CSV', file, (e as Error).message);
  }
  const out = new Builder();
  let columns: Column[] = [...COLUMNS];
  let first = 0;
  const head = records[0]?.map((c) => c.trim().toLowerCase());
  if (head && (head[0] === 'id' || head.includes('firstvalue'))) {
    // A header row: columns by name.
    for (const need of ['id', 'firstvalue', 'type'] as const) {
      if (!head.includes(need))
        throw new FormatError(
          'guilds_elements CSV',
          file,
          `its header row (${head.join(', ')}) has no "${need}" column`,
        );
    }
    columns = head as Column[];
    first = 1;
  }
  for (let i = first; i < records.length; i++) {
    const cells = records[i]!;
    const where = `line ${i + 1}`;
    if (cells.length < 4 && first === 0) {
      out.rows++;
      out.skipped.push(`${where}: ${cells.length} column(s), expected id, firstvalue, secondvalue, type, enabled`);
      continue;
    }
    const row: Row = {};
    columns.forEach((c, k) => {
      if ((COLUMNS as readonly string[]).includes(c)) row[c] = cells[k];
    });
    out.add(row, where);
  }
  return out.done();
}

/**
 * Reads the JSON form: an array of rows `{ "id": 1, "firstvalue": "base_basic_1.gif", "secondvalue": "",
 * "type": "base", "enabled": "1" }` (numbers or strings), or phpMyAdmin's export (an array whose
 * `{ "type": "table", "data": [rows…] }` entry holds them).
 */
export function parseGuildElementsJson(json: string, file = '<json>'): GuildElements {
  let doc: unknown;
  try {
    doc = JSON.parse(json.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new FormatError('guilds_elements JSON', file, `not valid JSON: ${(e as Error).message}`);
  }
  if (!Array.isArray(doc)) throw new FormatError('guilds_elements JSON', file, 'expected an array of rows');
  const table = doc.find(
    (e): e is { type: string; data: unknown[] } =>
      !!e &&
      typeof e === 'object' &&
      (e as { type?: unknown }).type === 'table' &&
      Array.isArray((e as { data?: unknown }).data),
  );
  const rows: unknown[] = table ? table.data : doc;
  const out = new Builder();
  rows.forEach((r, i) => {
    if (!r || typeof r !== 'object' || Array.isArray(r)) {
      out.rows++;
      out.skipped.push(`row ${i + 1}: not an object`);
      return;
    }
    out.add(r as Row, `row ${i + 1}`);
  });
  return out.done();
}

/** Reads either form, by the file's first non-blank character (`[` is JSON). */
export function parseGuildElements(content: string, file = '<table>'): GuildElements {
  const start = content.replace(/^\uFEFF/, '').trimStart()[0];
  return start === '[' ? parseGuildElementsJson(content, file) : parseGuildElementsCsv(content, file);
}
