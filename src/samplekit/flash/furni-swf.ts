// A kit furni library (the model its .nitro bundle is written from) → the furni SWF a Flash-era hotel
// keeps in hof_furni/: the XML documents index/assets/logic/visualization/manifest as DefineBinaryData
// named as real furni SWFs name them (`<cn>_index`, `<cn>_<cn>_assets`, `<cn>_<cn>_logic`,
// `<cn>_<cn>_visualization`, `<cn>_manifest`), every sprite as DefineBitsLossless2 named
// `<cn>_<assetname>`, and the document class `<cn>` on id 0. Reading it back with readFurniSwf gives
// the same JSON and the same pixels (a test checks every kit item).
import { type AssetLibrary } from '../../formats/asset-library.js';
import { type NitroAnimation, type NitroLayer, type NitroVisualization } from '../../formats/nitro-asset-types.js';
import { type SwfBitmap, writeSwf } from '../../formats/swf/writer.js';
import { type RgbaImage } from '../../imaging/image.js';
import { type XmlNode, el, xmlDocument } from './xml.js';

/** The fields of a furni library's JSON this writer can express in the Flash documents. */
const KNOWN_FIELDS = new Set(['name', 'logicType', 'visualizationType', 'assets', 'logic', 'visualizations']);

/** Palette format (3) when the image has at most 256 distinct colours, as Flash exporters choose; else ARGB (5). */
export function losslessBitmap(id: number, image: RgbaImage): SwfBitmap {
  const colours = new Set<number>();
  const d = image.data;
  for (let p = 0; p < d.length && colours.size <= 256; p += 4)
    colours.add(((d[p]! << 24) | (d[p + 1]! << 16) | (d[p + 2]! << 8) | d[p + 3]!) >>> 0);
  return { kind: 'lossless', id, format: colours.size <= 256 ? 3 : 5, alpha: true, image };
}

function layerNode(tag: string, id: string, l: NitroLayer): XmlNode {
  return el(tag, [
    ['id', id],
    ['x', l.x],
    ['y', l.y],
    ['z', l.z],
    ['alpha', l.alpha],
    ['ink', l.ink],
    ['tag', l.tag],
    ['ignoreMouse', l.ignoreMouse],
  ]);
}

const hex = (rgb: number) => rgb.toString(16).padStart(6, '0').toUpperCase();

/** `"1_1"` (the converter's key for a repeated id) → 1: the XML repeats the id, the reader re-derives the key. */
function animationId(key: string): number {
  const id = parseInt(key, 10);
  if (Number.isNaN(id)) throw new Error(`animation key ${key} has no numeric id`);
  return id;
}

function animationNode(key: string, a: NitroAnimation): XmlNode {
  const layers = Object.entries(a.layers ?? {}).map(([lid, l]) =>
    el(
      'animationLayer',
      [
        ['id', lid],
        ['loopCount', l.loopCount],
        ['frameRepeat', l.frameRepeat],
        ['random', typeof l.random === 'boolean' ? Number(l.random) : l.random],
      ],
      Object.values(l.frameSequences ?? {}).map((s) =>
        el(
          'frameSequence',
          [
            ['loopCount', s.loopCount],
            ['random', typeof s.random === 'boolean' ? Number(s.random) : s.random],
          ],
          Object.values(s.frames ?? {}).map((f) => {
            const offsets = Object.values(f.offsets ?? {});
            return el(
              'frame',
              [
                ['id', f.id],
                ['x', f.x],
                ['y', f.y],
                ['randomX', f.randomX],
                ['randomY', f.randomY],
              ],
              offsets.length
                ? [
                    el(
                      'offsets',
                      [],
                      offsets.map((o) =>
                        el('offset', [
                          ['direction', o.direction],
                          ['x', o.x],
                          ['y', o.y],
                        ]),
                      ),
                    ),
                  ]
                : [],
            );
          }),
        ),
      ),
    ),
  );
  return el(
    'animation',
    [
      ['id', animationId(key)],
      ['transitionTo', a.transitionTo],
      ['transitionFrom', a.transitionFrom],
      ['immediateChangeFrom', a.immediateChangeFrom],
      ['randomStart', a.randomStart],
    ],
    layers,
  );
}

function visualizationNode(v: NitroVisualization): XmlNode {
  const kids: XmlNode[] = [];
  if (v.layers)
    kids.push(
      el(
        'layers',
        [],
        Object.entries(v.layers).map(([id, l]) => layerNode('layer', id, l)),
      ),
    );
  if (v.directions) {
    kids.push(
      el(
        'directions',
        [],
        Object.entries(v.directions).map(([id, d]) =>
          el(
            'direction',
            [['id', id]],
            Object.entries(d.layers ?? {}).map(([lid, l]) => layerNode('layer', lid, l)),
          ),
        ),
      ),
    );
  }
  if (v.colors) {
    kids.push(
      el(
        'colors',
        [],
        Object.entries(v.colors).map(([id, c]) =>
          el(
            'color',
            [['id', id]],
            Object.entries(c.layers ?? {}).map(([lid, cl]) =>
              el('colorLayer', [
                ['id', lid],
                ['color', hex(cl.color)],
              ]),
            ),
          ),
        ),
      ),
    );
  }
  if (v.animations)
    kids.push(
      el(
        'animations',
        [],
        Object.entries(v.animations).map(([key, a]) => animationNode(key, a)),
      ),
    );
  if (v.postures !== undefined || v.gestures !== undefined)
    throw new Error('postures and gestures are not written to furni SWFs');
  return el(
    'visualization',
    [
      ['size', v.size],
      ['layerCount', v.layerCount],
      ['angle', v.angle],
    ],
    kids,
  );
}

/** The XML documents of a furni SWF, by their symbol names. */
export function furniDocuments(lib: AssetLibrary): [string, string][] {
  const cn = lib.name;
  const data = lib.data;
  for (const k of Object.keys(data))
    if (!KNOWN_FIELDS.has(k)) throw new Error(`${cn}: field ${k} cannot be written to a furni SWF`);
  const index = el('object', [
    ['type', data.name],
    ['visualization', data.visualizationType],
    ['logic', data.logicType],
  ]);
  const assets = el(
    'assets',
    [],
    Object.entries(data.assets ?? {}).map(([name, a]) =>
      el('asset', [
        ['name', name],
        ['x', a.x],
        ['y', a.y],
        ['source', a.source],
        ['flipH', a.flipH],
        ['flipV', a.flipV],
        ['usesPalette', a.usesPalette],
      ]),
    ),
  );
  const model = data.logic?.model;
  const logicKeys = Object.keys(data.logic ?? {}).filter((k) => k !== 'model');
  if (logicKeys.length) throw new Error(`${cn}: logic.${logicKeys[0]} cannot be written to a furni SWF`);
  const modelKids: XmlNode[] = [];
  if (model?.dimensions) {
    const d = model.dimensions;
    modelKids.push(
      el('dimensions', [
        ['x', d.x],
        ['y', d.y],
        ['z', d.z],
        ['centerZ', d.centerZ],
      ]),
    );
  }
  if (model?.directions) {
    if (model.directions.length === 0)
      throw new Error(`${cn}: an empty directions list cannot be written (the XML reads back as [0])`);
    modelKids.push(
      el(
        'directions',
        [],
        model.directions.map((d) => el('direction', [['id', d]])),
      ),
    );
  }
  const logic = el('objectData', [['type', cn]], model ? [el('model', [], modelKids)] : []);
  const visualization = el('visualizationData', [['type', cn]], (data.visualizations ?? []).map(visualizationNode));
  const manifest = el(
    'manifest',
    [],
    [
      el(
        'library',
        [
          ['name', cn],
          ['version', '0.1'],
        ],
        [
          el(
            'assets',
            [],
            [...lib.sprites.keys()].sort().map((n) =>
              el('asset', [
                ['name', n],
                ['mimeType', 'image/png'],
              ]),
            ),
          ),
        ],
      ),
    ],
  );
  return [
    [`${cn}_index`, xmlDocument(index)],
    [`${cn}_${cn}_assets`, xmlDocument(assets)],
    [`${cn}_${cn}_logic`, xmlDocument(logic)],
    [`${cn}_${cn}_visualization`, xmlDocument(visualization)],
    [`${cn}_manifest`, xmlDocument(manifest)],
  ];
}

export interface FurniSwfOptions {
  /** Replace one document's text before writing (the kit's deliberately broken item). */
  damage?: (symbol: string, xml: string) => string;
}

/** The furni SWF (CWS, zlib) for a kit library. */
export function furniSwf(lib: AssetLibrary, opts: FurniSwfOptions = {}): Buffer {
  const cn = lib.name;
  const names = [...lib.sprites.keys()].sort();
  const bitmaps = names.map((n, i) => losslessBitmap(i + 1, lib.sprites.get(n)!));
  const docs = furniDocuments(lib);
  const firstDoc = names.length + 1;
  const binaries = docs.map(([sym, xml], i) => ({ id: firstDoc + i, data: opts.damage ? opts.damage(sym, xml) : xml }));
  const symbols = [
    ...names.map((n, i) => ({ id: i + 1, name: `${cn}_${n}` })),
    ...docs.map(([sym], i) => ({ id: firstDoc + i, name: sym })),
    { id: 0, name: cn },
  ];
  return writeSwf({ bitmaps, binaries, symbols }, 'zlib');
}
