// A raw request target (`/path?query`) taken apart without URL parsing: the routes match paths byte for byte.

/** The path, without the query string. */
export function pathOf(target: string): string {
  const q = target.indexOf('?');
  return q < 0 ? target : target.slice(0, q);
}

/** The query string as sent (no `?`; "" when none). */
export function queryOf(target: string): string {
  const q = target.indexOf('?');
  return q < 0 ? '' : target.slice(q + 1);
}

/** The rest of the path after `prefix` (`/…` or empty), or undefined when the target is not under it. */
export function pathAfter(target: string, prefix: string): string | undefined {
  if (!target.startsWith(prefix)) return undefined;
  const path = pathOf(target);
  if (path.length === prefix.length) return '';
  return path[prefix.length] === '/' ? path.slice(prefix.length) : undefined;
}
