// Runs one build in a child process for the kill tests: argv[2] is JSON {assets, out, jobs,
// killAfterItem?, killAfterRename?, killAfterRenameOf?}. The process kills itself (SIGKILL, no cleanup,
// as a crash or an OOM kill would) at the named point.
import { runBuild } from '../../src/corpus/run.js';

const a = JSON.parse(process.argv[2]!) as {
  assets: string;
  out: string;
  jobs: number;
  killAfterItem?: number;
  killAfterRename?: number;
  killAfterRenameOf?: string;
};
const die = () => process.kill(process.pid, 'SIGKILL');
await runBuild({
  assets: a.assets,
  out: a.out,
  jobs: a.jobs,
  pendingSaveMs: 0,
  commitGraceMs: 0,
  now: () => new Date('2026-02-02T00:00:00Z'),
  hooks: {
    afterItem: (n) => {
      if (n === a.killAfterItem) die();
    },
    afterRename: (n, path) => {
      if (n === a.killAfterRename || path === a.killAfterRenameOf) die();
    },
  },
});
