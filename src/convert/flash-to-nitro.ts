// Flash layout → Nitro layout. Reads a hotel's Flash-era folder (gamedata/*.xml|txt, gordon/ figure
// libraries, hof_furni/[<revision>/] furni SWFs, c_images/Badgeparts group badge parts) and writes the
// Nitro layout the rest of the project reads (gamedata/*.json, bundled/figure/*.nitro,
// bundled/furniture/*.nitro, bundled/generic/group_badge.nitro). A file that cannot be converted is
// reported and skipped; everything else is still written.
import { basename, join, relative, resolve, sep } from 'node:path';
import { writeAssetLibrary } from '../formats/asset-library.js';
import { readFigureSwf } from '../formats/flash/figure-library.js';
import { readFurniSwf } from '../formats/flash/furni-library.js';
import { type FurnitureData } from '../formats/furnidata.js';
import { type FigureMapDoc } from '../formats/gamedata/figure-types.js';
import { parseAvatarActionsXml, parseFigureDataXml, parseFigureMapXml } from '../formats/gamedata/figure-xml.js';
import { type FurnidataProblem } from '../formats/gamedata/furnidata-txt.js';
import { readFurnidataAny, type FurnidataFormat } from '../formats/gamedata/furnidata-any.js';
import { isDir, isFile, readAssetFile } from '../hotel/files.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { explainFsError, isFsError } from '../util/fs-error.js';
import { findFigureFolderSwfs, findFurniSwfs, isFigureLibrary, readFlashAvatarSources } from '../hotel/flash.js';
import { readEffectSwf } from '../formats/flash/effect-library.js';
import { parseEffectMapXml } from '../formats/gamedata/effect-xml.js';
import { type EffectMapDoc } from '../formats/gamedata/effect-types.js';
import { FLASH_AVATAR_DATA_FILE, flashAvatarData } from '../hotel/flash-avatar-data.js';
import { writeBadgePartLibrary } from '../formats/badge-parts.js';
import { DEFAULT_ELEMENT_FILES, findFlashPartsDir, NITRO_PARTS_PATH, readBadgePartFolder } from '../hotel/badge.js';

export interface ConvertOptions {
  /** Flash layout root. */
  from: string;
  /** Nitro layout root to write (created if missing). */
  to: string;
  /** Files converted at once (default 2: SWF decoding and PNG encoding are CPU-bound). */
  concurrency?: number;
  onProgress?: (p: { done: number; total: number; file: string }) => void;
}

export interface ConvertEntry {
  /** Source path relative to `from`. */
  source: string;
  /** Written path relative to `to`. */
  target: string;
}

export interface ConvertFailure {
  source: string;
  reason: string;
}

export interface ConvertReport {
  gamedata: ConvertEntry[];
  figures: ConvertEntry[];
  /** Effect SWFs named by effectmap.xml → bundled/effect/<lib>.nitro. */
  effects: ConvertEntry[];
  furniture: ConvertEntry[];
  failed: ConvertFailure[];
  /**
   * SWFs left out because another revision of the same furni (or release folder of the same figure library) was chosen.
   */
  superseded: string[];
  /** SWFs in the figure folders that figuremap does not name (pets, effects): not figure libraries. */
  skipped: string[];
  /** Legacy furnidata rows that could not be read. */
  furnidataProblems: FurnidataProblem[];
  /** Group badge parts (c_images/Badgeparts → bundled/generic/group_badge.nitro) and their table, copied as it is. */
  badges?: ConvertEntry[];
}

async function pool<T>(items: T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(size, items.length)) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  });
  await Promise.all(workers);
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export async function convertFlashToNitro(opts: ConvertOptions): Promise<ConvertReport> {
  const { from, to } = opts;
  if (!(await isDir(from))) throw new Error(`not a folder: ${from}`);
  const gd = join(from, 'gamedata');
  const figureCandidates = await findFigureFolderSwfs(from);
  // A folder with nothing of a Flash hotel is a mistake (a wrong path, a Nitro folder): say so instead
  // of writing an empty Nitro layout.
  const known = ['figuredata.xml', 'figuremap.xml', 'furnidata.xml', 'furnidata.json', 'furnidata.txt'];
  const hasGamedata = (await Promise.all(known.map((n) => isFile(join(gd, n))))).some(Boolean);
  if (!hasGamedata && figureCandidates.length === 0 && !(await isDir(join(from, 'hof_furni')))) {
    const nitro = (await isDir(join(from, 'bundled')))
      ? ' It looks like a Nitro layout already: build and serve read that as it is.'
      : '';
    throw new Error(
      `no Flash-era hotel in ${from}: expected gamedata/figuredata.xml or gamedata/furnidata.xml|json|txt, figure ` +
        `SWFs (gordon/) or hof_furni/.${nitro}`,
    );
  }
  const report: ConvertReport = {
    gamedata: [],
    figures: [],
    effects: [],
    furniture: [],
    failed: [],
    superseded: [],
    skipped: [],
    furnidataProblems: [],
  };
  const rel = (p: string) => relative(from, p) || p;
  const fail = (source: string, e: unknown) => {
    // Writing the result failed (disk full, the folder made read-only): that stops the whole
    // conversion instead of failing every file after it the same way.
    const written = isFsError(e) && e.path !== undefined && (resolve(e.path) + sep).startsWith(resolve(to) + sep);
    if (written) throw e;
    report.failed.push({ source: rel(source), reason: message(explainFsError(e)) });
  };

  // Gamedata: each document on its own, so one bad file does not stop the others.
  const documents: [string, string, (text: string, file: string) => unknown][] = [
    ['figuredata.xml', 'FigureData.json', parseFigureDataXml],
    ['figuremap.xml', 'FigureMap.json', parseFigureMapXml],
    ['HabboAvatarActions.xml', 'HabboAvatarActions.json', parseAvatarActionsXml],
    ['effectmap.xml', 'EffectMap.json', parseEffectMapXml],
  ];
  let mappedLibraries: Set<string> | undefined;
  let effectLibraries: Set<string> | undefined;
  for (const [src, dst, parse] of documents) {
    const path = join(gd, src);
    if (!(await isFile(path))) continue;
    try {
      const doc = parse((await readAssetFile(path, from)).toString('utf8'), src);
      if (src === 'figuremap.xml')
        mappedLibraries = new Set((doc as FigureMapDoc).libraries.map((l) => l.id.toLowerCase()));
      if (src === 'effectmap.xml')
        effectLibraries = new Set((doc as EffectMapDoc).effects.map((e) => e.lib.toLowerCase()));
      await writeFileAtomic(join(to, 'gamedata', dst), JSON.stringify(doc));
      report.gamedata.push({ source: rel(path), target: join('gamedata', dst) });
    } catch (e) {
      fail(path, e);
    }
  }
  // The avatar documents the Nitro layout has no place for, so the converted folder renders the same.
  // Only with a figuredata.xml that converted: a broken one is reported once, above.
  if (report.gamedata.some((g) => g.target === join('gamedata', 'FigureData.json'))) {
    try {
      const sources = await readFlashAvatarSources(from);
      await writeFileAtomic(join(to, 'gamedata', FLASH_AVATAR_DATA_FILE), JSON.stringify(flashAvatarData(sources)));
      report.gamedata.push({ source: rel(gd), target: join('gamedata', FLASH_AVATAR_DATA_FILE) });
    } catch (e) {
      fail(gd, e);
    }
  }
  // Nitro tools (the client, imagers) fetch EffectMap.json with the other avatar documents and fail
  // without it: a hotel with no effectmap.xml gets an empty one.
  if (!effectLibraries) await writeFileAtomic(join(to, 'gamedata', 'EffectMap.json'), JSON.stringify({ effects: [] }));
  let furnidata: FurnitureData | undefined;
  for (const [name, format] of [
    ['furnidata.xml', 'xml'],
    ['furnidata.json', 'json'],
    ['furnidata.txt', 'txt'],
  ] as [string, FurnidataFormat][]) {
    const path = join(gd, name);
    if (!(await isFile(path))) continue;
    try {
      const { data, problems } = readFurnidataAny(await readAssetFile(path, from), name, format);
      furnidata = data;
      report.furnidataProblems = problems;
      await writeFileAtomic(join(to, 'gamedata', 'FurnitureData.json'), JSON.stringify(data));
      report.gamedata.push({ source: rel(path), target: join('gamedata', 'FurnitureData.json') });
      break;
    } catch (e) {
      fail(path, e);
    }
  }

  // Group badges: the element table is the same file in both layouts; the part files become the
  // client's part library (frames by the same names, so every badge draws the same).
  const badges: ConvertEntry[] = [];
  for (const file of DEFAULT_ELEMENT_FILES) {
    if (!(await isFile(join(from, file)))) continue;
    await writeFileAtomic(join(to, file), await readAssetFile(join(from, file), from));
    badges.push({ source: file, target: file });
  }
  const partsDir = await findFlashPartsDir(from);
  if (partsDir) {
    const parts = await readBadgePartFolder(partsDir);
    for (const reason of parts.unreadable) fail(partsDir, reason);
    if (parts.images.size > 0) {
      await writeFileAtomic(join(to, NITRO_PARTS_PATH), await writeBadgePartLibrary(parts.images));
      badges.push({ source: rel(partsDir), target: NITRO_PARTS_PATH });
    }
  }
  if (badges.length > 0) report.badges = badges;

  const revisions = new Map<string, number>();
  if (furnidata) {
    for (const row of [...furnidata.roomitemtypes.furnitype, ...furnidata.wallitemtypes.furnitype]) {
      const base = row.classname.split('*')[0]!;
      if (!revisions.has(base)) revisions.set(base, row.revision);
    }
  }
  const figureFiles = figureCandidates.filter((p) => isFigureLibrary(p, mappedLibraries));
  const isEffect = (p: string) =>
    !!effectLibraries?.has(
      basename(p)
        .replace(/\.swf$/i, '')
        .toLowerCase(),
    );
  const effectFiles = figureCandidates.filter((p) => !isFigureLibrary(p, mappedLibraries) && isEffect(p));
  report.skipped = figureCandidates.filter((p) => !isFigureLibrary(p, mappedLibraries) && !isEffect(p)).map(rel);
  const { chosen, superseded } = await findFurniSwfs(from, revisions);
  report.superseded = superseded.map(rel);
  type Job = { kind: 'figure' | 'effect' | 'furniture'; path: string; name: string };
  // A library name found in several release folders: the first (top level, then releases by name) wins.
  const figureByName = new Map<string, string>();
  for (const p of figureFiles) {
    const name = basename(p).replace(/\.swf$/i, '');
    if (figureByName.has(name)) report.superseded.push(rel(p));
    else figureByName.set(name, p);
  }
  const jobs: Job[] = [
    ...[...figureByName].map(([name, p]) => ({ kind: 'figure' as const, path: p, name })),
    ...effectFiles.map((p) => ({ kind: 'effect' as const, path: p, name: basename(p).replace(/\.swf$/i, '') })),
    ...[...chosen].map(([cn, p]) => ({ kind: 'furniture' as const, path: p, name: cn })),
  ];
  let done = 0;
  await pool(jobs, opts.concurrency ?? 2, async (job) => {
    try {
      const bytes = await readAssetFile(job.path, from);
      if (job.kind === 'figure') {
        const lib = await readFigureSwf(bytes, rel(job.path));
        const target = join('bundled', 'figure', `${job.name}.nitro`);
        await writeFileAtomic(join(to, target), await writeAssetLibrary(lib));
        report.figures.push({ source: rel(job.path), target });
      } else if (job.kind === 'effect') {
        const { library } = await readEffectSwf(bytes, rel(job.path));
        const target = join('bundled', 'effect', `${job.name}.nitro`);
        await writeFileAtomic(join(to, target), await writeAssetLibrary(library));
        report.effects.push({ source: rel(job.path), target });
      } else {
        const lib = await readFurniSwf(bytes, rel(job.path), { keepAllSizes: true });
        const target = join('bundled', 'furniture', `${job.name}.nitro`);
        await writeFileAtomic(join(to, target), await writeAssetLibrary(lib));
        report.furniture.push({ source: rel(job.path), target });
      }
    } catch (e) {
      fail(job.path, e);
    } finally {
      opts.onProgress?.({ done: ++done, total: jobs.length, file: rel(job.path) });
    }
  });
  const bySource = (a: { source: string }, b: { source: string }) =>
    a.source < b.source ? -1 : a.source > b.source ? 1 : 0;
  report.figures.sort(bySource);
  report.effects.sort(bySource);
  report.furniture.sort(bySource);
  report.failed.sort(bySource);
  await writeFileAtomic(join(to, 'convert-report.json'), JSON.stringify(report, null, 2) + '\n');
  return report;
}
