// The one budget for decoding an asset. Hotels install furni and clothing packs from forums and
// marketplaces, so any file in an asset folder may be broken or hostile: a 1.5 MB zlib stream can inflate
// to 1.5 GB, a SWF header can declare 4 GB, a PNG header 60,000 × 60,000 pixels. Every reader decodes
// within these bounds and stops at them (a counting inflater, a size checked before allocating), so a
// file over budget costs at most the budget, and is refused with a message naming the file, the part of
// it and the budget.
//
// The defaults are far above real assets (the README's "Untrusted asset files" gives the largest real
// ones) and low enough that a few threads decoding at once stay well inside a small container. The byte
// budget is the operator's one knob (`--decode-budget`, `HOTEL_IMAGER_DECODE_BUDGET`); the pixel budget
// follows from it (4 bytes a pixel), the counts are fixed.
import { gunzipSync, inflateSync } from 'node:zlib';

export interface DecodeBudget {
  /**
   * Most bytes one decoded thing may take: an inflated `.nitro` member, a SWF body, a JSON or XML document, a file read
   * whole.
   */
  bytes: number;
  /** Most pixels of one decoded image (a spritesheet, a SWF bitmap, a badge part): `bytes / 4`, its RGBA size. */
  pixels: number;
  /** Most members in one `.nitro` bundle (real ones hold 2 to a few). */
  members: number;
  /** Most assets (JSON assets + aliases, SWF tags and symbols) in one library. */
  assets: number;
}

export const DEFAULT_DECODE_BUDGET_BYTES = 64 * 1024 * 1024;
export const MAX_BUNDLE_MEMBERS = 1024;
export const MAX_LIBRARY_ASSETS = 50_000;
/** What an over-budget message tells the operator to change. */
export const DECODE_BUDGET_SETTING = '--decode-budget (HOTEL_IMAGER_DECODE_BUDGET)';

function budgetOf(bytes: number): DecodeBudget {
  return { bytes, pixels: Math.floor(bytes / 4), members: MAX_BUNDLE_MEMBERS, assets: MAX_LIBRARY_ASSETS };
}

// Process-wide (per thread): the commands set it once from their flag, and pass it to the worker threads they start.
let current = budgetOf(DEFAULT_DECODE_BUDGET_BYTES);

export function decodeBudget(): DecodeBudget {
  return current;
}

/** Sets this thread's byte budget (a command at start, a worker thread from what its pool passed). */
export function setDecodeBudget(bytes: number): void {
  if (!Number.isSafeInteger(bytes) || bytes < 1024)
    throw new RangeError(`decode budget must be a whole number of bytes ≥ 1024, got ${bytes}`);
  current = budgetOf(bytes);
}

/** 67108864 → "64 MiB", 1536 → "1.5 KiB", 700 → "700 bytes". */
export function describeBytes(n: number): string {
  const units = ['GiB', 'MiB', 'KiB'] as const;
  for (let i = 0; i < units.length; i++) {
    const size = 1024 ** (units.length - i);
    if (n >= size) return `${Number((n / size).toFixed(1))} ${units[i]}`;
  }
  return `${n} bytes`;
}

/**
 * The reason a thing over budget is refused: `what` names it ("hair.json inflated"), `limit` the bound it
 * passed. Bytes and pixels follow the operator's setting; the counts are fixed (`count`), far above any real library.
 */
export function overBudget(what: string, limit: string, count = false): string {
  const fix = count
    ? 'no real asset library comes near it'
    : `raise ${DECODE_BUDGET_SETTING} only if the file is genuine`;
  return `${what} is over the decode budget (${limit}); refused: ${fix}`;
}

/** Inflating passed its cap; what was inflated so far is dropped. */
export class InflateBudgetError extends RangeError {
  constructor(readonly limit: number) {
    super(`inflates past ${describeBytes(limit)}`);
    this.name = 'InflateBudgetError';
  }
}

/**
 * Inflates a zlib stream, or a gzip member (`gzip`), stopping at `limit` output bytes: zlib's
 * `maxOutputLength` counts as it goes and gives up at the cap, so a bomb costs `limit` bytes, not its size.
 * Over the cap throws `InflateBudgetError`; a corrupt stream throws zlib's own error.
 */
export function inflateWithin(data: Uint8Array, limit: number, gzip = false): Buffer {
  try {
    return gzip ? gunzipSync(data, { maxOutputLength: limit }) : inflateSync(data, { maxOutputLength: limit });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new InflateBudgetError(limit);
    throw e;
  }
}
