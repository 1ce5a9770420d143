// One item's file work, shared by the worker threads and the in-process path: read the asset file,
// build, write the outputs into the build's staging folder (the commit moves them into place, see
// commit.ts), and describe them (size + sha256) for corpus.json.
import { readFileSync, statSync } from 'node:fs';
import { decodeBudget, describeBytes, overBudget } from '../imaging/decode-budget.js';
import { join } from 'node:path';
import { taskClassnames, buildItem, type ItemTask, type ClassnameResult } from './item.js';
import { furniLibraryLoader } from '../hotel/furni.js';
import { writeFileAtomicSync } from '../util/atomic-write.js';
import { sha256Hex } from '../util/hash.js';

export interface PublishedFile {
  path: string;
  size: number;
  sha256: string;
}

export interface TaskResult {
  base: string;
  /** sha256 of the asset file as read (part of the incremental input key). */
  assetSha256: string;
  files: PublishedFile[];
  results: ClassnameResult[];
}

export async function runTask(task: ItemTask, stageDir: string, knownDirs?: Set<string>): Promise<TaskResult> {
  const classnames = taskClassnames(task);
  let bytes: Buffer;
  try {
    // The file is parsed whole: one larger than the decode budget is refused before it is read.
    const { size } = statSync(task.assetFile);
    const { bytes: budget } = decodeBudget();
    if (size > budget)
      throw new Error(overBudget(`${task.assetFile} (${size} bytes)`, `${describeBytes(budget)} a file`));
    bytes = readFileSync(task.assetFile);
  } catch (e) {
    const reason = `asset file unreadable: ${(e as Error).message}`;
    return {
      base: task.base,
      assetSha256: '',
      files: [],
      results: classnames.map((classname) => ({ classname, status: 'failed', reason })),
    };
  }
  const { outputs, results } = await buildItem(task, bytes, furniLibraryLoader(task.layout));
  const files: PublishedFile[] = [];
  for (const o of outputs) {
    writeFileAtomicSync(join(stageDir, o.path), o.bytes, knownDirs);
    files.push({ path: o.path, size: o.bytes.length, sha256: sha256Hex(o.bytes) });
  }
  return { base: task.base, assetSha256: sha256Hex(bytes), files, results };
}
