// A cheap, deterministic identity of the assets a hotel renders from, for cache keys and ETags: when a
// hotel updates its figure data or libraries, images cached under the old identity are never served
// again (a restart picks the new identity up). The avatar documents are hashed by content (they are
// small); library files by name, size and modification time (reading 2,000+ libraries would make the
// start slow), so a library replaced in place with the same size and mtime goes unnoticed.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';

export interface AssetFiles {
  /** Avatar documents (figure data, figure map, actions, geometry…): hashed by content. */
  documents: string[];
  /** Figure library files: listed by name, size and modification time. */
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
  const stats = await Promise.all(libs.map((f) => stat(f)));
  libs.forEach((file, i) => {
    const st = stats[i]!;
    h.update(`lib ${basename(file)} ${st.size} ${Math.floor(st.mtimeMs)}\n`);
  });
  return h.digest('hex').slice(0, 16);
}
