// Additive (ADD ink) sprites on a transparent image: furni glows and avatar effect lights.
import { createImage, type RgbaImage } from './image.js';

const lightCache = new WeakMap<RgbaImage, RgbaImage>();

/**
 * ADD sprites are light drawn on black. In the client they add onto the room behind them; on a
 * transparent still their black would be an opaque box. The sprite is turned into the light it emits
 * (alpha = brightest channel, colour divided by it): its premultiplied colour is unchanged, so over
 * opaque pixels the ADD result is exactly the same, and over nothing it shows only the glow.
 */
export function lightOf(src: RgbaImage): RgbaImage {
  const cached = lightCache.get(src);
  if (cached) return cached;
  const out = createImage(src.width, src.height);
  const s = src.data;
  const d = out.data;
  for (let i = 0; i < s.length; i += 4) {
    const a = s[i + 3]!;
    const m = Math.max(s[i]!, s[i + 1]!, s[i + 2]!);
    if (a === 0 || m === 0) continue;
    d[i] = Math.round((s[i]! * 255) / m);
    d[i + 1] = Math.round((s[i + 1]! * 255) / m);
    d[i + 2] = Math.round((s[i + 2]! * 255) / m);
    d[i + 3] = Math.round((a * m) / 255);
  }
  lightCache.set(src, out);
  return out;
}
