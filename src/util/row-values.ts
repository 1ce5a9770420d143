// Column values of a database row (or a JSON file's object read in its place) as numbers, text and flags: the
// MySQL driver gives numbers, strings, booleans or null depending on the column type and the operator's query.

export type RowValue = string | number | null | boolean | undefined;
export type Row = Record<string, RowValue>;

/** A finite number, else `fallback` (null, empty, text that is not a number). */
export const rowNumber = (v: RowValue, fallback = 0): number => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : fallback;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : fallback;
  }
  return fallback;
};
/** `rowNumber` truncated to a whole number. */
export const rowInt = (v: RowValue, fallback = 0): number => Math.trunc(rowNumber(v, fallback));
/** Text ('' for null or absent). */
export const rowText = (v: RowValue): string => (v === null || v === undefined ? '' : String(v));
/** MySQL booleans arrive as 1/0, '1'/'0', or an ENUM('0','1') read as text. */
export const rowFlag = (v: RowValue): boolean => v === true || v === 1 || v === '1' || v === 'true';
