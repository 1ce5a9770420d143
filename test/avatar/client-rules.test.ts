// The game client's figure rules (nitro-renderer `src/nitro/avatar/`), one test per rule, on the sample
// kit: the kit carries the traps real data has (sleeves and hrb missing from FigureMap, a hat whose parts
// are ordered by index, a dress that sits, gendered mandatory defaults).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useKitHotel } from './kit-hotel.js';
import {
  AvatarRenderError,
  loadAvatarHotel,
  renderAvatar,
  type AvatarRender,
  type AvatarRequest,
  type DrawnLayer,
} from '../../src/avatar/index.js';
import { parseFigureString } from '../../src/avatar/figure.js';
import { plainRequest, type RequestFields } from '../helpers/avatar-request.js';

const kit = useKitHotel('rules');

function req(figure: string, over: Partial<RequestFields> = {}): AvatarRequest {
  return plainRequest(figure, over);
}
const find = (r: AvatarRender, type: string, id?: number): DrawnLayer | undefined =>
  r.layers.find((l) => l.partType === type && (id === undefined || l.partId === id));
/** The colour (`#rrggbb`) of a palette entry of the kit. */
const colour = (palette: number, id: number): string =>
  `#${kit.hotel.figure.palettes.get(palette)!.get(id)!.toString(16).padStart(6, '0')}`;

test('sprite lookup: parts FigureMap omits are found in the libraries of the worn sets (AvatarAssetDownloadManager)', async () => {
  const r = await renderAvatar(kit.hotel, req('hd-180-1.hr-115-61.ch-210-66.lg-270-82'));
  for (const t of ['ls', 'rs']) {
    const sleeve = find(r, t, 2210);
    assert.ok(sleeve, `${t} 2210 is drawn though FigureMap does not list it`);
    assert.equal(sleeve.library, 'shirt_U_kittee');
    assert.equal(sleeve.tint, colour(3, 66), `${t} takes the shirt's colour`);
  }
  const hrb = find(r, 'hrb', 1115);
  assert.ok(hrb, 'the bob draws its hrb');
  assert.equal(hrb.library, 'hair_U_kitbob');
  // The sleeve's pixels are in the picture: its centre pixel has the tinted grey of the sleeve sprite.
  const sprite = (await kit.hotel.libraries.get('shirt_U_kittee')).asset(`h_std_ls_2210_2_0`)!;
  const f = r.frames[0]!;
  let shown = 0;
  for (let y = 0; y < sprite.sprite.height; y++) {
    for (let x = 0; x < sprite.sprite.width; x++) {
      const si = (y * sprite.sprite.width + x) * 4;
      if (sprite.sprite.data[si + 3] !== 255) continue;
      const di = ((find(r, 'ls')!.y + y) * f.width + find(r, 'ls')!.x + x) * 4;
      const want = Math.round((sprite.sprite.data[si]! * 0xc8) / 255); // red channel × tint 0xC83C3C
      if (Math.abs(f.data[di]! - want) <= 1) shown++;
    }
  }
  assert.ok(shown > 10, `sleeve pixels shown: ${shown}`);
});

test('parts of one type in a set draw by index: higher index on top, later-listed on a tie (FigurePartSet)', async () => {
  // Bow hat: the bow (index 1) is listed before the crown (index 0) and is drawn over it.
  const hat = await renderAvatar(kit.hotel, req('hd-180-1.ha-1005-62-110.ch-210-66.lg-270-82'));
  const bow = find(hat, 'ha', 5040)!;
  const crown = find(hat, 'ha', 5041)!;
  assert.ok(bow.order > crown.order, 'bow drawn after the crown');
  // Where both sprites are opaque the picture is the bow's pixel tinted with colour 110, not the crown's.
  const pixelOf = async (l: DrawnLayer) => {
    const a = (await kit.hotel.libraries.get(l.library)).asset(l.asset)!;
    const tint = Number.parseInt(l.tint!.slice(1), 16);
    return (x: number, y: number): number[] | null => {
      const sx = x - l.x;
      const sy = y - l.y;
      if (sx < 0 || sy < 0 || sx >= a.sprite.width || sy >= a.sprite.height) return null;
      const i = (sy * a.sprite.width + sx) * 4;
      if (a.sprite.data[i + 3] !== 255) return null;
      return [0, 1, 2].map((c) => Math.round((a.sprite.data[i + c]! * ((tint >> (16 - 8 * c)) & 0xff)) / 255));
    };
  };
  const [bowAt, crownAt] = [await pixelOf(bow), await pixelOf(crown)];
  let both = 0;
  let differing = 0;
  for (let y = 0; y < hat.height; y++) {
    for (let x = 0; x < hat.width; x++) {
      const b = bowAt(x, y);
      const c = crownAt(x, y);
      if (!b || !c) continue;
      both++;
      if (b.join() !== c.join()) differing++;
      const out = hat.frames[0]!.data.subarray((y * hat.width + x) * 4, (y * hat.width + x) * 4 + 3);
      assert.ok(
        b.every((v, k) => Math.abs(v - out[k]!) <= 1),
        `(${x},${y}) shows the bow ${b} (got ${[...out]})`,
      );
    }
  }
  assert.ok(
    both > 20 && differing > 10,
    `bow and crown overlap (${both} px, ${differing} of them coloured differently)`,
  );
  // Two-colour shirt: the colour-2 chest band (index 1, listed after the body) is on top of it.
  const shirt = await renderAvatar(kit.hotel, req('hd-180-1.ch-215-66-92.lg-270-82'));
  assert.ok(find(shirt, 'ch', 2216)!.order > find(shirt, 'ch', 2215)!.order);
  assert.ok(find(shirt, 'ls', 2216)!.order > find(shirt, 'ls', 2215)!.order);
});

test('mandatory defaults: mandatory_<g>_1 types, first club-0 set of the gender or U, untinted (validateAvatarFigure)', async () => {
  const man = await renderAvatar(kit.hotel, req('hd-185-1.hr-100-61'));
  assert.equal(find(man, 'lg')?.partId, 3275, "a man's default legs: the first club-0 M/U set (275)");
  assert.equal(find(man, 'lg')?.tint, null, 'untinted');
  assert.equal(find(man, 'ch'), undefined, 'no shirt for a man (ch is not mandatory_m_1)');
  const woman = await renderAvatar(kit.hotel, req('hd-600-1.hr-515-61-45'));
  assert.equal(find(woman, 'lg')?.partId, 3270, "a woman's default legs: 270 (275 is a man's)");
  assert.equal(find(woman, 'ch')?.partId, 2210, 'a woman gets the first club-0 F/U shirt');
  assert.equal(find(woman, 'ch')?.tint, null);
  // No hd: the stock placeholder head (hd-99999), untinted and without a face.
  const noHead = await renderAvatar(kit.hotel, req('ch-210-66.lg-270-82.hr-100-61'));
  for (const t of ['bd', 'hd', 'lh', 'rh']) assert.equal(find(noHead, t, 1)?.tint, null, `${t} 1 untinted`);
  assert.equal(find(noHead, 'fc'), undefined);
  assert.equal(find(noHead, 'ey'), undefined);
});

test('every part of a body part draws its action; std only when the sprite is missing (AvatarImageCache.renderBodyPart)', async () => {
  // Sit governs the torso (its part set lists bd, lg, sh…, not ch): the dress there draws h_sit_ch.
  const sit = await renderAvatar(kit.hotel, req('hd-600-1.ch-260-66.lg-270-82', { action: 'sit' }));
  assert.equal(find(sit, 'ch', 2260)!.asset, 'h_sit_ch_2260_2_0');
  // The tee has no sit sprite: the fallback draws std.
  const tee = await renderAvatar(kit.hotel, req('hd-600-1.ch-210-66.lg-270-82', { action: 'sit' }));
  assert.equal(find(tee, 'ch', 2210)!.asset, 'h_std_ch_2210_2_0');
  assert.equal(find(tee, 'lg', 3270)!.asset, 'h_sit_lg_3270_2_0');
});

test('a repeated set type: the last one wins (AvatarFigureContainer.updatePart)', async () => {
  const r = await renderAvatar(kit.hotel, req('hd-180-1.lg-270-82.ch-210-66.lg-275-110'));
  assert.deepEqual(
    r.layers.filter((l) => l.partType === 'lg').map((l) => l.partId),
    [3275, 3276],
  );
  assert.equal(find(r, 'lg', 3275)!.tint, colour(3, 110));
  assert.deepEqual(
    parseFigureString('hd-180-1.lg-270-82.ch-210-66.lg-275-110').map((e) => e.setType),
    ['hd', 'ch', 'lg'],
    'the repeated type moves to the end',
  );
});

test('an empty colour slot takes the colour of the previous part of its body part (AvatarStructure.getParts)', async () => {
  // ch-215 is two-coloured; with one colour, its colour-2 parts (processed first: higher index) inherit
  // the colour of the part before them in the body part: the skin of bd (torso) and lh (left arm).
  const r = await renderAvatar(kit.hotel, req('hd-180-19.ch-215-66.lg-270-82'));
  const skin = colour(1, 19);
  assert.equal(find(r, 'ch', 2216)!.tint, skin);
  assert.equal(find(r, 'ls', 2216)!.tint, skin);
  assert.equal(find(r, 'ch', 2215)!.tint, colour(3, 66));
  // A slot that is there but not a number is no colour: untinted.
  const dash = await renderAvatar(kit.hotel, req('hd-180-19.ch-215-66-.lg-270-82'));
  assert.equal(find(dash, 'ch', 2216)!.tint, null);
  assert.equal(find(dash, 'ch', 2215)!.tint, colour(3, 66));
});

test('real-world figure strings: trailing dashes, "undefined" and empty colours render, never fail', async () => {
  const r = await renderAvatar(kit.hotel, req('hd-180-1.hr-515-45-.ca-1801-undefined.ch-210-66-.lg-270-82..sh-290'));
  assert.equal(find(r, 'hrb', 1515)!.tint, null, 'hr-515-45-: the second colour is empty, no colour');
  assert.equal(find(r, 'hr', 1515)!.tint, colour(2, 45));
  assert.equal(find(r, 'ca', 9001)!.tint, null, '"undefined" is no colour');
  assert.ok(find(r, 'sh', 4290), 'a set with no colour at all is drawn');
  assert.deepEqual(parseFigureString('hd-180-1.hr-890-45-').at(-1)!.colours.map(String), ['45', 'NaN']);
  // parseInt semantics: leading digits count
  assert.deepEqual(parseFigureString('ch-210-66abc').at(0)!.colours, [66]);
});

test('refusals: a set FigureData lacks, or a worn set none of whose sprites any library of the hotel has', async () => {
  await assert.rejects(
    renderAvatar(kit.hotel, req('hd-180-1.ch-999999-66')),
    (e: unknown) => e instanceof AvatarRenderError && e.code === 'unknown-set',
  );
  await assert.rejects(
    renderAvatar(kit.hotel, req('hd-180-1.ch-')),
    (e: unknown) => e instanceof AvatarRenderError && e.code === 'bad-figure',
  );
  // A copy of the kit whose FigureMap forgets the tee and lists a new shirt (its sprites are nowhere) under
  // the crown's library, and whose head library lists only bd/lh/rh.
  const copy = await mkdtemp(join(tmpdir(), 'avatar-rules-map-'));
  try {
    await mkdir(join(copy, 'gamedata'), { recursive: true });
    const map = JSON.parse(await readFile(join(kit.dir, 'gamedata', 'FigureMap.json'), 'utf8')) as {
      libraries: { id: string; parts: { type: string; id: number }[] }[];
    };
    for (const l of map.libraries) {
      if (l.id === 'shirt_U_kittee') l.parts = [];
      if (l.id === 'hat_U_kitcrown') l.parts.push({ type: 'ch', id: 2999 });
      if (l.id === 'hh_human_body') l.parts = l.parts.filter((p) => p.type !== 'hd');
    }
    const data = JSON.parse(await readFile(join(kit.dir, 'gamedata', 'FigureData.json'), 'utf8')) as {
      setTypes: { type: string; sets: unknown[] }[];
    };
    data.setTypes
      .find((t) => t.type === 'ch')!
      .sets.push({
        id: 299,
        gender: 'U',
        club: 0,
        colorable: true,
        selectable: true,
        parts: [{ id: 2999, type: 'ch', colorable: true, index: 0, colorindex: 1 }],
      });
    await writeFile(join(copy, 'gamedata', 'FigureMap.json'), JSON.stringify(map));
    await writeFile(join(copy, 'gamedata', 'FigureData.json'), JSON.stringify(data));
    await writeFile(
      join(copy, 'gamedata', 'HabboAvatarActions.json'),
      await readFile(join(kit.dir, 'gamedata', 'HabboAvatarActions.json')),
    );
    await mkdir(join(copy, 'bundled'), { recursive: true });
    const { symlink } = await import('node:fs/promises');
    await symlink(join(kit.dir, 'bundled', 'figure'), join(copy, 'bundled', 'figure'));
    const h = await loadAvatarHotel(copy);
    // The tee: no figure-map entry at all, but its library has the sprites: drawn from it.
    const tee = await renderAvatar(h, req('hd-180-1.ch-210-66.lg-270-82'));
    assert.equal(find(tee, 'ch', 2210)?.library, 'shirt_U_kittee');
    assert.equal(find(tee, 'ls', 2210)?.library, 'shirt_U_kittee');
    // ch-299: listed, but no library of the hotel has a sprite of it.
    await assert.rejects(
      renderAvatar(h, req('hd-180-1.ch-299-66.lg-270-82')),
      (e: unknown) => e instanceof AvatarRenderError && e.code === 'asset-load' && /ch-299/.test(e.message),
    );
    const head = await renderAvatar(h, req('hd-180-1.hr-100-61', { headOnly: true }));
    assert.equal(find(head, 'hd', 1)?.library, 'hh_human_body', 'hd found in the library FigureMap lists for bd/lh/rh');
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
});

test("body part offsets: Laugh's frame lowers the head by 1 px at the client's scale (AnimationAction.getFrameBodyPartOffset)", async () => {
  const figure = 'hd-180-1.hr-115-61.ch-210-66.lg-270-82';
  for (const [size, px] of [
    ['m', 1],
    ['l', 2],
  ] as const) {
    const std = await renderAvatar(kit.hotel, req(figure, { size }));
    const laugh = await renderAvatar(kit.hotel, req(figure, { size, action: 'laugh' }));
    for (const t of ['hd', 'hr', 'ey']) assert.equal(find(laugh, t)!.y - find(std, t)!.y, px, `${t} at size ${size}`);
    assert.equal(find(laugh, 'bd')!.y, find(std, 'bd')!.y, 'the body stays');
    assert.equal(find(laugh, 'lg')!.y, find(std, 'lg')!.y);
  }
});
