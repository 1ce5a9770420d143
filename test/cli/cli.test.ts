// The command line reads as one tool: every flag of every command lists its environment variable in
// --help; parallelism is --jobs and memory a byte-size budget everywhere, older names still accepted;
// bad values, from a flag or a variable, are refused in one sentence shape with exit 2; a command that
// fails exits 1 with a message naming what to fix (a missing file, a folder with no hotel, a port in use).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Command } from 'commander';
import { createProgram, reportError } from '../../src/cli/program.js';
import { avatarConfigFromFlags } from '../../src/cli/serve-avatar.js';
import { resolveOptions, option, OLDER_NAMES_HEADING } from '../../src/cli/options.js';
import { wholeNumber } from '../../src/settings/values.js';
import { ensureSampleKit } from '../../src/samplekit/index.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const root = mkdtempSync(join(tmpdir(), 'cli-one-tool-'));
const kit = join(root, 'kit');
after(() => rmSync(root, { recursive: true, force: true }));
before(async () => {
  await ensureSampleKit(kit);
});

interface Run {
  code: number;
  out: string;
  err: string;
}

/** The whole program in this process, as `hotel-imager …` with these variables set; its exit code. */
async function run(argv: string[], env: Record<string, string> = {}): Promise<Run> {
  let out = '';
  let err = '';
  const saved = new Map(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  const savedExit = process.exitCode;
  process.exitCode = undefined;
  let code: number;
  try {
    const program = createProgram({ writeOut: (t) => (out += t), writeErr: (t) => (err += t) });
    await program.parseAsync(['node', 'hotel-imager', ...argv]);
    code = Number(process.exitCode ?? 0);
  } catch (e) {
    code = reportError(e, (t) => (err += t));
  } finally {
    process.exitCode = savedExit;
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  return { code, out, err };
}

function commandsWithOptions(cmd: Command, path: string[] = []): [string, Command][] {
  return cmd.commands.flatMap((c) => {
    const p = [...path, c.name()];
    return [...(c.options.length > 0 ? [[p.join(' '), c] as [string, Command]] : []), ...commandsWithOptions(c, p)];
  });
}

test('--help of every command lists an environment variable for every flag', () => {
  const program = createProgram();
  const commands = commandsWithOptions(program);
  assert.deepEqual(commands.map(([name]) => name).sort(), [
    'build',
    'convert',
    'publish',
    'sample-kit',
    'serve avatar',
    'serve furni',
    'start',
  ]);
  const names = new Map<string, string>();
  for (const [name, cmd] of commands) {
    cmd.configureHelp({ helpWidth: 10_000 });
    const help = cmd.helpInformation();
    let flags = 0;
    for (const o of cmd.options) {
      const line = help.split('\n').find((l) => l.trimStart().startsWith(o.flags));
      assert.ok(line, `${name}: ${o.flags} is in --help`);
      if (o.helpGroupHeading === OLDER_NAMES_HEADING) {
        // An older name points to the flag that replaced it (whose variable applies to both).
        assert.match(line, /older name of --[a-z-]+/, `${name} ${o.flags}`);
        continue;
      }
      flags++;
      assert.ok(o.envVar, `${name} ${o.flags} has an environment variable`);
      assert.match(line, new RegExp(`env: ${o.envVar}\\)`), `${name} ${o.flags}: --help shows ${o.envVar}`);
      assert.match(o.envVar, /^HOTEL_IMAGER_[A-Z0-9_]+$/, `${name} ${o.flags}`);
      // One variable means one setting: two commands share one only for the same flag (start's
      // --furni-port and --avatar-port are the services' --port).
      const flag = name === 'start' && (o.long === '--furni-port' || o.long === '--avatar-port') ? '--port' : o.long!;
      const before = names.get(o.envVar);
      assert.ok(before === undefined || before === flag, `${o.envVar} is ${before} elsewhere and ${flag} in ${name}`);
      names.set(o.envVar, flag);
    }
    assert.ok(flags > 0, name);
  }
});

test('one name for one idea: --jobs for parallelism, byte-size budgets for memory; older names still work', () => {
  const program = createProgram();
  const longs = (path: string) => {
    const cmd = commandsWithOptions(program).find(([n]) => n === path)![1];
    return cmd.options.filter((o) => o.helpGroupHeading !== OLDER_NAMES_HEADING).map((o) => o.long);
  };
  for (const path of ['build', 'convert', 'publish', 'serve avatar']) {
    assert.ok(longs(path).includes('--jobs'), `${path} --jobs`);
    assert.ok(!longs(path).includes('--concurrency') && !longs(path).includes('--workers'), path);
  }
  assert.ok(longs('serve avatar').includes('--memory-budget') && longs('serve furni').includes('--memory-budget'));
  const MiB = 1024 * 1024;
  // The same setting under each of its names and variables.
  assert.equal(avatarConfigFromFlags({ jobs: '3' }, {}).workers, 3);
  assert.equal(avatarConfigFromFlags({ workers: '3' }, {}).workers, 3);
  assert.equal(avatarConfigFromFlags({}, { HOTEL_IMAGER_AVATAR_JOBS: '3' }).workers, 3);
  assert.equal(avatarConfigFromFlags({}, { HOTEL_IMAGER_RENDER_WORKERS: '3' }).workers, 3);
  assert.equal(avatarConfigFromFlags({ memoryBudget: '64M' }, {}).memoryCacheBytes, 64 * MiB);
  assert.equal(avatarConfigFromFlags({ cacheMb: '64' }, {}).memoryCacheBytes, 64 * MiB, '--cache-mb is in MiB');
  assert.equal(avatarConfigFromFlags({}, { HOTEL_IMAGER_AVATAR_CACHE_MB: '64' }).memoryCacheBytes, 64 * MiB);
  assert.equal(avatarConfigFromFlags({}, { HOTEL_IMAGER_AVATAR_MEMORY_BUDGET: '1GiB' }).memoryCacheBytes, 1024 * MiB);
  assert.equal(avatarConfigFromFlags({ diskCacheMb: '10' }, {}).diskCacheBytes, 10 * MiB);
  assert.equal(avatarConfigFromFlags({ libraryBudget: '96M' }, {}).libraryCacheBytes, 96 * MiB);
  assert.equal(avatarConfigFromFlags({ libraryCacheMb: '96' }, {}).libraryCacheBytes, 96 * MiB);
  // Precedence: flag, older flag, variable, older variable, default.
  assert.equal(avatarConfigFromFlags({ workers: '2' }, { HOTEL_IMAGER_AVATAR_JOBS: '3' }).workers, 2);
  assert.equal(
    avatarConfigFromFlags({}, { HOTEL_IMAGER_AVATAR_JOBS: '3', HOTEL_IMAGER_RENDER_WORKERS: '4' }).workers,
    3,
  );
  assert.throws(
    () => avatarConfigFromFlags({ jobs: '2', workers: '3' }, {}),
    /^UsageError: --jobs and --workers are the same setting: give only --jobs$/,
  );
});

test('a list flag reads its variable as words', () => {
  const defs = {
    only: option<string[]>({ flag: '--only <classname...>', env: 'X_ONLY', help: '' }),
    n: option({ flag: '--n <n>', env: 'X_N', help: '', parse: wholeNumber(), default: 4 }),
  };
  assert.deepEqual(resolveOptions(defs, {}, { X_ONLY: 'a b,c' }), { only: ['a', 'b', 'c'], n: 4 });
  assert.deepEqual(resolveOptions(defs, { only: ['d'] }, { X_ONLY: 'a' }), { only: ['d'], n: 4 });
});

/** Each bad input: the exit code and the message a user reads. */
const USAGE = 2;
const FAILED = 1;

test('bad values, from a flag or a variable, exit 2 with "<name> must be <expected>, got "<value>""', async () => {
  const cases: [string[], Record<string, string>, RegExp][] = [
    [
      ['build', '--assets', kit, '--out', join(root, 'o'), '--jobs', '0'],
      {},
      /^error: --jobs must be a whole number ≥ 1, got "0"$/m,
    ],
    [
      ['build', '--assets', kit, '--out', join(root, 'o')],
      { HOTEL_IMAGER_BUILD_JOBS: 'many' },
      /^error: HOTEL_IMAGER_BUILD_JOBS must be a whole number ≥ 1, got "many"$/m,
    ],
    [
      ['build', '--assets', kit, '--out', join(root, 'o'), '--variants', 'some'],
      {},
      /^error: --variants must be one of all, animated, none, got "some"$/m,
    ],
    [
      ['convert', '--from', kit, '--to', join(root, 'c'), '--concurrency', '-1'],
      {},
      /^error: --concurrency must be a whole number ≥ 1, got "-1"$/m,
    ],
    [
      ['convert', '--from', kit, '--to', join(root, 'c'), '--jobs', '2', '--concurrency', '2'],
      {},
      /^error: --jobs and --concurrency are the same setting: give only --jobs$/m,
    ],
    [
      ['publish', '--corpus', kit, '--to', 'http://bucket/x'],
      {},
      /^error: --to must be an s3:\/\/BUCKET\/PREFIX address, got "http:\/\/bucket\/x"$/m,
    ],
    [
      ['publish', '--corpus', kit, '--to', 's3://bucket/x', '--grace', 'soon'],
      {},
      /^error: --grace must be a duration such as 0, 90s, 15m, 1h or 2d, got "soon"$/m,
    ],
    [
      ['serve', 'furni', '--corpus', kit, '--port', '70000'],
      {},
      /^error: --port must be a port number from 0 to 65535, got "70000"$/m,
    ],
    [
      ['serve', 'furni', '--corpus', kit],
      { HOTEL_IMAGER_FURNI_MEMORY_BUDGET: 'lots' },
      /^error: HOTEL_IMAGER_FURNI_MEMORY_BUDGET must be a size such as 268435456, 256M or 1GiB, got "lots"$/m,
    ],
    [
      ['serve', 'furni', '--corpus', kit],
      { HOTEL_IMAGER_FURNI_VARIANTS: 'maybe' },
      /^error: HOTEL_IMAGER_FURNI_VARIANTS must be true or false \(1\/0, yes\/no, on\/off\), got "maybe"$/m,
    ],
    [
      ['serve', 'avatar', '--memory-budget', 'lots'],
      {},
      /^error: --memory-budget must be a size such as 268435456, 256M or 1GiB, got "lots"$/m,
    ],
    [['serve', 'avatar', '--cache-mb', '1.5'], {}, /^error: --cache-mb must be a whole number of MiB, got "1.5"$/m],
    [
      ['serve', 'avatar'],
      { HOTEL_IMAGER_AVATAR_PORT: 'eighty' },
      /^error: HOTEL_IMAGER_AVATAR_PORT must be a port number from 0 to 65535, got "eighty"$/m,
    ],
    [
      ['serve', 'avatar', '--fallback-url', 'habbo.com'],
      {},
      /^error: --fallback-url must be an absolute http:\/\/ or https:\/\/ URL, e\.g\. https:\/\/www\.habbo\.com\/habbo-imaging\/avatarimage, got "habbo\.com"$/m,
    ],
    [
      ['serve', 'avatar', '--jobs', '4', '--library-budget', '2M'],
      {},
      /^error: the library cache \(2097152 bytes\) needs at least 1 MiB per render worker \(4 workers\)$/m,
    ],
    [
      ['sample-kit', '--out', join(root, 'k'), '--furni', '100000'],
      {},
      /^error: --furni must be a whole number from 0 to 99999, got "100000"$/m,
    ],
    [
      ['sample-kit', '--out', join(root, 'k'), '--layout', 'flash', '--contact-sheet', join(root, 's.png')],
      {},
      /^error: --contact-sheet reads \.nitro bundles/m,
    ],
    [['start', '--avatar-port', 'x'], {}, /^error: --avatar-port must be a port number from 0 to 65535, got "x"$/m],
    [
      ['build', '--assets', kit, '--out', join(root, 'o'), '--decode-budget', '10k'],
      {},
      /^error: --decode-budget must be a size of at least 1M, such as 64M or 1GiB, got "10k"$/m,
    ],
    [
      ['serve', 'avatar'],
      { HOTEL_IMAGER_DECODE_BUDGET: 'huge' },
      /^error: HOTEL_IMAGER_DECODE_BUDGET must be a size such as 268435456, 256M or 1GiB, got "huge"$/m,
    ],
    [
      ['convert', '--from', kit, '--to', join(root, 'c')],
      { HOTEL_IMAGER_FOLLOW_SYMLINKS: 'perhaps' },
      /^error: HOTEL_IMAGER_FOLLOW_SYMLINKS must be true or false \(1\/0, yes\/no, on\/off\), got "perhaps"$/m,
    ],
  ];
  for (const [argv, env, message] of cases) {
    const r = await run(argv, env);
    assert.equal(r.code, USAGE, `${argv.join(' ')} ${JSON.stringify(env)}: ${r.err}`);
    assert.match(r.err, message, argv.join(' '));
    assert.match(r.err, /add --help for every flag and its environment variable/);
  }
});

test('usage mistakes commander finds exit 2 too: unknown flag, missing flag, unknown command', async () => {
  const unknown = await run(['build', '--assets', kit, '--out', join(root, 'o'), '--frobnicate']);
  assert.equal(unknown.code, USAGE);
  assert.match(unknown.err, /unknown option '--frobnicate'/);
  const missing = await run(['build', '--out', join(root, 'o')]);
  assert.equal(missing.code, USAGE);
  assert.match(missing.err, /^error: --assets is required \(or HOTEL_IMAGER_BUILD_ASSETS\)$/m);
  // The variable is as good as the flag.
  const byVariable = await run(['convert', '--to', join(root, 'c')], {
    HOTEL_IMAGER_CONVERT_FROM: join(root, 'nowhere'),
  });
  assert.equal(byVariable.code, FAILED, 'past the usage check: the folder does not exist');
  const command = await run(['serve', 'badges']);
  assert.equal(command.code, USAGE);
  const version = await run(['--version']);
  assert.equal(version.code, 0);
  assert.equal(version.out.trim(), JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version);
});

test('a command that cannot do its work exits 1 naming what to fix', async () => {
  const empty = join(root, 'empty');
  mkdirSync(empty, { recursive: true });
  const furnidata = await run([
    'build',
    '--assets',
    kit,
    '--out',
    join(root, 'o'),
    '--furnidata',
    join(root, 'my-furnidata.json'),
  ]);
  assert.equal(furnidata.code, FAILED);
  assert.equal(furnidata.err, `the furnidata file ${join(root, 'my-furnidata.json')} does not exist\n`);
  const furniDir = await run(['build', '--assets', kit, '--out', join(root, 'o'), '--furni-dir', join(root, 'furni')]);
  assert.equal(furniDir.code, FAILED);
  assert.equal(furniDir.err, `the furni folder ${join(root, 'furni')} does not exist\n`);
  const noHotel = await run(['convert', '--from', empty, '--to', join(root, 'converted')]);
  assert.equal(noHotel.code, FAILED);
  assert.match(noHotel.err, new RegExp(`^no Flash-era hotel in ${empty}: expected gamedata/figuredata\\.xml`));
  // A Nitro folder given to convert: said so.
  const nitro = await run(['convert', '--from', kit, '--to', join(root, 'converted')]);
  assert.equal(nitro.code, FAILED);
  assert.match(nitro.err, /It looks like a Nitro layout already/);
});

async function holdPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as { port: number }).port, server };
}

test('a port in use: serve furni and serve avatar exit 1 naming the flag and the variable that move it', async () => {
  const held = await holdPort();
  try {
    // An existing folder with no corpus yet (one that does not exist is its own error, fs-errors.test.ts).
    mkdirSync(join(root, 'no-corpus'), { recursive: true });
    const furni = await run([
      'serve',
      'furni',
      '--corpus',
      join(root, 'no-corpus'),
      '--host',
      '127.0.0.1',
      '--port',
      String(held.port),
      '--log-level',
      'silent',
    ]);
    assert.equal(furni.code, FAILED);
    assert.match(
      furni.err,
      new RegExp(
        `^port ${held.port} \\(the furni service\\) is already in use by another program\\. Stop that program, or pick another port: hotel-imager serve furni --port <n> \\(or HOTEL_IMAGER_FURNI_PORT=<n>\\)$`,
        'm',
      ),
    );
    const avatar = await run(
      ['serve', 'avatar', '--assets', kit, '--host', '127.0.0.1', '--jobs', '1', '--log-level', 'silent'],
      { HOTEL_IMAGER_AVATAR_PORT: String(held.port) },
    );
    assert.equal(avatar.code, FAILED);
    assert.match(
      avatar.err,
      new RegExp(
        `^port ${held.port} \\(the avatar service\\) is already in use by another program\\. Stop that program, or pick another port: hotel-imager serve avatar --port <n> \\(or HOTEL_IMAGER_AVATAR_PORT=<n>\\)$`,
        'm',
      ),
    );
  } finally {
    held.server.close();
  }
});

test('the installed program: exit codes and messages through bin (main.ts)', () => {
  const cli = (args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', join(repo, 'src/cli/main.ts'), ...args], {
      cwd: repo,
      encoding: 'utf8',
    });
  const version = cli(['--version']);
  assert.equal(version.status, 0);
  assert.match(version.stdout, /^\d+\.\d+\.\d+/);
  const bad = cli(['serve', 'avatar', '--jobs', 'two']);
  assert.equal(bad.status, USAGE);
  assert.match(bad.stderr, /^error: --jobs must be a whole number ≥ 1, got "two"$/m);
  const failed = cli(['convert', '--from', join(root, 'nowhere'), '--to', join(root, 'x')]);
  assert.equal(failed.status, FAILED);
  assert.match(failed.stderr, /^not a folder: /);
});
