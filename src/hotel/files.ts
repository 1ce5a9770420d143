// File-system probes the hotel readers share.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

export async function isDir(p: string): Promise<boolean> {
  return stat(p).then((s) => s.isDirectory(), () => false);
}
export async function isFile(p: string): Promise<boolean> {
  return stat(p).then((s) => s.isFile(), () => false);
}

/** `*.swf` files of a folder (symlinks followed), sorted. */
export async function listSwfs(dir: string): Promise<string[]> {
  if (!(await isDir(dir))) return [];
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (!e.name.toLowerCase().endsWith('.swf')) continue;
    if (e.isFile() || (e.isSymbolicLink() && (await isFile(join(dir, e.name))))) out.push(join(dir, e.name));
  }
  return out.sort();
}
