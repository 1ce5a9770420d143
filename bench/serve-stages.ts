// npm run bench:stages — where a fresh size-m still on warm libraries spends its CPU, stage by stage
// (issue 28): each stage of the service's path run on its own over the warm workload (warm-figures.ts)
// with the service's own functions, timed with the thread's CPU clock where the stage is synchronous.
// What cannot be separated in one thread is measured around it:
// - HTTP parse and write: a minimal server in a child process answering a PNG of the workload's size
//   with the avatar route's headers, driven by the same load generator, by Node's http and by the
//   socket-level fast path; its CPU per request from /proc (the parser, the response write, the kernel's
//   loopback and the wake-ups);
// - pool dispatch and the result's copy: a worker thread that answers each job message with a body of
//   the workload's size, as the render worker does; CPU of the whole process per round trip.
// Data: BENCH_ASSETS (a Nitro hotel folder), else ../shared/realdata/nitro, else the sample kit.
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { deflateSync, inflateSync } from 'node:zlib';
import { encodeAvatar, hotelFromSnapshot, scanAvatarHotel, type AvatarHotel } from '../src/avatar/index.js';
import { drawAvatar } from '../src/avatar/draw.js';
import { type AvatarPlan } from '../src/avatar/plan-types.js';
import { planRender } from '../src/avatar/render.js';
import { avatarRequest } from '../src/avatar/request.js';
import { avatarCacheKey } from '../src/core/avatar/cache-key.js';
import { ServedHotel } from '../src/core/avatar/hotel-reload.js';
import { HotUrls } from '../src/core/cache/hot-urls.js';
import { cachedImage, ImageCache } from '../src/core/cache/image-cache.js';
import { parseAvatarQuery } from '../src/core/avatar/params.js';
import { DEFLATE_CHUNK } from '../src/imaging/png.js';
import { headBlock, installFastPath } from '../src/http/fast-path.js';
import { freePort, runLoad } from './http-load.js';
import { cpuSeconds, loadAverage, median } from './proc.js';
import { warmPath, WarmPoses } from './warm-figures.js';

const HERE = fileURLToPath(import.meta.url);
const N = Number(process.env.BENCH_STAGE_REQUESTS ?? 2000);

/** CPU µs of this thread (process.threadCpuUsage is Node 23+; this process runs one thread of JS work). */
const cpuNow = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

interface Stage {
  name: string;
  us: number[];
}

async function childServer(): Promise<void> {
  // The avatar route's answer, minus everything but the HTTP: same headers, a body of the given size,
  // written by Node's http (`node`) or by the socket-level fast path the avatar route uses (`fast`).
  const size = Number(process.argv[3]);
  const body = Buffer.alloc(size, 1);
  const headers = {
    'access-control-allow-origin': '*',
    etag: '"0123456789abcdefghijklmnopqrstuv"',
    'cache-control': 'public, max-age=31536000, immutable, stale-while-revalidate=86400',
    'x-imager-frames': '1',
    'x-imager-cache': 'render',
    'access-control-expose-headers': 'etag, x-imager-frames, x-imager-fallback, x-imager-cache',
    'content-type': 'image/png',
    'content-length': String(body.length),
  };
  const server = createServer((_req, res) => {
    res.writeHead(200, headers);
    res.end(body);
  });
  if (process.argv[4] === 'fast') {
    let id = 0;
    installFastPath(server, {
      claims: () => true,
      // A render's head is built per answer (only memory hits reuse theirs).
      answer: () => ({ status: 200, head: headBlock('200 OK', headers), body, cache: 'render' }),
      done: () => undefined,
      nextId: () => String(++id),
      trustProxy: false,
      keepAliveMs: 5000,
      onError: () => undefined,
    });
  }
  const port = await freePort();
  server.listen(port, '127.0.0.1', () => process.send?.({ port }));
}

async function hotelDir(): Promise<{ dir: string; cleanup?: () => Promise<void> }> {
  if (process.env.BENCH_ASSETS) return { dir: process.env.BENCH_ASSETS };
  const real = resolve(dirname(HERE), '..', '..', 'shared', 'realdata', 'nitro');
  if (existsSync(real)) return { dir: real };
  const scratch = await mkdtemp(join(tmpdir(), 'bench-stages-'));
  const { ensureSampleKit } = await import('../src/samplekit/index.js');
  await ensureSampleKit(join(scratch, 'kit'));
  return { dir: join(scratch, 'kit'), cleanup: () => rm(scratch, { recursive: true, force: true }) };
}

/** The IDAT payload of a PNG, inflated: what the encoder deflated. */
function idatRaw(png: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 8; at + 8 <= png.length; ) {
    const len = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') parts.push(png.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  return inflateSync(Buffer.concat(parts));
}

function withoutTint(plan: AvatarPlan): AvatarPlan {
  const strip = (ls: AvatarPlan['frames'][number]['avatar']) => ls.map((l) => ({ ...l, tint: undefined }));
  return {
    window: plan.window,
    frames: plan.frames.map((f) => ({ ...f, behind: strip(f.behind), avatar: strip(f.avatar), front: strip(f.front) })),
  };
}

async function main(): Promise<void> {
  const { dir, cleanup } = await hotelDir();
  const say = (s: string) => console.log(s);
  say(`stage timings — assets ${dir}, ${N} fresh warm-library size-m URLs, load average ${loadAverage()}`);
  const snapshot = await scanAvatarHotel(dir);
  // As the service: workers render with their hotel, the main thread keys with its own (`ServedHotel`).
  const hotel: AvatarHotel = hotelFromSnapshot(snapshot, { libraryCacheBytes: 256 * 1024 * 1024 });
  const served = new ServedHotel(1, snapshot);
  const poses = new WarmPoses(dir, Number(process.env.BENCH_SEED ?? 1));
  const frameCount = () => 1;

  // Warm-up: libraries loaded, code optimised.
  for (const p of poses.take(600)) {
    const q = parseAvatarQuery(warmPath(p).slice(warmPath(p).indexOf('?') + 1));
    if (!q.ok) throw new Error(q.reason);
    await encodeAvatar(
      drawAvatar(
        await planRender(
          hotel,
          avatarRequest((q.query.identity as { figure: string }).figure, q.query.pose, frameCount),
        ),
      ),
    );
  }

  const urls = poses.take(N).map(warmPath);
  const stages: Stage[] = [];
  const stage = (name: string): Stage => {
    const s = { name, us: [] as number[] };
    stages.push(s);
    return s;
  };
  const sParse = stage('query parse (URLSearchParams, normalize)');
  const sKey = stage('cache key: render inputs digest (key version) + canonical key + SHA-256');
  const sLookup = stage('cache look-ups (URL map, memory, failures: misses)');
  const sPlan = stage('plan (pose, libraries, sprites)');
  const sComposite = stage('composite (tint included)');
  const sTint = stage('  of which tint');
  const sEncode = stage('encode PNG (index + deflate)');
  const sDeflate = stage('  of which deflate');
  const sCopy = stage('result ready for transfer (a copy unless it owns its memory)');
  const sEtag = stage('ETag (SHA-256 of the body) + cache put');
  const hot = new HotUrls(32 * 1024 * 1024);
  const cache = new ImageCache({ memoryBytes: 256 * 1024 * 1024, diskBytes: 0 });
  const failures = new Map<string, unknown>();
  let bodyBytes = 0;
  for (const url of urls) {
    let t = cpuNow();
    const lap = (s: Stage) => {
      const now = cpuNow();
      s.us.push(now - t);
      t = now;
    };
    const parsed = parseAvatarQuery(url.slice(url.indexOf('?') + 1));
    if (!parsed.ok) throw new Error(parsed.reason);
    const { identity, pose, pairs } = parsed.query;
    const figure = (identity as { figure: string }).figure;
    const req = avatarRequest(figure, pose, frameCount);
    lap(sParse);
    const version = served.keyVersion(req);
    const key = avatarCacheKey({
      pairs,
      identity,
      resolvedFigure: figure,
      animates: req.animated,
      rendererVersion: version,
    });
    lap(sKey);
    if (hot.get(url) !== undefined || cache.getMemory(key) !== undefined || failures.has(key))
      throw new Error('not a fresh URL');
    lap(sLookup);
    const plan = await planRender(hotel, req);
    lap(sPlan);
    const render = drawAvatar(plan);
    lap(sComposite);
    const bare = withoutTint(plan);
    t = cpuNow();
    drawAvatar(bare);
    sTint.us.push(Math.max(0, sComposite.us[sComposite.us.length - 1]! - (cpuNow() - t)));
    t = cpuNow();
    const encoded = await encodeAvatar(render, 'png');
    lap(sEncode);
    const raw = idatRaw(encoded);
    t = cpuNow();
    deflateSync(raw, { level: 6, chunkSize: DEFLATE_CHUNK });
    lap(sDeflate);
    // As the worker: transferred as it is when the bytes own their ArrayBuffer, else copied first.
    const body =
      encoded.byteOffset === 0 && encoded.byteLength === encoded.buffer.byteLength ? encoded : new Uint8Array(encoded);
    lap(sCopy);
    const image = cachedImage(Buffer.from(body.buffer, body.byteOffset, body.byteLength), 1, version);
    cache.put(key, image);
    hot.set(url, key);
    lap(sEtag);
    bodyBytes += body.length;
  }
  const avgBody = Math.round(bodyBytes / urls.length);

  // Pool dispatch and the result's copy: job message in, a body of the average size out (transferred).
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     parentPort.on('message', (job) => { const body = new Uint8Array(${avgBody}); parentPort.postMessage({ type: 'done', id: job.id, body, frames: 1, width: 64, height: 110, ms: 0.3, figureLibraryBytes: 1, effectLibraryBytes: 0 }, [body.buffer]); });`,
    { eval: true },
  );
  const reqs = urls.map((u) => {
    const q = parseAvatarQuery(u.slice(u.indexOf('?') + 1));
    if (!q.ok) throw new Error(q.reason);
    return avatarRequest((q.query.identity as { figure: string }).figure, q.query.pose, frameCount);
  });
  const roundTrip = (i: number) =>
    new Promise<void>((done) => {
      worker.once('message', (msg: { body: Uint8Array }) => {
        Buffer.from(msg.body.buffer, msg.body.byteOffset, msg.body.byteLength);
        done();
      });
      worker.postMessage({ id: i, req: reqs[i]!, debug: false });
    });
  for (let i = 0; i < 200; i++) await roundTrip(i);
  const p0 = cpuSeconds(process.pid);
  const w0 = performance.now();
  for (let i = 0; i < reqs.length; i++) await roundTrip(i);
  const dispatchUs = ((cpuSeconds(process.pid) - p0) / reqs.length) * 1e6;
  const dispatchWallUs = ((performance.now() - w0) / reqs.length) * 1e3;
  await worker.terminate();

  // HTTP parse and write: a server answering the same URLs with a body of the average size, by Node's
  // http and by the fast path.
  const http: Record<string, number> = {};
  for (const mode of ['node', 'fast']) {
    const child = fork(HERE, ['--child', String(avgBody), mode], { execArgv: ['--import', 'tsx'] });
    const port = await new Promise<number>((ok) => child.once('message', (m: { port: number }) => ok(m.port)));
    const base = `http://127.0.0.1:${port}`;
    await runLoad({ base, paths: urls.slice(0, 500), connections: 1 });
    for (const c of [1, 64]) {
      const c0 = cpuSeconds(child.pid!);
      const r = await runLoad({ base, paths: [...urls, ...urls], connections: c });
      http[`${mode} ${c}`] = ((cpuSeconds(child.pid!) - c0) / (r.status[200] ?? 1)) * 1e6;
    }
    child.kill();
  }

  const fmt = (x: number) => x.toFixed(1).padStart(7);
  say(`average body ${avgBody} bytes`);
  say('| stage | median µs | mean µs |');
  say('|---|---|---|');
  say(
    `| HTTP parse + response write, Node's http (a bare server in its own process: CPU per request from /proc, c=1 / c=64) | ${fmt(http['node 1']!)} / ${fmt(http['node 64']!).trim()} | |`,
  );
  say(
    `| HTTP parse + response write, the fast path (the avatar route's since issue 28; same, c=1 / c=64) | ${fmt(http['fast 1']!)} / ${fmt(http['fast 64']!).trim()} | |`,
  );
  for (const s of stages) {
    const mean = s.us.reduce((a, b) => a + b, 0) / s.us.length;
    say(`| ${s.name} | ${fmt(median(s.us))} | ${fmt(mean)} |`);
  }
  say(
    `| pool dispatch + result message (both threads, CPU per round trip, one job at a time as at c=1; ${dispatchWallUs.toFixed(0)} µs wall) | ${fmt(dispatchUs)} | |`,
  );
  say(`load average at the end: ${loadAverage()}`);
  await cleanup?.();
}

if (process.argv[2] === '--child') {
  void childServer();
} else {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
