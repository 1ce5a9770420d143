// Built-in avatar geometry, used when a hotel ships no HabboAvatarGeometry document (the Nitro layout
// compiles it into the client instead). Our own compact table of the facts in
// docs/avatar-rendering.md: body parts with their place and radius, and the radius of every part
// type inside its body part (a larger radius draws on top within the body part).
import {
  type AvatarGeometryXml,
  type GeometryBodyPartXml,
  type GeometryTypeXml,
} from '../../formats/gamedata/avatar-xml-types.js';

type ItemTable = Record<string, number>; // part type → radius
interface BodyPartRow {
  x: number;
  z: number;
  radius: number;
  items: ItemTable;
}

const HEAD: ItemTable = { hd: 0.01, fc: 0.02, ey: 0.03, hr: 0.04, hrb: 0.05, fa: 0.06, ea: 0.07, ha: 0.08, he: 0.09 };
// `mc` (wrist/misc) has no place in the client geometry, so it is never drawn (contract A2.1's known gap).
const LEFT_ARM: ItemTable = { lh: 0.01, lhs: 0.01, ls: 0.02, lc: 0.025 };
const RIGHT_ARM: ItemTable = { rh: 0.01, rhs: 0.01, rs: 0.02, rc: 0.025 };
const TORSO_STANDING: ItemTable = {
  bd: 0.01,
  bds: 0.01,
  sh: 0.02,
  lg: 0.03,
  ch: 0.04,
  ss: 0.04,
  cp: 0.045,
  wa: 0.05,
  cc: 0.06,
  ca: 0.07,
};
const TORSO_SITTING: ItemTable = {
  bd: 0.01,
  bds: 0.01,
  lg: 0.02,
  ch: 0.03,
  sh: 0.04,
  ss: 0.04,
  cp: 0.045,
  wa: 0.05,
  cc: 0.06,
  ca: 0.07,
};
const TORSO_LYING: ItemTable = {
  bd: 0.01,
  bds: 0.01,
  ch: 0.02,
  cp: 0.025,
  lg: 0.03,
  ss: 0.03,
  sh: 0.04,
  wa: 0.05,
  cc: 0.06,
  ca: 0.07,
};

function upright(torso: ItemTable): Record<string, BodyPartRow> {
  return {
    top: { x: 0, z: 0, radius: 2, items: {} },
    bottom: { x: 0, z: 0, radius: 0.001, items: {} },
    behind: { x: 0, z: 0.2, radius: 0.3, items: {} },
    torso: { x: 0, z: 0, radius: 0.4, items: torso },
    leftitem: { x: 0, z: -0.29, radius: 0.3, items: { li: 0.01 } },
    rightitem: { x: 0, z: -0.29, radius: 0.3, items: { ri: 0.01 } },
    leftarm: { x: -1, z: -0.51, radius: 0.5, items: LEFT_ARM },
    rightarm: { x: 1, z: -0.51, radius: 0.5, items: RIGHT_ARM },
    head: { x: 0, z: 0, radius: 0.5, items: HEAD },
  };
}

const TYPES: Record<string, Record<string, BodyPartRow>> = {
  vertical: upright(TORSO_STANDING),
  sitting: upright(TORSO_SITTING),
  horizontal: {
    torso: { x: 0, z: 0, radius: 0.4, items: TORSO_LYING },
    leftitem: { x: 0, z: -0.29, radius: 0.3, items: { li: 0.01 } },
    rightitem: { x: 0, z: -0.29, radius: 0.3, items: { ri: 0.01 } },
    leftarm: { x: -1, z: 0, radius: 0.6, items: LEFT_ARM },
    rightarm: { x: 1, z: 0, radius: 0.6, items: RIGHT_ARM },
    head: { x: 0, z: 0, radius: 0.5, items: HEAD },
  },
};

function toXml(id: string, rows: Record<string, BodyPartRow>): GeometryTypeXml {
  const bodyParts: GeometryBodyPartXml[] = Object.entries(rows).map(([bp, r]) => ({
    id: bp,
    x: r.x,
    y: 0,
    z: r.z,
    radius: r.radius,
    items: Object.entries(r.items).map(([t, radius]) => ({
      id: t,
      x: 0,
      y: 0,
      z: 0,
      radius,
      nx: 0,
      ny: 0,
      nz: -1,
      double: t === 'bd' || t === 'bds' || t === 'hd' || t === 'hr' || t === 'hrb',
    })),
  }));
  return { id, bodyParts };
}

export function builtinGeometry(): AvatarGeometryXml {
  return {
    direction: 0,
    camera: { x: 0, y: 0, z: 10 },
    canvases: [
      {
        scale: 'h',
        geometries: [
          { id: 'vertical', width: 90, height: 130, dx: 0, dy: 0 },
          { id: 'sitting', width: 90, height: 130, dx: 0, dy: 0 },
          { id: 'horizontal', width: 128, height: 80, dx: 30, dy: 0 },
        ],
      },
      {
        scale: 'sh',
        geometries: [
          { id: 'vertical', width: 45, height: 72, dx: 0, dy: 0 },
          { id: 'sitting', width: 45, height: 72, dx: 0, dy: 0 },
          { id: 'horizontal', width: 64, height: 50, dx: 15, dy: -10 },
        ],
      },
    ],
    avatarSets: [
      {
        id: 'full',
        main: false,
        bodyParts: [],
        avatarSets: [
          {
            id: 'body',
            main: true,
            avatarSets: [],
            bodyParts: ['top', 'bottom', 'behind', 'torso', 'leftitem', 'rightitem', 'leftarm', 'rightarm'],
          },
          { id: 'head', main: false, avatarSets: [], bodyParts: ['head'] },
        ],
      },
    ],
    types: Object.entries(TYPES).map(([id, rows]) => toXml(id, rows)),
  };
}
