// What a request shows of a render, and its bytes: the whole loop or one frame of it (`frame_num`),
// trimmed (`crop`), on a background (`bg`), enlarged (`zoom`), as PNG/APNG or GIF (`img_format`). Works on
// whatever frames and timing the renderer returns (pose loops, and any other loop that comes through
// AvatarRender), so the renderer knows nothing of any of them: they change the output, never the drawing.
import { encodeFrames } from '../imaging/apng.js';
import { encodeGif, gifDelays } from '../imaging/gif.js';
import { alphaBounds, cropImage, overColor, scaleNearest, type Rect, type RgbaImage } from '../imaging/image.js';
import { type AvatarRender } from './draw.js';
import { AvatarRenderError } from './errors.js';
import { type AvatarFormat, type AvatarRequest } from './request.js';

export const CONTENT_TYPES: Record<AvatarFormat, string> = { png: 'image/png', gif: 'image/gif' };

/** Frame n of the loop (wrapped: n mod length, so -1 is the last) as a still, with only that frame's layers. */
export function pickFrame(render: AvatarRender, frameNum: number): AvatarRender {
  const count = render.frames.length;
  if (!Number.isInteger(frameNum)) throw new RangeError(`frame number ${frameNum} is not an integer`);
  const n = ((frameNum % count) + count) % count;
  return {
    width: render.width,
    height: render.height,
    frames: [render.frames[n]!],
    frameTicks: [render.frameTicks[n]!],
    delays: [render.delays[n]!],
    layers: render.layers.filter((l) => l.frame === n),
  };
}

/** The frames the request shows: one for `frameNum`, else all the renderer drew. */
export function shownFrames(render: AvatarRender, frameNum: number | undefined): AvatarRender {
  return frameNum === undefined ? render : pickFrame(render, frameNum);
}

/** The box holding every visible pixel of every frame (one box, so a loop does not jump), or null. */
export function visibleBox(frames: readonly RgbaImage[]): Rect | null {
  let box: Rect | null = null;
  for (const f of frames) {
    const b = alphaBounds(f);
    if (!b || !box) {
      box ??= b;
      continue;
    }
    const x = Math.min(box.x, b.x);
    const y = Math.min(box.y, b.y);
    box = {
      x,
      y,
      width: Math.max(box.x + box.width, b.x + b.width) - x,
      height: Math.max(box.y + box.height, b.y + b.height) - y,
    };
  }
  return box;
}

/**
 * Most bytes the enlarged frames of one answer may take (`zoom`): 64 MiB, 37 frames of the largest canvas
 * (size l lying, 220 × 128) at 4× (1.8 MB a frame); the longest loop of the real effects is 21 frames.
 */
export const MAX_ZOOMED_BYTES = 64 * 1024 * 1024;

/** The zoom asked for, or the largest below it whose frames fit MAX_ZOOMED_BYTES (at least 1). */
export function boundedZoom(render: Pick<AvatarRender, 'width' | 'height' | 'frames'>, zoom: number): number {
  let z = zoom;
  while (z > 1 && render.frames.length * render.width * render.height * 4 * z * z > MAX_ZOOMED_BYTES) z--;
  return z;
}

/**
 * Whether the request changes the output of its drawing (`crop`, `bg`, `zoom`): such requests share one
 * drawing with the plain URL and with each other (`drawingKey`).
 */
export function changesOutput(req: Pick<AvatarRequest, 'crop' | 'background' | 'zoom'>): boolean {
  return req.crop !== undefined || req.background !== undefined || req.zoom !== undefined;
}

/** The request fields the drawing reads, as one text: requests equal in it draw the same frames. */
export function drawingKey(req: AvatarRequest): string {
  const { crop: _crop, background: _bg, zoom: _zoom, format: _format, frameNum: _frame, ...drawn } = req;
  return JSON.stringify(drawn, (_k, v: unknown) => (v instanceof Map ? [...v] : v));
}

/** The output fields of a request: what `requestedOutput` does beyond picking frames. */
export type OutputRequest = Pick<
  AvatarRequest,
  'frameNum' | 'part' | 'crop' | 'background' | 'zoom' | 'effect' | 'action' | 'direction'
>;

/**
 * What the request shows of a render, in this order: its frames (`shownFrames`), trimmed to the box of
 * their visible pixels (`crop`; an avatar with nothing visible keeps its canvas), put on the background
 * (`bg`), enlarged by nearest neighbour (`zoom`: `zoom` × `zoom` copies of each pixel, less when a long
 * loop would pass MAX_ZOOMED_BYTES). An image of one kind of layer (`part`) with nothing visible is no
 * image: `nothing-visible`.
 */
export function requestedOutput(render: AvatarRender, req: OutputRequest): AvatarRender {
  let out = shownFrames(render, req.frameNum);
  const needBox = req.crop !== undefined || req.part !== undefined;
  const box = needBox ? visibleBox(out.frames) : null;
  if (req.part !== undefined && !box) {
    const what =
      req.part === 'effect'
        ? `effect ${req.effect} draws no sprite of its own here (it changes the avatar only)`
        : `hand item ${req.action.items.get('crr') ?? req.action.items.get('drk')} has no sprite here`;
    throw new AvatarRenderError('nothing-visible', `${what}: nothing to show at direction ${req.direction}`);
  }
  if (req.crop && box) {
    out = {
      ...out,
      width: box.width,
      height: box.height,
      frames: out.frames.map((f) => cropImage(f, box)),
      layers: out.layers.map((l) => ({ ...l, x: l.x - box.x, y: l.y - box.y })),
    };
  }
  const bg = req.background;
  if (bg !== undefined) out = { ...out, frames: out.frames.map((f) => overColor(f, bg.rgb, bg.alpha)) };
  const zoom = boundedZoom(out, req.zoom ?? 1);
  if (zoom > 1) {
    out = {
      ...out,
      width: out.width * zoom,
      height: out.height * zoom,
      frames: out.frames.map((f) => scaleNearest(f, zoom)),
      layers: out.layers.map((l) => ({
        ...l,
        x: l.x * zoom,
        y: l.y * zoom,
        width: l.width * zoom,
        height: l.height * zoom,
      })),
    };
  }
  return out;
}

/**
 * PNG for a still, APNG (loop forever, each frame its delay) for an animation; indexed colour when the
 * frames fit one 256-colour palette (nearly always), RGBA otherwise. GIF: a still, or a loop forever with
 * centisecond delays (imaging/gif.ts).
 */
export async function encodeAvatar(render: AvatarRender, format: AvatarFormat = 'png'): Promise<Buffer> {
  if (format === 'gif') return encodeGif(render.frames, render.frames.length > 1 ? gifDelays(render.delays) : [0]);
  return encodeFrames(render.frames, { compressionLevel: 6, delays: render.delays });
}
