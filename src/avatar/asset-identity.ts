// A deterministic identity of the assets a hotel renders from, for cache keys and ETags: when a hotel
// updates its figure data or libraries, images cached under the old identity are never served again (a
// restart picks the new identity up). Everything is hashed by content, not by modification time, so two
// instances serving copies of the same assets give the same ETags. Libraries are small (a real hotel's
// 2,000 figure libraries are about 70 MB), read one at a time: a few hundred milliseconds at start.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { sha256Hex } from '../util/hash.js';

export interface AssetFiles {
  /** Avatar documents (figure data, figure map, actions, geometry…): hashed by content. */
  documents: string[];
  /** Figure library files: hashed by content. */
  libraries: string[];
}

/** 16 hex digits; equal for equal files, different (with overwhelming odds) when any of them changed. */
export async function assetIdentity(files: AssetFiles): Promise<string> {
  const h = createHash('sha256');
  const docs = [...files.documents].sort();
  for (const file of docs) {
    const data = await readFile(file);
    h.update(`doc ${basename(file)} ${data.length}\n`).update(data).update('\n');
  }
  const libs = [...files.libraries].sort((a, b) => (basename(a) < basename(b) ? -1 : basename(a) > basename(b) ? 1 : 0));
  for (const file of libs) {
    const digest = sha256Hex(await readFile(file));
    h.update(`lib ${basename(file)} ${digest}\n`);
  }
  return h.digest('hex').slice(0, 16);
}
