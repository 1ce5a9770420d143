// Incremental build state, kept beside the corpus: per base classname, the input key it was built
// from and the files it published. An item whose key is unchanged and whose files are all present is
// not rebuilt.
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { type PublishedFile } from './task.js';
import { type ClassnameResult, type ItemTask } from './item.js';
import { writeFileAtomic } from '../util/atomic-write.js';

export const STATE_FILE = '.hotel-imager-build.json';

export interface ItemState {
  inputKey: string;
  assetSize: number;
  assetMtimeMs: number;
  assetSha256: string;
  files: PublishedFile[];
  results: ClassnameResult[];
}

export interface BuildState {
  format: 1;
  rendererVersion: string;
  items: Record<string, ItemState>;
}

export async function loadState(path: string, rendererVersion: string): Promise<BuildState> {
  try {
    const s = JSON.parse(await readFile(path, 'utf8')) as BuildState;
    if (s && s.format === 1 && s.rendererVersion === rendererVersion && s.items && typeof s.items === 'object')
      return s;
  } catch {
    // missing or unreadable: build from scratch
  }
  return { format: 1, rendererVersion, items: {} };
}

/** The state file's text: items sorted by base classname. */
export function stateJson(state: BuildState): string {
  const items: Record<string, ItemState> = {};
  for (const k of Object.keys(state.items).sort()) items[k] = state.items[k]!;
  return JSON.stringify({ ...state, items });
}

export async function saveState(path: string, state: BuildState): Promise<void> {
  await writeFileAtomic(path, stateJson(state));
}

/** Everything that decides an item's output besides the asset bytes. */
export function inputKey(rendererVersion: string, task: ItemTask, assetSha256: string): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        rendererVersion,
        task.base,
        task.revision,
        [...task.variants].sort((a, b) => a - b),
        task.baseRow,
        task.layout,
        assetSha256,
        // Only when set, so a build without pre-rendered variants keeps the keys (and skips) it had.
        ...(task.prerender ? [task.prerender] : []),
      ]),
    )
    .digest('hex');
}
