// Built-in part animations of the actions the service draws, used when a hotel ships no
// HabboAvatarAnimation document. Our own compact notation of the facts in docs/avatar-rendering.md:
// "<asset action>:<frame>[x<repeats>]" steps per part type.
import { type AnimationActionXml, type AnimationSetXml } from '../../formats/gamedata/avatar-xml-types.js';

type Table = Record<string, string[]>;
const seq = (action: string, ...frames: number[]) => frames.map((f) => `${action}:${f}`);

const WALK_PARTS = ['bd', 'bds', 'ss', 'lg', 'sh', 'lh', 'lhs', 'ls', 'lc', 'rh', 'rhs', 'rs', 'rc', 'ch'];
const EIGHT = [0, 1, 2, 3, 4, 5, 6, 7];
const every = (action: string, types: string[]): Table =>
  Object.fromEntries(types.map((t) => [t, seq(action, ...EIGHT)]));

// Default, Sit and Lay give their parts frames 0-7 of their own action; Sit's `wa` draws `std` (and, as
// the client keeps the last named action for the parts of a body part that name none, so may a part
// drawn after it).
const ACTIONS: Record<string, { parts: Table; headDy?: number[] }> = {
  Default: {
    parts: every('std', [
      'bd',
      'bds',
      'lg',
      'sh',
      'ch',
      'cc',
      'lc',
      'rc',
      'lh',
      'lhs',
      'rh',
      'rhs',
      'ls',
      'rs',
      'he',
      'wa',
    ]),
  },
  Sit: { parts: { ...every('sit', ['bd', 'bds', 'lg', 'sh', 'ch', 'cc', 'lc', 'rc']), ...every('std', ['wa']) } },
  Lay: { parts: every('lay', ['bd', 'bds', 'lg', 'sh', 'ch', 'cc', 'lc', 'rc', 'wa', 'he']) },
  Move: { parts: Object.fromEntries(WALK_PARTS.map((p) => [p, seq('wlk', 0, 1, 2, 3)])) },
  Wave: {
    parts: {
      lh: seq('wav', 0, 1),
      lhs: seq('wav', 0, 1),
      ls: seq('wav', 0, 1),
      lc: seq('wav', 0, 1),
      ch: seq('wav', 0, 1, 2, 3),
    },
  },
  Talk: { parts: { hd: seq('spk', 0, 1), fc: seq('spk', 0, 1), fa: seq('spk', 0, 1) } },
  Sign: { parts: { lh: seq('sig', 0), li: seq('sig', 0), ls: seq('wav', 0), lc: seq('wav', 0) } },
  Respect: {
    parts: { lh: ['respect:0x15', 'respect:1x15'], ls: ['wav:0x15', 'wav:1x15'], lc: ['wav:0x15', 'wav:1x15'] },
  },
  Blow: {
    parts: {
      rh: ['blw:0x10', 'blw:1x10'],
      rs: seq('drk', 0),
      rc: seq('drk', 0),
      ri: [':0'],
      ey: ['std:0x10', 'eyb:0x10'],
      fc: ['std:0x10', 'blw:0x10'],
    },
  },
  Laugh: {
    parts: { rh: seq('blw', 0), rs: seq('drk', 0), rc: seq('drk', 0), ri: [':0'], ey: ['std:0x2'], fc: seq('sml', 0) },
    headDy: [1, 0],
  },
};

function parseStep(s: string): { number: number; assetPartDefinition: string; repeats?: number } {
  const m = /^([a-z]*):(\d+)(?:x(\d+))?$/.exec(s);
  if (!m) throw new Error(`bad built-in animation step ${s}`);
  return { assetPartDefinition: m[1]!, number: Number(m[2]), ...(m[3] ? { repeats: Number(m[3]) } : {}) };
}

export function builtinAnimations(): AnimationSetXml {
  const actions: AnimationActionXml[] = Object.entries(ACTIONS).map(([id, a]) => ({
    id,
    parts: Object.entries(a.parts).map(([setType, steps]) => ({ setType, frames: steps.map(parseStep) })),
    offsets: (a.headDy ?? []).map((dy, i) => ({
      id: i,
      directions: [0, 1, 2, 3, 4, 5, 6, 7].map((d) => ({ id: d, bodyParts: [{ id: 'head', dx: 0, dy }] })),
    })),
  }));
  return { actions };
}
