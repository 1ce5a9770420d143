// Shared helpers for the furni rule tests: sample-kit models and pixel lookups.
import { KIT_ITEMS } from '../../src/samplekit/furni/index.js';
import { furniModelFromLibrary, type FurniModel } from '../../src/furni/model.js';
import { type RgbaImage } from '../../src/imaging/image.js';
import { type RoomRender } from '../../src/furni/render.js';

const cache = new Map<string, FurniModel>();

export function kitModel(classname: string): FurniModel {
  let m = cache.get(classname);
  if (!m) {
    const item = KIT_ITEMS.find((i) => i.classname === classname);
    if (!item) throw new Error(`sample kit has no item ${classname}`);
    m = furniModelFromLibrary(item.build());
    cache.set(classname, m);
  }
  return m;
}

export type Px = [number, number, number, number];

export function px(img: RgbaImage, x: number, y: number): Px {
  if (x < 0 || y < 0 || x >= img.width || y >= img.height) return [0, 0, 0, 0];
  const i = (y * img.width + x) * 4;
  return [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!, img.data[i + 3]!];
}

/** Where each pixel of an (unflipped) asset lands in a room render, with its sprite pixel. */
export function* spritePixels(
  model: FurniModel,
  r: RoomRender,
  asset: string,
  dx = 0,
  dy = 0,
): Generator<{ x: number; y: number; p: Px }> {
  const s = model.sprites.get(asset);
  if (!s) throw new Error(`no asset ${asset}`);
  if (s.flipH) throw new Error(`${asset} is flipped`);
  const left = r.originX - s.x + dx;
  const top = r.originY - s.y + dy;
  for (let y = 0; y < s.image.height; y++)
    for (let x = 0; x < s.image.width; x++) yield { x: left + x, y: top + y, p: px(s.image, x, y) };
}

/** Pixels of asset `a` (opaque) that lie under an opaque pixel of asset `b`, keyed "x,y". */
export function overlap(
  model: FurniModel,
  r: RoomRender,
  a: string,
  b: string,
): Map<string, { under: Px; over: Px; x: number; y: number }> {
  const under = new Map<string, Px>();
  for (const q of spritePixels(model, r, a)) if (q.p[3] === 255) under.set(`${q.x},${q.y}`, q.p);
  const out = new Map<string, { under: Px; over: Px; x: number; y: number }>();
  for (const q of spritePixels(model, r, b)) {
    const u = under.get(`${q.x},${q.y}`);
    if (u && q.p[3] === 255) out.set(`${q.x},${q.y}`, { under: u, over: q.p, x: q.x, y: q.y });
  }
  return out;
}
