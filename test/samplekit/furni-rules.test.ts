// The kit must really exercise every rule it claims to: these tests read the written bundles back and
// check each expectation in src/samplekit/furni/expectations.ts against the data, by pixels where the
// rule is about pixels. They use their own small reading of the rules, not the project's renderer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { furniKitFiles, KIT_ITEMS, FURNIDATA_PATH, furniBundlePath, type FurnitureDataJson } from '../../src/samplekit/furni/index.js';
import { FURNI_EXPECTATIONS, type FurniRule } from '../../src/samplekit/furni/expectations.js';
import { type AssetLibrary, readAssetLibrary } from '../../src/formats/asset-library.js';
import { type NitroAnimation, type NitroVisualization } from '../../src/formats/nitro-asset-types.js';
import { hasVisiblePixel } from '../../src/imaging/image.js';

const kit = (async () => {
  const files = new Map((await furniKitFiles({})).map((f) => [f.path, f.data]));
  const fd = JSON.parse(files.get(FURNIDATA_PATH)!.toString('utf8')) as FurnitureDataJson;
  const libs = new Map<string, AssetLibrary>();
  for (const it of KIT_ITEMS) {
    const b = files.get(furniBundlePath(it.classname));
    if (b && it.bundle === 'ok') libs.set(it.classname, await readAssetLibrary(b, it.classname));
  }
  return { files, fd, libs };
})();

const v64 = (lib: AssetLibrary): NitroVisualization => lib.data.visualizations!.find((v) => v.size === 64)!;
const isTransition = (a: NitroAnimation) => a.transitionTo !== undefined || a.transitionFrom !== undefined;

function nearestDirection(v: NitroVisualization, wanted: number): number {
  const dirs = Object.keys(v.directions ?? {}).map(Number);
  let best = dirs[0]!;
  let bestAngle = Infinity;
  for (const d of dirs) {
    let a = (((d * v.angle - wanted * 45) % 360) + 360) % 360;
    if (a > 180) a = 360 - a;
    if (a < bestAngle) {
      bestAngle = a;
      best = d;
    }
  }
  return best;
}

function sprite(lib: AssetLibrary, name: string) {
  const a = lib.data.assets?.[name];
  if (!a) return undefined;
  return lib.sprites.get(a.source ?? name);
}

function firstFrameIds(v: NitroVisualization, a: NitroAnimation | undefined): number[] {
  return Array.from({ length: v.layerCount }, (_, l) => a?.layers[String(l)]?.frameSequences?.['0']?.frames?.['0']?.id ?? 0);
}

function visibleLayers(lib: AssetLibrary, dir: number, a: NitroAnimation | undefined, byAssetOnly = false): number {
  const v = v64(lib);
  return firstFrameIds(v, a).filter((f, l) => {
    const s = sprite(lib, `${lib.name}_64_${'abcdefghijklmnopqrstuvwxyz'[l]}_${dir}_${f}`);
    return byAssetOnly ? s !== undefined : s !== undefined && hasVisiblePixel(s);
  }).length;
}

function frameCount(a: NitroAnimation): number {
  let n = 1;
  for (const l of Object.values(a.layers)) {
    const frames = Object.values(l.frameSequences?.['0']?.frames ?? {});
    n = Math.max(n, new Set(frames.map((f) => `${f.id}/${f.x ?? 0}/${f.y ?? 0}`)).size);
  }
  return n;
}

function pickStill(lib: AssetLibrary, dir: number, byAssetOnly = false): number {
  const v = v64(lib);
  let best: { id: number; vis: number; frames: number } | null = null;
  for (const [key, a] of Object.entries(v.animations ?? {})) {
    if (isTransition(a) || !/^-?\d+$/.test(key)) continue;
    const c = { id: Number(key), vis: visibleLayers(lib, dir, a, byAssetOnly), frames: frameCount(a) };
    if (!best || c.vis > best.vis || (c.vis === best.vis && (c.frames > best.frames || (c.frames === best.frames && c.id > best.id)))) best = c;
  }
  return best?.id ?? 0;
}

test('every rule the issue lists is exercised by at least one item', () => {
  const all: FurniRule[] = [
    'static-single-layer', 'equal-z-layer-index', 'shadow-layer', 'ink-add', 'ink-subtract', 'ink-darken', 'ink-copy', 'layer-alpha',
    'direction-layer-overrides', 'directions-2-4', 'directions-0-2-4-6', 'nearest-direction', 'flip-alias', 'blank-frame',
    'sparse-colour-ids', 'variant-absent-from-colour-table', 'variant-rows-only', 'state-2-most-visible', 'tie-visible-frame-count-decides',
    'tie-all-higher-state-wins', 'blank-frame-is-not-visible', 'frame-repeat', 'loop-count', 'random', 'transition-keys-100',
    'transition-repeated-id-keys', 'transition-internal-id-keys', 'icon-one-layer', 'icon-two-layers', 'no-icon', 'corrupt-bundle',
    'missing-bundle', 'wall-item', 'layer-offset', 'frame-offset', 'multi-tile', 'icon-visualization-first', 'no-logic-directions',
    'icon-z-order',
  ];
  for (const r of all) assert.ok(FURNI_EXPECTATIONS.some((e) => e.rules.includes(r)), r);
  assert.deepEqual(FURNI_EXPECTATIONS.map((e) => e.classname).sort(), KIT_ITEMS.map((i) => i.classname).sort(), 'one expectation per item');
});

test('stills: the expected state and direction follow from the data by the spec rule', async () => {
  const { libs } = await kit;
  for (const e of FURNI_EXPECTATIONS) {
    const lib = libs.get(e.classname);
    if (!e.still) {
      assert.equal(lib, undefined, `${e.classname} must not be readable`);
      continue;
    }
    assert.ok(lib, e.classname);
    const v = v64(lib);
    const dir = nearestDirection(v, 2);
    assert.equal(dir, e.still.direction, `${e.classname} direction`);
    assert.equal(pickStill(lib, dir), e.still.state, `${e.classname} still state`);
    const anim = v.animations?.[String(e.still.state)];
    assert.equal(visibleLayers(lib, dir, anim), e.still.visibleLayers, `${e.classname} visible layers`);
    for (const [state, want] of Object.entries(e.states ?? {})) {
      const a = v.animations?.[state];
      assert.ok(a && !isTransition(a), `${e.classname} state ${state} is a resting animation`);
      assert.equal(visibleLayers(lib, dir, a), want.visibleLayers, `${e.classname} state ${state} visible layers`);
      assert.equal(frameCount(a), want.frames, `${e.classname} state ${state} frames`);
    }
  }
});

test('the multistate traps: wrong readings of the rules give a different still', async () => {
  const { libs } = await kit;
  const lib = (cn: string) => libs.get(cn)!;
  // Judging "visible" by asset existence instead of pixels picks state 1 of the orb.
  assert.equal(pickStill(lib('kit_orb_blankframe'), 2, true), 1);
  // Highest id alone would pick 3 for the lamp and 2 for the fan.
  assert.deepEqual(Object.keys(v64(lib('kit_lamp_state2')).animations!).sort(), ['0', '1', '2', '3']);
  assert.deepEqual(Object.keys(v64(lib('kit_fan_tieframes')).animations!).sort(), ['0', '1', '2']);
  // Transitions have more visible layers than any resting state: taking them for states is wrong.
  for (const [cn, keys] of [['kit_door_transition', ['100', '101']], ['kit_gate_transdup', ['1_1', '0_1']], ['kit_hatch_transid', ['1000001', '2000001']]] as const) {
    const v = v64(lib(cn));
    for (const k of keys) assert.ok(isTransition(v.animations![k]!), `${cn} ${k} is a transition`);
    const stillVis = visibleLayers(lib(cn), 2, v.animations![String(FURNI_EXPECTATIONS.find((e) => e.classname === cn)!.still!.state)]);
    const transVis = Math.max(...keys.map((k) => visibleLayers(lib(cn), 2, v.animations![k])));
    assert.ok(transVis > stillVis || cn === 'kit_hatch_transid', `${cn}: transition shows ${transVis} layers, still ${stillVis}`);
  }
});

test('each item has the data its rules name', async () => {
  const { fd, libs, files } = await kit;
  const rows = [...fd.roomitemtypes.furnitype, ...fd.wallitemtypes.furnitype];
  const wallNames = new Set(fd.wallitemtypes.furnitype.map((r) => r.classname));
  for (const e of FURNI_EXPECTATIONS) {
    const it = KIT_ITEMS.find((i) => i.classname === e.classname)!;
    const lib = libs.get(e.classname);
    const v = lib ? v64(lib) : undefined;
    const layers = Object.values(v?.layers ?? {});
    const animLayers = Object.values(v?.animations ?? {}).flatMap((a) => Object.values(a.layers));
    const dirs = Object.keys(v?.directions ?? {}).join(',');
    const has = (r: FurniRule) => e.rules.includes(r);
    const cn = e.classname;
    if (has('static-single-layer')) assert.equal(v!.layerCount, 1, cn);
    if (has('equal-z-layer-index')) assert.equal(new Set(Array.from({ length: v!.layerCount }, (_, l) => v!.layers?.[String(l)]?.z ?? 0)).size, 1, cn);
    if (has('shadow-layer')) assert.ok(Object.keys(lib!.data.assets!).some((n) => n.includes('_64_sd_')), cn);
    for (const ink of ['ADD', 'SUBTRACT', 'DARKEN', 'COPY'] as const) {
      if (has(`ink-${ink.toLowerCase()}` as FurniRule)) assert.ok(layers.some((l) => l.ink === ink), `${cn} ${ink}`);
    }
    if (has('layer-alpha')) assert.ok(layers.some((l) => l.alpha !== undefined && l.alpha < 255), cn);
    if (has('direction-layer-overrides')) assert.ok(Object.values(v!.directions!).filter((d) => d.layers).length >= 2, cn);
    if (has('directions-2-4')) assert.equal(dirs, '2,4', cn);
    if (has('directions-0-2-4-6')) assert.equal(dirs, '0,2,4,6', cn);
    if (has('nearest-direction')) assert.ok(!('2' in v!.directions!), cn);
    if (has('flip-alias')) assert.ok(Object.values(lib!.data.assets!).some((a) => a.source && a.flipH), cn);
    if (has('blank-frame')) assert.ok([...lib!.sprites.values()].some((s) => s.width === 1 && s.height === 1 && !hasVisiblePixel(s)), cn);
    if (has('sparse-colour-ids')) {
      const ids = Object.keys(v!.colors!).map(Number);
      assert.ok(ids.some((id, i) => i > 0 && id !== ids[i - 1]! + 1), `${cn} colour ids ${ids}`);
    }
    for (const variant of e.untintedVariants ?? []) {
      assert.ok(rows.some((r) => r.classname === variant), `${variant} has a row`);
      assert.equal(v!.colors![variant.split('*')[1]!], undefined, `${variant} is not in the colour table`);
    }
    if (has('variant-rows-only')) {
      assert.ok(!rows.some((r) => r.classname === cn), `${cn} has no base row`);
      assert.ok(rows.some((r) => r.classname.startsWith(`${cn}*`)), cn);
    }
    if (has('frame-repeat')) assert.ok(animLayers.some((l) => (l.frameRepeat ?? 1) > 1), cn);
    if (has('loop-count')) {
      assert.ok(animLayers.some((l) => (l.loopCount ?? 0) > 1), `${cn} layer loopCount`);
      assert.ok(animLayers.some((l) => Object.values(l.frameSequences).some((s) => s.loopCount !== undefined)), `${cn} sequence loopCount`);
    }
    if (has('random')) assert.ok(animLayers.some((l) => l.random && Object.keys(l.frameSequences).length > 1), cn);
    if (has('transition-keys-100')) assert.ok(v!.animations!['100']?.transitionTo !== undefined && v!.animations!['101']?.transitionFrom !== undefined, cn);
    if (has('transition-repeated-id-keys')) assert.ok(Object.keys(v!.animations!).some((k) => /^\d+_\d+$/.test(k)), cn);
    if (has('transition-internal-id-keys')) assert.ok(Object.keys(v!.animations!).some((k) => Number(k) >= 1_000_000), cn);
    const icons = lib ? Object.keys(lib.data.assets!).filter((n) => n.startsWith(`${cn}_icon_`)).length : 0;
    assert.equal(icons, e.iconLayers, `${cn} icon layers`);
    if (lib) assert.equal(lib.data.visualizations!.find((x) => x.size === 1)?.angle, 360, `${cn} has a size-1 visualization`);
    if (has('wall-item')) assert.ok(wallNames.has(cn) && it.kind === 'wall', cn);
    else if (lib) assert.ok(!wallNames.has(cn), `${cn} is a floor item`);
    if (has('layer-offset')) assert.ok(layers.some((l) => l.x || l.y), cn);
    if (has('frame-offset')) assert.ok(animLayers.some((l) => Object.values(l.frameSequences).some((s) => Object.values(s.frames).some((f) => f.x || f.y))), cn);
    if (has('multi-tile')) assert.ok(it.xdim * it.ydim > 1, cn);
    if (has('no-logic-directions')) assert.equal(lib!.data.logic!.model!.directions, undefined, cn);
    else if (lib) assert.deepEqual(lib.data.logic!.model!.directions, Object.keys(v!.directions!).map((d) => Number(d) * 45), `${cn} logic directions match the visualization`);
    if (has('icon-z-order')) {
      // Some pair of icon layers where the higher id has the lower z, so id order alone stacks them wrong.
      const icon = lib!.data.visualizations!.find((x) => x.size === 1)!;
      const z = (l: number) => icon.layers?.[String(l)]?.z ?? 0;
      assert.ok(Array.from({ length: icon.layerCount }, (_, l) => l).some((l) => l > 0 && z(l) < z(l - 1)), cn);
    }
    if (has('icon-visualization-first')) assert.ok(lib!.data.visualizations![0]!.size === 1 && lib!.data.visualizations![0]!.directions === undefined, cn);
    if (has('missing-bundle')) assert.equal(files.get(furniBundlePath(cn)), undefined, cn);
    if (has('corrupt-bundle')) assert.ok(files.get(furniBundlePath(cn)) && !lib, cn);
  }
});

test('flipH aliases mirror around the anchor: same offset as their source', async () => {
  const { libs } = await kit;
  let n = 0;
  for (const lib of libs.values()) {
    for (const a of Object.values(lib.data.assets!)) {
      if (!a.source) continue;
      const src = lib.data.assets![a.source]!;
      assert.deepEqual([a.x, a.y], [src.x, src.y]);
      n++;
    }
  }
  assert.ok(n > 50);
});
