// Real-socket helpers for the furni service tests: raw request targets go out exactly as written
// (node:http does not normalise `..` or backslashes the way fetch does), and a fixture corpus served
// from either storage backend, so one conformance test runs against both.
import { request } from 'node:http';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startFurniServer, type FurniServerOptions, type RunningFurniServer } from '../../../src/server/furni/index.js';
import { publishCorpus } from '../../../src/storage/publish.js';
import { startTestBucket } from '../../helpers/s3-bucket.js';
import { furniKitFiles } from '../../../src/samplekit/furni/index.js';
import { runBuild } from '../../../src/corpus/run.js';
import { writeCorpusFixture } from './fixture.js';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export function rawRequest(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    // Node's client frames a DELETE body only when told its length.
    const framed = body === undefined ? headers : { 'content-length': String(Buffer.byteLength(body)), ...headers };
    const req = request({ host: '127.0.0.1', port, method, path, headers: framed, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface TestServer extends RunningFurniServer {
  lines: string[];
  /** Parsed JSON log lines whose msg is "request". */
  requestLines(): Record<string, unknown>[];
}

export async function startTestServer(
  opts: Omit<FurniServerOptions, 'logStream' | 'port' | 'host'>,
): Promise<TestServer> {
  const lines: string[] = [];
  const server = await startFurniServer({
    checkIntervalMs: 50,
    ...opts,
    port: 0,
    host: '127.0.0.1',
    logStream: { write: (line: string) => lines.push(line) },
  });
  return {
    ...server,
    lines,
    requestLines: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'request'),
  };
}

export async function tempDir(prefix: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Runs `fn` in a fresh temporary folder, removed afterwards whatever happens. */
export async function withTempDir<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const tmp = await tempDir(prefix);
  try {
    return await fn(tmp.dir);
  } finally {
    await tmp.cleanup();
  }
}

/** Runs `fn` against a started test server, closed afterwards whatever happens. */
export async function withTestServer<T>(
  opts: Parameters<typeof startTestServer>[0],
  fn: (srv: TestServer) => Promise<T>,
): Promise<T> {
  const srv = await startTestServer(opts);
  try {
    return await fn(srv);
  } finally {
    await srv.close();
  }
}

/** Polls until `check` holds (or fails after `ms`), for effects that land on a timer. */
export async function eventually(check: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > until) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Where a test's corpus is served from: the built folder itself, or a bucket it was published to. */
export type CorpusBackend = 'disk' | 's3';
export const CORPUS_BACKENDS: CorpusBackend[] = ['disk', 's3'];

/**
 * Writes `files` as a built corpus in `dir`/corpus and serves it: from that folder, or (s3) published
 * with `hotel-imager publish`'s code to a fresh s3rver bucket on loopback and served from the bucket.
 * close() stops the server and the bucket.
 */
export async function startFixtureServer(
  backend: CorpusBackend,
  dir: string,
  files: Record<string, Buffer>,
  opts: Omit<Parameters<typeof startTestServer>[0], 'corpus'>,
): Promise<TestServer> {
  const corpus = join(dir, 'corpus');
  await writeCorpusFixture(corpus, files);
  if (backend === 'disk') return startTestServer({ ...opts, corpus });
  const bucket = await startTestBucket();
  try {
    await publishCorpus({ corpus, to: bucket.url('furni'), s3: bucket.settings });
    const srv = await startTestServer({ ...opts, corpus: bucket.url('furni'), s3: bucket.settings });
    return {
      ...srv,
      close: async () => {
        await srv.close();
        await bucket.close();
      },
    };
  } catch (e) {
    await bucket.close();
    throw e;
  }
}

/** The sample kit's furni (no extra items) written to a temporary folder and built into `<dir>/corpus`, once. */
export async function builtKitCorpus(prefix: string): Promise<{
  tmp: { dir: string; cleanup: () => Promise<void> };
  corpus: string;
  listed: Record<string, { size: number; sha256: string }>;
}> {
  const tmp = await tempDir(prefix);
  const kit = join(tmp.dir, 'kit');
  for (const f of await furniKitFiles({ extraFurni: 0 })) {
    await mkdir(dirname(join(kit, f.path)), { recursive: true });
    await writeFile(join(kit, f.path), f.data);
  }
  const corpus = join(tmp.dir, 'corpus');
  await runBuild({ assets: kit, out: corpus, jobs: 1, now: () => new Date('2026-01-01T00:00:00Z') });
  const listed = JSON.parse(await readFile(join(corpus, 'corpus.json'), 'utf8')).files;
  return { tmp, corpus, listed };
}
