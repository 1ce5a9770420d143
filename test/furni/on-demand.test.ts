// The furni-on-demand bounds and the two URL families' readings, as values: the zoom a picture gets under
// the pixel cap, and what each documented query becomes (Chroma's and vortex-imager's defaults, clamps and
// tolerated bad values).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_TICK, UNCROPPED_SIZE } from '../../src/furni/on-demand.js';
import { effectiveZoom, MAX_OUTPUT_PIXELS, MAX_ZOOM } from '../../src/imaging/image.js';
import { parseChromaQuery, parseVortexQuery, pathClassOf } from '../../src/core/hotel-furni/params.js';

test('documented bounds', () => {
  assert.equal(MAX_OUTPUT_PIXELS, 16_777_216);
  assert.equal(MAX_ZOOM, 4);
  assert.equal(MAX_TICK, 9999);
  assert.equal(UNCROPPED_SIZE, 1200);
});

test('a zoom is lowered until the picture fits 4096 × 4096 pixels, never below 1', () => {
  assert.equal(effectiveZoom(100, 80, 4), 4);
  assert.equal(effectiveZoom(1200, 1200, 4), 3);
  assert.equal(effectiveZoom(2048, 2048, 4), 2);
  assert.equal(effectiveZoom(2049, 2048, 2), 1);
  assert.equal(effectiveZoom(6000, 4000, 4), 1);
  assert.equal(effectiveZoom(10, 10, 99), 4);
  assert.equal(effectiveZoom(10, 10, 0), 1);
});

test("Chroma's query: defaults, aliases and clamps as HomeController.Index reads them", () => {
  assert.deepEqual(parseChromaQuery('sprite=chair'), {
    family: 'chroma',
    target: { kind: 'class', classname: 'chair' },
    icon: false,
    size: 64,
    tick: 0,
    shadow: false,
    crop: true,
    zoom: 1,
  });
  assert.equal(parseChromaQuery(''), undefined);
  assert.equal(parseChromaQuery('sprite=%20'), undefined);
  const all = parseChromaQuery(
    'sprite=123&s=true&state=101&rotation=6&direction=2&colour=16&shadow=1&crop=0&canvas=abc&icon=true',
  )!;
  assert.deepEqual(all.target, { kind: 'id', id: 123, wall: false });
  assert.equal(all.alsoClass, '123');
  assert.equal(all.size, 32);
  assert.equal(all.state, 0, 'state ≥ 101 is 0');
  assert.equal(all.direction, 6, 'rotation wins, read after direction');
  assert.equal(all.colorId, 0, 'colour ≥ 16 is 0');
  assert.deepEqual([all.shadow, all.crop, all.icon], [true, false, true]);
  assert.deepEqual(all.background, { rgb: 0xaabbcc, alpha: 255 });
  const bad = parseChromaQuery('sprite=x&state=-1&direction=2.5&color=a&crop=yes&canvas=%23ff0000&small=yes')!;
  assert.equal(bad.state, undefined);
  assert.equal(bad.direction, undefined);
  assert.equal(bad.colorId, undefined);
  assert.equal(bad.crop, false, 'crop is on only for 1 or true once given');
  assert.deepEqual(bad.background, { rgb: 0xfefefe, alpha: 255 }, "HexToColor's fallback");
  assert.equal(bad.size, 64);
});

test("vortex-imager's query: defaults, size, zoom, direction modulo 8, frame, bg", () => {
  assert.deepEqual(parseVortexQuery('class=throne'), {
    family: 'vortex',
    target: { kind: 'class', classname: 'throne' },
    icon: false,
    size: 64,
    direction: 2,
    tick: 0,
    shadow: false,
    crop: true,
    zoom: 1,
  });
  assert.equal(parseVortexQuery('id=x'), undefined);
  assert.deepEqual(parseVortexQuery('id=7&wallitem=1')!.target, { kind: 'id', id: 7, wall: true });
  const r = parseVortexQuery('id=7&size=B&direction=-1&state=3&frame_num=5&color=2&bg=80102030')!;
  assert.deepEqual([r.size, r.zoom, r.direction, r.state, r.tick, r.colorId], [64, 3, 7, 3, 5, 2]);
  assert.deepEqual(r.background, { rgb: 0x102030, alpha: 0x80 });
  assert.equal(parseVortexQuery('class=a&frame=123456789')!.tick, 9999);
  assert.equal(parseVortexQuery('class=a&size=s&zoom=3')!.zoom, 3);
  assert.equal(parseVortexQuery('class=a&size=s')!.size, 32);
  assert.equal(parseVortexQuery('class=a&state=-1')!.state, undefined);
  assert.equal(parseVortexQuery('class=a&bg=00112233')!.background, undefined, 'alpha 00 is transparent');
  assert.equal(parseVortexQuery('q=1', 'from_path')!.target.kind, 'class');
});

test('the path form: /<class>, .png or .gif, no path characters', () => {
  assert.equal(pathClassOf('/throne.png'), 'throne');
  assert.equal(pathClassOf('/throne.gif'), 'throne');
  assert.equal(pathClassOf('/sofa*3.png'), 'sofa*3');
  assert.equal(pathClassOf('/sofa%2A3.png'), 'sofa*3');
  assert.equal(pathClassOf('/a%2Fb.png'), undefined);
  assert.equal(pathClassOf('/a/b.png'), undefined);
  assert.equal(pathClassOf('/%E0%A4%A.png'), undefined);
});
