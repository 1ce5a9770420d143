// Publishing a build atomically. The served paths are fixed (`furni-renders/<cn>.png`…), so a changed
// file cannot appear beside the old one: it must replace it, and corpus.json must never list a path
// whose bytes on disk differ from the listed size and sha256. Workers therefore write every new file
// under `.staging/` (never served: the server serves only corpus.json keys under furni-renders/,
// catalog-thumbs/ and hof_furni/), and the live folders change only in the commit, run by the main
// thread once every item is done:
//   1. the final corpus.json, build-report.json and build state are written into `.staging/`, then the
//      journal `.staging/commit.json` (atomically): the staged paths to move and the paths to remove;
//   2. every path about to be replaced is withdrawn from the live corpus.json (rewritten atomically), so
//      what it lists stays true while the files change under it; then a short grace period lets a
//      running server (it polls corpus.json, every 2 s by default) drop them from its table too;
//   3. each staged file is renamed into place;
//   4. the staged report, state and corpus.json are renamed into place (corpus.json last);
//   5. files no longer published are deleted, then the journal, then `.staging/`.
// A build killed before step 1 completes leaves the live corpus untouched; killed after it, the next
// build finishes the commit from the journal (every step is idempotent) before doing anything else.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomicSync } from '../util/atomic-write.js';
import { parseCorpusJson, serializeCorpusJson } from '../formats/corpus-json.js';
import { type CorpusIndex } from './corpus.js';

export const STAGING_DIR = '.staging';
export const JOURNAL_FILE = 'commit.json';
/** Items built into staging by a build that has not committed yet (reused by the next run if valid). */
export const PENDING_FILE = 'pending.json';

export interface CommitJournal {
  format: 1;
  /** Staged output paths (relative) to rename into place. */
  moves: string[];
  /** Paths (relative) no longer published, deleted once the new corpus.json is in place. */
  removes: string[];
  /** The small documents staged under the same relative path, renamed in this order (corpus.json last). */
  docs: string[];
}

/** Test hooks: called after each rename of the commit (staged outputs, then documents). */
export interface CommitHooks {
  afterRename?: (count: number, path: string) => void;
}

/**
 * How long the commit waits after withdrawing paths from corpus.json before replacing their files:
 * longer than the furni server's default corpus.json poll (2 s), so a server that polls at that rate
 * has stopped serving the old bytes (under their old ETag) before new bytes take their place.
 */
export const COMMIT_GRACE_MS = 2500;

export interface CommitOptions {
  hooks?: CommitHooks;
  /** Default COMMIT_GRACE_MS. Only spent when a listed path is withdrawn. */
  graceMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const stagingDir = (out: string) => join(out, STAGING_DIR);

/**
 * Writes the staged documents and the journal, then applies it. `docs`: small documents (relative path →
 * text) put in place after the outputs, in order, corpus.json last.
 */
export async function commitBuild(
  out: string,
  moves: string[],
  removes: string[],
  docs: [string, string][],
  corpusFile: string,
  opts: CommitOptions = {},
): Promise<void> {
  const stage = stagingDir(out);
  mkdirSync(stage, { recursive: true });
  for (const [rel, text] of docs) {
    mkdirSync(dirname(join(stage, rel)), { recursive: true });
    writeFileSync(join(stage, rel), text);
  }
  const journal: CommitJournal = { format: 1, moves, removes, docs: docs.map(([rel]) => rel) };
  // The journal's arrival is the commit point: from here on a rerun finishes what this one started.
  writeFileAtomicSync(join(stage, JOURNAL_FILE), JSON.stringify(journal));
  rmSync(join(stage, PENDING_FILE), { force: true });
  await applyJournal(out, journal, corpusFile, opts);
}

/** Finishes a commit a killed build left behind. Returns whether there was one. */
export async function recoverCommit(out: string, corpusFile: string, opts: CommitOptions = {}): Promise<boolean> {
  const path = join(stagingDir(out), JOURNAL_FILE);
  let journal: CommitJournal;
  try {
    journal = JSON.parse(readFileSync(path, 'utf8')) as CommitJournal;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    // A journal is written atomically, so an unreadable one is not ours to guess at: drop the staging
    // area (the live corpus was not touched before a journal existed).
    rmSync(stagingDir(out), { recursive: true, force: true });
    return false;
  }
  if (
    journal?.format !== 1 ||
    !Array.isArray(journal.moves) ||
    !Array.isArray(journal.removes) ||
    !Array.isArray(journal.docs)
  ) {
    rmSync(stagingDir(out), { recursive: true, force: true });
    return false;
  }
  await applyJournal(out, journal, corpusFile, opts);
  return true;
}

function readCorpus(path: string): CorpusIndex | undefined {
  try {
    return parseCorpusJson(readFileSync(path), path);
  } catch {
    return undefined;
  }
}

function recount(files: CorpusIndex['files']): CorpusIndex['counts'] {
  const keys = Object.keys(files);
  return {
    renders: keys.filter((p) => p.startsWith('furni-renders/')).length,
    icons: keys.filter((p) => p.startsWith('catalog-thumbs/')).length,
    bundles: keys.filter((p) => p.startsWith('hof_furni/')).length,
  };
}

async function applyJournal(
  out: string,
  journal: CommitJournal,
  corpusFile: string,
  opts: CommitOptions,
): Promise<void> {
  const stage = stagingDir(out);
  const hooks = opts.hooks ?? {};
  let renames = 0;
  const moveIn = (rel: string): void => {
    const from = join(stage, rel);
    // Absent: moved by the run that was killed part way through this commit.
    if (!existsSync(from)) return;
    const to = join(out, rel);
    mkdirSync(dirname(to), { recursive: true });
    renameSync(from, to);
    hooks.afterRename?.(++renames, rel);
  };

  // 2. Withdraw what is about to change from the live corpus.json (only while its staged corpus.json
  // is still waiting: once that has moved, the live one is already the new corpus).
  if (existsSync(join(stage, corpusFile))) {
    const live = readCorpus(join(out, corpusFile));
    if (live) {
      let withdrawn = 0;
      for (const rel of journal.moves) {
        if (rel in live.files && existsSync(join(stage, rel))) {
          delete live.files[rel];
          withdrawn++;
        }
      }
      if (withdrawn > 0) {
        writeFileAtomicSync(join(out, corpusFile), serializeCorpusJson({ ...live, counts: recount(live.files) }));
        await sleep(opts.graceMs ?? COMMIT_GRACE_MS);
      }
    }
  }
  // 3. and 4.
  for (const rel of journal.moves) moveIn(rel);
  for (const rel of journal.docs) moveIn(rel);
  // 5. Only now that corpus.json no longer lists them.
  for (const rel of journal.removes) {
    try {
      unlinkSync(join(out, rel));
    } catch {
      // already gone
    }
  }
  unlinkSync(join(stage, JOURNAL_FILE));
  rmSync(stage, { recursive: true, force: true });
}

/** Size of a file on disk, or -1. */
export function sizeOnDisk(path: string): number {
  const s = statSync(path, { throwIfNoEntry: false });
  return s?.isFile() ? s.size : -1;
}
