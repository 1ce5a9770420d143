// What a request shows of a render, and its bytes: the whole loop or one frame of it (`frame_num`), as
// PNG/APNG or GIF (`img_format`). Works on whatever frames and timing the renderer returns (pose loops,
// and any other loop that comes through AvatarRender), so the renderer knows nothing of either.
import { encodeFrames } from '../imaging/apng.js';
import { encodeGif, gifDelays } from '../imaging/gif.js';
import { type AvatarRender } from './draw.js';
import { type AvatarFormat } from './request.js';

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

/**
 * PNG for a still, APNG (loop forever, each frame its delay) for an animation; indexed colour when the
 * frames fit one 256-colour palette (nearly always), RGBA otherwise. GIF: a still, or a loop forever with
 * centisecond delays (imaging/gif.ts).
 */
export async function encodeAvatar(render: AvatarRender, format: AvatarFormat = 'png'): Promise<Buffer> {
  if (format === 'gif') return encodeGif(render.frames, render.frames.length > 1 ? gifDelays(render.delays) : [0]);
  return encodeFrames(render.frames, { compressionLevel: 6, delays: render.delays });
}
