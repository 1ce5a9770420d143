// APNG assembly from PNG-encoded frames: same signature and IHDR as a PNG, an acTL (loop forever),
// and per frame an fcTL (full canvas, 1/6 s, replace) followed by the frame's image data (IDAT for
// the first frame, fdAT for the rest). Deterministic: same frames → same bytes.
import { encodePng, type PngOptions } from './codec.js';
import { type FrameDelay } from './frame-delay.js';
import { type RgbaImage } from './image.js';
import { PNG_SIGNATURE, pngChunk as chunk, readPngChunks } from './png-chunks.js';
import { encodeIndexedPngs } from './png.js';

export interface ApngOptions extends PngOptions {
  /** Frame delay as a fraction; default 1/6 s (166.67 ms). */
  delayNum?: number;
  delayDen?: number;
  /** Per-frame delay numerators over `delayDen` (frames held several ticks); default `delayNum` each. */
  delayNums?: readonly number[];
  /** 0 = loop forever. */
  plays?: number;
  /** Per-frame delays (one per frame); when given, they replace delayNum/delayDen. */
  delays?: FrameDelay[];
  /**
   * Sub-rectangle frames: frame i's place on the canvas (frame 0 at 0, 0 and the canvas's size, as APNG wants).
   * Each frame is then its own size (its PNG's IHDR) and replaces that rectangle of the frame before
   * (dispose_op NONE, blend_op SOURCE). Absent: every frame covers the whole canvas.
   */
  offsets?: readonly { x: number; y: number }[];
  /**
   * Per-frame blend_op: 0 SOURCE (the default: the frame's pixels replace the region), 1 OVER (drawn over it: a
   * frame whose changed pixels are all opaque, its other pixels transparent, keeps those of the frame before).
   */
  blends?: readonly (0 | 1)[];
}

/** Builds an APNG from already-encoded PNG frames of one size. */
export function assembleApng(pngFrames: Uint8Array[], opts: ApngOptions = {}): Buffer {
  if (pngFrames.length === 0) throw new RangeError('an APNG needs at least one frame');
  const delayNum = opts.delayNum ?? 1;
  const delayDen = opts.delayDen ?? 6;
  const parsed = pngFrames.map((f) => readPngChunks(f));
  if (opts.delays && opts.delays.length !== pngFrames.length)
    throw new RangeError(`${pngFrames.length} frames but ${opts.delays.length} delays`);
  const ihdr = parsed[0]!.find((c) => c.type === 'IHDR');
  if (!ihdr) throw new Error('first frame has no IHDR');
  const width = ihdr.data.readUInt32BE(0);
  const height = ihdr.data.readUInt32BE(4);
  const parts: Buffer[] = [PNG_SIGNATURE, chunk('IHDR', ihdr.data)];
  const actl = Buffer.alloc(8);
  actl.writeUInt32BE(pngFrames.length, 0);
  actl.writeUInt32BE(opts.plays ?? 0, 4);
  parts.push(chunk('acTL', actl));
  // Palette and transparency (indexed frames share frame 0's), before any image data.
  for (const c of parsed[0]!) if (c.type === 'PLTE' || c.type === 'tRNS') parts.push(chunk(c.type, c.data));
  let seq = 0;
  const offsets = opts.offsets;
  if (offsets && offsets.length !== pngFrames.length)
    throw new RangeError(`${pngFrames.length} frames but ${offsets.length} offsets`);
  if (offsets && (offsets[0]!.x !== 0 || offsets[0]!.y !== 0)) throw new RangeError('frame 0 must be at 0, 0');
  parsed.forEach((chunks, i) => {
    const h = chunks.find((c) => c.type === 'IHDR')!;
    const w = offsets ? h.data.readUInt32BE(0) : width;
    const ht = offsets ? h.data.readUInt32BE(4) : height;
    const at = offsets?.[i] ?? { x: 0, y: 0 };
    if (offsets ? !h.data.subarray(8).equals(ihdr.data.subarray(8)) : !h.data.equals(ihdr.data))
      throw new Error(`frame ${i} differs in size or format from frame 0`);
    if (at.x < 0 || at.y < 0 || at.x + w > width || at.y + ht > height)
      throw new RangeError(`frame ${i} (${at.x},${at.y} ${w}x${ht}) is outside the ${width}x${height} canvas`);
    const fctl = Buffer.alloc(26);
    fctl.writeUInt32BE(seq++, 0);
    fctl.writeUInt32BE(w, 4);
    fctl.writeUInt32BE(ht, 8);
    fctl.writeUInt32BE(at.x, 12);
    fctl.writeUInt32BE(at.y, 16);
    const delay = opts.delays?.[i];
    fctl.writeUInt16BE(delay ? delay.num : delayNum, 20);
    fctl.writeUInt16BE(delay ? delay.den : delayDen, 22);
    fctl.writeUInt8(0, 24); // dispose: none (the next frame covers the whole canvas, or changes a part of it)
    // blend: source, so transparent pixels replace the previous frame (or over, where asked)
    fctl.writeUInt8(opts.blends?.[i] ?? 0, 25);
    parts.push(chunk('fcTL', fctl));
    for (const c of chunks) {
      if (c.type !== 'IDAT') continue;
      if (i === 0) parts.push(chunk('IDAT', c.data));
      else {
        const s = Buffer.alloc(4);
        s.writeUInt32BE(seq++, 0);
        parts.push(chunk('fdAT', Buffer.concat([s, c.data])));
      }
    }
  });
  parts.push(chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}

/** Encodes RGBA frames (all one size, or sub-rectangles at `opts.offsets`) as an APNG. */
export async function encodeApng(frames: RgbaImage[], opts: ApngOptions = {}): Promise<Buffer> {
  const pngs = await Promise.all(frames.map((f) => encodePng(f, opts)));
  return assembleApng(pngs, opts);
}

/**
 * PNG for one frame, APNG for several; indexed when the frames fit 256 colours, else RGBA via sharp. With
 * `opts.offsets` the frames after the first are sub-rectangles of the canvas (frame 0's size).
 */
export async function encodeFrames(frames: RgbaImage[], opts: ApngOptions = {}): Promise<Buffer> {
  if (frames.length === 0) throw new RangeError('no frames to encode');
  const indexed = encodeIndexedPngs(frames, opts.compressionLevel ?? 6, opts.offsets !== undefined);
  if (indexed) return frames.length === 1 ? indexed[0]! : assembleApng(indexed, opts);
  return frames.length === 1 ? encodePng(frames[0]!, opts) : encodeApng(frames, opts);
}
