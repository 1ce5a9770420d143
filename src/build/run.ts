// The furni build: furnidata + asset files → the static corpus. Parallel, incremental, atomic:
// every file is written under a temporary name and renamed, and corpus.json is written last, so a
// build killed at any point leaves the previous corpus servable; a rerun completes it.
import { readFile, readdir, unlink, mkdir } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { RENDERER_VERSION } from '../furni/version.js';
import { allFurniRows, splitClassname } from '../formats/furnidata.js';
import { detectLayout, type LayoutOverrides } from './layout.js';
import { readFurnidata } from './loaders.js';
import { type ItemTask, type ClassnameResult, rendersDir, thumbsDir, bundlesDir } from './item.js';
import { runTasks } from './pool.js';
import { loadState, saveState, inputKey, STATE_FILE, type ItemState } from './state.js';
import { corpusIndex, buildReport, type ReportEntry, type BuildReport, type CorpusIndex } from './corpus.js';
import { writeFileAtomic, isTempName } from './atomic.js';
import { type PublishedFile, sha256 } from './task.js';

export interface BuildOptions extends LayoutOverrides {
  assets: string;
  out: string;
  /** Build only these classnames (a `*n` name selects its base item); the rest of the corpus is kept. */
  only?: string[];
  /** Worker threads; default all cores. 1 builds in this thread. */
  jobs?: number;
  onProgress?: (p: BuildProgress) => void;
  /** Clock for builtAt (tests pin it). */
  now?: () => Date;
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

export const CORPUS_FILE = 'corpus.json';
const TRANSIENT = /^(worker crashed|build error|no build worker)/;
export const REPORT_FILE = 'build-report.json';

interface Planned {
  task: ItemTask;
  size: number;
  mtimeMs: number;
}

// Synchronous stats on purpose: tens of thousands of them, nothing else runs while planning, and a
// sync stat skips the thread-pool round trip that dominates an unchanged rebuild.
function fileMatches(dir: string, f: PublishedFile): boolean {
  const s = statSync(join(dir, f.path), { throwIfNoEntry: false });
  return s !== undefined && s.isFile() && s.size === f.size;
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
  const { data: furnidata, problems } = await readFurnidata(await readFile(layout.furnidataFile), layout.furnidataFile, layout.furnidataFormat);
  await mkdir(out, { recursive: true });
  await removeTempFiles(out);

  // Group the furnidata rows by base classname; a `*n` row shares the asset of its base.
  const groups = new Map<string, { revision?: number; firstRevision: number; variants: Set<number> }>();
  const entries: ReportEntry[] = [];
  // Legacy furnidata rows that could not be read are reported under their line number.
  for (const p of problems) entries.push({ classname: `furnidata line ${p.line}`, status: 'skipped', reason: `unreadable furnidata row: ${p.reason} (${p.excerpt})` });
  for (const { row } of allFurniRows(furnidata)) {
    const { base, colorId } = splitClassname(row.classname);
    if (row.classname.includes('*') && colorId === undefined) {
      entries.push({ classname: row.classname, status: 'skipped', reason: 'invalid colour suffix (expected <classname>*<number>)' });
      continue;
    }
    let g = groups.get(base);
    if (!g) groups.set(base, (g = { firstRevision: row.revision, variants: new Set() }));
    if (colorId === undefined) g.revision ??= row.revision;
    else g.variants.add(colorId);
  }

  const selected = opts.only && opts.only.length > 0 ? new Set(opts.only.map((c) => splitClassname(c).base)) : undefined;
  if (selected) for (const b of selected) if (!groups.has(b)) entries.push({ classname: b, status: 'skipped', reason: layout.assetFile(b, 0) ? 'no furnidata row' : 'no furnidata row and no asset file' });

  const planned: Planned[] = [];
  for (const base of [...groups.keys()].sort()) {
    const g = groups.get(base)!;
    const revision = g.revision ?? g.firstRevision;
    const variants = [...g.variants].sort((a, b) => a - b);
    const names = [...(g.revision !== undefined ? [base] : []), ...variants.map((n) => `${base}*${n}`)];
    const assetFile = layout.assetFile(base, revision);
    if (!assetFile) {
      for (const classname of names) entries.push({ classname, status: 'skipped', reason: `no asset file (looked for ${base} in ${layout.furniDir})` });
      continue;
    }
    const s = statSync(assetFile);
    planned.push({ task: { base, revision, variants, baseRow: g.revision !== undefined, assetFile, layout: layout.kind }, size: s.size, mtimeMs: s.mtimeMs });
  }
  for (const base of layout.assetClassnames()) if (!groups.has(base) && (!selected || selected.has(base))) entries.push({ classname: base, status: 'skipped', reason: 'no furnidata row' });

  const statePath = join(out, STATE_FILE);
  const state = await loadState(statePath, RENDERER_VERSION);
  const previous = new Map(Object.entries(state.items));
  const queue: Planned[] = [];
  const unchangedBases = new Set<string>();
  for (const p of planned) {
    const prev = state.items[p.task.base];
    if (selected && !selected.has(p.task.base)) {
      if (prev) unchangedBases.add(p.task.base); // not asked for: keep what was published
      continue;
    }
    if (prev && prev.inputKey !== '' && prev.inputKey === inputKey(RENDERER_VERSION, p.task, prev.assetSha256)) {
      // Size and mtime unchanged: trust the recorded hash; otherwise hash the file to be sure.
      let same = prev.assetSize === p.size && prev.assetMtimeMs === p.mtimeMs;
      if (!same && prev.assetSize === p.size) {
        same = sha256(await readFile(p.task.assetFile)) === prev.assetSha256;
        if (same) prev.assetMtimeMs = p.mtimeMs;
      }
      if (same && prev.files.every((f) => fileMatches(out, f))) {
        unchangedBases.add(p.task.base);
        continue;
      }
    }
    queue.push(p);
  }

  const total = queue.length;
  let done = 0;
  let lastSave = Date.now();
  opts.onProgress?.({ done, total, unchanged: unchangedBases.size });
  const byBase = new Map(queue.map((p) => [p.task.base, p]));
  let saving: Promise<void> = Promise.resolve();
  await runTasks(
    queue.map((p) => p.task),
    out,
    opts.jobs ?? availableParallelism(),
    (task, r) => {
      const p = byBase.get(task.base)!;
      // A failure that is not the input's fault (a crashed worker, an I/O error) keeps an empty key so
      // the next run retries it; a corrupt input fails the same way every time and is not retried.
      const transient = r.results.some((x) => x.status === 'failed' && TRANSIENT.test(x.reason ?? ''));
      const entry: ItemState = { inputKey: transient || !r.assetSha256 ? '' : inputKey(RENDERER_VERSION, task, r.assetSha256), assetSize: p.size, assetMtimeMs: p.mtimeMs, assetSha256: r.assetSha256, files: r.files, results: r.results };
      state.items[task.base] = entry;
      done++;
      opts.onProgress?.({ done, total, unchanged: unchangedBases.size });
      if (Date.now() - lastSave > 3000) {
        lastSave = Date.now();
        saving = saving.then(() => saveState(statePath, state)).catch(() => undefined);
      }
    },
  );
  await saving;

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
  const builtAt = (opts.now ?? (() => new Date()))().toISOString();
  const report = buildReport(entries, { rendererVersion: RENDERER_VERSION, builtAt, durationMs: Date.now() - started, layout: layout.kind, rebuilt: queue.length, unchanged: unchangedBases.size });
  const corpus = corpusIndex(files, RENDERER_VERSION, builtAt);
  await saveState(statePath, state);
  await writeFileAtomic(join(out, REPORT_FILE), JSON.stringify(report, null, 1) + '\n');
  await writeFileAtomic(join(out, CORPUS_FILE), JSON.stringify(corpus, null, 1) + '\n');

  // Only after corpus.json no longer lists them: remove files this build stopped publishing.
  const live = new Set(files.map((f) => f.path));
  for (const it of previous.values()) for (const f of it.files) if (!live.has(f.path)) await unlink(join(out, f.path)).catch(() => undefined);

  return { report, corpus, layout: layout.kind, rebuilt: queue.length, unchanged: unchangedBases.size };
}

export type { ClassnameResult };
