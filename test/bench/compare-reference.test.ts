// The pure parts of the reference comparison (bench/compare-reference.ts): the premultiplied compare,
// the query mapping, the seeded sampler and the cause search. The run itself needs the reference
// imager and real data, so it is a dev tool, not a test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attribute, swapToken, type Compare, type Controls } from '../../bench/reference/attribution.js';
import {
  FigureCatalog,
  parseFigureTokens,
  sampleFigures,
  type FigureDataJson,
  type FigureMapJson,
} from '../../bench/reference/figures.js';
import { comparePremultiplied, diffImage, visibleOutside } from '../../bench/reference/pixels.js';
import { POSES, referenceUrl } from '../../bench/reference/poses.js';
import { createImage, type RgbaImage } from '../../src/imaging/image.js';

function image(w: number, h: number, px: [number, number, number, number][]): RgbaImage {
  const img = createImage(w, h);
  px.forEach((p, i) => img.data.set(p, i * 4));
  return img;
}

test('premultiplied compare: transparent pixels with different RGB are identical; ±3 is within; more is differing', () => {
  const a = image(2, 1, [
    [10, 20, 30, 0],
    [200, 100, 50, 255],
  ]);
  assert.equal(
    comparePremultiplied(
      a,
      image(2, 1, [
        [99, 0, 7, 0],
        [200, 100, 50, 255],
      ]),
    ).verdict,
    'identical',
  );
  const within = comparePremultiplied(
    a,
    image(2, 1, [
      [0, 0, 0, 0],
      [203, 98, 50, 255],
    ]),
  );
  assert.deepEqual(within, { verdict: 'within', differingPixels: 0, maxDelta: 3, sizeMismatch: false });
  const off = comparePremultiplied(
    a,
    image(2, 1, [
      [0, 0, 0, 0],
      [204, 100, 50, 255],
    ]),
  );
  assert.deepEqual(off, { verdict: 'differing', differingPixels: 1, maxDelta: 4, sizeMismatch: false });
  // Half-transparent: straight RGB 200 vs 206 at alpha 128 is 100 vs 103 premultiplied, within.
  assert.equal(
    comparePremultiplied(image(1, 1, [[200, 0, 0, 128]]), image(1, 1, [[206, 0, 0, 128]])).verdict,
    'within',
  );
  assert.equal(comparePremultiplied(image(1, 1, [[0, 0, 0, 255]]), image(1, 1, [[0, 0, 0, 250]])).maxDelta, 5);
  assert.equal(comparePremultiplied(a, createImage(1, 2)).sizeMismatch, true);
});

test('diff picture: red beyond ±3, orange within, grey where both agree on a drawn pixel, white where nothing is drawn', () => {
  const a = image(4, 1, [
    [0, 0, 0, 0],
    [100, 100, 100, 255],
    [100, 100, 100, 255],
    [100, 100, 100, 255],
  ]);
  const b = image(4, 1, [
    [50, 0, 0, 0],
    [100, 100, 100, 255],
    [102, 100, 100, 255],
    [150, 100, 100, 255],
  ]);
  const d = diffImage(a, b);
  assert.deepEqual([...d.data.subarray(0, 4)], [255, 255, 255, 255]);
  assert.equal(d.data[4], d.data[5]);
  assert.notEqual(d.data[4], 255);
  assert.deepEqual([...d.data.subarray(8, 12)], [255, 170, 0, 255]);
  assert.deepEqual([...d.data.subarray(12, 16)], [230, 0, 0, 255]);
});

test('visible pixels outside the head-only window are counted', () => {
  const img = createImage(4, 4);
  img.data[3] = 255; // (0,0) outside
  img.data[(1 * 4 + 1) * 4 + 3] = 255; // (1,1) inside
  assert.equal(visibleOutside(img, { x: 1, y: 1, width: 2, height: 2 }), 1);
});

test('reference query: size n, head turned with the body, spk as a gesture, headonly=1', () => {
  const pose = (id: string) => POSES.find((p) => p.id === id)!;
  const q = (id: string) => new URL(referenceUrl('http://127.0.0.1:3030/', 'hd-180-1', 3, pose(id))).searchParams;
  assert.deepEqual(Object.fromEntries(q('std')), {
    figure: 'hd-180-1',
    direction: '3',
    head_direction: '3',
    size: 'n',
    action: 'std',
    gesture: 'std',
  });
  assert.equal(q('spk').get('gesture'), 'spk');
  assert.equal(q('spk').get('action'), 'std');
  assert.equal(q('sit').get('action'), 'sit');
  assert.equal(q('headonly').get('headonly'), '1');
  assert.equal(q('std').get('headonly'), null);
});

const FIGURE_DATA: FigureDataJson = {
  palettes: [
    { id: 1, colors: [{ id: 1 }, { id: 2 }, { id: 3, selectable: false }] },
    { id: 3, colors: [{ id: 61 }, { id: 62 }, { id: 63 }] },
  ],
  setTypes: [
    {
      type: 'hd',
      paletteId: 1,
      mandatory_m_0: true,
      mandatory_f_0: true,
      sets: [
        { id: 180, gender: 'M', parts: [{ id: 1, type: 'hd', colorindex: 1 }] },
        { id: 600, gender: 'F', parts: [{ id: 2, type: 'hd', colorindex: 1 }] },
      ],
    },
    { type: 'hr', paletteId: 3, sets: [{ id: 100, gender: 'U', parts: [{ id: 1, type: 'hr', colorindex: 1 }] }] },
    {
      type: 'ch',
      paletteId: 3,
      mandatory_m_0: true,
      mandatory_f_1: true,
      sets: [
        {
          id: 210,
          gender: 'M',
          parts: [
            { id: 1, type: 'ch', colorindex: 1 },
            { id: 2, type: 'ch', colorindex: 2 },
          ],
        },
        { id: 630, gender: 'F', parts: [{ id: 3, type: 'ch', colorindex: 1 }] },
        { id: 999, gender: 'M', parts: [{ id: 99, type: 'ch', colorindex: 1 }] }, // no library
        { id: 998, gender: 'M', selectable: false, parts: [{ id: 1, type: 'ch', colorindex: 1 }] },
      ],
    },
    {
      type: 'lg',
      paletteId: 3,
      mandatory_m_1: true,
      mandatory_f_1: true,
      sets: [{ id: 270, gender: 'U', parts: [{ id: 1, type: 'lg', colorindex: 1 }] }],
    },
    { type: 'sh', paletteId: 3, sets: [{ id: 290, gender: 'U', parts: [{ id: 1, type: 'sh', colorindex: 1 }] }] },
    {
      type: 'ha',
      paletteId: 3,
      sets: [
        { id: 1001, gender: 'U', parts: [{ id: 1, type: 'ha', colorindex: 1 }], hiddenLayers: [{ partType: 'hr' }] },
      ],
    },
  ],
};
const FIGURE_MAP: FigureMapJson = {
  libraries: [
    {
      id: 'lib_a',
      parts: [
        { id: 1, type: 'hd' },
        { id: 2, type: 'hd' },
        { id: 1, type: 'hr' },
        { id: 1, type: 'ch' },
        { id: 3, type: 'ch' },
      ],
    },
    {
      id: 'lib_b',
      parts: [
        { id: 1, type: 'lg' },
        { id: 1, type: 'sh' },
        { id: 1, type: 'ha' },
      ],
    },
    { id: 'lib_missing', parts: [{ id: 99, type: 'ch' }] },
  ],
};

test('sampler: deterministic per seed, gender-consistent, palette colours, only sets the hotel can draw', () => {
  const catalog = new FigureCatalog(FIGURE_DATA, FIGURE_MAP, (n) => n !== 'lib_missing');
  const a = sampleFigures(catalog, 7, 40);
  assert.deepEqual(sampleFigures(catalog, 7, 40), a);
  assert.notDeepEqual(sampleFigures(catalog, 8, 40), a);
  assert.ok(a.length > 10);
  for (const f of a) {
    const tokens = parseFigureTokens(f.figure);
    for (const t of tokens) {
      assert.notEqual(t.id, 999, 'a set without a library is never sampled');
      assert.notEqual(t.id, 998, 'a non-selectable set is never sampled');
      const set = FIGURE_DATA.setTypes.find((s) => s.type === t.type)!.sets.find((s) => s.id === t.id)!;
      assert.ok(set.gender === 'U' || set.gender === f.gender, `${t.raw} fits a ${f.gender} figure`);
      const colours = t.raw.split('-').slice(2).map(Number);
      assert.ok(colours.length >= 1 && colours.length <= 2);
      const palette = t.type === 'hd' ? [1, 2] : [61, 62, 63];
      for (const c of colours) assert.ok(palette.includes(c), `${t.raw}: colour from the palette's selectable colours`);
    }
    if (f.kind === 'hat') assert.ok(tokens.some((t) => t.raw.startsWith('ha-1001-')));
    for (const m of f.missing) assert.ok(!tokens.some((t) => t.type === m));
  }
  assert.ok(a.some((f) => f.kind === 'missing' && f.missing.includes('hd')));
  assert.ok(
    a.some(
      (f) =>
        f.figure.includes('ch-210-') &&
        f.figure
          .split('.')
          .find((t) => t.startsWith('ch-210-'))!
          .split('-').length === 4,
    ),
    'two-colour sets get two colours',
  );
});

test('cause search: swaps accumulate until the renders agree; mandatory sets swap for the control, others are removed', async () => {
  const controls: Controls = new Map([['M', new Map([['ch', { type: 'ch', id: 630, raw: 'ch-630-61' }]])]]);
  assert.equal(
    swapToken(parseFigureTokens('hd-180-1.ch-210-61-62'), 1, controls.get('M'))!
      .map((t) => t?.raw)
      .join('.'),
    'hd-180-1.ch-630-61',
  );
  assert.deepEqual(
    swapToken(parseFigureTokens('hd-180-1.ha-1001-61'), 1, controls.get('M'))!.map((t) => t?.raw ?? null),
    ['hd-180-1', null],
  );
  assert.equal(swapToken(parseFigureTokens('ha-1001-61'), 0, undefined), null, 'never an empty figure');

  // The renders differ by 100 px per broken set worn: ch-210 and ha-1001 are broken.
  const seen: string[] = [];
  const compare: Compare = async (figure) => {
    seen.push(figure);
    const broken = ['ch-210-', 'ha-1001-'].filter((b) => figure.includes(b)).length;
    return {
      diff: {
        verdict: broken ? 'differing' : 'identical',
        differingPixels: broken * 100,
        maxDelta: broken ? 255 : 0,
        sizeMismatch: false,
      },
    };
  };
  const fig = {
    figure: 'hd-180-1.hr-100-61.ch-210-61-62.lg-270-61.ha-1001-62',
    kind: 'hat' as const,
    gender: 'M' as const,
    missing: [],
  };
  const base = await compare(fig.figure, 2, POSES[0]!);
  const a = await attribute(fig, 2, POSES[0]!, base, compare, controls);
  assert.equal(a.cause, 'sets ch+ha');
  assert.deepEqual(a.culprits, ['ch-210-61-62', 'ha-1001-62']);
  assert.equal(a.resolved, true);
  // Tried first when named first: one swap resolves a single broken set.
  const single = { ...fig, figure: 'hd-180-1.hr-100-61.lg-270-61.ha-1001-62' };
  const b = await attribute(single, 2, POSES[0]!, await compare(single.figure, 2, POSES[0]!), compare, controls, [3]);
  assert.deepEqual({ cause: b.cause, tries: b.tries }, { cause: 'set ha', tries: 1 });
  // A figure without hd is named so without any swap; a refusal is named by its code.
  const noHd = { figure: 'ch-210-61', kind: 'missing' as const, gender: 'M' as const, missing: ['hd'] };
  assert.equal((await attribute(noHd, 2, POSES[0]!, base, compare, controls)).cause, 'figure without hd');
  assert.equal(
    (await attribute(fig, 2, POSES[0]!, { diff: null, oursError: 'bad-figure' }, compare, controls)).cause,
    'ours refused (bad-figure)',
  );
});
