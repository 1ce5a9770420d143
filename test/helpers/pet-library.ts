// A tiny procedural pet library for tests (no Habbo art): `bundled/pet/dog.nitro` in the Nitro pet format the
// client's pet visualization reads (assets `<name>_64_<letter>_<dir>_<frame>`, greyscale `usesPalette` sprites
// recoloured through `palettes`, a size-64 visualization with `postures` and `gestures` naming animations, layer
// tags). Two layers (0 body, 1 head), directions 2 and 4, a shadow; postures std, sit and lay (std the default);
// one gesture, sml, that blinks the head between two frames every 6 updates, looping.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeAssetLibrary } from '../../src/formats/asset-library.js';
import { createImage, type RgbaImage } from '../../src/imaging/image.js';

export const TEST_PET = 'dog';

/** A w × h block of grey `g` (alpha 255) with a 1-pixel border of grey `edge`. */
function block(w: number, h: number, g: number, edge: number): RgbaImage {
  const img = createImage(w, h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const v = x === 0 || y === 0 || x === w - 1 || y === h - 1 ? edge : g;
      img.data.set([v, v, v, 255], (y * w + x) * 4);
    }
  return img;
}

/** 256 RGB triples: grey level i → the colour `f(i)`. */
const palette = (f: (i: number) => [number, number, number]) => Array.from({ length: 256 }, (_, i) => f(i));

const frames = (...ids: number[]) => ({
  frameSequences: { '0': { frames: Object.fromEntries(ids.map((id, i) => [String(i), { id }])) } },
});

/** The library's bytes (a `.nitro` bundle). */
export async function testPetLibrary(name = TEST_PET): Promise<Buffer> {
  const sprites = new Map<string, RgbaImage>();
  const assets: Record<string, { x: number; y: number; usesPalette?: boolean }> = {};
  const add = (asset: string, img: RgbaImage, x: number, y: number, usesPalette = true) => {
    sprites.set(`${name}_64_${asset}`, img);
    assets[`${name}_64_${asset}`] = { x, y, ...(usesPalette ? { usesPalette: true } : {}) };
  };
  for (const d of [2, 4]) {
    // Body: standing (frame 0), sitting (1), lying (2); registration points put each over the tile point.
    // A lighter outline facing 4, so each direction's body is its own.
    const edge = d === 2 ? 60 : 110;
    add(`a_${d}_0`, block(24, 16, 200, edge), 12, 20);
    add(`a_${d}_1`, block(18, 20, 200, edge), 9, 22);
    add(`a_${d}_2`, block(30, 10, 200, edge), 15, 12);
    // Head: eyes open (0), smiling (1, a lighter face).
    add(`b_${d}_0`, block(14, 12, 160, 40), d === 2 ? -2 : 16, 30);
    add(`b_${d}_1`, block(14, 12, 240, 40), d === 2 ? -2 : 16, 30);
    add(`sd_${d}_0`, block(26, 6, 0, 0), 13, 2, false);
  }
  const doc = {
    name,
    logicType: 'pet',
    visualizationType: 'pet_animated',
    assets,
    palettes: {
      '0': { id: 0, source: 'palette_0', color1: 'ffffff', rgb: palette((i) => [i, Math.round(i * 0.6), 0]) },
      '1': { id: 1, source: 'palette_1', color1: 'ffffff', rgb: palette((i) => [0, Math.round(i * 0.5), i]) },
    },
    logic: { model: { dimensions: { x: 1, y: 1, z: 1 }, directions: [0, 45, 90, 135, 180, 225, 270, 315] } },
    visualizations: [
      {
        size: 64,
        angle: 45,
        layerCount: 2,
        layers: { '0': { tag: 'body' }, '1': { tag: 'head' } },
        directions: { '2': { layers: { '1': { z: 10 } } }, '4': { layers: { '1': { z: 10 } } } },
        animations: {
          '0': { layers: { '0': frames(0), '1': frames(0) } },
          '1': { layers: { '0': frames(1), '1': { frameSequences: { '0': { frames: { '0': { id: 0, y: 6 } } } } } } },
          '2': { layers: { '0': frames(2), '1': { frameSequences: { '0': { frames: { '0': { id: 0, y: 14 } } } } } } },
          '10': { layers: { '1': { loopCount: 0, frameRepeat: 6, ...frames(1, 0) } } },
        },
        postures: {
          postures: [
            { id: 'std', animationId: 0 },
            { id: 'sit', animationId: 1 },
            { id: 'lay', animationId: 2 },
          ],
        },
        gestures: [{ id: 'sml', animationId: 10 }],
      },
    ],
  };
  return writeAssetLibrary({ name, data: doc as never, sprites });
}

/** Writes the library as `<hotel>/bundled/pet/<name>.nitro`. */
export async function writeTestPetLibrary(hotel: string, name = TEST_PET): Promise<string> {
  const dir = join(hotel, 'bundled', 'pet');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${name}.nitro`);
  await writeFile(file, await testPetLibrary(name));
  return file;
}
