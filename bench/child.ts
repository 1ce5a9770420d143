// The service a bench measures runs in a child process: the bench's own file again, with `--child` and
// its arguments; the child posts `{ ready: url }` over IPC once it listens. One copy of that protocol.
import { spawn, type ChildProcess } from 'node:child_process';

/** Starts `file --child ...args`; resolves with the URL the child posts when it listens. */
export async function startChild(
  file: string,
  args: string[],
  stdout: 'inherit' | 'ignore' | number = 'inherit',
): Promise<{ proc: ChildProcess; url: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', file, '--child', ...args], {
    stdio: ['ignore', stdout, 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    proc.once('message', (m: { ready?: string }) => (m.ready ? resolve(m.ready) : reject(new Error('bad message'))));
    proc.once('exit', (code) => reject(new Error(`service exited with code ${code}`)));
  });
  return { proc, url };
}

/** SIGTERM, then waits for the exit (a child already gone is left alone). */
export async function stopChild(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const gone = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGTERM');
  await gone;
}

/** Runs `childMain` in a child started by `startChild`, else `main`; an error exits 1. */
export function runBench(main: () => Promise<void>, childMain: () => Promise<void>): void {
  (process.argv[2] === '--child' ? childMain() : main()).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
