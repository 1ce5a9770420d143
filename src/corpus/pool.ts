// Runs item tasks on N worker threads (or in this thread when N is 1). Each runner keeps a few items
// in flight so its thread computes while image encoding waits on libvips. A crashed worker fails only
// the items it held and is replaced.
import { Worker } from 'node:worker_threads';
import { decodeBudget } from '../imaging/decode-budget.js';
import { runTask, type TaskResult } from './task.js';
import { taskClassnames, type ItemTask } from './item.js';
import { explainFsError } from '../util/fs-error.js';

/** Items in flight per runner. */
const PER_RUNNER = 3;

/** Under tsx (tests, dev runs) the worker entry is TypeScript: register tsx's hooks inside the worker first. */
function spawnWorker(): Worker {
  // A worker thread starts with the default budget: it gets this thread's.
  const options = { workerData: { decodeBudgetBytes: decodeBudget().bytes } };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./worker.js', import.meta.url), options);
  const entry = new URL('./worker.ts', import.meta.url).href;
  const tsxApi = import.meta.resolve('tsx/esm/api');
  return new Worker(
    `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); ` +
      `})`,
    { ...options, eval: true },
  );
}

export type ResultHandler = (task: ItemTask, result: TaskResult) => void;

function crashResult(task: ItemTask, reason: string): TaskResult {
  const classnames = taskClassnames(task);
  return {
    base: task.base,
    assetSha256: '',
    files: [],
    results: classnames.map((classname) => ({ classname, status: 'failed' as const, reason })),
  };
}

async function runInThread(tasks: ItemTask[], stageDir: string, onResult: ResultHandler): Promise<void> {
  let next = 0;
  const knownDirs = new Set<string>();
  const lane = async () => {
    while (next < tasks.length) {
      const t = tasks[next++]!;
      let r: TaskResult;
      try {
        r = await runTask(t, stageDir, knownDirs);
      } catch (e) {
        r = crashResult(t, `build error: ${(explainFsError(e) as Error).message}`);
      }
      onResult(t, r);
    }
  };
  await Promise.all(Array.from({ length: PER_RUNNER }, lane));
}

export async function runTasks(
  tasks: ItemTask[],
  stageDir: string,
  jobs: number,
  onResult: ResultHandler,
): Promise<void> {
  if (tasks.length === 0) return;
  if (jobs <= 1) return runInThread(tasks, stageDir, onResult);
  let next = 0;
  const count = Math.min(jobs, Math.ceil(tasks.length / PER_RUNNER));
  await new Promise<void>((resolveAll) => {
    let active = 0;
    let crashes = 0;
    const start = () => {
      const worker = spawnWorker();
      active++;
      const held = new Map<number, ItemTask>();
      const feed = () => {
        while (held.size < PER_RUNNER && next < tasks.length) {
          const id = next++;
          held.set(id, tasks[id]!);
          worker.postMessage({ id, task: tasks[id]!, stageDir });
        }
        if (held.size === 0) void worker.terminate();
      };
      worker.on('message', (msg: { id: number; result?: TaskResult; error?: string }) => {
        const task = held.get(msg.id);
        if (!task) return;
        held.delete(msg.id);
        onResult(task, msg.result ?? crashResult(task, `build error: ${msg.error}`));
        feed();
      });
      worker.on('error', (err) => {
        for (const t of held.values()) onResult(t, crashResult(t, `worker crashed: ${err.message}`));
        held.clear();
        crashes++;
      });
      worker.on('exit', () => {
        active--;
        // Replace a crashed worker while work remains, unless workers cannot start at all.
        if (next < tasks.length && crashes < jobs * 4) start();
        else if (active === 0) {
          while (next < tasks.length) {
            const t = tasks[next++]!;
            onResult(t, crashResult(t, 'no build worker could start'));
          }
          resolveAll();
        }
      });
      feed();
    };
    for (let i = 0; i < count; i++) start();
  });
}
