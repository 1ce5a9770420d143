// The request heads the fast path answers itself: HTTP/1.1 GET or HEAD with an origin-form target, one
// Host, no body and no framing or upgrade headers. Everything else — including every head this reader
// would have to judge (bodies, obs-fold, odd characters, HTTP/1.0, Expect, Upgrade) — is left to
// Node's http parser, so the fast path never disagrees with it about where a request ends.
// The head is read in one pass over the received bytes (no string of the whole head, no regular
// expressions): on the hot path this scan is a real share of a request's cost.

export interface SimpleRequest {
  method: 'GET' | 'HEAD';
  /** The request target as sent (still percent-encoded, query string included). */
  target: string;
  /** If-None-Match, repeated fields joined with ", " as Node joins them. */
  ifNoneMatch: string | undefined;
  /** X-Forwarded-For, joined the same way (read only behind --trust-proxy). */
  forwardedFor: string | undefined;
  /** The client asked to close the connection after this response. */
  close: boolean;
}

/** A head the fast path answers, and where it ends in the buffer (just past its empty line). */
export interface ScannedRequest extends SimpleRequest {
  end: number;
}

/** Larger heads go to Node, which answers 431 at its own limit. */
export const MAX_SIMPLE_HEAD = 8 * 1024;

/** The bytes so far are the start of a head the fast path may answer: wait for more. */
export const INCOMPLETE = 0;
/** The bytes are (or will be) a head the fast path does not answer: hand the connection to Node. */
export const NOT_SIMPLE = 1;

const CR = 0x0d;
const LF = 0x0a;
const SP = 0x20;
const HTAB = 0x09;
const COLON = 0x3a;

// Character classes as llhttp applies them: field names are tokens; values are HTAB, SP, VCHAR and
// obs-text (no NUL, no bare CR or LF); the target is VCHAR (no space, no controls, no DEL).
const TOKEN = new Uint8Array(256);
const VALUE = new Uint8Array(256);
for (const c of "!#$%&'*+-.^_`|~") TOKEN[c.charCodeAt(0)] = 1;
for (let c = 0x30; c <= 0x39; c++) TOKEN[c] = 1;
for (let c = 0x41; c <= 0x5a; c++) TOKEN[c] = TOKEN[c + 0x20] = 1;
VALUE[HTAB] = 1;
for (let c = 0x20; c <= 0x7e; c++) VALUE[c] = 1;
for (let c = 0x80; c <= 0xff; c++) VALUE[c] = 1;

const GET_LINE = bytes('GET /');
const HEAD_LINE = bytes('HEAD /');
const VERSION = bytes(' HTTP/1.1\r\n');

// The field names that matter, lowercase; a received name matches when its bytes OR 0x20 equal these
// (only ASCII letters change under OR 0x20 among token characters that could land on a letter).
const HOST = bytes('host');
const IF_NONE_MATCH = bytes('if-none-match');
const X_FORWARDED_FOR = bytes('x-forwarded-for');
const CONNECTION = bytes('connection');
const CONTENT_LENGTH = bytes('content-length');
const TRANSFER_ENCODING = bytes('transfer-encoding');
const UPGRADE = bytes('upgrade');
const EXPECT = bytes('expect');

function bytes(s: string): Uint8Array {
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

/** Whether buf[at, at + name.length) is `name`, ignoring ASCII case. */
function nameIs(buf: Uint8Array, at: number, len: number, name: Uint8Array): boolean {
  if (len !== name.length) return false;
  for (let i = 0; i < len; i++) if ((buf[at + i]! | 0x20) !== name[i]) return false;
  return true;
}

/** Whether buf[from, to) equals `lit` exactly (to ≤ buf.length). */
function startsWith(buf: Uint8Array, from: number, lit: Uint8Array): boolean | undefined {
  const n = Math.min(lit.length, buf.length - from);
  for (let i = 0; i < n; i++) if (buf[from + i] !== lit[i]) return false;
  return n === lit.length ? true : undefined;
}

/**
 * Reads the request head at the start of `buf`: the request when it is complete and one the fast path
 * answers, INCOMPLETE when the bytes so far could still become one, NOT_SIMPLE otherwise.
 */
export function scanRequestHead(buf: Buffer): ScannedRequest | typeof INCOMPLETE | typeof NOT_SIMPLE {
  const n = buf.length;
  // More bytes could complete the head, unless there are already more than any head answered here.
  const more = n > MAX_SIMPLE_HEAD + 4 ? NOT_SIMPLE : INCOMPLETE;
  // Request line: method, one space, origin-form target, " HTTP/1.1", CRLF.
  let method: 'GET' | 'HEAD';
  let i: number;
  const get = startsWith(buf, 0, GET_LINE);
  const head = get === true ? false : startsWith(buf, 0, HEAD_LINE);
  if (get === true) {
    method = 'GET';
    i = GET_LINE.length - 1;
  } else if (head === true) {
    method = 'HEAD';
    i = HEAD_LINE.length - 1;
  } else {
    return get === undefined || head === undefined ? INCOMPLETE : NOT_SIMPLE;
  }
  const targetStart = i;
  while (i < n && buf[i]! > SP && buf[i]! < 0x7f) i++;
  if (i === n) return more;
  const targetEnd = i;
  const version = startsWith(buf, i, VERSION);
  if (version === false) return NOT_SIMPLE;
  if (version === undefined) return more;
  i += VERSION.length;

  let hosts = 0;
  let close = false;
  let ifNoneMatch: string | undefined;
  let forwardedFor: string | undefined;
  // Field lines until the empty line.
  for (;;) {
    if (i > MAX_SIMPLE_HEAD) return NOT_SIMPLE;
    if (i >= n) return more;
    if (buf[i] === CR) {
      if (i + 1 >= n) return more;
      if (buf[i + 1] !== LF) return NOT_SIMPLE;
      i += 2;
      break;
    }
    const nameStart = i;
    while (i < n && TOKEN[buf[i]!] === 1) i++;
    if (i === n) return more;
    if (buf[i] !== COLON || i === nameStart) return NOT_SIMPLE;
    const nameLen = i - nameStart;
    i++;
    const valueStart = i;
    while (i < n && VALUE[buf[i]!] === 1) i++;
    if (i === n) return more;
    if (buf[i] !== CR) return NOT_SIMPLE;
    if (i + 1 === n) return more;
    if (buf[i + 1] !== LF) return NOT_SIMPLE;
    const valueEnd = i;
    i += 2;
    // Which field: only a few names matter, told apart by length before any byte is compared.
    switch (nameLen) {
      case 4:
        if (nameIs(buf, nameStart, nameLen, HOST)) hosts++;
        break;
      case 13:
        if (nameIs(buf, nameStart, nameLen, IF_NONE_MATCH)) {
          const value = trimmed(buf, valueStart, valueEnd);
          ifNoneMatch = ifNoneMatch === undefined ? value : `${ifNoneMatch}, ${value}`;
        }
        break;
      case 15:
        if (nameIs(buf, nameStart, nameLen, X_FORWARDED_FOR)) {
          const value = trimmed(buf, valueStart, valueEnd);
          forwardedFor = forwardedFor === undefined ? value : `${forwardedFor}, ${value}`;
        }
        break;
      case 10:
        if (nameIs(buf, nameStart, nameLen, CONNECTION)) {
          for (const token of trimmed(buf, valueStart, valueEnd).toLowerCase().split(',')) {
            const t = token.trim();
            if (t === 'close') close = true;
            else if (t !== 'keep-alive' && t !== '') return NOT_SIMPLE;
          }
        }
        break;
      case 14:
        if (nameIs(buf, nameStart, nameLen, CONTENT_LENGTH) && trimmed(buf, valueStart, valueEnd) !== '0')
          return NOT_SIMPLE;
        break;
      case 17:
        if (nameIs(buf, nameStart, nameLen, TRANSFER_ENCODING)) return NOT_SIMPLE;
        break;
      case 7:
        if (nameIs(buf, nameStart, nameLen, UPGRADE)) return NOT_SIMPLE;
        break;
      case 6:
        if (nameIs(buf, nameStart, nameLen, EXPECT)) return NOT_SIMPLE;
        break;
    }
  }
  // The head without its final CRLF CRLF is what counts against the limit.
  if (i - 4 > MAX_SIMPLE_HEAD || hosts !== 1) return NOT_SIMPLE;
  return { method, target: buf.toString('latin1', targetStart, targetEnd), ifNoneMatch, forwardedFor, close, end: i };
}

/** A field value without the optional whitespace around it (SP and HTAB), as latin1 text. */
function trimmed(buf: Buffer, start: number, end: number): string {
  while (start < end && (buf[start] === SP || buf[start] === HTAB)) start++;
  while (end > start && (buf[end - 1] === SP || buf[end - 1] === HTAB)) end--;
  return buf.toString('latin1', start, end);
}

/**
 * Parses a request head — latin1 text up to, not including, the empty line — when it is one the fast
 * path may answer; undefined otherwise.
 */
export function parseSimpleHead(head: string): SimpleRequest | undefined {
  const r = scanRequestHead(Buffer.from(`${head}\r\n\r\n`, 'latin1'));
  if (typeof r === 'number') return undefined;
  return {
    method: r.method,
    target: r.target,
    ifNoneMatch: r.ifNoneMatch,
    forwardedFor: r.forwardedFor,
    close: r.close,
  };
}
