// Furni on demand over a real socket, on the sample kit: Chroma's /habbo-imaging/furni and vortex-imager's
// /habbo-imaging/furniture against the corpus `build --variants all` publishes from the same kit (a default
// request is the published still byte for byte, icon=1 the published icon, direction/state/small the
// published variants), then each parameter (colour, id, rotation, shadow, crop, canvas, bg, zoom, size,
// frame) by status, headers, dimensions and pixels; the method rules; 404 text/plain with the reason for
// every item that cannot be drawn; and a Flash-layout hotel's 404 that says how to get bundles.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSampleKit } from '../../../src/samplekit/index.js';
import { runBuild } from '../../../src/corpus/run.js';
import { startAvatarService, type AvatarServiceInstance } from '../../../src/server/imager.js';
import { decodeImage } from '../../../src/imaging/codec.js';
import { alphaBounds, cropImage, type RgbaImage } from '../../../src/imaging/image.js';
import { parsePrometheusText, sampleValue } from '../../helpers/prom-text.js';
import { deadBase, testAvatarConfig } from '../avatar/fixtures.js';

const IMMUTABLE = 'public, max-age=31536000, immutable, stale-while-revalidate=86400';

let scratch: string;
let kit: string;
let corpus: string;
let svc: AvatarServiceInstance & { url: string };
const started: (AvatarServiceInstance & { url: string })[] = [];

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'hotel-furni-'));
  kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  corpus = join(scratch, 'corpus');
  await runBuild({ assets: kit, out: corpus, jobs: 1, variants: 'all' });
  svc = await startAvatarService(testAvatarConfig(kit, await deadBase(), { checkIntervalMs: 0 }));
  started.push(svc);
});

after(async () => {
  for (const s of started) await s.close();
  await rm(scratch, { recursive: true, force: true });
});

async function get(path: string, init: RequestInit = {}, base = svc.url) {
  const res = await fetch(base + path, init);
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

/** A 200 PNG's bytes (asserting the status and type). */
async function png(path: string): Promise<Buffer> {
  const { res, body } = await get(path);
  assert.equal(res.status, 200, `${path}: ${res.status} ${res.status === 200 ? '' : body.toString()}`);
  assert.equal(res.headers.get('content-type'), 'image/png', path);
  return body;
}

const published = (name: string) => readFile(join(corpus, 'furni-renders', name));
const icon = (name: string) => readFile(join(corpus, 'catalog-thumbs', name));

const pixel = (img: RgbaImage, x: number, y: number) => [
  ...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4),
];

test('a default request is the published still, byte for byte, for every published classname (both URL families)', async () => {
  const names = (await import('node:fs/promises')).readdir(join(corpus, 'furni-renders'));
  const stills = (await names).filter((n) => n.endsWith('.png') && !n.includes('__')).map((n) => n.slice(0, -4));
  assert.ok(stills.length >= 40, `${stills.length} stills`);
  for (const cn of stills) {
    const want = await published(`${cn}.png`);
    const q = encodeURIComponent(cn);
    assert.ok((await png(`/habbo-imaging/furni?sprite=${q}`)).equals(want), `furni?sprite=${cn}`);
    assert.ok((await png(`/habbo-imaging/furniture?class=${q}`)).equals(want), `furniture?class=${cn}`);
    assert.ok((await png(`/habbo-imaging/furniture/${q}.png`)).equals(want), `furniture/${cn}.png`);
  }
});

test('icon=1 is the published catalogue icon, byte for byte', async () => {
  const names = await (await import('node:fs/promises')).readdir(join(corpus, 'catalog-thumbs'));
  assert.ok(names.length >= 30, `${names.length} icons`);
  for (const n of names) {
    const cn = n.slice(0, -4);
    assert.ok((await png(`/habbo-imaging/furni?sprite=${cn}&icon=1`)).equals(await icon(n)), `${cn} icon`);
    // Havana's collectables template: icon=1 with direction and canvas=transparent.
    assert.ok(
      (await png(`/habbo-imaging/furni?sprite=${cn}&direction=2&icon=1&canvas=transparent`)).equals(await icon(n)),
    );
  }
  const none = await get('/habbo-imaging/furni?sprite=kit_noicon&icon=1');
  assert.equal(none.res.status, 404);
  assert.equal(
    none.body.toString(),
    'nothing to draw for kit_noicon: it has no catalogue icon (no drawable size-1 layer)\n',
  );
});

test('headers: immutable Cache-Control, strong ETag, CORS; memory on the second request; 304; HEAD; OPTIONS; 405', async () => {
  const path = '/habbo-imaging/furni?sprite=kit_crate&direction=4';
  const first = await get(path);
  assert.equal(first.res.status, 200);
  assert.equal(first.res.headers.get('cache-control'), IMMUTABLE);
  assert.equal(first.res.headers.get('access-control-allow-origin'), '*');
  assert.equal(first.res.headers.get('x-imager-cache'), 'render');
  assert.equal(first.res.headers.get('content-length'), String(first.body.length));
  const etag = first.res.headers.get('etag')!;
  assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
  const again = await get(path);
  assert.equal(again.res.headers.get('x-imager-cache'), 'memory');
  assert.equal(again.res.headers.get('etag'), etag);
  assert.ok(again.body.equals(first.body));
  const cond = await get(path, { headers: { 'if-none-match': etag } });
  assert.equal(cond.res.status, 304);
  assert.equal(cond.body.length, 0);
  const head = await get(path, { method: 'HEAD' });
  assert.equal(head.res.status, 200);
  assert.equal(head.res.headers.get('content-length'), String(first.body.length));
  assert.equal(head.body.length, 0);
  for (const p of [path, '/habbo-imaging/furniture/kit_crate.png']) {
    const pre = await get(p, {
      method: 'OPTIONS',
      headers: { origin: 'https://cms.example', 'access-control-request-method': 'GET' },
    });
    assert.equal(pre.res.status, 204, p);
    assert.equal(pre.res.headers.get('access-control-allow-origin'), '*');
    const post = await get(p, { method: 'POST' });
    assert.equal(post.res.status, 405, p);
    assert.equal(post.res.headers.get('allow'), 'GET, HEAD, OPTIONS');
  }
});

test('unknown items are 404 text/plain with the reason, never a 5xx or a placeholder', async () => {
  const cases: [string, string][] = [
    ['/habbo-imaging/furni', 'not found: name the furni, /habbo-imaging/furni?sprite=<classname or furnidata id>\n'],
    [
      '/habbo-imaging/furni?sprite=',
      'not found: name the furni, /habbo-imaging/furni?sprite=<classname or furnidata id>\n',
    ],
    [
      '/habbo-imaging/furni?sprite=kit_nope',
      'no furni kit_nope in this hotel: no bundle bundled/furniture/kit_nope.nitro\n',
    ],
    // Chroma's sprite is a classname; digits that are no furnidata id are tried as one.
    [
      '/habbo-imaging/furni?sprite=999999',
      "no furni 999999 in this hotel: no bundle bundled/furniture/999999.nitro; no furni with id 999999 in the hotel's furnidata\n",
    ],
    ['/habbo-imaging/furniture?id=999999', "no furni with id 999999 in the hotel's furnidata\n"],
    // A furnidata row without its bundle file.
    [
      '/habbo-imaging/furniture?class=kit_missing_bundle',
      'no furni kit_missing_bundle in this hotel: no bundle bundled/furniture/kit_missing_bundle.nitro\n',
    ],
    [
      '/habbo-imaging/furniture?id=5030',
      'no furni kit_missing_bundle in this hotel: no bundle bundled/furniture/kit_missing_bundle.nitro\n',
    ],
    [
      '/habbo-imaging/furniture?id=abc',
      'not found: name the furni, /habbo-imaging/furniture?class=<classname> (or ?id=<furnidata id>, or /habbo-imaging/furniture/<classname>.png)\n',
    ],
    [
      '/habbo-imaging/furniture/a%2Fb.png',
      'not found: use /habbo-imaging/furniture?class=<classname> (or ?id=<furnidata id>, or /habbo-imaging/furniture/<classname>.png)\n',
    ],
    ['/habbo-imaging/furni/x', 'not found: use /habbo-imaging/furni?sprite=<classname or furnidata id>\n'],
    ['/habbo-imaging/furni?sprite=..%2Fetc', 'not found: "../etc" is not a classname\n'],
  ];
  for (const [path, text] of cases) {
    const { res, body } = await get(path);
    assert.equal(res.status, 404, path);
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8', path);
    assert.equal(body.toString(), text, path);
  }
  // Bundles that do not decode: 404 naming the file's problem.
  for (const cn of ['kit_corrupt_trunc', 'kit_corrupt_garbage', 'kit_corrupt_json', 'kit_corrupt_gzip']) {
    const { res, body } = await get(`/habbo-imaging/furni?sprite=${cn}`);
    assert.equal(res.status, 404, cn);
    assert.match(body.toString(), new RegExp(`^no furni ${cn} in this hotel: .*${cn}\\.nitro`), cn);
  }
});

test('ids: Chroma sprite=<id> and vortex id=<id> are the furnidata row (room items first, wallitem=1 the wall row)', async () => {
  const chair = await published('kit_chair_4dir.png');
  assert.ok((await png('/habbo-imaging/furni?sprite=5004')).equals(chair));
  assert.ok((await png('/habbo-imaging/furniture?id=5004')).equals(chair));
  // A colour row's id carries its colour.
  assert.ok((await png('/habbo-imaging/furniture?id=501203')).equals(await published('kit_sofa_colors*3.png')));
  const poster = await published('kit_wall_poster.png');
  assert.ok((await png('/habbo-imaging/furniture?id=6001')).equals(poster));
  assert.ok((await png('/habbo-imaging/furniture?id=6001&wallitem=1')).equals(poster));
  const wallOnly = await get('/habbo-imaging/furniture?id=5004&wallitem=1');
  assert.equal(wallOnly.res.status, 404);
  assert.equal(wallOnly.body.toString(), "no furni with wall item id 5004 in the hotel's furnidata\n");
  // class= wins over id=.
  assert.ok((await png('/habbo-imaging/furniture?class=kit_wall_poster&id=5004')).equals(poster));
});

test('direction (and rotation): the published direction variants; a missing direction is the nearest one', async () => {
  for (const d of [0, 4, 6]) {
    const want = await published(`kit_chair_4dir__d${d}.png`);
    assert.ok((await png(`/habbo-imaging/furni?sprite=kit_chair_4dir&direction=${d}`)).equals(want), `d${d}`);
    assert.ok((await png(`/habbo-imaging/furni?sprite=kit_chair_4dir&rotation=${d}`)).equals(want), `rotation ${d}`);
    assert.ok((await png(`/habbo-imaging/furniture?class=kit_chair_4dir&direction=${d}`)).equals(want), `vortex d${d}`);
    // vortex-imager reads the direction modulo 8.
    assert.ok((await png(`/habbo-imaging/furniture?class=kit_chair_4dir&direction=${d + 8}`)).equals(want));
  }
  // The client's nearest-direction rule: 5 (225°) is nearest 4 (180°) and 6 (270°), the first in data order wins.
  const d5 = await png('/habbo-imaging/furni?sprite=kit_chair_4dir&direction=5');
  assert.ok(
    d5.equals(await published('kit_chair_4dir__d4.png')) || d5.equals(await published('kit_chair_4dir__d6.png')),
  );
  // Chroma reads digits only: a bad value is the default.
  const still = await published('kit_chair_4dir.png');
  assert.ok((await png('/habbo-imaging/furni?sprite=kit_chair_4dir&direction=-4')).equals(still));
  assert.ok((await png('/habbo-imaging/furni?sprite=kit_chair_4dir&direction=x')).equals(still));
});

test('state: the published state variants; Chroma draws state 0 for a state the item lacks, vortex its still', async () => {
  for (const s of [0, 1]) {
    const want = await published(`kit_lamp_state2__st${s}.png`);
    assert.ok((await png(`/habbo-imaging/furni?sprite=kit_lamp_state2&state=${s}`)).equals(want), `st${s}`);
    assert.ok((await png(`/habbo-imaging/furniture?class=kit_lamp_state2&state=${s}`)).equals(want), `vortex st${s}`);
  }
  const still = await published('kit_lamp_state2.png');
  assert.ok((await png('/habbo-imaging/furni?sprite=kit_lamp_state2&state=2')).equals(still), 'the still is state 2');
  const zero = await published('kit_lamp_state2__st0.png');
  assert.ok((await png('/habbo-imaging/furni?sprite=kit_lamp_state2&state=50')).equals(zero));
  assert.ok((await png('/habbo-imaging/furni?sprite=kit_lamp_state2&state=101')).equals(zero), 'Chroma: ≥ 101 is 0');
  assert.ok((await png('/habbo-imaging/furniture?class=kit_lamp_state2&state=50')).equals(still));
  assert.ok((await png('/habbo-imaging/furniture?class=kit_lamp_state2&state=-1')).equals(still));
});

test('color/colour: the published colour rows; Chroma takes 0–15 (16 and up is 0), vortex any id', async () => {
  const three = await published('kit_sofa_colors*3.png');
  assert.ok((await png('/habbo-imaging/furni?sprite=kit_sofa_colors&color=3')).equals(three));
  assert.ok((await png('/habbo-imaging/furni?sprite=kit_sofa_colors&colour=3')).equals(three));
  assert.ok((await png('/habbo-imaging/furni?sprite=kit_sofa_colors*3')).equals(three));
  assert.ok((await png('/habbo-imaging/furniture?class=kit_sofa_colors&color=3')).equals(three));
  const base = await published('kit_sofa_colors.png');
  assert.ok((await png('/habbo-imaging/furni?sprite=kit_sofa_colors&color=16')).equals(base));
  assert.ok((await png('/habbo-imaging/furni?sprite=kit_sofa_colors&color=red')).equals(base));
  // The explicit colour wins over the row's own.
  assert.ok(
    (await png('/habbo-imaging/furni?sprite=kit_sofa_colors*3&color=12')).equals(
      await published('kit_sofa_colors*12.png'),
    ),
  );
});

test('small (s): the published size-32 variant; vortex size=s the same', async () => {
  for (const cn of ['kit_chair_4dir', 'kit_crate', 'kit_lamp_state2']) {
    const want = await published(`${cn}__s32.png`);
    assert.ok((await png(`/habbo-imaging/furni?sprite=${cn}&small=1`)).equals(want), cn);
    assert.ok((await png(`/habbo-imaging/furni?sprite=${cn}&s=true`)).equals(want), cn);
    assert.ok((await png(`/habbo-imaging/furniture?class=${cn}&size=s`)).equals(want), cn);
  }
  assert.ok((await png('/habbo-imaging/furni?sprite=kit_crate&small=yes')).equals(await published('kit_crate.png')));
});

test('shadow=1 draws the shadow sprite behind the item at alpha 48; an item without one is unchanged', async () => {
  const plain = await decodeImage(await published('kit_table_sd.png'));
  const shadowed = await decodeImage(await png('/habbo-imaging/furni?sprite=kit_table_sd&shadow=1'));
  assert.ok(shadowed.width >= plain.width && shadowed.height >= plain.height);
  assert.ok(shadowed.width * shadowed.height > plain.width * plain.height, 'the shadow reaches past the table');
  const alphas = new Set<number>();
  for (let i = 3; i < shadowed.data.length; i += 4) alphas.add(shadowed.data[i]!);
  assert.ok(
    [...alphas].some((a) => a > 0 && a <= 48),
    `shadow pixels at most alpha 48: ${[...alphas].sort().join(',')}`,
  );
  assert.ok((await png('/habbo-imaging/furni?sprite=kit_crate&shadow=1')).equals(await published('kit_crate.png')));
});

test("crop=0: Chroma's 1200 × 1200 canvas with the item's origin at its centre; the still's pixels in it", async () => {
  const still = await decodeImage(await published('kit_table_sd.png'));
  const full = await decodeImage(await png('/habbo-imaging/furni?sprite=kit_table_sd&crop=0'));
  assert.equal(full.width, 1200);
  assert.equal(full.height, 1200);
  const box = alphaBounds(full)!;
  const inner = cropImage(full, box);
  assert.deepEqual([inner.width, inner.height], [still.width, still.height]);
  assert.ok(Buffer.from(inner.data).equals(Buffer.from(still.data)));
  assert.ok(
    box.x < 600 && box.x + box.width > 600 && box.y < 600,
    `the item hangs around the centre: ${JSON.stringify(box)}`,
  );
  // crop=1 and crop=true are the default.
  assert.ok(
    (await png('/habbo-imaging/furni?sprite=kit_table_sd&crop=true')).equals(await published('kit_table_sd.png')),
  );
});

test('canvas (Chroma) and bg (vortex): the same picture over a colour, same size; bad values as each project reads them', async () => {
  const still = await decodeImage(await published('kit_table_sd.png'));
  const red = await decodeImage(await png('/habbo-imaging/furni?sprite=kit_table_sd&canvas=ff0000'));
  assert.deepEqual([red.width, red.height], [still.width, still.height]);
  let transparent = 0;
  for (let y = 0; y < still.height; y++)
    for (let x = 0; x < still.width; x++) {
      const s = pixel(still, x, y);
      const r = pixel(red, x, y);
      assert.equal(r[3], 255);
      if (s[3] === 0) {
        transparent++;
        assert.deepEqual(r, [255, 0, 0, 255]);
      } else if (s[3] === 255) assert.deepEqual(r, s);
    }
  assert.ok(transparent > 0);
  // Chroma's HexToColor: a colour it cannot read is FEFEFE; 3-digit HTML hex is read; "transparent" is none.
  const bad = await decodeImage(await png('/habbo-imaging/furni?sprite=kit_table_sd&canvas=nonsense'));
  assert.deepEqual(
    pixel(bad, 0, 0).slice(0, 3),
    pixel(still, 0, 0)[3] === 0 ? [254, 254, 254] : pixel(still, 0, 0).slice(0, 3),
  );
  const short = await png('/habbo-imaging/furni?sprite=kit_table_sd&canvas=f00');
  assert.ok(short.equals(await png('/habbo-imaging/furni?sprite=kit_table_sd&canvas=ff0000')));
  assert.ok(
    (await png('/habbo-imaging/furni?sprite=kit_table_sd&canvas=transparent')).equals(
      await published('kit_table_sd.png'),
    ),
  );
  // Chroma's bg=1 paints Chroma's own picture (bg.png), which we do not have: ignored.
  assert.ok((await png('/habbo-imaging/furni?sprite=kit_table_sd&bg=1')).equals(await published('kit_table_sd.png')));
  // vortex: RRGGBB opaque, AARRGGBB with its alpha, anything else transparent.
  const green = await decodeImage(await png('/habbo-imaging/furniture?class=kit_table_sd&bg=%2300ff00'));
  const corner = still.data[3] === 0 ? pixel(green, 0, 0) : undefined;
  if (corner) assert.deepEqual(corner, [0, 255, 0, 255]);
  const half = await decodeImage(await png('/habbo-imaging/furniture?class=kit_table_sd&bg=800000ff'));
  let found = false;
  for (let i = 0; i < still.data.length; i += 4)
    if (still.data[i + 3] === 0) {
      assert.deepEqual([...half.data.subarray(i, i + 4)], [0, 0, 255, 128]);
      found = true;
    }
  assert.ok(found);
  for (const bad of ['red', '12345', '00000000'])
    assert.ok(
      (await png(`/habbo-imaging/furniture?class=kit_table_sd&bg=${bad}`)).equals(await published('kit_table_sd.png')),
      bad,
    );
});

test('zoom and size l/b: whole-number nearest-neighbour zooms of the same picture, at most 4', async () => {
  const still = await decodeImage(await published('kit_crate.png'));
  const check = async (path: string, z: number) => {
    const img = await decodeImage(await png(path));
    assert.deepEqual([img.width, img.height], [still.width * z, still.height * z], path);
    for (let y = 0; y < img.height; y += 3)
      for (let x = 0; x < img.width; x += 3)
        assert.deepEqual(pixel(img, x, y), pixel(still, Math.floor(x / z), Math.floor(y / z)), `${path} ${x},${y}`);
  };
  await check('/habbo-imaging/furniture?class=kit_crate&zoom=2', 2);
  await check('/habbo-imaging/furniture?class=kit_crate&size=l', 2);
  await check('/habbo-imaging/furniture?class=kit_crate&size=b', 3);
  await check('/habbo-imaging/furniture?class=kit_crate&zoom=99', 4);
  await check('/habbo-imaging/furniture?class=kit_crate&scale=3', 3);
  await check('/habbo-imaging/furniture?class=kit_crate&zoom=2.7', 2);
  await check('/habbo-imaging/furniture?class=kit_crate&size=l&zoom=0.5', 2);
  await check('/habbo-imaging/furniture?class=kit_crate&zoom=-3', 1);
  // Chroma has no zoom.
  await check('/habbo-imaging/furni?sprite=kit_crate&zoom=3', 1);
});

test('the pixel work runs in the render workers: a drawing and each re-encoding is one pool job, a cached answer none', async () => {
  const pool = () => svc.pool.stats();
  const before = pool();
  await png('/habbo-imaging/furniture?class=kit_lamp_state2&direction=2&frame=37');
  const drawn = pool();
  assert.equal(drawn.rendered, before.rendered + 1, 'the drawing and its PNG came from a worker');
  assert.equal(drawn.reusedDrawings, before.reusedDrawings);
  await png('/habbo-imaging/furniture?class=kit_lamp_state2&direction=2&frame=37&bg=336699');
  const encoded = pool();
  assert.equal(encoded.rendered, drawn.rendered + 1, 'the new background was encoded in a worker');
  assert.equal(encoded.reusedDrawings, drawn.reusedDrawings + 1, 'from the picture held, not drawn again');
  await png('/habbo-imaging/furniture?class=kit_lamp_state2&direction=2&frame=37&bg=336699');
  assert.equal(pool().rendered, encoded.rendered, 'a memory hit takes no worker');
  const missing = await get('/habbo-imaging/furni?sprite=kit_nothing_here');
  assert.equal(missing.res.status, 404);
  assert.equal(pool().rejected, encoded.rejected + 1, 'an item without a bundle is a rejected job, not a failure');
  assert.equal(pool().failed, encoded.failed);
  // Counted as furni jobs: the avatar counters (and avatar_renders_total) are the avatars' alone.
  assert.equal(pool().byKind.furni.rendered, before.byKind.furni.rendered + 2);
  assert.equal(pool().byKind.furni.rejected, before.byKind.furni.rejected + 1);
  assert.deepEqual(pool().byKind.avatar, before.byKind.avatar);
});

test('bg, canvas, zoom and crop are encodings of one drawn picture, not new renders', async () => {
  const stats = () => svc.furni.service.stats();
  await png('/habbo-imaging/furniture?class=kit_booth_dirlayers&direction=4');
  const before = stats();
  for (const extra of ['&bg=ff00ff', '&zoom=2', '&bg=40112233&zoom=3'])
    await png(`/habbo-imaging/furniture?class=kit_booth_dirlayers&direction=4${extra}`);
  const after1 = stats();
  assert.equal(after1.renders, before.renders, 'no new drawing');
  assert.equal(after1.encodes, before.encodes! + 3);
  // size=l is size 64 at zoom 2: the answer zoom=2 already made.
  const large = await get('/habbo-imaging/furniture?class=kit_booth_dirlayers&direction=4&size=l');
  assert.equal(large.res.headers.get('x-imager-cache'), 'memory');
  assert.equal(stats().encodes, after1.encodes);
  await png('/habbo-imaging/furni?sprite=kit_booth_dirlayers&direction=4&state=0');
  const mid = stats();
  for (const extra of ['&canvas=ffffff', '&crop=0'])
    await png(`/habbo-imaging/furni?sprite=kit_booth_dirlayers&direction=4&state=0${extra}`);
  assert.equal(stats().renders, mid.renders);
  // /metrics counts them, under the routes' own labels.
  const text = await (await fetch(`${svc.url}/metrics`)).text();
  const samples = parsePrometheusText(text);
  assert.equal(sampleValue(samples, 'hotel_imager_avatar_furni_renders_total', {}), stats().renders);
  assert.ok(sampleValue(samples, 'hotel_imager_avatar_furni_not_found_total', {})! > 0);
  assert.ok(
    sampleValue(samples, 'hotel_imager_http_requests_total', { route: '/habbo-imaging/furniture', status: '200' })! > 0,
  );
  assert.ok(
    sampleValue(samples, 'hotel_imager_http_requests_total', { route: '/habbo-imaging/furni', status: '200' })! > 0,
  );
});

test('frame (vortex): a tick of the state loop, 0 the still; the published distinct frames are among the ticks', async () => {
  const still = await published('kit_fan_tieframes.png');
  assert.ok((await png('/habbo-imaging/furniture?class=kit_fan_tieframes&frame=0')).equals(still));
  assert.ok((await png('/habbo-imaging/furniture?class=kit_fan_tieframes&frame_num=0')).equals(still));
  const f1 = await published('kit_fan_tieframes__f1.png');
  let seen = false;
  for (let t = 1; t <= 24 && !seen; t++)
    seen = (await png(`/habbo-imaging/furniture?class=kit_fan_tieframes&frame=${t}`)).equals(f1);
  assert.ok(seen, 'distinct frame 1 is drawn at one of the first ticks');
  // A huge frame is clamped (no loop is walked tick by tick); a bad one is 0.
  const huge = await get('/habbo-imaging/furniture?class=kit_fan_tieframes&frame=99999999999');
  assert.equal(huge.res.status, 200);
  assert.ok((await png('/habbo-imaging/furniture?class=kit_fan_tieframes&frame=abc')).equals(still));
  // Chroma always draws the state's first frame.
  assert.ok((await png('/habbo-imaging/furni?sprite=kit_fan_tieframes&frame=3')).equals(still));
});

test('/healthz has the furni section', async () => {
  const health = (await (await fetch(`${svc.url}/healthz`)).json()) as {
    checks?: unknown;
    furni?: Record<string, unknown>;
  };
  const furni =
    (health as Record<string, Record<string, unknown>>).furni ??
    (health as { details?: Record<string, Record<string, unknown>> }).details?.furni;
  assert.ok(furni, JSON.stringify(Object.keys(health)));
  assert.equal(furni.enabled, true);
  assert.match(String(furni.furnidata), /gamedata\/FurnitureData\.json$/);
  assert.deepEqual(furni.ids, { room: 42, wall: 6 });
});

test('a Flash-layout hotel: 404 saying the furni are SWFs and how to get bundles', async () => {
  const flash = join(scratch, 'flash-kit');
  await ensureSampleKit(flash, { layout: 'flash' });
  const s = await startAvatarService(testAvatarConfig(flash, await deadBase(), { checkIntervalMs: 0 }));
  started.push(s);
  const { res, body } = await get('/habbo-imaging/furni?sprite=kit_table_sd', {}, s.url);
  assert.equal(res.status, 404);
  assert.equal(
    body.toString(),
    'no furni kit_table_sd in this hotel: no bundle bundled/furniture/kit_table_sd.nitro; this hotel keeps its furni ' +
      'as SWFs (hof_furni/, the Flash layout) and furni on demand draws Nitro bundles ' +
      '(bundled/furniture/<classname>.nitro): convert the hotel with `hotel-imager convert` and serve the result\n',
  );
  // Its furnidata (furnidata.xml) still gives ids.
  const byId = await get('/habbo-imaging/furniture?id=5003', {}, s.url);
  assert.equal(byId.res.status, 404);
  assert.match(byId.body.toString(), /^no furni kit_table_sd in this hotel/);
});

test('a changed bundle is drawn after a reload (a new key)', async () => {
  const copy = join(scratch, 'reload-kit');
  await cp(kit, copy, { recursive: true });
  const s = await startAvatarService(testAvatarConfig(copy, await deadBase(), { checkIntervalMs: 0 }));
  started.push(s);
  const path = '/habbo-imaging/furni?sprite=kit_crate';
  const before = await get(path, {}, s.url);
  assert.ok(before.body.equals(await published('kit_crate.png')));
  const identity = (s.furni.health() as { identity: string }).identity;
  // The crate's bundle replaced by another item's (a hotel update), then the reload SIGHUP does.
  const dir = join(copy, 'bundled/furniture');
  await writeFile(join(dir, 'kit_crate.nitro'), await readFile(join(dir, 'kit_lamp_state2.nitro')));
  await s.reload();
  assert.notEqual((s.furni.health() as { identity: string }).identity, identity);
  const after = await get(path, {}, s.url);
  assert.equal(after.res.status, 200);
  assert.equal(after.res.headers.get('x-imager-cache'), 'render', 'a new key, not the old picture');
  assert.notEqual(after.res.headers.get('etag'), before.res.headers.get('etag'));
  // The file now holds the lamp: its picture is the lamp's still.
  assert.ok(after.body.equals(await published('kit_lamp_state2.png')));
});

test('a half-exported furnidata: the service starts, avatars and classnames draw, ids 404 saying why; a reload keeps good ids', async () => {
  const copy = join(scratch, 'broken-furnidata-kit');
  await cp(kit, copy, { recursive: true });
  const file = join(copy, 'gamedata/FurnitureData.json');
  const good = await readFile(file);
  await writeFile(file, good.subarray(0, 100));
  const s = await startAvatarService(testAvatarConfig(copy, await deadBase(), { checkIntervalMs: 0 }));
  started.push(s);
  const avatar = await get('/avatar.png?figure=hd-180-1.ch-210-66&size=s', {}, s.url);
  assert.equal(avatar.res.status, 200);
  assert.ok(
    (await get('/habbo-imaging/furni?sprite=kit_crate', {}, s.url)).body.equals(await published('kit_crate.png')),
  );
  const byId = await get('/habbo-imaging/furni?sprite=5001', {}, s.url);
  assert.equal(byId.res.status, 404);
  assert.match(
    byId.body.toString(),
    /^no furni 5001 in this hotel: .*; no furni with id 5001 in the hotel's furnidata \(furnidata .*not valid JSON/,
  );
  const vortexId = await get('/habbo-imaging/furniture?id=5001', {}, s.url);
  assert.match(
    vortexId.body.toString(),
    /^no furni with id 5001 in the hotel's furnidata \(furnidata .*not valid JSON/,
  );
  assert.match(byId.body.toString(), /furnidata ids are unknown until it is fixed \(classnames still draw\)\)\n$/);
  const health = () => s.furni.health() as { furnidataError: string | null; ids: { room: number } };
  assert.match(health().furnidataError ?? '', /not valid JSON/);
  // Fixed, then reloaded: ids resolve.
  await writeFile(file, good);
  await s.reload();
  assert.equal(health().furnidataError, null);
  assert.equal((await get('/habbo-imaging/furni?sprite=5001', {}, s.url)).res.status, 200);
  // Half-copied again: the reload keeps the ids in service and says why.
  await writeFile(file, good.subarray(0, 100));
  await s.reload();
  assert.match(health().furnidataError ?? '', /not valid JSON/);
  assert.ok(health().ids.room > 0);
  assert.equal((await get('/habbo-imaging/furni?sprite=5001&direction=4', {}, s.url)).res.status, 200);
});

test("renders take from the avatar service's per-client rate: over it 429 with Retry-After; cached answers still 200", async () => {
  const s = await startAvatarService(
    testAvatarConfig(kit, await deadBase(), { checkIntervalMs: 0, clientRatePerSecond: 0.01, clientBurst: 2 }),
  );
  started.push(s);
  const a = await get('/habbo-imaging/furni?sprite=kit_crate', {}, s.url);
  const b = await get('/habbo-imaging/furni?sprite=kit_crate&canvas=ffffff', {}, s.url);
  assert.deepEqual([a.res.status, b.res.status], [200, 200]);
  const c = await get('/habbo-imaging/furniture?class=kit_table_sd', {}, s.url);
  assert.equal(c.res.status, 429);
  assert.equal(c.res.headers.get('retry-after'), '1');
  assert.equal(c.res.headers.get('cache-control'), 'no-store');
  assert.equal(c.body.toString(), 'too many renders: try again in a second\n');
  const again = await get('/habbo-imaging/furni?sprite=kit_crate', {}, s.url);
  assert.equal(again.res.status, 200);
  assert.equal(again.res.headers.get('x-imager-cache'), 'memory');
  assert.equal(s.furni.service.stats().limited, 1);
});
