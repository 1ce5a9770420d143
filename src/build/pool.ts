// Runs item tasks on N worker threads (or in this thread when N is 1). A crashed worker fails only its
// item and is replaced.
import { Worker } from 'node:worker_threads';
import { runTask, type TaskResult } from './task.js';
import { type ItemTask } from './item.js';

/** Under tsx (tests, dev runs) the worker entry is TypeScript: register tsx's hooks inside the worker first. */
function spawnWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./worker.js', import.meta.url));
  const entry = new URL('./worker.ts', import.meta.url).href;
  const tsxApi = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`, { eval: true });
}

export type ResultHandler = (task: ItemTask, result: TaskResult) => void;

function crashResult(task: ItemTask, reason: string): TaskResult {
  const classnames = [task.base, ...task.variants.map((n) => `${task.base}*${n}`)];
  return { base: task.base, assetSha256: '', files: [], results: classnames.map((classname) => ({ classname, status: 'failed' as const, reason })) };
}

export async function runTasks(tasks: ItemTask[], outDir: string, jobs: number, onResult: ResultHandler): Promise<void> {
  if (tasks.length === 0) return;
  if (jobs <= 1) {
    for (const t of tasks) {
      let r: TaskResult;
      try {
        r = await runTask(t, outDir);
      } catch (e) {
        r = crashResult(t, `build error: ${(e as Error).message}`);
      }
      onResult(t, r);
    }
    return;
  }
  let next = 0;
  const count = Math.min(jobs, tasks.length);
  await new Promise<void>((resolveAll) => {
    let active = 0;
    let failedToStart = 0;
    const startWorker = () => {
      const worker = spawnWorker();
      active++;
      let current: { id: number; task: ItemTask } | undefined;
      const feed = () => {
        if (next >= tasks.length) {
          current = undefined;
          void worker.terminate();
          return;
        }
        const id = next++;
        current = { id, task: tasks[id]! };
        worker.postMessage({ id, task: current.task, outDir });
      };
      worker.on('message', (msg: { id: number; result?: TaskResult; error?: string }) => {
        const task = tasks[msg.id]!;
        onResult(task, msg.result ?? crashResult(task, `build error: ${msg.error}`));
        feed();
      });
      worker.on('error', (err) => {
        if (current) onResult(current.task, crashResult(current.task, `worker crashed: ${err.message}`));
        current = undefined;
        failedToStart++;
      });
      worker.on('exit', () => {
        active--;
        // Replace a crashed worker while work remains (unless workers cannot start at all).
        if (next < tasks.length && failedToStart < jobs * 4) startWorker();
        else if (active === 0) {
          // Anything never handed out (workers could not start): fail it with the reason.
          while (next < tasks.length) {
            const t = tasks[next++]!;
            onResult(t, crashResult(t, 'no build worker could start'));
          }
          resolveAll();
        }
      });
      feed();
    };
    for (let i = 0; i < count; i++) startWorker();
  });
}
