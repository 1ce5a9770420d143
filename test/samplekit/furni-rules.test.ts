// The kit must really exercise every rule it claims to: these tests read the written bundles back and
// check each expectation in test/samplekit/furni-expectations.ts against the data, by pixels where the
// rule is about pixels. They use their own small reading of the rules, not the project's renderer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  furniKitFiles,
  KIT_ITEMS,
  readableBundle,
  FURNIDATA_PATH,
  furniBundlePath,
  type FurnitureDataJson,
} from '../../src/samplekit/furni/index.js';
import { FURNI_EXPECTATIONS, type FurniRule } from './furni-expectations.js';
import { type AssetLibrary, readAssetLibrary } from '../../src/formats/asset-library.js';
import { type NitroAnimation, type NitroVisualization } from '../../src/formats/nitro-asset-types.js';
import { hasVisiblePixel } from '../../src/imaging/image.js';

const kit = (async () => {
  const files = new Map((await furniKitFiles({})).map((f) => [f.path, f.data]));
  const fd = JSON.parse(files.get(FURNIDATA_PATH)!.toString('utf8')) as FurnitureDataJson;
  const libs = new Map<string, AssetLibrary>();
  for (const it of KIT_ITEMS) {
    const b = files.get(furniBundlePath(it.classname));
    if (b && readableBundle(it)) libs.set(it.classname, await readAssetLibrary(b, it.classname));
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
  return Array.from(
    { length: v.layerCount },
    (_, l) => a?.layers[String(l)]?.frameSequences?.['0']?.frames?.['0']?.id ?? 0,
  );
}

/**
 * The visibility rule read independently: a pixel is seen when its drawn alpha (sprite alpha × layer
 * alpha / 255, for ink ADD also × brightest channel / 255) is ≥ 16; a layer is visible with ≥ 2 seen
 * pixels; badge slots of badge/guild visualizations never draw. `mode` gives the wrong readings the
 * traps test shows: by asset existence, or by any pixel with alpha > 0.
 */
type Mode = 'seen' | 'asset' | 'alpha>0';

function layerSeen(lib: AssetLibrary, dir: number, layer: number, frame: number, mode: Mode): number {
  const v = v64(lib);
  const s = sprite(lib, `${lib.name}_64_${'abcdefghijklmnopqrstuvwxyz'[layer]}_${dir}_${frame}`);
  if (!s) return 0;
  const props = { ...v.layers?.[String(layer)], ...v.directions?.[String(dir)]?.layers?.[String(layer)] };
  if (mode === 'asset') return 1;
  if (mode === 'alpha>0') return hasVisiblePixel(s) ? 1 : 0;
  if (
    props.tag === 'BADGE' &&
    ['furniture_badge_display', 'furniture_guild_customized'].includes(lib.data.visualizationType ?? '')
  )
    return 0;
  const layerAlpha = props.alpha ?? 255;
  const add = props.ink === 'ADD';
  let n = 0;
  for (let i = 0; i < s.data.length; i += 4) {
    const drawn =
      ((s.data[i + 3]! * layerAlpha) / 255) * (add ? Math.max(s.data[i]!, s.data[i + 1]!, s.data[i + 2]!) / 255 : 1);
    if (drawn >= 16) n++;
  }
  return n >= 2 ? n : 0;
}

function stateView(
  lib: AssetLibrary,
  dir: number,
  a: NitroAnimation | undefined,
  mode: Mode = 'seen',
): { layers: number; pixels: number } {
  const seen = firstFrameIds(v64(lib), a).map((f, l) => layerSeen(lib, dir, l, f, mode));
  return { layers: seen.filter((n) => n > 0).length, pixels: seen.reduce((x, y) => x + y, 0) };
}

function visibleLayers(lib: AssetLibrary, dir: number, a: NitroAnimation | undefined, mode: Mode = 'seen'): number {
  return stateView(lib, dir, a, mode).layers;
}

function frameCount(a: NitroAnimation | undefined): number {
  let n = 1;
  for (const l of Object.values(a?.layers ?? {})) {
    const frames = Object.values(l.frameSequences?.['0']?.frames ?? {});
    n = Math.max(n, new Set(frames.map((f) => `${f.id}/${f.x ?? 0}/${f.y ?? 0}`)).size);
  }
  return n;
}

/**
 * Most visible layers, then more frames, then more seen pixels, then the higher id; state 0 is a
 * candidate even without an animation. `literal` drops what this project adds to contract F2.2 (state 0
 * without an animation, the seen-pixel tie-break) to show what the spec's words alone would pick.
 */
function pickStill(lib: AssetLibrary, dir: number, mode: Mode = 'seen', literal = false): number {
  const v = v64(lib);
  const candidates = Object.entries(v.animations ?? {})
    .filter(([key, a]) => !isTransition(a) && /^-?\d+$/.test(key))
    .map(([key, a]) => ({ id: Number(key), a: a as NitroAnimation | undefined }));
  if (!literal && !candidates.some((c) => c.id === 0)) candidates.push({ id: 0, a: undefined });
  let best: { id: number; vis: number; frames: number; px: number } | null = null;
  for (const { id, a } of candidates) {
    const view = stateView(lib, dir, a, mode);
    const c = { id, vis: view.layers, frames: frameCount(a), px: literal ? 0 : view.pixels };
    if (
      !best ||
      c.vis > best.vis ||
      (c.vis === best.vis &&
        (c.frames > best.frames ||
          (c.frames === best.frames && (c.px > best.px || (c.px === best.px && c.id > best.id)))))
    )
      best = c;
  }
  return best?.id ?? 0;
}

test('every rule the issue lists is exercised by at least one item', () => {
  const all: FurniRule[] = [
    'static-single-layer',
    'equal-z-layer-index',
    'shadow-layer',
    'ink-add',
    'ink-subtract',
    'ink-darken',
    'ink-copy',
    'layer-alpha',
    'direction-layer-overrides',
    'directions-2-4',
    'directions-0-2-4-6',
    'nearest-direction',
    'flip-alias',
    'blank-frame',
    'sparse-colour-ids',
    'variant-absent-from-colour-table',
    'variant-rows-only',
    'state-2-most-visible',
    'tie-visible-frame-count-decides',
    'tie-all-higher-state-wins',
    'blank-frame-is-not-visible',
    'frame-repeat',
    'loop-count',
    'random',
    'transition-keys-100',
    'transition-repeated-id-keys',
    'transition-internal-id-keys',
    'icon-one-layer',
    'icon-two-layers',
    'no-icon',
    'corrupt-bundle',
    'missing-bundle',
    'wall-item',
    'layer-offset',
    'frame-offset',
    'multi-tile',
    'icon-visualization-first',
    'no-logic-directions',
    'icon-z-order',
    'gzip-container',
    'implicit-state-0',
    'near-transparent-off-frame',
    'placeholder-pixel',
    'fuller-state-wins',
    'badge-layer',
    'guild-colours',
  ];
  for (const r of all)
    assert.ok(
      FURNI_EXPECTATIONS.some((e) => e.rules.includes(r)),
      r,
    );
  assert.deepEqual(
    FURNI_EXPECTATIONS.map((e) => e.classname).sort(),
    KIT_ITEMS.map((i) => i.classname).sort(),
    'one expectation per item',
  );
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
    const anim = v.animations?.[String(e.still.state)]; // state 0 may have none: frame 0 of every layer
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
  assert.equal(pickStill(lib('kit_orb_blankframe'), 2, 'asset'), 1);
  // Judging it by any pixel with alpha > 0 picks the bag's cracked state: two near-transparent 1x1 frames.
  assert.equal(pickStill(lib('kit_bag_speck'), 2, 'alpha>0'), 2);
  // The spec's words alone: the bowl's crumbs (state 2, the higher id of three equal states) and, for
  // the seed pack, state 1, which shows nothing.
  assert.equal(pickStill(lib('kit_bowl_depleting'), 2, 'seen', true), 2);
  assert.equal(pickStill(lib('kit_seedpack_noframe'), 2, 'seen', true), 1);
  assert.equal(visibleLayers(lib('kit_seedpack_noframe'), 2, v64(lib('kit_seedpack_noframe')).animations!['1']), 0);
  // The badge slot is a real, opaque sprite: only its tag keeps it out.
  assert.equal(visibleLayers(lib('kit_guild_badge'), 2, undefined, 'alpha>0'), 4);
  // Highest id alone would pick 3 for the lamp and 2 for the fan.
  assert.deepEqual(Object.keys(v64(lib('kit_lamp_state2')).animations!).sort(), ['0', '1', '2', '3']);
  assert.deepEqual(Object.keys(v64(lib('kit_fan_tieframes')).animations!).sort(), ['0', '1', '2']);
  // Transitions have more visible layers than any resting state: taking them for states is wrong.
  for (const [cn, keys] of [
    ['kit_door_transition', ['100', '101']],
    ['kit_gate_transdup', ['1_1', '0_1']],
    ['kit_hatch_transid', ['1000001', '2000001']],
  ] as const) {
    const v = v64(lib(cn));
    for (const k of keys) assert.ok(isTransition(v.animations![k]!), `${cn} ${k} is a transition`);
    const stillVis = visibleLayers(
      lib(cn),
      2,
      v.animations![String(FURNI_EXPECTATIONS.find((e) => e.classname === cn)!.still!.state)],
    );
    const transVis = Math.max(...keys.map((k) => visibleLayers(lib(cn), 2, v.animations![k])));
    assert.ok(
      transVis > stillVis || cn === 'kit_hatch_transid',
      `${cn}: transition shows ${transVis} layers, still ${stillVis}`,
    );
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
    if (has('equal-z-layer-index'))
      assert.equal(
        new Set(Array.from({ length: v!.layerCount }, (_, l) => v!.layers?.[String(l)]?.z ?? 0)).size,
        1,
        cn,
      );
    if (has('shadow-layer'))
      assert.ok(
        Object.keys(lib!.data.assets!).some((n) => n.includes('_64_sd_')),
        cn,
      );
    for (const ink of ['ADD', 'SUBTRACT', 'DARKEN', 'COPY'] as const) {
      if (has(`ink-${ink.toLowerCase()}` as FurniRule))
        assert.ok(
          layers.some((l) => l.ink === ink),
          `${cn} ${ink}`,
        );
    }
    if (has('layer-alpha'))
      assert.ok(
        layers.some((l) => l.alpha !== undefined && l.alpha < 255),
        cn,
      );
    if (has('direction-layer-overrides'))
      assert.ok(Object.values(v!.directions!).filter((d) => d.layers).length >= 2, cn);
    if (has('directions-2-4')) assert.equal(dirs, '2,4', cn);
    if (has('directions-0-2-4-6')) assert.equal(dirs, '0,2,4,6', cn);
    if (has('nearest-direction')) assert.ok(!('2' in v!.directions!), cn);
    if (has('flip-alias'))
      assert.ok(
        Object.values(lib!.data.assets!).some((a) => a.source && a.flipH),
        cn,
      );
    if (has('blank-frame'))
      assert.ok(
        [...lib!.sprites.values()].some((s) => s.width === 1 && s.height === 1 && !hasVisiblePixel(s)),
        cn,
      );
    const onePixel = lib
      ? [...lib.sprites.values()].filter((s) => s.width === 1 && s.height === 1).map((s) => s.data[3]!)
      : [];
    if (has('near-transparent-off-frame'))
      assert.ok(
        onePixel.some((a) => a > 0 && a < 16),
        `${cn}: a 1x1 frame with alpha 1-15`,
      );
    if (has('placeholder-pixel'))
      assert.ok(
        onePixel.some((a) => a === 255),
        `${cn}: an opaque 1x1 frame`,
      );
    if (has('gzip-container')) {
      const b = files.get(furniBundlePath(cn))!;
      const first = 2 + 2 + b.readUInt16BE(2) + 4; // count, name length, name, data length
      assert.deepEqual([b[first], b[first + 1]], [0x1f, 0x8b], `${cn}: first file is a gzip member`);
    }
    if (has('implicit-state-0')) {
      assert.equal(v!.animations!['0'], undefined, `${cn}: no animation 0`);
      for (const a of Object.values(v!.animations!))
        assert.equal(visibleLayers(lib!, 2, a, 'asset'), 0, `${cn}: its animations show frames with no asset`);
    }
    if (has('badge-layer'))
      assert.ok(
        Object.values(v!.layers!).some((l) => l.tag === 'BADGE'),
        cn,
      );
    if (has('guild-colours')) {
      assert.equal(lib!.data.visualizationType, 'furniture_guild_customized', cn);
      assert.deepEqual(
        ['COLOR1', 'COLOR2'].map((t) => layers.some((l) => l.tag === t)),
        [true, true],
        cn,
      );
    }
    if (has('fuller-state-wins')) {
      // Two states with the same visible layers and frames, the higher id showing fewer seen pixels.
      const views = Object.entries(v!.animations!).map(([k, a]) => ({
        id: Number(k),
        frames: frameCount(a),
        ...stateView(lib!, 2, a),
      }));
      assert.ok(
        views.some((x) =>
          views.some((y) => y.id > x.id && y.layers === x.layers && y.frames === x.frames && y.pixels < x.pixels),
        ),
        cn,
      );
    }
    if (has('sparse-colour-ids')) {
      const ids = Object.keys(v!.colors!).map(Number);
      assert.ok(
        ids.some((id, i) => i > 0 && id !== ids[i - 1]! + 1),
        `${cn} colour ids ${ids}`,
      );
    }
    for (const variant of e.untintedVariants ?? []) {
      assert.ok(
        rows.some((r) => r.classname === variant),
        `${variant} has a row`,
      );
      assert.equal(v!.colors![variant.split('*')[1]!], undefined, `${variant} is not in the colour table`);
    }
    if (has('variant-rows-only')) {
      assert.ok(!rows.some((r) => r.classname === cn), `${cn} has no base row`);
      assert.ok(
        rows.some((r) => r.classname.startsWith(`${cn}*`)),
        cn,
      );
    }
    if (has('frame-repeat'))
      assert.ok(
        animLayers.some((l) => (l.frameRepeat ?? 1) > 1),
        cn,
      );
    if (has('loop-count')) {
      assert.ok(
        animLayers.some((l) => (l.loopCount ?? 0) > 1),
        `${cn} layer loopCount`,
      );
      assert.ok(
        animLayers.some((l) => Object.values(l.frameSequences).some((s) => s.loopCount !== undefined)),
        `${cn} sequence loopCount`,
      );
    }
    if (has('random'))
      assert.ok(
        animLayers.some((l) => l.random && Object.keys(l.frameSequences).length > 1),
        cn,
      );
    if (has('transition-keys-100'))
      assert.ok(
        v!.animations!['100']?.transitionTo !== undefined && v!.animations!['101']?.transitionFrom !== undefined,
        cn,
      );
    if (has('transition-repeated-id-keys'))
      assert.ok(
        Object.keys(v!.animations!).some((k) => /^\d+_\d+$/.test(k)),
        cn,
      );
    if (has('transition-internal-id-keys'))
      assert.ok(
        Object.keys(v!.animations!).some((k) => Number(k) >= 1_000_000),
        cn,
      );
    const icons = lib ? Object.keys(lib.data.assets!).filter((n) => n.startsWith(`${cn}_icon_`)).length : 0;
    assert.equal(icons, e.iconLayers, `${cn} icon layers`);
    if (lib)
      assert.equal(lib.data.visualizations!.find((x) => x.size === 1)?.angle, 360, `${cn} has a size-1 visualization`);
    if (has('wall-item')) assert.ok(wallNames.has(cn) && it.kind === 'wall', cn);
    else if (lib) assert.ok(!wallNames.has(cn), `${cn} is a floor item`);
    if (has('layer-offset'))
      assert.ok(
        layers.some((l) => l.x || l.y),
        cn,
      );
    if (has('frame-offset'))
      assert.ok(
        animLayers.some((l) =>
          Object.values(l.frameSequences).some((s) => Object.values(s.frames).some((f) => f.x || f.y)),
        ),
        cn,
      );
    if (has('multi-tile')) assert.ok(it.xdim * it.ydim > 1, cn);
    if (has('no-logic-directions')) assert.equal(lib!.data.logic!.model!.directions, undefined, cn);
    else if (lib)
      assert.deepEqual(
        lib.data.logic!.model!.directions,
        Object.keys(v!.directions!).map((d) => Number(d) * 45),
        `${cn} logic directions match the visualization`,
      );
    if (has('icon-z-order')) {
      // Some pair of icon layers where the higher id has the lower z, so id order alone stacks them wrong.
      const icon = lib!.data.visualizations!.find((x) => x.size === 1)!;
      const z = (l: number) => icon.layers?.[String(l)]?.z ?? 0;
      assert.ok(
        Array.from({ length: icon.layerCount }, (_, l) => l).some((l) => l > 0 && z(l) < z(l - 1)),
        cn,
      );
    }
    if (has('icon-visualization-first'))
      assert.ok(lib!.data.visualizations![0]!.size === 1 && lib!.data.visualizations![0]!.directions === undefined, cn);
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
