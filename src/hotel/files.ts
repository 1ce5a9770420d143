// File-system probes the hotel readers share.
import { readdirSync, statSync, type Stats } from 'node:fs';
import { readFile, readdir, realpath, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { decodeBudget, describeBytes, overBudget } from '../imaging/decode-budget.js';
import { sha256Hex } from '../util/hash.js';

// Symbolic links in an asset folder that lead out of it are not followed by the commands unless the
// operator says so (`--follow-symlinks`): asset folders are filled from downloaded packs, and an archive
// can carry a link to a secret (which `build` would publish in a public corpus, or an error would quote),
// to a device such as /dev/zero, or to another hotel's files. Links inside the folder (a release folder
// pointing at a shared one) are always fine; a whole hotel kept on another disk is named as the folder
// itself. The library API keeps following them (its caller names its own paths, as tests do); each
// command sets the policy from its flag.
let followOutsideLinks = true;

/** Sets this process's policy: follow links that leave the asset folder (the commands' --follow-symlinks). */
export function setFollowOutsideLinks(follow: boolean): void {
  followOutsideLinks = follow;
}

/**
 * Runs `work` with the policy set to `follow`, then puts back the one before (a command run inside a longer-lived
 * process).
 */
export async function withOutsideLinks<T>(follow: boolean, work: () => Promise<T>): Promise<T> {
  const before = followOutsideLinks;
  followOutsideLinks = follow;
  try {
    return await work();
  } finally {
    followOutsideLinks = before;
  }
}

export const FOLLOW_SYMLINKS_SETTING = '--follow-symlinks (HOTEL_IMAGER_FOLLOW_SYMLINKS)';

/**
 * Throws when `file` resolves (through symbolic links) to a place outside the folder `root`, unless links out are
 * followed.
 */
export async function checkInsideFolder(file: string, root: string): Promise<void> {
  if (followOutsideLinks) return;
  const [real, realRoot] = await Promise.all([realpath(file), realpath(root)]);
  if (real === realRoot || real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)) return;
  throw new Error(
    `${file} is a symbolic link to ${real}, outside the folder ${resolve(root)}: refused; ${FOLLOW_SYMLINKS_SETTING} ` +
      `follows such links`,
  );
}

/**
 * Reads a hotel file whole: refused when it leads outside `root` (see above) or when it is larger than
 * the decode budget (a document or library is parsed whole; none real comes near it).
 */
export async function readAssetFile(file: string, root: string): Promise<Buffer> {
  await checkInsideFolder(file, root);
  const { size } = await stat(file);
  const { bytes } = decodeBudget();
  if (size > bytes) throw new Error(`${file}: ${overBudget(`its ${size} bytes`, `${describeBytes(bytes)} a file`)}`);
  return readFile(file);
}

export async function isDir(p: string): Promise<boolean> {
  return stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
export async function isFile(p: string): Promise<boolean> {
  return stat(p).then(
    (s) => s.isFile(),
    () => false,
  );
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

/** A path to watch: a file, or a folder whose entries count too (`depth` folders down; 0 = its own entries). */
export interface WatchedPath {
  path: string;
  depth?: number;
}

/** Entries stat'ed between two turns of the event loop in `pathsSignature`. */
const SIGNATURE_BATCH = 64;

/** One path's line of a signature: type, size, modification time and inode, or that it is absent. */
function signatureLine(path: string, st: Stats | undefined): string {
  return st ? `${path}\0${st.isDirectory() ? 'd' : 'f'}\0${st.size}\0${st.mtimeMs}\0${st.ino}\n` : `${path}\0-\n`;
}

/**
 * A signature of paths without reading a file: for each path (and each entry of a watched folder, in name
 * order) its type, size, modification time and inode, or that it is absent. Equal signatures on two
 * looks in a row mean nobody is writing there. The stats are synchronous, in batches of
 * `SIGNATURE_BATCH` with a turn of the event loop between: a promise and a thread-pool hop per file cost
 * the service ~50 ms of CPU per look at 2,250 files (2.5 % of a core at a 2 s interval), the synchronous
 * calls a fraction of that, and no batch holds the event loop for more than a fraction of a millisecond.
 */
export async function pathsSignature(paths: readonly WatchedPath[]): Promise<string> {
  const lines: string[] = [];
  let sinceYield = 0;
  const look = async (path: string): Promise<Stats | undefined> => {
    if (++sinceYield >= SIGNATURE_BATCH) {
      sinceYield = 0;
      await new Promise<void>((done) => setImmediate(done));
    }
    let st: Stats | undefined;
    try {
      st = statSync(path, { throwIfNoEntry: false });
    } catch {
      // Unreadable (permissions, a loop of symlinks): as absent, as the asynchronous stat's rejection was.
    }
    lines.push(signatureLine(path, st));
    return st;
  };
  const folder = async (dir: string, depth: number): Promise<void> => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    entries.sort();
    const dirs: string[] = [];
    for (const e of entries) {
      const p = join(dir, e);
      if ((await look(p))?.isDirectory()) dirs.push(p);
    }
    if (depth > 0) for (const d of dirs) await folder(d, depth - 1);
  };
  for (const { path, depth } of paths) {
    const st = await look(path);
    if (st?.isDirectory() && depth !== undefined) await folder(path, depth);
  }
  return sha256Hex(lines.join(''));
}
