// What a render reads from its hotel, named by content: the service keys cached images (and ETags) on
// it instead of on the whole hotel, so a hotel reloaded with one library changed changes the keys of
// exactly the figures that read that library, and every other URL keeps its entry and ETag.
import { LRUCache } from 'lru-cache';
import { AvatarRenderError } from './errors.js';
import { resolveFigure, resolveOutfit, type FigureSet, type ResolvedFigure, type WornSet } from './figure.js';
import { type AvatarHotel } from './hotel.js';
import { requestedEffects } from './plan.js';
import { type AvatarRequest } from './request.js';
import { sha256Hex } from '../util/hash.js';

/** Per hotel: the lines every request of it has (pose documents, body and hand-item libraries, item library). */
const hotelLines = new WeakMap<AvatarHotel, string>();
/** Per FigureData set object (one per loaded hotel): the digest of its definition and its libraries. */
const setLines = new WeakMap<FigureSet, string>();

/** ` name@digest` for each library (the digest shortened: 64 bits tell files apart well enough here). */
function libraryList(hotel: AvatarHotel, names: readonly string[], digests = hotel.digests.libraries): string {
  let out = '';
  for (const n of names) out += ` ${n}@${digests.get(n)?.slice(0, 16) ?? ''}`;
  return out;
}

function hotelLine(hotel: AvatarHotel): string {
  let line = hotelLines.get(hotel);
  if (line === undefined) {
    const libs = hotel.libraries;
    line =
      `pose ${hotel.digests.pose}\nbase${libraryList(hotel, libs.librariesFor('bd', 1))} ` +
      `|${libraryList(hotel, libs.librariesFor('li', 0))}\n`;
    if (hotel.itemLibrary) line += `items${libraryList(hotel, [hotel.itemLibrary])}\n`;
    hotelLines.set(hotel, line);
  }
  return line;
}

function setLine(hotel: AvatarHotel, set: FigureSet): string {
  let line = setLines.get(set);
  if (line === undefined) {
    const digest = sha256Hex(JSON.stringify(set)).slice(0, 16);
    line = `${digest}${libraryList(hotel, hotel.libraries.librariesOfSet(set, hotel.partSets.flipped))}`;
    setLines.set(set, line);
  }
  return line;
}

/** Held-item tokens and the part type their id is drawn as (`resolvePose`). */
const ITEM_PARTS = [
  ['drk', 'ri'],
  ['crr', 'ri'],
  ['sig', 'li'],
] as const;

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
 * - each effect or dance drawn, with the digests of its library (its animation lives there), of the
 *   effect libraries it borrows sprites from, and of the figure libraries of parts its layers name.
 */
export function renderInputs(hotel: AvatarHotel, req: AvatarRequest): string {
  let figure: ResolvedFigure | undefined;
  let unresolved: AvatarRenderError | undefined;
  try {
    figure = resolveFigure(req.figure, hotel.figure, req.gender);
  } catch (e) {
    if (!(e instanceof AvatarRenderError)) throw e;
    unresolved = e;
  }
  return inputsText(hotel, req, figure, unresolved, setColours);
}

/** A worn set's colours as the inputs name them: the palette colour of each colour id. */
function setColours(hotel: AvatarHotel, w: WornSet): string {
  const palette = hotel.figure.palettes.get(w.paletteId);
  if (!palette) return 'none';
  let out = '';
  for (let i = 0; i < w.colours.length; i++) out += (i > 0 ? ',' : '') + (palette.get(w.colours[i]!) ?? '-');
  return out;
}

/** `renderInputs`' text, each worn set's colours as `colours` names them. */
function inputsText(
  hotel: AvatarHotel,
  req: AvatarRequest,
  figure: ResolvedFigure | undefined,
  unresolved: AvatarRenderError | undefined,
  colours: (hotel: AvatarHotel, w: WornSet) => string,
): string {
  let text = hotelLine(hotel);
  if (figure) {
    for (const w of figure.sets)
      text +=
        `set ${w.setType}-${w.setId}${w.isDefault ? ' default' : ''} ${colours(hotel, w)}` +
        ` ${setLine(hotel, w.set)}\n`;
  } else if (unresolved) {
    text += `unresolved ${unresolved.code} ${unresolved.message}\n`;
  }
  const { items } = req.action;
  for (const [token, type] of ITEM_PARTS) {
    const id = items.get(token);
    if (id !== undefined) text += `${token} ${id}${libraryList(hotel, hotel.libraries.librariesFor(type, id))}\n`;
  }
  for (const { state, effect } of requestedEffects(hotel, req)) {
    // Its own library and those it borrows sprites from, then the figure libraries of parts its layers name.
    text +=
      `${state} ${effect.type}` +
      `.${effect.param}${libraryList(hotel, effect.libraries, hotel.digests.effectLibraries)}\n`;
    for (const fp of effect.figureParts)
      text += `  part ${fp.type}-${fp.id}${libraryList(hotel, hotel.libraries.librariesFor(fp.type, fp.id))}\n`;
  }
  return text;
}

/** The request fields `renderInputs` reads, as one text: requests equal in it have equal inputs (for memos). */
export function renderInputsFields(req: AvatarRequest): string {
  const base = `${req.figure}\0${req.action.text}\0${req.effect ?? ''}\0${req.dance ?? ''}`;
  return req.gender ? `${base}\0${req.gender}` : base;
}

/**
 * Per hotel object: the digest of `renderInputs`' text with every worn set's colours left out, by outfit
 * (`resolveOutfit`) and the other fields the text reads. Popular outfits come back in colour after
 * colour; building and hashing the whole text was most of the key's cost on the main thread. Bounded.
 */
const outfitDigests = new WeakMap<AvatarHotel, LRUCache<string, string>>();
const OUTFIT_DIGESTS_PER_HOTEL = 4096;

/**
 * `renderInputs` as 16 hex digits: the digest of its text without colours (kept per outfit), then each
 * worn set's colours. Equal exactly when the texts are equal: the text without colours fixes how many
 * sets there are and where each one's colours go, and a set's colours hold no line break.
 */
export function renderInputsDigest(hotel: AvatarHotel, req: AvatarRequest): string {
  let resolved: { outfit: string; figure: ResolvedFigure };
  try {
    resolved = resolveOutfit(req.figure, hotel.figure, req.gender);
  } catch (e) {
    if (!(e instanceof AvatarRenderError)) throw e;
    // A figure that does not resolve has no colours in its text: the whole text, marked as such.
    return sha256Hex(`inputs\n${renderInputs(hotel, req)}`).slice(0, 16);
  }
  const { outfit, figure } = resolved;
  let memo = outfitDigests.get(hotel);
  if (!memo) outfitDigests.set(hotel, (memo = new LRUCache<string, string>({ max: OUTFIT_DIGESTS_PER_HOTEL })));
  const key = `${outfit}\0${req.action.text}\0${req.effect ?? ''}\0${req.dance ?? ''}`;
  let shape = memo.get(key);
  if (shape === undefined) memo.set(key, (shape = sha256Hex(inputsText(hotel, req, figure, undefined, () => '*'))));
  let text = `outfit ${shape}\n`;
  for (const w of figure.sets) text += setColours(hotel, w) + '\n';
  return sha256Hex(text).slice(0, 16);
}
