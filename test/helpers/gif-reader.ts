// A strict GIF89a reader for tests: every block of the file, and each frame's indexes through an LZW
// decoder written independently of the encoder, which insists on a clear code first, the end code
// exactly at the end of the data (read at the width a decoder is at), and nothing left over.

export interface ReadGifFrame {
  left: number;
  top: number;
  width: number;
  height: number;
  delayCs: number;
  disposal: number;
  transparentIndex: number | null;
  localTable: Uint8Array | null;
  minCodeSize: number;
  indexes: Uint8Array;
}

export interface ReadGif {
  width: number;
  height: number;
  globalTable: Uint8Array | null;
  backgroundIndex: number;
  loops: number | null;
  frames: ReadGifFrame[];
}

function lzwDecode(data: Uint8Array, minCodeSize: number, expected: number): Uint8Array {
  const clear = 1 << minCodeSize;
  const end = clear + 1;
  let size = minCodeSize + 1;
  let pos = 0; // in bits
  const read = (): number => {
    if (pos + size > data.length * 8) throw new Error('LZW data ends before the end code');
    let v = 0;
    for (let i = 0; i < size; i++, pos++) v |= ((data[pos >> 3]! >> (pos & 7)) & 1) << i;
    return v;
  };
  let table: number[][] = [];
  const resetTable = () => {
    table = [];
    for (let i = 0; i < clear; i++) table.push([i]);
    table.push([], []);
    size = minCodeSize + 1;
  };
  resetTable();
  const out: number[] = [];
  let prev: number[] | null = null;
  if (read() !== clear) throw new Error('LZW data does not start with a clear code');
  for (;;) {
    const code = read();
    if (code === clear) {
      resetTable();
      prev = null;
      continue;
    }
    if (code === end) break;
    let entry: number[];
    if (code < table.length) entry = table[code]!;
    else if (code === table.length && prev) entry = [...prev, prev[0]!];
    else throw new Error(`LZW code ${code} is past the table (${table.length})`);
    if (code < clear && code >= 0 && entry.length === 0) throw new Error('bad code');
    out.push(...entry);
    if (prev && table.length < 4096) table.push([...prev, entry[0]!]);
    if (table.length === 1 << size && size < 12) size++;
    prev = entry;
  }
  // Only the padding of the last byte may follow the end code.
  if (Math.ceil(pos / 8) !== data.length)
    throw new Error(`${data.length - Math.ceil(pos / 8)} bytes after the LZW end code`);
  if (out.length !== expected) throw new Error(`LZW gave ${out.length} indexes, expected ${expected}`);
  return Uint8Array.from(out);
}

export function readGif(buf: Uint8Array): ReadGif {
  let at = 0;
  const u8 = () => {
    if (at >= buf.length) throw new Error('truncated GIF');
    return buf[at++]!;
  };
  const u16 = () => u8() | (u8() << 8);
  const bytes = (n: number) => {
    if (at + n > buf.length) throw new Error('truncated GIF');
    const b = buf.subarray(at, at + n);
    at += n;
    return b;
  };
  const subBlocks = (): Uint8Array => {
    const parts: number[] = [];
    for (let n = u8(); n !== 0; n = u8()) parts.push(...bytes(n));
    return Uint8Array.from(parts);
  };
  if (Buffer.from(bytes(6)).toString('latin1') !== 'GIF89a') throw new Error('not a GIF89a');
  const width = u16();
  const height = u16();
  const packed = u8();
  const backgroundIndex = u8();
  u8();
  const globalTable = packed & 0x80 ? bytes(3 << ((packed & 7) + 1)) : null;
  let loops: number | null = null;
  const frames: ReadGifFrame[] = [];
  let gce: { delayCs: number; disposal: number; transparentIndex: number | null } | null = null;
  for (;;) {
    const block = u8();
    if (block === 0x3b) break;
    if (block === 0x21) {
      const label = u8();
      if (label === 0xf9) {
        if (u8() !== 4) throw new Error('graphic control extension of the wrong size');
        const p = u8();
        const delayCs = u16();
        const t = u8();
        if (u8() !== 0) throw new Error('graphic control extension not terminated');
        gce = { delayCs, disposal: (p >> 2) & 7, transparentIndex: p & 1 ? t : null };
      } else if (label === 0xff) {
        const n = u8();
        const id = Buffer.from(bytes(n)).toString('latin1');
        const data = subBlocks();
        if (id === 'NETSCAPE2.0') {
          if (data.length !== 3 || data[0] !== 1) throw new Error('bad NETSCAPE2.0 block');
          loops = data[1]! | (data[2]! << 8);
        }
      } else subBlocks();
    } else if (block === 0x2c) {
      const left = u16();
      const top = u16();
      const w = u16();
      const h = u16();
      const p = u8();
      if (p & 0x40) throw new Error('interlaced frames are not expected');
      const localTable = p & 0x80 ? bytes(3 << ((p & 7) + 1)) : null;
      const minCodeSize = u8();
      const indexes = lzwDecode(subBlocks(), minCodeSize, w * h);
      const table = localTable ?? globalTable;
      if (!table) throw new Error('frame without a colour table');
      for (const i of indexes) if (i * 3 >= table.length) throw new Error(`index ${i} outside the colour table`);
      if (!gce) throw new Error('frame without a graphic control extension');
      frames.push({ left, top, width: w, height: h, ...gce, localTable, minCodeSize, indexes });
      if (left + w > width || top + h > height) throw new Error('frame outside the logical screen');
      gce = null;
    } else throw new Error(`unknown block 0x${block.toString(16)} at ${at - 1}`);
  }
  if (at !== buf.length) throw new Error(`${buf.length - at} bytes after the trailer`);
  return { width, height, globalTable, backgroundIndex, loops, frames };
}

/** Composites the frames as a viewer does (disposal 2 clears the frame's rectangle to transparent), RGBA per frame. */
export function gifFramesRgba(gif: ReadGif): Uint8Array[] {
  const canvas = new Uint8Array(gif.width * gif.height * 4);
  const out: Uint8Array[] = [];
  for (const f of gif.frames) {
    const table = f.localTable ?? gif.globalTable!;
    for (let y = 0; y < f.height; y++) {
      for (let x = 0; x < f.width; x++) {
        const i = f.indexes[y * f.width + x]!;
        if (i === f.transparentIndex) continue;
        const o = ((f.top + y) * gif.width + f.left + x) * 4;
        canvas[o] = table[i * 3]!;
        canvas[o + 1] = table[i * 3 + 1]!;
        canvas[o + 2] = table[i * 3 + 2]!;
        canvas[o + 3] = 255;
      }
    }
    out.push(canvas.slice());
    if (f.disposal === 2) {
      for (let y = 0; y < f.height; y++)
        canvas.fill(0, ((f.top + y) * gif.width + f.left) * 4, ((f.top + y) * gif.width + f.left + f.width) * 4);
    } else if (f.disposal === 3) throw new Error('disposal 3 is not expected');
  }
  return out;
}
