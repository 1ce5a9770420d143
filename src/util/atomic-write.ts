// The one atomic file write: a temporary name in the same directory, then rename. A reader (the server, a
// killed build's rerun) sees either the previous file or the new one, never a torn one.
import { mkdir, rename, writeFile, unlink } from 'node:fs/promises';
import { mkdirSync, renameSync, writeFileSync, unlinkSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** A temporary name beside `path`: `.name.<pid>.<random>.tmp` (see `isTempName`). */
function tempName(dir: string, path: string): string {
  return join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/** `knownDirs` remembers directories already created by this caller (a cache writes many files per folder). */
export async function writeFileAtomic(path: string, data: Uint8Array | string, knownDirs?: Set<string>): Promise<void> {
  const dir = dirname(path);
  if (!knownDirs?.has(dir)) {
    await mkdir(dir, { recursive: true });
    knownDirs?.add(dir);
  }
  const tmp = tempName(dir, path);
  try {
    await writeFile(tmp, data);
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}

/** Temporary names left by a killed build; safe to delete on the next run. */
export function isTempName(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}

/**
 * The same, synchronously: worker threads write thousands of small files, and a sync write skips the
 * thread-pool round trips. `knownDirs` remembers directories already created by this caller.
 */
export function writeFileAtomicSync(path: string, data: Uint8Array | string, knownDirs?: Set<string>): void {
  const dir = dirname(path);
  if (!knownDirs?.has(dir)) {
    mkdirSync(dir, { recursive: true });
    knownDirs?.add(dir);
  }
  const tmp = tempName(dir, path);
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
    throw e;
  }
}
