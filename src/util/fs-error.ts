// File system errors in words: the path, the cause (read-only file system, permission, missing
// folder, disk full, …) and what to do, instead of Node's bare `EACCES: permission denied, mkdir …`.
// Every command that reads or writes a folder the user named passes its errors through here.
//
// Node's recursive mkdir reports ENOENT for the folder it was making when the real cause is another
// one it does not handle itself (EROFS: libuv stats the folder after the failed mkdir and returns the
// stat's ENOENT). An ENOENT from mkdir whose nearest existing ancestor is a folder is therefore asked
// again with access(2), which gives the true cause.
import { accessSync, constants, statSync } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';

/** A folder a setting names: an error on a path inside it is reported as that setting's. */
export interface FsPathSetting {
  folder: string;
  /** What the folder is to the user: 'the corpus folder'. */
  what: string;
  /** The flag and its variable: '--out', 'HOTEL_IMAGER_BUILD_OUT'. */
  flag?: string;
  env?: string;
}

/** A file system error explained: the message says the path, the cause and what to do. */
export class FileSystemError extends Error {
  readonly code: string;
  readonly path: string | undefined;
  constructor(message: string, code: string, path: string | undefined, cause: unknown) {
    super(message, { cause });
    this.name = 'FileSystemError';
    this.code = code;
    this.path = path;
  }
}

/** An error from a Node file system call (it has an errno code and the call's name). */
export function isFsError(e: unknown): e is NodeJS.ErrnoException & { code: string; syscall: string } {
  const x = e as NodeJS.ErrnoException | undefined;
  return typeof x?.code === 'string' && /^E[A-Z0-9]+$/.test(x.code) && typeof x.syscall === 'string';
}

const ACTIONS: Record<string, string> = {
  mkdir: 'create the folder',
  open: 'open',
  read: 'read',
  write: 'write',
  rename: 'rename a file into',
  unlink: 'remove',
  rmdir: 'remove the folder',
  rm: 'remove',
  scandir: 'list the folder',
  opendir: 'list the folder',
  stat: 'look at',
  lstat: 'look at',
  access: 'write into',
  copyfile: 'copy to',
  utime: 'set the time of',
  chmod: 'change the mode of',
  symlink: 'link',
  link: 'link',
};

/** The nearest existing ancestor of `path`, or undefined. */
function existingAncestor(path: string): string | undefined {
  for (let p = dirname(path); ; p = dirname(p)) {
    if (statSync(p, { throwIfNoEntry: false })) return p;
    if (dirname(p) === p) return undefined;
  }
}

/** The code that describes the error: Node's recursive mkdir hides some causes behind ENOENT. */
function trueCode(e: NodeJS.ErrnoException & { code: string; syscall: string }): string {
  if (e.code !== 'ENOENT' || e.syscall !== 'mkdir' || !e.path) return e.code;
  const above = existingAncestor(resolve(e.path));
  if (!above) return e.code;
  if (!statSync(above).isDirectory()) return 'ENOTDIR';
  try {
    accessSync(above, constants.W_OK);
  } catch (a) {
    if (isFsError(a)) return a.code;
  }
  return e.code;
}

const within = (path: string, folder: string) =>
  path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);

function settingFor(path: string | undefined, settings: FsPathSetting[]): FsPathSetting | undefined {
  if (!path) return undefined;
  const p = resolve(path);
  let best: FsPathSetting | undefined;
  for (const s of settings) {
    const f = resolve(s.folder);
    // Inside the folder, or a folder on the way to it (a parent it could not create).
    const related = within(p, f) || within(f, p);
    if (related && (!best || f.length > resolve(best.folder).length)) best = s;
  }
  return best;
}

const uid = () => (process.getuid ? ` (uid ${process.getuid()})` : '');

/**
 * The error in words, or `e` itself when it is not a file system error. `settings` name the folders
 * the command was given, so the message can say which flag to change.
 */
export function explainFsError(e: unknown, settings: FsPathSetting[] = []): unknown {
  // Explained further down already: said again with the settings the caller knows.
  if (e instanceof FileSystemError)
    return settings.length > 0 && isFsError(e.cause) ? explainFsError(e.cause, settings) : e;
  if (!isFsError(e)) return e;
  const code = trueCode(e);
  const path = e.path;
  const s = settingFor(path, settings);
  const named = s ? ` (${s.what}${s.flag ? `, ${s.flag}${s.env ? ` or ${s.env}` : ''}` : ''})` : '';
  const elsewhere = s?.flag ? `give ${s.flag} another folder` : 'use another folder';
  const action = ACTIONS[e.syscall] ?? e.syscall;
  const dest = (e as { dest?: string }).dest;
  const target = path ? `${path}${dest ? ` → ${dest}` : ''}` : '';
  let cause: string;
  let todo: string;
  switch (code) {
    case 'EROFS':
      cause = 'the file system is read-only';
      todo = `Mount it read-write, or ${elsewhere} on a writable file system`;
      break;
    case 'EACCES':
    case 'EPERM':
      cause = `permission denied to the user running hotel-imager${uid()}`;
      todo =
        `Give that user access (chown or ` +
        `chmod${path ? ` ${e.syscall === 'mkdir' ? dirname(path) : path}` : ''}), run as the folder's owner, ` +
        `or ${elsewhere}`;
      break;
    case 'ENOENT':
      if (e.syscall === 'mkdir' || e.syscall === 'open' || e.syscall === 'rename' || e.syscall === 'copyfile') {
        cause = path
          ? `it, or its parent folder ${dirname(path)}, does not exist`
          : 'a folder on the way does not exist';
        todo = s?.flag
          ? `Check the path given to ${s.flag}, or create the parent folder first`
          : 'Check the path, or create the parent folder first';
      } else {
        cause = 'it does not exist';
        todo = s?.flag ? `Check the path given to ${s.flag}` : 'Check the path';
      }
      break;
    case 'ENOTDIR':
      cause = 'a part of the path is a file, not a folder';
      todo = `Remove or rename that file, or ${elsewhere}`;
      break;
    case 'EISDIR':
      cause = 'it is a folder where a file was expected';
      todo = 'Name a file, not a folder';
      break;
    case 'ENOSPC':
      cause = 'the disk is full';
      todo = `Free some space on it, or ${elsewhere} on another disk`;
      break;
    case 'EDQUOT':
      cause = `the disk quota of the user running hotel-imager${uid()} is used up`;
      todo = `Free some space or raise the quota, or ${elsewhere}`;
      break;
    case 'EMFILE':
    case 'ENFILE':
      cause = 'too many files are open';
      todo = 'Raise the open-file limit (ulimit -n, or LimitNOFILE= in a systemd unit), or lower --jobs';
      break;
    case 'EIO':
      cause = 'the device reported an input/output error';
      todo = 'Check the disk (dmesg) and the mount';
      break;
    case 'EEXIST':
      cause = e.syscall === 'mkdir' ? 'a file is in the way (not a folder)' : 'something else already exists there';
      todo = `Remove it, or ${elsewhere}`;
      break;
    case 'ENOTEMPTY':
      cause = 'the folder is not empty';
      todo = `Empty or remove it, or ${elsewhere}`;
      break;
    case 'ENAMETOOLONG':
      cause = 'the path is too long';
      todo = `Use a shorter path`;
      break;
    case 'ELOOP':
      cause = 'its symbolic links go round in a circle';
      todo = 'Fix the symbolic links';
      break;
    case 'EBUSY':
      cause = 'it is busy (a mount point, or in use by another program)';
      todo = `Stop what holds it, or ${elsewhere}`;
      break;
    default:
      cause = e.message.replace(/^[A-Z0-9]+: /, '').replace(/, \w+ '.*'$/, '');
      todo = s?.flag ? `Check ${s.flag} and the disk` : 'Check the path and the disk';
  }
  const shown = code === e.code ? code : `${code}; Node reported ${e.code}`;
  return new FileSystemError(`cannot ${action} ${target}${named}: ${cause} (${shown}). ${todo}.`, code, path, e);
}

/**
 * A folder the command will write into: created if missing (with its parents), then checked for
 * writing, so a read-only or foreign folder is reported before any work starts. Errors are explained.
 */
export async function prepareWritableFolder(setting: FsPathSetting): Promise<void> {
  try {
    await mkdir(setting.folder, { recursive: true });
    await access(setting.folder, constants.W_OK);
  } catch (e) {
    throw explainFsError(e, [setting]);
  }
}
