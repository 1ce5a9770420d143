// A kit figure library → the figure SWF a Flash-era hotel keeps in gordon/: a `<lib>_manifest`
// document listing every asset with its offset (`<param key="offset" value="x,y"/>`), each sprite as
// DefineBitsLossless2 named `<lib>_<assetname>`, and assets that share a sprite (`source` in the Nitro
// bundle) as extra SymbolClass names of the same bitmap, as the Flash exporters wrote them.
import { type AssetLibrary } from '../../formats/asset-library.js';
import { type NitroAssetEntry } from '../../formats/nitro-asset-types.js';
import { writeSwf } from '../../formats/swf/writer.js';
import { type RgbaImage } from '../../imaging/image.js';
import { halve } from '../avatar/raster.js';
import { losslessBitmap } from './furni-swf.js';
import { el, xmlDocument } from './xml.js';

export function figureManifest(lib: AssetLibrary): string {
  const assets = Object.entries(lib.data.assets ?? {}).map(([name, a]) =>
    el(
      'asset',
      [
        ['name', name],
        ['mimeType', 'image/png'],
      ],
      a.x === undefined && a.y === undefined
        ? []
        : [
            el('param', [
              ['key', 'offset'],
              ['value', `${a.x ?? 0},${a.y ?? 0}`],
            ]),
          ],
    ),
  );
  // Aliases (effect libraries have them: `h_std_sh_fx6_1_2_0` → `h_std_fx6_1_1_2_0`), as the manifests of real SWFs
  // list them.
  const aliases = Object.entries(lib.data.aliases ?? {}).map(([name, a]) =>
    el('alias', [
      ['name', name],
      ['link', a.link],
      ['fliph', a.flipH ? '1' : undefined],
    ]),
  );
  const kids = [el('assets', [], assets), ...(aliases.length ? [el('aliases', [], aliases)] : [])];
  return xmlDocument(
    el(
      'manifest',
      [],
      [
        el(
          'library',
          [
            ['name', lib.name],
            ['version', '0.1'],
          ],
          kids,
        ),
      ],
    ),
  );
}

export function figureSwf(lib: AssetLibrary): Buffer {
  const name = lib.name;
  const holders = [...lib.sprites.keys()].sort();
  const idOf = new Map(holders.map((n, i) => [n, i + 1]));
  const symbols: { id: number; name: string }[] = holders.map((n) => ({ id: idOf.get(n)!, name: `${name}_${n}` }));
  for (const [assetName, a] of Object.entries(lib.data.assets ?? {})) {
    if (a.source === undefined || a.source === assetName) continue;
    const id = idOf.get(a.source);
    if (id === undefined) throw new Error(`${name}: asset ${assetName} names ${a.source}, which has no sprite`);
    symbols.push({ id, name: `${name}_${assetName}` });
  }
  const manifestId = holders.length + 1;
  symbols.push({ id: manifestId, name: `${name}_manifest` }, { id: 0, name });
  return writeSwf(
    {
      bitmaps: holders.map((n) => losslessBitmap(idOf.get(n)!, lib.sprites.get(n)!)),
      binaries: [{ id: manifestId, data: figureManifest(lib) }],
      symbols,
    },
    'zlib',
  );
}

/**
 * The std sprites a Flash hotel's `hh_human_50_*` libraries hold at the small scale (body, head, hands, face, eyes).
 */
const SMALL_SPRITE = /^h_std_(bd|hd|lh|rh|fc|ey)_\d+_[0-7]_0$/;

/**
 * The small (`sh_`) library of a Flash hotel: the same std sprites as the Nitro kit's `hh_human_50_*`
 * bundles (the `h` sprites halved), but positioned, as in real Flash SWFs: offset = the `h` offset
 * halved, rounded up, so the doubled small sprite lands within a pixel of the `h` one.
 */
export function smallFigureLibrary(name: string, full: AssetLibrary): AssetLibrary {
  const sprites = new Map<string, RgbaImage>();
  const assets: Record<string, NitroAssetEntry> = {};
  for (const [n, img] of full.sprites) {
    if (!SMALL_SPRITE.test(n)) continue;
    const h = full.data.assets?.[n];
    if (!h || h.x === undefined || h.y === undefined) throw new Error(`${full.name}: ${n} has no offset`);
    sprites.set(`s${n}`, halve(img));
    assets[`s${n}`] = { x: Math.ceil(h.x / 2), y: Math.ceil(h.y / 2) };
  }
  return { name, data: { name, assets }, sprites };
}
