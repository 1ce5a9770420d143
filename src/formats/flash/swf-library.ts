// What furni and figure libraries share: naming of symbols, looking up the XML documents, and turning
// the symbol table into sprites keyed by asset name (aliases resolved the way nitro-converter does).
import { type RgbaImage } from '../../imaging/image.js';
import { type SwfDocument, resolveSymbols } from '../swf/reader.js';
import { SwfFormatError } from '../swf/swf-error.js';

export interface SwfLibraryView {
  /** The library's document class, e.g. `chair_plasty` or `hh_human_body`. */
  documentClass: string;
  /** Binary documents by every symbol name that names them. */
  binaryByName: Map<string, Buffer>;
  /** Per image: every asset name the symbol table gives it (`<documentClass>_` stripped), in file order. */
  imageNames: { image: RgbaImage; names: string[] }[];
}

/** Reads an XML document out of a binary tag, honouring a latin-1 declaration. */
export function binaryText(data: Buffer): string {
  const head = data.toString('latin1', 0, Math.min(200, data.length));
  const latin1 = /encoding\s*=\s*["']iso-8859-1["']/i.test(head);
  return data.toString(latin1 ? 'latin1' : 'utf8');
}

export function viewSwfLibrary(doc: SwfDocument, fallbackName?: string): SwfLibraryView {
  const { documentClass: fromId0 } = resolveSymbols(doc.symbols);
  const binaryByName = new Map<string, Buffer>();
  const namesById = new Map<number, string[]>();
  for (const s of doc.symbols) {
    const data = doc.binaries.get(s.id);
    if (data && !binaryByName.has(s.name)) binaryByName.set(s.name, data);
    if (s.id !== 0 && doc.images.has(s.id)) {
      const list = namesById.get(s.id) ?? [];
      if (!list.includes(s.name)) list.push(s.name);
      namesById.set(s.id, list);
    }
  }
  let documentClass = fromId0;
  if (!documentClass) {
    const manifest = [...binaryByName.keys()].find((n) => n.endsWith('_manifest'));
    const index = [...binaryByName.keys()].find((n) => n.endsWith('_index'));
    documentClass = manifest?.slice(0, -'_manifest'.length) ?? index?.slice(0, -'_index'.length) ?? fallbackName;
  }
  if (!documentClass) throw new SwfFormatError(doc.file, 'no document class: the SWF names no library');
  const prefix = `${documentClass}_`;
  const strip = (n: string) => (n.startsWith(prefix) ? n.slice(prefix.length) : n);
  const imageNames = [...namesById].map(([id, names]) => ({ image: doc.images.get(id)!, names: names.map(strip) }));
  return { documentClass, binaryByName, imageNames };
}

export interface ResolvedImages {
  /** Alias asset name → the asset name that holds the shared image. */
  sourceOf: Map<string, string>;
  /** Image by its holding asset name. */
  imageOf: Map<string, RgbaImage>;
}

/**
 * One image may carry several names. Its holder is its first name the library keeps (nitro-converter
 * takes the first name outright, which loses images whose first name is a dropped `_32_` one); the other
 * names become aliases of the holder.
 */
export function resolveImages(view: SwfLibraryView, kept: (name: string) => boolean): ResolvedImages {
  const sourceOf = new Map<string, string>();
  const imageOf = new Map<string, RgbaImage>();
  for (const { image, names } of view.imageNames) {
    const holder = names.find(kept) ?? names[0]!;
    if (!imageOf.has(holder)) imageOf.set(holder, image);
    for (const n of names) if (n !== holder && !sourceOf.has(n) && !imageOf.has(n)) sourceOf.set(n, holder);
  }
  return { sourceOf, imageOf };
}

/** nitro-converter drops the small-scale (`sh_`) and size-32 (`_32_`) assets from Nitro bundles. */
export function isDroppedByNitro(assetName: string): boolean {
  return assetName.startsWith('sh_') || assetName.includes('_32_');
}
