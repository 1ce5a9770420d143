// The build on real hotel data (skipped when ../shared/realdata is absent): every item that has an
// asset file renders, nothing fails, and each still round-trips through its bundle.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBuild } from '../../src/corpus/run.js';
import { readFurniBundle } from '../../src/furni/bundle.js';
import { renderStill } from '../../src/furni/render.js';
import { encodePngCompact } from '../../src/imaging/png-compact.js';
import { realdata } from '../helpers/realdata.js';

const nitro = realdata('nitro');

function tempOut(t: TestContext, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
const flash = realdata('flash');

test('real Nitro hotel: every row with a bundle renders, bundles round-trip', { skip: nitro.skip }, async (t) => {
  const out = tempOut(t, 'hi-real-nitro-');
  const s = await runBuild({ assets: nitro.path, out, jobs: 2 });
  assert.equal(s.report.counts.failed, 0);
  for (const [cn, e] of Object.entries(s.report.items)) {
    if (e.status === 'skipped') assert.match(e.reason!, /no furnidata row|no asset file/, cn);
  }
  assert.ok(s.corpus.counts.renders >= 75, `renders: ${s.corpus.counts.renders}`);
  for (const p of Object.keys(s.corpus.files).filter((x) => x.endsWith('.bundle'))) {
    const base = p.replace(/^.*\//, '').replace(/\.bundle$/, '');
    const { model } = await readFurniBundle(readFileSync(join(out, p)), p);
    for (const r of Object.keys(s.corpus.files).filter(
      (x) => x === `furni-renders/${base}.png` || x.startsWith(`furni-renders/${base}*`),
    )) {
      const star = r.slice(0, -4).split('*')[1];
      const png = encodePngCompact(renderStill(model, star === undefined ? 0 : Number(star))!);
      assert.ok(png.equals(readFileSync(join(out, r))), r);
    }
  }
});

test('real Flash hotel: SWF items with rows render (inks, variants, animation)', { skip: flash.skip }, async (t) => {
  const out = tempOut(t, 'hi-real-flash-');
  const only = ['lamp_basic', 'hc_rntgn', 'paris_c15_shadow', 'chair_plasty', 'rare_dragonlamp', 'edice'];
  const s = await runBuild({ assets: flash.path, out, jobs: 2, only });
  assert.equal(s.layout, 'flash');
  assert.equal(s.report.counts.failed, 0);
  for (const cn of ['lamp_basic', 'hc_rntgn', 'chair_plasty', 'chair_plasty*3', 'rare_dragonlamp*5', 'edice'])
    assert.equal(s.report.items[cn]?.status, 'ok', cn);
  assert.ok(s.corpus.files['catalog-thumbs/chair_plasty.png'], 'chair_plasty icon');
});
