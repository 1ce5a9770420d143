// furnidata.xml → FurnitureData (the Nitro FurnitureData.json shape), with the field names, order and
// defaults nitro-converter's FurnitureDataMapper writes.
import { FormatError } from '../errors.js';
import { type FurnitureData, type FurnitureDataRow } from '../furnidata.js';
import { type XmlElement, child, childrenNamed, escapeBareAmpersands, parseXml } from '../xml/xml-tree.js';

function text(el: XmlElement, name: string): string | undefined {
  return child(el, name)?.text;
}
function int(v: string | undefined): number {
  const n = v === undefined ? NaN : parseInt(v, 10);
  return Number.isNaN(n) ? 0 : n;
}
const one = (v: string | undefined) => v !== undefined && parseInt(v, 10) === 1;

function row(el: XmlElement, floor: boolean): FurnitureDataRow {
  const r: FurnitureDataRow = {
    id: int(el.attrs.id),
    classname: (el.attrs.classname ?? '').trim(),
    revision: int(text(el, 'revision')),
    category: text(el, 'category') || 'unknown',
  };
  if (floor) {
    r.defaultdir = int(text(el, 'defaultdir'));
    r.xdim = int(text(el, 'xdim'));
    r.ydim = int(text(el, 'ydim'));
    r.partcolors = { color: childrenNamed(child(el, 'partcolors'), 'color').map((c) => c.text) };
  }
  r.name = text(el, 'name') ?? '';
  r.description = text(el, 'description') ?? '';
  r.adurl = text(el, 'adurl') ?? '';
  r.offerid = int(text(el, 'offerid'));
  r.buyout = one(text(el, 'buyout'));
  r.rentofferid = int(text(el, 'rentofferid'));
  r.rentbuyout = one(text(el, 'rentbuyout'));
  r.bc = one(text(el, 'bc'));
  r.excludeddynamic = one(text(el, 'excludeddynamic'));
  r.customparams = text(el, 'customparams') ?? '';
  r.specialtype = int(text(el, 'specialtype'));
  if (floor) {
    r.canstandon = one(text(el, 'canstandon'));
    r.cansiton = one(text(el, 'cansiton'));
    r.canlayon = one(text(el, 'canlayon'));
  }
  r.furniline = text(el, 'furniline') ?? '';
  r.environment = text(el, 'environment') ?? '';
  r.rare = one(text(el, 'rare'));
  return r;
}

/** furnidata.xml text → FurnitureData. Bare `&` (common in real names) is escaped before parsing. */
export function parseFurnidataXml(xml: string, file = 'furnidata.xml'): FurnitureData {
  const doc = parseXml(escapeBareAmpersands(xml), 'furnidata', file);
  if (doc.name !== 'furnidata')
    throw new FormatError('furnidata', file, `root element is <${doc.name}>, expected <furnidata>`);
  const rows = (section: string, floor: boolean) =>
    childrenNamed(child(doc, section), 'furnitype')
      .map((el) => row(el, floor))
      .filter((r) => r.classname !== '');
  return {
    roomitemtypes: { furnitype: rows('roomitemtypes', true) },
    wallitemtypes: { furnitype: rows('wallitemtypes', false) },
  };
}
