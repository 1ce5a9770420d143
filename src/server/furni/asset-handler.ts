// Asset GET/HEAD on Node's own request handler, for the connections the fast path hands to Node's http
// server (HTTP/1.0, request bodies, unusual framing). Same answers, same log line, as the fast path.
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { clientAddress, rawHeader } from '../../http/client-address.js';
import { type RequestDone } from '../../http/request-log.js';
import {
  ifNoneMatchOf,
  isAssetPath,
  NOT_FOUND_BODY,
  NOT_FOUND_HEADERS,
  TOO_MANY_BODY,
  TOO_MANY_HEADERS,
  unavailableResponse,
  type AssetAnswer,
  type AssetAnswerer,
} from '../../core/furni/asset-answer.js';

/**
 * Returns a request listener that answers GET and HEAD on asset paths and reports `false` for any
 * other request, which the caller hands on. `nextId` numbers requests for the log alongside Fastify's;
 * `done` counts and logs each one.
 */
export function createAssetHandler(
  answerAsset: AssetAnswerer,
  done: RequestDone,
  nextId: () => string,
  trustProxy: boolean,
) {
  const send = (
    req: IncomingMessage,
    res: ServerResponse,
    answer: AssetAnswer,
    started: number,
    reqId: string,
    client: string,
  ) => {
    let body: Buffer | string | undefined;
    if (answer.status === 200) {
      res.writeHead(200, answer.file.headers);
      body = answer.body;
    } else if (answer.status === 304) {
      res.writeHead(304, answer.file.notModifiedHeaders);
    } else if (answer.status === 404) {
      res.writeHead(404, NOT_FOUND_HEADERS);
      body = NOT_FOUND_BODY;
    } else if (answer.status === 429) {
      res.writeHead(429, TOO_MANY_HEADERS);
      body = TOO_MANY_BODY;
    } else {
      const r = unavailableResponse(answer.rebuilding, answer.timedOut);
      res.writeHead(503, r.headers);
      body = r.body;
    }
    if (req.method === 'HEAD') body = undefined;
    res.end(body);
    const bytes = body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    done(
      reqId,
      req.method ?? '',
      req.url ?? '',
      answer.status,
      bytes,
      started,
      answer.status === 200 ? answer.source : null,
      client,
    );
  };

  return function handleAsset(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? '';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !isAssetPath(url)) return false;
    const started = performance.now();
    const reqId = nextId();
    const client = clientAddress(
      trustProxy ? rawHeader(req.rawHeaders, 'x-forwarded-for') : undefined,
      req.socket.remoteAddress,
      trustProxy,
    );
    const answer = answerAsset(url, ifNoneMatchOf(req.rawHeaders), client, reqId);
    if (answer instanceof Promise) void answer.then((a) => send(req, res, a, started, reqId, client));
    else send(req, res, answer, started, reqId, client);
    return true;
  };
}
