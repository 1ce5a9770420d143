// Flash-era effect documents → the Nitro JSON shapes (effect-types.ts), as nitro-converter maps them:
// `effectmap.xml` (`<map><effect id lib type revision/></map>`) → EffectMap.json, and an effect library's
// `<lib>_animation` document (`<animation name desc …>`) → the `animations` block of its bundle JSON,
// keyed by `desc`. Attributes the client reads are converted to numbers where it reads numbers.
import {
  type EffectAddJson,
  type EffectAnimationJson,
  type EffectFrameJson,
  type EffectFramePartJson,
  type EffectMapDoc,
  type EffectSpriteJson,
} from './effect-types.js';
import { FormatError } from '../errors.js';
import { type XmlElement, childrenNamed, parseXml } from '../xml/xml-tree.js';

/** parseInt as the converter reads numbers; undefined when absent or not a number. */
function int(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = parseInt(v, 10);
  return Number.isNaN(n) ? undefined : n;
}

/** Copies the attributes present, in the given order, each through its reader. */
function pick<T extends object>(e: XmlElement, fields: [keyof T & string, (v: string) => unknown][]): T {
  const out: Record<string, unknown> = {};
  for (const [name, read] of fields) {
    const v = e.attrs[name];
    if (v === undefined) continue;
    const value = read(v);
    if (value !== undefined) out[name] = value;
  }
  return out as T;
}
const text = (v: string) => v;

export function parseEffectMapXml(xml: string, file = 'effectmap.xml'): EffectMapDoc {
  const doc = parseXml(xml, 'effectmap', file);
  if (doc.name !== 'map') throw new FormatError('effectmap', file, `root element is <${doc.name}>, expected <map>`);
  return {
    effects: childrenNamed(doc, 'effect').map((e) => {
      const entry: EffectMapDoc['effects'][number] = {
        id: e.attrs.id ?? '',
        lib: e.attrs.lib ?? '',
        type: e.attrs.type ?? '',
      };
      const revision = int(e.attrs.revision);
      if (revision !== undefined) entry.revision = revision;
      return entry;
    }),
  };
}

function framePart(e: XmlElement): EffectFramePartJson {
  const part = pick<EffectFramePartJson>(e, [
    ['id', text],
    ['frame', int],
    ['base', text],
    ['action', text],
    ['dx', int],
    ['dy', int],
    ['dz', int],
    ['dd', int],
  ]);
  const items = childrenNamed(e, 'item').map((i) =>
    pick<{ id: string; base: string }>(i, [
      ['id', text],
      ['base', text],
    ]),
  );
  if (items.length) part.items = items;
  return part;
}

function frame(e: XmlElement): EffectFrameJson {
  const f = pick<EffectFrameJson>(e, [['repeats', int]]);
  const fxs = childrenNamed(e, 'fx').map(framePart);
  const bodyparts = childrenNamed(e, 'bodypart').map(framePart);
  if (fxs.length) f.fxs = fxs;
  if (bodyparts.length) f.bodyparts = bodyparts;
  return f;
}

function sprite(e: XmlElement): EffectSpriteJson {
  const s = pick<EffectSpriteJson>(e, [
    ['id', text],
    ['directions', int],
    ['member', text],
    ['ink', int],
    ['staticY', int],
  ]);
  const directionList = childrenNamed(e, 'direction').map((d) =>
    pick<{ id: number; dx?: number; dy?: number; dz?: number }>(d, [
      ['id', int],
      ['dx', int],
      ['dy', int],
      ['dz', int],
    ]),
  );
  if (directionList.length) s.directionList = directionList;
  return s;
}

/** One `<animation>` document → `{ [desc]: animation }`, the bundle JSON's `animations` block. */
export function parseEffectAnimationXml(xml: string, file = 'animation.xml'): Record<string, EffectAnimationJson> {
  const doc = parseXml(xml, 'effect animation', file);
  if (doc.name !== 'animation')
    throw new FormatError('effect animation', file, `root element is <${doc.name}>, expected <animation>`);
  const a = pick<EffectAnimationJson>(doc, [
    ['name', text],
    ['desc', text],
    ['resetOnToggle', (v) => v === 'true'],
  ]);
  const list = <T>(tag: string, read: (e: XmlElement) => T): T[] | undefined => {
    const items = childrenNamed(doc, tag).map(read);
    return items.length ? items : undefined;
  };
  const directions = list('direction', (e) => pick<{ offset?: number }>(e, [['offset', int]]));
  const shadows = list('shadow', (e) => pick<{ id: string }>(e, [['id', text]]));
  const adds = list('add', (e) =>
    pick<EffectAddJson>(e, [
      ['id', text],
      ['align', text],
      ['blend', text],
      ['ink', int],
      ['base', text],
    ]),
  );
  const removes = list('remove', (e) => pick<{ id: string }>(e, [['id', text]]));
  const sprites = list('sprite', sprite);
  const frames = list('frame', frame);
  const avatars = list('avatar', (e) =>
    pick<{ ink?: number; foreground?: string; background?: string }>(e, [
      ['ink', int],
      ['foreground', text],
      ['background', text],
    ]),
  );
  const overrides = list('override', (e) => {
    const o = pick<{ name: string; override: string; frames?: EffectFrameJson[] }>(e, [
      ['name', text],
      ['override', text],
    ]);
    const fs = childrenNamed(e, 'frame').map(frame);
    if (fs.length) o.frames = fs;
    return o;
  });
  if (directions) a.directions = directions;
  if (shadows) a.shadows = shadows;
  if (adds) a.adds = adds;
  if (removes) a.removes = removes;
  if (sprites) a.sprites = sprites;
  if (frames) a.frames = frames;
  if (avatars) a.avatars = avatars;
  if (overrides) a.overrides = overrides;
  return { [a.desc ?? a.name ?? '']: a };
}
