// The avatar extras on real data (skipped without ../shared/realdata): every effect of the real effect
// libraries alone, held items alone with and without drk=1, gender's defaults, and crop, bg and zoom on
// real figures, through the service on a loopback socket.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { alphaBounds, cropImage, scaleNearest, type RgbaImage } from '../../src/imaging/image.js';
import { decodePngSync } from '../../src/imaging/png.js';
import { startAvatarService, type AvatarServiceInstance } from '../../src/server/imager.js';
import { realdata } from '../helpers/realdata.js';
import { startFakeUserApi, testAvatarConfig, type FakeApi } from '../server/avatar/fixtures.js';

const nitro = realdata('nitro');
const flash = realdata('flash');
const FIG = 'hd-180-1.hr-828-61.ch-255-66.lg-280-110.sh-305-62';
/** The `fx` effects with a library in realdata/nitro (README), and the two that only change the avatar. */
const EFFECTS = [1, 2, 3, 5, 6, 7, 9, 12, 13, 16, 29, 102, 109, 113, 158, 197];
const AVATAR_ONLY = new Set([12, 13]);

let api: FakeApi | undefined;
const services: Record<string, AvatarServiceInstance & { url: string }> = {};

before(async () => {
  if (nitro.skip) return;
  api = await startFakeUserApi({}, {});
  services.nitro = await startAvatarService(testAvatarConfig(nitro.path, api.base));
  if (!flash.skip) services.flash = await startAvatarService(testAvatarConfig(flash.path, api.base));
});

after(async () => {
  for (const s of Object.values(services)) await s.close();
  await api?.close();
});

async function get(base: string, path: string) {
  const res = await fetch(base + path, { redirect: 'manual' });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

async function still(base: string, path: string): Promise<RgbaImage> {
  const { res, body } = await get(base, path);
  assert.equal(res.status, 200, path);
  return decodePngSync(body);
}

test('nitro: every real effect alone: its sprites without the avatar, or 404 for those that only change it', {
  skip: nitro.skip,
}, async () => {
  const base = services.nitro!.url;
  for (const id of EFFECTS) {
    for (const direction of [2, 4]) {
      const path = `/habbo-imaging/effect/${id}.png?size=m&direction=${direction}`;
      const { res, body } = await get(base, path);
      if (AVATAR_ONLY.has(id)) {
        assert.equal(res.status, 404, path);
        assert.match(body.toString(), new RegExp(`^nothing-visible: effect ${id} draws no sprite of its own`));
        continue;
      }
      assert.equal(res.status, 200, `${path}: ${res.status} ${res.status === 200 ? '' : body.toString()}`);
      assert.equal(res.headers.get('content-type'), 'image/png');
      // No body pixel: another figure (another head, hair, clothes, colours) gives the same bytes.
      const other = await get(base, `${path}&figure=hd-600-10.hr-515-45.ch-635-70.lg-700-82.sh-725-80`);
      assert.ok(other.body.equals(body), `${path}: the figure shows through`);
      const alone = decodePngSync(body);
      assert.deepEqual([alone.width, alone.height], [64, 110]);
      assert.ok(alphaBounds(alone), `${path} shows something`);
    }
  }
});

test('nitro: held items alone, carried and drunk, for every ri id of the figure map; others 404', {
  skip: nitro.skip,
}, async () => {
  const base = services.nitro!.url;
  const map = JSON.parse(await readFile(join(nitro.path, 'gamedata', 'FigureMap.json'), 'utf8')) as {
    libraries: { id: string; parts: { id: number; type: string }[] }[];
  };
  const held = new Set(map.libraries.flatMap((l) => l.parts.filter((p) => p.type === 'ri').map((p) => Number(p.id))));
  let drawn = 0;
  for (let id = 1; id <= 60; id++) {
    for (const drk of ['', '&drk=1']) {
      const path = `/habbo-imaging/handitem/${id}.png?size=m${drk}`;
      const { res, body } = await get(base, path);
      if (!held.has(id)) {
        assert.equal(res.status, 404, path);
        assert.equal(body.toString(), `hand item ${id} is not in this hotel's figure map (part ri ${id})\n`);
        continue;
      }
      assert.equal(res.status, 200, `${path}: ${res.status} ${body.toString().slice(0, 200)}`);
      drawn++;
      const box = alphaBounds(decodePngSync(body))!;
      assert.ok(box.width < 40 && box.height < 40, `${path}: an item, not an avatar (${box.width}x${box.height})`);
    }
  }
  assert.ok(drawn >= 50, `${drawn} drawn`);
});

for (const label of ['nitro', 'flash'] as const) {
  test(`${label}: gender chooses the defaults a figure leaves open, nothing else`, {
    skip: label === 'nitro' ? nitro.skip : flash.skip || nitro.skip,
  }, async () => {
    const base = services[label]!.url;
    const male = await get(base, '/avatar.png?figure=hd-180-1&size=m');
    const asF = await get(base, '/avatar.png?figure=hd-180-1&size=m&gender=F');
    assert.ok(!asF.body.equals(male.body), 'female defaults on a male-read figure');
    const female = await get(base, '/avatar.png?figure=hd-600-1&size=m');
    const asM = await get(base, '/avatar.png?figure=hd-600-1&size=m&gender=M');
    assert.ok(!asM.body.equals(female.body), 'male defaults on a female-read figure');
    const whole = await get(base, `/avatar.png?figure=${FIG}&size=m`);
    for (const g of ['M', 'F'])
      assert.ok((await get(base, `/avatar.png?figure=${FIG}&size=m&gender=${g}`)).body.equals(whole.body));
  });
}

test('nitro: crop, bg and zoom on real figures are the plain render trimmed, coloured, enlarged', {
  skip: nitro.skip,
}, async () => {
  const base = services.nitro!.url;
  for (const q of ['size=m&direction=3', 'size=l&action=sit,wav&direction=5', 'size=s&action=lay', 'size=m&effect=2']) {
    const plain = await still(base, `/avatar.png?figure=${FIG}&${q}`);
    const box = alphaBounds(plain)!;
    const cropped = await still(base, `/avatar.png?figure=${FIG}&${q}&crop=1`);
    assert.ok(Buffer.from(cropped.data).equals(Buffer.from(cropImage(plain, box).data)), `${q} crop`);
    const zoomed = await still(base, `/avatar.png?figure=${FIG}&${q}&zoom=3`);
    assert.ok(Buffer.from(zoomed.data).equals(Buffer.from(scaleNearest(plain, 3).data)), `${q} zoom`);
    const coloured = await still(base, `/avatar.png?figure=${FIG}&${q}&bg=fedcba`);
    for (let i = 0; i < plain.data.length; i += 4) {
      if (plain.data[i + 3] === 0) assert.deepEqual([...coloured.data.subarray(i, i + 4)], [0xfe, 0xdc, 0xba, 255]);
      else if (plain.data[i + 3] === 255)
        assert.deepEqual([...coloured.data.subarray(i, i + 4)], [...plain.data.subarray(i, i + 4)]);
    }
  }
});
