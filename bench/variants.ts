// npm run bench:variants — on-demand furni variants (`serve furni --variants`) on loopback:
//   1. cold: every reserved name the sample kit offers (each size, state, direction, frame and loop of
//      every colour), each requested once on a fresh service, at concurrency 1 and 4: renders/s, p50/p99;
//   2. cached: one variant name and, for comparison, one published still, autocannon 32 connections 5 s.
// The service runs in a child process (the CLI) so the load generator does not share its event loop.
// Flags: --corpus DIR (a built corpus; default: the sample kit built into a temp folder), --duration S.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { furniKitFiles } from '../src/samplekit/furni/index.js';
import { runBuild } from '../src/corpus/run.js';
import { readFurniBundle } from '../src/furni/bundle.js';
import { prerenderedVariants } from '../src/corpus/item.js';
import { variantFileName } from '../src/furni/variant-name.js';
import { freePort, percentile, runLoad } from './http-load.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const duration = Number(flag('--duration') ?? 5);

async function startService(corpus: string): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(repo, 'src/cli/main.ts'),
      'serve',
      'furni',
      '--corpus',
      corpus,
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
      '--log-level',
      'warn',
      '--variants',
      '--variants-rate',
      '0',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/version`)).ok) return { base, child };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('service did not start');
}

async function main(): Promise<void> {
  const tmp = await mkdtemp(join(tmpdir(), 'bench-variants-'));
  try {
    let corpus = flag('--corpus');
    if (!corpus) {
      const kit = join(tmp, 'kit');
      for (const f of await furniKitFiles({ extraFurni: 0 })) {
        await mkdir(dirname(join(kit, f.path)), { recursive: true });
        await writeFile(join(kit, f.path), f.data);
      }
      corpus = join(tmp, 'corpus');
      await runBuild({ assets: kit, out: corpus });
    }
    const files = JSON.parse(await readFile(join(corpus, 'corpus.json'), 'utf8')).files as Record<string, unknown>;
    const paths: string[] = [];
    for (const key of Object.keys(files).filter((k) => k.startsWith('hof_furni/'))) {
      const { model } = await readFurniBundle(await readFile(join(corpus, key)), key);
      const base = key.slice(key.lastIndexOf('/') + 1, -'.bundle'.length);
      const classnames = Object.keys(files)
        .filter((k) => k === `furni-renders/${base}.png` || k.startsWith(`furni-renders/${base}*`))
        .map((k) => k.slice('furni-renders/'.length, -'.png'.length));
      for (const cn of classnames)
        for (const v of prerenderedVariants(model, 'all'))
          paths.push('/furni-renders/' + encodeURIComponent(variantFileName(cn, v)).replace(/%2A/g, '*'));
    }
    console.log(
      `load average before: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    console.log(
      `${paths.length} distinct reserved names from ${Object.keys(files).filter((k) => k.startsWith('hof_furni/')).length} bundles`,
    );
    for (const connections of [1, 4]) {
      const svc = await startService(corpus);
      try {
        const r = await runLoad({ base: svc.base, paths, connections });
        const ok = r.status[200] ?? 0;
        console.log(
          `cold, concurrency ${connections}: ${((ok * 1000) / r.wallMs).toFixed(0)} renders/s (${ok} × 200, ${JSON.stringify(r.status)}), p50 ${percentile(r.latenciesMs, 50).toFixed(2)} ms, p99 ${percentile(r.latenciesMs, 99).toFixed(2)} ms`,
        );
      } finally {
        svc.child.kill('SIGTERM');
      }
    }
    const svc = await startService(corpus);
    try {
      const autocannon = (
        (await import('autocannon' as string)) as {
          default: (
            o: Record<string, unknown>,
          ) => Promise<{ requests: { average: number }; latency: { p99: number }; non2xx: number }>;
        }
      ).default;
      const variant = paths.find((p) => p.endsWith('.apng')) ?? paths[0]!;
      const still = '/' + Object.keys(files).find((k) => k.startsWith('furni-renders/') && !k.includes('__'))!;
      await fetch(svc.base + variant);
      for (const [label, path] of [
        ['cached variant', variant],
        ['published still', still],
      ] as const) {
        const r = await autocannon({ url: svc.base + path, connections: 32, duration });
        console.log(
          `${label} ${path}: ${r.requests.average.toFixed(0)} req/s, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}`,
        );
      }
    } finally {
      svc.child.kill('SIGTERM');
    }
    console.log(
      `load average after: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

await main();
