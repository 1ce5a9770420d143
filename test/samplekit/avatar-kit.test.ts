import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { avatarKitFiles } from '../../src/samplekit/avatar/index.js';
import { avatarContactSheet } from '../../src/samplekit/avatar/contact-sheet.js';
import { type AssetLibrary, readAssetLibrary } from '../../src/formats/asset-library.js';
import { flipHorizontal, imagesEqual } from '../../src/imaging/image.js';
import { type KitFile } from '../../src/samplekit/kit-file.js';
import { realdata } from '../helpers/realdata.js';
import { readNitroBundle } from '../../src/formats/nitro-container.js';
import { PART_STYLES, PATTERNS, partStyle } from '../../src/samplekit/avatar/parts.js';
import { OUTLINE, MARK } from '../../src/samplekit/avatar/raster.js';

interface FigureData {
  palettes: {
    id: number;
    colors: { id: number; index: number; club: number; selectable: boolean; hexCode: string }[];
  }[];
  setTypes: {
    type: string;
    paletteId: number;
    mandatory_f_0: boolean;
    mandatory_m_0: boolean;
    sets: {
      id: number;
      parts: { id: number; type: string; colorable: boolean; colorindex: number }[];
      hiddenLayers?: { partType: string }[];
    }[];
  }[];
}
interface FigureMap {
  libraries: { id: string; revision: number; parts: { id: number; type: string }[] }[];
}

let cached: Promise<{ files: KitFile[]; libs: Map<string, AssetLibrary> }> | undefined;
function kit() {
  cached ??= (async () => {
    const files = await avatarKitFiles();
    const libs = new Map<string, AssetLibrary>();
    for (const f of files) if (f.path.endsWith('.nitro')) libs.set(f.path, await readAssetLibrary(f.data, f.path));
    return { files, libs };
  })();
  return cached;
}
const doc = <T>(files: KitFile[], path: string): T =>
  JSON.parse(files.find((f) => f.path === path)!.data.toString('utf8')) as T;

/** The library (not an hh_human_50_ one, which has no usable assets) holding a part. */
/** The library FigureMap lists for a part. */
function mappedLibraryOf(map: FigureMap, type: string, id: number) {
  return map.libraries.find(
    (l) => !l.id.startsWith('hh_human_50_') && l.parts.some((p) => p.type === type && p.id === id),
  );
}
/**
 * The library holding a part's sprites: FigureMap's, or for a part it omits (the tee's sleeves, the bob's
 * hrb, as in real data) the library FigureMap lists for the part of the same id that it does list.
 */
function libraryOf(map: FigureMap, type: string, id: number) {
  return (
    mappedLibraryOf(map, type, id) ??
    map.libraries.find((l) => !l.id.startsWith('hh_human_50_') && l.parts.some((p) => p.id === id))
  );
}
function sprite(lib: AssetLibrary, name: string) {
  const a = lib.data.assets?.[name];
  if (!a) return undefined;
  return { asset: a, image: lib.sprites.get(a.source ?? name) };
}

test('avatar kit: Nitro layout, every file loads back', async () => {
  const { files, libs } = await kit();
  const paths = files.map((f) => f.path);
  for (const p of ['gamedata/FigureData.json', 'gamedata/FigureMap.json', 'gamedata/HabboAvatarActions.json'])
    assert.ok(paths.includes(p), p);
  for (const f of files)
    if (f.path.endsWith('.json')) assert.doesNotThrow(() => JSON.parse(f.data.toString('utf8')), f.path);
  const map = doc<FigureMap>(files, 'gamedata/FigureMap.json');
  for (const l of map.libraries) {
    const lib = libs.get(`bundled/figure/${l.id}.nitro`);
    assert.ok(lib, `bundle for ${l.id}`);
    assert.equal(lib.name, l.id);
    // every alias points at a sprite that exists
    for (const [name, a] of Object.entries(lib.data.assets ?? {}))
      if (a.source) assert.ok(lib.sprites.has(a.source), `${l.id}: ${name} → ${a.source}`);
  }
  // hh_human_50_* are decoys like the real Nitro ones: sh_ sprites in the sheet, no asset entries
  for (const name of ['hh_human_50_body', 'hh_human_50_face']) {
    const small = libs.get(`bundled/figure/${name}.nitro`)!;
    assert.deepEqual(small.data.assets, {});
    assert.ok(small.sprites.size > 0 && [...small.sprites.keys()].every((k) => k.startsWith('sh_')), name);
  }
  const total = files.reduce((s, f) => s + f.data.length, 0);
  assert.ok(total < 600_000, `kit stays small (${total} bytes)`);
});

test('avatar kit: every part of every set has a library and a std direction-2 sprite', async () => {
  const { files, libs } = await kit();
  const data = doc<FigureData>(files, 'gamedata/FigureData.json');
  const map = doc<FigureMap>(files, 'gamedata/FigureMap.json');
  const types = data.setTypes.map((s) => s.type).sort();
  assert.deepEqual(types, ['ca', 'cc', 'ch', 'cp', 'ea', 'fa', 'ha', 'hd', 'he', 'hr', 'lg', 'mc', 'sh', 'wa'].sort());
  for (const st of data.setTypes) {
    assert.ok(st.sets.length >= 1, st.type);
    assert.ok(
      data.palettes.some((p) => p.id === st.paletteId),
      `${st.type} palette`,
    );
    for (const set of st.sets) {
      // Every set has a part FigureMap lists; a part it omits lives in a library it lists for the set.
      const setLibs = set.parts.map((x) => mappedLibraryOf(map, x.type, x.id)?.id).filter((x): x is string => !!x);
      assert.ok(setLibs.length > 0, `${st.type}-${set.id}: FigureMap lists a part of it`);
      for (const part of set.parts) {
        const l =
          mappedLibraryOf(map, part.type, part.id)?.id ??
          setLibs.find((n) => sprite(libs.get(`bundled/figure/${n}.nitro`)!, `h_std_${part.type}_${part.id}_2_0`));
        assert.ok(l, `${st.type}-${set.id}: part ${part.type} ${part.id} is in FigureMap or in a library of its set`);
        const lib = libs.get(`bundled/figure/${l}.nitro`)!;
        const s = sprite(lib, `h_std_${part.type}_${part.id}_2_0`);
        assert.ok(s?.image, `${l} has h_std_${part.type}_${part.id}_2_0`);
      }
    }
  }
  // The traps of real FigureMaps: the tee's sleeves and the bob's hrb are not listed.
  for (const [t, id] of [
    ['ls', 2210],
    ['rs', 2210],
    ['hrb', 1115],
  ] as const)
    assert.equal(mappedLibraryOf(map, t, id), undefined, `${t} ${id} is not in FigureMap`);
});

test('avatar kit: wardrobe exercises one and two colours, hidden layers, mandatory types, club colours', async () => {
  const { files } = await kit();
  const data = doc<FigureData>(files, 'gamedata/FigureData.json');
  const sets = data.setTypes.flatMap((st) => st.sets.map((s) => ({ ...s, type: st.type })));
  assert.ok(
    sets.some((s) => s.parts.some((p) => p.colorindex === 2)),
    'a two-colour set',
  );
  assert.ok(
    sets.some((s) => s.parts.every((p) => !p.colorable)),
    'a non-colorable set',
  );
  const cap = sets.find((s) => s.type === 'ha' && s.hiddenLayers?.some((h) => h.partType === 'hr'));
  assert.ok(cap, 'a hat that hides hr');
  const hd = data.setTypes.find((s) => s.type === 'hd')!;
  assert.ok(hd.mandatory_f_0 && hd.mandatory_m_0);
  for (const pal of data.palettes) {
    assert.ok(pal.colors.length >= 5);
    assert.ok(
      pal.colors.some((c) => c.id !== c.index),
      'colour ids are not indexes',
    );
    assert.ok(
      pal.colors.some((c) => c.club > 0),
      `palette ${pal.id} has a club colour`,
    );
  }
  // set ids and part ids differ, so a renderer must map one to the other
  const hr = sets.find((s) => s.type === 'hr' && s.id === 115)!;
  assert.ok(hr.parts.every((p) => p.id !== 115));
});

test('avatar kit: sprites for every action, frame and exception direction the spec needs', async () => {
  const { files, libs } = await kit();
  const map = doc<FigureMap>(files, 'gamedata/FigureMap.json');
  const has = (type: string, id: number, name: string) => {
    const l = libraryOf(map, type, id)!;
    return Boolean(sprite(libs.get(`bundled/figure/${l.id}.nitro`)!, name)?.image);
  };
  const need: [string, number, string][] = [];
  for (const d of [0, 1, 2, 3, 7]) {
    for (const f of [0, 1, 2, 3])
      for (const t of ['bd', 'lh', 'rh', 'ls', 'rs'])
        need.push([
          t,
          t === 'ls' || t === 'rs' ? 2210 : 1,
          `h_wlk_${t}_${t === 'ls' || t === 'rs' ? 2210 : 1}_${d}_${f}`,
        ]);
    for (const f of [0, 1, 2, 3])
      need.push(
        ['lg', 3270, `h_wlk_lg_3270_${d}_${f}`],
        ['sh', 4290, `h_wlk_sh_4290_${d}_${f}`],
        ['ch', 2210, `h_wlk_ch_2210_${d}_${f}`],
        ['ch', 2210, `h_wav_ch_2210_${d}_${f}`],
      );
    need.push(['sh', 4290, `h_sit_sh_4290_${d}_0`], ['bd', 1, `h_sit_bd_1_${d}_0`]);
    need.push(
      ['hd', 1, `h_spk_hd_1_${d}_0`],
      ['hd', 1, `h_spk_hd_1_${d}_1`],
      ['rh', 1, `h_crr_rh_1_${d}_0`],
      ['lh', 1, `h_crr_lh_1_${d}_0`],
    );
  }
  for (let d = 0; d < 8; d++) {
    for (const f of [0, 1])
      need.push(
        ['lh', 1, `h_wav_lh_1_${d}_${f}`],
        ['lh', 1, `h_respect_lh_1_${d}_${f}`],
        ['rh', 1, `h_blw_rh_1_${d}_${f}`],
        ['ls', 2210, `h_wav_ls_2210_${d}_${f}`],
      );
    need.push(
      ['lh', 1, `h_sig_lh_1_${d}_0`],
      ['rh', 1, `h_drk_rh_1_${d}_0`],
      ['rs', 2210, `h_drk_rs_2210_${d}_0`],
      ['rc', 9601, `h_drk_rc_9601_${d}_0`],
    );
    for (const i of [1, 2, 3, 6]) need.push(['ri', i, `h_crr_ri_${i}_${d}_0`], ['ri', i, `h_drk_ri_${i}_${d}_0`]);
    for (let i = 0; i < 18; i++) need.push(['li', i, `h_sig_li_${i}_${d}_0`]);
  }
  for (const d of [1, 2, 3]) {
    for (const a of ['std', 'sml', 'sad', 'agr', 'srp', 'blw', 'lgh']) need.push(['fc', 1, `h_${a}_fc_1_${d}_0`]);
    need.push(['fc', 1, `h_spk_fc_1_${d}_1`]);
    for (const a of ['std', 'sml', 'sad', 'agr', 'srp', 'eyb']) need.push(['ey', 1, `h_${a}_ey_1_${d}_0`]);
  }
  for (const [t, id] of [
    ['bd', 1],
    ['hd', 1],
    ['lh', 1],
    ['rh', 1],
    ['ch', 2210],
    ['lg', 3270],
    ['sh', 4290],
    ['hr', 1115],
    ['fc', 1],
    ['ey', 1],
  ] as [string, number][])
    need.push([t, id, `h_lay_${t}_${id}_2_0`]);
  const missing = need.filter(([t, id, n]) => !has(t, id, n)).map(([, , n]) => n);
  assert.deepEqual(missing, []);
});

test('avatar kit: every shirt part has wlk 0-3 in 0,1,2,3,7, each frame its own image; only the tee has (trap) wav 0-3', async () => {
  const { files, libs } = await kit();
  const map = doc<FigureMap>(files, 'gamedata/FigureMap.json');
  const chParts = map.libraries
    .filter((l) => !l.id.startsWith('hh_human_50_'))
    .flatMap((l) => l.parts.filter((p) => p.type === 'ch').map((p) => ({ lib: l.id, id: p.id })));
  assert.deepEqual(chParts.map((p) => p.id).sort(), [2210, 2215, 2216, 2255, 2260]);
  for (const { lib: name, id } of chParts) {
    const lib = libs.get(`bundled/figure/${name}.nitro`)!;
    for (const d of [0, 1, 2, 3, 7]) {
      const images = [0, 1, 2, 3].map((f) => sprite(lib, `h_wlk_ch_${id}_${d}_${f}`)?.image);
      const std = sprite(lib, `h_std_ch_${id}_${d}_0`)!.image!;
      images.forEach((img, f) =>
        assert.ok(img && !imagesEqual(img, std), `${name}: h_wlk_ch_${id}_${d}_${f} differs from std`),
      );
      for (let a = 0; a < 4; a++)
        for (let b = a + 1; b < 4; b++)
          assert.ok(!imagesEqual(images[a]!, images[b]!), `ch ${id} dir ${d}: wlk ${a} ≠ ${b}`);
      for (const f of [0, 1, 2, 3])
        assert.equal(Boolean(sprite(lib, `h_wav_ch_${id}_${d}_${f}`)), id === 2210, `h_wav_ch_${id}_${d}_${f}`);
      // Only the dress sits, as real dresses do (h_sit_ch_…), and its sit sprite is its own picture.
      const sit = sprite(lib, `h_sit_ch_${id}_${d}_0`)?.image;
      assert.equal(Boolean(sit), id === 2260, `h_sit_ch_${id}_${d}_0`);
      if (sit) assert.ok(!imagesEqual(sit, std), `h_sit_ch_${id}_${d}_0 differs from std`);
    }
  }
});

test('avatar kit: real shirts carry ch wlk 0-3 in 0,1,2,3,7 and no ch wav (what the kit copies)', {
  skip: realdata('nitro/bundled/figure/shirt_F_maid.nitro').skip,
}, () => {
  const dir = realdata('nitro/bundled/figure').path;
  const names = (lib: string) => {
    const files = readNitroBundle(readFileSync(join(dir, `${lib}.nitro`)));
    const json = [...files].find(([n]) => n.endsWith('.json'))!;
    return Object.keys((JSON.parse(json[1].toString('utf8')) as { assets: object }).assets);
  };
  const maid = names('shirt_F_maid');
  for (const d of [0, 1, 2, 3, 7])
    for (const f of [0, 1, 2, 3]) assert.ok(maid.includes(`h_wlk_ch_3047_${d}_${f}`), `h_wlk_ch_3047_${d}_${f}`);
  for (const lib of ['shirt_F_maid', 'shirt_F_flowerdress', 'hh_human_shirt'])
    assert.deepEqual(
      names(lib).filter((n) => /^h_wav_ch_/.test(n)),
      [],
      lib,
    );
});

test('avatar kit: each colorable part type has its own look untinted (grey level ≥ 12 apart within a pattern), and its sprites use it', async () => {
  const types = Object.keys(PART_STYLES);
  const mask = (p: keyof typeof PATTERNS) =>
    Array.from({ length: 144 }, (_, i) => (PATTERNS[p](i % 12, Math.floor(i / 12)) ? 1 : 0)).join('');
  const close: string[] = [];
  for (let i = 0; i < types.length; i++) {
    for (let j = i + 1; j < types.length; j++) {
      const a = PART_STYLES[types[i]!]!;
      const b = PART_STYLES[types[j]!]!;
      const samePattern = mask(a.pattern) === mask(b.pattern);
      if (samePattern && Math.abs(a.base - b.base) < 12)
        close.push(`${types[i]} ${a.base.toString(16)} vs ${types[j]} ${b.base.toString(16)} (${a.pattern})`);
    }
    const s = PART_STYLES[types[i]!]!;
    if (s.pattern !== 'flat')
      assert.ok(s.alt !== undefined && Math.abs(s.alt - s.base) >= 24, `${types[i]}: pattern levels far apart`);
  }
  assert.deepEqual(close, []);
  // The table is what the sprites show: the commonest interior grey of each colorable first-colour
  // part's std direction-2 sprite is its type's base or alt level.
  const { files, libs } = await kit();
  const data = doc<FigureData>(files, 'gamedata/FigureData.json');
  const map = doc<FigureMap>(files, 'gamedata/FigureMap.json');
  const checked = new Set<string>();
  for (const part of data.setTypes.flatMap((st) => st.sets.flatMap((s) => s.parts))) {
    if (!part.colorable || part.type === 'ey') continue;
    const style = partStyle(part.type, part.id)!;
    const img = sprite(
      libs.get(`bundled/figure/${libraryOf(map, part.type, part.id)!.id}.nitro`)!,
      `h_std_${part.type}_${part.id}_2_0`,
    )!.image!;
    const counts = new Map<number, number>();
    const opaque = (x: number, y: number) =>
      x >= 0 && y >= 0 && x < img.width && y < img.height && img.data[(y * img.width + x) * 4 + 3]! > 0;
    for (let y = 0; y < img.height; y++)
      for (let x = 0; x < img.width; x++) {
        // interior pixels only: the outline (its own colour on thin parts) is every edge pixel
        if (!opaque(x, y) || !opaque(x - 1, y) || !opaque(x + 1, y) || !opaque(x, y - 1) || !opaque(x, y + 1)) continue;
        const i = (y * img.width + x) * 4;
        const v = (img.data[i]! << 16) | (img.data[i + 1]! << 8) | img.data[i + 2]!;
        if (v !== OUTLINE && v !== MARK) counts.set(v, (counts.get(v) ?? 0) + 1);
      }
    const top = [...counts].sort((x, y) => y[1] - x[1])[0];
    if (!top) continue; // all outline (a thin part)
    const levels = [style.base, style.alt].filter((v) => v !== undefined).map((v) => v * 0x010101);
    assert.ok(
      levels.includes(top[0]),
      `${part.type} ${part.id}: commonest grey ${top[0].toString(16)} is not its style`,
    );
    checked.add(style === PART_STYLES.second ? 'second' : part.type);
  }
  assert.ok(checked.size >= 18, `styles checked on sprites: ${[...checked].join(' ')}`);
});

test('avatar kit: directions 4-6 have own sprites exactly for the exceptions', async () => {
  const { libs } = await kit();
  const allowed = new Set([
    'wav:lh',
    'wav:ls',
    'wav:lc',
    'drk:rh',
    'drk:rs',
    'drk:rc',
    'blw:rh',
    'sig:lh',
    'respect:lh',
  ]);
  for (const lib of libs.values()) {
    for (const name of Object.keys(lib.data.assets ?? {})) {
      const m = /^h_([a-z]+)_([a-z]+)_\d+_([4-6])_\d+$/.exec(name);
      if (!m) continue;
      const [, action, type] = m;
      assert.ok(
        allowed.has(`${action}:${type}`) || type === 'ri' || type === 'li' || type === 'cp',
        `${lib.name}: ${name}`,
      );
    }
  }
});

test('avatar kit: offsets follow the real convention (top-left at (−x, 100−y), head top ≈ 26, feet ≈ 107)', async () => {
  const { libs } = await kit();
  const body = libs.get('bundled/figure/hh_human_body.nitro')!;
  for (const d of [0, 1, 2, 3, 7]) {
    const bd = sprite(body, `h_std_bd_1_${d}_0`)!;
    const hd = sprite(body, `h_std_hd_1_${d}_0`)!;
    const feet = 100 - bd.asset.y! + bd.image!.height;
    const headTop = 100 - hd.asset.y!;
    assert.ok(feet >= 104 && feet <= 108, `dir ${d} feet at ${feet}`);
    assert.ok(headTop >= 24 && headTop <= 28, `dir ${d} head top at ${headTop}`);
    const left = -bd.asset.x!;
    assert.ok(left >= 10 && left + bd.image!.width <= 58, `dir ${d} body inside the 64 px canvas`);
  }
});

test('avatar kit: own 4-6 sprites meet the mirrored body at the documented placement (mirror 67 + x − w, own −x + 2)', async () => {
  const { libs } = await kit();
  const body = libs.get('bundled/figure/hh_human_body.nitro')!;
  const swap: Record<string, string> = { lh: 'rh', rh: 'lh' };
  for (const d of [4, 5, 6]) {
    for (const [action, type, frame] of [
      ['wav', 'lh', 0],
      ['wav', 'lh', 1],
      ['sig', 'lh', 0],
      ['respect', 'lh', 0],
      ['drk', 'rh', 0],
      ['blw', 'rh', 1],
    ] as [string, string, number][]) {
      const own = sprite(body, `h_${action}_${type}_1_${d}_${frame}`)!;
      const mirroredStd = sprite(body, `h_std_${swap[type]}_1_${6 - d}_0`)!;
      const ownLeft = -own.asset.x! + 2;
      const ownTop = 100 - own.asset.y!;
      const stdLeft = 67 + mirroredStd.asset.x! - mirroredStd.image!.width;
      const stdTop = 100 - mirroredStd.asset.y!;
      // the shoulder (top of the hanging arm) lies inside the raised arm's box
      const shoulderX = stdLeft + mirroredStd.image!.width / 2;
      assert.ok(
        shoulderX >= ownLeft - 1 && shoulderX <= ownLeft + own.image!.width + 1,
        `${action} ${type} dir ${d}: shoulder x ${shoulderX} vs ${ownLeft}..${ownLeft + own.image!.width}`,
      );
      assert.ok(
        stdTop + 2 >= ownTop && stdTop + 2 <= ownTop + own.image!.height,
        `${action} ${type} dir ${d}: shoulder y`,
      );
    }
  }
});

test('avatar kit: colorable parts are greyscale (tint shows), eyes and fixed-colour parts are not', async () => {
  const { files, libs } = await kit();
  const data = doc<FigureData>(files, 'gamedata/FigureData.json');
  const map = doc<FigureMap>(files, 'gamedata/FigureMap.json');
  const grey = (img: { data: Uint8Array }) => {
    for (let i = 0; i < img.data.length; i += 4)
      if (img.data[i + 3]! > 0 && (img.data[i] !== img.data[i + 1] || img.data[i] !== img.data[i + 2])) return false;
    return true;
  };
  for (const st of data.setTypes) {
    for (const set of st.sets) {
      for (const part of set.parts) {
        const l = libraryOf(map, part.type, part.id)!;
        const img = sprite(libs.get(`bundled/figure/${l.id}.nitro`)!, `h_std_${part.type}_${part.id}_2_0`)!.image!;
        if (part.type === 'ey') assert.ok(!grey(img), `eyes ${part.id} are coloured`);
        else
          assert.equal(
            grey(img),
            part.colorable,
            `${st.type}-${set.id} part ${part.type} ${part.id} colorable=${part.colorable}`,
          );
      }
    }
  }
});

test('avatar kit: every sprite is asymmetric, so a wrong mirror shows', async () => {
  const { libs } = await kit();
  for (const lib of libs.values()) {
    if (lib.name.startsWith('hh_human_50_')) continue;
    for (const [name, img] of lib.sprites)
      assert.ok(!imagesEqual(img, flipHorizontal(img)), `${lib.name}: ${name} is mirror-symmetric`);
  }
});

test('avatar kit: deterministic, byte for byte', async () => {
  const a = await avatarKitFiles();
  const b = await avatarKitFiles();
  assert.deepEqual(
    a.map((f) => f.path),
    b.map((f) => f.path),
  );
  a.forEach((f, i) => assert.ok(f.data.equals(b[i]!.data), f.path));
});

test('avatar kit: contact sheet draws every sprite', async () => {
  const { files, libs } = await kit();
  const sheet = await avatarContactSheet(files);
  const count = [...libs.values()].reduce((s, l) => s + l.sprites.size, 0);
  assert.ok(sheet.width * sheet.height >= count * 64 * 64);
});

test('avatar kit: JSON documents use the real Nitro schemas', {
  skip: realdata('nitro/gamedata/FigureData.json').skip,
}, async () => {
  const { files } = await kit();
  const dir = realdata('nitro/gamedata').path;
  const real = (n: string) => JSON.parse(readFileSync(join(dir, n), 'utf8'));
  const keysOf = (objs: object[]) => new Set(objs.flatMap((o) => Object.keys(o)));
  const subset = (ours: Set<string>, theirs: Set<string>, what: string) => {
    for (const k of ours) assert.ok(theirs.has(k), `${what}: key ${k} not in the real schema`);
  };
  const fd = doc<FigureData>(files, 'gamedata/FigureData.json');
  const rfd = real('FigureData.json') as FigureData;
  assert.deepEqual(Object.keys(fd).sort(), Object.keys(rfd).sort());
  assert.deepEqual(keysOf(fd.palettes.flatMap((p) => p.colors)), keysOf(rfd.palettes.flatMap((p) => p.colors)));
  assert.deepEqual(
    keysOf(fd.setTypes.map(({ sets: _s, ...rest }) => rest)),
    keysOf(rfd.setTypes.map(({ sets: _s, ...rest }) => rest)),
  );
  subset(keysOf(fd.setTypes.flatMap((s) => s.sets)), keysOf(rfd.setTypes.flatMap((s) => s.sets)), 'set');
  assert.deepEqual(
    keysOf(fd.setTypes.flatMap((s) => s.sets.flatMap((x) => x.parts))),
    keysOf(rfd.setTypes.flatMap((s) => s.sets.flatMap((x) => x.parts))),
  );
  const fm = doc<FigureMap>(files, 'gamedata/FigureMap.json');
  const rfm = real('FigureMap.json') as FigureMap;
  assert.deepEqual(Object.keys(fm), Object.keys(rfm));
  assert.deepEqual(keysOf(fm.libraries), keysOf(rfm.libraries));
  const acts = doc<{ actions: { id: string; state: string; precedence: number }[]; actionOffsets: unknown[] }>(
    files,
    'gamedata/HabboAvatarActions.json',
  );
  const ract = real('HabboAvatarActions.json') as typeof acts;
  assert.deepEqual(Object.keys(acts).sort(), Object.keys(ract).sort());
  subset(keysOf(acts.actions), keysOf(ract.actions), 'action');
  for (const a of acts.actions) {
    const r = ract.actions.find((x) => x.id === a.id);
    assert.ok(r, `real action ${a.id}`);
    assert.equal(a.state, r.state, a.id);
    assert.equal(a.precedence, r.precedence, a.id);
  }
  assert.deepEqual(acts.actionOffsets, ract.actionOffsets);
});

test('avatar kit: asset entries use the fields real figure bundles use', {
  skip: realdata('nitro/bundled/figure/hh_human_body.nitro').skip,
}, async () => {
  const { libs } = await kit();
  const realPath = realdata('nitro/bundled/figure/hh_human_body.nitro').path;
  const real = await readAssetLibrary(readFileSync(realPath), realPath);
  const realKeys = new Set(Object.values(real.data.assets ?? {}).flatMap((a) => Object.keys(a)));
  for (const [path, lib] of libs) {
    // Effect libraries name their parts as real effects do (`h_std_fx1_1_1_0_0`): only figure libraries here.
    if (!path.startsWith('bundled/figure/')) continue;
    for (const [name, a] of Object.entries(lib.data.assets ?? {})) {
      for (const k of Object.keys(a)) assert.ok(realKeys.has(k), `${lib.name}: ${name} has field ${k}`);
      assert.match(name, /^h_[a-z]+_[a-z]+_\d+_[0-7]_\d+$/);
    }
  }
});
