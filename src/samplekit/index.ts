// The built-in sample kit: our own procedurally drawn hotel in the Nitro layout (figure gamedata and
// libraries from ./avatar, group badge parts and their table from ./badge, the room visualization from
// ./room, furnidata and furni bundles from ./furni, a pet library from ./pet, the demo room). Both services use
// it as their default assets; most tests use it as their fixture.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type KitFile } from './kit-file.js';
import { avatarKitFiles } from './avatar/index.js';
import { type FurniKitOptions, furniKitStream } from './furni/index.js';
import { flashKitStream } from './flash/index.js';
import { badgeKitFiles } from './badge/index.js';
import { demoRoomFiles } from './demo-room.js';
import { petKitFiles } from './pet/index.js';
import { roomKitFiles } from './room/index.js';

export type { KitFile } from './kit-file.js';

export interface SampleKitOptions extends FurniKitOptions {
  /** `nitro` (default): gamedata/*.json + bundled/**.nitro. `flash`: XML gamedata + gordon/ and hof_furni/ SWFs. */
  layout?: KitLayout;
}

export type KitLayout = 'nitro' | 'flash';

export const KIT_STAMP = 'kit.json';

/** The stamp written beside the kit; `ensureSampleKit` compares it to decide whether to rebuild. */
export interface KitStamp {
  format: 1;
  generatorVersion: string;
  options: { extraFurni: number };
  files: number;
  /** sha256 over every file's path, length and bytes, in kit order. */
  contentHash: string;
}

/**
 * Every kit file in a fixed order: avatar files, badge files, the room visualization, then the furnidata, then
 * furni files (bundles, or SWFs for the Flash layout); in the Nitro layout then the pet library and the demo room.
 */
export async function* sampleKitStream(opts: SampleKitOptions = {}): AsyncGenerator<KitFile> {
  if (opts.layout === 'flash') {
    yield* flashKitStream(opts);
    return;
  }
  for (const f of await avatarKitFiles()) yield f;
  for (const f of await badgeKitFiles('nitro')) yield f;
  for (const f of await roomKitFiles()) yield f;
  yield* furniKitStream(opts);
  for (const f of await petKitFiles()) yield f;
  yield* demoRoomFiles();
}

export async function buildSampleKit(opts: SampleKitOptions = {}): Promise<KitFile[]> {
  const out: KitFile[] = [];
  for await (const f of sampleKitStream(opts)) out.push(f);
  return out;
}

/**
 * A hash of the generator's own source (this folder plus the writers it depends on): any change to
 * how the kit is drawn or encoded changes it, so a stale kit on disk is noticed without a manual bump.
 */
export function generatorVersion(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const h = createHash('sha256');
  const files: string[] = [];
  const walk = (dir: string) => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const d of entries) {
      const p = join(dir, d.name);
      if (d.isDirectory()) walk(p);
      else if (/\.(ts|js)$/.test(d.name) && !d.name.endsWith('.d.ts')) files.push(p);
    }
  };
  walk(here);
  for (const dep of [
    '../formats/asset-library',
    '../formats/nitro-container',
    '../formats/swf/writer',
    '../imaging/codec',
    '../imaging/image',
    '../imaging/composite',
    '../imaging/gif',
    '../formats/gif',
    '../formats/gif-lzw',
    '../imaging/png-compact',
  ]) {
    for (const ext of ['.ts', '.js']) {
      const p = resolve(here, dep + ext);
      if (existsSync(p)) files.push(p);
    }
  }
  for (const p of files) {
    h.update(p.slice(here.length));
    h.update('\0');
    h.update(readFileSync(p));
  }
  return h.digest('hex').slice(0, 32);
}

function normaliseOptions(opts: SampleKitOptions): { extraFurni: number } {
  return { extraFurni: opts.extraFurni ?? 0 };
}

/**
 * Writes the kit to `dir` atomically: into a temporary sibling folder first, then renamed into place,
 * so a reader never sees half a kit. Returns the stamp written as `kit.json`.
 */
export async function writeSampleKit(dir: string, opts: SampleKitOptions = {}): Promise<KitStamp> {
  return writeKitFrom(dir, opts, sampleKitStream(opts), layoutVersion(opts));
}

/** The Flash kit is another set of files from the same generator: its stamp must never match the Nitro kit's. */
function layoutVersion(opts: SampleKitOptions): string {
  return opts.layout === 'flash' ? `${generatorVersion()}+flash` : generatorVersion();
}

/** The writer behind `writeSampleKit`, for any stream of kit files (tests use the furni half alone). */
export async function writeKitFrom(
  dir: string,
  opts: SampleKitOptions,
  files: AsyncIterable<KitFile>,
  version: string,
): Promise<KitStamp> {
  const target = resolve(dir);
  await refuseForeignTarget(target);
  await mkdir(dirname(target), { recursive: true });
  const tmp = `${target}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    const hash = createHash('sha256');
    let count = 0;
    const made = new Set<string>();
    for await (const f of files) {
      const p = join(tmp, f.path);
      const parent = dirname(p);
      if (!made.has(parent)) {
        await mkdir(parent, { recursive: true });
        made.add(parent);
      }
      await writeFile(p, f.data);
      hash.update(`${f.path}\0${f.data.length}\0`);
      hash.update(f.data);
      count++;
    }
    const stamp: KitStamp = {
      format: 1,
      generatorVersion: version,
      options: normaliseOptions(opts),
      files: count,
      contentHash: hash.digest('hex'),
    };
    await writeFile(join(tmp, KIT_STAMP), JSON.stringify(stamp, null, 2) + '\n');
    await swapInto(tmp, target);
    return stamp;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** The kit replaces its folder as a whole, so it must never be pointed at a folder of other files. */
async function refuseForeignTarget(target: string): Promise<void> {
  let entries: string[];
  try {
    const s = await stat(target);
    if (!s.isDirectory()) throw new Error(`cannot write the sample kit to ${target}: it is a file, not a folder`);
    entries = await readdir(target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  if (entries.length > 0 && !entries.includes(KIT_STAMP)) {
    throw new Error(
      `refusing to replace ${target}: it is not empty and holds no ${KIT_STAMP}, so it is not a sample kit`,
    );
  }
}

async function swapInto(tmp: string, target: string): Promise<void> {
  try {
    await rename(tmp, target);
    return;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'EISDIR' && code !== 'ENOTDIR') throw e;
  }
  // Something is at the target: move it aside, move ours in, then delete the old one.
  const old = `${target}.old-${process.pid}-${Math.random().toString(36).slice(2)}`;
  await rename(target, old);
  try {
    await rename(tmp, target);
  } catch (e) {
    await rename(old, target).catch(() => undefined);
    throw e;
  }
  await rm(old, { recursive: true, force: true });
}

/** The stamp of the kit in `dir`, or null when there is none or it does not parse. */
export async function readKitStamp(dir: string): Promise<KitStamp | null> {
  try {
    const s = JSON.parse(await readFile(join(dir, KIT_STAMP), 'utf8')) as KitStamp;
    return s && s.format === 1 && typeof s.generatorVersion === 'string' ? s : null;
  } catch {
    return null;
  }
}

/**
 * Makes sure `dir` holds the current kit: returns at once when its stamp matches this generator and
 * these options, otherwise (re)writes it. Returns whether it wrote.
 */
export async function ensureSampleKit(
  dir: string,
  opts: SampleKitOptions = {},
): Promise<{ written: boolean; stamp: KitStamp }> {
  return ensureKitFrom(dir, opts, () => sampleKitStream(opts), layoutVersion(opts));
}

/** The logic behind `ensureSampleKit`, for any kit source. */
export async function ensureKitFrom(
  dir: string,
  opts: SampleKitOptions,
  files: () => AsyncIterable<KitFile>,
  version: string,
): Promise<{ written: boolean; stamp: KitStamp }> {
  const want = normaliseOptions(opts);
  const current = await readKitStamp(dir);
  if (current && current.generatorVersion === version && current.options?.extraFurni === want.extraFurni) {
    return { written: false, stamp: current };
  }
  return { written: true, stamp: await writeKitFrom(dir, opts, files(), version) };
}
