// Frame count and content type of a cached image body (PNG/APNG or GIF), so images read back from the
// disk cache answer `x-imager-frames` and `Content-Type` without a side file.
import { gifFrameCount, isGif } from '../../imaging/gif-writer.js';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The acTL chunk's num_frames, else 1. */
export function pngFrameCount(png: Uint8Array): number {
  if (png.length < 8 || SIGNATURE.some((b, i) => png[i] !== b)) throw new Error('not a PNG');
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let at = 8;
  while (at + 8 <= png.length) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(png[at + 4]!, png[at + 5]!, png[at + 6]!, png[at + 7]!);
    if (type === 'acTL') {
      if (at + 12 > png.length) throw new Error('truncated acTL chunk');
      return view.getUint32(at + 8);
    }
    if (type === 'IDAT' || type === 'IEND') return 1;
    at += 12 + length;
  }
  throw new Error('truncated PNG');
}

/** Frames in a PNG/APNG or GIF body; throws for anything else. */
export function imageFrameCount(body: Uint8Array): number {
  return isGif(body) ? gifFrameCount(body) : pngFrameCount(body);
}

export function imageContentType(body: Uint8Array): 'image/gif' | 'image/png' {
  return isGif(body) ? 'image/gif' : 'image/png';
}
