// Test fixtures for the avatar service: the configuration tests start it with, a local stand-in for the
// hotel's public user API, and an address where nothing listens.
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { defaultAvatarConfig, type AvatarServiceConfig } from '../../../src/core/avatar/config.js';

/** Where fallbacks point in tests: never reached, only read from Location headers. */
export const TEST_FALLBACK = 'http://fallback.invalid/habbo-imaging/avatarimage';

/** A quiet one-worker service on a free loopback port, on `assetsDir`, asking `userApiBase` for users. */
export function testAvatarConfig(
  assetsDir: string,
  userApiBase: string,
  over: Partial<AvatarServiceConfig> = {},
): AvatarServiceConfig & { assetsDir: string } {
  return {
    ...defaultAvatarConfig(),
    host: '127.0.0.1',
    port: 0,
    assetsDir,
    fallbackUrl: TEST_FALLBACK,
    userApiBase,
    userLookupTimeoutMs: 2000,
    workers: 1,
    logLevel: 'silent',
    ...over,
  };
}

export interface FakeApi {
  base: string;
  hits: string[];
  close(): Promise<void>;
}

/** A stand-in for GET <prefix>/api/public/users?name=<name>. */
export async function startFakeUserApi(
  users: Record<string, string>,
  opts: { slowMs?: number; prefix?: string } = {},
): Promise<FakeApi> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const name = url.searchParams.get('name') ?? '';
    hits.push(name);
    const answer = () => {
      if (url.pathname !== `${opts.prefix ?? ''}/api/public/users`) return res.writeHead(404).end();
      const figure = Object.entries(users).find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
      if (figure === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not-found"}');
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ name, figureString: figure, motto: '' }));
    };
    if (opts.slowMs) setTimeout(answer, opts.slowMs).unref();
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An address where nothing listens. */
export async function deadBase(): Promise<string> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
