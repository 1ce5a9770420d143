// Child process of hostile-assets.test.ts: builds one hostile file, hands it to the reader a hotel's
// files go through, and prints one JSON line: the error the reader gave (or what it read) and the peak
// RSS of this process (VmHWM from /proc/self/status). One scenario per process, so the peak is its own.
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { readAssetLibrary, readAssetNames } from '../../src/formats/asset-library.js';
import { readBadgePartImage } from '../../src/formats/badge-parts.js';
import { readNitroBundle } from '../../src/formats/nitro-container.js';
import { readSwf } from '../../src/formats/swf/reader.js';
import { runBuild } from '../../src/corpus/run.js';
import { decodeImageNative } from '../../src/imaging/codec.js';
import { gzipBomb, rawBundle, zlibBomb } from '../helpers/bombs.js';

/** A SWF (`FWS`, or `CWS` with its body deflated, or a body given as is) of `tags`; `declared` overrides the header's length. */
function swf(tags: Buffer[], opts: { compress?: 'zlib'; body?: Buffer; declared?: number } = {}): Buffer {
  const body = Buffer.concat([Buffer.from([0x00, 0x00, 0x18, 0x01, 0x00]), ...tags, Buffer.from([0, 0])]);
  const head = Buffer.alloc(8);
  head.write(opts.compress ? 'CWS' : 'FWS', 0, 'latin1');
  head[3] = 10;
  head.writeUInt32LE(opts.declared ?? 8 + body.length, 4);
  if (opts.body) return Buffer.concat([head, opts.body]);
  return Buffer.concat([head, opts.compress ? deflateSync(body) : body]);
}

function tag(code: number, body: Buffer): Buffer {
  const h = Buffer.alloc(6);
  h.writeUInt16LE((code << 6) | 0x3f, 0);
  h.writeUInt32LE(body.length, 2);
  return Buffer.concat([h, body]);
}

/** A PNG header (signature + IHDR) claiming `width` × `height`, with a tiny IDAT. */
function pngHeader(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, 'latin1');
    data.copy(out, 8);
    return out; // the CRC is left zero: the size is refused before any check of it
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(16))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const libraryJson = (name: string, extra: object = {}) => Buffer.from(JSON.stringify({ name, assets: {}, ...extra }));

const scenarios: Record<string, () => Promise<unknown>> = {
  // 1.5 MB that inflates to 1.5 GB: the bomb, as a library's JSON member.
  'zlib-member': () => readAssetLibrary(rawBundle([['hair_U_kitbob.json', zlibBomb(1536)]]), 'hair_U_kitbob.nitro'),
  'gzip-member': () => readAssetLibrary(rawBundle([['hair_U_kitbob.json', gzipBomb(1024)]]), 'hair_U_kitbob.nitro'),
  // Only the names are wanted (the avatar scan): the image member is skipped, the JSON one still capped.
  'zlib-member-names': async () => readAssetNames(rawBundle([['x.json', zlibBomb(1536)]]), 'x.nitro'),
  'swf-declares-4gb': () =>
    readSwf(swf([], { compress: 'zlib', declared: 0xffffffff, body: zlibBomb(1024) }), 'huge.swf'),
  // A header saying 1 MiB over a body that inflates to 1 GiB: inflating stops at what the header said.
  'swf-body-past-header': () =>
    readSwf(swf([], { compress: 'zlib', declared: 1024 * 1024, body: zlibBomb(1024) }), 'liar.swf'),
  // DefineBitsLossless2 of 100 × 100 whose pixel data inflates to 1 GiB.
  'swf-bitmap-bomb': () => {
    const body = Buffer.concat([Buffer.from([1, 0, 5, 100, 0, 100, 0]), zlibBomb(1024)]);
    return readSwf(swf([tag(36, body)]), 'bitmap.swf');
  },
  // A spritesheet whose header claims 60,000 × 60,000 (14.4 GB of RGBA): in-thread decode, libvips decode, a badge part.
  'png-60000-spritesheet': () => {
    const json = libraryJson('big', {
      spritesheet: { frames: { big_a: { frame: { x: 0, y: 0, w: 1, h: 1 } } }, meta: { image: 'big.png' } },
    });
    return readAssetLibrary(
      rawBundle([
        ['big.json', deflateSync(json)],
        ['big.png', deflateSync(pngHeader(60000, 60000))],
      ]),
      'big.nitro',
    );
  },
  'png-60000-native': () => decodeImageNative(pngHeader(60000, 60000)),
  'gif-60000-badge-part': () => {
    // GIF87a, logical screen and one image of 60,000 × 60,000: libvips reads the size from the header.
    const g = Buffer.alloc(13 + 10 + 4);
    g.write('GIF87a', 0, 'latin1');
    g.writeUInt16LE(60000, 6);
    g.writeUInt16LE(60000, 8);
    g[13] = 0x2c;
    g.writeUInt16LE(60000, 18);
    g.writeUInt16LE(60000, 20);
    Buffer.from([0x02, 0x00, 0x3b, 0x00]).copy(g, 23);
    return readBadgePartImage(g, 'badgepart_huge.gif');
  },
  // The most a .nitro can declare (65,535 tiny members), a SWF of 100,000 tiny tags, a JSON of 100,000 assets.
  'many-members': async () => {
    const tiny = deflateSync(Buffer.from('{}'));
    return readNitroBundle(
      rawBundle(Array.from({ length: 65535 }, (_v, i): [string, Uint8Array] => [`m${i}.json`, tiny])),
      'many.nitro',
    );
  },
  'many-tags': () =>
    readSwf(
      swf(Array.from({ length: 100_000 }, (_v, i) => tag(87, Buffer.from([i & 0xff, i >> 8, 0, 0, 0, 0])))),
      'many.swf',
    ),
  'many-assets': () => {
    const assets = Object.fromEntries(Array.from({ length: 100_000 }, (_v, i) => [`a${i}`, { x: 0, y: 0 }]));
    return readAssetLibrary(rawBundle([['many.json', deflateSync(libraryJson('many', { assets }))]]), 'many.nitro');
  },
  'member-name-escapes': async () =>
    readNitroBundle(rawBundle([['../../x', deflateSync(Buffer.from('{}'))]]), 'escape.nitro'),
  // `build` of a furni folder (argv: assets, out), 2 worker threads: what its report says of each item.
  build: async () => {
    const s = await runBuild({ assets: process.argv[3]!, out: process.argv[4]!, jobs: 2, now: () => new Date(0) });
    return { counts: s.report.counts, items: s.report.items };
  },
  // A good library, read with the same code: the control.
  good: () =>
    readAssetLibrary(readFileSync(process.argv[3]!), process.argv[3]!).then((l) => ({
      name: l.name,
      sprites: l.sprites.size,
    })),
};

function peakMb(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return Math.round(Number(m![1]) / 1024);
}

const name = process.argv[2]!;
const run = scenarios[name];
if (!run) throw new Error(`no scenario ${name}`);
let out: { error?: string; result?: unknown };
try {
  const r = await run();
  out = { result: name === 'good' || name === 'build' ? r : 'read' };
} catch (e) {
  out = { error: (e as Error).message };
}
process.stdout.write(JSON.stringify({ ...out, peakMb: peakMb() }) + '\n');
