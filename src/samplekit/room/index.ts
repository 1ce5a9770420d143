// The kit's room visualization, `bundled/generic/room.nitro`, in the shape the Nitro client ships it: a
// `roomVisualization` document (floor, wall and landscape planes → materials → textures → asset names, and
// the plane masks) over one spritesheet. Every texture is drawn here from a few lines of arithmetic (no
// Habbo pixels): floors of 64 × 64 texels (two tiles at the client's 32 texels a tile), walls 32 texels
// wide, a sky-and-hills landscape, and the door mask (a 32 × 88 opening, as the client's door is).
import { type AssetLibrary, writeAssetLibrary } from '../../formats/asset-library.js';
import { type NitroAssetData } from '../../formats/nitro-asset-types.js';
import { createImage, type RgbaImage } from '../../imaging/image.js';
import { type KitFile } from '../kit-file.js';

export const ROOM_LIBRARY_PATH = 'bundled/generic/room.nitro';

type Texel = (u: number, v: number) => number;

function paint(width: number, height: number, at: Texel): RgbaImage {
  const img = createImage(width, height);
  for (let v = 0; v < height; v++)
    for (let u = 0; u < width; u++) {
      const c = at(u, v);
      const i = (v * width + u) * 4;
      img.data[i] = (c >>> 24) & 0xff;
      img.data[i + 1] = (c >>> 16) & 0xff;
      img.data[i + 2] = (c >>> 8) & 0xff;
      img.data[i + 3] = c & 0xff;
    }
  return img;
}

/** Light grey with a darker line along two edges of each 32-texel tile (the tile grid). */
const floorPlain: Texel = (u, v) => (u % 32 === 0 || v % 32 === 0 ? 0xd6d6d6ff : 0xf0f0f0ff);
const floorChecker: Texel = (u, v) => ((Math.floor(u / 32) + Math.floor(v / 32)) % 2 === 0 ? 0xe8e8e8ff : 0xb8b8b8ff);
/** Planks along u, 8 texels wide, each plank's shade from its index. */
const floorWood: Texel = (u, v) => {
  const plank = Math.floor(v / 8);
  if (v % 8 === 0 || (u + plank * 23) % 64 === 0) return 0x8a6440ff;
  return [0xc8965aff, 0xbf8c52ff, 0xd09e62ff][plank % 3]!;
};
const wallPlain: Texel = (_u, v) => (v === 0 ? 0xe4e4e4ff : 0xf8f8f8ff);
const wallStripes: Texel = (u) => (u % 16 < 8 ? 0xf4f4f4ff : 0xdcdcdcff);
/** Bricks of 16 × 8 texels, every other row shifted by half a brick. */
const wallBrick: Texel = (u, v) => {
  const row = Math.floor(v / 8);
  const x = (u + (row % 2) * 8) % 16;
  return v % 8 === 7 || x === 15 ? 0xbdb3a6ff : 0xf2ebe0ff;
};
/** Rolling hills, bottom-aligned: grass below a sine line, transparent sky above (the colour layer shows). */
const hills: Texel = (u, v) => {
  const top = 40 + Math.round(10 * Math.sin((u / 96) * Math.PI * 2));
  return v >= top ? (v - top < 3 ? 0x3e8e41ff : 0x5fae4aff) : 0x00000000;
};
/** The door opening: an arch-topped rectangle, opaque where the wall is cut. */
// landscape 1.2: a sky whose texels name their column (mirroring shows), dunes, a small tree
const sky: Texel = (u, v) => (((0x20 + u * 16) << 24) | ((0x60 + v * 8) << 16) | (0xe0 << 8) | 0xff) >>> 0;
const dunes: Texel = (u, v) => (v >= 48 + Math.round(6 * Math.cos((u / 64) * Math.PI * 2)) ? 0xd8b060ff : 0);
const tree: Texel = (u, v) => (v < 6 ? 0x208030ff : u === 2 ? 0x705020ff : 0);
const door: Texel = (u, v) => {
  const dx = u - 15.5;
  return v >= 16 || dx * dx + (v - 16) * (v - 16) <= 16 * 16 ? 0x000000ff : 0x00000000;
};

const layer = (materialId: string, color = 0xffffff) => ({ materialId, color });
const plane = (id: string, layers: object[]) => ({ id, visualizations: [{ size: 64, allLayers: layers }] });
const material = (id: string, textureId: string, width: number) => ({
  id,
  matrices: [{ columns: [{ width, cells: [{ textureId }] }] }],
});
const texture = (id: string, assetName: string) => ({ id, bitmaps: [{ assetName }] });

/** The library: textures, masks and the room visualization document (deterministic bytes). */
export function roomLibrary(): AssetLibrary {
  const sprites = new Map<string, RgbaImage>([
    ['floor_texture_64_kit_plain', paint(64, 64, floorPlain)],
    ['floor_texture_64_kit_checker', paint(64, 64, floorChecker)],
    ['floor_texture_64_kit_wood', paint(64, 64, floorWood)],
    ['wall_texture_64_kit_plain', paint(32, 8, wallPlain)],
    ['wall_texture_64_kit_stripes', paint(32, 8, wallStripes)],
    ['wall_texture_64_kit_brick', paint(32, 16, wallBrick)],
    ['landscape_64_kit_hills', paint(192, 64, hills)],
    ['landscape_64_kit_sky', paint(8, 8, sky)],
    ['landscape_64_kit_dunes', paint(64, 64, dunes)],
    ['landscape_64_kit_tree', paint(5, 10, tree)],
    ['door_64', paint(32, 88, door)],
  ]);
  const assets: Record<string, { x: number; y: number; source?: string; flipH?: boolean }> = {};
  for (const name of sprites.keys()) assets[name] = { x: 0, y: 0 };
  assets.door_64 = { x: 16, y: 86 };
  assets.door_64_flipH = { source: 'door_64', x: 16, y: 86, flipH: true };
  assets.landscape_64_kit_tree = { x: 2, y: 10 };
  const floors = [
    ['default', 'floor_64_plain', 0xffffff],
    ['101', 'floor_64_plain', 0xf0c890],
    ['102', 'floor_64_checker', 0xffffff],
    ['103', 'floor_64_wood', 0xffffff],
    ['104', 'floor_64_checker', 0x90c0f0],
  ] as const;
  const walls = [
    ['default', 'wall_64_plain', 0xffffff],
    ['201', 'wall_64_plain', 0xa8d0f0],
    ['202', 'wall_64_stripes', 0xffe0a0],
    ['203', 'wall_64_brick', 0xffffff],
  ] as const;
  const data = {
    name: 'room',
    logicType: 'room',
    visualizationType: 'room',
    assets,
    roomVisualization: {
      floorData: {
        planes: floors.map(([id, m, c]) => plane(id, [layer(m, c)])),
        materials: [
          material('floor_64_plain', 'floor_64_plain', 32),
          material('floor_64_checker', 'floor_64_checker', 32),
          material('floor_64_wood', 'floor_64_wood', 32),
        ],
        textures: [
          texture('floor_64_plain', 'floor_texture_64_kit_plain'),
          texture('floor_64_checker', 'floor_texture_64_kit_checker'),
          texture('floor_64_wood', 'floor_texture_64_kit_wood'),
        ],
      },
      wallData: {
        planes: walls.map(([id, m, c]) => plane(id, [layer(m, c)])),
        materials: [
          material('wall_64_plain', 'wall_64_plain', 32),
          material('wall_64_stripes', 'wall_64_stripes', 32),
          material('wall_64_brick', 'wall_64_brick', 32),
        ],
        textures: [
          texture('wall_64_plain', 'wall_texture_64_kit_plain'),
          texture('wall_64_stripes', 'wall_texture_64_kit_stripes'),
          texture('wall_64_brick', 'wall_texture_64_kit_brick'),
        ],
      },
      landscapeData: {
        planes: [
          plane('default', [{ color: 0x84cef0 }, { materialId: 'landscape_64_hills', align: 'bottom' }]),
          plane('1.1', [{ color: 0x203060 }]),
          // random columns of dunes with a tree scattered on them, over a repeated sky (RoomPlane's landscape)
          plane('1.2', [
            { materialId: 'landscape_64_sky', align: 'bottom' },
            { materialId: 'landscape_64_dunes', align: 'bottom' },
          ]),
        ],
        materials: [
          {
            id: 'landscape_64_hills',
            matrices: [{ align: 'bottom', columns: [{ width: 192, cells: [{ textureId: 'landscape_64_hills' }] }] }],
          },
          {
            id: 'landscape_64_sky',
            matrices: [{ columns: [{ width: 8, cells: [{ textureId: 'landscape_64_sky' }] }] }],
          },
          {
            id: 'landscape_64_dunes',
            matrices: [
              {
                repeatMode: 'random',
                align: 'bottom',
                columns: [48, 64].map((width) => ({
                  repeatMode: 'none',
                  width,
                  cells: [
                    {
                      textureId: 'landscape_64_dunes',
                      extraData: {
                        limitMax: 1,
                        extraItemTypes: ['landscape_64_kit_tree'],
                        offsets: [
                          [10, 50],
                          [30, 52],
                        ],
                      },
                    },
                  ],
                })),
              },
            ],
          },
        ],
        textures: [
          texture('landscape_64_hills', 'landscape_64_kit_hills'),
          texture('landscape_64_sky', 'landscape_64_kit_sky'),
          texture('landscape_64_dunes', 'landscape_64_kit_dunes'),
        ],
      },
      maskData: {
        masks: [
          {
            id: 'door',
            visualizations: [
              {
                size: 64,
                bitmaps: [
                  { assetName: 'door_64', normalMinX: 0 },
                  { assetName: 'door_64_flipH', normalMaxX: 0 },
                ],
              },
            ],
          },
        ],
      },
    },
  };
  return { name: 'room', data: data as unknown as NitroAssetData, sprites };
}

export async function roomKitFiles(): Promise<KitFile[]> {
  return [{ path: ROOM_LIBRARY_PATH, data: await writeAssetLibrary(roomLibrary()) }];
}
