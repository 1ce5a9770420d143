// corpus.json (what the server serves, with sizes and hashes for ETags) and build-report.json.
import { type CorpusDoc } from '../formats/corpus-json.js';
import { parseVariantName } from '../furni/variant-name.js';
import { type PublishedFile } from './task.js';
import { type ClassnameResult } from './item.js';

/** corpus.json's document (read and written by src/formats/corpus-json.ts). */
export type CorpusIndex = CorpusDoc;

const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function corpusIndex(files: PublishedFile[], rendererVersion: string, builtAt: string): CorpusIndex {
  const sorted = [...files].sort((a, b) => byPath(a.path, b.path));
  const renders = sorted.filter((f) => f.path.startsWith('furni-renders/'));
  const variants = renders.filter((f) => parseVariantName(f.path.slice('furni-renders/'.length)) !== undefined).length;
  const out: CorpusIndex['files'] = {};
  for (const f of sorted) out[f.path] = { size: f.size, sha256: f.sha256 };
  return {
    format: 1,
    rendererVersion,
    builtAt,
    counts: {
      renders: renders.length - variants,
      icons: sorted.filter((f) => f.path.startsWith('catalog-thumbs/')).length,
      bundles: sorted.filter((f) => f.path.startsWith('hof_furni/')).length,
      // Pre-rendered reserved names (`build --variants`); the key is absent when there are none.
      ...(variants ? { variants } : {}),
    },
    files: out,
  };
}

export interface ReportEntry extends ClassnameResult {
  /** True when the item was unchanged and not rebuilt this run. */
  unchanged?: boolean;
}

export interface BuildReport {
  format: 1;
  rendererVersion: string;
  builtAt: string;
  durationMs: number;
  layout: string;
  counts: { ok: number; failed: number; skipped: number; rebuilt: number; unchanged: number };
  items: Record<string, Omit<ReportEntry, 'classname'>>;
}

export function buildReport(
  entries: ReportEntry[],
  meta: {
    rendererVersion: string;
    builtAt: string;
    durationMs: number;
    layout: string;
    rebuilt: number;
    unchanged: number;
  },
): BuildReport {
  const items: BuildReport['items'] = {};
  for (const e of [...entries].sort((a, b) => byPath(a.classname, b.classname))) {
    const { classname, ...rest } = e;
    items[classname] = rest;
  }
  return {
    format: 1,
    rendererVersion: meta.rendererVersion,
    builtAt: meta.builtAt,
    durationMs: meta.durationMs,
    layout: meta.layout,
    counts: {
      ok: entries.filter((e) => e.status === 'ok').length,
      failed: entries.filter((e) => e.status === 'failed').length,
      skipped: entries.filter((e) => e.status === 'skipped').length,
      rebuilt: meta.rebuilt,
      unchanged: meta.unchanged,
    },
    items,
  };
}
