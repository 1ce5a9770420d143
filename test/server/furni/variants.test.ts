// `serve furni --variants`: the reserved names of contract F2.6 rendered on demand from the sample kit's
// published bundles. Off, every reserved name is 404 and every other answer is byte-identical with the
// option on; on, each tag alone and combined answers 200 with a published file's headers, non-canonical
// spellings and invalid combinations are 404, the APNG decodes back to the state's loop, and a flood of
// renders is limited (429/404, never 5xx) with bounded caches.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Hex } from '../../../src/util/hash.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runBuild } from '../../../src/corpus/run.js';
import { decodePngSync } from '../../../src/imaging/png.js';
import { imagesEqual } from '../../../src/imaging/image.js';
import { readFurniBundle } from '../../../src/furni/bundle.js';
import { builtKitCorpus, rawRequest, withTestServer, type RawResponse } from './http-helpers.js';
import { decodeApng } from '../../helpers/apng-decode.js';

let tmp: { dir: string; cleanup: () => Promise<void> };
let corpus: string;
let listed: Record<string, { size: number; sha256: string }>;

before(async () => {
  ({ tmp, corpus, listed } = await builtKitCorpus('furni-variants-'));
});
after(() => tmp.cleanup());

const get = (port: number, name: string, headers: Record<string, string> = {}, method = 'GET') =>
  rawRequest(port, method, `/furni-renders/${name}`, headers);
const sha = sha256Hex;

function assertPublishedHeaders(r: RawResponse, type: string, what: string): void {
  assert.equal(r.status, 200, `${what}: 200 (${r.body.toString().slice(0, 60)})`);
  assert.equal(r.headers['content-type'], type, `${what}: type`);
  assert.equal(r.headers['cache-control'], 'public, max-age=31536000, immutable', `${what}: immutable`);
  assert.equal(r.headers['etag'], `"${sha(r.body)}"`, `${what}: ETag is the sha256 of the bytes`);
  assert.equal(r.headers['access-control-allow-origin'], '*', `${what}: CORS`);
  assert.equal(r.headers['access-control-expose-headers'], 'ETag');
  assert.equal(r.headers['x-content-type-options'], 'nosniff');
  assert.equal(Number(r.headers['content-length']), r.body.length);
}

const REQUIRED = [
  'kit_chair_4dir__d4.png',
  'kit_chair_4dir__s32.png',
  'kit_lamp_state2__st1.png',
  'kit_fan_tieframes.apng',
];

// Each tag alone and combined, in the one allowed order (kit_fan_tieframes: states 0, 1, 2; directions 2, 4; state 1 loops 4 frames).
const VALID = [
  'kit_fan_tieframes__s32.png',
  'kit_fan_tieframes__st2.png',
  'kit_fan_tieframes__d4.png',
  'kit_fan_tieframes__f3.png',
  'kit_fan_tieframes.apng',
  'kit_fan_tieframes__s32_st1.png',
  'kit_fan_tieframes__s32_d4.png',
  'kit_fan_tieframes__s32_f1.png',
  'kit_fan_tieframes__st1_d4.png',
  'kit_fan_tieframes__st1_f2.png',
  'kit_fan_tieframes__d4_f1.png',
  'kit_fan_tieframes__s32_st1_d4_f3.png',
  'kit_fan_tieframes__s32.apng',
  'kit_fan_tieframes__st2.apng',
  'kit_fan_tieframes__d4.apng',
  'kit_fan_tieframes__s32_st2_d4.apng',
  'kit_fan_tieframes__st0.png',
  'kit_chair_4dir__s32_d6.png',
  'kit_sofa_colors*3__d4.png',
];

const INVALID = [
  'kit_fan_tieframes__s64.png', // the default size is never written
  'kit_fan_tieframes__s16.png', // no such size
  'kit_fan_tieframes__f0.png', // frame 0 is the default
  'kit_fan_tieframes__st01.png', // leading zero
  'kit_fan_tieframes__d4_st1.png', // out of order
  'kit_fan_tieframes__f1_s32.png',
  'kit_fan_tieframes__st1_st1.png', // repeated
  'kit_fan_tieframes__d2_d4.png',
  'kit_fan_tieframes__S32.png', // case
  'kit_fan_tieframes__st1_f1.apng', // an APNG is the whole loop
  'kit_fan_tieframes__st3.png', // no state 3
  'kit_fan_tieframes__d3.png', // direction not defined
  'kit_fan_tieframes__d0.png',
  'kit_fan_tieframes__st1_f4.png', // state 1 has 4 distinct frames: f0..f3
  'kit_fan_tieframes__st0_f1.png', // state 0 has one frame
  'kit_fan_tieframes__.png',
  'kit_fan_tieframes__st.png',
  'kit_fan_tieframes__st1_.png',
  'kit_fan_tieframes___st1.png',
  'kit_fan_tieframes__st1.PNG',
  'kit_fan_tieframes.APNG',
  'kit_fan_tieframes__st9999999.png',
  'kit_chair_4dir__st1.png', // a static item has state 0 only
  'kit_chair_4dir__d1.png',
  'kit_nothing__d2.png', // unknown classname
  'kit_sofa_colors*99__d4.png', // colour row not published
  'kit_sofa_colors%2A3__d4.png', // encoded asterisk
  'kit_missing_bundle__d2.png', // no bundle published
];

test('variants off: every reserved name is 404 as the spec says', async () => {
  await withTestServer({ corpus, memoryBudget: 1 << 20 }, async (srv) => {
    for (const name of [...REQUIRED, ...VALID]) {
      const r = await get(srv.port, name);
      assert.equal(r.status, 404, name);
      assert.equal(r.body.toString(), 'not found');
    }
    assert.equal((await rawRequest(srv.port, 'GET', '/player/kit_fan_tieframes')).status, 404, 'no player page either');
  });
});

test("variants on: the sample kit answers the names a user tries first, with a published file's headers, HEAD and 304", async () => {
  await withTestServer({ corpus, memoryBudget: 1 << 20, variants: true }, async (srv) => {
    for (const name of REQUIRED) {
      const r = await get(srv.port, name);
      assertPublishedHeaders(r, name.endsWith('.apng') ? 'image/apng' : 'image/png', name);
      const head = await get(srv.port, name, {}, 'HEAD');
      assert.equal(head.status, 200);
      assert.equal(head.body.length, 0);
      assert.equal(head.headers['etag'], r.headers['etag']);
      assert.equal(head.headers['content-length'], r.headers['content-length']);
      const again = await get(srv.port, name);
      assert.ok(again.body.equals(r.body), `${name}: same bytes from the cache`);
      const nm = await get(srv.port, name, { 'if-none-match': r.headers['etag'] as string });
      assert.equal(nm.status, 304);
      assert.equal(nm.body.length, 0);
      assert.equal(nm.headers['etag'], r.headers['etag']);
      assert.equal(nm.headers['access-control-allow-origin'], '*');
    }
    // The size-32 chair is drawn from its own size-32 visualization: smaller than the size-64 still.
    const s32 = decodePngSync((await get(srv.port, 'kit_chair_4dir__s32.png')).body);
    const s64 = decodePngSync((await get(srv.port, 'kit_chair_4dir.png')).body);
    assert.ok(
      s32.width < s64.width * 0.7 && s32.height < s64.height * 0.7,
      `size 32 ${s32.width}×${s32.height} vs 64 ${s64.width}×${s64.height}`,
    );
    // Direction 4 of the chair mirrors direction 2 (flipH aliases): the same pixels flipped.
    const d4 = decodePngSync((await get(srv.port, 'kit_chair_4dir__d4.png')).body);
    const d2 = decodePngSync((await get(srv.port, 'kit_chair_4dir__d2.png')).body);
    assert.deepEqual([d4.width, d4.height], [d2.width, d2.height]);
    assert.ok(!imagesEqual(d4, d2), 'direction 4 is not direction 2');
  });
});

test("every tag alone and combined answers 200; the still's own state and direction give the published still byte for byte", async () => {
  await withTestServer({ corpus, memoryBudget: 1 << 20, variants: true }, async (srv) => {
    const bodies = new Map<string, Buffer>();
    for (const name of VALID) {
      const r = await get(srv.port, name);
      assertPublishedHeaders(r, name.endsWith('.apng') ? 'image/apng' : 'image/png', name);
      bodies.set(name, r.body);
    }
    // Different parameters, different pictures.
    assert.ok(!bodies.get('kit_fan_tieframes__st1_f2.png')!.equals(bodies.get('kit_fan_tieframes__st1_d4.png')!));
    assert.ok(!bodies.get('kit_fan_tieframes__s32.png')!.equals(bodies.get('kit_fan_tieframes__st2.png')!));
    // Pinning the still's own state and direction (frame 0) is the published still, byte for byte.
    for (const cn of ['kit_fan_tieframes', 'kit_lamp_state2', 'kit_chair_4dir', 'kit_clock_repeat', 'kit_lamp_add']) {
      const bundleKey = Object.keys(listed).find((k) => k.startsWith('hof_furni/') && k.endsWith(`/${cn}.bundle`))!;
      const { manifest } = await readFurniBundle(await readFile(join(corpus, bundleKey)));
      const pinned = await get(srv.port, `${cn}__st${manifest.still.state}_d${manifest.still.direction}.png`);
      assert.equal(pinned.status, 200, cn);
      assert.ok(
        pinned.body.equals(await readFile(join(corpus, 'furni-renders', `${cn}.png`))),
        `${cn}: pinned = published still`,
      );
    }
    // A colour row's variant is tinted like its still.
    const tinted = await get(srv.port, 'kit_sofa_colors*3__d4.png');
    const plain = await get(srv.port, 'kit_sofa_colors__d4.png');
    assert.equal(plain.status, 200);
    assert.ok(!tinted.body.equals(plain.body), 'colour 3 differs from colour 0');
  });
});

test('non-canonical spellings and invalid combinations are 404 `not found`', async () => {
  await withTestServer({ corpus, memoryBudget: 1 << 20, variants: true }, async (srv) => {
    for (const name of INVALID) {
      const r = await get(srv.port, name);
      assert.equal(r.status, 404, name);
      assert.equal(r.body.toString(), 'not found', name);
      assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
    }
    assert.equal(
      (await rawRequest(srv.port, 'GET', '/catalog-thumbs/kit_fan_tieframes__s32.png')).status,
      404,
      'icons have no variants',
    );
    assert.equal((await rawRequest(srv.port, 'GET', '/catalog-thumbs/kit_fan_tieframes.apng')).status, 404);
  });
});

test('names that are not reserved answer byte for byte the same with variants on and off', async () => {
  const names = [
    ...Object.keys(listed)
      .filter((k) => k !== 'build-report.json')
      .map((k) => '/' + k.split('/').map(encodeURIComponent).join('/')),
    '/furni-renders/kit_nothing.png',
    '/furni-renders/kit_fan_tieframes.gif',
    '/furni-renders/kit_fan_tieframes__x1.png',
    '/furni-renders/kit_sofa_colors%2A3.png',
    '/furni-renders/',
    '/hof_furni/1/kit_fan_tieframes__s32.bundle',
    '/healthx',
  ];
  const answers = async (variants: boolean) =>
    withTestServer({ corpus, memoryBudget: 1 << 20, variants }, async (srv) => {
      const out: string[] = [];
      for (const n of names) {
        for (const method of ['GET', 'HEAD']) {
          const r = await rawRequest(srv.port, method, n);
          const { date: _d, ...headers } = r.headers;
          out.push(JSON.stringify([method, n, r.status, headers, sha(r.body)]));
        }
      }
      return out;
    });
  assert.deepEqual(await answers(true), await answers(false));
});

test("APNG: the state's distinct frames at 120 ms, one canvas, looping forever; frame n is `__f<n>` on that canvas", async () => {
  await withTestServer({ corpus, memoryBudget: 1 << 20, variants: true }, async (srv) => {
    const apng = decodeApng((await get(srv.port, 'kit_fan_tieframes__st1.apng')).body);
    assert.equal(apng.numFrames, 4, 'state 1: 4 sprites × frameRepeat 2 = 8 ticks, 4 distinct frames');
    assert.equal(apng.frames.length, 4);
    assert.equal(apng.plays, 0, 'loops forever');
    for (const f of apng.frames) {
      assert.deepEqual([f.delayNum, f.delayDen], [120, 1000]);
      assert.deepEqual(
        [f.x, f.y, f.image.width, f.image.height],
        [0, 0, apng.width, apng.height],
        'every frame is the whole canvas',
      );
    }
    for (let i = 1; i < 4; i++)
      assert.ok(
        !imagesEqual(apng.frames[i]!.image, apng.frames[i - 1]!.image),
        `frame ${i} differs from frame ${i - 1}`,
      );
    // Frame n alone (`__f<n>`, cropped to its own pixels) is contained in APNG frame n at the shared crop.
    for (let n = 0; n < 4; n++) {
      const still = decodePngSync(
        (await get(srv.port, n === 0 ? 'kit_fan_tieframes__st1.png' : `kit_fan_tieframes__st1_f${n}.png`)).body,
      );
      const frame = apng.frames[n]!.image;
      let matched = false;
      for (let oy = 0; oy + still.height <= frame.height && !matched; oy++) {
        for (let ox = 0; ox + still.width <= frame.width && !matched; ox++) {
          let same = true;
          for (let y = 0; y < still.height && same; y++) {
            const a = frame.data.subarray(
              ((oy + y) * frame.width + ox) * 4,
              ((oy + y) * frame.width + ox + still.width) * 4,
            );
            const b = still.data.subarray(y * still.width * 4, (y + 1) * still.width * 4);
            same = Buffer.from(a).equals(Buffer.from(b));
          }
          matched = same;
        }
      }
      assert.ok(matched, `frame ${n} holds __f${n}`);
    }
    // A one-frame state is a one-frame APNG.
    const one = decodeApng((await get(srv.port, 'kit_fan_tieframes__st0.apng')).body);
    assert.equal(one.numFrames, 1);
  });
});

test('limits: a flood of distinct names gets 200, 429 or 404, never 5xx; caches stay within their budgets', async () => {
  await withTestServer(
    { corpus, memoryBudget: 1 << 20, variants: { clientRate: { perSecond: 1, burst: 5 }, memoryBudget: 8 * 1024 } },
    async (srv) => {
      const names: string[] = [];
      for (const cn of [
        'kit_fan_tieframes',
        'kit_lamp_state2',
        'kit_clock_repeat',
        'kit_popper_loop',
        'kit_booth_dirlayers',
        'kit_sofa_colors',
      ])
        for (const s of ['', 's32'])
          for (const st of ['', 'st0', 'st1', 'st2', 'st3'])
            for (const d of ['', 'd0', 'd2', 'd4', 'd6'])
              for (const f of ['', 'f1', 'f2', 'f3']) {
                const tags = [s, st, d, f].filter(Boolean).join('_');
                names.push(tags ? `${cn}__${tags}.png` : `${cn}.apng`);
              }
      const statuses = new Map<number, number>();
      const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
      for (let i = 0; i < names.length; i += 25) {
        const batch = await Promise.all(names.slice(i, i + 25).map((n) => get(srv.port, n)));
        for (const r of batch) count(r.status);
      }
      // Garbage in the reserved shape: parsed and refused, never rendered.
      for (let i = 0; i < 300; i++) count((await get(srv.port, `kit_fan_tieframes__st${1000 + i}_d${i}.png`)).status);
      assert.deepEqual(
        [...statuses.keys()].filter((s) => s >= 500),
        [],
        `no 5xx: ${JSON.stringify([...statuses])}`,
      );
      assert.ok((statuses.get(429) ?? 0) > 0, `the client rate bites: ${JSON.stringify([...statuses])}`);
      assert.ok((statuses.get(200) ?? 0) >= 1, `the burst renders: ${JSON.stringify([...statuses])}`);
      const tooMany = await (async () => {
        for (const n of names) {
          const r = await get(srv.port, n);
          if (r.status === 429) return r;
        }
        return undefined;
      })();
      assert.ok(tooMany, 'a 429 once the rate is spent');
      assert.equal(tooMany.headers['retry-after'], '1');
      assert.equal(tooMany.headers['cache-control'], 'no-store');
      assert.equal(tooMany.body.toString(), 'too many renders');
      const health = JSON.parse((await rawRequest(srv.port, 'GET', '/healthz')).body.toString());
      assert.ok(
        health.checks.variants.cachedBytes <= 8 * 1024,
        `variant cache within its budget: ${health.checks.variants.cachedBytes}`,
      );
    },
  );
});

test('disk cache: a second service reads the rendered file from the folder instead of rendering it', async () => {
  const cacheDir = join(tmp.dir, 'variant-cache');
  const first = await withTestServer({ corpus, memoryBudget: 1 << 20, variants: { cacheDir } }, async (srv) => {
    const r = await get(srv.port, 'kit_fan_tieframes__st2.apng');
    assert.equal(r.status, 200);
    await new Promise((res) => setTimeout(res, 200)); // the disk write is not awaited by the answer
    return r;
  });
  await withTestServer(
    { corpus, memoryBudget: 1 << 20, variants: { cacheDir, clientRate: { perSecond: 1, burst: 1 } } },
    async (srv) => {
      const r = await get(srv.port, 'kit_fan_tieframes__st2.apng');
      assert.ok(r.body.equals(first.body));
      assert.equal(r.headers['etag'], first.headers['etag']);
      const health = JSON.parse((await rawRequest(srv.port, 'GET', '/healthz')).body.toString());
      assert.equal(health.checks.variants.diskHits, 1);
      assert.equal(health.checks.variants.rendered, 0);
    },
  );
});

test('build --variants: none leaves the corpus as it was; all publishes every reserved name with the bytes the service renders on demand', async () => {
  const kit = join(tmp.dir, 'kit');
  const build = async (variants: 'all' | 'animated' | 'none', name: string) => {
    const out = join(tmp.dir, name);
    await runBuild({
      assets: kit,
      out,
      jobs: 1,
      variants,
      only: ['kit_fan_tieframes', 'kit_chair_4dir', 'kit_sofa_colors', 'kit_crate'],
      now: () => new Date('2026-01-01T00:00:00Z'),
    });
    return {
      out,
      files: JSON.parse(await readFile(join(out, 'corpus.json'), 'utf8')).files as Record<string, { sha256: string }>,
    };
  };
  const plain = await build('none', 'corpus-none');
  const all = await build('all', 'corpus-all');
  const animated = await build('animated', 'corpus-animated');
  assert.ok(
    Object.keys(plain.files).every((k) => !k.includes('__') && !k.endsWith('.apng')),
    'none: no reserved names',
  );
  const extra = Object.keys(all.files).filter((k) => !(k in plain.files));
  for (const k of Object.keys(plain.files))
    if (k !== 'build-report.json')
      assert.equal(all.files[k]?.sha256, plain.files[k]!.sha256, `${k}: unchanged by --variants all`);
  for (const name of [
    'kit_chair_4dir__d4.png',
    'kit_chair_4dir__s32.png',
    'kit_fan_tieframes.apng',
    'kit_fan_tieframes__s32_st1_d4_f3.png',
    'kit_sofa_colors*3__d4.png',
  ]) {
    assert.ok(extra.includes(`furni-renders/${name}`), `all publishes ${name}`);
  }
  const animatedExtra = Object.keys(animated.files).filter((k) => !(k in plain.files));
  assert.ok(
    animatedExtra.length > 0 && animatedExtra.every((k) => k.startsWith('furni-renders/kit_fan_tieframes')),
    'animated: only the item that animates',
  );
  assert.ok(
    animatedExtra.includes('furni-renders/kit_fan_tieframes__st1.apng') &&
      !animatedExtra.includes('furni-renders/kit_fan_tieframes__st0.apng'),
  );
  // Served from the pre-rendered corpus or rendered on demand from the plain one: the same bytes.
  await withTestServer(
    { corpus: plain.out, memoryBudget: 1 << 20, variants: { clientRate: { perSecond: 0, burst: 0 } } },
    async (onDemand) => {
      await withTestServer({ corpus: all.out, memoryBudget: 1 << 20, variants: true }, async (prebuilt) => {
        for (const k of extra) {
          const path = '/' + k.split('/').map(encodeURIComponent).join('/');
          const a = await rawRequest(onDemand.port, 'GET', path);
          const b = await rawRequest(prebuilt.port, 'GET', path);
          assert.equal(a.status, 200, k);
          assert.ok(a.body.equals(b.body), `${k}: same bytes`);
          assert.equal(a.headers['content-type'], b.headers['content-type']);
          assert.equal(a.headers['etag'], b.headers['etag']);
        }
      });
    },
  );
  // Without --variants a pre-rendered corpus still answers 404 for every reserved name (contract F2.6).
  await withTestServer({ corpus: all.out, memoryBudget: 1 << 20 }, async (srv) => {
    for (const k of extra.slice(0, 20))
      assert.equal(
        (await rawRequest(srv.port, 'GET', '/' + k.split('/').map(encodeURIComponent).join('/'))).status,
        404,
        k,
      );
  });
});

test('limits: the global budget answers 429 past its renders; a render past the timeout answers 503 and is cached for the next request', async () => {
  await withTestServer(
    {
      corpus,
      memoryBudget: 1 << 20,
      variants: { clientRate: { perSecond: 0, burst: 0 }, budget: { renders: 2, windowMs: 60_000 } },
    },
    async (srv) => {
      const statuses: number[] = [];
      for (const name of ['kit_fan_tieframes__d4.png', 'kit_fan_tieframes__st2.png', 'kit_fan_tieframes__st2_d4.png'])
        statuses.push((await get(srv.port, name)).status);
      assert.deepEqual(statuses, [200, 200, 429]);
      assert.equal((await get(srv.port, 'kit_fan_tieframes__d4.png')).status, 200, 'a cached name costs nothing');
      assert.equal(
        (await get(srv.port, 'kit_fan_tieframes__st7.png')).status,
        404,
        'a name the decoded bundle refuses costs nothing',
      );
    },
  );
  await withTestServer({ corpus, memoryBudget: 1 << 20, variants: { timeoutMs: 0 } }, async (srv) => {
    const slow = await get(srv.port, 'kit_fan_tieframes.apng');
    assert.equal(slow.status, 503);
    assert.equal(slow.body.toString(), 'render timed out');
    assert.equal(slow.headers['retry-after'], '1');
    assert.equal(slow.headers['cache-control'], 'no-store');
    await new Promise((r) => setTimeout(r, 300));
    const later = await get(srv.port, 'kit_fan_tieframes.apng');
    assert.equal(later.status, 200, 'the render finished in the background and is served from memory');
    const health = JSON.parse((await rawRequest(srv.port, 'GET', '/healthz')).body.toString());
    assert.equal(health.checks.variants.timedOut, 1);
  });
});
