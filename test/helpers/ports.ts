// Loopback ports for tests that start real servers (nginx, Redis, our services): one the OS just gave out,
// and a wait until something listens on one.
import { createConnection, createServer, type AddressInfo } from 'node:net';

/** A port free on 127.0.0.1 a moment ago (the OS picks it; closed again before it is returned). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** Resolves once a TCP connection to 127.0.0.1:`port` succeeds; throws after `ms`. */
export async function waitForPort(port: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const ok = await new Promise<boolean>((resolve) => {
      const c = createConnection({ port, host: '127.0.0.1' }, () => {
        c.end();
        resolve(true);
      });
      c.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listens on ${port} after ${ms} ms`);
}
