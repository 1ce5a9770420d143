// What an asset request gets, decided once for both ways a request can arrive (the socket-level fast
// path and Node's http server): URL → corpus key → table lookup → conditional → body from memory or disk.
import { ifNoneMatchMatches } from '../../http/etag.js';
import { resolveAssetUrl, type AssetRef } from './asset-path.js';
import { type CorpusFile } from './corpus-manifest.js';
import { AssetReadError, type CorpusStore } from './corpus-store.js';

export const NOT_FOUND_BODY = 'not found';

export const NOT_FOUND_HEADERS: Record<string, string> = {
  'content-type': 'text/plain; charset=utf-8',
  'content-length': String(Buffer.byteLength(NOT_FOUND_BODY)),
  'access-control-allow-origin': '*',
  // A missing asset may be published by the next build; caches keep the answer only briefly.
  'cache-control': 'public, max-age=60',
  'x-content-type-options': 'nosniff',
};

/**
 * Where an answered file's bytes came from (the request line's `cache`, the cache outcome metric):
 * the memory cache, the corpus storage (folder or bucket), or for an on-demand variant its disk cache
 * or a render now.
 */
export const FURNI_TIERS = ['memory', 'storage', 'variant_disk', 'render'] as const;
export type FurniTier = (typeof FURNI_TIERS)[number];

export type AssetAnswer =
  | { status: 200; file: CorpusFile; body: Buffer; source: FurniTier }
  | { status: 304; file: CorpusFile }
  | { status: 404 }
  /** An on-demand variant render refused by the limits (client rate, budget, full queue). */
  | { status: 429 }
  /**
   * A listed file that cannot be read right now; `rebuilding` when it changed under a stale corpus.json;
   * `timedOut` when an on-demand variant render took longer than its timeout.
   */
  | { status: 503; rebuilding: boolean; timedOut?: boolean };

export const TOO_MANY_BODY = 'too many renders';

/** The 429 of an on-demand render past the limits: retry soon, never cached. */
export const TOO_MANY_HEADERS: Record<string, string> = {
  'content-type': 'text/plain; charset=utf-8',
  'content-length': String(Buffer.byteLength(TOO_MANY_BODY)),
  'access-control-allow-origin': '*',
  'cache-control': 'no-store',
  'retry-after': '1',
  'x-content-type-options': 'nosniff',
};

/** Answers the reserved names (§2.6) when variants are on: see src/core/furni/variants.ts. */
export interface VariantAnswerer {
  answer(
    url: string,
    ifNoneMatch: string | undefined,
    client: string,
    reqId: string,
  ): AssetAnswer | Promise<AssetAnswer>;
}

export interface AnswerLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** True when the path is under one of the asset folders (raw URL, before any decoding). */
export function isAssetPath(rawUrl: string): boolean {
  return (
    rawUrl.startsWith('/furni-renders/') || rawUrl.startsWith('/catalog-thumbs/') || rawUrl.startsWith('/hof_furni/')
  );
}

/**
 * Resolved URLs remembered (up to 256 characters each); past this many the memo starts over, so memory stays bounded.
 */
const MEMO_LIMIT = 10_000;

/**
 * Returns the answerer for GET/HEAD on an asset path (`isAssetPath`): synchronous when the body is in
 * memory (or none is needed), a promise when it is read from disk. The promise never rejects.
 */
export function createAssetAnswerer(store: CorpusStore, log: AnswerLog, variants?: VariantAnswerer) {
  // A URL always resolves to the same key (the table is consulted after), so parsing is done once per URL.
  const memo = new Map<string, AssetRef | null>();
  const resolve = (url: string): AssetRef | undefined => {
    if (url.length > 256) return resolveAssetUrl(url);
    let ref = memo.get(url);
    if (ref === undefined) {
      if (memo.size >= MEMO_LIMIT) memo.clear();
      ref = resolveAssetUrl(url) ?? null;
      memo.set(url, ref);
    }
    return ref ?? undefined;
  };

  const readFailed = (file: CorpusFile, err: unknown, reqId: string): AssetAnswer => {
    if (err instanceof AssetReadError && (err.reason === 'missing' || err.reason === 'outside')) {
      log.warn({ reqId, key: file.key, error: err.message }, 'listed asset not servable');
      return { status: 404 };
    }
    log.error({ reqId, key: file.key, error: (err as Error).message }, 'asset read failed');
    return { status: 503, rebuilding: err instanceof AssetReadError && err.reason === 'changed' };
  };

  return function answerAsset(
    url: string,
    ifNoneMatch: string | undefined,
    client: string,
    reqId: string,
  ): AssetAnswer | Promise<AssetAnswer> {
    const ref = resolve(url);
    const file = ref && store.lookup(ref.key);
    // Only a name that is not a published file can be a variant: every published name answers as before.
    if (!file)
      return ref === undefined && variants ? variants.answer(url, ifNoneMatch, client, reqId) : { status: 404 };
    if (ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, file.etag)) return { status: 304, file };
    // HEAD reads the body too: a listed file gone from disk is 404 for HEAD as for GET.
    const body = store.body(file);
    if (Buffer.isBuffer(body)) return { status: 200, file, body, source: 'memory' };
    return body.then(
      (buf): AssetAnswer => ({ status: 200, file, body: buf, source: 'storage' }),
      (err: unknown) => readFailed(file, err, reqId),
    );
  };
}

export type AssetAnswerer = ReturnType<typeof createAssetAnswerer>;

/** The 503 body and headers (no-store: the condition is temporary). */
export function unavailableResponse(
  rebuilding: boolean,
  timedOut = false,
): { body: string; headers: Record<string, string> } {
  const body = timedOut ? 'render timed out' : rebuilding ? 'asset is being rebuilt' : 'storage unavailable';
  return {
    body,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      'access-control-allow-origin': '*',
      'cache-control': 'no-store',
      ...(rebuilding || timedOut ? { 'retry-after': '1' } : {}),
    },
  };
}

/**
 * The If-None-Match field read from the raw header list (repeated fields joined with ", " as Node does):
 * touching `req.headers` makes Node build the whole header object, a cost every hot request would pay.
 */
export function ifNoneMatchOf(rawHeaders: string[]): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 13 && name.toLowerCase() === 'if-none-match') {
      found = found === undefined ? rawHeaders[i + 1]! : `${found}, ${rawHeaders[i + 1]!}`;
    }
  }
  return found;
}
