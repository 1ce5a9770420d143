// The furni build: furnidata + asset files → the static corpus. Parallel, incremental, atomic: items
// are built into a staging folder and published together by a journaled commit (commit.ts), so a
// build killed at any point leaves the previous corpus servable and consistent; a rerun completes it.
import { readFile, readdir, unlink, mkdir } from 'node:fs/promises';
import { statSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { RENDERER_VERSION } from '../furni/version.js';
import { allFurniRows, splitClassname } from '../formats/furnidata.js';
import { checkInsideFolder, readAssetFile } from '../hotel/files.js';
import { detectLayout, readFurnidata, type LayoutOverrides } from '../hotel/furni.js';
import { type ItemTask, type ClassnameResult, rendersDir, thumbsDir, bundlesDir } from './item.js';
import { runTasks } from './pool.js';
import { loadState, stateJson, inputKey, STATE_FILE, type ItemState } from './state.js';
import { CORPUS_JSON, parseCorpusJson, serializeCorpusJson } from '../formats/corpus-json.js';
import { corpusIndex, buildReport, type ReportEntry, type BuildReport, type CorpusIndex } from './corpus.js';
import { isTempName, writeFileAtomicSync } from '../util/atomic-write.js';
import { commitBuild, recoverCommit, stagingDir, sizeOnDisk, PENDING_FILE, type CommitHooks } from './commit.js';
import { type PublishedFile } from './task.js';
import { unsafeNameMessage, unsafeNameReason } from '../util/safe-name.js';
import { sha256Hex } from '../util/hash.js';
import { prepareWritableFolder } from '../util/fs-error.js';
import { publishedStills, shrinkProblem, ShrinkError } from './shrink.js';

export interface BuildOptions extends LayoutOverrides {
  assets: string;
  out: string;
  /** Build only these classnames (a `*n` name selects its base item); the rest of the corpus is kept. */
  only?: string[];
  /** Pre-render the reserved names (contract F2.6) into the corpus: every one, the animated ones, or none (default). */
  variants?: 'all' | 'animated' | 'none';
  /**
   * Go on even when the build would unpublish more than SHRINK_LIMIT of the stills, or stills whose asset is still
   * there.
   */
  allowShrink?: boolean;
  /** Worker threads; default all cores. 1 builds in this thread. */
  jobs?: number;
  onProgress?: (p: BuildProgress) => void;
  /** Clock for builtAt (tests pin it). */
  now?: () => Date;
  /** Milliseconds between saves of the items built so far (reused if this build is killed); default 3000. */
  pendingSaveMs?: number;
  /** Test hooks: after each finished item (count so far) and after each rename of the commit. */
  hooks?: CommitHooks & { afterItem?: (done: number) => void };
  /** Wait between withdrawing changed paths from corpus.json and replacing them; default COMMIT_GRACE_MS. */
  commitGraceMs?: number;
}

export interface BuildProgress {
  done: number;
  total: number;
  unchanged: number;
}

export interface BuildSummary {
  report: BuildReport;
  corpus: CorpusIndex;
  layout: string;
  /** Items rebuilt this run and items reused unchanged. */
  rebuilt: number;
  unchanged: number;
}

const TRANSIENT = /^(worker crashed|build error|no build worker)/;

/** A failure that is not the input's fault (a crashed worker, a full disk): the next build retries the item. */
export const isRetriedFailure = (reason: string | undefined): boolean => TRANSIENT.test(reason ?? '');
export const REPORT_FILE = 'build-report.json';

/** An item built by this run (or by a killed run, in staging): its new state and whether its files are staged. */
interface BuiltItem {
  entry: ItemState;
  /** True: `entry.files` are in the staging folder. False: the item failed as a whole and keeps its previous files. */
  staged: boolean;
}

interface PendingFile {
  format: 1;
  rendererVersion: string;
  items: Record<string, BuiltItem>;
}

async function loadPending(out: string): Promise<Map<string, BuiltItem>> {
  try {
    const p = JSON.parse(await readFile(join(stagingDir(out), PENDING_FILE), 'utf8')) as PendingFile;
    if (p?.format === 1 && p.rendererVersion === RENDERER_VERSION && p.items && typeof p.items === 'object')
      return new Map(Object.entries(p.items));
  } catch {
    // none (the usual case) or unreadable: nothing to reuse
  }
  return new Map();
}

interface Planned {
  task: ItemTask;
  size: number;
  mtimeMs: number;
}

// Synchronous stats on purpose: tens of thousands of them, nothing else runs while planning, and a
// sync stat skips the thread-pool round trip that dominates an unchanged rebuild.
function fileMatches(dir: string, f: PublishedFile): boolean {
  const s = statSync(join(dir, f.path), { throwIfNoEntry: false });
  return s?.isFile() === true && s.size === f.size;
}

/** A staged file still holds exactly the bytes recorded for it. */
async function stagedMatches(out: string, f: PublishedFile): Promise<boolean> {
  const p = join(stagingDir(out), f.path);
  if (sizeOnDisk(p) !== f.size) return false;
  return sha256Hex(await readFile(p)) === f.sha256;
}

function readCorpusFiles(path: string): CorpusIndex['files'] {
  try {
    return parseCorpusJson(readFileSync(path), path).files;
  } catch {
    // none yet, or unreadable: nothing listed
  }
  return {};
}

async function removeTempFiles(out: string): Promise<void> {
  for (const sub of [rendersDir, thumbsDir]) {
    const names = await readdir(join(out, sub)).catch(() => [] as string[]);
    for (const n of names) if (isTempName(n)) await unlink(join(out, sub, n)).catch(() => undefined);
  }
  const revs = await readdir(join(out, bundlesDir)).catch(() => [] as string[]);
  for (const r of revs) {
    const names = await readdir(join(out, bundlesDir, r)).catch(() => [] as string[]);
    for (const n of names) if (isTempName(n)) await unlink(join(out, bundlesDir, r, n)).catch(() => undefined);
  }
}

export async function runBuild(opts: BuildOptions): Promise<BuildSummary> {
  const started = Date.now();
  const out = resolve(opts.out);
  const layout = await detectLayout(opts.assets, opts);
  // The furnidata named with --furnidata is the operator's; the layout's own must stay inside the assets folder.
  const furnidataRoot = opts.furnidata !== undefined ? dirname(layout.furnidataFile) : opts.assets;
  const { data: furnidata, problems } = await readFurnidata(
    await readAssetFile(layout.furnidataFile, furnidataRoot),
    layout.furnidataFile,
    layout.furnidataFormat,
  );
  // A read-only or foreign folder is reported now, before any work.
  await prepareWritableFolder({ folder: out, what: 'the corpus folder' });
  // A commit a killed build left half done is finished before anything else looks at the corpus.
  await recoverCommit(out, CORPUS_JSON, { graceMs: opts.commitGraceMs });
  await removeTempFiles(out);

  // Group the furnidata rows by base classname; a `*n` row shares the asset of its base.
  const groups = new Map<string, { revision?: number; firstRevision: number; variants: Set<number> }>();
  const entries: ReportEntry[] = [];
  // Legacy furnidata rows that could not be read are reported under their line number.
  for (const p of problems)
    entries.push({
      classname: `furnidata line ${p.line}`,
      status: 'skipped',
      reason: `unreadable furnidata row: ${p.reason} (${p.excerpt})`,
    });
  for (const { row } of allFurniRows(furnidata)) {
    // A classname becomes file names in the corpus (furni-renders/<cn>.png, hof_furni/<rev>/<cn>.bundle).
    const unsafe = unsafeNameReason(row.classname);
    if (unsafe) {
      entries.push({
        classname: row.classname,
        status: 'skipped',
        reason: unsafeNameMessage('classname', row.classname, unsafe),
      });
      continue;
    }
    const { base, colorId } = splitClassname(row.classname);
    if (row.classname.includes('*') && colorId === undefined) {
      entries.push({
        classname: row.classname,
        status: 'skipped',
        reason: 'invalid colour suffix (expected <classname>*<number>)',
      });
      continue;
    }
    let g = groups.get(base);
    if (!g) groups.set(base, (g = { firstRevision: row.revision, variants: new Set() }));
    if (colorId === undefined) g.revision ??= row.revision;
    else g.variants.add(colorId);
  }

  const selected =
    opts.only && opts.only.length > 0 ? new Set(opts.only.map((c) => splitClassname(c).base)) : undefined;
  if (selected)
    for (const b of selected)
      if (!groups.has(b))
        entries.push({
          classname: b,
          status: 'skipped',
          reason: layout.assetFile(b, 0) ? 'no furnidata row' : 'no furnidata row and no asset file',
        });

  const planned: Planned[] = [];
  // Base classname → the classnames (base, `*n`) this build would publish a still for.
  const plannedNames = new Map<string, Set<string>>();
  for (const base of [...groups.keys()].sort()) {
    const g = groups.get(base)!;
    const revision = g.revision ?? g.firstRevision;
    const variants = [...g.variants].sort((a, b) => a - b);
    const names = [...(g.revision !== undefined ? [base] : []), ...variants.map((n) => `${base}*${n}`)];
    const assetFile = layout.assetFile(base, revision);
    if (!assetFile) {
      for (const classname of names)
        entries.push({
          classname,
          status: 'skipped',
          reason: `no asset file (looked for ${base} in ${layout.furniDir})`,
        });
      continue;
    }
    // The base still is published even when furnidata lists only colour rows (clients fall back to it).
    plannedNames.set(base, new Set([base, ...names]));
    try {
      await checkInsideFolder(assetFile, layout.furniDir);
    } catch (e) {
      for (const classname of names) entries.push({ classname, status: 'failed', reason: (e as Error).message });
      continue;
    }
    const s = statSync(assetFile);
    planned.push({
      task: {
        base,
        revision,
        variants,
        baseRow: g.revision !== undefined,
        assetFile,
        layout: layout.kind,
        ...(opts.variants && opts.variants !== 'none' ? { prerender: opts.variants } : {}),
      },
      size: s.size,
      mtimeMs: s.mtimeMs,
    });
  }
  for (const base of layout.assetClassnames())
    if (!groups.has(base) && (!selected || selected.has(base)))
      entries.push({ classname: base, status: 'skipped', reason: 'no furnidata row' });

  // The shrink guard, before anything is built: what is served now and would not be after this build.
  const liveFiles = readCorpusFiles(join(out, CORPUS_JSON));
  if (!opts.allowShrink) {
    const published = publishedStills(Object.keys(liveFiles));
    const assetBases = new Set(layout.assetClassnames());
    const lost: string[] = [];
    const withAsset: string[] = [];
    for (const cn of published) {
      const { base } = splitClassname(cn);
      const names = plannedNames.get(base);
      // --only keeps the items it was not asked for as they are.
      if (names && (names.has(cn) || (selected && !selected.has(base)))) continue;
      lost.push(cn);
      if (assetBases.has(base)) withAsset.push(cn);
    }
    const problem = shrinkProblem(published.size, lost, withAsset);
    if (problem) {
      throw new ShrinkError(
        `build stopped, nothing in ${out} was changed: ${problem}. ` +
          `Check ${layout.furnidataFile} (a half-failed export?) and ${layout.furniDir}, then build again; ` +
          `if these items were removed on purpose, build with --allow-shrink (HOTEL_IMAGER_BUILD_ALLOW_SHRINK=1).`,
      );
    }
  }

  const statePath = join(out, STATE_FILE);
  const state = await loadState(statePath, RENDERER_VERSION);
  const previousPaths = new Set(Object.values(state.items).flatMap((it) => it.files.map((f) => f.path)));
  const pending = await loadPending(out);
  const built = new Map<string, BuiltItem>();
  const queue: Planned[] = [];
  const unchangedBases = new Set<string>();
  // Whether a recorded build of an item still describes its input: same key, and the asset file the
  // same (size and mtime unchanged: trust the recorded hash; otherwise hash the file to be sure).
  const current = async (it: ItemState | undefined, p: Planned): Promise<boolean> => {
    if (!it || it.inputKey === '' || it.inputKey !== inputKey(RENDERER_VERSION, p.task, it.assetSha256)) return false;
    if (it.assetSize === p.size && it.assetMtimeMs === p.mtimeMs) return true;
    if (it.assetSize !== p.size || sha256Hex(await readFile(p.task.assetFile)) !== it.assetSha256) return false;
    it.assetMtimeMs = p.mtimeMs;
    return true;
  };
  for (const p of planned) {
    const prev = state.items[p.task.base];
    if (selected && !selected.has(p.task.base)) {
      if (prev) unchangedBases.add(p.task.base); // not asked for: keep what was published
      continue;
    }
    if ((await current(prev, p)) && prev!.files.every((f) => fileMatches(out, f))) {
      unchangedBases.add(p.task.base);
      continue;
    }
    // Built by a run that was killed before its commit: its staged files are reused if intact.
    const pend = pending.get(p.task.base);
    if (pend && (await current(pend.entry, p))) {
      let ok = true;
      for (const f of pend.entry.files)
        if (!(pend.staged ? await stagedMatches(out, f) : fileMatches(out, f))) ok = false;
      if (ok) {
        built.set(p.task.base, pend);
        continue;
      }
    }
    queue.push(p);
  }

  const total = queue.length;
  let done = 0;
  let lastSave = Date.now();
  const saveEvery = opts.pendingSaveMs ?? 3000;
  opts.onProgress?.({ done, total, unchanged: unchangedBases.size });
  const byBase = new Map(queue.map((p) => [p.task.base, p]));
  const pendingPath = join(stagingDir(out), PENDING_FILE);
  await mkdir(stagingDir(out), { recursive: true });
  await runTasks(
    queue.map((p) => p.task),
    stagingDir(out),
    opts.jobs ?? availableParallelism(),
    (task, r) => {
      const p = byBase.get(task.base)!;
      // A failure that is not the input's fault (a crashed worker, an I/O error) keeps an empty key so
      // the next run retries it; a corrupt input fails the same way every time and is not retried.
      const transient = r.results.some((x) => x.status === 'failed' && TRANSIENT.test(x.reason ?? ''));
      // An item that failed as a whole publishes nothing new and keeps what it published before.
      const whole = r.files.length === 0 && r.results.every((x) => x.status === 'failed');
      const files = whole ? (state.items[task.base]?.files ?? []).filter((f) => fileMatches(out, f)) : r.files;
      const entry: ItemState = {
        inputKey: transient || !r.assetSha256 ? '' : inputKey(RENDERER_VERSION, task, r.assetSha256),
        assetSize: p.size,
        assetMtimeMs: p.mtimeMs,
        assetSha256: r.assetSha256,
        files,
        results: r.results,
      };
      built.set(task.base, { entry, staged: !whole });
      done++;
      opts.onProgress?.({ done, total, unchanged: unchangedBases.size });
      if (Date.now() - lastSave >= saveEvery) {
        // Synchronous: a few milliseconds every few seconds, and what is recorded is on disk before
        // the next item is accepted.
        lastSave = Date.now();
        const doc: PendingFile = { format: 1, rendererVersion: RENDERER_VERSION, items: Object.fromEntries(built) };
        try {
          writeFileAtomicSync(pendingPath, JSON.stringify(doc));
        } catch {
          // only an optimisation for a killed build's rerun
        }
      }
      opts.hooks?.afterItem?.(done);
    },
  );

  for (const [base, b] of built) state.items[base] = b.entry;
  // Items gone from the plan (row or asset removed) leave the corpus; --only keeps the rest as it was.
  const plannedBases = new Set(planned.map((p) => p.task.base));
  for (const base of Object.keys(state.items)) if (!plannedBases.has(base)) delete state.items[base];

  const files: PublishedFile[] = [];
  for (const base of [...plannedBases].sort()) {
    const it = state.items[base];
    if (!it) continue;
    files.push(...it.files);
    for (const r of it.results) entries.push(unchangedBases.has(base) ? { ...r, unchanged: true } : r);
  }
  // The guard again with what was really built: items that failed for a reason that is not theirs
  // (a full disk, crashed workers) and never published before (no state) would leave the corpus.
  if (!opts.allowShrink) {
    const live = publishedStills(Object.keys(liveFiles));
    const kept = publishedStills(files.map((f) => f.path));
    const problem = shrinkProblem(
      live.size,
      [...live].filter((cn) => !kept.has(cn)),
    );
    if (problem) {
      // What was built stays in staging for the next build to reuse.
      try {
        writeFileAtomicSync(
          pendingPath,
          JSON.stringify({
            format: 1,
            rendererVersion: RENDERER_VERSION,
            items: Object.fromEntries(built),
          } satisfies PendingFile),
        );
      } catch {
        // only an optimisation for the rerun
      }
      const failed = entries.filter((e) => e.status === 'failed');
      const example = failed[0]
        ? `, for example ${failed[0].classname}: ${(failed[0].reason ?? '').replace(/\.$/, '')}`
        : '';
      throw new ShrinkError(
        `build stopped before its commit, nothing in ${out} was changed: ${problem}. ` +
          `${failed.length} failed${example}. ` +
          `Fix that and build again (what was built is kept for it), or build with --allow-shrink ` +
          `(HOTEL_IMAGER_BUILD_ALLOW_SHRINK=1).`,
      );
    }
  }
  const rebuilt = built.size;
  const builtAt = (opts.now ?? (() => new Date()))().toISOString();
  const report = buildReport(entries, {
    rendererVersion: RENDERER_VERSION,
    builtAt,
    durationMs: Date.now() - started,
    layout: layout.kind,
    rebuilt,
    unchanged: unchangedBases.size,
  });
  const corpus = corpusIndex(files, RENDERER_VERSION, builtAt);

  // What the commit moves: staged files whose bytes differ from what is live (a staged file identical
  // to the listed, present live file is dropped, so an unchanged path is never withdrawn).
  const moves: string[] = [];
  for (const b of built.values()) {
    if (!b.staged) continue;
    for (const f of b.entry.files) {
      const old = liveFiles[f.path];
      if (old && old.sha256 === f.sha256 && old.size === f.size && sizeOnDisk(join(out, f.path)) === f.size) continue;
      moves.push(f.path);
    }
  }
  const live = new Set(files.map((f) => f.path));
  const removes = [...new Set([...Object.keys(liveFiles), ...previousPaths])].filter((p) => !live.has(p)).sort();
  await commitBuild(
    out,
    moves.sort(),
    removes,
    [
      [REPORT_FILE, JSON.stringify(report, null, 1) + '\n'],
      [STATE_FILE, stateJson(state)],
      [CORPUS_JSON, serializeCorpusJson(corpus)],
    ],
    CORPUS_JSON,
    { hooks: opts.hooks, graceMs: opts.commitGraceMs },
  );

  return { report, corpus, layout: layout.kind, rebuilt, unchanged: unchangedBases.size };
}

export type { ClassnameResult };
