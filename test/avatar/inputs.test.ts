// What a render reads (inputs.ts), the service's cache key version: it must name every library a render
// draws from (or a reload that changes that library would keep serving the old image under the same
// key), depend only on the request fields it says it reads (its memo is keyed on them), and change with
// a changed library or set the request reads, not with one it does not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  hotelFromSnapshot,
  renderAvatar,
  renderInputs,
  renderInputsDigest,
  renderInputsFields,
  scanAvatarHotel,
  type AvatarRequest,
} from '../../src/avatar/index.js';
import { parseAvatarQuery } from '../../src/core/avatar/params.js';
import { goldenQueries } from '../server/avatar/golden-urls.js';
import { useKitHotel } from './kit-hotel.js';

const kit = useKitHotel('inputs');
const FIG = 'hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40';

function request(query: string): AvatarRequest {
  const parsed = parseAvatarQuery(query);
  assert.ok(parsed.ok && parsed.query.identity.kind === 'figure', query);
  return { figure: parsed.query.identity.figure, ...parsed.query.pose };
}

/** The golden set, plus effects, dances and held items the golden set leaves out. */
function queries(): string[] {
  const extra: string[] = [];
  for (const fx of [1, 2, 3, 4, 99])
    extra.push(`figure=${FIG}&effect=${fx}&size=m&direction=4`, `figure=${FIG}&effect=${fx}&action=crr=1&size=s`);
  for (const d of [1, 2, 3, 4])
    extra.push(`figure=${FIG}&dance=${d}&size=m`, `figure=${FIG}&action=dance.${d},sig=3&size=l&direction=6`);
  extra.push(
    `figure=${FIG}&action=drk=6&effect=2&direction=5`,
    `figure=hd-190-1.ha-1004-62.ea-1402-1&action=wav,crr=3&headonly=1`,
  );
  return [...goldenQueries(), ...extra];
}

test("every library a render draws a layer from is named, with its digest, in the render's inputs", async () => {
  let layers = 0;
  for (const q of queries()) {
    const req = { ...request(q), animated: true };
    let out;
    try {
      out = await renderAvatar(kit.hotel, req);
    } catch {
      continue; // a figure the kit cannot draw: its inputs name why (below)
    }
    const text = renderInputs(kit.hotel, req);
    for (const l of out.layers) {
      const digest = kit.hotel.digests.libraries.get(l.library) ?? kit.hotel.digests.effectLibraries.get(l.library);
      assert.ok(digest, `${l.library} has a digest`);
      assert.ok(text.includes(`${l.library}@${digest.slice(0, 16)}`), `${q}: layer from ${l.library} not in\n${text}`);
      layers++;
    }
  }
  assert.ok(layers > 10_000, `${layers} layers checked`);
});

test('the inputs depend only on the request fields their memo is keyed on', () => {
  const seen = new Map<string, string>();
  for (const q of queries()) {
    const req = request(q);
    const text = renderInputs(kit.hotel, req);
    // Everything else about the request varied: same text.
    const other: AvatarRequest = {
      ...req,
      direction: (req.direction + 3) % 8,
      headDirection: 1,
      size: req.size === 's' ? 'l' : 's',
      gesture: 'sml',
      headOnly: !req.headOnly,
      animated: !req.animated,
      frames: 3,
      format: 'gif',
      frameNum: 1,
    };
    assert.equal(renderInputs(kit.hotel, other), text, q);
    const fields = renderInputsFields(req);
    if (seen.has(fields)) assert.equal(seen.get(fields), text);
    seen.set(fields, text);
  }
});

test('the digest changes with a library or set the request reads, not with others; a missing set is named', async () => {
  const snap = await scanAvatarHotel(kit.dir);
  const req = request(`figure=${FIG}&size=m`);
  const base = renderInputsDigest(hotelFromSnapshot(snap), req);
  const withDigest = (lib: string) => {
    const libraries = snap.sources.libraries.map((l) => (l.name === lib ? { ...l, digest: 'f'.repeat(64) } : l));
    return hotelFromSnapshot({ ...snap, sources: { ...snap.sources, libraries } });
  };
  assert.equal(renderInputsDigest(withDigest('hat_U_kitcap'), req), base, 'a hat library: not read');
  assert.notEqual(renderInputsDigest(withDigest('shirt_U_kittee'), req), base, "the shirt's library");
  assert.notEqual(renderInputsDigest(withDigest('hh_human_body'), req), base, 'the body');
  assert.notEqual(
    renderInputsDigest(withDigest('hh_human_item'), req),
    base,
    'the item library (searched by every render)',
  );
  // The shirt set's definition changed (another colour index), and a palette colour it uses.
  const figureData = structuredClone(snap.sources.figureData);
  figureData.setTypes.find((t) => t.type === 'ch')!.sets.find((s) => s.id === 210)!.parts[0]!.colorindex = 2;
  assert.notEqual(
    renderInputsDigest(hotelFromSnapshot({ ...snap, sources: { ...snap.sources, figureData } }), req),
    base,
  );
  const unrelated = structuredClone(snap.sources.figureData);
  unrelated.setTypes
    .find((t) => t.type === 'ha')!
    .sets.push({ id: 9090, gender: 'U', club: 0, parts: [{ id: 5090, type: 'ha', colorindex: 1 }] });
  const added = hotelFromSnapshot({ ...snap, sources: { ...snap.sources, figureData: unrelated } });
  assert.equal(renderInputsDigest(added, req), base, 'a set added elsewhere');
  const hat = request(`figure=${FIG}.ha-9090-62&size=m`);
  assert.match(
    renderInputs(hotelFromSnapshot(snap), hat),
    /unresolved unknown-set set ha-9090 is not in the figure data/,
  );
  assert.notEqual(
    renderInputsDigest(added, hat),
    renderInputsDigest(hotelFromSnapshot(snap), hat),
    'the set now exists: another key',
  );
});

test('the digest is equal exactly when the inputs text is (kept per outfit, colours added per request)', () => {
  // Each figure of the queries, and the same sets in other colours: none, fewer, more, unknown, not numbers.
  const recolour = (figure: string, n: number) =>
    figure
      .split('.')
      .map((piece, i) => {
        const [type, id] = piece.split('-');
        const colours = [[], ['1'], ['61', '62'], ['66'], ['1408', 'x'], ['82', '', '40'], ['99999']][(n + i) % 7]!;
        return [type, id, ...colours].join('-');
      })
      .join('.');
  const digestOf = new Map<string, string>();
  const textOf = new Map<string, string>();
  for (const q of queries()) {
    const req = request(q);
    for (let n = 0; n < 8; n++) {
      const r = n === 0 ? req : { ...req, figure: recolour(req.figure, n) };
      const text = renderInputs(kit.hotel, r);
      const digest = renderInputsDigest(kit.hotel, r);
      if (textOf.has(digest)) assert.equal(textOf.get(digest), text, `${r.figure}: one digest, two texts`);
      if (digestOf.has(text)) assert.equal(digestOf.get(text), digest, `${r.figure}: one text, two digests`);
      textOf.set(digest, text);
      digestOf.set(text, digest);
    }
  }
  assert.ok(textOf.size >= 300, `${textOf.size} distinct inputs`);
});
