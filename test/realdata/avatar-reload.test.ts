// Live reload on real data (issue 23 §1): a copy of ../shared/realdata/nitro without one clothing library
// is served; the library is copied in while the service runs, and once the service has swapped the new
// hotel in, a figure wearing a set of that library (a fallback before) answers exactly the bytes a hotel
// loaded from the complete folder renders. And on real figures and effects: every library a render draws
// from is named in its inputs (the cache key), as on the sample kit (test/avatar/inputs.test.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  encodeAvatar,
  loadAvatarHotel,
  renderAvatar,
  renderInputs,
  type AvatarHotel,
  type AvatarRequest,
} from '../../src/avatar/index.js';
import { startAvatarService, type AvatarServiceInstance } from '../../src/server/imager.js';
import { figureFile, writeWhole } from '../helpers/hotel-edits.js';
import { realdata } from '../helpers/realdata.js';
import { testAvatarConfig } from '../server/avatar/fixtures.js';
import { plainRequest, type RequestFields } from '../helpers/avatar-request.js';
import { parseAction } from '../../src/avatar/request.js';

const nitro = realdata('nitro');
const BASE = 'hd-180-1.ch-210-66.lg-270-82.sh-290-80';

let scratch: string;
const started: AvatarServiceInstance[] = [];

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'realdata-reload-'));
});

after(async () => {
  for (const s of started.splice(0)) await s.close();
  await rm(scratch, { recursive: true, force: true });
});

/** A hat library of the hotel and a set whose every part only it holds. */
function pickHat(hotel: AvatarHotel): { lib: string; set: number } {
  const sets = hotel.figure.sets.get('ha');
  for (const lib of [...hotel.libraries.available].filter((n) => n.startsWith('hat_')).sort()) {
    for (const s of sets?.values() ?? []) {
      const holders = s.drawParts.map((p) => hotel.libraries.librariesFor(p.type, p.id));
      if (s.drawParts.length > 0 && holders.every((h) => h.length === 1 && h[0] === lib) && !s.club)
        return { lib, set: Number(s.id) };
    }
  }
  throw new Error('no hat library with a set of its own');
}

test('a library copied in while the service runs is drawn once the new hotel is swapped in', {
  skip: nitro.skip,
}, async (t) => {
  const complete = await loadAvatarHotel(nitro.path);
  const { lib, set } = pickHat(complete);
  const dir = join(scratch, 'hotel');
  for (const sub of ['gamedata', join('bundled', 'figure'), join('bundled', 'effect')])
    await cp(join(nitro.path, sub), join(dir, sub), { recursive: true });
  await rm(figureFile(dir, lib));

  const s = await startAvatarService(
    testAvatarConfig(dir, 'http://127.0.0.1:9', { checkIntervalMs: 200, clientRatePerSecond: 0 }),
  );
  started.push(s);
  const figure = `${BASE}.ha-${set}-1`;
  const get = (f: string) => fetch(`${s.url}/avatar.png?figure=${f}&size=m&direction=3`, { redirect: 'manual' });
  const missing = await get(figure);
  await missing.arrayBuffer();
  assert.equal(missing.status, 302, `${lib} is not in the folder yet`);
  const bare = Buffer.from(await (await get(BASE)).arrayBuffer());

  const t0 = Date.now();
  await writeWhole(figureFile(dir, lib), await readFile(figureFile(nitro.path, lib)));
  let res: Response;
  for (;;) {
    res = await get(figure);
    if (res.status === 200) break;
    await res.arrayBuffer();
    assert.ok(Date.now() - t0 < 60_000, 'the library was not picked up within a minute');
    await new Promise((r) => setTimeout(r, 50));
  }
  t.diagnostic(`${lib} (set ha-${set}): 302 → 200 after ${Date.now() - t0} ms (poll interval 200 ms)`);
  const body = Buffer.from(await res.arrayBuffer());
  const req: AvatarRequest = {
    figure,
    direction: 3,
    headDirection: 3,
    size: 'm',
    action: parseAction(''),
    gesture: '',
    headOnly: false,
    animated: false,
    frames: 0,
  };
  assert.ok(
    body.equals(await encodeAvatar(await renderAvatar(complete, req), 'png')),
    'the bytes a hotel loaded from the complete folder renders',
  );
  assert.ok(!body.equals(bare), 'the hat is drawn');
  const health = (await (await fetch(`${s.url}/healthz`)).json()) as {
    assets: { generation: number; libraries: { figure: number; broken: unknown[] } };
  };
  assert.equal(health.assets.generation, 2);
  assert.equal(health.assets.libraries.figure, complete.libraries.available.size);
  assert.deepEqual(health.assets.libraries.broken, []);
});

test("every library a real render draws from is named, with its digest, in the render's inputs (its cache key)", {
  skip: nitro.skip,
}, async () => {
  const hotel = await loadAvatarHotel(nitro.path);
  const base = new Map(BASE.split('.').map((p) => [p.split('-')[0]!, p]));
  const reqs: AvatarRequest[] = [];
  const req = (figure: string, over: Partial<RequestFields> = {}): AvatarRequest =>
    plainRequest(figure, { animated: true, ...over });
  for (const [type, sets] of hotel.figure.sets) {
    let n = 0;
    for (const s of sets.values()) {
      if (n >= 12 || !s.drawParts.some((p) => hotel.libraries.librariesFor(p.type, p.id).length > 0)) continue;
      n++;
      const figure = [...new Map([...base, [type, `${type}-${s.id}-1`]]).values()].join('.');
      reqs.push(req(figure), req(figure, { direction: 4, action: 'wav,crr=1', size: 's' }));
    }
  }
  for (const name of hotel.effects.names()) {
    const [kind, param] = name.split('.') as [string, string];
    reqs.push(req(BASE, kind === 'dance' ? { dance: Number(param) } : { effect: Number(param), direction: 5 }));
  }
  let layers = 0;
  for (const r of reqs) {
    let out;
    try {
      out = await renderAvatar(hotel, r);
    } catch {
      continue;
    }
    const text = renderInputs(hotel, r);
    for (const l of out.layers) {
      const digest = hotel.digests.libraries.get(l.library) ?? hotel.digests.effectLibraries.get(l.library);
      assert.ok(
        digest && text.includes(`${l.library}@${digest.slice(0, 16)}`),
        `${r.figure} ${JSON.stringify(r)}: layer from ${l.library} not in\n${text}`,
      );
      layers++;
    }
  }
  assert.ok(layers > 5000, `${layers} layers checked`);
});
