// SWF container reader: header (FWS / CWS zlib / ZWS LZMA), tag stream, and the tags Habbo asset
// libraries use — bitmaps, binary data (the XML documents) and the symbol class table. Pure: bytes in.
import { decompressSync as lzmaDecompress } from '@napi-rs/lzma/lzma';
import { type RgbaImage } from '../../imaging/image.js';
import { SwfFormatError } from './swf-error.js';
import { decodeBudget, describeBytes, overBudget } from '../../imaging/decode-budget.js';
import {
  TAG_DEFINE_BITS_JPEG2,
  TAG_DEFINE_BITS_JPEG3,
  TAG_DEFINE_BITS_LOSSLESS,
  TAG_DEFINE_BITS_LOSSLESS2,
  decodeJpegTag,
  decodeLossless,
  inflateOrThrow,
} from './bitmaps.js';

export const TAG_END = 0;
export const TAG_SYMBOL_CLASS = 76;
export const TAG_DEFINE_BINARY_DATA = 87;

export interface SwfSymbol {
  id: number;
  name: string;
}

export interface SwfDocument {
  file: string;
  /** `F`, `C` or `Z` — how the body was stored. */
  compression: 'none' | 'zlib' | 'lzma';
  version: number;
  frameRate: number;
  frameCount: number;
  /** Bitmaps by character id, decoded to straight RGBA. */
  images: Map<number, RgbaImage>;
  /** DefineBinaryData payloads by character id. */
  binaries: Map<number, Buffer>;
  /** SymbolClass entries in file order; one id may appear with several names (aliases). */
  symbols: SwfSymbol[];
}

export interface SwfTag {
  code: number;
  /** Offset of the tag header in the uncompressed file. */
  offset: number;
  /** Offset of the body in the uncompressed file. */
  bodyOffset: number;
  body: Buffer;
}

/** Decompresses a SWF into the plain `FWS` byte layout (header + body), validating the header. */
export function uncompressSwf(
  input: Uint8Array,
  file = '<buffer>',
): { data: Buffer; compression: SwfDocument['compression'] } {
  const buf = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  if (buf.length < 8) throw new SwfFormatError(file, `file too short for a SWF header (${buf.length} bytes)`, 0);
  const sig = buf.toString('latin1', 0, 3);
  const declared = buf.readUInt32LE(4);
  if (sig !== 'FWS' && sig !== 'CWS' && sig !== 'ZWS') {
    throw new SwfFormatError(file, `not a SWF file (signature ${JSON.stringify(sig)})`, 0);
  }
  if (declared < 8) throw new SwfFormatError(file, `implausible file length ${declared} in header`, 4);
  // The header's length is checked against the budget before anything is allocated for it.
  const { bytes: budget } = decodeBudget();
  if (declared > budget)
    throw new SwfFormatError(
      file,
      overBudget(`its body of ${declared} bytes (the header's length)`, `${describeBytes(budget)} a SWF`),
      4,
    );
  if (sig === 'FWS') {
    if (buf.length < declared)
      throw new SwfFormatError(file, `truncated: header says ${declared} bytes, file has ${buf.length}`, buf.length);
    return { data: buf.subarray(0, declared), compression: 'none' };
  }
  let body: Buffer;
  if (sig === 'CWS') {
    body = inflateOrThrow(buf.subarray(8), file, 8, 'compressed body', declared - 8);
  } else {
    // ZWS: u32 compressed length at 8, 5 LZMA property bytes at 12, data from 17. The decoder wants the
    // LZMA-alone layout: properties + u64 LE uncompressed size + data.
    if (buf.length < 17) throw new SwfFormatError(file, 'truncated LZMA header', buf.length);
    const alone = Buffer.alloc(13 + buf.length - 17);
    buf.copy(alone, 0, 12, 17);
    alone.writeBigUInt64LE(BigInt(declared - 8), 5);
    buf.copy(alone, 13, 17);
    try {
      body = lzmaDecompress(alone);
    } catch (e) {
      throw new SwfFormatError(file, `bad LZMA stream (${(e as Error).message})`, 17);
    }
  }
  if (body.length !== declared - 8) {
    throw new SwfFormatError(
      file,
      `truncated: decompressed body is ${body.length} bytes, header says ${declared - 8}`,
      8,
    );
  }
  const data = Buffer.alloc(declared);
  data.write('FWS', 0, 'latin1');
  data[3] = buf[3]!;
  data.writeUInt32LE(declared, 4);
  body.copy(data, 8);
  return { data, compression: sig === 'CWS' ? 'zlib' : 'lzma' };
}

/** Splits the uncompressed SWF into tags; stops at the End tag or the end of the data. */
export function readSwfTags(
  data: Buffer,
  file = '<buffer>',
): { version: number; frameRate: number; frameCount: number; tags: SwfTag[] } {
  const version = data[3]!;
  if (data.length < 9) throw new SwfFormatError(file, 'truncated before the frame rectangle', data.length);
  const nbits = data[8]! >> 3;
  const rectBytes = Math.ceil((5 + nbits * 4) / 8);
  let pos = 8 + rectBytes;
  if (pos + 4 > data.length) throw new SwfFormatError(file, 'truncated in the movie header', data.length);
  const frameRate = data.readUInt16LE(pos) / 256;
  const frameCount = data.readUInt16LE(pos + 2);
  pos += 4;
  const tags: SwfTag[] = [];
  const { assets } = decodeBudget();
  while (pos < data.length) {
    const offset = pos;
    if (tags.length >= assets)
      throw new SwfFormatError(
        file,
        overBudget(`its tag count (more than ${assets})`, `${assets} assets a library`, true),
        offset,
      );
    if (pos + 2 > data.length) throw new SwfFormatError(file, 'truncated tag header', pos);
    const head = data.readUInt16LE(pos);
    pos += 2;
    const code = head >> 6;
    let len = head & 0x3f;
    if (len === 0x3f) {
      if (pos + 4 > data.length) throw new SwfFormatError(file, `truncated long header of tag ${code}`, offset);
      len = data.readUInt32LE(pos);
      pos += 4;
    }
    if (pos + len > data.length) {
      throw new SwfFormatError(
        file,
        `tag ${code} claims ${len} bytes, past the end of the file (${data.length - pos} left)`,
        offset,
      );
    }
    if (code === TAG_END) break;
    tags.push({ code, offset, bodyOffset: pos, body: data.subarray(pos, pos + len) });
    pos += len;
  }
  return { version, frameRate, frameCount, tags };
}

/** Reads a SWF: decompresses it, walks the tags and decodes the ones asset libraries use. */
/** `images: false` skips decoding bitmaps (for reading only a library's documents, e.g. at hotel load). */
export async function readSwf(
  input: Uint8Array,
  file = '<buffer>',
  opts: { images?: boolean } = {},
): Promise<SwfDocument> {
  const wantImages = opts.images !== false;
  const { data, compression } = uncompressSwf(input, file);
  const { version, frameRate, frameCount, tags } = readSwfTags(data, file);
  const images = new Map<number, RgbaImage>();
  const binaries = new Map<number, Buffer>();
  const symbols: SwfSymbol[] = [];
  const pending: Promise<void>[] = [];
  for (const tag of tags) {
    const { code, body, bodyOffset } = tag;
    const needId = () => {
      if (body.length < 2) throw new SwfFormatError(file, `tag ${code} too short for a character id`, tag.offset);
      return body.readUInt16LE(0);
    };
    switch (code) {
      case TAG_DEFINE_BITS_LOSSLESS:
      case TAG_DEFINE_BITS_LOSSLESS2: {
        const id = needId();
        if (wantImages) images.set(id, decodeLossless(code, body.subarray(2), file, bodyOffset + 2));
        break;
      }
      case TAG_DEFINE_BITS_JPEG2:
      case TAG_DEFINE_BITS_JPEG3: {
        const id = needId();
        if (wantImages)
          pending.push(
            decodeJpegTag(code, body.subarray(2), file, bodyOffset + 2).then((img) => void images.set(id, img)),
          );
        break;
      }
      case TAG_DEFINE_BINARY_DATA: {
        const id = needId();
        if (body.length < 6) throw new SwfFormatError(file, 'DefineBinaryData too short', tag.offset);
        binaries.set(id, body.subarray(6));
        break;
      }
      case TAG_SYMBOL_CLASS:
        symbols.push(...readSymbolClass(body, file, bodyOffset));
        if (symbols.length > decodeBudget().assets)
          throw new SwfFormatError(
            file,
            overBudget(`its ${symbols.length} symbols`, `${decodeBudget().assets} assets a library`, true),
            tag.offset,
          );
        break;
      default:
        break; // shapes, sprites, frames, scripts: not needed for asset libraries
    }
  }
  await Promise.all(pending);
  return { file, compression, version, frameRate, frameCount, images, binaries, symbols };
}

function readSymbolClass(body: Buffer, file: string, offset: number): SwfSymbol[] {
  if (body.length < 2) throw new SwfFormatError(file, 'SymbolClass too short', offset);
  const count = body.readUInt16LE(0);
  const out: SwfSymbol[] = [];
  let pos = 2;
  for (let i = 0; i < count; i++) {
    if (pos + 2 > body.length)
      throw new SwfFormatError(file, `SymbolClass entry ${i} of ${count} runs past the tag`, offset + pos);
    const id = body.readUInt16LE(pos);
    pos += 2;
    const end = body.indexOf(0, pos);
    if (end < 0) throw new SwfFormatError(file, `SymbolClass name ${i} is not terminated`, offset + pos);
    out.push({ id, name: body.toString('utf8', pos, end) });
    pos = end + 1;
  }
  return out;
}

/**
 * Resolves the symbol table the way the Flash runtime and nitro-converter do: each character id gets the
 * first name that names it (its class); later names of the same id are aliases of that class.
 * `documentClass` is the name bound to id 0 (the library's own class), when present.
 */
export function resolveSymbols(symbols: SwfSymbol[]): {
  documentClass?: string;
  classOf: Map<number, string>;
  idOf: Map<string, number>;
  aliasOf: Map<string, string>;
} {
  const classOf = new Map<number, string>();
  const idOf = new Map<string, number>();
  const aliasOf = new Map<string, string>();
  let documentClass: string | undefined;
  for (const { id, name } of symbols) {
    if (id === 0) {
      documentClass ??= name;
      continue;
    }
    if (!idOf.has(name)) idOf.set(name, id);
    const cls = classOf.get(id);
    if (cls === undefined) classOf.set(id, name);
    else if (cls !== name && !aliasOf.has(name)) aliasOf.set(name, cls);
  }
  return { documentClass, classOf, idOf, aliasOf };
}
