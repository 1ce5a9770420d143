// A real S3-compatible server for tests: s3rver (from npm) on loopback with a temporary directory, behind
// a small proxy that records each request (method and key) and can make the store look down (connections
// reset) or hung (requests accepted, never answered). The code under test uses the real AWS SDK over HTTP.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { type S3Settings } from '../../src/storage/s3-settings.js';

export type BucketMode = 'up' | 'down' | 'hang';

export interface SeenRequest {
  method: string;
  /** Object key (path after /bucket/, decoded), '' for bucket-level calls. */
  key: string;
  query: string;
  /** The x-amz-checksum-sha256 header, when sent. */
  checksumSha256?: string;
}

export interface TestBucket {
  bucket: string;
  endpoint: string;
  /** Client settings for this store (path style, test credentials, short timeout). */
  settings: S3Settings;
  url(prefix: string): string;
  /** Every request the store received, in order. */
  seen: SeenRequest[];
  /** Keys PUT under a prefix since `from` (an index into `seen`). */
  puts(prefix?: string, from?: number): string[];
  readonly mode: BucketMode;
  /** 'down' also cuts the connections open now (kept-alive ones included); leaving 'hang' drops the held requests. */
  setMode(mode: BucketMode): void;
  /** Delays each forwarded request by this many ms (to make a publish slow enough to kill). */
  delayMs: number;
  close(): Promise<void>;
}

export async function startTestBucket(opts: { timeoutMs?: number } = {}): Promise<TestBucket> {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const bucket = 'furni-test';
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const upstream = await s3.run();
  const sockets = new Set<Socket>();
  const held: ServerResponse[] = [];
  const state: TestBucket = {
    bucket,
    endpoint: '',
    settings: {},
    url: (prefix) => `s3://${bucket}/${prefix}`,
    seen: [],
    puts: (prefix = '', from = 0) =>
      state.seen
        .slice(from)
        .filter((r) => r.method === 'PUT' && r.key.startsWith(prefix) && !r.query.includes('uploadId'))
        .map((r) => r.key),
    mode: 'up',
    setMode: (mode) => {
      (state as { mode: BucketMode }).mode = mode;
      if (mode === 'down') for (const s of sockets) s.destroy();
      if (mode !== 'hang') for (const r of held.splice(0)) r.destroy();
    },
    delayMs: 0,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => proxy.close(() => r()));
      await s3.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const up = request(
      { host: upstream.address, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  };
  const proxy: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const path = decodeURIComponent(u.pathname);
    const key = path.startsWith(`/${bucket}/`) ? path.slice(bucket.length + 2) : '';
    const checksum = req.headers['x-amz-checksum-sha256'];
    state.seen.push({
      method: req.method ?? '',
      key,
      query: u.search,
      ...(typeof checksum === 'string' ? { checksumSha256: checksum } : {}),
    });
    if (state.mode === 'hang') {
      held.push(res);
      return;
    }
    if (state.delayMs > 0) setTimeout(() => forward(req, res), state.delayMs);
    else forward(req, res);
  });
  proxy.on('connection', (socket: Socket) => {
    if (state.mode === 'down') {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  proxy.keepAliveTimeout = 1000;
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
  const addr = proxy.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  state.endpoint = `http://127.0.0.1:${port}`;
  state.settings = {
    endpoint: state.endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    timeoutMs: opts.timeoutMs ?? 2000,
  };
  return state;
}
