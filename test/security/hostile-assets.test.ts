// Hostile asset files (a furni or clothing pack from a forum may be broken or built to hurt): each is
// refused with a message naming the file, the part of it and the budget, the rest of the hotel keeps
// working, and the process stays small. Peak RSS is the VmHWM of a child process that did only that.
// The bombs inflate to 1 to 1.5 GB from 1 to 1.5 MB; reading them whole would need that much memory.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scanAvatarHotel } from '../../src/avatar/index.js';
import { runBuild } from '../../src/corpus/run.js';
import { setFollowOutsideLinks } from '../../src/hotel/files.js';
import { readNitroBundle, writeNitroBundle } from '../../src/formats/nitro-container.js';
import { writeSampleKit } from '../../src/samplekit/index.js';
import { bombNitroFile } from '../helpers/bombs.js';
import { freePort } from '../helpers/ports.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CHILD = join(repo, 'test/security/hostile-child.ts');
const MAIN = join(repo, 'src/cli/main.ts');
/** A reader child: Node + tsx (~95 MB) plus at most one decode budget (64 MiB) and slack. */
const READER_PEAK_MB = 300;
/** The avatar service on the sample kit, two render workers (about 250 MB measured), a bomb in its folder. */
const SERVICE_PEAK_MB = 400;
const RAISE = 'raise --decode-budget \\(HOTEL_IMAGER_DECODE_BUDGET\\) only if the file is genuine';

let scratch: string;
let kit: string;
before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'hostile-'));
  kit = join(scratch, 'kit');
  await writeSampleKit(kit);
});
after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

function runChild(args: string[]): { error?: string; result?: unknown; peakMb: number } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', CHILD, ...args], {
    cwd: repo,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(r.status, 0, `child ${args[0]} exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as { error?: string; result?: unknown; peakMb: number };
}

const REFUSALS: [scenario: string, reason: RegExp][] = [
  [
    'zlib-member',
    new RegExp(
      `^nitro bundle hair_U_kitbob\\.nitro: hair_U_kitbob\\.json inflated is over the decode budget \\(64 MiB a member\\); refused: ${RAISE} \\(at byte 26\\)$`,
    ),
  ],
  [
    'gzip-member',
    new RegExp(
      `^nitro bundle hair_U_kitbob\\.nitro: hair_U_kitbob\\.json inflated is over the decode budget \\(64 MiB a member\\); refused: ${RAISE}`,
    ),
  ],
  ['zlib-member-names', /^nitro bundle x\.nitro: x\.json inflated is over the decode budget \(64 MiB a member\)/],
  [
    'swf-declares-4gb',
    /^swf huge\.swf: its body of 4294967295 bytes \(the header's length\) is over the decode budget \(64 MiB a SWF\); refused/,
  ],
  [
    'swf-body-past-header',
    /^swf liar\.swf: compressed body: inflates past the 1024 KiB its header gives; refused \(at byte 8\)$/,
  ],
  ['swf-bitmap-bomb', /^swf bitmap\.swf: bitmap 100x100: inflates past the 39\.1 KiB its header gives; refused/],
  [
    'png-60000-spritesheet',
    /^nitro bundle big\.nitro: spritesheet big\.png does not decode: PNG 60000x60000 is over the decode budget \(16777216 pixels an image\); refused/,
  ],
  ['png-60000-native', /^the image is over the decode budget \(16777216 pixels an image\); refused/],
  [
    'gif-60000-badge-part',
    /^badge part image badgepart_huge\.gif: does not decode: the image is over the decode budget \(16777216 pixels an image\)/,
  ],
  [
    'many-members',
    /^nitro bundle many\.nitro: its count of 65535 files is over the decode budget \(1024 files a bundle\); refused: no real asset library comes near it \(at byte 0\)$/,
  ],
  [
    'many-tags',
    /^swf many\.swf: its tag count \(more than 50000\) is over the decode budget \(50000 assets a library\); refused/,
  ],
  [
    'many-assets',
    /^nitro bundle many\.nitro: many\.json with 100000 assets, aliases and frames is over the decode budget \(50000 a library\); refused/,
  ],
  [
    'member-name-escapes',
    /^nitro bundle escape\.nitro: file 1 of 1, named "\.\.\/\.\.\/x" is refused: it holds a path separator \(\/ or \\\); a name inside an asset file must stay inside its folder/,
  ],
];

for (const [scenario, reason] of REFUSALS) {
  test(`hostile file (${scenario}): refused with the named reason, peak RSS under ${READER_PEAK_MB} MB`, (t) => {
    const r = runChild([scenario]);
    t.diagnostic(`peak RSS ${r.peakMb} MB: ${r.error}`);
    assert.equal(r.result, undefined, 'the reader refused it');
    assert.match(r.error!, reason);
    assert.ok(r.peakMb < READER_PEAK_MB, `peak RSS ${r.peakMb} MB`);
  });
}

test('the same readers read a real-sized good library (control)', async (t) => {
  const file = join(kit, 'bundled', 'figure', 'hh_human_body.nitro');
  const r = runChild(['good', file]);
  t.diagnostic(`peak RSS ${r.peakMb} MB`);
  assert.equal(r.error, undefined);
  assert.deepEqual(r.result && (r.result as { name: string }).name, 'hh_human_body');
});

/** `hotel-imager serve avatar` on `dir` in a child; resolves when it answers /healthz. */
async function serveAvatar(
  dir: string,
  extra: string[] = [],
): Promise<{ child: ChildProcess; base: string; listenMs: number; listenCpuMs: number; peakMb: () => number }> {
  const port = await freePort();
  const t0 = Date.now();
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      MAIN,
      'serve',
      'avatar',
      '--assets',
      dir,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--jobs',
      '2',
      '--log-level',
      'warn',
      ...extra,
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) assert.fail(`serve avatar exited ${child.exitCode}: ${stderr}`);
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() - t0 > 60_000) assert.fail(`serve avatar did not listen in 60 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const listenMs = Date.now() - t0;
  // CPU the process (every thread) used until it listened: the wall clock also counts other programs on a busy machine.
  const [utime, stime] = readFileSync(`/proc/${child.pid}/stat`, 'utf8')
    .split(') ')[1]!
    .split(' ')
    .slice(11, 13)
    .map(Number);
  const listenCpuMs = ((utime! + stime!) * 1000) / 100;
  const peakMb = () =>
    Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024);
  return { child, base, listenMs, listenCpuMs, peakMb };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await done;
}

const status = async (base: string, figure: string) =>
  (await fetch(`${base}/avatar.png?figure=${figure}&size=m`, { redirect: 'manual' })).status;
const FIG = 'hd-180-1.ch-210-66.lg-270-82.sh-290-80';
/** hr-115 is drawn from hair_U_kitbob, hr-100 from another library. */
const BOB = `${FIG}.hr-115-61`;
const OTHER = `${FIG}.hr-100-61`;

interface Health {
  assets: {
    libraries: { broken: { library: string; file: string; error: string }[] };
    reload: { checks: number; reloadFailures: number; lastError: { message: string } | null };
  };
}
const health = async (base: string) => (await (await fetch(`${base}/healthz`)).json()) as Health;

test(`serve avatar with the issue's bomb (1.5 MB → 1.5 GB) in a figure library: listens within 10 s of CPU, names it on /healthz, renders the rest, peak RSS under ${SERVICE_PEAK_MB} MB`, async (t) => {
  const dir = join(scratch, 'bomb-at-start');
  await cp(kit, dir, { recursive: true });
  bombNitroFile(join(dir, 'bundled', 'figure', 'hair_U_kitbob.nitro'));
  const s = await serveAvatar(dir);
  try {
    t.diagnostic(`listening after ${s.listenMs} ms, ${s.listenCpuMs} ms of CPU`);
    assert.ok(s.listenCpuMs < 10_000, `listened after ${s.listenCpuMs} ms of CPU (${s.listenMs} ms)`);
    const broken = (await health(s.base)).assets.libraries.broken;
    assert.equal(broken.length, 1);
    assert.equal(broken[0]!.library, 'hair_U_kitbob');
    assert.match(
      broken[0]!.error,
      /hair_U_kitbob\.nitro: hair_U_kitbob\.json inflated is over the decode budget \(64 MiB a member\)/,
    );
    assert.equal(await status(s.base, OTHER), 200, 'the other figures render');
    assert.equal(await status(s.base, BOB), 302, 'the bombed one falls back');
    assert.equal(await status(s.base, `${BOB}&direction=3`), 302, 'again, without inflating it again');
    const peak = s.peakMb();
    t.diagnostic(`peak RSS ${peak} MB`);
    assert.ok(peak < SERVICE_PEAK_MB, `peak RSS ${peak} MB`);
  } finally {
    await stop(s.child);
  }
});

test(`reload: the bomb copied into a live hotel is refused at scan time, once, with the reason on /healthz; the old hotel keeps serving; peak RSS under ${SERVICE_PEAK_MB} MB`, async (t) => {
  const dir = join(scratch, 'bomb-on-reload');
  await cp(kit, dir, { recursive: true });
  const s = await serveAvatar(dir, ['--check-interval', '100']);
  try {
    assert.equal(await status(s.base, BOB), 200, 'hair_U_kitbob is read once while good');
    const lib = join(dir, 'bundled', 'figure', 'hair_U_kitbob.nitro');
    const staged = join(scratch, 'staged.nitro');
    await writeFile(staged, await readFile(lib));
    bombNitroFile(staged);
    await rename(staged, lib);
    const t0 = Date.now();
    while ((await health(s.base)).assets.reload.reloadFailures === 0) {
      if (Date.now() - t0 > 30_000) assert.fail('the reload was not refused in 30 s');
      await new Promise((r) => setTimeout(r, 50));
    }
    const h = await health(s.base);
    assert.match(
      h.assets.reload.lastError!.message,
      /1 library does not read: nitro bundle .*hair_U_kitbob\.nitro: hair_U_kitbob\.json inflated is over the decode budget \(64 MiB a member\)/,
    );
    assert.equal(
      await status(s.base, `${BOB}&direction=4`),
      200,
      'the old hotel keeps serving, its library from memory',
    );
    assert.equal(await status(s.base, `${OTHER}&direction=4`), 200);
    const checks = h.assets.reload.checks;
    while ((await health(s.base)).assets.reload.checks < checks + 5) await new Promise((r) => setTimeout(r, 50));
    assert.equal((await health(s.base)).assets.reload.reloadFailures, 1, 'the same folder is not read again');
    const peak = s.peakMb();
    t.diagnostic(`peak RSS ${peak} MB`);
    assert.ok(peak < SERVICE_PEAK_MB, `peak RSS ${peak} MB`);
  } finally {
    await stop(s.child);
  }
});

test('build: a bomb bundle and a classname naming ../ among good furni: the build finishes, reports both, the rest is built, peak RSS near a clean build', async (t) => {
  const dir = join(scratch, 'furni-bomb');
  await cp(kit, dir, { recursive: true });
  bombNitroFile(join(dir, 'bundled', 'furniture', 'kit_chair_4dir.nitro'));
  const dataFile = join(dir, 'gamedata', 'FurnitureData.json');
  const data = JSON.parse(await readFile(dataFile, 'utf8')) as {
    roomitemtypes: { furnitype: { classname: string; id: number }[] };
  };
  const rows = data.roomitemtypes.furnitype;
  rows.push({ ...(rows.find((r) => r.classname === 'kit_crate') ?? rows[0]!), classname: '../../evil', id: 999_999 });
  await writeFile(dataFile, JSON.stringify(data));

  const clean = runChild(['build', kit, join(scratch, 'out-clean')]);
  const bombed = runChild(['build', dir, join(scratch, 'out-bomb')]);
  t.diagnostic(`peak RSS: clean build ${clean.peakMb} MB, with the bomb ${bombed.peakMb} MB`);
  assert.equal(bombed.error, undefined);
  const cleanReport = clean.result as {
    counts: { ok: number; failed: number };
    items: Record<string, { status: string; reason?: string }>;
  };
  const report = bombed.result as typeof cleanReport;
  assert.equal(report.items['kit_chair_4dir']!.status, 'failed');
  assert.match(
    report.items['kit_chair_4dir']!.reason!,
    /kit_chair_4dir\.nitro: kit_chair_4dir\.json inflated is over the decode budget \(64 MiB a member\)/,
  );
  assert.equal(report.items['../../evil']!.status, 'skipped');
  assert.match(
    report.items['../../evil']!.reason!,
    /^classname "\.\.\/\.\.\/evil" is refused: it holds a path separator/,
  );
  assert.equal(report.counts.ok, cleanReport.counts.ok - 1, 'every other item built');
  // One bomb costs at most one budget (64 MiB) over a clean build.
  assert.ok(bombed.peakMb < clean.peakMb + 100, `peak RSS ${bombed.peakMb} MB against ${clean.peakMb} MB`);
});

/** `hotel-imager build --only kit_crate` of `dir` into `scratch/out` (exit 0 expected): kit_crate's build-report entry. */
function buildKitCrate(dir: string, out: string, extra: string[]): { status: string; reason?: string } {
  const args = ['--import', 'tsx', MAIN, 'build', '--assets', dir, '--out', join(scratch, out), '--only', 'kit_crate'];
  const r = spawnSync(process.execPath, [...args, ...extra], { cwd: repo, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(readFileSync(join(scratch, out, 'build-report.json'), 'utf8')) as {
    items: Record<string, { status: string; reason?: string }>;
  };
  return report.items['kit_crate']!;
}

test('a symbolic link out of the asset folder is refused by the commands unless --follow-symlinks, by name; the rest of the hotel reads', async () => {
  const dir = join(scratch, 'linked');
  const outside = join(scratch, 'outside');
  await cp(kit, dir, { recursive: true });
  await mkdir(outside, { recursive: true });
  for (const [folder, name] of [
    ['figure', 'hair_U_kitbob'],
    ['furniture', 'kit_crate'],
  ]) {
    const file = join(dir, 'bundled', folder, `${name}.nitro`);
    await rename(file, join(outside, `${name}.nitro`));
    await symlink(join(outside, `${name}.nitro`), file);
  }
  // A link that stays inside the folder is fine.
  await symlink('hair_U_kitmohawk.nitro', join(dir, 'bundled', 'figure', 'hair_U_kitlinked.nitro'));

  // What build, convert and serve avatar set without --follow-symlinks (the library API follows links).
  setFollowOutsideLinks(false);
  const snap = await scanAvatarHotel(dir);
  assert.deepEqual(
    snap.sources.problems.map((p) => p.library),
    ['hair_U_kitbob'],
  );
  assert.equal(
    snap.sources.problems[0]!.error,
    `cannot read: ${join(dir, 'bundled', 'figure', 'hair_U_kitbob.nitro')} is a symbolic link to ${join(outside, 'hair_U_kitbob.nitro')}, outside the folder ${dir}: refused; --follow-symlinks (HOTEL_IMAGER_FOLLOW_SYMLINKS) follows such links`,
  );
  const built = await runBuild({
    assets: dir,
    out: join(scratch, 'out-linked'),
    jobs: 1,
    only: ['kit_crate', 'kit_table_sd'],
    now: () => new Date(0),
  });
  assert.equal(built.report.items['kit_crate']!.status, 'failed');
  assert.match(
    built.report.items['kit_crate']!.reason!,
    /kit_crate\.nitro is a symbolic link to .*outside the folder .*--follow-symlinks \(HOTEL_IMAGER_FOLLOW_SYMLINKS\) follows such links$/,
  );
  assert.equal(built.report.items['kit_table_sd']!.status, 'ok');

  setFollowOutsideLinks(true);
  assert.deepEqual((await scanAvatarHotel(dir)).sources.problems, [], 'followed when the operator says so');
  const again = await runBuild({
    assets: dir,
    out: join(scratch, 'out-linked'),
    jobs: 1,
    only: ['kit_crate'],
    now: () => new Date(0),
  });
  assert.equal(again.report.items['kit_crate']!.status, 'ok');

  // The command line: refused by default, followed with the flag.
  const cli = (out: string, extra: string[]) => buildKitCrate(dir, out, ['--jobs', '1', ...extra]);
  assert.match(cli('out-cli-default', []).reason!, /kit_crate\.nitro is a symbolic link to .*outside the folder/);
  assert.equal(cli('out-cli-follow', ['--follow-symlinks']).status, 'ok');
});

test('--decode-budget reaches the build worker threads: a 2 MiB JSON member is refused at 1M and built at the default', async () => {
  const dir = join(scratch, 'padded');
  await cp(kit, dir, { recursive: true });
  const file = join(dir, 'bundled', 'furniture', 'kit_crate.nitro');
  const members = [...readNitroBundle(await readFile(file), file)].map(([n, b]): [string, Buffer] => [
    n,
    n.endsWith('.json') ? Buffer.concat([b, Buffer.alloc(2 * 1024 * 1024, 0x20)]) : b,
  ]);
  await writeFile(file, writeNitroBundle(members));
  const build = (out: string, extra: string[]) => buildKitCrate(dir, out, ['--jobs', '2', ...extra]);
  const small = build('out-small', ['--decode-budget', '1M']);
  assert.equal(small.status, 'failed');
  assert.match(
    small.reason!,
    /kit_crate\.nitro: kit_crate\.json inflated is over the decode budget \(1 MiB a member\)/,
  );
  assert.equal(build('out-default', []).status, 'ok');
});
