// File system errors read as one sentence: the path, the cause in words, what to do (exit 1). The
// read-only cases run for real on a read-only tmpfs mounted in a private mount namespace (`unshare -m`
// as root, `unshare -Urm` otherwise); the permission cases on a folder the command's user cannot write
// (as root, the command runs as uid 65534 through `setpriv`, since root passes every permission check).
// The other causes (disk full, quota, a file in the way, too many open files) are errors injected into
// the helper, which is all they go through.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSampleKit } from '../../src/samplekit/index.js';
import { explainFsError, FileSystemError } from '../../src/util/fs-error.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const root = mkdtempSync(join(tmpdir(), 'hi-fs-errors-'));
const kit = join(root, 'kit');
const isRoot = process.getuid?.() === 0;
before(async () => {
  // Readable by the unprivileged user the permission cases run as.
  chmodSync(root, 0o755);
  await ensureSampleKit(kit);
});
after(() => rmSync(root, { recursive: true, force: true }));

const cli = ['--import', 'tsx', join(repo, 'src/cli/main.ts')];

function errnoError(code: string, syscall: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: some words, ${syscall} '${path}'`), { code, syscall, path, errno: -1 });
}

test('each cause in words with what to do, naming the flag whose folder it is', () => {
  const out = { folder: '/srv/corpus', what: 'the corpus folder', flag: '--out', env: 'HOTEL_IMAGER_BUILD_OUT' };
  const msg = (code: string, syscall: string, path: string) =>
    (explainFsError(errnoError(code, syscall, path), [out]) as Error).message;
  assert.equal(
    msg('ENOSPC', 'write', '/srv/corpus/.staging/furni-renders/a.png'),
    'cannot write /srv/corpus/.staging/furni-renders/a.png (the corpus folder, --out or HOTEL_IMAGER_BUILD_OUT): the disk is full (ENOSPC). Free some space on it, or give --out another folder on another disk.',
  );
  assert.equal(
    msg('EDQUOT', 'open', '/srv/corpus/corpus.json'),
    `cannot open /srv/corpus/corpus.json (the corpus folder, --out or HOTEL_IMAGER_BUILD_OUT): the disk quota of the user running hotel-imager (uid ${process.getuid!()}) is used up (EDQUOT). Free some space or raise the quota, or give --out another folder.`,
  );
  assert.equal(
    msg('EEXIST', 'mkdir', '/srv/corpus'),
    'cannot create the folder /srv/corpus (the corpus folder, --out or HOTEL_IMAGER_BUILD_OUT): a file is in the way (not a folder) (EEXIST). Remove it, or give --out another folder.',
  );
  assert.equal(
    msg('EMFILE', 'open', '/srv/corpus/x'),
    'cannot open /srv/corpus/x (the corpus folder, --out or HOTEL_IMAGER_BUILD_OUT): too many files are open (EMFILE). Raise the open-file limit (ulimit -n, or LimitNOFILE= in a systemd unit), or lower --jobs.',
  );
  // A path outside every named folder: the cause and what to do, no flag.
  assert.equal(
    (explainFsError(errnoError('ENOTDIR', 'open', '/etc/passwd/x'), [out]) as Error).message,
    'cannot open /etc/passwd/x: a part of the path is a file, not a folder (ENOTDIR). Remove or rename that file, or use another folder.',
  );
  // Not a file system error: passed through as it is.
  const other = new Error('boom');
  assert.equal(explainFsError(other, [out]), other);
  assert.ok(explainFsError(errnoError('EIO', 'read', '/x')) instanceof FileSystemError);
});

/** Runs `hotel-imager …` with `dir` made a read-only file system (in a mount namespace of its own); undefined when that cannot be done here. */
function onReadOnly(dir: string, args: string[]): { status: number | null; stderr: string } | undefined {
  mkdirSync(dir, { recursive: true });
  const inner = `mount -t tmpfs -o ro tmpfs "$0" && exec "${process.execPath}" "$@"`;
  const r = spawnSync('unshare', [...(isRoot ? ['-m'] : ['-Urm']), 'sh', '-c', inner, dir, ...cli, ...args], {
    cwd: repo,
    encoding: 'utf8',
  });
  if (r.error || /unshare: |mount: /.test(r.stderr)) return undefined;
  return r;
}

test('a read-only file system is named as such (Node says ENOENT for it): build --out, convert --to, sample-kit --out, serve avatar --cache-dir', (t) => {
  const ro = join(root, 'ro');
  const probe = onReadOnly(ro, ['--version']);
  if (probe?.status !== 0)
    return t.skip(
      `cannot mount a read-only tmpfs in a private mount namespace here (${probe?.stderr.trim() || 'unshare failed'})`,
    );
  const readOnly =
    /: the file system is read-only \(EROFS(; Node reported ENOENT)?\)\. Mount it read-write, or give (--out|--to|--cache-dir) another folder on a writable file system\.$/m;

  // The folder itself on the read-only mount, and a folder to create under it (Node's recursive mkdir reports ENOENT).
  const inPlace = onReadOnly(ro, ['build', '--assets', kit, '--out', ro, '--jobs', '1'])!;
  assert.equal(inPlace.status, 1, inPlace.stderr);
  assert.equal(
    inPlace.stderr,
    `cannot write into ${ro} (the corpus folder, --out or HOTEL_IMAGER_BUILD_OUT): the file system is read-only (EROFS). Mount it read-write, or give --out another folder on a writable file system.\n`,
  );
  const below = onReadOnly(ro, ['build', '--assets', kit, '--out', join(ro, 'corpus'), '--jobs', '1'])!;
  assert.equal(below.status, 1);
  assert.equal(
    below.stderr,
    `cannot create the folder ${join(ro, 'corpus')} (the corpus folder, --out or HOTEL_IMAGER_BUILD_OUT): the file system is read-only (EROFS; Node reported ENOENT). Mount it read-write, or give --out another folder on a writable file system.\n`,
  );

  for (const [args, flag] of [
    [['convert', '--from', kit, '--to', join(ro, 'nitro')], '--to'],
    [['sample-kit', '--out', join(ro, 'kit')], '--out'],
    [['serve', 'avatar', '--assets', kit, '--cache-dir', join(ro, 'cache'), '--port', '0'], '--cache-dir'],
  ] as const) {
    const r = onReadOnly(ro, [...args])!;
    assert.equal(r.status, 1, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, readOnly, args.join(' '));
    assert.ok(r.stderr.includes(`(${flag}`) || r.stderr.includes(`, ${flag} or`), r.stderr);
  }
});

test('a folder the user may not write: permission denied, the user, what to do (build --out, serve avatar --cache-dir)', (t) => {
  if (isRoot && spawnSync('setpriv', ['--version']).error)
    return t.skip('running as root without setpriv (util-linux) to run the command as another user');
  const locked = join(root, 'locked');
  mkdirSync(locked);
  // Root passes every permission check: the command runs as an unprivileged user instead.
  const run = (args: string[]) =>
    isRoot
      ? spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, ...cli, ...args], {
          cwd: repo,
          encoding: 'utf8',
          env: { ...process.env, HOME: root },
        })
      : spawnSync(process.execPath, [...cli, ...args], { cwd: repo, encoding: 'utf8' });
  chmodSync(locked, isRoot ? 0o755 : 0o555);
  const uid = isRoot ? 65534 : process.getuid!();
  const build = run(['build', '--assets', kit, '--out', join(locked, 'corpus'), '--jobs', '1']);
  assert.equal(build.status, 1, build.stderr);
  assert.equal(
    build.stderr,
    `cannot create the folder ${join(locked, 'corpus')} (the corpus folder, --out or HOTEL_IMAGER_BUILD_OUT): permission denied to the user running hotel-imager (uid ${uid}) (EACCES). Give that user access (chown or chmod ${locked}), run as the folder's owner, or give --out another folder.\n`,
  );
  // An existing folder it may not write into.
  writeFileSync(join(locked, 'placeholder'), '');
  const cache = run(['serve', 'avatar', '--assets', kit, '--cache-dir', locked, '--port', '0']);
  assert.equal(cache.status, 1, cache.stderr);
  assert.match(
    cache.stderr,
    new RegExp(
      `^cannot write into ${locked} \\(the disk image cache, --cache-dir or HOTEL_IMAGER_AVATAR_CACHE_DIR\\): permission denied to the user running hotel-imager \\(uid ${uid}\\) \\(EACCES\\)\\. `,
      'm',
    ),
  );
});

test('serve furni --corpus: a folder that does not exist, or a file, is exit 1 with what to do; an empty folder is served', async () => {
  const missing = join(root, 'no-such-corpus');
  const r = spawnSync(process.execPath, [...cli, 'serve', 'furni', '--corpus', missing, '--port', '0'], {
    cwd: repo,
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(r.status, 1, r.stderr);
  assert.equal(
    r.stderr,
    `the corpus folder ${missing} (--corpus or HOTEL_IMAGER_FURNI_CORPUS) does not exist. Fix the path, or build a corpus there first (hotel-imager build --assets DIR --out ${missing}); an existing empty folder is served as soon as a build finishes in it\n`,
  );
  const file = join(root, 'corpus-file');
  writeFileSync(file, '{}');
  const f = spawnSync(process.execPath, [...cli, 'serve', 'furni', '--port', '0'], {
    cwd: repo,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, HOTEL_IMAGER_FURNI_CORPUS: file },
  });
  assert.equal(f.status, 1, f.stderr);
  assert.match(f.stderr, /^the corpus .*corpus-file \(--corpus or HOTEL_IMAGER_FURNI_CORPUS\) is a file, not a folder/);

  // An existing folder with no corpus yet: the service runs and waits for a build there, as before.
  const empty = join(root, 'empty-corpus');
  mkdirSync(empty);
  const child = spawn(
    process.execPath,
    [...cli, 'serve', 'furni', '--corpus', empty, '--port', '0', '--host', '127.0.0.1'],
    { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  for (let i = 0; i < 600 && !log.includes('furni service listening'); i++) await new Promise((r) => setTimeout(r, 50));
  assert.match(log, /serving without a usable corpus/);
  assert.match(log, /furni service listening on /);
  child.kill('SIGTERM');
  assert.equal(await exited, 0, log);
});
