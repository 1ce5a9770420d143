// corpus.json: the table a furni corpus publishes (every servable file with its size and SHA-256), read
// and written here only: the build writes it, the furni service and `publish` read it.
import { FormatError } from './errors.js';

/** The file's name in a corpus folder and under a bucket prefix. */
export const CORPUS_JSON = 'corpus.json';

export interface CorpusCounts {
  renders: number;
  icons: number;
  bundles: number;
  /** Pre-rendered reserved names (`build --variants`); absent when there are none. */
  variants?: number;
}

export interface CorpusListing {
  size: number;
  sha256: string;
}

export interface CorpusDoc {
  format: 1;
  rendererVersion: string;
  builtAt: string;
  counts: CorpusCounts;
  /** Relative path → size and content hash, sorted by path when written. */
  files: Record<string, CorpusListing>;
}

export class CorpusJsonError extends FormatError {
  constructor(file: string, reason: string) {
    super('corpus.json', file, reason);
    this.name = 'CorpusJsonError';
  }
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

/**
 * Parses and checks a corpus.json: format 1, `builtAt`, whole-number counts and a size and lowercase hex
 * sha256 for every listed path. Which paths a reader accepts (served layout, plain relative paths) is the
 * reader's rule. Throws a CorpusJsonError naming `file` and what is wrong.
 */
export function parseCorpusJson(bytes: Uint8Array | string, file: string): CorpusDoc {
  let doc: unknown;
  try {
    doc = JSON.parse(typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8'));
  } catch (e) {
    throw new CorpusJsonError(file, `not JSON (${(e as Error).message})`);
  }
  if (!isObject(doc)) throw new CorpusJsonError(file, 'top level is not an object');
  if (doc.format !== 1)
    throw new CorpusJsonError(file, `unsupported format ${JSON.stringify(doc.format)} (expected 1)`);
  if (typeof doc.builtAt !== 'string') throw new CorpusJsonError(file, 'builtAt is missing');
  const counts = doc.counts;
  if (!isObject(counts) || !isCount(counts.renders) || !isCount(counts.icons) || !isCount(counts.bundles)) {
    throw new CorpusJsonError(file, 'counts must hold renders, icons and bundles as whole numbers');
  }
  if (!isObject(doc.files)) throw new CorpusJsonError(file, 'files is missing');
  const files: Record<string, CorpusListing> = {};
  for (const [path, entry] of Object.entries(doc.files)) {
    if (
      !isObject(entry) ||
      !isCount(entry.size) ||
      typeof entry.sha256 !== 'string' ||
      !SHA256_HEX.test(entry.sha256)
    ) {
      throw new CorpusJsonError(file, `files[${JSON.stringify(path)}] needs a byte size and a lowercase hex sha256`);
    }
    files[path] = { size: entry.size, sha256: entry.sha256 };
  }
  const out: CorpusDoc = {
    format: 1,
    rendererVersion: typeof doc.rendererVersion === 'string' ? doc.rendererVersion : 'unknown',
    builtAt: doc.builtAt,
    counts: { renders: counts.renders, icons: counts.icons, bundles: counts.bundles },
    files,
  };
  if (isCount(counts.variants)) out.counts.variants = counts.variants;
  return out;
}

/** The bytes of a corpus.json, as the build has always written them (one space indent, final newline). */
export function serializeCorpusJson(doc: CorpusDoc): string {
  return JSON.stringify(doc, null, 1) + '\n';
}
