// Worker thread entry: builds the items the pool sends, one at a time.
import { parentPort, workerData } from 'node:worker_threads';
import { setDecodeBudget } from '../imaging/decode-budget.js';
import { runTask } from './task.js';
import { type ItemTask } from './item.js';
import { explainFsError } from '../util/fs-error.js';

if (!parentPort) throw new Error('build worker must run in a worker thread');
const port = parentPort;
setDecodeBudget((workerData as { decodeBudgetBytes: number }).decodeBudgetBytes);
const knownDirs = new Set<string>();
port.on('message', (msg: { id: number; task: ItemTask; stageDir: string }) => {
  runTask(msg.task, msg.stageDir, knownDirs).then(
    (result) => port.postMessage({ id: msg.id, result }),
    (e: unknown) => {
      const err = explainFsError(e);
      port.postMessage({ id: msg.id, error: err instanceof Error ? err.message : String(err) });
    },
  );
});
