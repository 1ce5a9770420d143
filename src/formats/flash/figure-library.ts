// Figure SWF (hh_human_body, clothing libraries, hh_human_50_* small sprites) → AssetLibrary shaped like
// a Nitro figure bundle: assets{name:{x,y[,source]}} from the manifest offsets, aliases, sprites.
import { type AssetLibrary } from '../asset-library.js';
import { type RgbaImage } from '../../imaging/image.js';
import { type NitroAssetData, type NitroAssetEntry } from '../nitro-asset-types.js';
import { type SwfDocument, readSwf } from '../swf/reader.js';
import { SwfFormatError } from '../swf/swf-error.js';
import { child, childrenNamed, parseXml } from '../xml/xml-tree.js';
import { binaryText, resolveImages, viewSwfLibrary } from './swf-library.js';

export interface FigureSwfOptions {
  /**
   * Drop the small-scale `sh_` assets and sprites as nitro-converter does. Default false: the library keeps
   * them, so small avatars rendered from SWF (or from our converted bundles) use the real small sprites.
   */
  dropSmallScale?: boolean;
}

export interface FigureAlias {
  link?: string;
  flipH?: boolean;
  flipV?: boolean;
}

export async function readFigureSwf(swf: Uint8Array, file: string, opts: FigureSwfOptions = {}): Promise<AssetLibrary> {
  return figureLibraryFromSwf(await readSwf(swf, file), opts);
}

/**
 * Checks a figure SWF without decoding a bitmap: the header, the compressed body, the tags and the
 * `<name>_manifest` document (what a hotel checks of every library when it loads). Throws what is wrong.
 */
export async function checkFigureSwf(swf: Uint8Array, file: string): Promise<void> {
  figureLibraryFromSwf(await readSwf(swf, file, { images: false }));
}

export function figureLibraryFromSwf(doc: SwfDocument, opts: FigureSwfOptions = {}): AssetLibrary {
  const view = viewSwfLibrary(doc, doc.file.replace(/^.*[\\/]/, '').replace(/\.swf$/i, ''));
  const name = view.documentClass;
  const kept = (n: string) => !(opts.dropSmallScale && n.startsWith('sh_'));
  const manifestData =
    view.binaryByName.get(`${name}_manifest`) ?? [...view.binaryByName].find(([n]) => n.endsWith('_manifest'))?.[1];
  if (!manifestData) throw new SwfFormatError(doc.file, `document ${name}_manifest is missing`);
  const manifest = parseXml(binaryText(manifestData), 'figure swf', `${doc.file} (${name}_manifest)`);
  const library = child(manifest, 'library') ?? manifest;
  const images = resolveImages(view, kept);

  const data: NitroAssetData = { name };
  const assetList = childrenNamed(child(library, 'assets'), 'asset');
  if (assetList.length) {
    const assets: Record<string, NitroAssetEntry> = {};
    for (const a of assetList) {
      const assetName = a.attrs.name;
      if (assetName === undefined || !kept(assetName)) continue;
      if (a.attrs.mimeType !== undefined && a.attrs.mimeType !== 'image/png') continue; // documents, not images
      const asset: NitroAssetEntry = {};
      const offset = childrenNamed(a, 'param').find((p) => p.attrs.key === 'offset')?.attrs.value;
      if (offset !== undefined) {
        const [x, y] = offset.split(',').map((v) => parseInt(v, 10));
        if (!Number.isNaN(x)) asset.x = x;
        if (!Number.isNaN(y)) asset.y = y;
      }
      const source = images.sourceOf.get(assetName);
      if (source !== undefined) asset.source = source;
      assets[assetName] = asset;
    }
    data.assets = assets;
  }
  const aliasList = childrenNamed(child(library, 'aliases'), 'alias');
  if (aliasList.length) {
    const aliases: Record<string, FigureAlias> = {};
    for (const a of aliasList) {
      if (a.attrs.name === undefined) continue;
      if (a.attrs.link !== undefined && !kept(a.attrs.link)) continue;
      const alias: FigureAlias = {};
      if (a.attrs.link !== undefined) alias.link = a.attrs.link;
      if (a.attrs.fliph !== undefined) alias.flipH = a.attrs.fliph === '1';
      if (a.attrs.flipv !== undefined) alias.flipV = a.attrs.flipv === '1';
      aliases[a.attrs.name] = alias;
    }
    data.aliases = aliases;
  }
  const sprites = new Map<string, RgbaImage>();
  for (const key of [...images.imageOf.keys()].sort()) if (kept(key)) sprites.set(key, images.imageOf.get(key)!);
  return { name, data, sprites };
}
