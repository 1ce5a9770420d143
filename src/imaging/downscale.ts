// Half-size reduction (avatar size s without small sprites, furni size 32 without a size-32 visualization):
// each output pixel is the alpha-weighted mean of a 2×2 block (so transparent neighbours do not darken
// edges), integer maths.
import { createImage, type MakeImage, type RgbaImage } from './image.js';

export function downscaleHalf(src: RgbaImage, make: MakeImage = createImage): RgbaImage {
  const w = src.width >> 1;
  const h = src.height >> 1;
  const out = make(w, h);
  const s = src.data;
  const d = out.data;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let dy = 0; dy < 2; dy++) {
        const row = (y * 2 + dy) * src.width;
        for (let dx = 0; dx < 2; dx++) {
          const i = (row + x * 2 + dx) * 4;
          const pa = s[i + 3]!;
          if (pa === 0) continue;
          r += s[i]! * pa;
          g += s[i + 1]! * pa;
          b += s[i + 2]! * pa;
          a += pa;
        }
      }
      const o = (y * w + x) * 4;
      if (a === 0) continue;
      d[o] = Math.round(r / a);
      d[o + 1] = Math.round(g / a);
      d[o + 2] = Math.round(b / a);
      d[o + 3] = Math.round(a / 4);
    }
  }
  return out;
}
