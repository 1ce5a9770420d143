// Names read from inside a hotel's files (bundle members, classnames, library and symbol names) become
// file names in `build` and `convert`. A hostile file could name `../../x` or `/etc/x` to write outside
// the output folder, so such a name is refused wherever one is read or written: it must stay one plain
// entry of the folder it lands in.

/** Why `name` cannot be a file name inside its folder, or undefined when it can. */
export function unsafeNameReason(name: string): string | undefined {
  if (name === '') return 'it is empty';
  if (name.includes('\0')) return 'it holds a NUL byte';
  if (name.includes('/') || name.includes('\\')) return 'it holds a path separator (/ or \\)';
  if (name.includes('..')) return 'it holds ".." (a parent folder)';
  if (/^[a-z]:/i.test(name)) return 'it starts with a drive letter';
  return undefined;
}

/** The sentence refusing a name: `what` says where it was found ("member", "classname"). */
export function unsafeNameMessage(what: string, name: string, reason: string): string {
  return (
    `${what} ${JSON.stringify(name)} is refused: ${reason}; a name inside an asset file must stay inside its ` +
    `folder`
  );
}
