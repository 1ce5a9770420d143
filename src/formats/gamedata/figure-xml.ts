// Flash-era figure gamedata XML → the Nitro JSON document shapes (FigureData.json, FigureMap.json,
// HabboAvatarActions.json), so the avatar renderer reads one in-memory shape whatever the hotel ships.
import {
  type ActionDefinitionJson,
  type AvatarActionsDoc,
  type FigureDataDoc,
  type FigureDataSet,
  type FigureDataSetType,
  type FigureMapDoc,
} from './figure-types.js';
import { FormatError } from '../errors.js';
import { type XmlElement, child, childrenNamed, parseXml } from '../xml/xml-tree.js';

/** parseInt with the reference converter's fallback (`|| fallback`). */
function int(v: string | undefined, fallback = 0): number {
  const n = v === undefined ? NaN : parseInt(v, 10);
  return Number.isNaN(n) ? fallback : n;
}
const isOne = (v: string | undefined) => v !== undefined && parseInt(v, 10) === 1;

function root(xml: string, format: string, file: string, name: string): XmlElement {
  const r = parseXml(xml, format, file);
  if (r.name !== name) throw new FormatError(format, file, `root element is <${r.name}>, expected <${name}>`);
  return r;
}

/** figuredata.xml → FigureData.json shape. */
export function parseFigureDataXml(xml: string, file = 'figuredata.xml'): FigureDataDoc {
  const doc = root(xml, 'figuredata', file, 'figuredata');
  const palettes = childrenNamed(child(doc, 'colors'), 'palette').map((p) => ({
    id: int(p.attrs.id),
    colors: childrenNamed(p, 'color').map((c) => ({
      id: int(c.attrs.id),
      index: int(c.attrs.index),
      club: int(c.attrs.club),
      selectable: isOne(c.attrs.selectable),
      hexCode: c.text,
    })),
  }));
  const setTypes: FigureDataSetType[] = childrenNamed(child(doc, 'sets'), 'settype').map((t) => ({
    type: t.attrs.type ?? '',
    paletteId: int(t.attrs.paletteid, 1),
    mandatory_f_0: isOne(t.attrs.mand_f_0),
    mandatory_f_1: isOne(t.attrs.mand_f_1),
    mandatory_m_0: isOne(t.attrs.mand_m_0),
    mandatory_m_1: isOne(t.attrs.mand_m_1),
    sets: childrenNamed(t, 'set').map((s) => {
      const set: FigureDataSet = {
        id: int(s.attrs.id),
        gender: s.attrs.gender ?? '',
        club: int(s.attrs.club),
        colorable: isOne(s.attrs.colorable),
        selectable: isOne(s.attrs.selectable),
        preselectable: isOne(s.attrs.preselectable),
        sellable: isOne(s.attrs.sellable),
        parts: childrenNamed(s, 'part').map((p) => ({
          id: int(p.attrs.id),
          type: p.attrs.type ?? '',
          colorable: isOne(p.attrs.colorable),
          index: int(p.attrs.index),
          colorindex: int(p.attrs.colorindex),
        })),
      };
      const hidden = childrenNamed(child(s, 'hiddenlayers'), 'layer');
      if (hidden.length) set.hiddenLayers = hidden.map((l) => ({ partType: l.attrs.parttype ?? '' }));
      return set;
    }),
  }));
  return { palettes, setTypes };
}

/** figuremap.xml → FigureMap.json shape. */
export function parseFigureMapXml(xml: string, file = 'figuremap.xml'): FigureMapDoc {
  const doc = root(xml, 'figuremap', file, 'map');
  return {
    libraries: childrenNamed(doc, 'lib').map((l) => ({
      id: l.attrs.id ?? '',
      revision: int(l.attrs.revision),
      parts: childrenNamed(l, 'part').map((p) => ({ id: int(p.attrs.id), type: p.attrs.type ?? '' })),
    })),
  };
}

/** An effect sub-type of an action (`<type id animated prevents preventheadturn>`). */
export interface ActionTypeJson {
  id: string;
  animated?: boolean;
  prevents?: string[];
  preventHeadTurn?: boolean;
}

export type ActionDefinitionWithTypes = ActionDefinitionJson & { types?: ActionTypeJson[] };

const truthy = (v: string) => v === '1' || v.toLowerCase() === 'true';
const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/**
 * HabboAvatarActions.xml → HabboAvatarActions.json shape. The Flash document has no lay offsets
 * (`actionOffsets`); those live in the client code, so the renderer's built-in values apply.
 */
export function parseAvatarActionsXml(
  xml: string,
  file = 'HabboAvatarActions.xml',
): AvatarActionsDoc & { actions: ActionDefinitionWithTypes[] } {
  const doc = root(xml, 'avatar actions', file, 'actions');
  const actions = childrenNamed(doc, 'action').map((a) => {
    const at = a.attrs;
    const action: Partial<ActionDefinitionWithTypes> = {
      id: at.id ?? '',
      state: at.state ?? '',
      precedence: int(at.precedence),
    };
    if (at.main !== undefined) action.main = truthy(at.main);
    if (at.isdefault !== undefined) action.isDefault = truthy(at.isdefault);
    action.geometryType = at.geometrytype ?? '';
    if (at.activepartset !== undefined) action.activePartSet = at.activepartset;
    action.assetPartDefinition = at.assetpartdefinition ?? '';
    if (at.animation !== undefined) action.animation = truthy(at.animation);
    if (at.startfromframezero !== undefined) action.startFromFrameZero = truthy(at.startfromframezero);
    if (at.preventheadturn !== undefined) action.preventHeadTurn = truthy(at.preventheadturn);
    if (at.lay !== undefined) action.lay = at.lay;
    if (at.prevents !== undefined) action.prevents = list(at.prevents);
    const params = childrenNamed(a, 'param');
    if (params.length) action.params = params.map((p) => ({ id: p.attrs.id ?? '', value: p.attrs.value ?? '' }));
    const types = childrenNamed(a, 'type');
    if (types.length) {
      action.types = types.map((t) => {
        const type: ActionTypeJson = { id: t.attrs.id ?? '' };
        if (t.attrs.animated !== undefined) type.animated = truthy(t.attrs.animated);
        if (t.attrs.prevents !== undefined) type.prevents = list(t.attrs.prevents);
        if (t.attrs.preventheadturn !== undefined) type.preventHeadTurn = truthy(t.attrs.preventheadturn);
        return type;
      });
    }
    return action as ActionDefinitionWithTypes;
  });
  return { actions };
}
