// The kit's wardrobe: palettes, set types, sets and which library holds which part. Our own content,
// laid out in the schema of the real Nitro FigureData.json / FigureMap.json. Set ids and part ids are
// deliberately different numbers (a renderer that looks sprites up by set id draws nothing), colour ids
// are sparse and not in index order (a renderer that uses the index instead of the id picks wrong colours).

export interface KitColor {
  id: number;
  club: number;
  selectable: boolean;
  hex: string;
}

export interface KitPart {
  type: string;
  id: number;
  /** 0 = not tinted, 1 = first colour of the figure triple, 2 = second. */
  colorindex: 0 | 1 | 2;
  /** FigureData `index` when it is not the colour-group count (see `indexOf`). */
  index?: number;
}

export interface KitSet {
  id: number;
  gender: 'M' | 'F' | 'U';
  club: number;
  selectable: boolean;
  parts: KitPart[];
  hidden?: string[];
  /** One-line purpose, copied into the docs table. */
  note: string;
}

export interface KitSetType {
  type: string;
  paletteId: number;
  mandatory: { f0: boolean; f1: boolean; m0: boolean; m1: boolean };
  sets: KitSet[];
}

export const PALETTES: { id: number; colors: KitColor[] }[] = [
  {
    id: 1, // skin
    colors: [
      { id: 1, club: 0, selectable: true, hex: 'EEC39A' },
      { id: 14, club: 0, selectable: true, hex: 'F3D9A4' },
      { id: 8, club: 0, selectable: true, hex: 'E0A46A' },
      { id: 19, club: 0, selectable: true, hex: 'A8715A' },
      { id: 1370, club: 2, selectable: true, hex: 'C98B5E' },
      { id: 3, club: 0, selectable: false, hex: '7A4A36' },
    ],
  },
  {
    id: 2, // hair
    colors: [
      { id: 61, club: 0, selectable: true, hex: '2E2A26' },
      { id: 45, club: 0, selectable: true, hex: 'B0603A' },
      { id: 31, club: 0, selectable: true, hex: 'D8B040' },
      { id: 40, club: 0, selectable: true, hex: 'E8E0C8' },
      { id: 1394, club: 2, selectable: true, hex: '8040C0' },
      { id: 42, club: 0, selectable: false, hex: '307850' },
    ],
  },
  {
    id: 3, // clothes
    colors: [
      { id: 1408, club: 0, selectable: true, hex: 'DDDDDD' },
      { id: 66, club: 0, selectable: true, hex: 'C83C3C' },
      { id: 82, club: 0, selectable: true, hex: '3C5AB4' },
      { id: 80, club: 0, selectable: true, hex: '2A2A2A' },
      { id: 92, club: 0, selectable: true, hex: 'F0F0F0' },
      { id: 110, club: 0, selectable: true, hex: '3CA050' },
      { id: 62, club: 0, selectable: true, hex: 'E0A020' },
      { id: 73, club: 2, selectable: true, hex: '8A4FBF' },
      { id: 85, club: 2, selectable: true, hex: 'FF8AB8' },
      { id: 100, club: 0, selectable: false, hex: '20B0B0' },
    ],
  },
];

const M = (f0: boolean, f1: boolean, m0: boolean, m1: boolean) => ({ f0, f1, m0, m1 });
const NONE = M(false, false, false, false);
const p = (type: string, id: number, colorindex: 0 | 1 | 2, index?: number): KitPart => ({
  type,
  id,
  colorindex,
  ...(index === undefined ? {} : { index }),
});
const skin = (hd: number, ey: number): KitPart[] => [
  p('bd', 1, 1),
  p('hd', hd, 1),
  p('lh', 1, 1),
  p('rh', 1, 1),
  p('fc', 1, 1),
  p('ey', ey, 1),
];

export const SET_TYPES: KitSetType[] = [
  {
    type: 'hd',
    paletteId: 1,
    mandatory: M(true, true, true, true),
    sets: [
      // ey carries colorindex 1 like the real data does; eyes must never be tinted anyway.
      {
        id: 180,
        gender: 'U',
        club: 0,
        selectable: true,
        parts: skin(1, 1),
        note: 'default head (round), blue eyes; ey marked colorable like real data but must stay untinted',
      },
      { id: 185, gender: 'M', club: 0, selectable: true, parts: skin(2, 2), note: 'square head, green eyes' },
      { id: 600, gender: 'F', club: 0, selectable: true, parts: skin(3, 3), note: 'narrow head, brown eyes' },
      { id: 190, gender: 'U', club: 2, selectable: true, parts: skin(1, 4), note: 'club head, violet eyes' },
    ],
  },
  {
    type: 'hr',
    paletteId: 2,
    mandatory: NONE,
    sets: [
      { id: 100, gender: 'M', club: 0, selectable: true, parts: [p('hr', 1100, 1)], note: 'short crop: hr only' },
      {
        id: 115,
        gender: 'U',
        club: 0,
        selectable: true,
        parts: [p('hr', 1115, 1), p('hrb', 1115, 1)],
        note: 'bob: hr + hrb, one colour',
      },
      {
        id: 515,
        gender: 'F',
        club: 0,
        selectable: true,
        parts: [p('hr', 1515, 1), p('hrb', 1515, 2)],
        note: 'long two-tone: hr colour 1, hrb colour 2',
      },
      {
        id: 802,
        gender: 'U',
        club: 2,
        selectable: true,
        parts: [p('hr', 1802, 0)],
        note: 'green mohawk, not colorable',
      },
    ],
  },
  {
    type: 'ch',
    paletteId: 3,
    mandatory: M(true, true, true, false),
    sets: [
      {
        id: 210,
        gender: 'U',
        club: 0,
        selectable: true,
        parts: [p('ch', 2210, 1), p('ls', 2210, 1), p('rs', 2210, 1)],
        note: 'tee with sleeves (ch, ls, rs), one colour',
      },
      {
        id: 215,
        gender: 'M',
        club: 0,
        selectable: true,
        parts: [
          p('ch', 2215, 1),
          p('ls', 2215, 1),
          p('rs', 2215, 1),
          p('ch', 2216, 2),
          p('ls', 2216, 2),
          p('rs', 2216, 2),
        ],
        note: 'two colours: body+sleeves colour 1, chest band + cuffs colour 2',
      },
      {
        id: 255,
        gender: 'F',
        club: 0,
        selectable: true,
        parts: [p('ch', 2255, 0)],
        note: 'orange sleeveless top, not colorable',
      },
      {
        id: 260,
        gender: 'F',
        club: 0,
        selectable: true,
        parts: [p('ch', 2260, 1)],
        note: 'dress with its own sit sprites (Sit governs the torso: every torso part draws sit)',
      },
    ],
  },
  {
    type: 'lg',
    paletteId: 3,
    mandatory: M(true, true, true, true),
    sets: [
      // Listed first: the default legs of a man (the first club-0 set of his gender or U); a woman's is 270.
      {
        id: 275,
        gender: 'M',
        club: 0,
        selectable: true,
        parts: [p('lg', 3275, 1), p('lg', 3276, 2)],
        note: 'trousers colour 1 + side stripes colour 2; default legs of a man',
      },
      {
        id: 270,
        gender: 'U',
        club: 0,
        selectable: true,
        parts: [p('lg', 3270, 1)],
        note: 'trousers, one colour; default legs of a woman',
      },
      {
        id: 280,
        gender: 'F',
        club: 0,
        selectable: true,
        parts: [p('lg', 3280, 0)],
        note: 'magenta skirt, not colorable',
      },
      {
        id: 285,
        gender: 'U',
        club: 2,
        selectable: true,
        parts: [p('lg', 3285, 1)],
        hidden: ['sh'],
        note: 'long robe, hides sh',
      },
    ],
  },
  {
    type: 'sh',
    paletteId: 3,
    mandatory: NONE,
    sets: [
      { id: 290, gender: 'U', club: 0, selectable: true, parts: [p('sh', 4290, 1)], note: 'sneakers, one colour' },
      {
        id: 295,
        gender: 'U',
        club: 0,
        selectable: true,
        parts: [p('sh', 4295, 1), p('sh', 4296, 2)],
        note: 'shoes colour 1 + soles colour 2',
      },
      {
        id: 300,
        gender: 'U',
        club: 0,
        selectable: false,
        parts: [p('sh', 4300, 0)],
        note: 'brown boots, not colorable, not selectable',
      },
    ],
  },
  {
    type: 'ha',
    paletteId: 3,
    mandatory: NONE,
    sets: [
      {
        id: 1001,
        gender: 'U',
        club: 0,
        selectable: true,
        parts: [p('ha', 5001, 1), p('ha', 5002, 2)],
        hidden: ['hr'],
        note: 'cap: crown colour 1, brim colour 2; hides hr (hrb stays)',
      },
      {
        id: 1002,
        gender: 'U',
        club: 0,
        selectable: true,
        parts: [p('ha', 5010, 0)],
        note: 'gold crown, not colorable, hides nothing',
      },
      {
        id: 1003,
        gender: 'U',
        club: 2,
        selectable: true,
        parts: [p('ha', 5020, 1)],
        hidden: ['hr', 'hrb'],
        note: 'beanie, hides hr and hrb',
      },
      {
        id: 1004,
        gender: 'U',
        club: 0,
        selectable: true,
        parts: [p('ha', 5030, 1), p('ha', 5031, 0)],
        note: 'propeller cap: tinted dome + untinted red/yellow propeller in one set',
      },
      {
        id: 1005,
        gender: 'U',
        club: 0,
        selectable: true,
        parts: [p('ha', 5040, 2, 1), p('ha', 5041, 1, 0)],
        note: 'bow hat: the bow (colour 2) is listed first with the higher index, so it is drawn over the crown',
      },
    ],
  },
  {
    type: 'he',
    paletteId: 3,
    mandatory: NONE,
    sets: [
      { id: 1601, gender: 'U', club: 0, selectable: true, parts: [p('he', 6001, 1)], note: 'headband' },
      {
        id: 1602,
        gender: 'U',
        club: 0,
        selectable: true,
        parts: [p('he', 6010, 0)],
        note: 'pink flower, not colorable',
      },
    ],
  },
  {
    type: 'ea',
    paletteId: 3,
    mandatory: NONE,
    sets: [
      {
        id: 1401,
        gender: 'U',
        club: 0,
        selectable: true,
        parts: [p('ea', 7001, 1)],
        note: 'glasses frame (eyes visible through it)',
      },
      {
        id: 1402,
        gender: 'U',
        club: 0,
        selectable: true,
        parts: [p('ea', 7010, 0)],
        hidden: ['ey'],
        note: 'sunglasses, not colorable, hide ey',
      },
    ],
  },
  {
    type: 'fa',
    paletteId: 3,
    mandatory: NONE,
    sets: [
      { id: 1201, gender: 'U', club: 0, selectable: true, parts: [p('fa', 8001, 1)], note: 'beard, has spk frames' },
      { id: 1202, gender: 'U', club: 0, selectable: true, parts: [p('fa', 8010, 0)], note: 'moustache, not colorable' },
    ],
  },
  {
    type: 'ca',
    paletteId: 3,
    mandatory: NONE,
    sets: [
      { id: 1801, gender: 'U', club: 0, selectable: true, parts: [p('ca', 9001, 1)], note: 'medal on a ribbon' },
      {
        id: 1802,
        gender: 'U',
        club: 0,
        selectable: true,
        parts: [p('ca', 9010, 0)],
        note: 'teal scarf, not colorable',
      },
    ],
  },
  {
    type: 'wa',
    paletteId: 3,
    mandatory: NONE,
    sets: [
      { id: 2001, gender: 'U', club: 0, selectable: true, parts: [p('wa', 9501, 1)], note: 'belt' },
      {
        id: 2002,
        gender: 'U',
        club: 0,
        selectable: true,
        parts: [p('wa', 9501, 1), p('wa', 9502, 2)],
        note: 'belt colour 1 + buckle colour 2 (part 9501 shared with set 2001)',
      },
    ],
  },
  {
    type: 'cc',
    paletteId: 3,
    mandatory: NONE,
    sets: [
      {
        id: 3001,
        gender: 'U',
        club: 0,
        selectable: true,
        parts: [p('cc', 9601, 1), p('lc', 9601, 1), p('rc', 9601, 1)],
        hidden: ['ls', 'rs'],
        note: 'open jacket with coat sleeves, hides ls/rs',
      },
      {
        id: 3002,
        gender: 'U',
        club: 2,
        selectable: true,
        parts: [p('cc', 9601, 1), p('lc', 9601, 1), p('rc', 9601, 1), p('cc', 9602, 2)],
        hidden: ['ls', 'rs'],
        note: 'same jacket + collar colour 2',
      },
    ],
  },
  {
    type: 'cp',
    paletteId: 3,
    mandatory: NONE,
    sets: [
      {
        id: 3101,
        gender: 'U',
        club: 0,
        selectable: true,
        parts: [p('cp', 9701, 1)],
        note: 'chest print "F" glyph: own sprites for dirs 4-6, never mirrored',
      },
      {
        id: 3102,
        gender: 'U',
        club: 0,
        selectable: true,
        parts: [p('cp', 9710, 0)],
        note: 'red/yellow flag print, not colorable',
      },
    ],
  },
  {
    type: 'mc',
    paletteId: 3,
    mandatory: NONE,
    sets: [
      {
        id: 3201,
        gender: 'U',
        club: 0,
        selectable: true,
        parts: [p('mc', 9801, 1)],
        note: 'wristband on the left wrist (std pose only)',
      },
      {
        id: 3202,
        gender: 'U',
        club: 0,
        selectable: true,
        parts: [p('mc', 9810, 0)],
        note: 'gold bracelet on the right wrist, not colorable (std pose only)',
      },
    ],
  },
];

export interface KitLibrary {
  name: string;
  revision: number;
  /** Parts FigureMap lists for the library. */
  parts: { type: string; id: number }[];
  /**
   * Parts whose sprites are in the library though FigureMap does not list them, as real FigureMaps omit
   * the sleeves of basic shirts and `hrb`: the client finds them because it loads the set's library.
   */
  unmapped: { type: string; id: number }[];
}

const lib = (
  name: string,
  revision: number,
  parts: [string, number][],
  unmapped: [string, number][] = [],
): KitLibrary => ({
  name,
  revision,
  parts: parts.map(([type, id]) => ({ type, id })),
  unmapped: unmapped.map(([type, id]) => ({ type, id })),
});

export const CRR_ITEMS = [1, 2, 3, 6];
export const DRK_ITEMS = [1, 2, 3, 6];
export const SIG_ITEMS = Array.from({ length: 18 }, (_, i) => i);

/** Figure libraries in FigureMap order. hh_human_50_* come first on purpose, as in the real FigureMap. */
export const LIBRARIES: KitLibrary[] = [
  lib('hh_human_50_body', 1001, [
    ['bd', 1],
    ['hd', 1],
    ['hd', 2],
    ['hd', 3],
    ['lh', 1],
    ['rh', 1],
  ]),
  lib('hh_human_50_face', 1001, [
    ['fc', 1],
    ['ey', 1],
    ['ey', 2],
    ['ey', 3],
    ['ey', 4],
  ]),
  lib('hair_M_kitcrop', 1002, [['hr', 1100]]),
  lib('hair_U_kitbob', 1003, [['hr', 1115]], [['hrb', 1115]]),
  lib('hair_F_kittwotone', 1004, [
    ['hr', 1515],
    ['hrb', 1515],
  ]),
  lib('hair_U_kitmohawk', 1005, [['hr', 1802]]),
  lib(
    'shirt_U_kittee',
    1006,
    [['ch', 2210]],
    [
      ['ls', 2210],
      ['rs', 2210],
    ],
  ),
  lib('shirt_M_kitraglan', 1007, [
    ['ch', 2215],
    ['ls', 2215],
    ['rs', 2215],
    ['ch', 2216],
    ['ls', 2216],
    ['rs', 2216],
  ]),
  lib('shirt_F_kittop', 1008, [['ch', 2255]]),
  lib('trousers_U_kitjeans', 1009, [['lg', 3270]]),
  lib('trousers_M_kitstripe', 1010, [
    ['lg', 3275],
    ['lg', 3276],
  ]),
  lib('skirt_F_kitskirt', 1011, [['lg', 3280]]),
  lib('trousers_U_kitrobe', 1012, [['lg', 3285]]),
  lib('shoes_U_kitsneaker', 1013, [['sh', 4290]]),
  lib('shoes_U_kittwotone', 1014, [
    ['sh', 4295],
    ['sh', 4296],
  ]),
  lib('shoes_U_kitboot', 1015, [['sh', 4300]]),
  lib('hat_U_kitcap', 1016, [
    ['ha', 5001],
    ['ha', 5002],
  ]),
  lib('hat_U_kitcrown', 1017, [['ha', 5010]]),
  lib('hat_U_kitbeanie', 1018, [['ha', 5020]]),
  lib('acc_head_U_kitband', 1019, [['he', 6001]]),
  lib('acc_head_U_kitflower', 1020, [['he', 6010]]),
  lib('acc_eye_U_kitglasses', 1021, [['ea', 7001]]),
  lib('acc_eye_U_kitshades', 1022, [['ea', 7010]]),
  lib('acc_face_U_kitbeard', 1023, [['fa', 8001]]),
  lib('acc_face_U_kitmoustache', 1024, [['fa', 8010]]),
  lib('acc_chest_U_kitmedal', 1025, [['ca', 9001]]),
  lib('acc_chest_U_kitscarf', 1026, [['ca', 9010]]),
  lib('acc_waist_U_kitbelt', 1027, [
    ['wa', 9501],
    ['wa', 9502],
  ]),
  lib('jacket_U_kitjacket', 1028, [
    ['cc', 9601],
    ['lc', 9601],
    ['rc', 9601],
    ['cc', 9602],
  ]),
  lib('acc_print_U_kitlogo', 1029, [
    ['cp', 9701],
    ['cp', 9710],
  ]),
  lib('acc_misc_U_kitwristband', 1030, [['mc', 9801]]),
  lib('hat_U_kitpropeller', 1034, [
    ['ha', 5030],
    ['ha', 5031],
  ]),
  lib('acc_misc_U_kitbracelet', 1035, [['mc', 9810]]),
  lib('dress_F_kitdress', 1036, [['ch', 2260]]),
  lib('hat_U_kitbow', 1037, [
    ['ha', 5040],
    ['ha', 5041],
  ]),
  lib('hh_human_face', 1031, [
    ['fc', 1],
    ['ey', 1],
    ['ey', 2],
    ['ey', 3],
    ['ey', 4],
  ]),
  lib('hh_human_item', 1032, [
    ...SIG_ITEMS.map((i) => ['li', i] as [string, number]),
    ...CRR_ITEMS.map((i) => ['ri', i] as [string, number]),
  ]),
  lib('hh_human_body', 1033, [
    ['bd', 1],
    ['hd', 1],
    ['hd', 2],
    ['hd', 3],
    ['lh', 1],
    ['rh', 1],
  ]),
];

/** Whether sprites of this part id are drawn in greyscale for tinting (decided by the sets using it). */
export function isColorablePart(type: string, id: number): boolean {
  if (type === 'ey') return false;
  for (const st of SET_TYPES)
    for (const s of st.sets)
      for (const part of s.parts) if (part.type === type && part.id === id) return part.colorindex > 0;
  return type !== 'ri' && type !== 'li';
}

export function figureDataJson(): unknown {
  return {
    palettes: PALETTES.map((pal) => ({
      id: pal.id,
      colors: pal.colors.map((c, index) => ({
        id: c.id,
        index,
        club: c.club,
        selectable: c.selectable,
        hexCode: c.hex,
      })),
    })),
    setTypes: SET_TYPES.map((st) => ({
      type: st.type,
      paletteId: st.paletteId,
      mandatory_f_0: st.mandatory.f0,
      mandatory_f_1: st.mandatory.f1,
      mandatory_m_0: st.mandatory.m0,
      mandatory_m_1: st.mandatory.m1,
      sets: st.sets.map((s) => {
        const colorable = s.parts.some((x) => x.colorindex > 0);
        const out: Record<string, unknown> = {
          id: s.id,
          gender: s.gender,
          club: s.club,
          colorable,
          selectable: s.selectable,
          preselectable: false,
          sellable: false,
          parts: s.parts.map((x, i) => ({
            id: x.id,
            type: x.type,
            colorable: x.colorindex > 0,
            index: x.index ?? indexOf(s.parts, i),
            colorindex: x.colorindex,
          })),
        };
        if (s.hidden?.length) out.hiddenLayers = s.hidden.map((partType) => ({ partType }));
        return out;
      }),
    })),
  };
}

// `index` counts layers of one set as the real data does: parts sharing a colorindex form one layer group.
function indexOf(parts: KitPart[], i: number): number {
  const groups: number[] = [];
  for (const x of parts) if (!groups.includes(x.colorindex)) groups.push(x.colorindex);
  return Math.max(0, groups.indexOf(parts[i]!.colorindex));
}

export function figureMapJson(): unknown {
  return {
    libraries: LIBRARIES.map((l) => ({
      id: l.name,
      revision: l.revision,
      parts: l.parts.map((x) => ({ id: x.id, type: x.type })),
    })),
  };
}
