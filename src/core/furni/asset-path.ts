// Maps a raw request URL to the corpus key it names, or to nothing. Only keys of corpus.json are ever
// served, so this is the single gate between a URL and the disk: a traversal attempt cannot produce a key
// that the build wrote, and segments that could escape a folder are refused before the lookup.

/** `animation`: a pre-rendered `.apng` variant (`build --variants`), served only with variants on. */
export type AssetKind = 'render' | 'icon' | 'bundle' | 'animation';

export interface AssetRef {
  /** Relative path inside the corpus, exactly as listed in corpus.json's `files`. */
  key: string;
  kind: AssetKind;
}

/** The parameter tags of the spec's reserved filenames (§2.6): size, state, direction, frame. */
const RESERVED_TAG = /__(?:s|st|d|f)\d+(?:_(?:s|st|d|f)\d+)*$/;

/**
 * The corpus key for a raw request URL (as received: still percent-encoded, query string included),
 * or undefined when the URL names no servable asset.
 */
export function resolveAssetUrl(rawUrl: string): AssetRef | undefined {
  const q = rawUrl.indexOf('?');
  const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
  if (path.charCodeAt(0) !== 0x2f /* / */) return undefined;
  // The asterisk of a colour variant is literal; an encoded one is a different, unpublished name (§2.1).
  if (/%2a/i.test(path)) return undefined;
  const segs = path.split('/');
  if (segs.length === 3 && (segs[1] === 'furni-renders' || segs[1] === 'catalog-thumbs')) {
    const name = decodeSegment(segs[2]!);
    if (name === undefined || !name.endsWith('.png')) return undefined;
    const classname = name.slice(0, -'.png'.length);
    if (!isClassname(classname)) return undefined;
    return { key: `${segs[1]}/${name}`, kind: segs[1] === 'furni-renders' ? 'render' : 'icon' };
  }
  if (segs.length === 4 && segs[1] === 'hof_furni') {
    const revision = decodeSegment(segs[2]!);
    const name = decodeSegment(segs[3]!);
    if (revision === undefined || name === undefined || !name.endsWith('.bundle')) return undefined;
    if (!isClassname(name.slice(0, -'.bundle'.length))) return undefined;
    return { key: `hof_furni/${revision}/${name}`, kind: 'bundle' };
  }
  return undefined;
}

/** decodeURIComponent for one path segment; undefined when malformed or when the result could leave its folder. */
export function decodeSegment(raw: string): string | undefined {
  let s: string;
  try {
    s = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  return isSafeSegment(s) ? s : undefined;
}

/**
 * A decoded segment that names one published entry in one folder: no separators, no control characters,
 * and no leading dot — that covers `.` and `..`, and hidden names (a build stages files in `.staging/`
 * or writes `.tmp` files next to their final names), which are never published even if listed.
 */
export function isSafeSegment(s: string): boolean {
  if (s === '' || s.charCodeAt(0) === 0x2e /* . */) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || c === 0x2f /* / */ || c === 0x5c /* \ */) return false;
  }
  return true;
}

/** True for a classname ending in the spec's reserved parameter tags (§2.6), e.g. `x__st1_f2`. */
export function hasReservedTags(classname: string): boolean {
  return RESERVED_TAG.test(classname);
}

function isClassname(classname: string): boolean {
  return classname !== '' && !RESERVED_TAG.test(classname);
}

/** Whether a corpus.json key has the served layout with safe segments; other keys are never served. */
export function isServableKey(key: string): boolean {
  const segs = key.split('/');
  if (!segs.every(isSafeSegment)) return false;
  if (segs.length === 2 && (segs[0] === 'furni-renders' || segs[0] === 'catalog-thumbs')) {
    if (segs[0] === 'furni-renders' && segs[1]!.endsWith('.apng')) return segs[1]!.length > '.apng'.length;
    return segs[1]!.endsWith('.png') && segs[1]!.length > '.png'.length;
  }
  return (
    segs.length === 3 && segs[0] === 'hof_furni' && segs[2]!.endsWith('.bundle') && segs[2]!.length > '.bundle'.length
  );
}

export function contentTypeOf(kind: AssetKind): string {
  return kind === 'bundle' ? 'application/octet-stream' : kind === 'animation' ? 'image/apng' : 'image/png';
}
