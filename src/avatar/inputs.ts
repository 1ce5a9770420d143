// What a render reads from its hotel, named by content: the service keys cached images (and ETags) on
// it instead of on the whole hotel, so a hotel reloaded with one library changed changes the keys of
// exactly the figures that read that library, and every other URL keeps its entry and ETag.
import { createHash } from 'node:crypto';
import { AvatarRenderError } from './errors.js';
import { resolveFigure, type FigureSet } from './figure.js';
import { type AvatarHotel } from './hotel.js';
import { requestedEffects } from './render.js';
import { parseAction, type AvatarRequest } from './request.js';

/** Per FigureData set object (one per loaded hotel): the digest of its definition. */
const setDigests = new WeakMap<FigureSet, string>();

function setDigest(set: FigureSet): string {
  let d = setDigests.get(set);
  if (d === undefined) {
    d = createHash('sha256').update(JSON.stringify(set)).digest('hex').slice(0, 16);
    setDigests.set(set, d);
  }
  return d;
}

/** Held-item tokens and the part type their id is drawn as (`resolvePose`). */
const ITEM_PARTS = [['drk', 'ri'], ['crr', 'ri'], ['sig', 'li']] as const;

/**
 * Everything a render of `req` reads from `hotel`, as text: equal texts (under one renderer version)
 * give equal images. It names a superset of what render.ts reads:
 * - the documents every render reads (actions, geometry, part sets, animations, draw order, whether the
 *   libraries position small sprites): one digest;
 * - the resolved figure: each worn set, the mandatory defaults included, with the digest of its FigureData
 *   definition and the palette colour each of its colour ids names (a figure that does not resolve names
 *   why, so a set added later is a new text);
 * - each library the render searches, in its order and with the digest of its bytes: the body and
 *   hand-item libraries, each worn set's (figure map and part index), the item library, each held item's;
 * - each effect or dance drawn, with its library's digest (its animation lives there).
 */
export function renderInputs(hotel: AvatarHotel, req: AvatarRequest): string {
  const libs = hotel.libraries;
  const digests = hotel.digests.libraries;
  const list = (names: readonly string[]): string => {
    let out = '';
    for (const n of names) out += ` ${n}@${digests.get(n) ?? ''}`;
    return out;
  };
  let text = `pose ${hotel.digests.pose}\nbase${list(libs.librariesFor('bd', 1))} |${list(libs.librariesFor('li', 0))}\n`;
  try {
    const figure = resolveFigure(req.figure, hotel.figure);
    for (const w of figure.sets) {
      const palette = hotel.figure.palettes.get(w.paletteId);
      const colours = palette ? w.colours.map((id) => palette.get(id) ?? '-').join(',') : 'none';
      text += `set ${w.setType}-${w.setId}${w.isDefault ? ' default' : ''} ${setDigest(w.set)} ${colours}${list(libs.librariesOfSet(w.set, hotel.partSets.flipped))}\n`;
    }
  } catch (e) {
    if (!(e instanceof AvatarRenderError)) throw e;
    text += `unresolved ${e.code} ${e.message}\n`;
  }
  if (hotel.itemLibrary) text += `items${list([hotel.itemLibrary])}\n`;
  const { items } = parseAction(req.action);
  for (const [token, type] of ITEM_PARTS) {
    const id = items.get(token);
    if (id !== undefined) text += `${token} ${id}${list(libs.librariesFor(type, id))}\n`;
  }
  for (const { state, effect } of requestedEffects(hotel, req)) {
    text += `${state} ${effect.type}.${effect.param} ${effect.library}@${hotel.digests.effectLibraries.get(effect.library) ?? ''}\n`;
  }
  return text;
}

/** The request fields `renderInputs` reads, as one text: requests equal in it have equal inputs (for memos). */
export function renderInputsFields(req: AvatarRequest): string {
  return `${req.figure}\0${req.action}\0${req.effect ?? ''}\0${req.dance ?? ''}`;
}

/** `renderInputs` as 16 hex digits. */
export function renderInputsDigest(hotel: AvatarHotel, req: AvatarRequest): string {
  return createHash('sha256').update(renderInputs(hotel, req)).digest('hex').slice(0, 16);
}
