// npm run bench:kit — writes the sample kit with 17,000 generated furni (the published scale) to a
// temporary folder and prints the time, the file count and the peak RSS. BENCH_KIT_FURNI overrides N.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSampleKit } from '../src/samplekit/index.js';

const n = Number(process.env.BENCH_KIT_FURNI ?? 17_000);
const root = await mkdtemp(join(tmpdir(), 'bench-kit-'));
try {
  const t0 = performance.now();
  const stamp = await writeSampleKit(join(root, 'kit'), { extraFurni: n });
  const seconds = (performance.now() - t0) / 1000;
  const peakMb = process.resourceUsage().maxRSS / 1024;
  console.log(
    `bench:kit — ${n} generated furni: ${stamp.files} files in ${seconds.toFixed(1)} s (${(stamp.files / seconds).toFixed(0)} files/s); peak RSS ${peakMb.toFixed(0)} MB`,
  );
} finally {
  await rm(root, { recursive: true, force: true });
}
