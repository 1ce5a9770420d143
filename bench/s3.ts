// npm run bench:s3 — the furni service reading its corpus from a bucket against the same service reading
// it from disk, same corpus, same load generator (bench/http-load.ts), loopback only:
//   cached: every URL of the corpus, spread, after a warm-up pass (bodies from the memory cache);
//   cold:   the same with --memory-budget 0, so each request reads the file (disk) or the object (bucket).
// The bucket is s3rver (the S3-compatible server the tests use) in its own process; each service runs in
// its own process too, so none of them shares the load generator's event loop. s3rver stores objects as
// files and answers through Koa on the same 2 cores, so the cold figures show the service's overhead on
// a slow local store, not the latency of a real S3 region (tens of ms a GET, which the memory cache hides).
// Reports medians of --rounds runs: req/s, p99 and the service's CPU time per request (/proc/<pid>/stat;
// on a shared machine far steadier than req/s) per backend, s3rver's CPU per request, the bucket/disk
// ratios, and the load average before and after.
//
// Flags: --files N (2000 corpus files), --rounds N (3), --connections N (32), --cold-requests N (2000),
//        --only cached|cold.
import { type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fakePng, writeCorpusFixture } from '../test/server/furni/fixture.js';
import { runBench, startChild, stopChild } from './child.js';
import { percentile, ratePerSecond, runLoad } from './http-load.js';
import { cpuSeconds, loadAverage, median } from './proc.js';

const HERE = fileURLToPath(import.meta.url);
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const BUCKET = 'bench';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

/** Child roles: the bucket (s3rver) or one furni service. Each reports its address over IPC. */
async function childMain(role: string, a: string, b: string, c: string | undefined): Promise<void> {
  if (role === 's3rver') {
    const { default: S3rver } = await import('s3rver');
    const s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: a,
      configureBuckets: [{ name: BUCKET }],
    });
    const { port } = await s3.run();
    process.send?.({ ready: `http://127.0.0.1:${port}` });
    return;
  }
  const { startFurniServer } = await import('../src/server/furni/index.js');
  const running = await startFurniServer({
    corpus: a,
    memoryBudget: Number(b),
    port: 0,
    host: '127.0.0.1',
    logLevel: 'warn',
    ...(c ? { s3: { endpoint: c, forcePathStyle: true, credentials: CREDENTIALS, region: 'us-east-1' } } : {}),
  });
  process.send?.({ ready: running.url });
}

async function main(): Promise<void> {
  const files = arg('files', 2000);
  const rounds = arg('rounds', 3);
  const connections = arg('connections', 32);
  const coldRequests = arg('cold-requests', 2000);
  const work = await mkdtemp(join(tmpdir(), 'bench-s3-'));
  const children: ChildProcess[] = [];
  try {
    // A corpus of render-sized files (0.5–8 KiB, as the sample kit's and real renders mostly are).
    const corpus: Record<string, Buffer> = {};
    for (let i = 0; i < files; i++)
      corpus[`furni-renders/item_${i}.png`] = fakePng(i + 1, 512 + ((i * 2654435761) % 7680));
    const dir = join(work, 'corpus');
    await writeCorpusFixture(dir, corpus);
    const paths = Object.keys(corpus).map((k) => `/${k}`);

    const bucket = await startChild(HERE, ['s3rver', join(work, 's3rver')]);
    children.push(bucket.proc);
    const { publishCorpus } = await import('../src/storage/publish.js');
    const t0 = performance.now();
    const pub = await publishCorpus({
      corpus: dir,
      to: `s3://${BUCKET}/corpus`,
      s3: { endpoint: bucket.url, forcePathStyle: true, credentials: CREDENTIALS, region: 'us-east-1' },
    });
    console.log(
      `bench:s3 — ${files} files, ${connections} connections, ${rounds} rounds (medians); loadavg before: ${loadAverage()}`,
    );
    console.log(`publish to s3rver: ${pub.uploaded} objects in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const table: string[] = [];
    const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
    for (const pass of (['cached', 'cold'] as const).filter((p) => !only || p === only)) {
      const budget = pass === 'cached' ? 256 * 1024 * 1024 : 0;
      // Both services up at once and measured in alternation, round by round, so a change in the
      // machine's load (it is shared) falls on both alike.
      const services = {
        disk: await startChild(HERE, ['serve', dir, String(budget)]),
        s3: await startChild(HERE, ['serve', `s3://${BUCKET}/corpus`, String(budget), bucket.url]),
      };
      children.push(services.disk.proc, services.s3.proc);
      const fresh = () => ({
        rps: [] as number[],
        p99: [] as number[],
        cpuUs: [] as number[],
        bucketCpuUs: [] as number[],
      });
      const samples = { disk: fresh(), s3: fresh() };
      for (const backend of ['disk', 's3'] as const) {
        // Warm-up: fills the memory cache (cached pass) and the connection pools.
        const warm = await runLoad({ base: services[backend].url, paths, connections });
        if ((warm.status[200] ?? 0) !== paths.length)
          throw new Error(`${backend} warm-up: ${JSON.stringify(warm.status)} errors ${warm.errors}`);
      }
      for (let r = 0; r < rounds; r++) {
        for (const backend of (r % 2 === 0 ? ['disk', 's3'] : ['s3', 'disk']) as ('disk' | 's3')[]) {
          const list =
            pass === 'cached' ? [...paths, ...paths, ...paths, ...paths, ...paths] : paths.slice(0, coldRequests);
          const cpu0 = cpuSeconds(services[backend].proc.pid!);
          const bucketCpu0 = cpuSeconds(bucket.proc.pid!);
          const res = await runLoad({ base: services[backend].url, paths: shuffle(list, r + 1), connections });
          if ((res.status[200] ?? 0) !== list.length)
            throw new Error(`${backend} ${pass}: ${JSON.stringify(res.status)} errors ${res.errors}`);
          samples[backend].cpuUs.push(((cpuSeconds(services[backend].proc.pid!) - cpu0) * 1e6) / list.length);
          samples[backend].bucketCpuUs.push(((cpuSeconds(bucket.proc.pid!) - bucketCpu0) * 1e6) / list.length);
          samples[backend].rps.push(ratePerSecond(res));
          samples[backend].p99.push(percentile(res.latenciesMs, 99));
        }
      }
      await stopChild(services.disk.proc);
      await stopChild(services.s3.proc);
      console.log(
        `${pass}: req/s per round, disk ${samples.disk.rps.map((x) => x.toFixed(0)).join(' / ')}; bucket ${samples.s3.rps.map((x) => x.toFixed(0)).join(' / ')}`,
      );
      const summary = (x: ReturnType<typeof fresh>) => ({
        rps: median(x.rps),
        p99: median(x.p99),
        cpuUs: median(x.cpuUs),
        bucketCpuUs: median(x.bucketCpuUs),
      });
      const results = { disk: summary(samples.disk), s3: summary(samples.s3) };
      const d = results.disk!;
      const s = results.s3!;
      table.push(
        `| ${pass} | ${d.rps.toFixed(0)} | ${d.p99.toFixed(2)} | ${d.cpuUs.toFixed(1)} | ${s.rps.toFixed(0)} | ${s.p99.toFixed(2)} | ${s.cpuUs.toFixed(1)} | ${s.bucketCpuUs.toFixed(1)} | ${(s.rps / d.rps).toFixed(2)} | ${(s.p99 / d.p99).toFixed(2)} | ${(s.cpuUs / d.cpuUs).toFixed(2)} |`,
      );
    }
    console.log(
      '| pass | disk req/s | disk p99 ms | disk CPU µs/req | bucket req/s | bucket p99 ms | service CPU µs/req (bucket) | s3rver CPU µs/req | req/s bucket/disk | p99 bucket/disk | CPU/req bucket/disk |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|');
    for (const row of table) console.log(row);
    console.log(`loadavg after: ${loadAverage()} (2 shared cores: compare ratios, not absolutes)`);
  } finally {
    for (const c of children) await stopChild(c);
    await rm(work, { recursive: true, force: true });
  }
}

/** A fixed permutation per seed, so rounds differ but runs repeat. */
function shuffle<T>(xs: T[], seed: number): T[] {
  const out = [...xs];
  let x = seed * 2654435761 || 1;
  for (let i = out.length - 1; i > 0; i--) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const j = (x >>> 0) % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

runBench(main, () => childMain(process.argv[3]!, process.argv[4]!, process.argv[5]!, process.argv[6]));
