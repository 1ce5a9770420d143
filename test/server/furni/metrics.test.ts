// The furni service's /metrics and request lines: after known requests the scraped counters and
// histograms (parsed strictly, test/helpers/prom-text.ts) say exactly what was answered, the corpus
// gauges follow a rebuild, storage errors are counted, two instances in one process keep their own
// counts, and the request line carries query, cache tier and client (X-Forwarded-For only behind
// --trust-proxy).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RENDERER_VERSION as FURNI_RENDERER } from '../../../src/furni/version.js';
import { readPackageVersion } from '../../../src/http/build-info.js';
import { LOG_URL_PART_MAX } from '../../../src/http/request-log.js';
import { parsePrometheusText, histogramCounts, sampleValue, type Family } from '../../helpers/prom-text.js';
import { corpusJson, fakePng, writeCorpusFixture } from './fixture.js';
import { eventually, rawRequest, withTempDir, withTestServer, type TestServer } from './http-helpers.js';

const files = {
  'furni-renders/chair.png': fakePng(1, 700),
  'furni-renders/chair*2.png': fakePng(2, 650),
  'catalog-thumbs/chair.png': fakePng(3, 120),
  'hof_furni/100/chair.bundle': fakePng(4, 900),
};

async function scrape(srv: TestServer): Promise<Map<string, Family>> {
  const res = await rawRequest(srv.port, 'GET', '/metrics');
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  assert.equal(res.headers['cache-control'], 'no-store');
  return parsePrometheusText(res.body.toString('utf8'));
}

const requests = (m: Map<string, Family>, route: string, status: number) =>
  sampleValue(m, 'hotel_imager_http_requests_total', { route, status: String(status) }) ?? 0;

/** Our families follow Prometheus naming: prefix, help, `_total` counters, base-unit histograms. */
function assertConventions(m: Map<string, Family>): void {
  const ours = [...m.values()].filter((f) => f.name.startsWith('hotel_imager_'));
  assert.ok(ours.length > 10, 'our families are there');
  for (const f of ours) {
    assert.ok(f.help && f.help.length > 10, `${f.name} has a help text`);
    if (f.type === 'counter') assert.match(f.name, /_total$/, `${f.name}: a counter ends in _total`);
    else assert.doesNotMatch(f.name, /_total$/, `${f.name}: only counters end in _total`);
    if (f.type === 'histogram') assert.match(f.name, /_seconds$/, `${f.name}: durations in seconds`);
    assert.doesNotMatch(f.name, /_(ms|milliseconds|mb|kb)$/, `${f.name}: base units`);
  }
  // The Node process metrics come along.
  for (const name of [
    'process_cpu_seconds_total',
    'process_resident_memory_bytes',
    'nodejs_heap_size_used_bytes',
    'nodejs_eventloop_lag_seconds',
  ]) {
    assert.ok(m.has(name), `process metric ${name}`);
  }
}

test('/metrics after known requests: requests by route and status, latency, cache tiers, corpus, memory cache', async () => {
  await withTempDir('furni-metrics-', async (dir) => {
    const corpus = join(dir, 'corpus');
    await writeCorpusFixture(corpus, files, { builtAt: '2026-03-04T05:06:07.000Z' });
    await withTestServer({ corpus, memoryBudget: 1 << 20 }, async (srv) => {
      const before = await scrape(srv);
      assertConventions(before);
      const [info] = before.get('hotel_imager_build_info')!.samples;
      assert.deepEqual(
        { ...info!.labels, commit: undefined },
        { service: 'furni', version: readPackageVersion(), commit: undefined, renderer: FURNI_RENDERER },
      );
      assert.match(info!.labels.commit!, /^([0-9a-f]{40}|unknown)$/);
      assert.equal(info!.value, 1);
      assert.equal(requests(before, '/furni-renders/', 200), 0, 'a fresh instance has counted nothing');

      // Known requests: 3 GETs of one render (storage, then memory twice), a HEAD of an icon, a 304,
      // two 404s, a bundle, a 405 on /healthz, /healthz and /version.
      for (let i = 0; i < 3; i++)
        assert.equal((await rawRequest(srv.port, 'GET', '/furni-renders/chair.png')).status, 200);
      assert.equal((await rawRequest(srv.port, 'HEAD', '/catalog-thumbs/chair.png')).status, 200);
      const etag = (await rawRequest(srv.port, 'HEAD', '/catalog-thumbs/chair.png')).headers.etag as string;
      assert.equal(
        (await rawRequest(srv.port, 'GET', '/catalog-thumbs/chair.png', { 'if-none-match': etag })).status,
        304,
      );
      assert.equal((await rawRequest(srv.port, 'GET', '/furni-renders/none.png')).status, 404);
      assert.equal((await rawRequest(srv.port, 'GET', '/nowhere')).status, 404);
      assert.equal((await rawRequest(srv.port, 'GET', '/hof_furni/100/chair.bundle')).status, 200);
      assert.equal((await rawRequest(srv.port, 'POST', '/healthz', {}, 'x')).status, 405);
      assert.equal((await rawRequest(srv.port, 'GET', '/healthz')).status, 200);
      assert.equal((await rawRequest(srv.port, 'GET', '/version')).status, 200);

      const m = await scrape(srv);
      assert.equal(requests(m, '/furni-renders/', 200), 3);
      assert.equal(requests(m, '/furni-renders/', 404), 1);
      assert.equal(requests(m, '/catalog-thumbs/', 200), 2);
      assert.equal(requests(m, '/catalog-thumbs/', 304), 1);
      assert.equal(requests(m, '/hof_furni/', 200), 1);
      assert.equal(requests(m, '/healthz', 405), 1);
      assert.equal(requests(m, '/healthz', 200), 1);
      assert.equal(requests(m, '/version', 200), 1);
      assert.equal(requests(m, 'other', 404), 1);
      assert.equal(requests(m, '/metrics', 200), 1, 'the first scrape, counted once answered');
      // One latency observation per request, by route.
      const renders = histogramCounts(m, 'hotel_imager_http_request_duration_seconds', { route: '/furni-renders/' });
      assert.equal(renders.count, 4);
      assert.ok(renders.sum > 0, String(renders.sum));
      assert.equal(renders.under('+Inf'), 4);
      assert.equal(
        histogramCounts(m, 'hotel_imager_http_request_duration_seconds', { route: '/catalog-thumbs/' }).count,
        3,
      );
      // Bodies answered (HEAD reads the body too): the first read of each file from storage, then memory.
      const tier = (t: string) => sampleValue(m, 'hotel_imager_furni_cache_outcomes_total', { tier: t });
      assert.equal(tier('storage'), 3, 'chair.png, the icon and the bundle, once each');
      assert.equal(tier('memory'), 3, 'chair.png twice, the icon once');
      assert.equal(tier('render'), 0);
      assert.equal(tier('variant_disk'), 0);
      // The corpus in service.
      assert.equal(sampleValue(m, 'hotel_imager_furni_corpus_generation'), 1);
      assert.equal(
        sampleValue(m, 'hotel_imager_furni_corpus_built_timestamp_seconds'),
        Date.parse('2026-03-04T05:06:07.000Z') / 1000,
      );
      assert.equal(sampleValue(m, 'hotel_imager_furni_corpus_files', { kind: 'render' }), 2);
      assert.equal(sampleValue(m, 'hotel_imager_furni_corpus_files', { kind: 'icon' }), 1);
      assert.equal(sampleValue(m, 'hotel_imager_furni_corpus_files', { kind: 'bundle' }), 1);
      assert.equal(sampleValue(m, 'hotel_imager_furni_storage_up'), 1);
      assert.equal(sampleValue(m, 'hotel_imager_furni_memory_cache_files'), 3);
      assert.equal(sampleValue(m, 'hotel_imager_furni_memory_cache_bytes'), 700 + 120 + 900);
      assert.equal(sampleValue(m, 'hotel_imager_furni_memory_cache_limit_bytes'), 1 << 20);
      assert.equal(sampleValue(m, 'hotel_imager_furni_variant_renders_total'), 0, 'variants off: present as 0');

      // A rebuild picked up: generation 2, the new file counts.
      await writeCorpusFixture(corpus, { ...files, 'furni-renders/sofa.png': fakePng(5, 300) });
      await eventually(async () => sampleValue(await scrape(srv), 'hotel_imager_furni_corpus_generation') === 2);
      assert.equal(sampleValue(await scrape(srv), 'hotel_imager_furni_corpus_files', { kind: 'render' }), 3);
    });
  });
});

test('/metrics counts storage errors: a listed file gone, a corpus.json that breaks (the old table keeps serving)', async () => {
  await withTempDir('furni-metrics-errors-', async (dir) => {
    const corpus = join(dir, 'corpus');
    await writeCorpusFixture(corpus, files);
    await withTestServer({ corpus, memoryBudget: 0 }, async (srv) => {
      await rm(join(corpus, 'furni-renders', 'chair*2.png'));
      assert.equal((await rawRequest(srv.port, 'GET', '/furni-renders/chair*2.png')).status, 404);
      let m = await scrape(srv);
      assert.equal(sampleValue(m, 'hotel_imager_furni_storage_errors_total', { op: 'read', reason: 'missing' }), 1);
      assert.equal(sampleValue(m, 'hotel_imager_furni_storage_errors_total', { op: 'manifest', reason: 'invalid' }), 0);
      await writeFile(join(corpus, 'corpus.json'), '{"format": 1, "files": ');
      await eventually(
        async () =>
          (sampleValue(await scrape(srv), 'hotel_imager_furni_storage_errors_total', {
            op: 'manifest',
            reason: 'invalid',
          }) ?? 0) > 0,
      );
      m = await scrape(srv);
      assert.equal(sampleValue(m, 'hotel_imager_furni_corpus_generation'), 1, 'the broken table was not loaded');
      assert.equal((await rawRequest(srv.port, 'GET', '/furni-renders/chair.png')).status, 200, 'the old table serves');
      await writeFile(join(corpus, 'corpus.json'), corpusJson(files));
      await eventually(async () => sampleValue(await scrape(srv), 'hotel_imager_furni_corpus_generation') === 2);
    });
  });
});

test('two instances in one process count their own requests', async () => {
  await withTempDir('furni-metrics-two-', async (dir) => {
    const corpus = join(dir, 'corpus');
    await writeCorpusFixture(corpus, files);
    await withTestServer({ corpus }, async (a) => {
      await withTestServer({ corpus }, async (b) => {
        for (let i = 0; i < 5; i++) await rawRequest(a.port, 'GET', '/furni-renders/chair.png');
        await rawRequest(b.port, 'GET', '/furni-renders/chair.png');
        assert.equal(requests(await scrape(a), '/furni-renders/', 200), 5);
        assert.equal(requests(await scrape(b), '/furni-renders/', 200), 1);
      });
    });
  });
});

/** One request line per request, parsed; the last `n` of them. */
async function lastLines(srv: TestServer, n: number): Promise<Record<string, unknown>[]> {
  await eventually(() => srv.requestLines().length >= n);
  return srv.requestLines().slice(-n);
}

/** A raw HTTP/1.0 request (the fast path hands those to Node's server): the status line. */
function http10(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    let got = '';
    socket.on('data', (c) => (got += c.toString('latin1')));
    socket.on('end', () => resolve(got.split('\r\n')[0]!));
    socket.on('error', reject);
  });
}

for (const trustProxy of [false, true]) {
  test(`request lines: query (cut at ${LOG_URL_PART_MAX}), cache tier, client; --trust-proxy ${trustProxy ? 'on' : 'off'}`, async () => {
    await withTempDir('furni-log-', async (dir) => {
      const corpus = join(dir, 'corpus');
      await writeCorpusFixture(corpus, files);
      await withTestServer({ corpus, logLevel: 'info', trustProxy }, async (srv) => {
        const xff = { 'x-forwarded-for': '203.0.113.7, 10.0.0.1' };
        const long = 'v=' + 'a'.repeat(2000);
        await rawRequest(srv.port, 'GET', `/furni-renders/chair.png?${long}`, xff); // fast path
        await rawRequest(srv.port, 'GET', '/furni-renders/chair.png?x=1&y=%20', xff);
        await rawRequest(srv.port, 'GET', '/healthz?probe=1', xff); // Fastify
        assert.match(
          await http10(
            srv.port,
            'GET /catalog-thumbs/chair.png?old=1 HTTP/1.0\r\nX-Forwarded-For: 198.51.100.2\r\n\r\n',
          ),
          / 200 /,
        ); // Node's server
        const lines = await lastLines(srv, 4);
        for (const l of lines)
          assert.equal(
            l.client,
            trustProxy ? (l.path === '/catalog-thumbs/chair.png' ? '198.51.100.2' : '203.0.113.7') : '127.0.0.1',
            JSON.stringify(l),
          );
        assert.equal(lines[0]!.query, long.slice(0, LOG_URL_PART_MAX) + '…', 'a long query is cut');
        assert.deepEqual(
          lines.map((l) => [l.path, l.status, l.cache]),
          [
            ['/furni-renders/chair.png', 200, 'storage'],
            ['/furni-renders/chair.png', 200, 'memory'],
            ['/healthz', 200, null],
            ['/catalog-thumbs/chair.png', 200, 'storage'],
          ],
        );
        assert.deepEqual(
          lines.slice(1).map((l) => l.query),
          ['x=1&y=%20', 'probe=1', 'old=1'],
        );
        assert.equal(new Set(lines.map((l) => l.reqId)).size, 4);
      });
    });
  });
}

test('error lines carry the request id of the request they belong to', async () => {
  await withTempDir('furni-log-err-', async (dir) => {
    const corpus = join(dir, 'corpus');
    await writeCorpusFixture(corpus, files);
    await withTestServer({ corpus, logLevel: 'info', memoryBudget: 0 }, async (srv) => {
      await rm(join(corpus, 'furni-renders', 'chair.png'));
      assert.equal((await rawRequest(srv.port, 'GET', '/furni-renders/chair.png')).status, 404);
      const [line] = await lastLines(srv, 1);
      const warn = srv.lines
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.msg === 'listed asset not servable');
      assert.ok(warn, srv.lines.join('\n'));
      assert.equal(warn.reqId, line!.reqId);
      assert.equal(warn.key, 'furni-renders/chair.png');
    });
  });
});
