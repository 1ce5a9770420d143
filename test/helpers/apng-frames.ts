// Every frame of a PNG/APNG as RGBA (frames cover the whole canvas and replace the one before, as ours
// do), through a standalone PNG per frame: IHDR, palette chunks, the frame's image data as IDAT, IEND.
import { decodePngSync } from '../../src/imaging/png.js';
import { PNG_SIGNATURE, pngChunk, readPngChunks } from '../../src/imaging/png-chunks.js';

export function apngFramesRgba(png: Buffer): Uint8Array[] {
  const chunks = readPngChunks(png);
  const head = chunks.filter((c) => c.type === 'IHDR' || c.type === 'PLTE' || c.type === 'tRNS');
  const frames: Buffer[][] = [];
  let sawFctl = false;
  for (const c of chunks) {
    if (c.type === 'fcTL') {
      frames.push([]);
      sawFctl = true;
    } else if (c.type === 'IDAT') {
      if (!sawFctl) frames.push([]);
      frames[frames.length - 1]!.push(c.data);
    } else if (c.type === 'fdAT') frames[frames.length - 1]!.push(c.data.subarray(4));
  }
  return frames.map((data) => {
    const file = Buffer.concat([
      PNG_SIGNATURE,
      ...head.map((c) => pngChunk(c.type, c.data)),
      ...data.map((d) => pngChunk('IDAT', d)),
      pngChunk('IEND', Buffer.alloc(0)),
    ]);
    const img = decodePngSync(file);
    // transparent pixels compare as all zero
    const out = Uint8Array.from(img.data);
    for (let i = 0; i < out.length; i += 4) if (out[i + 3] === 0) out.fill(0, i, i + 4);
    return out;
  });
}
