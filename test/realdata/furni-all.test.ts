// Every real furni asset file goes through the build pipeline, including the ones the hotel's furnidata
// has no row for (the test adds rows for them to a copy of the furnidata in a temp folder, passed with
// the build's --furnidata override). For each item: a still with visible pixels, an icon or a reported
// "no icon", and a bundle that decodes and re-renders every published still byte for byte.
// REALDATA_SHEETS=<dir> also writes contact sheets of every still and icon there (never commit them).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBuild } from '../../src/corpus/run.js';
import { readFurniBundle } from '../../src/furni/bundle.js';
import { allFurniRows, splitClassname, type FurnitureData } from '../../src/formats/furnidata.js';
import { readFurnidataAny } from '../../src/formats/gamedata/furnidata-any.js';
import { renderStill } from '../../src/furni/render.js';
import { hasVisiblePixel, type RgbaImage } from '../../src/imaging/image.js';
import { decodePngSync } from '../../src/imaging/png.js';
import { encodePngCompact } from '../../src/imaging/png-compact.js';
import { realdata, writeSheet } from '../helpers/realdata.js';

const flash = realdata('flash');
const nitro = realdata('nitro');

/** The items of the real data that have no furnidata row at all (the rest have one). Checked against the data. */
const FLASH_ROWLESS = [
  'boutique_clothingpile',
  'gld_sofa1',
  'gold_elephant_statGo',
  'l4_pillmadrink',
  'monkey',
  'paris_c15_shadow',
  'rare_prize15',
  'room_hall15_ele',
  'room_wl15_ele',
];

/**
 * Items that draw nothing at size 64 direction 2 in any resting state, with why (looked at). None of the
 * real items is one: every one has a visible still. An entry here would let its still be absent.
 */
const GENUINELY_EMPTY: Record<string, string> = {};

/**
 * Items whose file has no drawable icon (inspected): monkey.swf has no `_icon_` asset at all; the Nitro
 * diner_tray_0 lists `diner_tray_0_icon_a` in its assets, but its spritesheet holds only the size-64
 * sprite (the SWF has the 25×13 icon). "No icon", reported, is the right result for both.
 */
const NO_ICON: Record<string, Set<string>> = { flash: new Set(['monkey']), nitro: new Set(['diner_tray_0']) };

function tempDir(t: TestContext, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Colour id of a published still path (the base is colour 0, listed first). */
const colourOf = (p: string) => Number(p.slice(0, -4).split('*')[1] ?? -1);

function basesWithRows(data: FurnitureData): Set<string> {
  return new Set(allFurniRows(data).map(({ row }) => splitClassname(row.classname).base));
}

async function checkAll(
  t: TestContext,
  label: string,
  assets: string,
  furnidata: string,
  out: string,
  classnames: string[],
) {
  const started = Date.now();
  const s = await runBuild({ assets, out, jobs: 2, furnidata });
  assert.equal(s.report.counts.failed, 0, `${label}: failed items`);
  const files = Object.keys(s.corpus.files);
  const stills: RgbaImage[][] = [];
  const icons: RgbaImage[] = [];
  const legend: string[] = [];
  for (const cn of classnames) {
    const e = s.report.items[cn];
    assert.ok(e, `${label} ${cn}: in the build report`);
    const empty = GENUINELY_EMPTY[cn];
    if (empty) {
      assert.match(e.reason ?? '', /empty render/, `${label} ${cn}`);
      continue;
    }
    assert.equal(e.status, 'ok', `${label} ${cn}: ${e.reason ?? ''}`);

    const renders = files
      .filter((p) => p === `furni-renders/${cn}.png` || p.startsWith(`furni-renders/${cn}*`))
      .sort((a, b) => colourOf(a) - colourOf(b));
    assert.ok(renders.includes(`furni-renders/${cn}.png`), `${label} ${cn}: base still published`);
    const row: RgbaImage[] = [];
    for (const r of renders) {
      const img = decodePngSync(readFileSync(join(out, r)));
      assert.ok(hasVisiblePixel(img), `${label} ${r}: visible pixels`);
      row.push(img);
    }

    const icon = `catalog-thumbs/${cn}.png`;
    if (NO_ICON[label]!.has(cn)) {
      assert.ok(!files.includes(icon), `${label} ${cn}: no icon expected`);
      assert.ok(
        e.notes?.some((n) => n.startsWith('no icon')),
        `${label} ${cn}: missing icon reported`,
      );
    } else {
      assert.ok(files.includes(icon), `${label} ${cn}: icon published`);
      const img = decodePngSync(readFileSync(join(out, icon)));
      assert.ok(hasVisiblePixel(img), `${label} ${cn}: icon has visible pixels`);
      icons.push(img);
    }

    const bundles = files.filter((p) => p.startsWith('hof_furni/') && p.endsWith(`/${cn}.bundle`));
    assert.equal(bundles.length, 1, `${label} ${cn}: one bundle`);
    const { model } = await readFurniBundle(readFileSync(join(out, bundles[0]!)), bundles[0]!);
    for (const r of renders) {
      const still = renderStill(model, Math.max(0, colourOf(r)));
      assert.ok(still, `${label} ${r}: re-rendered from the bundle`);
      assert.ok(
        encodePngCompact(still).equals(readFileSync(join(out, r))),
        `${label} ${r}: bundle re-render is byte-identical`,
      );
    }
    stills.push(row);
    legend.push(
      `${cn}: state ${e.state} direction ${e.direction}; ${renders.length} stills (${renders.map((r) => r.slice('furni-renders/'.length, -4)).join(' ')})`,
    );
  }
  writeSheet(`furni-${label}-stills`, stills, legend);
  writeSheet(`furni-${label}-icons`, [icons], [classnames.filter((c) => !NO_ICON[label]!.has(c)).join(' ')], 3);
  t.diagnostic(
    `${label}: ${classnames.length} items, ${s.corpus.counts.renders} stills, checked in ${Date.now() - started} ms`,
  );
}

test('real Flash hotel: every furni SWF builds (rows added for those furnidata lacks)', {
  skip: flash.skip,
}, async (t) => {
  const swfs = readdirSync(join(flash.path, 'hof_furni'))
    .filter((f) => f.endsWith('.swf'))
    .map((f) => f.slice(0, -4))
    .sort();
  assert.ok(swfs.length > FLASH_ROWLESS.length, 'hof_furni/ holds SWFs with furnidata rows');
  const file = join(flash.path, 'gamedata', 'furnidata.txt');
  const bytes = readFileSync(file);
  const have = basesWithRows(readFurnidataAny(bytes, file, 'txt').data);
  const rowless = swfs.filter((cn) => !have.has(cn));
  assert.deepEqual(rowless, FLASH_ROWLESS);

  const dir = tempDir(t, 'hi-real-flash-all-');
  // The legacy file is one array of rows: append the missing rows before its closing bracket.
  const extra = rowless
    .map((cn, i) => `["s","${990000 + i}","${cn}","1","0","1","1","","${cn}","added by the test","","-1","-1"]`)
    .join(',');
  const text = bytes.toString('utf8').trimEnd();
  assert.ok(text.endsWith(']]'), 'furnidata.txt ends with its closing bracket');
  writeFileSync(join(dir, 'furnidata.txt'), `${text.slice(0, -1)},${extra}]`);
  await checkAll(t, 'flash', flash.path, join(dir, 'furnidata.txt'), join(dir, 'out'), swfs);
});

test('real Nitro hotel: every furni bundle builds (rows added for those FurnitureData lacks)', {
  skip: nitro.skip,
}, async (t) => {
  const bundles = readdirSync(join(nitro.path, 'bundled', 'furniture'))
    .filter((f) => f.endsWith('.nitro'))
    .map((f) => f.slice(0, -6))
    .sort();
  assert.ok(bundles.length > 0, 'bundled/furniture/ holds bundles');
  const data = JSON.parse(readFileSync(join(nitro.path, 'gamedata', 'FurnitureData.json'), 'utf8')) as FurnitureData;
  const have = basesWithRows(data);
  const rowless = bundles.filter((cn) => !have.has(cn));
  assert.equal(rowless.length, 6, `rowless: ${rowless.join(' ')}`);

  const dir = tempDir(t, 'hi-real-nitro-all-');
  const template = data.roomitemtypes.furnitype[0]!;
  rowless.forEach((cn, i) =>
    data.roomitemtypes.furnitype.push({
      ...template,
      id: 990000 + i,
      classname: cn,
      revision: 1,
      name: cn,
      partcolors: { color: [] },
    }),
  );
  writeFileSync(join(dir, 'FurnitureData.json'), JSON.stringify(data));
  await checkAll(t, 'nitro', nitro.path, join(dir, 'FurnitureData.json'), join(dir, 'out'), bundles);
});
