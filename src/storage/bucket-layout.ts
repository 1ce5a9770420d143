// How a corpus is laid out in a bucket under its prefix. Objects are content-addressed: a file's bytes
// live at objects/<sha256>, never overwritten with other bytes, so a reader that still holds an older
// corpus.json keeps finding exactly the bytes (and ETags) it lists while a newer one is published.
//
//   PREFIX/corpus.json                     the current table (same document `hotel-imager build` writes)
//   PREFIX/objects/<sha256>                one object per distinct file content
//   PREFIX/manifests/<publishedAt>-<h>.json  a copy of each published corpus.json, for retention (publish.ts)

import { CORPUS_JSON } from '../formats/corpus-json.js';
export const OBJECTS_DIR = 'objects/';
export const MANIFESTS_DIR = 'manifests/';

export const corpusJsonKey = (prefix: string) => `${prefix}${CORPUS_JSON}`;
export const objectKey = (prefix: string, sha256: string) => `${prefix}${OBJECTS_DIR}${sha256}`;

/** Sorts by publication time: an ISO time with ':' and '.' made key-safe, then a short hash of the document. */
export function manifestKey(prefix: string, publishedAt: Date, corpusSha256: string): string {
  return (
    `${prefix}${MANIFESTS_DIR}${publishedAt.toISOString().replace(/[:.]/g, '-')}-${corpusSha256.slice(0, 16)}.js` + `on`
  );
}

/** The publication time a manifest key carries, or undefined for a key not written by manifestKey. */
export function manifestPublishedAt(prefix: string, key: string): Date | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z-[0-9a-f]{16}\.json$/.exec(
    key.slice(prefix.length + MANIFESTS_DIR.length),
  );
  if (!m || !key.startsWith(prefix + MANIFESTS_DIR)) return undefined;
  const d = new Date(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** The sha256 an object key names, or undefined for anything else under the prefix. */
export function objectSha256(prefix: string, key: string): string | undefined {
  const rest = key.startsWith(prefix + OBJECTS_DIR) ? key.slice(prefix.length + OBJECTS_DIR.length) : '';
  return /^[0-9a-f]{64}$/.test(rest) ? rest : undefined;
}

/** The Content-Type an object is stored with, from the corpus path of (one of) the files it holds. */
export function contentTypeForPath(path: string): string {
  if (path.endsWith('.png')) return 'image/png';
  if (path.endsWith('.json')) return 'application/json';
  return 'application/octet-stream';
}

/** Objects are never rewritten with other bytes: caches may keep them for good. */
export const OBJECT_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** corpus.json changes with every publish: a cache must ask again each time. */
export const CORPUS_JSON_CACHE_CONTROL = 'no-cache';
