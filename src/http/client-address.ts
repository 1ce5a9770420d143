// Who sent a request, for the per-client render limits and the request log: the socket's address, or,
// behind --trust-proxy, the first X-Forwarded-For entry (the client as the outermost proxy saw it; the
// proxy in front must set the header itself, e.g. nginx `proxy_set_header X-Forwarded-For
// $remote_addr`, or a client can name any address it likes). Fastify's `trustProxy: true` gives
// `request.ip` by the same rule, so every route of a service agrees.

/** A field from the raw header list (repeats joined with ", " as Node joins them), without building req.headers. */
export function rawHeader(rawHeaders: string[], lowerName: string): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === lowerName.length && name.toLowerCase() === lowerName) {
      found = found === undefined ? rawHeaders[i + 1]! : `${found}, ${rawHeaders[i + 1]!}`;
    }
  }
  return found;
}

/**
 * The client: with `trustProxy`, the first entry of `forwardedFor` (the X-Forwarded-For value) when it
 * has one; else the socket's address ("" when the socket is already gone).
 */
export function clientAddress(
  forwardedFor: string | undefined,
  remoteAddress: string | undefined,
  trustProxy: boolean,
): string {
  if (trustProxy && forwardedFor !== undefined) {
    const comma = forwardedFor.indexOf(',');
    const first = (comma < 0 ? forwardedFor : forwardedFor.slice(0, comma)).trim();
    if (first) return first;
  }
  return remoteAddress ?? '';
}
