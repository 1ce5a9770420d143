// Conditional requests by entity tag (RFC 9110 §13.1.2): If-None-Match uses the weak comparison.

/** A strong entity tag for a content hash: the quoted hex digest. */
export function strongEtag(hexDigest: string): string {
  return `"${hexDigest}"`;
}

/**
 * Whether an If-None-Match field value matches the current representation's tag, so a GET or HEAD
 * gets 304. `*` matches any existing representation; list members may be weak (`W/"…"`), compared weakly.
 * A malformed member ends parsing: members after it are not read, members before it still count.
 */
export function ifNoneMatchMatches(field: string, etag: string): boolean {
  // What browsers and caches send back nearly always: the one tag they were given.
  if (field === etag) return true;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  let i = 0;
  const n = field.length;
  const skipSeparators = () => {
    while (i < n && (field[i] === ' ' || field[i] === '\t' || field[i] === ',')) i++;
  };
  skipSeparators();
  if (field.slice(i).trimEnd() === '*') return true;
  while (i < n) {
    if (field.startsWith('W/', i)) i += 2;
    if (field[i] !== '"') return false;
    const end = field.indexOf('"', i + 1);
    if (end < 0) return false;
    if (field.slice(i, end + 1) === opaque) return true;
    i = end + 1;
    if (i < n && field[i] !== ',' && field[i] !== ' ' && field[i] !== '\t') return false;
    skipSeparators();
  }
  return false;
}
