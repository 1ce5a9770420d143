// corpus.json → the table of servable files. Validation is strict because this table is the whole
// allow-list of the server: a file not listed here is never read.
import { FormatError } from '../../formats/errors.js';
import { strongEtag } from '../etag.js';
import { contentTypeOf, isServableKey, type AssetKind } from './asset-path.js';

export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export interface CorpusFile {
  key: string;
  kind: AssetKind;
  size: number;
  sha256: string;
  etag: string;
  /** Response headers of a 200, built once per load so a request copies them instead of formatting them. */
  headers: Record<string, string>;
  /** Response headers of a 304 (no body, so no type or length). */
  notModifiedHeaders: Record<string, string>;
}

export interface CorpusCounts {
  renders: number;
  icons: number;
  bundles: number;
}

export interface CorpusManifest {
  rendererVersion: string;
  builtAt: string;
  counts: CorpusCounts;
  files: Map<string, CorpusFile>;
  /** Listed paths outside the served layout (e.g. reports); listed for health, never served. */
  ignored: number;
}

export class CorpusManifestError extends FormatError {
  constructor(file: string, reason: string) {
    super('corpus.json', file, reason);
    this.name = 'CorpusManifestError';
  }
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

export function parseCorpusManifest(bytes: Buffer | string, file: string): CorpusManifest {
  let doc: unknown;
  try {
    doc = JSON.parse(typeof bytes === 'string' ? bytes : bytes.toString('utf8'));
  } catch (e) {
    throw new CorpusManifestError(file, `not JSON (${(e as Error).message})`);
  }
  if (!isObject(doc)) throw new CorpusManifestError(file, 'top level is not an object');
  if (doc.format !== 1) throw new CorpusManifestError(file, `unsupported format ${JSON.stringify(doc.format)} (expected 1)`);
  const rendererVersion = typeof doc.rendererVersion === 'string' ? doc.rendererVersion : 'unknown';
  if (typeof doc.builtAt !== 'string') throw new CorpusManifestError(file, 'builtAt is missing');
  const counts = doc.counts;
  if (!isObject(counts) || !isCount(counts.renders) || !isCount(counts.icons) || !isCount(counts.bundles)) {
    throw new CorpusManifestError(file, 'counts must hold renders, icons and bundles as whole numbers');
  }
  if (!isObject(doc.files)) throw new CorpusManifestError(file, 'files is missing');
  const files = new Map<string, CorpusFile>();
  let ignored = 0;
  for (const [key, entry] of Object.entries(doc.files)) {
    if (!isObject(entry) || !isCount(entry.size) || typeof entry.sha256 !== 'string' || !SHA256_HEX.test(entry.sha256)) {
      throw new CorpusManifestError(file, `files[${JSON.stringify(key)}] needs a byte size and a lowercase hex sha256`);
    }
    if (!isServableKey(key)) {
      ignored++;
      continue;
    }
    const kind: AssetKind = key.startsWith('hof_furni/') ? 'bundle' : key.endsWith('.apng') ? 'animation' : key.startsWith('furni-renders/') ? 'render' : 'icon';
    files.set(key, corpusFile(key, kind, entry.size as number, entry.sha256));
  }
  return {
    rendererVersion,
    builtAt: doc.builtAt,
    counts: { renders: counts.renders as number, icons: counts.icons as number, bundles: counts.bundles as number },
    files,
    ignored,
  };
}

/** A servable file with its 200 and 304 headers (also what an on-demand variant render is served as). */
export function corpusFile(key: string, kind: AssetKind, size: number, sha256: string): CorpusFile {
  const etag = strongEtag(sha256);
  const shared = {
    'cache-control': IMMUTABLE_CACHE_CONTROL,
    etag,
    'access-control-allow-origin': '*',
    'access-control-expose-headers': 'ETag',
  };
  return {
    key,
    kind,
    size,
    sha256,
    etag,
    headers: {
      'content-type': contentTypeOf(kind),
      'content-length': String(size),
      ...shared,
      'x-content-type-options': 'nosniff',
    },
    notModifiedHeaders: shared,
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isCount(v: unknown): boolean {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}
