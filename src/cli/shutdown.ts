// Ctrl-C / SIGTERM for the serving commands: close every service the process runs, then exit. One
// handler for all of them, so a quick service cannot exit the process while another is still closing
// (the avatar service waits for its background disk-cache writes). A second Ctrl-C finds no handler
// left and ends the process at once, as a user pressing it twice expects.
import { readFileSync } from 'node:fs';

export interface SignalSource {
  once(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
}

export function stopOnSignals(
  closers: (() => Promise<void>)[],
  signals: SignalSource = process,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void Promise.allSettled(closers.map((close) => close())).then((results) =>
      exit(results.every((r) => r.status === 'fulfilled') ? 0 : 1),
    );
  };
  signals.once('SIGINT', stop);
  signals.once('SIGTERM', stop);
  if (signals === process) stopWithLauncher(stop);
}

/**
 * Run through npm (`npx hotel-imager …`, `npm exec`, `npm start`), the service is npm's grandchild
 * (npm → `sh -c` → node), and npm ended by a signal does not pass it on: the service would keep running
 * with no terminal and no parent (docs/deployment.md, "systemd"). So under npm the processes
 * between the service and npm are watched, once a second; when one of them is gone the service stops
 * as on SIGTERM. Started any other way (a shell, systemd, a container) nothing is watched: a service
 * whose launching shell exits on purpose (nohup, `&`) keeps serving.
 */
export function stopWithLauncher(
  stop: () => void,
  env: NodeJS.ProcessEnv = process.env,
  probe: {
    ppid: () => number;
    parentOf: (pid: number) => number | undefined;
    commandOf: (pid: number) => string[];
    alive: (pid: number) => boolean;
  } = procProbe,
  intervalMs = 1000,
): (() => void) | undefined {
  if (env.npm_command === undefined) return undefined;
  const start = probe.ppid();
  const watched = [start];
  // Up the chain to npm itself (at most a few steps: `sh -c`, npm).
  for (let pid: number | undefined = start, step = 0; pid !== undefined && pid > 1 && step < 4; step++) {
    if (isNpm(probe.commandOf(pid))) break;
    pid = probe.parentOf(pid);
    if (pid !== undefined && pid > 1) watched.push(pid);
  }
  const timer = setInterval(() => {
    if (probe.ppid() !== start || !watched.every((pid) => probe.alive(pid))) {
      clearInterval(timer);
      stop();
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** npm's own process: it names itself `npm exec …` / `npm start`, or runs as `node …/npm-cli.js`. */
function isNpm(argv: string[]): boolean {
  const name = (i: number) => (argv[i] ?? '').split('/').pop()!;
  return ['npm', 'npx'].includes(name(0)) || (name(0) === 'node' && /^(npm|npx)(-cli\.js)?$/.test(name(1)));
}

const procProbe = {
  ppid: () => process.ppid,
  parentOf(pid: number): number | undefined {
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces and parentheses.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      return Number.isInteger(ppid) ? ppid : undefined;
    } catch {
      return undefined; // not Linux, or gone: only the direct parent is watched
    }
  },
  commandOf(pid: number): string[] {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
    } catch {
      return [];
    }
  },
  alive(pid: number): boolean {
    try {
      process.kill(pid, 0);
      return true;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'EPERM';
    }
  },
};
