// Step 3 of the avatar path (request → plan → draw): composites the frames of a plan into RGBA images
// and lists what was drawn. Knows nothing of figures, actions or effects: a plan's layers are sprites at
// positions. Encoding the frames is output.ts.
import { drawSprite } from '../imaging/composite.js';
import { downscaleHalf } from '../imaging/downscale.js';
import { type FrameDelay } from '../imaging/frame-delay.js';
import { createImage, scaleNearest, type MakeImage, type RgbaImage } from '../imaging/image.js';
import { lightOf } from '../imaging/light.js';
import { type AvatarColorData } from './effects.js';
import { type AvatarPlan, type DrawnLayer, type PlannedLayer } from './plan-types.js';

export interface AvatarRender {
  width: number;
  height: number;
  frames: RgbaImage[];
  /** How many client ticks (1/6 s) each frame lasts: 1 each, except effect frames the effect holds longer. */
  frameTicks: number[];
  /** How long each frame shows (its ticks × 1/6 s); encoders (APNG, GIF) take the loop's timing from here. */
  delays: FrameDelay[];
  layers: DrawnLayer[];
}

/** The client's tick, the frame time of pose loops (contract A2.2): 166.67 ms. */
export const POSE_FRAME_DELAY: FrameDelay = { num: 1, den: 6 };

const doubledCache = new WeakMap<RgbaImage, RgbaImage>();
function doubledSprite(img: RgbaImage): RgbaImage {
  let d = doubledCache.get(img);
  if (!d) {
    d = scaleNearest(img, 2);
    doubledCache.set(img, d);
  }
  return d;
}

function drawLayer(canvas: RgbaImage, l: PlannedLayer): void {
  // ADD sprites are light on black: over nothing only their glow shows (as furni glows, `lightOf`).
  const sprite = l.add ? lightOf(l.sprite) : l.doubled ? doubledSprite(l.sprite) : l.sprite;
  drawSprite(canvas, sprite, l.x, l.y, { flipH: l.flip, tint: l.tint, ink: l.add ? 'add' : 'normal' });
}

/**
 * The effect's treatment of the whole avatar image (`AvatarImage.getImage` with `AvatarDataContainer`):
 * a colour multiply by the foreground (ink 37 also halves the alpha: Ghost); other inks then turn the
 * image grey and map the grey through the ramp from background to foreground (Ice).
 */
export function applyAvatarColour(img: RgbaImage, c: AvatarColorData): void {
  const fr = ((c.foreground >> 16) & 0xff) / 255;
  const fg = ((c.foreground >> 8) & 0xff) / 255;
  const fb = (c.foreground & 0xff) / 255;
  const ghost = c.ink === 37;
  const lut = ghost ? undefined : greyRamp(c.background, c.foreground);
  const d = img.data;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i + 3] === 0) continue;
    const r = d[i]! * fr;
    const g = d[i + 1]! * fg;
    const b = d[i + 2]! * fb;
    if (lut) {
      const grey = Math.min(255, Math.max(0, Math.round(0.33 * r + 0.33 * g + 0.33 * b)));
      const e = lut[grey]!;
      d[i] = (e >> 16) & 0xff;
      d[i + 1] = (e >> 8) & 0xff;
      d[i + 2] = e & 0xff;
    } else {
      d[i] = Math.round(r);
      d[i + 1] = Math.round(g);
      d[i + 2] = Math.round(b);
      d[i + 3] = Math.round(d[i + 3]! * 0.5);
    }
  }
}

/** `AvatarDataContainer.generatePaletteMapForGrayscale`, with the client's integer arithmetic. */
function greyRamp(background: number, foreground: number): number[] {
  const ch = (v: number, s: number): number => (v >> s) & 0xff;
  const [aB, rB, gB, bB] = [ch(background, 24), ch(background, 16), ch(background, 8), ch(background, 0)];
  const [aF, rF, gF, bF] = [ch(foreground, 24), ch(foreground, 16), ch(foreground, 8), ch(foreground, 0)];
  const [aD, rD, gD, bD] = [(aF - aB) / 255, (rF - rB) / 255, (gF - gB) / 255, (bF - bB) / 255];
  let [a, r, g, b] = [aB, rB, gB, bB];
  const out: number[] = [];
  for (let i = 0; i < 256; i++) {
    if (r === rB && g === gB && b === bB) a = 0;
    a += aD;
    r += rD;
    g += gD;
    b += bD;
    out.push((a << 24) | (r << 16) | (g << 8) | b);
  }
  return out;
}

/**
 * Draws every frame of the plan on its window and scales it to the output size. Canvases and frames come
 * from `make` (fresh images, or an `ImageScratch`'s for a caller that encodes and keeps nothing).
 */
export function drawAvatar(plan: AvatarPlan, make: MakeImage = createImage): AvatarRender {
  const win = plan.window;
  const frames: RgbaImage[] = [];
  const layers: DrawnLayer[] = [];
  for (const f of plan.frames) {
    const canvas = make(win.width, win.height);
    for (const l of f.behind) drawLayer(canvas, l);
    if (f.avatarImage) {
      // The avatar is one image in the client: drawn on its own, coloured, then put between the sprites.
      const avatar = make(win.width, win.height);
      for (const l of f.avatar) drawLayer(avatar, l);
      if (f.colour) applyAvatarColour(avatar, f.colour);
      drawSprite(canvas, avatar, 0, 0);
    } else for (const l of f.avatar) drawLayer(canvas, l);
    for (const l of f.front) drawLayer(canvas, l);
    for (const list of [f.behind, f.avatar, f.front]) for (const l of list) layers.push(l.described);
    frames.push(
      win.scale === 2 ? scaleNearest(canvas, 2, make) : win.scale === 0.5 ? downscaleHalf(canvas, make) : canvas,
    );
  }
  const first = frames[0]!;
  const frameTicks = plan.frames.map((f) => f.ticks);
  return {
    width: first.width,
    height: first.height,
    frames,
    frameTicks,
    delays: frameTicks.map((t) => ({ num: t * POSE_FRAME_DELAY.num, den: POSE_FRAME_DELAY.den })),
    layers,
  };
}
