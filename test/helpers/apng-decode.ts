// Reads an APNG back for tests: acTL (frame count, plays), each fcTL (region, delay, dispose/blend) and
// each frame's pixels, rebuilt as a plain PNG (IHDR, PLTE/tRNS, the frame's IDAT/fdAT data) and decoded.
import { decodePngSync } from '../../src/imaging/png.js';
import { PNG_SIGNATURE, pngChunk, readPngChunks } from '../../src/imaging/png-chunks.js';
import { type RgbaImage } from '../../src/imaging/image.js';

export interface ApngFrame {
  image: RgbaImage;
  x: number;
  y: number;
  delayNum: number;
  delayDen: number;
  dispose: number;
  blend: number;
}

export interface DecodedApng {
  width: number;
  height: number;
  numFrames: number;
  plays: number;
  frames: ApngFrame[];
}

export function decodeApng(apng: Uint8Array): DecodedApng {
  const chunks = readPngChunks(apng);
  const ihdr = chunks.find((c) => c.type === 'IHDR');
  const actl = chunks.find((c) => c.type === 'acTL');
  if (!ihdr || !actl) throw new Error('not an APNG (no IHDR or acTL)');
  const shared = chunks.filter((c) => c.type === 'PLTE' || c.type === 'tRNS');
  const frames: ApngFrame[] = [];
  let current: { fctl: Buffer; data: Buffer[] } | undefined;
  const finish = () => {
    if (!current) return;
    const f = current.fctl;
    const w = f.readUInt32BE(4);
    const h = f.readUInt32BE(8);
    const head = Buffer.from(ihdr.data);
    head.writeUInt32BE(w, 0);
    head.writeUInt32BE(h, 4);
    const png = Buffer.concat([
      PNG_SIGNATURE,
      pngChunk('IHDR', head),
      ...shared.map((c) => pngChunk(c.type, c.data)),
      pngChunk('IDAT', Buffer.concat(current.data)),
      pngChunk('IEND', Buffer.alloc(0)),
    ]);
    frames.push({
      image: decodePngSync(png),
      x: f.readUInt32BE(12),
      y: f.readUInt32BE(16),
      delayNum: f.readUInt16BE(20),
      delayDen: f.readUInt16BE(22),
      dispose: f[24]!,
      blend: f[25]!,
    });
  };
  for (const c of chunks) {
    if (c.type === 'fcTL') {
      finish();
      current = { fctl: c.data, data: [] };
    } else if (c.type === 'IDAT' && current) current.data.push(c.data);
    else if (c.type === 'fdAT' && current) current.data.push(c.data.subarray(4));
  }
  finish();
  return {
    width: ihdr.data.readUInt32BE(0),
    height: ihdr.data.readUInt32BE(4),
    numFrames: actl.data.readUInt32BE(0),
    plays: actl.data.readUInt32BE(4),
    frames,
  };
}
