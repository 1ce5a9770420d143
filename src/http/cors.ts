// The CORS preflight both services answer (contract A5 and F4, docs/contract.md): one copy of its headers and of the
// rule for echoing the headers a browser asks to send.

/** A preflight's Access-Control-Request-Headers is echoed only when it is a plain list of field names. */
const HEADER_LIST = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+(?:\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/;

export interface PreflightOptions {
  /** The methods the path serves: Allow and Access-Control-Allow-Methods. */
  allow: string;
  /** Access-Control-Allow-Headers when the request names none we can echo. */
  defaultHeaders: string;
  /** Access-Control-Expose-Headers, when the service exposes any. */
  expose?: string;
}

/** The headers of a 204 preflight answer to a request that asked for `requested` headers. */
export function preflightHeaders(opts: PreflightOptions, requested: string | undefined): Record<string, string> {
  const asked = requested?.trim();
  const headers: Record<string, string> = {
    allow: opts.allow,
    'access-control-allow-origin': '*',
    'access-control-allow-methods': opts.allow,
    'access-control-allow-headers': asked && HEADER_LIST.test(asked) ? asked : opts.defaultHeaders,
    'access-control-max-age': '86400',
  };
  if (opts.expose !== undefined) headers['access-control-expose-headers'] = opts.expose;
  return headers;
}
