// GIF's variable-length LZW (GIF89a spec, appendix F): codes of minCodeSize+1 up to 12 bits, packed
// least-significant bit first; a clear code first, and again whenever the 4,096-entry table is full; an
// end-of-information code last. Pure: index bytes in, code bytes out (not yet cut into sub-blocks).
//
// The string table is an open-addressing hash of (prefix code, next index) → code on typed arrays: 8,192
// slots for at most 4,096 entries, small enough to stay in the CPU cache and to clear at every reset
// (a 1 M-slot direct trie cost a third more time in cache misses).

const MAX_CODES = 4096;
const SLOTS = 8192;
const keys = new Int32Array(SLOTS);
const codes = new Uint16Array(SLOTS);

/** Growable byte output with an LSB-first bit accumulator. */
class BitWriter {
  private buf: Uint8Array;
  private len = 0;
  private acc = 0;
  private bits = 0;

  constructor(capacity: number) {
    this.buf = new Uint8Array(Math.max(64, capacity));
  }

  write(code: number, size: number): void {
    this.acc |= code << this.bits;
    this.bits += size;
    while (this.bits >= 8) {
      this.push(this.acc & 0xff);
      this.acc >>>= 8;
      this.bits -= 8;
    }
  }

  finish(): Uint8Array {
    if (this.bits > 0) this.push(this.acc & 0xff);
    this.acc = 0;
    this.bits = 0;
    return this.buf.subarray(0, this.len);
  }

  private push(byte: number): void {
    if (this.len === this.buf.length) {
      const grown = new Uint8Array(this.buf.length * 2);
      grown.set(this.buf);
      this.buf = grown;
    }
    this.buf[this.len++] = byte;
  }
}

/**
 * LZW-compresses palette indexes (each < 2^minCodeSize) for a GIF image's data; minCodeSize is 2-8.
 * Returns the packed code stream (the caller writes minCodeSize before it and cuts it into sub-blocks).
 */
export function lzwEncode(indexes: Uint8Array, minCodeSize: number): Uint8Array {
  if (!Number.isInteger(minCodeSize) || minCodeSize < 2 || minCodeSize > 8)
    throw new RangeError(`LZW minimum code size ${minCodeSize} is not 2-8`);
  const clear = 1 << minCodeSize;
  const end = clear + 1;
  const limit = 1 << minCodeSize;
  keys.fill(-1);
  const out = new BitWriter(indexes.length >> 1);
  let size = minCodeSize + 1;
  let next = end + 1;
  out.write(clear, size);
  if (indexes.length === 0) {
    out.write(end, size);
    return out.finish().slice();
  }
  let prefix = indexes[0]!;
  if (prefix >= limit) throw new RangeError(`index ${prefix} does not fit ${minCodeSize} bits`);
  for (let i = 1; i < indexes.length; i++) {
    const k = indexes[i]!;
    if (k >= limit) throw new RangeError(`index ${k} does not fit ${minCodeSize} bits`);
    const key = (prefix << 8) | k;
    let slot = Math.imul(key, 0x9e3779b1) >>> 19;
    let found = -1;
    for (;;) {
      const at = keys[slot]!;
      if (at === key) {
        found = codes[slot]!;
        break;
      }
      if (at === -1) break;
      slot = (slot + 1) & (SLOTS - 1);
    }
    if (found >= 0) {
      prefix = found;
      continue;
    }
    out.write(prefix, size);
    if (next === MAX_CODES) {
      // Table full: start over (a decoder clears on the code, and reads the next at minCodeSize+1 bits).
      out.write(clear, size);
      keys.fill(-1);
      size = minCodeSize + 1;
      next = end + 1;
    } else {
      // The decoder adds this entry one code later, and widens once its next code needs the extra bit.
      if (next >= 1 << size) size++;
      keys[slot] = key;
      codes[slot] = next++;
    }
    prefix = k;
  }
  out.write(prefix, size);
  // The decoder has added an entry for the last code too: it may have widened before reading the end code.
  if (next < MAX_CODES && next >= 1 << size) size++;
  out.write(end, size);
  return out.finish().slice();
}
