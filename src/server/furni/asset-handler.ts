// The asset routes (GET/HEAD under /furni-renders/, /catalog-thumbs/, /hof_furni/) on Node's own request
// handler. They are the whole hot path of a static file service, and going straight to the socket with
// headers built once per corpus load is what keeps the service within reach of nginx; everything else
// (control routes, other methods, unknown paths) is left to the Fastify app.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ifNoneMatchMatches } from '../etag.js';
import { logPath, type RequestLineWriter } from '../request-log.js';
import { resolveAssetUrl, type AssetRef } from './asset-path.js';
import type { CorpusFile } from './corpus-manifest.js';
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

export interface AccessLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  /** Writes the one request line; absent when the log level leaves request lines out. */
  request: RequestLineWriter | undefined;
}

/** Resolved URLs remembered (up to 256 characters each); past this many the memo starts over, so memory stays bounded. */
const MEMO_LIMIT = 10_000;

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

/** True when the path is under one of the asset folders (raw URL, before any decoding). */
export function isAssetPath(rawUrl: string): boolean {
  return rawUrl.startsWith('/furni-renders/') || rawUrl.startsWith('/catalog-thumbs/') || rawUrl.startsWith('/hof_furni/');
}

/**
 * Returns a request listener that answers GET and HEAD on asset paths and reports `false` for any
 * other request, which the caller hands on. `nextId` numbers requests for the log alongside Fastify's.
 */
export function createAssetHandler(store: CorpusStore, log: AccessLog, nextId: () => string) {
  const finish = (req: IncomingMessage, status: number, bytes: number, started: number) => {
    const id = nextId();
    log.request?.(id, req.method ?? '', logPath(req.url ?? ''), status, bytes, Math.round((performance.now() - started) * 100) / 100);
  };
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

  const notFound = (req: IncomingMessage, res: ServerResponse, started: number) => {
    res.writeHead(404, NOT_FOUND_HEADERS);
    if (req.method === 'HEAD') res.end();
    else res.end(NOT_FOUND_BODY);
    finish(req, 404, req.method === 'HEAD' ? 0 : Buffer.byteLength(NOT_FOUND_BODY), started);
  };

  const sendBody = (req: IncomingMessage, res: ServerResponse, file: CorpusFile, body: Buffer, started: number) => {
    res.writeHead(200, file.headers);
    if (req.method === 'HEAD') {
      res.end();
      finish(req, 200, 0, started);
    } else {
      res.end(body);
      finish(req, 200, body.length, started);
    }
  };

  const readFailed = (req: IncomingMessage, res: ServerResponse, file: CorpusFile, err: unknown, started: number) => {
    if (err instanceof AssetReadError && (err.reason === 'missing' || err.reason === 'outside')) {
      log.warn({ key: file.key, error: err.message }, 'listed asset not servable');
      return notFound(req, res, started);
    }
    const changed = err instanceof AssetReadError && err.reason === 'changed';
    log.error({ key: file.key, error: (err as Error).message }, 'asset read failed');
    const body = changed ? 'asset is being rebuilt' : 'storage unavailable';
    res.writeHead(503, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      'access-control-allow-origin': '*',
      'cache-control': 'no-store',
      ...(changed ? { 'retry-after': '1' } : {}),
    });
    res.end(body);
    finish(req, 503, Buffer.byteLength(body), started);
  };

  return function handleAsset(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? '';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !isAssetPath(url)) return false;
    const started = performance.now();
    const ref = resolve(url);
    const file = ref && store.lookup(ref.key);
    if (!file) {
      notFound(req, res, started);
      return true;
    }
    const inm = ifNoneMatchOf(req.rawHeaders);
    if (inm !== undefined && ifNoneMatchMatches(inm, file.etag)) {
      res.writeHead(304, file.notModifiedHeaders);
      res.end();
      finish(req, 304, 0, started);
      return true;
    }
    // HEAD takes the same road as GET (a listed file gone from disk is 404 for both), minus the body.
    const body = store.body(file);
    if (Buffer.isBuffer(body)) sendBody(req, res, file, body, started);
    else
      body.then(
        (buf) => sendBody(req, res, file, buf, started),
        (err: unknown) => readFailed(req, res, file, err, started),
      );
    return true;
  };
}
