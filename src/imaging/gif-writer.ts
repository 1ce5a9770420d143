// GIF89a writer: header, logical screen, optional global colour table, NETSCAPE2.0 loop extension, and
// per frame a graphic control extension (delay, disposal, transparent index) plus an image descriptor,
// optional local colour table and LZW data in sub-blocks. Pure: indexed frames in, bytes out; same input,
// same bytes.
import { lzwEncode } from './gif-lzw.js';

export interface GifFrame {
  /** Position and size of this frame's rectangle on the logical screen. */
  left: number;
  top: number;
  width: number;
  height: number;
  /** One palette index per pixel, row-major. */
  indexes: Uint8Array;
  /** Delay after this frame in centiseconds (0-65535). */
  delayCs: number;
  /** Local colour table (RGB triples, at most 256 entries); the global one when absent. */
  palette?: Uint8Array;
  /** This frame's disposal, when not the image's. */
  disposal?: 0 | 1 | 2 | 3;
}

export interface GifImage {
  width: number;
  height: number;
  /** Global colour table (RGB triples, at most 256 entries); every frame without its own uses it. */
  palette?: Uint8Array;
  /** The index drawn as transparent in every frame, or undefined for none. */
  transparentIndex?: number;
  /** NETSCAPE2.0 loop count: 0 = forever; undefined = no loop extension (a still). */
  loops?: number;
  /**
   * What a viewer does with a frame's rectangle before the next: 2 = restore to the background
   * (transparent), so a frame's transparent pixels never show the one before.
   */
  disposal: 0 | 1 | 2 | 3;
  frames: GifFrame[];
}

/** Bits of a colour table size field for `entries` colours: the table holds 2^(bits+1) >= entries. */
function tableBits(entries: number): number {
  let bits = 0;
  while (1 << (bits + 1) < entries) bits++;
  return bits;
}

function checkPalette(palette: Uint8Array, what: string): void {
  if (palette.length % 3 !== 0 || palette.length === 0 || palette.length > 768)
    throw new RangeError(`${what} must hold 1-256 RGB triples`);
}

class ByteList {
  private readonly parts: Uint8Array[] = [];
  length = 0;
  bytes(...values: number[]): void {
    this.add(Uint8Array.from(values));
  }
  u16(value: number): void {
    this.bytes(value & 0xff, (value >> 8) & 0xff);
  }
  add(data: Uint8Array): void {
    this.parts.push(data);
    this.length += data.length;
  }
  /** A colour table padded with black to its power-of-two size. */
  table(palette: Uint8Array): void {
    const size = 3 << (tableBits(palette.length / 3) + 1);
    const padded = new Uint8Array(size);
    padded.set(palette);
    this.add(padded);
  }
  concat(): Buffer {
    return Buffer.concat(this.parts, this.length);
  }
}

function u16Checked(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 0 || value > 0xffff) throw new RangeError(`${what} ${value} is not 0-65535`);
  return value;
}

/** Writes a GIF89a file. */
export function writeGif(image: GifImage): Buffer {
  const { frames } = image;
  if (frames.length === 0) throw new RangeError('a GIF needs at least one frame');
  u16Checked(image.width, 'width');
  u16Checked(image.height, 'height');
  if (image.palette) checkPalette(image.palette, 'global colour table');
  const out = new ByteList();
  out.add(Buffer.from('GIF89a', 'latin1'));
  out.u16(image.width);
  out.u16(image.height);
  const globalBits = image.palette ? tableBits(image.palette.length / 3) : 0;
  // global table flag, colour resolution 8 bits, not sorted, table size
  out.bytes(image.palette ? 0x80 | (7 << 4) | globalBits : 7 << 4, image.transparentIndex ?? 0, 0);
  if (image.palette) out.table(image.palette);
  if (image.loops !== undefined) {
    out.bytes(0x21, 0xff, 11);
    out.add(Buffer.from('NETSCAPE2.0', 'latin1'));
    out.bytes(3, 1);
    out.u16(u16Checked(image.loops, 'loop count'));
    out.bytes(0);
  }
  frames.forEach((f, i) => {
    const palette = f.palette ?? image.palette;
    if (!palette) throw new RangeError(`frame ${i} has no colour table and the GIF has no global one`);
    if (f.palette) checkPalette(f.palette, `frame ${i}'s colour table`);
    const entries = palette.length / 3;
    if (
      f.width < 1 ||
      f.height < 1 ||
      f.left + f.width > image.width ||
      f.top + f.height > image.height ||
      f.left < 0 ||
      f.top < 0
    ) {
      throw new RangeError(
        `frame ${i} (${f.left},${f.top} ${f.width}x${f.height}) is outside the ${image.width}x${image.height} screen`,
      );
    }
    if (f.indexes.length !== f.width * f.height)
      throw new RangeError(`frame ${i} has ${f.indexes.length} indexes for ${f.width}x${f.height}`);
    const transparent = image.transparentIndex;
    if (transparent !== undefined && (transparent < 0 || transparent >= entries))
      throw new RangeError(`transparent index ${transparent} is outside frame ${i}'s colour table`);
    // Graphic control extension: disposal, no user input, transparency flag; delay; transparent index.
    out.bytes(0x21, 0xf9, 4, ((f.disposal ?? image.disposal) << 2) | (transparent !== undefined ? 1 : 0));
    out.u16(u16Checked(f.delayCs, `frame ${i} delay`));
    out.bytes(transparent ?? 0, 0);
    out.bytes(0x2c);
    out.u16(f.left);
    out.u16(f.top);
    out.u16(f.width);
    out.u16(f.height);
    out.bytes(f.palette ? 0x80 | tableBits(entries) : 0);
    if (f.palette) out.table(f.palette);
    const minCodeSize = Math.max(2, tableBits(entries) + 1);
    out.bytes(minCodeSize);
    const data = lzwEncode(f.indexes, minCodeSize);
    for (let at = 0; at < data.length; at += 255) {
      const n = Math.min(255, data.length - at);
      out.bytes(n);
      out.add(data.subarray(at, at + n));
    }
    out.bytes(0);
  });
  out.bytes(0x3b);
  return out.concat();
}

export function isGif(buf: Uint8Array): boolean {
  return (
    buf.length >= 6 &&
    buf[0] === 0x47 &&
    buf[1] === 0x49 &&
    buf[2] === 0x46 &&
    buf[3] === 0x38 &&
    (buf[4] === 0x39 || buf[4] === 0x37) &&
    buf[5] === 0x61
  );
}

/** Image descriptors in a GIF (walking its blocks, no decoding); throws on a malformed file. */
export function gifFrameCount(buf: Uint8Array): number {
  if (!isGif(buf) || buf.length < 13) throw new Error('not a GIF');
  const need = (at: number) => {
    if (at >= buf.length) throw new Error('truncated GIF');
  };
  const skipSubBlocks = (at: number): number => {
    for (;;) {
      need(at);
      const n = buf[at]!;
      at += 1 + n;
      if (n === 0) return at;
    }
  };
  let at = 13;
  if (buf[10]! & 0x80) at += 3 << ((buf[10]! & 7) + 1);
  let frames = 0;
  for (;;) {
    need(at);
    const block = buf[at]!;
    if (block === 0x3b) return frames;
    if (block === 0x21) at = skipSubBlocks(at + 2);
    else if (block === 0x2c) {
      need(at + 9);
      const packed = buf[at + 9]!;
      at += 10;
      if (packed & 0x80) at += 3 << ((packed & 7) + 1);
      at = skipSubBlocks(at + 1);
      frames++;
    } else throw new Error(`unknown GIF block 0x${block.toString(16)}`);
  }
}
