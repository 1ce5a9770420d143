// Pre-v18 numeric figures over a real socket, on the sample kit with a small old figure list of our own
// (test/helpers/legacy-figure-data.ts): /habbo-imaging/avatarimage/convert answers Minerva's JSON, a
// numeric ?figure= is the picture of the figure string it converts to (same bytes, same cache entry),
// and without the old list both say why instead of guessing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSampleKit } from '../../../src/samplekit/index.js';
import { startAvatarService, type AvatarServiceInstance } from '../../../src/server/imager.js';
import { OLD_FIGURE_XML } from '../../helpers/legacy-figure-data.js';
import { deadBase, testAvatarConfig } from './fixtures.js';

const NUMERIC = '1000218001270012900121001';
const CONVERTED = 'hr-100-45.hd-180-1.ch-210-66.lg-270-80.sh-290-92';

let scratch: string;
let withList: AvatarServiceInstance & { url: string };
let without: AvatarServiceInstance & { url: string };

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'legacy-figures-'));
  const kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  const hotel = join(scratch, 'hotel');
  await cp(kit, hotel, { recursive: true });
  await writeFile(join(hotel, 'gamedata/figuredata_oldschool.xml'), OLD_FIGURE_XML);
  const userApi = await deadBase();
  withList = await startAvatarService(testAvatarConfig(hotel, userApi));
  without = await startAvatarService(testAvatarConfig(kit, userApi));
});

after(async () => {
  await withList?.close();
  await without?.close();
  await rm(scratch, { recursive: true, force: true });
});

async function get(base: string, path: string, init: RequestInit = {}) {
  const res = await fetch(base + path, { redirect: 'manual', ...init });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

test('/habbo-imaging/avatarimage/convert?figure=<25 digits> → {"figure": …} through the hotel\'s palettes', async () => {
  const { res, body } = await get(withList.url, `/habbo-imaging/avatarimage/convert?figure=${NUMERIC}`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  assert.equal(res.headers.get('cache-control'), 'public, max-age=3600');
  assert.deepEqual(JSON.parse(body.toString()), { figure: CONVERTED });
  const etag = res.headers.get('etag')!;
  assert.match(etag, /^"[0-9a-f]{32}"$/);
  const again = await get(withList.url, `/habbo-imaging/avatarimage/convert?figure=${NUMERIC}`, {
    headers: { 'if-none-match': etag },
  });
  assert.equal(again.res.status, 304);
  const head = await get(withList.url, `/habbo-imaging/avatarimage/convert?figure=${NUMERIC}`, { method: 'HEAD' });
  assert.equal(head.res.status, 200);
  assert.equal(head.body.length, 0);
  assert.equal((await get(withList.url, '/habbo-imaging/avatarimage/convert', { method: 'OPTIONS' })).res.status, 204);
  const post = await get(withList.url, '/habbo-imaging/avatarimage/convert', { method: 'POST', body: 'x' });
  assert.equal(post.res.status, 405);
  assert.equal(post.res.headers.get('allow'), 'GET, HEAD, OPTIONS');
});

test('convert: no figure, not 25 digits, or no old figure list → 404 text/plain with the reason', async () => {
  const cases: [string, string, RegExp][] = [
    [
      withList.url,
      '/habbo-imaging/avatarimage/convert',
      /no figure: use \/habbo-imaging\/avatarimage\/convert\?figure=/,
    ],
    [
      withList.url,
      '/habbo-imaging/avatarimage/convert?figure=hd-180-1',
      /"hd-180-1" is not a pre-v18 figure \(25 digits\)/,
    ],
    [
      without.url,
      `/habbo-imaging/avatarimage/convert?figure=${NUMERIC}`,
      /pre-v18 figures are off on this server: no Shockwave-era figure list/,
    ],
  ];
  for (const [base, path, reason] of cases) {
    const { res, body } = await get(base, path);
    assert.equal(res.status, 404, path);
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8', path);
    assert.match(body.toString(), reason, path);
  }
});

test('a numeric ?figure= is the picture of its conversion: the same bytes and ETag, one cache entry', async () => {
  for (const [numeric, spelled] of [
    [`/avatar.png?figure=${NUMERIC}&size=m&direction=4`, `/avatar.png?figure=${CONVERTED}&size=m&direction=4`],
    [`/habbo-imaging/avatarimage.gif?figure=${NUMERIC}`, `/avatar.png?figure=${CONVERTED}&img_format=gif`],
  ] as const) {
    const a = await get(withList.url, numeric);
    const b = await get(withList.url, spelled);
    assert.equal(a.res.status, 200, numeric);
    assert.equal(a.res.headers.get('x-imager-cache'), 'render', numeric);
    assert.equal(b.res.headers.get('x-imager-cache'), 'memory', `${spelled} is the entry ${numeric} made`);
    assert.equal(a.res.headers.get('etag'), b.res.headers.get('etag'));
    assert.ok(a.body.equals(b.body), numeric);
  }
  const health = (await (await fetch(`${withList.url}/healthz`)).json()) as {
    checks?: unknown;
    legacyFigures?: { enabled: boolean; entries: number };
  };
  assert.equal(health.legacyFigures?.enabled, true);
  assert.equal(health.legacyFigures?.entries, 8);
});
