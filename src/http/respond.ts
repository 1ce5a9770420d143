// Answers as plain values. A route decides each answer's status, headers and body once, with the
// functions here; each way a response leaves the process (Node's ServerResponse, the socket fast path,
// Fastify's reply) writes those values as they are, so two ways of answering one path cannot disagree.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { clientAddress, rawHeader } from './client-address.js';
import { preflightHeaders, type PreflightOptions } from './cors.js';
import { ifNoneMatchMatches, strongEtag } from './etag.js';
import { headBlock, type FastResponse } from './fast-path.js';
import { type RequestDone } from './request-log.js';
import { sha256Hex } from '../util/hash.js';

/** A response: status, headers (Content-Length included when there is a body) and body. */
export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** Absent for 204 and 304; never written for HEAD (the headers still give its length). */
  body?: Buffer | string;
}

/** The methods every image path serves (contract A4: OPTIONS is the CORS preflight, others 405). */
export const IMAGE_ALLOW = 'GET, HEAD, OPTIONS';
export const METHOD_NOT_ALLOWED_TEXT = 'method not allowed\n';
export const INTERNAL_ERROR_TEXT = 'internal error\n';
/** So page scripts can read the frame count and cache facts of a cross-origin image response. */
export const IMAGE_EXPOSE = 'etag, x-imager-frames, x-imager-fallback, x-imager-cache';
/** The preflight of the image paths: conditional requests only, and the image's facts readable by scripts. */
export const IMAGE_PREFLIGHT: PreflightOptions = {
  allow: IMAGE_ALLOW,
  defaultHeaders: 'if-none-match',
  expose: IMAGE_EXPOSE,
};

/** The headers of a plain-text answer (400, 302, 404, 405, 500). */
export function textHeaders(
  text: string,
  extra: Record<string, string> = {},
  cacheControl = 'no-store',
): Record<string, string> {
  return {
    ...extra,
    'access-control-allow-origin': '*',
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': cacheControl,
    'content-length': String(Buffer.byteLength(text)),
  };
}

export function textResponse(
  status: number,
  text: string,
  extra: Record<string, string> = {},
  cacheControl = 'no-store',
): HttpResponse {
  return { status, headers: textHeaders(text, extra, cacheControl), body: text };
}

/**
 * A JSON answer (the figure conversion): 200 with a strong ETag over its bytes, or 304 when
 * `ifNoneMatch` names it.
 */
export function jsonResponse(value: unknown, cacheControl: string, ifNoneMatch: string | undefined): HttpResponse {
  const body = `${JSON.stringify(value)}\n`;
  const etag = strongEtag(sha256Hex(body).slice(0, 32));
  const headers: Record<string, string> = {
    'access-control-allow-origin': '*',
    etag,
    'cache-control': cacheControl,
    'access-control-expose-headers': 'etag',
  };
  if (notModified(ifNoneMatch, etag)) return { status: 304, headers };
  headers['content-type'] = 'application/json; charset=utf-8';
  headers['content-length'] = String(Buffer.byteLength(body));
  return { status: 200, headers, body };
}

/** An HTML page (the debug pages), never cached. */
export function htmlResponse(status: number, html: string): HttpResponse {
  return {
    status,
    headers: {
      'access-control-allow-origin': '*',
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-length': String(Buffer.byteLength(html)),
    },
    body: html,
  };
}

/** Everything that came from a request is escaped before it goes into a page. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** A rendered image as the caches keep it: its bytes, type, strong ETag and frame count. */
export interface ImageEntity {
  body: Buffer;
  type: string;
  etag: string;
  frames: number;
}

/** Whether an If-None-Match value names the ETag (a GET or HEAD is then answered 304). */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  return ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, etag);
}

/**
 * An image answer: 200 with its type and length, or 304 without them when `ifNoneMatch` names its ETag.
 * `source` is the cache tier it came from (`x-imager-cache`).
 */
export function imageResponse(
  image: ImageEntity,
  cacheControl: string,
  source: string,
  ifNoneMatch: string | undefined,
): HttpResponse {
  const unchanged = notModified(ifNoneMatch, image.etag);
  const headers: Record<string, string> = {
    'access-control-allow-origin': '*',
    etag: image.etag,
    'cache-control': cacheControl,
    'x-imager-frames': String(image.frames),
    'x-imager-cache': source,
    'access-control-expose-headers': IMAGE_EXPOSE,
  };
  if (unchanged) return { status: 304, headers };
  headers['content-type'] = image.type;
  headers['content-length'] = String(image.body.length);
  return { status: 200, headers, body: image.body };
}

/** The 204 answer to a CORS preflight that asked for `requested` headers. */
export function preflightResponse(opts: PreflightOptions, requested: string | undefined): HttpResponse {
  return { status: 204, headers: preflightHeaders(opts, requested) };
}

/** The 405 of a path that serves only `allow`. */
export function methodNotAllowed(allow: string): HttpResponse {
  return textResponse(405, METHOD_NOT_ALLOWED_TEXT, { allow });
}

const bodyBytes = (body: Buffer | string | undefined): number =>
  body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.length;

/** Writes a response on Node's handler; returns the body bytes sent (0 for HEAD). */
export function writeResponse(req: IncomingMessage, res: ServerResponse, r: HttpResponse): number {
  res.writeHead(r.status, r.headers);
  if (req.method === 'HEAD' || r.body === undefined) {
    res.end();
    return 0;
  }
  res.end(r.body);
  return bodyBytes(r.body);
}

/** The status line of a code as Node's http writes it (`200 OK`). */
export function statusLine(status: number): string {
  return `${status} ${STATUS_CODES[status] ?? ''}`;
}

/** A response as the socket fast path writes it; `cache` is the tier for the log and metrics. */
export function fastResponse(r: HttpResponse, cache: string | null): FastResponse {
  const body = r.body === undefined ? undefined : typeof r.body === 'string' ? Buffer.from(r.body) : r.body;
  return { status: r.status, head: headBlock(statusLine(r.status), r.headers), body, cache };
}

/**
 * What a route on Node's handler ahead of Fastify gets from its app: request ids, the client rule, and
 * `done`, where every answered request is counted and logged.
 */
export interface RawRouteContext {
  nextId: () => string;
  done: RequestDone;
  trustProxy: boolean;
  onError: (err: unknown, url: string, reqId: string) => void;
}

/** A route on Node's request handler: true when it answered the request. */
export type RawRoute = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * What an image path answers for GET/HEAD, given the client (for its rate): the response, and the cache tier it
 * came from (for the log).
 */
export type ImageWork = (client: string) => Promise<[HttpResponse, string | null]>;

/**
 * The method rules and log of an image path on Node's request handler: OPTIONS is the CORS preflight, other
 * methods than GET and HEAD 405, GET and HEAD `work`'s answer. Every answer is logged through `done`; an
 * error thrown by `work` is reported and answered 500 (the connection cut if the head was already sent).
 */
export function imagePathHandler(
  ctx: RawRouteContext,
): (req: IncomingMessage, res: ServerResponse, url: string, work: ImageWork) => void {
  return (req, res, url, work) => {
    const started = performance.now();
    const reqId = ctx.nextId();
    const client = clientOf(req, ctx.trustProxy);
    const method = req.method ?? '';
    const finish = (r: HttpResponse, cache: string | null) =>
      ctx.done(reqId, method, url, r.status, writeResponse(req, res, r), started, cache, client);
    if (method === 'OPTIONS') {
      const asked = rawHeader(req.rawHeaders, 'access-control-request-headers');
      return finish(preflightResponse(IMAGE_PREFLIGHT, asked), null);
    }
    if (method !== 'GET' && method !== 'HEAD') return finish(methodNotAllowed(IMAGE_ALLOW), null);
    work(client).then(
      ([r, cache]) => finish(r, cache),
      (err: unknown) => {
        ctx.onError(err, url, reqId);
        if (res.headersSent) res.destroy();
        else finish(textResponse(500, INTERNAL_ERROR_TEXT), null);
      },
    );
  };
}

/**
 * The client for the per-client limit and the log: the socket's address, or the first X-Forwarded-For entry behind a
 * proxy.
 */
export function clientOf(req: IncomingMessage, trustProxy: boolean): string {
  return clientAddress(
    trustProxy ? rawHeader(req.rawHeaders, 'x-forwarded-for') : undefined,
    req.socket.remoteAddress,
    trustProxy,
  );
}
