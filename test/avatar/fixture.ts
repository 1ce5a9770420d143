// A tiny in-memory hotel drawn from solid rectangles, so each rule of the renderer can be checked
// against exact pixel positions without any real art. (The sample kit tests cover the full pipeline.)
import { type AssetLibrary } from '../../src/formats/asset-library.js';
import { createAvatarHotel, type AvatarHotel } from '../../src/avatar/index.js';
import {
  type FigureDataDoc,
  type FigureMapDoc,
  type AvatarActionsDoc,
} from '../../src/formats/gamedata/figure-types.js';
import { createImage, type RgbaImage } from '../../src/imaging/image.js';

export function rect(w: number, h: number, rgba: [number, number, number, number]): RgbaImage {
  const img = createImage(w, h);
  for (let i = 0; i < w * h; i++) img.data.set(rgba, i * 4);
  return img;
}

type Asset = { x: number; y: number; source?: string; flipH?: boolean };

function lib(name: string, entries: [string, Asset, RgbaImage | null][]): AssetLibrary {
  const assets: Record<string, Asset> = {};
  const sprites = new Map<string, RgbaImage>();
  for (const [n, a, img] of entries) {
    assets[n] = a;
    if (img) sprites.set(n, img);
  }
  return { name, data: { name, assets } as AssetLibrary['data'], sprites };
}

// Colours (all distinct so tests can find each part).
export const C = {
  hd: [250, 250, 250, 255],
  ey: [200, 200, 200, 255],
  fc: [180, 180, 180, 255],
  bd: [240, 240, 240, 255],
  lh: [230, 230, 230, 255],
  rh: [230, 230, 230, 255],
  ch: [255, 255, 255, 255],
  chHalf: [255, 255, 255, 128],
  lg: [160, 160, 160, 255],
  hr: [120, 120, 120, 255],
  ha: [90, 90, 90, 255],
  mc: [70, 70, 70, 255],
  item: [10, 200, 10, 255],
  wav: [255, 0, 255, 255],
} as const satisfies Record<string, [number, number, number, number]>;

const UPRIGHT_DIRS = [0, 1, 2, 3, 7];

/** Symmetric sprites: at every direction the same rectangle centred on x 33.5 of the m canvas; frame n sits 2n px higher. */
function upright(
  action: string,
  type: string,
  id: number,
  w: number,
  h: number,
  top: number,
  colour: readonly number[],
  frames = 1,
  dirs = UPRIGHT_DIRS,
): [string, Asset, RgbaImage][] {
  const out: [string, Asset, RgbaImage][] = [];
  // left = 0 − x; centred on 33.5 → x = −(33.5 − w/2)
  const x = -Math.round(33.5 - w / 2);
  for (const d of dirs)
    for (let f = 0; f < frames; f++)
      out.push([
        `h_${action}_${type}_${id}_${d}_${f}`,
        { x, y: 100 - top - 2 * f },
        rect(w, h, [...colour] as [number, number, number, number]),
      ]);
  return out;
}

export function fixtureLibraries(): AssetLibrary[] {
  const body = lib('fx_body', [
    ...upright('std', 'hd', 1, 20, 20, 30, C.hd),
    ...upright('spk', 'hd', 1, 20, 20, 30, C.hd, 2),
    ...upright('std', 'ey', 1, 8, 2, 38, C.ey),
    ...upright('std', 'fc', 1, 6, 2, 44, C.fc),
    ...upright('spk', 'fc', 1, 6, 3, 44, C.fc, 1),
    ['h_spk_fc_1_2_1', { x: -31, y: 100 - 44 }, rect(6, 4, [180, 180, 180, 255])],
    ['h_spk_fc_1_3_1', { x: -31, y: 100 - 44 }, rect(6, 4, [180, 180, 180, 255])],
    ['h_spk_fc_1_1_1', { x: -31, y: 100 - 44 }, rect(6, 4, [180, 180, 180, 255])],
    ['h_spk_fc_1_0_1', { x: -31, y: 100 - 44 }, rect(6, 4, [180, 180, 180, 255])],
    ...upright('std', 'bd', 1, 16, 50, 50, C.bd),
    ...upright('std', 'lh', 1, 4, 20, 55, C.lh),
    ...upright('std', 'rh', 1, 4, 20, 55, C.rh),
    // Wave: frames 0 and 1 of the left hand, with own sprites at 4-6 (a mirror exception).
    ...upright('wav', 'lh', 1, 30, 12, 30, C.wav, 2, [0, 1, 2, 3, 4, 5, 6, 7]),
    ...upright('sit', 'bd', 1, 16, 40, 60, C.bd),
    ...[0, 1, 2, 3, 7].map((d): [string, Asset, RgbaImage] => [
      `h_crr_rh_1_${d}_0`,
      { x: -12, y: 45 },
      rect(4, 12, [230, 230, 230, 255]),
    ]),
    // Lying: one sprite for direction 2.
    ['h_lay_bd_1_2_0', { x: 30, y: 20 }, rect(50, 16, [240, 240, 240, 255])],
    ['h_lay_hd_1_2_0', { x: 48, y: 24 }, rect(18, 18, [250, 250, 250, 255])],
  ]);
  const clothes = lib('fx_clothes', [
    // ch 10: only std sprites (the fallback chain draws them under every action).
    ...upright('std', 'ch', 10, 18, 20, 52, C.ch),
    // ch 11: half-transparent (tint must keep alpha).
    ...upright('std', 'ch', 11, 18, 20, 52, C.chHalf),
    ...upright('std', 'lg', 20, 16, 20, 75, C.lg),
    ...upright('std', 'hr', 30, 22, 8, 26, C.hr),
    ...upright('std', 'ha', 40, 24, 6, 22, C.ha),
    ...upright('std', 'mc', 50, 6, 6, 70, C.mc),
    // Asymmetric shirt print: `cp` keeps its own sprites at 4-6.
    ['h_std_cp_60_2_0', { x: -20, y: 45 }, rect(3, 3, [1, 2, 3, 255])],
    ['h_std_cp_60_4_0', { x: -40, y: 45 }, rect(3, 3, [1, 2, 3, 255])],
  ]);
  const items = lib('hh_human_item', [
    ...[0, 1, 2, 3, 4, 5, 6, 7].map((d): [string, Asset, RgbaImage] => [
      `h_crr_ri_7_${d}_0`,
      { x: -10, y: 60 },
      rect(5, 5, [10, 200, 10, 255]),
    ]),
  ]);
  return [body, clothes, items];
}

export function fixtureGamedata(): { figureData: FigureDataDoc; figureMap: FigureMapDoc; actions: AvatarActionsDoc } {
  const figureData: FigureDataDoc = {
    palettes: [
      {
        id: 1,
        colors: [
          { id: 1, index: 0, club: 0, selectable: true, hexCode: 'FFCC99' },
          { id: 2, index: 1, club: 0, selectable: true, hexCode: '996633' },
        ],
      },
      {
        id: 3,
        colors: [
          { id: 61, index: 0, club: 0, selectable: true, hexCode: 'FF0000' },
          { id: 62, index: 1, club: 0, selectable: true, hexCode: '0080FF' },
        ],
      },
    ],
    setTypes: [
      {
        type: 'hd',
        paletteId: 1,
        mandatory_m_0: true,
        mandatory_f_0: true,
        mandatory_m_1: true,
        mandatory_f_1: true,
        sets: [
          {
            id: 1,
            gender: 'U',
            selectable: true,
            parts: [
              { id: 1, type: 'hd', colorindex: 1 },
              { id: 1, type: 'ey', colorindex: 1 },
              { id: 1, type: 'fc', colorindex: 1 },
              { id: 1, type: 'bd', colorindex: 1 },
              { id: 1, type: 'lh', colorindex: 1 },
              { id: 1, type: 'rh', colorindex: 1 },
            ],
          },
        ],
      },
      {
        type: 'ch',
        paletteId: 3,
        sets: [
          { id: 10, gender: 'M', parts: [{ id: 10, type: 'ch', colorindex: 1 }] },
          { id: 11, gender: 'U', parts: [{ id: 11, type: 'ch', colorindex: 1 }] },
          { id: 60, gender: 'U', parts: [{ id: 60, type: 'cp', colorindex: 0 }] },
        ],
      },
      {
        type: 'lg',
        paletteId: 3,
        mandatory_m_0: true,
        mandatory_f_0: true,
        mandatory_m_1: true,
        mandatory_f_1: true,
        sets: [{ id: 20, gender: 'U', selectable: true, parts: [{ id: 20, type: 'lg', colorindex: 1 }] }],
      },
      { type: 'hr', paletteId: 3, sets: [{ id: 30, gender: 'U', parts: [{ id: 30, type: 'hr', colorindex: 1 }] }] },
      {
        type: 'ha',
        paletteId: 3,
        sets: [
          { id: 40, gender: 'U', parts: [{ id: 40, type: 'ha', colorindex: 0 }], hiddenLayers: [{ partType: 'hr' }] },
        ],
      },
      { type: 'mc', paletteId: 3, sets: [{ id: 50, gender: 'U', parts: [{ id: 50, type: 'mc', colorindex: 0 }] }] },
      { type: 'xx', paletteId: 3, sets: [{ id: 70, gender: 'U', parts: [{ id: 70, type: 'xx', colorindex: 0 }] }] },
    ],
  };
  const figureMap: FigureMapDoc = {
    libraries: [
      {
        id: 'fx_body',
        parts: [
          { id: 1, type: 'hd' },
          { id: 1, type: 'ey' },
          { id: 1, type: 'fc' },
          { id: 1, type: 'bd' },
          { id: 1, type: 'lh' },
          { id: 1, type: 'rh' },
        ],
      },
      {
        id: 'fx_clothes',
        parts: [
          { id: 10, type: 'ch' },
          { id: 11, type: 'ch' },
          { id: 20, type: 'lg' },
          { id: 30, type: 'hr' },
          { id: 40, type: 'ha' },
          { id: 50, type: 'mc' },
          { id: 60, type: 'cp' },
        ],
      },
      { id: 'fx_missing', parts: [{ id: 70, type: 'xx' }] },
    ],
  };
  const actions: AvatarActionsDoc = {
    actions: [
      {
        id: 'Lay',
        state: 'lay',
        precedence: 100,
        main: true,
        geometryType: 'horizontal',
        activePartSet: 'figure',
        assetPartDefinition: 'lay',
        prevents: [],
      },
      {
        id: 'Sit',
        state: 'sit',
        precedence: 103,
        main: true,
        geometryType: 'sitting',
        activePartSet: 'sit',
        assetPartDefinition: 'sit',
      },
      {
        id: 'Wave',
        state: 'wave',
        precedence: 205,
        geometryType: 'vertical',
        activePartSet: 'handLeft',
        assetPartDefinition: 'wav',
        prevents: ['dance'],
      },
      {
        id: 'CarryItem',
        state: 'cri',
        precedence: 205,
        geometryType: 'vertical',
        activePartSet: 'handRight',
        assetPartDefinition: 'crr',
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
        id: 'Default',
        state: 'std',
        precedence: 1000,
        main: true,
        isDefault: true,
        geometryType: 'vertical',
        activePartSet: 'figure',
        assetPartDefinition: 'std',
      },
    ],
  };
  return { figureData, figureMap, actions };
}

export function fixtureHotel(): AvatarHotel {
  const libs = new Map(fixtureLibraries().map((l) => [l.name, l]));
  const g = fixtureGamedata();
  return createAvatarHotel({
    layout: 'memory',
    ...g,
    libraryNames: libs.keys(),
    loadLibrary: async (n) => {
      const l = libs.get(n);
      if (!l) throw new Error(`no library ${n}`);
      return l;
    },
  });
}
