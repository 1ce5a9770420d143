// The Flash-era effect documents → the Nitro JSON shapes (effect-types.ts), element for element as
// nitro-converter maps them: `effectmap.xml` (`<map><effect id lib type revision/>`) and an effect SWF's
// `<lib>_animation` document (`<animation name desc><sprite><direction/></sprite><frame><bodypart|fx>
// <item/></…></frame><avatar/><direction offset/><remove/><add/><shadow/><override><frame/></override>`).
import { type EffectAnimationJson, type EffectFrameJson, type EffectFramePartJson, type EffectMapDoc } from './effect-types.js';
import { childrenNamed, intAttr, parseXml, type XmlElement } from '../xml/xml-tree.js';

export function parseEffectMapXml(text: string, file: string): EffectMapDoc {
  const root = parseXml(text, 'effectmap.xml', file);
  const effects = childrenNamed(root, 'effect')
    .filter((e) => e.attrs.id !== undefined && e.attrs.lib !== undefined)
    .map((e) => ({ id: e.attrs.id!, lib: e.attrs.lib!, type: e.attrs.type ?? 'fx', ...(e.attrs.revision !== undefined ? { revision: intAttr(e, 'revision') } : {}) }));
  return { effects };
}

function framePart(e: XmlElement): EffectFramePartJson {
  const p: EffectFramePartJson = { id: e.attrs.id ?? '' };
  for (const k of ['frame', 'dx', 'dy', 'dz', 'dd'] as const) {
    const v = intAttr(e, k);
    if (v !== undefined) p[k] = v;
  }
  if (e.attrs.action !== undefined) p.action = e.attrs.action;
  if (e.attrs.base !== undefined) p.base = e.attrs.base;
  const items = childrenNamed(e, 'item').map((i) => ({ id: i.attrs.id ?? '', base: i.attrs.base ?? '' }));
  if (items.length) p.items = items;
  return p;
}

function frames(parent: XmlElement): EffectFrameJson[] {
  return childrenNamed(parent, 'frame').map((f) => {
    const out: EffectFrameJson = {};
    const repeats = intAttr(f, 'repeats');
    if (repeats !== undefined) out.repeats = repeats;
    const bodyparts = childrenNamed(f, 'bodypart').map(framePart);
    const fxs = childrenNamed(f, 'fx').map(framePart);
    if (bodyparts.length) out.bodyparts = bodyparts;
    if (fxs.length) out.fxs = fxs;
    return out;
  });
}

/** `<animation>` → `{ [desc]: animation }`, the `animations` block of a Nitro effect library. */
export function parseEffectAnimationXml(text: string, file: string): Record<string, EffectAnimationJson> {
  const root = parseXml(text, 'effect animation', file);
  const a: EffectAnimationJson = { name: root.attrs.name ?? '' };
  if (root.attrs.desc !== undefined) a.desc = root.attrs.desc;
  if (root.attrs.resetOnToggle !== undefined) a.resetOnToggle = root.attrs.resetOnToggle === '1';
  const dirs = childrenNamed(root, 'direction').map((d) => ({ offset: intAttr(d, 'offset') }));
  if (dirs.length) a.directions = dirs;
  const shadows = childrenNamed(root, 'shadow').map((s) => ({ id: s.attrs.id ?? '' }));
  if (shadows.length) a.shadows = shadows;
  const adds = childrenNamed(root, 'add').map((x) => ({ id: x.attrs.id ?? '', align: x.attrs.align ?? '', ...(x.attrs.base !== undefined ? { base: x.attrs.base } : {}), ...(x.attrs.ink !== undefined ? { ink: intAttr(x, 'ink') } : {}), ...(x.attrs.blend !== undefined ? { blend: x.attrs.blend } : {}) }));
  if (adds.length) a.adds = adds;
  const removes = childrenNamed(root, 'remove').map((r) => ({ id: r.attrs.id ?? '' }));
  if (removes.length) a.removes = removes;
  const sprites = childrenNamed(root, 'sprite').map((s) => ({
    id: s.attrs.id ?? '',
    ...(s.attrs.member !== undefined ? { member: s.attrs.member } : {}),
    ...(s.attrs.ink !== undefined ? { ink: intAttr(s, 'ink') } : {}),
    ...(s.attrs.staticY !== undefined ? { staticY: intAttr(s, 'staticY') } : {}),
    ...(s.attrs.directions !== undefined ? { directions: intAttr(s, 'directions') } : {}),
    directionList: childrenNamed(s, 'direction').map((d) => ({ id: intAttr(d, 'id') ?? 0, dx: intAttr(d, 'dx'), dy: intAttr(d, 'dy'), dz: intAttr(d, 'dz') })),
  }));
  if (sprites.length) a.sprites = sprites;
  const f = frames(root);
  if (f.length) a.frames = f;
  const avatars = childrenNamed(root, 'avatar').map((v) => ({ ink: intAttr(v, 'ink'), foreground: v.attrs.foreground, background: v.attrs.background }));
  if (avatars.length) a.avatars = avatars;
  const overrides = childrenNamed(root, 'override').map((o) => ({ name: o.attrs.name ?? '', override: o.attrs.override ?? '', frames: frames(o) }));
  if (overrides.length) a.overrides = overrides;
  return { [a.desc ?? a.name]: a };
}
