// The kit's draworder.xml, the explicit part order of the Flash era. Its posture lists (std, sit, lay)
// are the built-in geometry's own order, so a plain pose draws exactly as the Nitro kit does; its
// raised-hand lists (lh-up, rh-up, sit.lh-up, sit.rh-up) differ, as real ones do: the raised arm is
// drawn over the head in the directions where it crosses it. Like the real file, each hand list names
// only the directions where it differs, and one direction is listed empty (it falls through to std).
import { AvatarGeometry } from '../../avatar/geometry.js';
import { builtinGeometry } from '../../avatar/builtin/geometry.js';
import { type XmlNode, el, xmlDocument } from './xml.js';

const LEFT_HAND = ['lh', 'lhs', 'ls', 'lc', 'li'];
const RIGHT_HAND = ['rh', 'rhs', 'rs', 'rc', 'ri'];

/** Which directions each hand list covers: the arm that is raised crosses the head there. */
const HAND_LISTS: { id: string; posture: string; hand: string[]; directions: number[] }[] = [
  { id: 'lh-up', posture: 'vertical', hand: LEFT_HAND, directions: [4, 5, 6] },
  { id: 'rh-up', posture: 'vertical', hand: RIGHT_HAND, directions: [0, 1, 2] },
  { id: 'sit.lh-up', posture: 'sitting', hand: LEFT_HAND, directions: [4] },
  { id: 'sit.rh-up', posture: 'sitting', hand: RIGHT_HAND, directions: [2] },
];
const POSTURES: [string, string][] = [
  ['std', 'vertical'],
  ['sit', 'sitting'],
  ['lay', 'horizontal'],
];
/** A direction element with an empty part list (lh-up has none in direction 3 in real files). */
const EMPTY: { id: string; direction: number } = { id: 'lh-up', direction: 3 };

/** The geometry's order for a type and direction, bottom first, one part type an entry. */
export function geometricPartOrder(geometry: AvatarGeometry, geometryType: string, direction: number): string[] {
  return geometry.getBodyPartsAtAngle('full', geometryType, direction).flatMap((b) => b.partTypes);
}

/** The list with a hand's part types moved to the top (drawn last, over the head). */
export function withHandOnTop(order: string[], hand: string[]): string[] {
  return [...order.filter((t) => !hand.includes(t)), ...order.filter((t) => hand.includes(t))];
}

function direction(id: number, parts: string[]): XmlNode {
  return el(
    'direction',
    [['id', id]],
    [
      el(
        'partList',
        [],
        parts.map((t) => el('part', [['set-type', t]])),
      ),
    ],
  );
}

export function drawOrderXml(): string {
  const geometry = new AvatarGeometry(builtinGeometry());
  const actions: XmlNode[] = POSTURES.map(([id, type]) =>
    el(
      'action',
      [['id', id]],
      Array.from({ length: 8 }, (_, d) => direction(d, geometricPartOrder(geometry, type, d))),
    ),
  );
  for (const h of HAND_LISTS) {
    const dirs = h.directions.map((d) =>
      direction(d, withHandOnTop(geometricPartOrder(geometry, h.posture, d), h.hand)),
    );
    if (h.id === EMPTY.id) dirs.push(el('direction', [['id', EMPTY.direction]], [el('partList')]));
    actions.push(el('action', [['id', h.id]], dirs));
  }
  return xmlDocument(el('actionSet', [], actions));
}
