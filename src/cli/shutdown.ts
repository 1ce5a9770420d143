// Ctrl-C / SIGTERM for the serving commands: close every service the process runs, then exit. One
// handler for all of them, so a quick service cannot exit the process while another is still closing
// (the avatar service waits for its background disk-cache writes). A second Ctrl-C finds no handler
// left and ends the process at once, as a user pressing it twice expects.

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
}
