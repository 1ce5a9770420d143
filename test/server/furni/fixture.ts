// Writes a corpus folder the way the build pipeline lays it out: files plus a corpus.json listing each
// file's real size and sha256. Lets the server tests run without the pipeline or any real data.
import { sha256Hex } from '../../../src/util/hash.js';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export interface CorpusFixtureOptions {
  builtAt?: string;
  rendererVersion?: string;
  /** Extra corpus.json entries that have no file on disk (or whose bytes differ), keyed by path. */
  listedOnly?: Record<string, { size: number; sha256: string }>;
}

export const sha256 = sha256Hex;

/** corpus.json text for the given files (sorted by path, counts taken from the layout). */
export function corpusJson(files: Record<string, Buffer>, opts: CorpusFixtureOptions = {}): string {
  const listed: Record<string, { size: number; sha256: string }> = { ...opts.listedOnly };
  for (const [path, data] of Object.entries(files)) listed[path] = { size: data.length, sha256: sha256(data) };
  const keys = Object.keys(listed).sort();
  const count = (prefix: string) => keys.filter((k) => k.startsWith(prefix)).length;
  return (
    JSON.stringify(
      {
        format: 1,
        rendererVersion: opts.rendererVersion ?? 'fixture-1',
        builtAt: opts.builtAt ?? '2026-01-01T00:00:00.000Z',
        counts: { renders: count('furni-renders/'), icons: count('catalog-thumbs/'), bundles: count('hof_furni/') },
        files: Object.fromEntries(keys.map((k) => [k, listed[k]])),
      },
      null,
      2,
    ) + '\n'
  );
}

export async function writeCorpusFixture(
  dir: string,
  files: Record<string, Buffer>,
  opts: CorpusFixtureOptions = {},
): Promise<void> {
  for (const [path, data] of Object.entries(files)) {
    const target = join(dir, ...path.split('/'));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, data);
  }
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'corpus.json'), corpusJson(files, opts));
}

/** Deterministic bytes that start like a PNG, `size` long, different per seed. */
export function fakePng(seed: number, size = 600): Buffer {
  const buf = Buffer.alloc(size);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(buf);
  let x = (seed * 2654435761) >>> 0 || 1;
  for (let i = 8; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    buf[i] = x & 0xff;
  }
  return buf;
}
