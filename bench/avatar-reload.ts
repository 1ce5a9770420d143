// npm run bench:reload — the avatar service swapping its hotel while it serves: 5 swaps on a copy of
// BENCH_ASSETS (default ../shared/realdata/nitro, else the sample kit), each one a changed library
// (its sprites recoloured, then put back) and a set added to FigureData, found by polling
// (BENCH_RELOAD_MS, default 2000). Per swap: the reload timings the service reports (change seen →
// swapped, read, workers), the requests answered during it (a mixed cold/cached load; anything but 200
// is counted), and the RSS of the service before the change and after the swap once the same figures
// were asked for again (BENCH_SETTLE_MS later, default 3000): the old hotel must be released. Each swap
// changes the body library every figure reads, so every key changes and the image cache and URL map
// fill with the new images beside the old (up to their budgets): the table gives the RSS without them too.
// The service runs in a child process (this file with --child).
import { runBench, startChild, stopChild } from './child.js';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { editSet, figureFile, recolouredLibrary, writeWhole } from '../test/helpers/hotel-edits.js';
import { freePort, percentile, runLoad } from './http-load.js';
import { distinctFigures } from './distinct-figures.js';
import { loadAverage, median, rssOf } from './proc.js';

const HERE = fileURLToPath(import.meta.url);
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

async function childMain(): Promise<void> {
  const { defaultAvatarConfig } = await import('../src/core/avatar/config.js');
  const { startAvatarService } = await import('../src/server/imager.js');
  const [assetsDir, port, reloadMs] = process.argv.slice(3);
  const running = await startAvatarService({
    ...defaultAvatarConfig(),
    assetsDir: assetsDir!,
    host: '127.0.0.1',
    port: Number(port),
    logLevel: 'warn',
    clientRatePerSecond: 0,
    checkIntervalMs: Number(reloadMs),
  });
  process.send?.({ ready: running.url });
}

interface Health {
  cache: { memory: { bytes: number }; hotUrls: { bytes: number } };
  assets: {
    generation: number;
    reload: {
      reloadFailures: number;
      lastError: { message: string } | null;
      lastReload: { detectToSwappedMs: number; readMs: number; workersMs: number } | null;
    };
  };
  renders: { changedRetries: number };
}

async function main(): Promise<void> {
  const realdata = join(fileURLToPath(new URL('..', import.meta.url)), '..', 'shared', 'realdata', 'nitro');
  const source = process.env.BENCH_ASSETS ?? (existsSync(realdata) ? realdata : undefined);
  const reloadMs = env('BENCH_RELOAD_MS', 2000);
  const settleMs = env('BENCH_SETTLE_MS', 3000);
  const swaps = env('BENCH_SWAPS', 5);
  const scratch = await mkdtemp(join(tmpdir(), 'bench-reload-'));
  const dir = join(scratch, 'hotel');
  if (source) {
    for (const sub of ['gamedata', join('bundled', 'figure'), join('bundled', 'effect')]) {
      if (existsSync(join(source, sub))) await cp(join(source, sub), join(dir, sub), { recursive: true });
    }
  } else {
    const { ensureSampleKit } = await import('../src/samplekit/index.js');
    await ensureSampleKit(dir);
  }
  const say = (s: string) => console.log(s);
  say(
    `assets: ${source ?? 'the sample kit'} (copied to ${dir}); polling every ${reloadMs} ms; load average ${loadAverage()}`,
  );

  const port = await freePort();
  const { proc, url } = await startChild(HERE, [dir, String(port), String(reloadMs)]);
  const health = async () => (await (await fetch(url + '/healthz')).json()) as Health;
  try {
    // The figures every pass asks for: a working set that loads most of the hotel's libraries.
    const figures = distinctFigures(dir, env('BENCH_FIGURES', 2000), 7);
    const paths = (tag: string) =>
      figures.map((f, i) => `/avatar.png?figure=${f}&size=${'sml'[i % 3]}&direction=${i % 8}${tag}`);
    const warm = await runLoad({ base: url, paths: paths(''), connections: 16 });
    say(`warm: ${figures.length} figures, ${warm.status[200] ?? 0} rendered; RSS ${rssOf(proc.pid!).rssMb} MB`);
    // The library each swap changes: the one most of the figures read.
    const fd = JSON.parse(await readFile(join(dir, 'gamedata', 'FigureData.json'), 'utf8')) as {
      setTypes: { type: string; sets: { id: number; parts: { id: number; type: string }[] }[] }[];
    };
    const lib = existsSync(figureFile(dir, 'hh_human_body'))
      ? 'hh_human_body'
      : (await import('node:fs')).readdirSync(join(dir, 'bundled', 'figure'))[0]!.replace(/\.nitro$/, '');
    const original = await readFile(figureFile(dir, lib));
    const recoloured = await recolouredLibrary(dir, lib);
    const hatType = fd.setTypes.find((t) => t.type === 'ha') ?? fd.setTypes[0]!;
    const { id: _id, ...template } = hatType.sets[0]!;
    const base = paths('');
    const rows: string[] = [];
    const rss: { before: number; after: number }[] = [];
    const MB = 1024 * 1024;
    /** RSS, and RSS less the bytes the image cache and the URL map hold. */
    const memory = async () => {
      const h = await health();
      const r = rssOf(proc.pid!).rssMb;
      return { rss: r, outside: Math.round(r - (h.cache.memory.bytes + h.cache.hotUrls.bytes) / MB) };
    };
    // The same mixed load without a swap, for comparison.
    const still = await runLoad({
      base: url,
      paths: paths('&swap=0').flatMap((p, k) => [p, base[k]!]),
      connections: 16,
    });
    const stillOther =
      Object.entries(still.status)
        .filter(([s]) => s !== '200')
        .map(([s, n]) => `${s}×${n}`)
        .join(' ') || 'none';
    rows.push(
      `| none | | | | ${still.requests} | ${stillOther}, errors ${still.errors} | ${percentile(still.latenciesMs, 50).toFixed(1)} / ${percentile(still.latenciesMs, 99).toFixed(0)} | | |`,
    );
    for (let i = 1; i <= swaps; i++) {
      // Settled and asked again for the same figures: the level this hotel holds.
      await runLoad({ base: url, paths: base, connections: 16 });
      await new Promise((r) => setTimeout(r, settleMs));
      const before = await memory();
      const gen = (await health()).assets.generation;
      // A load during the swap: half cold (new URLs), half cached.
      const during = paths(`&swap=${i}`).flatMap((p, k) => [p, base[k]!]);
      const loading = runLoad({ base: url, paths: during, connections: 16 });
      await writeWhole(figureFile(dir, lib), i % 2 === 1 ? recoloured : original);
      await editSet(dir, hatType.type, 900_000 + i, template as Parameters<typeof editSet>[3] & object);
      for (;;) {
        const h = await health();
        if (h.assets.generation > gen) break;
        if (h.assets.reload.reloadFailures > 0) throw new Error(`reload failed: ${h.assets.reload.lastError?.message}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const load = await loading;
      const h = await health();
      await runLoad({ base: url, paths: base, connections: 16 });
      await new Promise((r) => setTimeout(r, settleMs));
      const after = await memory();
      rss.push({ before: before.outside, after: after.outside });
      const t = h.assets.reload.lastReload!;
      const other =
        Object.entries(load.status)
          .filter(([s]) => s !== '200')
          .map(([s, n]) => `${s}×${n}`)
          .join(' ') || 'none';
      rows.push(
        `| ${i} | ${t.detectToSwappedMs} | ${t.readMs} | ${t.workersMs} | ${load.requests} | ${other}, errors ${load.errors} | ${percentile(load.latenciesMs, 50).toFixed(1)} / ${percentile(load.latenciesMs, 99).toFixed(0)} | ${before.rss} → ${after.rss} | ${before.outside} → ${after.outside} |`,
      );
      say(`swap ${i}: ${rows[rows.length - 1]}`);
    }
    const h = await health();
    say('');
    say(
      `| swap | seen → swapped ms | read ms | workers ms | requests during | not 200 | p50 / p99 ms | RSS MB before → after | RSS less image cache and URL map, MB |`,
    );
    say(`|---|---|---|---|---|---|---|---|---|`);
    for (const r of rows) say(r);
    say('');
    say(
      `RSS less the caches, over ${swaps} swaps: ${rss[rss.length - 1]!.after - rss[0]!.before} MB (median per swap ${median(rss.map((r) => r.after - r.before))} MB); ` +
        `requests retried on a newer hotel: ${h.renders.changedRetries}; load average ${loadAverage()}`,
    );
  } finally {
    await stopChild(proc);
    await rm(scratch, { recursive: true, force: true });
  }
}

runBench(main, childMain);
