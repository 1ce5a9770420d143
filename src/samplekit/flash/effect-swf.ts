// A kit effect library → the effect SWF a Flash-era hotel keeps beside its figure libraries: the
// figure-style `<lib>_manifest` and sprites, plus the `<lib>_animation` document; and `effectmap.xml`.
import { type AssetLibrary } from '../../formats/asset-library.js';
import {
  type EffectAnimationJson,
  type EffectFramePartJson,
  type EffectMapDoc,
} from '../../formats/gamedata/effect-types.js';
import { writeSwf } from '../../formats/swf/writer.js';
import { figureManifest } from './figure-swf.js';
import { losslessBitmap } from './furni-swf.js';
import { el, xmlDocument, type XmlNode } from './xml.js';

export function effectMapXml(doc: EffectMapDoc): string {
  return xmlDocument(
    el(
      'map',
      [],
      doc.effects.map((e) =>
        el('effect', [
          ['id', String(e.id)],
          ['lib', e.lib],
          ['type', e.type],
          ['revision', e.revision],
        ]),
      ),
    ),
  );
}

function part(name: string, p: EffectFramePartJson): XmlNode {
  return el(
    name,
    [
      ['id', p.id],
      ['frame', p.frame],
      ['action', p.action],
      ['base', p.base],
      ['dx', p.dx],
      ['dy', p.dy],
      ['dz', p.dz],
      ['dd', p.dd],
    ],
    (p.items ?? []).map((i) =>
      el('item', [
        ['id', i.id],
        ['base', i.base],
      ]),
    ),
  );
}

function frames(list: EffectAnimationJson['frames']): XmlNode[] {
  return (list ?? []).map((f) =>
    el(
      'frame',
      [['repeats', f.repeats]],
      [...(f.bodyparts ?? []).map((p) => part('bodypart', p)), ...(f.fxs ?? []).map((p) => part('fx', p))],
    ),
  );
}

export function effectAnimationXml(a: EffectAnimationJson): string {
  const kids: XmlNode[] = [
    ...(a.directions ?? []).map((d) => el('direction', [['offset', d.offset]])),
    ...(a.adds ?? []).map((x) =>
      el('add', [
        ['id', x.id],
        ['align', x.align],
        ['base', x.base],
        ['ink', x.ink],
        ['blend', x.blend],
      ]),
    ),
    ...(a.removes ?? []).map((r) => el('remove', [['id', r.id]])),
    ...(a.sprites ?? []).map((s) =>
      el(
        'sprite',
        [
          ['id', s.id],
          ['member', s.member],
          ['ink', s.ink],
          ['staticY', s.staticY === undefined ? undefined : Number(s.staticY)],
          ['directions', s.directions === undefined ? undefined : Number(s.directions)],
        ],
        (s.directionList ?? []).map((d) =>
          el('direction', [
            ['id', d.id],
            ['dx', d.dx],
            ['dy', d.dy],
            ['dz', d.dz],
          ]),
        ),
      ),
    ),
    ...(a.avatars ?? []).map((v) =>
      el('avatar', [
        ['ink', v.ink],
        ['foreground', v.foreground],
        ['background', v.background],
      ]),
    ),
    ...frames(a.frames),
    ...(a.overrides ?? []).map((o) =>
      el(
        'override',
        [
          ['name', o.name],
          ['override', o.override],
        ],
        frames(o.frames),
      ),
    ),
  ];
  return xmlDocument(
    el(
      'animation',
      [
        ['name', a.name],
        ['desc', a.desc],
      ],
      kids,
    ),
  );
}

export function effectSwf(lib: AssetLibrary): Buffer {
  const name = lib.name;
  const anims = (lib.data as unknown as { animations?: Record<string, EffectAnimationJson> }).animations ?? {};
  const animation = Object.values(anims)[0];
  if (!animation) throw new Error(`kit effect ${name} has no animation`);
  const holders = [...lib.sprites.keys()].sort();
  const symbols = holders.map((n, i) => ({ id: i + 1, name: `${name}_${n}` }));
  const manifestId = holders.length + 1;
  symbols.push(
    { id: manifestId, name: `${name}_manifest` },
    { id: manifestId + 1, name: `${name}_animation` },
    { id: 0, name },
  );
  return writeSwf(
    {
      bitmaps: holders.map((n, i) => losslessBitmap(i + 1, lib.sprites.get(n)!)),
      binaries: [
        { id: manifestId, data: figureManifest(lib) },
        { id: manifestId + 1, data: effectAnimationXml(animation) },
      ],
      symbols,
    },
    'zlib',
  );
}
