// Builds the badge model from a hotel folder: a pure function of (asset folder, options) and the files'
// bytes, returning an immutable BadgeHotel, or why the hotel has no badges. A live reload calls it again
// and swaps the result in; nothing here holds state between calls.
import { readBadgeSources, type BadgeSourceOptions } from '../hotel/badge.js';
import { type BadgeHotel } from './model.js';

export type { BadgeSourceOptions } from '../hotel/badge.js';

export type BadgeLoadResult = { ok: true; hotel: BadgeHotel } | { ok: false; reason: string };

export async function loadBadgeHotel(assetsDir: string, opts: BadgeSourceOptions = {}): Promise<BadgeLoadResult> {
  const read = await readBadgeSources(assetsDir, opts);
  if (!read.ok) return read;
  const s = read.sources;
  const hotel: BadgeHotel = {
    elements: s.elements,
    images: s.images,
    identity: s.identity,
    elementsFile: s.elementsFile,
    origins: Object.freeze(s.origins.map((o) => Object.freeze({ ...o }))),
    files: Object.freeze([...s.files]),
    unreadable: Object.freeze([...s.unreadable]),
  };
  return { ok: true, hotel: Object.freeze(hotel) };
}
