// Effect SWF (a Flash hotel's `Hoverboard.swf` beside its figure libraries) → the effect library as a
// Nitro effect bundle holds it: the sprites and offsets of its `<lib>_manifest` (read as a figure
// library's) and the `animations` block from its `<lib>_animation` document.
import { type AssetLibrary } from '../asset-library.js';
import { type EffectAnimationJson } from '../gamedata/effect-types.js';
import { parseEffectAnimationXml } from '../gamedata/effect-xml.js';
import { type SwfDocument, readSwf } from '../swf/reader.js';
import { SwfFormatError } from '../swf/swf-error.js';
import { figureLibraryFromSwf } from './figure-library.js';
import { binaryText, viewSwfLibrary } from './swf-library.js';
import { child, childrenNamed, parseXml } from '../xml/xml-tree.js';

export async function readEffectSwf(
  swf: Uint8Array,
  file: string,
): Promise<{ library: AssetLibrary; animations: Record<string, EffectAnimationJson> }> {
  const doc = await readSwf(swf, file);
  const animations = animationsOf(doc);
  const library = figureLibraryFromSwf(doc);
  return { library: { ...library, data: { ...library.data, animations } as AssetLibrary['data'] }, animations };
}

/**
 * The `animations` block and the names of the manifest's assets and aliases, without decoding a bitmap:
 * what a hotel reads of every effect at load. The manifest is parsed too (and thrown on), so a library
 * whose sprites could never load is found at load.
 */
export async function readEffectHeader(
  swf: Uint8Array,
  file: string,
): Promise<{ animations: Record<string, EffectAnimationJson>; assetNames: string[] }> {
  const doc = await readSwf(swf, file, { images: false });
  figureLibraryFromSwf(doc);
  return { animations: animationsOf(doc), assetNames: manifestNames(doc) };
}

function manifestNames(doc: SwfDocument): string[] {
  const view = viewSwfLibrary(doc, doc.file.replace(/^.*[\\/]/, '').replace(/\.swf$/i, ''));
  const data =
    view.binaryByName.get(`${view.documentClass}_manifest`) ??
    [...view.binaryByName].find(([n]) => n.endsWith('_manifest'))?.[1];
  if (!data) return [];
  const manifest = parseXml(binaryText(data), 'effect swf', `${doc.file} (manifest)`);
  const library = child(manifest, 'library') ?? manifest;
  const names = [
    ...childrenNamed(child(library, 'assets'), 'asset'),
    ...childrenNamed(child(library, 'aliases'), 'alias'),
  ].map((a) => a.attrs.name);
  return names.filter((n): n is string => n !== undefined);
}

function animationsOf(doc: SwfDocument): Record<string, EffectAnimationJson> {
  const view = viewSwfLibrary(doc, doc.file.replace(/^.*[\\/]/, '').replace(/\.swf$/i, ''));
  const name = view.documentClass;
  const data =
    view.binaryByName.get(`${name}_animation`) ?? [...view.binaryByName].find(([n]) => n.endsWith('_animation'))?.[1];
  if (!data) throw new SwfFormatError(doc.file, `document ${name}_animation is missing`);
  return parseEffectAnimationXml(binaryText(data), `${doc.file} (${name}_animation)`);
}
