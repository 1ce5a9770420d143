// npm run bench:cached — the cached hot paths of both services under load on loopback: one avatar URL
// answered from memory, one furni file answered by the fast path. Reports req/s and requests per
// service CPU-second (the service's own CPU time from /proc, which a busy shared machine disturbs far
// less than wall-clock throughput) as medians of several rounds.
//
//   --against DIR   also run another checkout of hotel-imager (e.g. ../main) in the same rounds, order
//                   alternating, and print the ratio of this one to it: how much a change costs
//   --rounds N (5)  --seconds S (5)  --connections C (32)  --log-level info|warn (info, the default
//                   of a real deployment; its lines go to /dev/null)
//
// Each service runs in its own child process from its checkout's source (tsx), one render worker, the
// per-client limit off; the load generator (autocannon) runs here. A third line is the machine's ceiling
// for this load: a bare Node HTTP server (no routing, parsing, cache or log) answering the avatar URL's
// bytes and headers, in a child process too, in the same rounds.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Autocannon } from './http-load.js';
import { cpuSeconds, loadAverage, median } from './proc.js';
import { avatarConfigModule, avatarServiceModule } from './checkout-layout.js';

const HERE_ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1]! : fallback;
}

type Kind = 'avatar' | 'furni' | 'bare node';

/** The child's program: start one service from `root`'s source and report its URL. */
function childScript(kind: Kind, root: string, data: string, logLevel: string): string {
  const src = (p: string) => JSON.stringify(join(root, 'src', p));
  if (kind === 'bare node') {
    // `data`: a JSON file with the body (base64) and headers to answer every request with.
    return `
      const { createServer } = await import('node:http');
      const { readFileSync } = await import('node:fs');
      const answer = JSON.parse(readFileSync(${JSON.stringify(data)}, 'utf8'));
      const body = Buffer.from(answer.body, 'base64');
      const s = createServer((req, res) => { res.writeHead(200, answer.headers); res.end(body); });
      s.listen(0, '127.0.0.1', () => process.send({ url: 'http://127.0.0.1:' + s.address().port }));`;
  }
  if (kind === 'avatar') {
    return `
      const { defaultAvatarConfig } = await import(${src(avatarConfigModule(root))});
      const { startAvatarService } = await import(${src(avatarServiceModule(root))});
      const s = await startAvatarService({ ...defaultAvatarConfig(), assetsDir: ${JSON.stringify(data)}, host: '127.0.0.1', port: 0,
        workers: 1, clientRatePerSecond: 0, logLevel: ${JSON.stringify(logLevel)} });
      process.send({ url: s.url });`;
  }
  return `
    const { startFurniServer } = await import(${src('server/furni/index.ts')});
    const s = await startFurniServer({ corpus: ${JSON.stringify(data)}, host: '127.0.0.1', port: 0, logLevel: ${JSON.stringify(logLevel)} });
    process.send({ url: s.url });`;
}

interface Running {
  proc: ChildProcess;
  url: string;
}

function startChild(kind: Kind, root: string, data: string, logLevel: string): Promise<Running> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', childScript(kind, root, data, logLevel)],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    },
  );
  return new Promise((resolvePromise, reject) => {
    proc.once('message', (m: { url: string }) => resolvePromise({ proc, url: m.url }));
    proc.once('exit', (code) => reject(new Error(`${kind} service from ${root} exited with ${code}`)));
  });
}

async function main(): Promise<void> {
  const rounds = Number(arg('rounds', '5'));
  const seconds = Number(arg('seconds', '5'));
  const connections = Number(arg('connections', '32'));
  const logLevel = arg('log-level', 'info');
  const against = process.argv.includes('--against') ? resolve(arg('against', '')) : undefined;
  const autocannon = ((await import('autocannon' as string)) as { default: Autocannon }).default;
  const { ensureSampleKit } = await import('../src/samplekit/index.js');
  const { runBuild } = await import('../src/corpus/run.js');

  const scratch = await mkdtemp(join(tmpdir(), 'bench-cached-'));
  const kit = join(scratch, 'kit');
  const corpus = join(scratch, 'corpus');
  await ensureSampleKit(kit);
  await runBuild({ assets: kit, out: corpus });

  const roots = against ? [HERE_ROOT, against] : [HERE_ROOT];
  const label = (root: string) => (root === HERE_ROOT ? 'this checkout' : root);
  const children: Running[] = [];
  const paths: Record<Kind, string> = {
    'bare node': '',
    avatar: '/avatar.png?figure=hd-180-1.hr-100-61.ch-210-66.lg-270-82.sh-290-80&direction=3&size=m',
    furni: '/furni-renders/kit_sofa_colors*3.png',
  };
  const results = new Map<string, { rps: number[]; perCpu: number[]; p99: number[] }>();
  try {
    const services = new Map<string, Running>();
    let avatarAnswer: { body: string; headers: Record<string, string> } | undefined;
    for (const root of roots) {
      for (const kind of ['avatar', 'furni'] as const) {
        const r = await startChild(kind, root, kind === 'avatar' ? kit : corpus, logLevel);
        children.push(r);
        services.set(`${kind} ${root}`, r);
        const first = await fetch(r.url + paths[kind]);
        if (first.status !== 200) throw new Error(`${kind} from ${root}: ${first.status} for ${paths[kind]}`);
        const body = Buffer.from(await first.arrayBuffer());
        if (kind === 'avatar' && !avatarAnswer) {
          const headers: Record<string, string> = {};
          first.headers.forEach((value, name) => {
            if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)) headers[name] = value;
          });
          avatarAnswer = { body: body.toString('base64'), headers };
        }
      }
    }
    const answerFile = join(scratch, 'bare-answer.json');
    await writeFile(answerFile, JSON.stringify(avatarAnswer));
    const bare = await startChild('bare node', HERE_ROOT, answerFile, logLevel);
    children.push(bare);
    services.set(`bare node ${HERE_ROOT}`, bare);
    paths['bare node'] = paths.avatar;
    console.log(
      `load ${loadAverage()}; ${rounds} rounds × ${seconds} s, ${connections} connections, log level ${logLevel}`,
    );
    for (let round = 0; round < rounds; round++) {
      // Alternate the order so neither checkout always runs first (warmer caches, a quieter moment).
      const order = round % 2 === 0 ? roots : [...roots].reverse();
      for (const kind of ['avatar', 'furni', 'bare node'] as const) {
        for (const root of kind === 'bare node' ? [HERE_ROOT] : order) {
          const r = services.get(`${kind} ${root}`)!;
          await autocannon({ url: r.url + paths[kind], connections, duration: 1 }); // warm-up
          const cpu0 = cpuSeconds(r.proc.pid!);
          const out = await autocannon({ url: r.url + paths[kind], connections, duration: seconds });
          const cpu = cpuSeconds(r.proc.pid!) - cpu0;
          if (out.non2xx > 0 || out.errors > 0)
            throw new Error(`${kind} ${label(root)}: ${out.non2xx} non-2xx, ${out.errors} errors`);
          const key = `${kind} ${root}`;
          const acc = results.get(key) ?? { rps: [], perCpu: [], p99: [] };
          acc.rps.push(out.requests.average);
          acc.perCpu.push(out.requests.total / cpu);
          acc.p99.push(out.latency.p99);
          results.set(key, acc);
          console.log(
            `round ${round + 1} ${kind.padEnd(9)} ${kind === 'bare node' ? 'ceiling' : label(root)}: ${Math.round(out.requests.average)} req/s, ${Math.round(out.requests.total / cpu)} req per CPU-s, p99 ${out.latency.p99} ms (load ${loadAverage()})`,
          );
        }
      }
    }
    console.log('\nmedians:');
    for (const kind of ['avatar', 'furni', 'bare node'] as const) {
      const mine = results.get(`${kind} ${HERE_ROOT}`)!;
      let line = `${kind.padEnd(9)} ${kind === 'bare node' ? 'ceiling (the avatar answer from a bare Node server)' : 'this checkout'}: ${Math.round(median(mine.rps))} req/s, ${Math.round(median(mine.perCpu))} req per CPU-s, p99 ${median(mine.p99)} ms`;
      if (against && kind !== 'bare node') {
        const base = results.get(`${kind} ${against}`)!;
        line += `; ${against}: ${Math.round(median(base.rps))} req/s, ${Math.round(median(base.perCpu))} req per CPU-s; ratio ${(median(mine.rps) / median(base.rps)).toFixed(3)} (req/s), ${(median(mine.perCpu) / median(base.perCpu)).toFixed(3)} (per CPU-s)`;
        const perRound = mine.perCpu.map((v, i) => (v / base.perCpu[i]!).toFixed(3)).join(' ');
        line += `\n       per-round ratios (per CPU-s): ${perRound}`;
      }
      console.log(line);
    }
    console.log(`load ${loadAverage()}`);
  } finally {
    for (const c of children) c.proc.kill();
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
