// The CBOR (RFC 8949) our furni bundle manifests use, written and read here so the package has no native
// or install-script dependency for it. The writer gives the exact bytes bundles have always had (they
// were written by cbor-x with { useRecords: false, mapsAsObjects: true }; a test compares the two on
// every sample kit bundle and on edge values): a map always has a 2-byte count (0xb9), integers use the
// shortest head up to 32 bits and float64 beyond (as does any non-integer), strings the shortest head.
// The reader takes any definite-length CBOR of plain values (maps with text keys as objects, byte strings
// as Uint8Array); indefinite lengths and tags are refused (no bundle has them).

export type CborValue =
  | null
  | undefined
  | boolean
  | number
  | string
  | Uint8Array
  | CborValue[]
  | { [key: string]: CborValue };

/** Encodes JSON-like values (plus undefined and Uint8Array) as CBOR. */
export function encodeCbor(value: unknown): Buffer {
  const w = new Writer();
  w.value(value);
  return w.result();
}

class Writer {
  private buf = Buffer.alloc(4096);
  private at = 0;

  result(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.at));
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const next = Buffer.alloc(Math.max(this.buf.length * 2, this.at + n));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }

  private byte(b: number): void {
    this.room(1);
    this.buf[this.at++] = b;
  }

  /** A head: major type and the shortest argument (up to 32 bits). */
  private head(major: number, n: number): void {
    const m = major << 5;
    this.room(5);
    if (n < 0x18) this.buf[this.at++] = m | n;
    else if (n < 0x100) {
      this.buf[this.at++] = m | 0x18;
      this.buf[this.at++] = n;
    } else if (n < 0x10000) {
      this.buf[this.at++] = m | 0x19;
      this.buf.writeUInt16BE(n, this.at);
      this.at += 2;
    } else {
      this.buf[this.at++] = m | 0x1a;
      this.buf.writeUInt32BE(n, this.at);
      this.at += 4;
    }
  }

  value(v: unknown): void {
    switch (typeof v) {
      case 'number':
        this.number(v);
        return;
      case 'string': {
        const bytes = Buffer.from(v, 'utf8');
        this.head(3, bytes.length);
        this.room(bytes.length);
        bytes.copy(this.buf, this.at);
        this.at += bytes.length;
        return;
      }
      case 'boolean':
        this.byte(v ? 0xf5 : 0xf4);
        return;
      case 'undefined':
        this.byte(0xf7);
        return;
      case 'object': {
        if (v === null) {
          this.byte(0xf6);
          return;
        }
        if (Array.isArray(v)) {
          this.head(4, v.length);
          for (const item of v) this.value(item);
          return;
        }
        if (v instanceof Uint8Array) {
          this.head(2, v.length);
          this.room(v.length);
          this.buf.set(v, this.at);
          this.at += v.length;
          return;
        }
        if (Object.getPrototypeOf(v) !== Object.prototype)
          throw new Error(`CBOR: cannot encode a ${v.constructor?.name ?? 'null-prototype object'}`);
        const entries = Object.entries(v as Record<string, unknown>);
        if (entries.length >= 0x10000) throw new Error(`CBOR: a map of ${entries.length} entries`);
        this.room(3);
        this.buf[this.at++] = 0xb9;
        this.buf.writeUInt16BE(entries.length, this.at);
        this.at += 2;
        for (const [k, item] of entries) {
          this.value(k);
          this.value(item);
        }
        return;
      }
      default:
        throw new Error(`CBOR: cannot encode a ${typeof v}`);
    }
  }

  private number(n: number): void {
    if (n >>> 0 === n) {
      this.head(0, n);
      return;
    }
    if (n >> 0 === n || (n < 0 && n >= -0x100000000 && Math.floor(n) === n)) {
      this.head(1, -1 - n);
      return;
    }
    this.room(9);
    this.buf[this.at++] = 0xfb;
    this.buf.writeDoubleBE(n, this.at);
    this.at += 8;
  }
}

/** Decodes one CBOR item that fills `bytes`; throws saying what and where when it is not that. */
export function decodeCbor(bytes: Uint8Array): CborValue {
  const r = new Reader(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const v = r.value(0);
  if (r.at !== bytes.length) throw new Error(`CBOR: ${bytes.length - r.at} bytes after the value, at ${r.at}`);
  return v;
}

const MAX_DEPTH = 256;

class Reader {
  at = 0;
  constructor(private readonly b: Buffer) {}

  private need(n: number): void {
    if (this.at + n > this.b.length) throw new Error(`CBOR: ends inside a value at byte ${this.at} (needs ${n} more)`);
  }

  private argument(info: number): number {
    if (info < 0x18) return info;
    const start = this.at;
    switch (info) {
      case 0x18:
        this.need(1);
        return this.b[this.at++]!;
      case 0x19:
        this.need(2);
        this.at += 2;
        return this.b.readUInt16BE(start);
      case 0x1a:
        this.need(4);
        this.at += 4;
        return this.b.readUInt32BE(start);
      case 0x1b: {
        this.need(8);
        this.at += 8;
        const big = this.b.readBigUInt64BE(start);
        if (big > BigInt(Number.MAX_SAFE_INTEGER))
          throw new Error(`CBOR: integer ${big} at byte ${start - 1} is past 2^53`);
        return Number(big);
      }
      default:
        throw new Error(
          `CBOR: ${info === 0x1f ? 'indefinite length' : `reserved additional info ${info}`} at byte ${this.at - 1}`,
        );
    }
  }

  value(depth: number): CborValue {
    if (depth > MAX_DEPTH) throw new Error(`CBOR: nested deeper than ${MAX_DEPTH}`);
    this.need(1);
    const at = this.at;
    const initial = this.b[this.at++]!;
    const major = initial >> 5;
    const info = initial & 0x1f;
    switch (major) {
      case 0:
        return this.argument(info);
      case 1:
        return -1 - this.argument(info);
      case 2: {
        const n = this.argument(info);
        this.need(n);
        const out = new Uint8Array(this.b.subarray(this.at, this.at + n));
        this.at += n;
        return out;
      }
      case 3: {
        const n = this.argument(info);
        this.need(n);
        const s = this.b.toString('utf8', this.at, this.at + n);
        this.at += n;
        return s;
      }
      case 4: {
        const n = this.argument(info);
        const out: CborValue[] = [];
        for (let i = 0; i < n; i++) out.push(this.value(depth + 1));
        return out;
      }
      case 5: {
        const n = this.argument(info);
        const out: Record<string, CborValue> = {};
        for (let i = 0; i < n; i++) {
          const keyAt = this.at;
          const key = this.value(depth + 1);
          if (typeof key !== 'string' && typeof key !== 'number')
            throw new Error(`CBOR: a map key at byte ${keyAt} is neither text nor a number`);
          const k = String(key);
          if (k === '__proto__') throw new Error(`CBOR: a map key "__proto__" at byte ${keyAt}`);
          out[k] = this.value(depth + 1);
        }
        return out;
      }
      case 6:
        throw new Error(`CBOR: a tag at byte ${at} (none is expected)`);
      default:
        return this.simple(info, at);
    }
  }

  private simple(info: number, at: number): CborValue {
    switch (info) {
      case 20:
        return false;
      case 21:
        return true;
      case 22:
        return null;
      case 23:
        return undefined;
      case 25: {
        this.need(2);
        const v = halfToNumber(this.b.readUInt16BE(this.at));
        this.at += 2;
        return v;
      }
      case 26: {
        this.need(4);
        const v = this.b.readFloatBE(this.at);
        this.at += 4;
        return v;
      }
      case 27: {
        this.need(8);
        const v = this.b.readDoubleBE(this.at);
        this.at += 8;
        return v;
      }
      default:
        throw new Error(
          `CBOR: simple value ${info} at byte ${at} is not one of false, true, null, undefined or a float`,
        );
    }
  }
}

function halfToNumber(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 0x1f) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}
