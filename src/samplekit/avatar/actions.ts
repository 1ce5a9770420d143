// The kit's HabboAvatarActions.json: the real action ids, state tokens, precedences, geometry types,
// active part sets, prevents and preventHeadTurn flags, in the real Nitro schema. The effect action
// (state `fx`) carries a `types` table like the real one for the kit's effects (effects.ts). The hand-item param tables
// are our own and deliberately not the identity: the
// service spec says `crr=<id>` names the sprite directly, so a renderer that translates through the table
// draws a visibly different item.

interface ActionDef {
  id: string;
  state: string;
  precedence: number;
  main?: boolean;
  isDefault?: boolean;
  animation?: boolean;
  geometryType: string;
  activePartSet: string;
  assetPartDefinition: string;
  startFromFrameZero?: boolean;
  preventHeadTurn?: boolean;
  prevents?: string[];
  lay?: string;
  params?: { id: string; value: string }[];
  types?: { id: string; animated?: boolean; prevents?: string[]; preventHeadTurn?: boolean }[];
}

const ACTIONS: ActionDef[] = [
  {
    id: 'Lay',
    state: 'lay',
    precedence: 100,
    main: true,
    geometryType: 'horizontal',
    activePartSet: 'figure',
    assetPartDefinition: 'lay',
    prevents: ['spk', 'gest', 'sml', 'sad', 'agr', 'srp', 'usei', 'cri', 'blow'],
  },
  {
    id: 'Sit',
    state: 'sit',
    precedence: 103,
    main: true,
    geometryType: 'sitting',
    activePartSet: 'sit',
    assetPartDefinition: 'sit',
    prevents: ['fx.3', 'dance'],
  },
  {
    id: 'UseItem',
    state: 'usei',
    precedence: 200,
    preventHeadTurn: true,
    geometryType: 'vertical',
    activePartSet: 'handRight',
    assetPartDefinition: 'drk',
    params: [],
  },
  {
    id: 'Respect',
    state: 'respect',
    precedence: 204,
    geometryType: 'vertical',
    activePartSet: 'handLeft',
    assetPartDefinition: 'respect',
    startFromFrameZero: true,
    prevents: ['dance'],
  },
  {
    id: 'Wave',
    state: 'wave',
    precedence: 205,
    geometryType: 'vertical',
    activePartSet: 'handLeft',
    assetPartDefinition: 'wave',
    prevents: ['dance'],
  },
  {
    id: 'CarryItem',
    state: 'cri',
    precedence: 205,
    geometryType: 'vertical',
    activePartSet: 'handRight',
    assetPartDefinition: 'crr',
    params: [],
  },
  {
    id: 'Sign',
    state: 'sign',
    precedence: 210,
    geometryType: 'vertical',
    activePartSet: 'handLeft',
    assetPartDefinition: 'sig',
    prevents: ['dance'],
  },
  {
    id: 'Blow',
    state: 'blow',
    precedence: 211,
    geometryType: 'vertical',
    activePartSet: 'handRightAndHead',
    assetPartDefinition: 'blw',
    startFromFrameZero: true,
    preventHeadTurn: true,
    prevents: ['dance'],
  },
  {
    id: 'Laugh',
    state: 'laugh',
    precedence: 211,
    geometryType: 'vertical',
    activePartSet: 'handRightAndHead',
    assetPartDefinition: 'lgh',
    startFromFrameZero: true,
    preventHeadTurn: true,
    prevents: ['dance'],
  },
  {
    id: 'Idle',
    state: 'idle',
    precedence: 211,
    geometryType: 'vertical',
    activePartSet: 'head',
    assetPartDefinition: 'idl',
    preventHeadTurn: true,
    prevents: ['dance'],
  },
  {
    id: 'AvatarEffect',
    state: 'fx',
    precedence: 220,
    geometryType: 'vertical',
    animation: true,
    activePartSet: '',
    assetPartDefinition: 'std',
    prevents: ['dance', 'blow', 'laugh'],
    types: [
      { id: '1', animated: false },
      { id: '4', animated: false, preventHeadTurn: true },
    ],
  },
  {
    id: 'Dance',
    state: 'dance',
    precedence: 230,
    geometryType: 'vertical',
    activePartSet: 'figure',
    animation: true,
    assetPartDefinition: 'std',
    prevents: ['cri', 'usei'],
  },
  {
    id: 'Talk',
    state: 'talk',
    precedence: 500,
    geometryType: 'vertical',
    activePartSet: 'speak',
    assetPartDefinition: 'spk',
    lay: 'lsp',
  },
  {
    id: 'Gesture',
    state: 'gest',
    precedence: 510,
    geometryType: 'vertical',
    activePartSet: 'gesture',
    assetPartDefinition: 'USE_PARAMETER',
  },
  {
    id: 'GestureSmile',
    state: 'sml',
    precedence: 510,
    geometryType: 'vertical',
    activePartSet: 'gesture',
    assetPartDefinition: 'sml',
    lay: 'lsm',
  },
  {
    id: 'GestureSad',
    state: 'sad',
    precedence: 510,
    geometryType: 'vertical',
    activePartSet: 'gesture',
    assetPartDefinition: 'sad',
    lay: 'lsa',
  },
  {
    id: 'GestureAngry',
    state: 'agr',
    precedence: 510,
    geometryType: 'vertical',
    activePartSet: 'gesture',
    assetPartDefinition: 'agr',
    lay: 'lag',
  },
  {
    id: 'GestureSurprised',
    state: 'srp',
    precedence: 510,
    geometryType: 'vertical',
    activePartSet: 'gesture',
    assetPartDefinition: 'srp',
    lay: 'lsr',
  },
  {
    id: 'Sleep',
    state: 'sleep',
    precedence: 520,
    geometryType: 'vertical',
    activePartSet: 'eye',
    preventHeadTurn: true,
    assetPartDefinition: 'eyb',
    lay: 'ley',
  },
  {
    id: 'Move',
    state: 'mv',
    precedence: 600,
    geometryType: 'vertical',
    activePartSet: 'walk',
    assetPartDefinition: 'wlk',
    prevents: ['Sleep'],
  },
  {
    id: 'Default',
    state: 'std',
    precedence: 1000,
    main: true,
    isDefault: true,
    geometryType: 'vertical',
    activePartSet: 'figure',
    assetPartDefinition: 'std',
  },
];

/** Hand-item id → sprite id tables (client semantics). Not the identity on purpose; see the file comment. */
export const USE_ITEM_PARAMS: [string, string][] = [
  ['default', '1'],
  ['1', '6'],
  ['2', '3'],
  ['3', '2'],
  ['6', '1'],
];
export const CARRY_ITEM_PARAMS: [string, string][] = [
  ['default', '1'],
  ['1', '6'],
  ['2', '3'],
  ['3', '2'],
  ['6', '1'],
];

export function avatarActionsJson(): unknown {
  const actions = ACTIONS.map((a) => {
    const out: Record<string, unknown> = { ...a };
    if (a.id === 'UseItem') out.params = USE_ITEM_PARAMS.map(([id, value]) => ({ id, value }));
    if (a.id === 'CarryItem') out.params = CARRY_ITEM_PARAMS.map(([id, value]) => ({ id, value }));
    return out;
  });
  return {
    actions,
    actionOffsets: [
      {
        action: 'lay',
        offsets: [
          { size: 'h', direction: 4, x: -17, y: 17, z: -0.9 },
          { size: 'h', direction: 2, x: 22, y: 17, z: -0.9 },
          { size: 'sh', direction: 4, x: -5, y: 16, z: -0.9 },
          { size: 'sh', direction: 2, x: 9, y: 16, z: -0.9 },
        ],
      },
    ],
  };
}
