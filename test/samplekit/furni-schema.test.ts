// The kit's furni files must use the JSON schemas of real Nitro files: every field path (with ids and
// asset names generalised) and its value type in our bundles and furnidata must occur in the real ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readNitroBundle } from '../../src/formats/nitro-container.js';
import { furniKitFiles, FURNIDATA_PATH, KIT_ITEMS, readableBundle } from '../../src/samplekit/furni/index.js';
import { realdata } from '../helpers/realdata.js';

const bundles = realdata('nitro/bundled/furniture');
const furnidata = realdata('nitro/gamedata/FurnitureData.json');

function typeOf(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  return typeof v;
}

/** Field paths with their types; numeric ids become `#`, asset and sprite names `<name>`. */
function paths(v: unknown, at: string, out: Set<string>, parentKey = ''): Set<string> {
  out.add(`${at}:${typeOf(v)}`);
  if (Array.isArray(v)) for (const x of v) paths(x, `${at}[]`, out);
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      const key =
        parentKey === 'assets' || parentKey === 'frames@sheet' ? '<name>' : /^-?\d+(_\d+)?$/.test(k) ? '#' : k;
      const nextParent = k === 'frames' && at.endsWith('.spritesheet') ? 'frames@sheet' : k;
      paths(x, `${at}.${key}`, out, nextParent);
    }
  }
  return out;
}

// Ints where the real data happens to hold floats (dimensions) are fine: an int is a valid float.
const allowed = (real: Set<string>, p: string) =>
  real.has(p) || (p.endsWith(':int') && real.has(p.replace(/:int$/, ':float')));

test('furni bundles use the JSON schema of real Nitro furni bundles', { skip: bundles.skip }, async () => {
  const real = new Set<string>();
  for (const f of readdirSync(bundles.path).filter((n) => n.endsWith('.nitro'))) {
    const files = readNitroBundle(readFileSync(join(bundles.path, f)), f);
    for (const [name, data] of files) if (name.endsWith('.json')) paths(JSON.parse(data.toString('utf8')), '', real);
  }
  const kit = await furniKitFiles({ extraFurni: 40 });
  const missing = new Set<string>();
  for (const f of kit) {
    if (!f.path.endsWith('.nitro')) continue;
    const cn = f.path.slice('bundled/furniture/'.length, -'.nitro'.length);
    if (KIT_ITEMS.find((i) => i.classname === cn && !readableBundle(i))) continue;
    for (const [name, data] of readNitroBundle(f.data, f.path)) {
      if (!name.endsWith('.json')) continue;
      for (const p of paths(JSON.parse(data.toString('utf8')), '', new Set()))
        if (!allowed(real, p)) missing.add(`${p} (${cn})`);
    }
  }
  // Fields of the Nitro schema (IAssetData) the kit needs for its rules but the 32 real bundles here
  // happen not to use: layer x/y offsets, per-direction alpha, frame x offsets, sequence loopCount.
  const schemaOnly = [
    '.visualizations[].layers.#.x:int',
    '.visualizations[].layers.#.y:int',
    '.visualizations[].directions.#.layers.#.alpha:int',
    '.visualizations[].animations.#.layers.#.frameSequences.#.frames.#.x:int',
    '.visualizations[].animations.#.layers.#.frameSequences.#.loopCount:int',
  ];
  const extra = [...missing].filter((m) => !schemaOnly.includes(m.split(' ')[0]!));
  assert.deepEqual(extra, []);
});

test('FurnitureData.json rows have the fields, order and types of the real file', {
  skip: furnidata.skip,
}, async () => {
  const realDoc = JSON.parse(readFileSync(furnidata.path, 'utf8'));
  const kit = await furniKitFiles({ extraFurni: 40 });
  const ours = JSON.parse(kit.find((f) => f.path === FURNIDATA_PATH)!.data.toString('utf8'));
  assert.deepEqual(Object.keys(ours), Object.keys(realDoc));
  for (const section of ['roomitemtypes', 'wallitemtypes']) {
    const realRow = realDoc[section].furnitype[0];
    const shape = (r: Record<string, unknown>) => Object.entries(r).map(([k, v]) => `${k}:${typeOf(v)}`);
    const realShape = shape(realRow);
    for (const row of ours[section].furnitype) {
      const s = shape(row).map((x: string) => x.replace(/:float$/, ':int'));
      assert.deepEqual(
        s,
        realShape.map((x: string) => x.replace(/:float$/, ':int')),
        `${section} ${row.classname}`,
      );
      if ('partcolors' in row) for (const c of row.partcolors.color) assert.match(c, /^#[0-9A-F]{6}$/);
    }
  }
});
