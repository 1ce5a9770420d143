// What a client gets when Node's HTTP parser refuses its request (the 'clientError' event). Node's
// parser knows a fixed list of methods, so `FOO /x HTTP/1.1` or `BREW /pot HTTP/1.1` is a parse error to
// it, while the spec says every method other than GET, HEAD and OPTIONS is 405. A parse error whose
// request line is well formed apart from an unknown method token is therefore answered 405; real garbage
// stays 400, an oversized head 431 and a stalled one 408, as Node and Fastify answer them.
// The parser cannot go on after an error, so every answer here closes the connection.
import { type ServerResponse } from 'node:http';
import { type Socket } from 'node:net';
import { type RequestDone } from '../../http/request-log.js';

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';
export const METHOD_NOT_ALLOWED_BODY = 'method not allowed';

interface ParserError extends Error {
  code?: string;
  /** The bytes the parser was given when it failed. */
  rawPacket?: Buffer;
  /** Offset in rawPacket where it failed. */
  bytesParsed?: number;
}

const TCHAR = /[!#$%&'*+.^_`|~0-9A-Za-z-]/;
/** The rest of a request line after its method: origin-form, `*` or absolute-form target, HTTP/1.x. */
const LINE_REST = /^ ([/*][!-~]*|[A-Za-z][A-Za-z0-9+.-]*:[!-~]*) HTTP\/1\.\d\r?$/;
/** The same while the line is still incomplete (no line end received yet). */
const LINE_REST_SO_FAR =
  /^ ([/*][!-~]*|[A-Za-z][A-Za-z0-9+.-]*:[!-~]*)(?: (?:H(?:T(?:T(?:P(?:\/(?:1(?:\.\d?)?)?)?)?)?)?)?)?$/;

/**
 * The method and target of a request Node refused only because it does not know the method; undefined
 * when the bytes are not a well-formed request line (a TLS hello, random bytes, a bad head).
 */
export function unknownMethodRequest(err: ParserError): { method: string; target: string } | undefined {
  if (err.code !== 'HPE_INVALID_METHOD' || !err.rawPacket) return undefined;
  const text = err.rawPacket.toString('latin1');
  // The failure is inside the method token; the token starts where the failed request does.
  let start = Math.min(err.bytesParsed ?? 0, text.length);
  while (start > 0 && TCHAR.test(text[start - 1]!)) start--;
  let end = start;
  while (end < text.length && TCHAR.test(text[end]!)) end++;
  if (end === start || end - start > 64) return undefined;
  const lineEnd = text.indexOf('\n', end);
  const rest = lineEnd < 0 ? text.slice(end) : text.slice(end, lineEnd);
  const m = (lineEnd < 0 ? LINE_REST_SO_FAR : LINE_REST).exec(rest);
  if (!m) return undefined;
  return { method: text.slice(start, end), target: m[1]! };
}

function response(status: string, headers: Record<string, string>, body: string): string {
  let head = `HTTP/1.1 ${status}\r\n`;
  for (const [name, value] of Object.entries({
    ...headers,
    'content-type': 'text/plain; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'access-control-allow-origin': '*',
    date: new Date().toUTCString(),
    connection: 'close',
  })) {
    head += `${name}: ${value}\r\n`;
  }
  return `${head}\r\n${body}`;
}

export interface ClientErrorOptions {
  /** Counts and logs the 405s (the other answers here are to requests that never were whole). */
  done: RequestDone;
  nextId: () => string;
  trace(obj: object, msg: string): void;
}

export function createClientErrorHandler(opts: ClientErrorOptions): (err: Error, socket: Socket) => void {
  // A failed parser fails again on every later chunk; only the first error on a socket is answered.
  const answered = new WeakSet<Socket>();
  return (err: ParserError, socket: Socket) => {
    // A reset has nothing left to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed || answered.has(socket)) return;
    answered.add(socket);
    opts.trace({ err: err.message, code: err.code }, 'client error');
    const unknown = unknownMethodRequest(err);
    let text: string;
    if (unknown) {
      text = response('405 Method Not Allowed', { allow: ALLOWED_METHODS }, METHOD_NOT_ALLOWED_BODY);
    } else if (err.code === 'HPE_HEADER_OVERFLOW') {
      text = response('431 Request Header Fields Too Large', {}, 'request header fields too large');
    } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      text = response('408 Request Timeout', {}, 'request timeout');
    } else {
      text = response('400 Bad Request', {}, 'bad request');
    }
    // Responses to requests pipelined before the bad one go out first, in order; this answer follows them.
    const send = (): void => {
      if (socket.destroyed) return;
      const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
      if (inFlight && !inFlight.writableFinished && !inFlight.destroyed) {
        let again = false;
        const next = () => {
          if (again) return;
          again = true;
          setImmediate(send);
        };
        inFlight.once('finish', next);
        inFlight.once('close', next);
        return;
      }
      if (!socket.writable) {
        socket.destroy();
        return;
      }
      socket.end(text, 'latin1');
      // A client that never reads must not hold the socket open.
      socket.setTimeout(5000, () => socket.destroy());
      if (unknown) {
        opts.done(
          opts.nextId(),
          unknown.method,
          unknown.target,
          405,
          METHOD_NOT_ALLOWED_BODY.length,
          performance.now(),
          null,
          socket.remoteAddress ?? '',
        );
      }
    };
    send();
  };
}
