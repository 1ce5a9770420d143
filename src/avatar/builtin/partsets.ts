// Built-in part sets (mirror pairs and the active part set of every action), used when a hotel ships
// no HabboAvatarPartSets document. Our own table of the facts in docs/avatar-rendering.md.
import { type PartSetsXml } from '../../formats/gamedata/avatar-xml-types.js';

const MIRROR: Record<string, string> = {
  rh: 'lh',
  rhs: 'lhs',
  rs: 'ls',
  rc: 'lc',
  lh: 'rh',
  lhs: 'rhs',
  ls: 'rs',
  lc: 'rc',
  ri: 'ri',
  li: 'li',
};
const PARTS = [
  'ri',
  'rh',
  'rhs',
  'rs',
  'rc',
  'bd',
  'bds',
  'ss',
  'sh',
  'lg',
  'ch',
  'cp',
  'cc',
  'hd',
  'fc',
  'ey',
  'hr',
  'hrb',
  'li',
  'lh',
  'lhs',
  'ls',
  'lc',
  'wa',
  'ea',
  'ca',
  'fa',
  'ha',
  'he',
];

const HAND_RIGHT = ['rh', 'rhs', 'rs', 'rc', 'ri'];
const HAND_LEFT = ['lh', 'lhs', 'ls', 'lc', 'li'];
const HEAD = ['hd', 'fc', 'ey', 'hr', 'hrb', 'ea', 'fa', 'ha', 'he'];
const ACTIVE: Record<string, string[]> = {
  figure: PARTS.filter((p) => p !== 'ri' && p !== 'li'),
  head: HEAD,
  speak: ['hd', 'hr', 'hrb', 'fc', 'fa', 'ha'],
  gesture: ['ey', 'fc'],
  eye: ['ey'],
  handRight: HAND_RIGHT,
  handRightAndHead: [...HAND_RIGHT, 'ey', 'fc', 'hd'],
  handLeft: HAND_LEFT,
  walk: ['bd', 'bds', 'ss', 'lg', 'lh', 'lhs', 'rh', 'rhs', 'ls', 'lc', 'rs', 'rc', 'sh'],
  sit: ['bd', 'bds', 'ss', 'lg', 'sh', 'cc'],
  itemRight: ['ri'],
};

export function builtinPartSets(): PartSetsXml {
  return {
    parts: PARTS.map((p) => ({
      setType: p,
      ...(MIRROR[p] ? { flippedSetType: MIRROR[p] } : {}),
      ...(p === 'hrb' ? { removeSetType: 'hr' } : {}),
      swim: true,
    })),
    activePartSets: Object.entries(ACTIVE).map(([id, setTypes]) => ({ id, setTypes })),
  };
}
