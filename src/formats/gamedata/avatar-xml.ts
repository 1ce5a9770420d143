// Flash-era avatar XML documents → the typed plain structures of avatar-xml-types.ts.
import { FormatError } from '../errors.js';
import { type XmlElement, child, childrenNamed, parseXml } from '../xml/xml-tree.js';
import {
  type AnimationSetXml,
  type AvatarGeometryXml,
  type AvatarSetXml,
  type DrawOrderXml,
  type PartSetsXml,
} from './avatar-xml-types.js';

function num(v: string | undefined, fallback = 0): number {
  const n = v === undefined ? NaN : Number(v.trim());
  return Number.isNaN(n) ? fallback : n;
}
function optNum(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v.trim());
  return Number.isNaN(n) ? undefined : n;
}

function root(xml: string, format: string, file: string, names: string[]): XmlElement {
  const r = parseXml(xml, format, file);
  if (!names.includes(r.name))
    throw new FormatError(format, file, `root element is <${r.name}>, expected <${names.join('> or <')}>`);
  return r;
}

/** HabboAvatarAnimation.xml, or the older animation.xml (same shape, fewer attributes). */
export function parseAnimationXml(xml: string, file = 'HabboAvatarAnimation.xml'): AnimationSetXml {
  const doc = root(xml, 'avatar animation', file, ['animationSet']);
  return {
    actions: childrenNamed(doc, 'action').map((a) => ({
      id: a.attrs.id ?? '',
      parts: childrenNamed(a, 'part').map((p) => ({
        setType: p.attrs['set-type'] ?? '',
        frames: childrenNamed(p, 'frame').map((f) => {
          const frame: AnimationSetXml['actions'][number]['parts'][number]['frames'][number] = {
            number: num(f.attrs.number),
          };
          if (f.attrs.assetpartdefinition !== undefined) frame.assetPartDefinition = f.attrs.assetpartdefinition;
          const repeats = optNum(f.attrs.repeats);
          if (repeats !== undefined) frame.repeats = repeats;
          return frame;
        }),
      })),
      offsets: childrenNamed(child(a, 'offsets'), 'frame').map((f) => {
        const frame: AnimationSetXml['actions'][number]['offsets'][number] = {
          id: num(f.attrs.id),
          directions: childrenNamed(child(f, 'directions'), 'direction').map((d) => ({
            id: num(d.attrs.id),
            bodyParts: childrenNamed(d, 'bodypart').map((b) => ({
              id: b.attrs.id ?? '',
              dx: num(b.attrs.dx),
              dy: num(b.attrs.dy),
            })),
          })),
        };
        const repeats = optNum(f.attrs.repeats);
        if (repeats !== undefined) frame.repeats = repeats;
        return frame;
      }),
    })),
  };
}

function avatarSet(el: XmlElement): AvatarSetXml {
  return {
    id: el.attrs.id ?? '',
    main: el.attrs.main === '1' || el.attrs.main === 'true',
    avatarSets: childrenNamed(el, 'avatarset').map(avatarSet),
    bodyParts: childrenNamed(el, 'bodypart').map((b) => b.attrs.id ?? ''),
  };
}

/** HabboAvatarGeometry.xml. */
export function parseGeometryXml(xml: string, file = 'HabboAvatarGeometry.xml'): AvatarGeometryXml {
  const doc = root(xml, 'avatar geometry', file, ['geometry']);
  const camera = child(doc, 'camera');
  return {
    direction: num(doc.attrs.direction),
    camera: { x: num(child(camera, 'x')?.text), y: num(child(camera, 'y')?.text), z: num(child(camera, 'z')?.text) },
    canvases: childrenNamed(doc, 'canvas').map((c) => ({
      scale: c.attrs.scale ?? '',
      geometries: childrenNamed(c, 'geometry').map((g) => ({
        id: g.attrs.id ?? '',
        width: num(g.attrs.width),
        height: num(g.attrs.height),
        dx: num(g.attrs.dx),
        dy: num(g.attrs.dy),
      })),
    })),
    avatarSets: childrenNamed(doc, 'avatarset').map(avatarSet),
    types: childrenNamed(doc, 'type').map((t) => ({
      id: t.attrs.id ?? '',
      bodyParts: childrenNamed(t, 'bodypart').map((b) => ({
        id: b.attrs.id ?? '',
        x: num(b.attrs.x),
        y: num(b.attrs.y),
        z: num(b.attrs.z),
        radius: num(b.attrs.radius),
        items: childrenNamed(b, 'item').map((i) => ({
          id: i.attrs.id ?? '',
          x: num(i.attrs.x),
          y: num(i.attrs.y),
          z: num(i.attrs.z),
          radius: num(i.attrs.radius),
          nx: num(i.attrs.nx),
          ny: num(i.attrs.ny),
          nz: num(i.attrs.nz),
          double: i.attrs.double === '1' || i.attrs.double === 'true',
        })),
      })),
    })),
  };
}

/** HabboAvatarPartSets.xml, or the older partsets.xml (same shape). */
export function parsePartSetsXml(xml: string, file = 'HabboAvatarPartSets.xml'): PartSetsXml {
  const doc = root(xml, 'avatar part sets', file, ['partSets']);
  return {
    parts: childrenNamed(doc, 'partSet').flatMap((s) =>
      childrenNamed(s, 'part').map((p) => {
        const part: PartSetsXml['parts'][number] = { setType: p.attrs['set-type'] ?? '', swim: p.attrs.swim !== '0' };
        if (p.attrs['flipped-set-type'] !== undefined) part.flippedSetType = p.attrs['flipped-set-type'];
        if (p.attrs['remove-set-type'] !== undefined) part.removeSetType = p.attrs['remove-set-type'];
        return part;
      }),
    ),
    activePartSets: childrenNamed(doc, 'activePartSet').map((a) => ({
      id: a.attrs.id ?? '',
      setTypes: childrenNamed(a, 'activePart').map((p) => p.attrs['set-type'] ?? ''),
    })),
  };
}

/** draworder.xml. */
export function parseDrawOrderXml(xml: string, file = 'draworder.xml'): DrawOrderXml {
  const doc = root(xml, 'draw order', file, ['actionSet']);
  return {
    actions: childrenNamed(doc, 'action').map((a) => ({
      id: a.attrs.id ?? '',
      directions: childrenNamed(a, 'direction').map((d) => ({
        id: num(d.attrs.id),
        parts: childrenNamed(child(d, 'partList'), 'part').map((p) => p.attrs['set-type'] ?? ''),
      })),
    })),
  };
}
