// A minimal XML writer for the Flash-era documents the kit writes: elements with attributes in the
// order given, optional text, children; two-space indentation. Deterministic and escaping-safe.

export type XmlAttrs = [string, string | number | boolean | undefined][];

export interface XmlNode {
  name: string;
  attrs?: XmlAttrs;
  text?: string;
  children?: XmlNode[];
}

export function escapeXml(v: string): string {
  return v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Flash documents spell booleans as 1/0. */
function attrValue(v: string | number | boolean): string {
  return typeof v === 'boolean' ? (v ? '1' : '0') : String(v);
}

export function el(name: string, attrs: XmlAttrs = [], children: XmlNode[] = [], text?: string): XmlNode {
  return { name, attrs, children, text };
}

function render(n: XmlNode, indent: string, out: string[]): void {
  const attrs = (n.attrs ?? [])
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeXml(attrValue(v!))}"`)
    .join('');
  const kids = n.children ?? [];
  if (kids.length === 0 && n.text === undefined) out.push(`${indent}<${n.name}${attrs}/>`);
  else if (kids.length === 0) out.push(`${indent}<${n.name}${attrs}>${escapeXml(n.text!)}</${n.name}>`);
  else {
    out.push(`${indent}<${n.name}${attrs}>${n.text !== undefined ? escapeXml(n.text) : ''}`);
    for (const c of kids) render(c, indent + '  ', out);
    out.push(`${indent}</${n.name}>`);
  }
}

/** The document with an XML declaration, as the Flash client's files start. */
export function xmlDocument(root: XmlNode): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  render(root, '', out);
  return out.join('\n') + '\n';
}
