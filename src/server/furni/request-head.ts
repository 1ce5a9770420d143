// The request heads the fast path answers itself: HTTP/1.1 GET or HEAD with an origin-form target, one
// Host, no body and no framing or upgrade headers. Everything else — including every head this reader
// would have to judge (bodies, obs-fold, odd characters, HTTP/1.0, Expect, Upgrade) — is left to
// Node's http parser, so the fast path never disagrees with it about where a request ends.

export interface SimpleRequest {
  method: 'GET' | 'HEAD';
  /** The request target as sent (still percent-encoded, query string included). */
  target: string;
  /** If-None-Match, repeated fields joined with ", " as Node joins them. */
  ifNoneMatch: string | undefined;
  /** The client asked to close the connection after this response. */
  close: boolean;
}

const REQUEST_LINE = /^(GET|HEAD) (\/[!-~]*) HTTP\/1\.1$/;
// Every field line is field-name ":" field-value, with the value's characters as llhttp accepts them
// (HTAB, SP, VCHAR, obs-text): no obs-fold, no bare CR or LF, no NUL. Checked for the whole head at once.
const FIELD_LINES = /^(?:\r\n[!#$%&'*+.^_`|~0-9A-Za-z-]+:[\t\x20-\x7e\x80-\xff]*)*$/;

/** Larger heads go to Node, which answers 431 at its own limit. */
export const MAX_SIMPLE_HEAD = 8 * 1024;

/**
 * Parses a request head — latin1 text up to, not including, the empty line — when it is one the fast
 * path may answer; undefined otherwise.
 */
export function parseSimpleHead(head: string): SimpleRequest | undefined {
  if (head.length > MAX_SIMPLE_HEAD) return undefined;
  let eol = head.indexOf('\r\n');
  if (eol < 0) eol = head.length;
  const m = REQUEST_LINE.exec(head.slice(0, eol));
  if (!m) return undefined;
  if (!FIELD_LINES.test(head.slice(eol))) return undefined;
  let hosts = 0;
  let close = false;
  let ifNoneMatch: string | undefined;
  while (eol < head.length) {
    const start = eol + 2;
    eol = head.indexOf('\r\n', start);
    if (eol < 0) eol = head.length;
    const colon = head.indexOf(':', start);
    const name = head.slice(start, colon).toLowerCase();
    switch (name) {
      case 'host':
        hosts++;
        break;
      case 'if-none-match': {
        const value = head.slice(colon + 1, eol).trim();
        ifNoneMatch = ifNoneMatch === undefined ? value : `${ifNoneMatch}, ${value}`;
        break;
      }
      case 'connection':
        for (const token of head.slice(colon + 1, eol).toLowerCase().split(',')) {
          const t = token.trim();
          if (t === 'close') close = true;
          else if (t !== 'keep-alive' && t !== '') return undefined;
        }
        break;
      case 'content-length':
        if (head.slice(colon + 1, eol).trim() !== '0') return undefined;
        break;
      case 'transfer-encoding':
      case 'upgrade':
      case 'expect':
        return undefined;
    }
  }
  if (hosts !== 1) return undefined;
  return { method: m[1] as 'GET' | 'HEAD', target: m[2]!, ifNoneMatch, close };
}
