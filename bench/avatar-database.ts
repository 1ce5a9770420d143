// npm run bench:user — `?user=` from the hotel's database: cold (every request a name not asked before, so
// the database is asked) and warm (one name, answered from the name cache), req/s and latency with wrk,
// and the database's share of a cold request (the user_look query's mean time from /metrics over the
// cold requests' mean latency).
//
// Setup: a throwaway MariaDB on this machine (test/helpers/mariadb.ts: Debian's mariadbd, the Arcturus
// tables) seeded with BENCH_USERS players (default 200,000) who all wear one look, so every cold request
// costs a lookup and not a render (the image is in memory after the first); the avatar service as a child
// process (`hotel-imager serve avatar --database …`, one render worker, the sample kit). wrk (Debian
// package wrk) drives BENCH_CONNECTIONS (16) connections on 2 threads for BENCH_SECONDS (10) per run.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSampleKit } from '../src/samplekit/index.js';
import { freePort, waitForPort } from '../test/helpers/ports.js';
import { MARIADB_SKIP, startMariaDb } from '../test/helpers/mariadb.js';

const USERS = Number(process.env.BENCH_USERS ?? 200_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const LOOK = 'hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40';

interface WrkResult {
  requests: number;
  rps: number;
  p50ms: number;
  p99ms: number;
  meanMs: number;
  non200: number;
}

/** wrk with a Lua script; its done() prints one JSON line we read back. */
function wrk(url: string, script: string): WrkResult {
  const r = spawnSync('wrk', ['-t2', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '--latency', '-s', script, url], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`wrk failed: ${r.stderr}`);
  const line = r.stdout.split('\n').find((l) => l.startsWith('{"requests"'));
  if (!line) throw new Error(`wrk printed no result:\n${r.stdout}`);
  return JSON.parse(line) as WrkResult;
}

const DONE = `
done = function(summary, latency, requests)
  local non200 = summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.timeout
  io.write(string.format('{"requests":%d,"rps":%.1f,"p50ms":%.3f,"p99ms":%.3f,"meanMs":%.3f,"non200":%d}\\n',
    summary.requests, summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, latency.mean / 1000, non200))
end
`;

/** Each thread walks its own residue class of the names u1..uN, so no name is asked twice. */
const COLD = `
local threads = {}
local counter = 0
setup = function(thread)
  counter = counter + 1
  thread:set("tid", counter)
  table.insert(threads, thread)
end
init = function(args)
  n = tid
end
request = function()
  local path = "/avatar.png?user=u" .. n
  n = n + 2
  return wrk.format("GET", path)
end
${DONE}`;

const WARM = `
request = function()
  return wrk.format("GET", "/avatar.png?user=u1")
end
${DONE}`;

async function metric(base: string, name: string): Promise<number> {
  const r = spawnSync('curl', ['-s', `${base}/metrics`], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const text = r.stdout;
  const m = new RegExp(`^${name.replace(/[{}"]/g, (c) => `\\${c}`)} ([0-9.e+-]+)$`, 'm').exec(text);
  return m ? Number(m[1]) : 0;
}

async function main(): Promise<void> {
  if (MARIADB_SKIP) throw new Error(MARIADB_SKIP);
  if (spawnSync('wrk', ['--version']).error) throw new Error('wrk is not installed (Debian package wrk)');
  const scratch = await mkdtemp(join(tmpdir(), 'bench-user-db-'));
  const kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  const db = await startMariaDb();
  const seeded = performance.now();
  await db.sql(`
    INSERT INTO users (id, username, password, account_created, look, gender, ip_register, ip_current)
    SELECT seq, CONCAT('u', seq), '', 0, '${LOOK}', 'M', '', '' FROM seq_1_to_${USERS};`);
  console.log(`seeded ${USERS} users in ${Math.round(performance.now() - seeded)} ms`);
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli/main.ts',
      'serve',
      'avatar',
      '--assets',
      kit,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--jobs',
      '1',
      '--database',
      db.url,
      '--log-level',
      'warn',
      '--client-rate',
      '0',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForPort(port, 60_000);
    // The one image every user wears, rendered once.
    await fetch(`${base}/avatar.png?figure=${LOOK}`);
    const cold = join(scratch, 'cold.lua');
    const warm = join(scratch, 'warm.lua');
    await writeFile(cold, COLD);
    await writeFile(warm, WARM);
    const load = () =>
      loadavg()
        .map((l) => l.toFixed(2))
        .join(' ');
    console.log(`machine load before: ${load()}`);
    const q = 'hotel_imager_avatar_database_query_duration_seconds';
    const sum0 = await metric(base, `${q}_sum{query="user_look"}`);
    const count0 = await metric(base, `${q}_count{query="user_look"}`);
    const c = wrk(base, cold);
    const sum1 = await metric(base, `${q}_sum{query="user_look"}`);
    const count1 = await metric(base, `${q}_count{query="user_look"}`);
    console.log(`machine load after cold: ${load()}`);
    const w = wrk(base, warm);
    console.log(`machine load after warm: ${load()}`);
    const queryMs = ((sum1 - sum0) / Math.max(1, count1 - count0)) * 1000;
    const row = (name: string, r: WrkResult) =>
      `| ${name} | ${r.requests} | ${r.rps.toFixed(0)} | ${r.p50ms.toFixed(2)} | ${r.p99ms.toFixed(2)} | ${r.meanMs.toFixed(2)} | ${r.non200} |`;
    console.log(`\n${CONNECTIONS} connections, ${SECONDS} s each, ${USERS} users, MariaDB on this machine\n`);
    console.log('| ?user= | requests | req/s | p50 ms | p99 ms | mean ms | non-200 |');
    console.log('|---|---|---|---|---|---|---|');
    console.log(row('cold (database asked)', c));
    console.log(row('warm (name cache)', w));
    console.log(
      `\nuser_look: ${count1 - count0} queries, mean ${queryMs.toFixed(2)} ms (connection wait included): ` +
        `${((queryMs / c.meanMs) * 100).toFixed(0)} % of a cold request's mean latency`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await db.stop();
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
