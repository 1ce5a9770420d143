// Memory under hostile URLs: distinct 12 KB URLs (a valid figure plus a cache-buster and padding the
// renderer ignores, and the same with a figure that fails to render) against a service with a small
// cache budget. Every cache and map must stay within the bytes it reports, each entry counted at what it
// really holds, and the heap must level off once the caches are full instead of growing per URL.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ensureSampleKit } from '../../../src/samplekit/index.js';
import { startAvatarService, type AvatarServiceInstance } from '../../../src/server/imager.js';
import { deadBase, testAvatarConfig } from './fixtures.js';
import { HOT_URL_OVERHEAD } from '../../../src/core/cache/hot-urls.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const FIG = 'hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40';
const PAD = 'x'.repeat(12_000);
const CACHE_BYTES = 1024 * 1024;

let scratch: string;
let svc: AvatarServiceInstance & { url: string };
const agent = new Agent({ keepAlive: true, maxSockets: 4 });

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'avatar-memory-'));
  const kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  // The per-client limit is off: one client sending distinct URLs in bulk is exactly what it would stop.
  svc = await startAvatarService(
    testAvatarConfig(kit, await deadBase(), { memoryCacheBytes: CACHE_BYTES, clientRatePerSecond: 0 }),
  );
});

after(async () => {
  agent.destroy();
  await svc.close();
  await rm(scratch, { recursive: true, force: true });
});

function getStatus(path: string): Promise<number> {
  const { port } = new URL(svc.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Sends `count` distinct long URLs from `from` on, four at a time; half render, half fail to render. */
async function hostile(from: number, count: number): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  let next = from;
  const worker = async () => {
    while (next < from + count) {
      const i = next++;
      const figure = i % 2 === 0 ? FIG : 'hd-99999999-1.ch-210-66';
      const status = await getStatus(`/avatar.png?figure=${figure}&size=s&cb=${i}&pad=${PAD}`);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return statuses;
}

function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

test('100s of distinct 12 KB URLs: every cache within its budget counting what it holds, and the heap levels off', async () => {
  const first = await hostile(0, 1000);
  assert.deepEqual(first, { 200: 500, 302: 500 }, 'valid figures render, the broken one falls back');
  const heapAfterFirst = heapUsed();
  const second = await hostile(1000, 1000);
  assert.deepEqual(second, { 200: 500, 302: 500 });
  const heapAfterSecond = heapUsed();

  const { renders, recentFailures, recentFailureBytes } = svc.service.stats();
  assert.ok(renders >= 1000, `every URL was a fresh entry (contract A8.1 rule 2): ${renders} renders`);
  const health = (await (await fetch(svc.url + '/healthz')).json()) as {
    cache: {
      memory: { bytes: number; maxBytes: number; entries: number };
      hotUrls: { bytes: number; maxBytes: number; entries: number };
    };
  };
  const { memory, hotUrls } = health.cache;
  assert.ok(memory.bytes <= CACHE_BYTES, `image cache holds ${memory.bytes} of ${CACHE_BYTES} bytes`);
  assert.ok(hotUrls.bytes <= hotUrls.maxBytes, `URL map holds ${hotUrls.bytes} of ${hotUrls.maxBytes} bytes`);
  // A padded URL is never kept by the fast path (each would turn the map over, kilobytes of old-generation
  // garbage a request); a URL of real size is, counted at its own length.
  assert.equal(hotUrls.entries, 0, `no 12 KB URL kept: ${hotUrls.entries} URLs, ${hotUrls.bytes} bytes`);
  const short = `/avatar.png?figure=${FIG}&size=s&cb=short`;
  assert.equal(await getStatus(short), 200);
  const after = (await (await fetch(svc.url + '/healthz')).json()) as {
    cache: { hotUrls: { bytes: number; entries: number } };
  };
  assert.equal(after.cache.hotUrls.entries, 1);
  assert.ok(
    after.cache.hotUrls.bytes >= short.length + HOT_URL_OVERHEAD,
    `${after.cache.hotUrls.bytes} bytes for a ${short.length}-byte URL`,
  );
  assert.ok(
    recentFailures > 0 && recentFailureBytes / recentFailures < 2048,
    `a remembered failure holds no URL: ${recentFailureBytes} bytes for ${recentFailures}`,
  );

  // The second thousand URLs cost the heap next to nothing once the caches were full. Before keys were
  // digests and the URL map was bounded in bytes, every URL stayed in the heap once or twice (~18 MB here).
  const growth = heapAfterSecond - heapAfterFirst;
  assert.ok(growth < 6 * 1024 * 1024, `heap grew ${(growth / 1048576).toFixed(1)} MiB over the second 1,000 URLs`);
});
