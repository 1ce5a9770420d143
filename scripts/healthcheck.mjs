#!/usr/bin/env node
// The container's HEALTHCHECK: GET /healthz on each service port of this container (furni
// $HOTEL_IMAGER_FURNI_PORT or 8080, avatar $HOTEL_IMAGER_AVATAR_PORT or 8081; `serve furni|avatar` runs
// one of them, `start` both). Healthy (exit 0) when at least one port answers and every port that
// answers says 200; a port with nothing listening is a service this container does not run. Plain Node,
// no dependencies, so the image needs no curl or wget.
//
//   node scripts/healthcheck.mjs [PORT…]     (ports given on the command line replace the two above)
const env = process.env;
const ports =
  process.argv.length > 2
    ? process.argv.slice(2)
    : [env.HOTEL_IMAGER_FURNI_PORT || '8080', env.HOTEL_IMAGER_AVATAR_PORT || '8081'];

async function probe(port) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2500) });
    await res.arrayBuffer();
    return { port, status: res.status };
  } catch (err) {
    const code = err?.cause?.code ?? err?.name;
    return { port, status: code === 'ECONNREFUSED' ? 'closed' : `error ${code ?? err.message}` };
  }
}

const results = await Promise.all([...new Set(ports)].map(probe));
const answered = results.filter((r) => r.status !== 'closed');
const healthy = answered.length > 0 && answered.every((r) => r.status === 200);
console.log(results.map((r) => `:${r.port} ${r.status}`).join(', '));
process.exit(healthy ? 0 : 1);
