import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LibraryStore, partIndexFrom, partKeysOf } from '../../src/avatar/library.js';
import { AvatarRenderError } from '../../src/avatar/errors.js';
import { type AssetLibrary } from '../../src/formats/asset-library.js';
import { rect } from './fixture.js';

function lib(
  name: string,
  assets: Record<string, { x: number; y: number; source?: string; flipH?: boolean }>,
  sprites: string[],
): AssetLibrary {
  return {
    name,
    data: { name, assets } as AssetLibrary['data'],
    sprites: new Map(sprites.map((s) => [s, rect(10, 10, [1, 2, 3, 255])])),
  };
}

const MAP = {
  libraries: [
    { id: 'hh_human_50_body', parts: [{ id: 1, type: 'bd' }] },
    {
      id: 'a',
      parts: [
        { id: 1, type: 'bd' },
        { id: 2, type: 'ch' },
      ],
    },
    { id: 'b', parts: [{ id: 3, type: 'ch' }] },
    { id: 'c', parts: [{ id: 4, type: 'ch' }] },
    { id: 'absent', parts: [{ id: 5, type: 'ch' }] },
  ],
};

test('figure map: libraries present on disk only, small-size copies last', () => {
  const store = new LibraryStore(MAP, new Set(['hh_human_50_body', 'a', 'b', 'c']), async () => lib('x', {}, []));
  assert.deepEqual(store.librariesFor('bd', 1), ['a', 'hh_human_50_body']);
  assert.deepEqual(store.librariesFor('ch', 5), []);
});

test('libraries load lazily, once for concurrent users, and stay within the byte bound', async () => {
  const loads: string[] = [];
  const store = new LibraryStore(
    MAP,
    new Set(['a', 'b', 'c']),
    async (n) => {
      loads.push(n);
      await new Promise((r) => setTimeout(r, 5));
      return lib(n, { [`h_std_ch_1_2_0`]: { x: 1, y: 2 } }, ['h_std_ch_1_2_0']);
    },
    { cacheBytes: 2 * (4096 + 400) },
  );
  assert.equal(store.size, 0, 'nothing loaded up front');
  const [x, y] = await Promise.all([store.get('a'), store.get('a')]);
  assert.equal(x, y);
  assert.deepEqual(loads, ['a']);
  await store.get('b');
  await store.get('c');
  assert.equal(store.size, 2, 'the least recently used library was evicted');
  await store.get('a');
  assert.deepEqual(loads, ['a', 'b', 'c', 'a']);
});

test('a library that fails to load is an asset-load error', async () => {
  const store = new LibraryStore(MAP, new Set(['a']), async () => {
    throw new Error('corrupt bundle');
  });
  await assert.rejects(
    store.get('a'),
    (e: unknown) => e instanceof AvatarRenderError && e.code === 'asset-load' && /corrupt bundle/.test(e.message),
  );
});

test('a failed load is not remembered, whether the loader threw at once or rejected: the next get loads again', async () => {
  let calls = 0;
  const store = new LibraryStore(MAP, new Set(['a']), (n) => {
    calls++;
    if (calls === 1) throw new Error('thrown at once');
    if (calls === 2) return Promise.reject(new Error('rejected'));
    return Promise.resolve(lib(n, {}, []));
  });
  const loadError = (why: RegExp) => (e: unknown) =>
    e instanceof AvatarRenderError && e.code === 'asset-load' && why.test(e.message);
  await assert.rejects(store.get('a'), loadError(/thrown at once/));
  await assert.rejects(store.get('a'), loadError(/rejected/));
  const l = await store.get('a');
  assert.equal(await store.get('a'), l, 'kept once loaded');
  assert.equal(calls, 3);
});

test('asset lookup: aliases take the source pixels with their own offset; flipped aliases', async () => {
  const store = new LibraryStore(MAP, new Set(['a']), async () =>
    lib(
      'a',
      {
        h_std_bd_1_2_0: { x: -3, y: 40 },
        h_std_bd_1_3_0: { x: -5, y: 41, source: 'h_std_bd_1_2_0' },
        h_std_bd_1_1_0: { x: -6, y: 42, source: 'h_std_bd_1_2_0', flipH: true },
      },
      ['h_std_bd_1_2_0'],
    ),
  );
  const l = await store.get('a');
  const own = l.asset('h_std_bd_1_2_0')!;
  const alias = l.asset('h_std_bd_1_3_0')!;
  const flipped = l.asset('h_std_bd_1_1_0')!;
  assert.equal(alias.sprite, own.sprite);
  assert.deepEqual([alias.x, alias.y, alias.flipH], [-5, 41, false]);
  assert.deepEqual([flipped.x, flipped.y, flipped.flipH], [-6, 42, true]);
  assert.equal(l.asset('h_std_bd_1_7_0'), null);
});

test('asset lookup: a name that is both an alias and an asset is the alias (AssetAliasCollection.getAsset follows aliases first)', async () => {
  // UFOblue's `h_std_fx3_2_1_7_0` is both: the client draws the alias's target, its direction-0 glow.
  const a = lib('fx', { h_std_fx3_2_1_0_0: { x: -2, y: 30 }, h_std_fx3_2_1_7_0: { x: -16, y: 4 } }, [
    'h_std_fx3_2_1_0_0',
    'h_std_fx3_2_1_7_0',
  ]);
  (a.data as { aliases?: object }).aliases = {
    h_std_fx3_2_1_7_0: { link: 'h_std_fx3_2_1_0_0' },
    h_std_fx3_2_1_6_0: { link: 'h_std_fx3_2_1_0_0' },
  };
  const store = new LibraryStore(MAP, new Set(['a']), async () => a);
  const l = await store.get('a');
  const target = a.sprites.get('h_std_fx3_2_1_0_0');
  for (const name of ['h_std_fx3_2_1_7_0', 'h_std_fx3_2_1_6_0']) {
    const r = l.asset(name)!;
    assert.equal(r.sprite, target, name);
    assert.deepEqual([r.x, r.y, r.name], [-2, 30, name]);
  }
});

test('part index: which library has a sprite (or alias) of which part, libraries in name order', () => {
  const names: Record<string, string[]> = {
    b: ['h_std_ch_210_2_0', 'sh_std_ch_210_2_0', 'h_std_ls_210_2_0', 'shirt_manifest'],
    a: ['h_std_ch_210_0_0', 'h_lay_hd_1_2_0'],
  };
  assert.deepEqual(partKeysOf(names.b!), ['ch:210', 'ls:210']);
  const index = partIndexFrom(Object.entries(names).map(([lib, n]) => [lib, partKeysOf(n)]));
  assert.deepEqual([...index].sort(), [
    ['ch:210', ['a', 'b']],
    ['hd:1', ['a']],
    ['ls:210', ['b']],
  ]);
});
