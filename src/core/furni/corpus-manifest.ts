// corpus.json → the table of servable files. Validation is strict because this table is the whole
// allow-list of the server: a file not listed here is never read.
import { parseCorpusJson } from '../../formats/corpus-json.js';
import { strongEtag } from '../../http/etag.js';
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

export function parseCorpusManifest(bytes: Buffer | string, file: string): CorpusManifest {
  const doc = parseCorpusJson(bytes, file);
  const { rendererVersion, counts } = doc;
  const files = new Map<string, CorpusFile>();
  let ignored = 0;
  for (const [key, entry] of Object.entries(doc.files)) {
    if (!isServableKey(key)) {
      ignored++;
      continue;
    }
    const kind: AssetKind = key.startsWith('hof_furni/')
      ? 'bundle'
      : key.endsWith('.apng')
        ? 'animation'
        : key.startsWith('furni-renders/')
          ? 'render'
          : 'icon';
    files.set(key, corpusFile(key, kind, entry.size, entry.sha256));
  }
  return {
    rendererVersion,
    builtAt: doc.builtAt,
    counts: { renders: counts.renders, icons: counts.icons, bundles: counts.bundles },
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
