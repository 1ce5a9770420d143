// The kit's gamedata in the Flash era's XML: figuredata.xml, figuremap.xml, HabboAvatarActions.xml and
// furnidata.xml, written from the same documents as the kit's Nitro JSON. Each is the inverse of our
// reader (src/formats/gamedata/), so parsing gives the Nitro document back, except what the XML has no
// place for: HabboAvatarActions.json's `actionOffsets` (in Flash they live in the client code) and an
// empty furnidata category (the XML reader defaults it to "unknown", as nitro-converter does).
import { type AvatarActionsDoc, type FigureDataDoc, type FigureMapDoc } from '../../formats/gamedata/figure-types.js';
import { type FurnitureData, type FurnitureDataRow } from '../../formats/furnidata.js';
import { type XmlNode, el, xmlDocument } from './xml.js';

export function figureDataXml(doc: FigureDataDoc): string {
  const colors = el(
    'colors',
    [],
    doc.palettes.map((p) =>
      el(
        'palette',
        [['id', p.id]],
        p.colors.map((c) =>
          el(
            'color',
            [
              ['id', c.id],
              ['index', c.index],
              ['club', c.club],
              ['selectable', c.selectable],
            ],
            [],
            c.hexCode,
          ),
        ),
      ),
    ),
  );
  const sets = el(
    'sets',
    [],
    doc.setTypes.map((t) =>
      el(
        'settype',
        [
          ['type', t.type],
          ['paletteid', t.paletteId],
          ['mand_m_0', t.mandatory_m_0],
          ['mand_f_0', t.mandatory_f_0],
          ['mand_m_1', t.mandatory_m_1],
          ['mand_f_1', t.mandatory_f_1],
        ],
        t.sets.map((s) => {
          const kids: XmlNode[] = s.parts.map((p) =>
            el('part', [
              ['id', p.id],
              ['type', p.type],
              ['colorable', p.colorable],
              ['index', p.index],
              ['colorindex', p.colorindex],
            ]),
          );
          if (s.hiddenLayers?.length)
            kids.push(
              el(
                'hiddenlayers',
                [],
                s.hiddenLayers.map((h) => el('layer', [['parttype', h.partType]])),
              ),
            );
          return el(
            'set',
            [
              ['id', s.id],
              ['gender', s.gender],
              ['club', s.club],
              ['colorable', s.colorable],
              ['selectable', s.selectable],
              ['preselectable', s.preselectable],
              ['sellable', s.sellable],
            ],
            kids,
          );
        }),
      ),
    ),
  );
  return xmlDocument(el('figuredata', [], [colors, sets]));
}

export function figureMapXml(doc: FigureMapDoc): string {
  return xmlDocument(
    el(
      'map',
      [],
      doc.libraries.map((l) =>
        el(
          'lib',
          [
            ['id', l.id],
            ['revision', l.revision],
          ],
          l.parts.map((p) =>
            el('part', [
              ['id', p.id ?? undefined],
              ['type', p.type],
            ]),
          ),
        ),
      ),
    ),
  );
}

export function avatarActionsXml(doc: AvatarActionsDoc): string {
  return xmlDocument(
    el(
      'actions',
      [],
      doc.actions.map((a) =>
        el(
          'action',
          [
            ['id', a.id],
            ['state', a.state],
            ['precedence', a.precedence],
            ['main', a.main === undefined ? undefined : !!a.main],
            ['isdefault', a.isDefault],
            ['geometrytype', a.geometryType],
            ['activepartset', a.activePartSet],
            ['assetpartdefinition', a.assetPartDefinition],
            ['animation', a.animation === undefined ? undefined : !!a.animation],
            ['startfromframezero', a.startFromFrameZero],
            ['preventheadturn', a.preventHeadTurn],
            ['lay', a.lay],
            ['prevents', a.prevents?.join(',')],
          ],
          [
            ...(a.params ?? []).map((p) =>
              el('param', [
                ['id', p.id],
                ['value', p.value],
              ]),
            ),
            // Effect sub-types (`<type id animated prevents preventheadturn>`), as the real AvatarEffect has.
            ...(
              (
                a as {
                  types?: { id: number | string; animated?: boolean; prevents?: string[]; preventHeadTurn?: boolean }[];
                }
              ).types ?? []
            ).map((t) =>
              el('type', [
                ['id', String(t.id)],
                ['animated', t.animated === undefined ? undefined : t.animated ? 'true' : 'false'],
                ['prevents', t.prevents?.join(',')],
                ['preventheadturn', t.preventHeadTurn === undefined ? undefined : t.preventHeadTurn ? 'true' : 'false'],
              ]),
            ),
          ],
        ),
      ),
    ),
  );
}

const text = (name: string, v: unknown): XmlNode =>
  el(name, [], [], v === undefined || v === null ? '' : typeof v === 'boolean' ? (v ? '1' : '0') : String(v));

function furnitypeNode(r: FurnitureDataRow, floor: boolean): XmlNode {
  const kids: XmlNode[] = [text('revision', r.revision)];
  if (floor) {
    kids.push(text('defaultdir', r.defaultdir), text('xdim', r.xdim), text('ydim', r.ydim));
    kids.push(
      el(
        'partcolors',
        [],
        (r.partcolors?.color ?? []).map((c) => el('color', [], [], c)),
      ),
    );
  }
  kids.push(
    text('name', r.name),
    text('description', r.description),
    text('adurl', r.adurl),
    text('offerid', r.offerid),
    text('buyout', r.buyout),
  );
  kids.push(
    text('rentofferid', r.rentofferid),
    text('rentbuyout', r.rentbuyout),
    text('bc', r.bc),
    text('excludeddynamic', r.excludeddynamic),
  );
  kids.push(text('customparams', r.customparams), text('specialtype', r.specialtype));
  if (floor) kids.push(text('canstandon', r.canstandon), text('cansiton', r.cansiton), text('canlayon', r.canlayon));
  kids.push(text('furniline', r.furniline));
  if (r.category) kids.push(text('category', r.category));
  return el(
    'furnitype',
    [
      ['id', r.id],
      ['classname', r.classname],
    ],
    kids,
  );
}

export function furnidataXml(data: FurnitureData): string {
  return xmlDocument(
    el(
      'furnidata',
      [],
      [
        el(
          'roomitemtypes',
          [],
          data.roomitemtypes.furnitype.map((r) => furnitypeNode(r, true)),
        ),
        el(
          'wallitemtypes',
          [],
          data.wallitemtypes.furnitype.map((r) => furnitypeNode(r, false)),
        ),
      ],
    ),
  );
}
