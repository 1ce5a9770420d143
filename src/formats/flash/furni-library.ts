// Furni SWF → AssetLibrary whose JSON is the one nitro-converter writes for the same SWF, so the furni
// pipeline renders SWF and Nitro input through one model.
import { type AssetLibrary } from '../asset-library.js';
import { type RgbaImage } from '../../imaging/image.js';
import {
  type NitroAnimation,
  type NitroAnimationLayer,
  type NitroAssetData,
  type NitroAssetEntry,
  type NitroFrame,
  type NitroFrameSequence,
  type NitroLayer,
  type NitroVisualization,
} from '../nitro-asset-types.js';
import { type SwfDocument, readSwf } from '../swf/reader.js';
import { SwfFormatError } from '../swf/swf-error.js';
import { type XmlElement, child, childrenNamed, floatAttr, intAttr, parseXml } from '../xml/xml-tree.js';
import { type ResolvedImages, binaryText, isDroppedByNitro, resolveImages, viewSwfLibrary } from './swf-library.js';

export interface FurniSwfOptions {
  /**
   * Keep the size-32 visualization, `_32_` and `sh_` assets and sprites. Default false: the library is
   * exactly what nitro-converter writes (sizes 1 and 64 and whatever other sizes the SWF has, never 32).
   */
  keepAllSizes?: boolean;
}

export async function readFurniSwf(swf: Uint8Array, file: string, opts: FurniSwfOptions = {}): Promise<AssetLibrary> {
  return furniLibraryFromSwf(await readSwf(swf, file), opts);
}

export function furniLibraryFromSwf(doc: SwfDocument, opts: FurniSwfOptions = {}): AssetLibrary {
  const keepAll = opts.keepAllSizes === true;
  const view = viewSwfLibrary(doc, doc.file.replace(/^.*[\\/]/, '').replace(/\.swf$/i, ''));
  const cn = view.documentClass;
  const xml = (names: string[], required: boolean): XmlElement | undefined => {
    for (const n of names) {
      const data = view.binaryByName.get(n);
      if (data) return parseXml(binaryText(data), 'furni swf', `${doc.file} (${n})`);
    }
    if (required) throw new SwfFormatError(doc.file, `document ${names[0]} is missing`);
    return undefined;
  };
  const index = xml([`${cn}_index`], true)!;
  const assets = xml([`${cn}_${cn}_assets`, `${cn}_assets`], true)!;
  const logic = xml([`${cn}_${cn}_logic`, `${cn}_logic`], false);
  const visualization = xml([`${cn}_${cn}_visualization`, `${cn}_visualization`], true)!;

  const data: NitroAssetData = { name: cn };
  if (index.attrs.type !== undefined) data.name = index.attrs.type;
  if (index.attrs.logic !== undefined) data.logicType = index.attrs.logic;
  if (index.attrs.visualization !== undefined) data.visualizationType = index.attrs.visualization;
  const kept = (name: string) => keepAll || !isDroppedByNitro(name);
  const images = resolveImages(view, kept);
  mapAssets(assets, data, images.sourceOf, kept);
  if (logic) data.logic = mapLogic(logic, keepAll);
  const visualizations = mapVisualizations(visualization, keepAll);
  if (visualizations.length) data.visualizations = visualizations;

  const sprites = spritesFor(images, data.assets ?? {}, kept);
  return { name: data.name, data, sprites };
}

/** Images the library keeps: those of kept names, plus any a kept asset names as its `source`. */
function spritesFor(
  images: ResolvedImages,
  assets: Record<string, NitroAssetEntry>,
  kept: (name: string) => boolean,
): Map<string, RgbaImage> {
  const wanted = new Set<string>();
  for (const a of Object.values(assets)) if (a.source !== undefined) wanted.add(a.source);
  const sprites = new Map<string, RgbaImage>();
  for (const key of [...images.imageOf.keys()].sort()) {
    if (kept(key) || wanted.has(key)) sprites.set(key, images.imageOf.get(key)!);
  }
  return sprites;
}

function mapAssets(
  xml: XmlElement,
  out: NitroAssetData,
  imageSources: Map<string, string>,
  kept: (name: string) => boolean,
): void {
  const list = childrenNamed(xml, 'asset');
  if (list.length) {
    const assets: Record<string, NitroAssetEntry> = {};
    for (const a of list) {
      const name = a.attrs.name;
      if (name === undefined) continue;
      if (!kept(name)) continue;
      const asset: NitroAssetEntry = {};
      if (a.attrs.source !== undefined) asset.source = imageSources.get(a.attrs.source) ?? a.attrs.source;
      const shared = imageSources.get(name);
      if (shared !== undefined) asset.source = shared;
      const x = intAttr(a, 'x');
      const y = intAttr(a, 'y');
      if (x !== undefined) asset.x = x;
      if (y !== undefined) asset.y = y;
      if (a.attrs.flipH !== undefined) asset.flipH = a.attrs.flipH === '1';
      if (a.attrs.flipV !== undefined) asset.flipV = a.attrs.flipV === '1';
      if (a.attrs.usesPalette !== undefined) asset.usesPalette = a.attrs.usesPalette === '1';
      assets[name] = asset;
    }
    out.assets = assets;
  }
  const palettes = childrenNamed(xml, 'palette');
  if (palettes.length) {
    const map: Record<string, unknown> = {};
    for (const p of palettes) {
      const pal: Record<string, unknown> = {};
      const id = intAttr(p, 'id');
      if (id !== undefined) pal.id = id;
      if (p.attrs.source !== undefined) pal.source = p.attrs.source;
      if (p.attrs.master !== undefined) pal.master = p.attrs.master === 'true';
      if (p.attrs.tags !== undefined) pal.tags = p.attrs.tags.split(',');
      if (p.attrs.breed !== undefined) pal.breed = intAttr(p, 'breed');
      if (p.attrs.colortag !== undefined) pal.colorTag = intAttr(p, 'colortag');
      if (p.attrs.color1 !== undefined) pal.color1 = p.attrs.color1;
      if (p.attrs.color2 !== undefined) pal.color2 = p.attrs.color2;
      map[String(id)] = pal;
    }
    out.palettes = map;
  }
}

function mapLogic(xml: XmlElement, keepAll: boolean): NonNullable<NitroAssetData['logic']> {
  const logic: NonNullable<NitroAssetData['logic']> = {};
  const model = child(xml, 'model');
  if (model) {
    const m: NonNullable<typeof logic.model> = {};
    const dims = child(model, 'dimensions');
    if (dims) {
      const d: { x: number; y: number; z: number; centerZ?: number } = {
        x: floatAttr(dims, 'x')!,
        y: floatAttr(dims, 'y')!,
      } as { x: number; y: number; z: number };
      const z = floatAttr(dims, 'z');
      if (z !== undefined) d.z = z;
      const centerZ = floatAttr(dims, 'centerZ');
      if (centerZ !== undefined) d.centerZ = centerZ;
      m.dimensions = d;
    }
    const dirs = childrenNamed(model, 'directions');
    if (dirs.length) {
      const list = dirs.flatMap((d) => childrenNamed(d, 'direction')).map((d) => parseInt(d.attrs.id ?? '', 10));
      m.directions = list.length ? list : [0];
    }
    logic.model = m;
  }
  const action = child(xml, 'action');
  if (action) {
    const a: Record<string, unknown> = {};
    if (action.attrs.link !== undefined) a.link = action.attrs.link;
    if (action.attrs.startState !== undefined) a.startState = intAttr(action, 'startState');
    logic.action = a;
  }
  const mask = child(xml, 'mask');
  if (mask) logic.maskType = mask.attrs.type;
  const credits = child(xml, 'credits');
  if (credits) logic.credits = credits.attrs.value;
  const sample = child(child(xml, 'sound'), 'sample');
  if (sample)
    logic.soundSample = {
      id: intAttr(sample, 'id'),
      noPitch: sample.attrs.nopitch === undefined ? undefined : sample.attrs.nopitch === 'true',
    };
  const planets = child(xml, 'planetsystem');
  if (planets) {
    logic.planetSystems = childrenNamed(planets, 'object').map((o) =>
      defined({
        id: intAttr(o, 'id'),
        name: o.attrs.name,
        parent: o.attrs.parent,
        radius: floatAttr(o, 'radius'),
        arcSpeed: floatAttr(o, 'arcspeed'),
        arcOffset: floatAttr(o, 'arcoffset'),
        blend: intAttr(o, 'blend'),
        height: floatAttr(o, 'height'),
      }),
    );
  }
  const particles = child(xml, 'particlesystems');
  if (particles) {
    logic.particleSystems = childrenNamed(particles, 'particlesystem')
      .filter((p) => keepAll || intAttr(p, 'size') !== 32)
      .map((p) => {
        const emitters = childrenNamed(p, 'emitter').map((e) => {
          const sim = child(e, 'simulation');
          const parts = childrenNamed(child(e, 'particles'), 'particle').map((q) =>
            defined({
              isEmitter: q.attrs.is_emitter === undefined ? undefined : q.attrs.is_emitter === 'true',
              lifeTime: intAttr(q, 'lifetime'),
              fade: q.attrs.fade === undefined ? undefined : q.attrs.fade === 'true',
              frames: nonEmpty(childrenNamed(q, 'frame').map((f) => f.attrs.name ?? '')),
            }),
          );
          return defined({
            id: intAttr(e, 'id'),
            name: e.attrs.name,
            spriteId: intAttr(e, 'sprite_id'),
            maxNumParticles: intAttr(e, 'max_num_particles'),
            particlesPerFrame: intAttr(e, 'particles_per_frame'),
            burstPulse: intAttr(e, 'burst_pulse'),
            fuseTime: intAttr(e, 'fuse_time'),
            simulation: sim
              ? defined({
                  force: floatAttr(sim, 'force'),
                  direction: floatAttr(sim, 'direction'),
                  gravity: floatAttr(sim, 'gravity'),
                  airFriction: floatAttr(sim, 'airfriction'),
                  shape: sim.attrs.shape,
                  energy: floatAttr(sim, 'energy'),
                })
              : undefined,
            particles: nonEmpty(parts),
          });
        });
        return defined({
          size: intAttr(p, 'size'),
          canvasId: intAttr(p, 'canvas_id'),
          offsetY: floatAttr(p, 'offset_y'),
          blend: floatAttr(p, 'blend'),
          bgColor: p.attrs.bgcolor,
          emitters: nonEmpty(emitters),
        });
      });
  }
  const customVars = child(xml, 'customvars');
  if (customVars) {
    logic.customVars = {
      variables: childrenNamed(customVars, 'variable')
        .map((v) => v.attrs.name)
        .filter((n): n is string => n !== undefined),
    };
  }
  return logic;
}

function mapVisualizations(xml: XmlElement, keepAll: boolean): NitroVisualization[] {
  const out: NitroVisualization[] = [];
  for (const v of childrenNamed(xml, 'visualization')) {
    const size = intAttr(v, 'size');
    if (!keepAll && size === 32) continue;
    const vis: Partial<NitroVisualization> = {};
    const angle = intAttr(v, 'angle');
    const layerCount = intAttr(v, 'layerCount');
    if (angle !== undefined) vis.angle = angle;
    if (layerCount !== undefined) vis.layerCount = layerCount;
    if (size !== undefined) vis.size = size;
    const layers = childrenNamed(v, 'layers').flatMap((l) => childrenNamed(l, 'layer'));
    if (layers.length) vis.layers = mapLayers(layers);
    const directions = childrenNamed(v, 'directions').flatMap((d) => childrenNamed(d, 'direction'));
    if (directions.length) {
      vis.directions = {};
      for (const d of directions) {
        const dl = childrenNamed(d, 'layer');
        vis.directions[String(intAttr(d, 'id'))] = dl.length ? { layers: mapLayers(dl) } : {};
      }
    }
    const colors = childrenNamed(v, 'colors').flatMap((c) => childrenNamed(c, 'color'));
    if (colors.length) {
      const map: Record<string, { layers: Record<string, { color: number }> }> = {};
      for (const c of colors) {
        const entry: { layers?: Record<string, { color: number }> } = {};
        const cl = childrenNamed(c, 'colorLayer');
        if (cl.length) {
          entry.layers = {};
          for (const l of cl)
            entry.layers[String(intAttr(l, 'id'))] =
              l.attrs.color !== undefined ? { color: parseInt(l.attrs.color, 16) } : ({} as { color: number });
        }
        map[String(intAttr(c, 'id'))] = entry as { layers: Record<string, { color: number }> };
      }
      vis.colors = map;
    }
    const animations = childrenNamed(v, 'animations').flatMap((a) => childrenNamed(a, 'animation'));
    if (animations.length) vis.animations = mapAnimations(animations);
    const postures = child(v, 'postures');
    // An empty <postures/> carries nothing; the real Nitro bundles have no key for it.
    if (postures && (postures.attrs.defaultPosture !== undefined || postures.children.length > 0)) {
      const p: Record<string, unknown> = {};
      if (postures.attrs.defaultPosture !== undefined) p.defaultPosture = postures.attrs.defaultPosture;
      const list = childrenNamed(postures, 'posture');
      if (list.length)
        p.postures = list.map((q) => defined({ id: q.attrs.id, animationId: intAttr(q, 'animationId') }));
      vis.postures = p;
    }
    const gestures = childrenNamed(v, 'gestures').flatMap((g) => childrenNamed(g, 'gesture'));
    if (gestures.length)
      vis.gestures = gestures.map((q) => defined({ id: q.attrs.id, animationId: intAttr(q, 'animationId') }));
    out.push(vis as NitroVisualization);
  }
  return out;
}

function mapLayers(layers: XmlElement[]): Record<string, NitroLayer> {
  const out: Record<string, NitroLayer> = {};
  for (const l of layers) {
    const layer: NitroLayer = {};
    const x = intAttr(l, 'x');
    const y = intAttr(l, 'y');
    const z = intAttr(l, 'z');
    const alpha = intAttr(l, 'alpha');
    if (x !== undefined) layer.x = x;
    if (y !== undefined) layer.y = y;
    if (z !== undefined) layer.z = z;
    if (alpha !== undefined) layer.alpha = alpha;
    if (l.attrs.ink !== undefined) layer.ink = l.attrs.ink;
    if (l.attrs.tag !== undefined) layer.tag = l.attrs.tag;
    if (l.attrs.ignoreMouse !== undefined) layer.ignoreMouse = l.attrs.ignoreMouse === '1';
    out[String(intAttr(l, 'id'))] = layer;
  }
  return out;
}

/** Repeated animation ids (a state and its transitions) get `id`, `id_1`, `id_1_2`, … as nitro-converter does. */
function nextAnimationKey(id: number | undefined, taken: Record<string, unknown>): string | undefined {
  let key = String(id);
  if (!(key in taken)) return key;
  for (let i = 1; i < 6; i++) {
    key += `_${i}`;
    if (!(key in taken)) return key;
  }
  return undefined;
}

function mapAnimations(list: XmlElement[]): Record<string, NitroAnimation> {
  const out: Record<string, NitroAnimation> = {};
  for (const a of list) {
    const anim: Partial<NitroAnimation> = {};
    const to = intAttr(a, 'transitionTo');
    const from = intAttr(a, 'transitionFrom');
    if (to !== undefined) anim.transitionTo = to;
    if (from !== undefined) anim.transitionFrom = from;
    if (a.attrs.immediateChangeFrom !== undefined) anim.immediateChangeFrom = a.attrs.immediateChangeFrom;
    if (a.attrs.randomStart !== undefined) anim.randomStart = a.attrs.randomStart === '1';
    const layers = childrenNamed(a, 'animationLayer');
    if (layers.length) {
      anim.layers = {};
      for (const l of layers) {
        const layer: Partial<NitroAnimationLayer> = {};
        const frameRepeat = intAttr(l, 'frameRepeat');
        const loopCount = intAttr(l, 'loopCount');
        const random = intAttr(l, 'random');
        if (frameRepeat !== undefined) layer.frameRepeat = frameRepeat;
        if (loopCount !== undefined) layer.loopCount = loopCount;
        if (random !== undefined) layer.random = random;
        const seqs = childrenNamed(l, 'frameSequence');
        if (seqs.length) {
          layer.frameSequences = {};
          seqs.forEach((s, i) => {
            const seq: Partial<NitroFrameSequence> = {};
            const lc = intAttr(s, 'loopCount');
            const rnd = intAttr(s, 'random');
            if (lc !== undefined) seq.loopCount = lc;
            if (rnd !== undefined) seq.random = rnd;
            const frames = childrenNamed(s, 'frame');
            if (frames.length) {
              seq.frames = {};
              frames.forEach((f, j) => {
                const id = parseInt(f.attrs.id ?? '', 10);
                const frame: NitroFrame = { id: Number.isNaN(id) ? 0 : id };
                const fx = intAttr(f, 'x');
                const fy = intAttr(f, 'y');
                const rx = intAttr(f, 'randomX');
                const ry = intAttr(f, 'randomY');
                if (fx !== undefined) frame.x = fx;
                if (fy !== undefined) frame.y = fy;
                if (rx !== undefined) frame.randomX = rx;
                if (ry !== undefined) frame.randomY = ry;
                const offsets = childrenNamed(f, 'offsets').flatMap((o) => childrenNamed(o, 'offset'));
                if (offsets.length) {
                  frame.offsets = {};
                  offsets.forEach((o, k) => {
                    frame.offsets![String(k)] = defined({
                      direction: intAttr(o, 'direction'),
                      x: intAttr(o, 'x'),
                      y: intAttr(o, 'y'),
                    }) as { direction: number; x?: number; y?: number };
                  });
                }
                seq.frames![String(j)] = frame;
              });
            }
            layer.frameSequences![String(i)] = seq as NitroFrameSequence;
          });
        }
        anim.layers[String(intAttr(l, 'id'))] = layer as NitroAnimationLayer;
      }
    }
    const key = nextAnimationKey(intAttr(a, 'id'), out);
    if (key !== undefined) out[key] = anim as NitroAnimation;
  }
  return out;
}

/** Drops undefined fields so the JSON carries only what the XML had. */
function defined<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

function nonEmpty<T>(list: T[]): T[] | undefined {
  return list.length ? list : undefined;
}
