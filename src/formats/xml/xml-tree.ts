// A tiny ordered element tree over fast-xml-parser, so every XML reader walks the same shape:
// element name, attributes as strings, children in document order. Comments are stripped first.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { FormatError } from '../errors.js';

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Concatenated text content directly inside this element (trimmed). */
  text: string;
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: true,
  // Entities are decoded below, only where a `&` occurs: the library's own pass costs more than the parse.
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

/** Removes `<!-- … -->` comments; Habbo documents sometimes hold malformed ones the parser would reject. */
export function stripXmlComments(xml: string): string {
  return xml.replace(/<!--[\s\S]*?(?:-->|$)/g, '');
}

/** Escapes `&` that does not start an entity (real furnidata.xml has bare ones in names). */
export function escapeBareAmpersands(xml: string): string {
  return xml.replace(/&(?!(?:[a-zA-Z][a-zA-Z0-9]*|#[0-9]+|#x[0-9a-fA-F]+);)/g, '&amp;');
}

type Ordered = Record<string, unknown>;

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decodes XML character and entity references; unknown names stay as written. */
export function decodeEntities(v: string): string {
  if (!v.includes('&')) return v;
  return v.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z][a-zA-Z0-9]*);/g, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return NAMED[e] ?? m;
  });
}

function convert(node: Ordered): XmlElement | string | undefined {
  let name: string | undefined;
  for (const k of Object.keys(node)) if (k !== ':@') name = k;
  if (name === undefined) return undefined;
  if (name === '#text') return decodeEntities(String(node['#text'] ?? ''));
  const attrs: Record<string, string> = {};
  const rawAttrs = node[':@'] as Record<string, unknown> | undefined;
  if (rawAttrs) for (const [k, v] of Object.entries(rawAttrs)) attrs[k] = decodeEntities(String(v));
  const children: XmlElement[] = [];
  let text = '';
  for (const c of (node[name] as Ordered[] | undefined) ?? []) {
    const r = convert(c);
    if (typeof r === 'string') text += r;
    else if (r) children.push(r);
  }
  return { name, attrs, children, text: text.trim() };
}

/** Parses a document and returns its root element. Throws FormatError naming the file on bad XML. */
export function parseXml(xml: string, format: string, file: string): XmlElement {
  const clean = stripXmlComments(xml.replace(/^\uFEFF/, ''));
  const valid = XMLValidator.validate(clean);
  if (valid !== true) {
    throw new FormatError(
      format,
      file,
      `not well-formed XML: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})`,
    );
  }
  const out = parser.parse(clean) as Ordered[];
  for (const n of out) {
    const r = convert(n);
    if (r && typeof r !== 'string') return r;
  }
  throw new FormatError(format, file, 'no root element');
}

export function child(el: XmlElement | undefined, name: string): XmlElement | undefined {
  return el?.children.find((c) => c.name === name);
}

export function childrenNamed(el: XmlElement | undefined, name: string): XmlElement[] {
  return el ? el.children.filter((c) => c.name === name) : [];
}

/** parseInt like the reference mappers; undefined when absent or not a number. */
export function intAttr(el: XmlElement, name: string): number | undefined {
  const v = el.attrs[name];
  if (v === undefined) return undefined;
  const n = parseInt(v, 10);
  return Number.isNaN(n) ? undefined : n;
}

export function floatAttr(el: XmlElement, name: string): number | undefined {
  const v = el.attrs[name];
  if (v === undefined) return undefined;
  const n = parseFloat(v);
  return Number.isNaN(n) ? undefined : n;
}

/** `"1"` / `"true"` → true; anything else present → false; absent → undefined. */
export function boolAttr(el: XmlElement, name: string): boolean | undefined {
  const v = el.attrs[name];
  if (v === undefined) return undefined;
  return v === '1' || v.toLowerCase() === 'true';
}
