// Asset answers (src/core/furni/asset-answer.ts) as the socket-level fast path writes them
// (src/http/fast-path.ts): each file's 200 and 304 heads built once, the fixed 404 and 429 once for the
// process.
import { headBlock, type FastAnswerer, type FastResponse } from '../../http/fast-path.js';
import {
  isAssetPath,
  NOT_FOUND_BODY,
  NOT_FOUND_HEADERS,
  TOO_MANY_BODY,
  TOO_MANY_HEADERS,
  unavailableResponse,
  type AssetAnswer,
  type AssetAnswerer,
} from '../../core/furni/asset-answer.js';
import { type CorpusFile } from '../../core/furni/corpus-manifest.js';

const NOT_FOUND: FastResponse = {
  status: 404,
  head: headBlock('404 Not Found', NOT_FOUND_HEADERS),
  reused: true,
  body: Buffer.from(NOT_FOUND_BODY),
  cache: null,
};
const TOO_MANY: FastResponse = {
  status: 429,
  head: headBlock('429 Too Many Requests', TOO_MANY_HEADERS),
  reused: true,
  body: Buffer.from(TOO_MANY_BODY),
  cache: null,
};

/** The asset paths the fast path answers (anything else on a connection hands it to Node). */
export const claimsAsset = isAssetPath;

export function fastAssetAnswerer(answerAsset: AssetAnswerer): FastAnswerer {
  /** A file's 200 and 304 heads, built on first use. */
  const heads = new WeakMap<CorpusFile, { ok: Buffer; notModified: Buffer }>();
  const headsOf = (file: CorpusFile) => {
    let h = heads.get(file);
    if (!h) {
      h = {
        ok: headBlock('200 OK', file.headers),
        notModified: headBlock('304 Not Modified', file.notModifiedHeaders),
      };
      heads.set(file, h);
    }
    return h;
  };
  const response = (a: AssetAnswer): FastResponse => {
    switch (a.status) {
      case 200:
        return { status: 200, head: headsOf(a.file).ok, reused: true, body: a.body, cache: a.source };
      case 304:
        return { status: 304, head: headsOf(a.file).notModified, reused: true, cache: null };
      case 404:
        return NOT_FOUND;
      case 429:
        return TOO_MANY;
      default: {
        const r = unavailableResponse(a.rebuilding, a.timedOut);
        return {
          status: 503,
          head: headBlock('503 Service Unavailable', r.headers),
          body: Buffer.from(r.body),
          cache: null,
        };
      }
    }
  };
  return (req, client, reqId) => {
    const a = answerAsset(req.target, req.ifNoneMatch, client, reqId);
    return a instanceof Promise ? a.then(response) : response(a);
  };
}
