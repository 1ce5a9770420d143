// The sample kit in the Flash-era layout: what a hotel of the SWF years keeps on disk, written from the
// same models as the Nitro kit (src/samplekit/avatar, src/samplekit/furni):
//
//   gamedata/figuredata.xml, figuremap.xml, HabboAvatarActions.xml, draworder.xml, furnidata.xml
//   gordon/<library>.swf                 figure libraries (hh_human_50_* with positioned sh_ sprites)
//   hof_furni/<revision>/<classname>.swf furni, one SWF per base classname
//
// `hotel-imager sample-kit --layout flash` writes it; `hotel-imager convert` turns it into a Nitro
// folder. Same call → byte-identical files.
import { type AssetLibrary } from '../../formats/asset-library.js';
import { type AvatarActionsDoc, type FigureDataDoc, type FigureMapDoc } from '../../formats/gamedata/figure-types.js';
import { type FurnitureData } from '../../formats/furnidata.js';
import { avatarActionsJson } from '../avatar/actions.js';
import { figureDataJson, figureMapJson } from '../avatar/catalog.js';
import { figureLibraries } from '../avatar/index.js';
import { type KitItem, KIT_ITEMS, furnitureData, generatedSpec, kitNoise } from '../furni/index.js';
import { GeneratedSprites, generatedLibrary } from '../furni/generated.js';
import { type KitFile } from '../kit-file.js';
import { type FurniKitOptions } from '../furni/index.js';
import { figureSwf, smallFigureLibrary } from './figure-swf.js';
import { effectMapXml, effectSwf } from './effect-swf.js';
import { effectLibraries, effectMapJson } from '../avatar/effects.js';
import { furniSwf } from './furni-swf.js';
import { avatarActionsXml, figureDataXml, figureMapXml, furnidataXml } from './gamedata.js';
import { drawOrderXml } from './draworder.js';
import { badgeKitFiles } from '../badge/index.js';

export const flashFurniPath = (classname: string, revision: number) => `hof_furni/${revision}/${classname}.swf`;
export const flashFigurePath = (library: string) => `gordon/${library}.swf`;

const text = (s: string) => Buffer.from(s, 'utf8');

/** The figure side: XML gamedata, then one SWF per figure library in FigureMap order. */
export function avatarFlashFiles(): KitFile[] {
  const files: KitFile[] = [
    { path: 'gamedata/figuredata.xml', data: text(figureDataXml(figureDataJson() as FigureDataDoc)) },
    { path: 'gamedata/figuremap.xml', data: text(figureMapXml(figureMapJson() as FigureMapDoc)) },
    { path: 'gamedata/HabboAvatarActions.xml', data: text(avatarActionsXml(avatarActionsJson() as AvatarActionsDoc)) },
    { path: 'gamedata/draworder.xml', data: text(drawOrderXml()) },
  ];
  for (const { lib, asset } of figureLibraries((lib, full) => smallFigureLibrary(lib.name, full))) {
    files.push({ path: flashFigurePath(lib.name), data: figureSwf(asset) });
  }
  // Effects: effectmap.xml and one SWF per effect library beside the figure libraries.
  files.push({ path: 'gamedata/effectmap.xml', data: text(effectMapXml(effectMapJson())) });
  for (const lib of effectLibraries()) files.push({ path: flashFigurePath(lib.name), data: effectSwf(lib) });
  return files;
}

/** The SWF as the kit ships it: valid, or broken the way the Nitro kit's bundle of that item is broken. */
function itemSwf(it: KitItem, lib: AssetLibrary): Buffer | null {
  switch (it.bundle) {
    case 'missing':
      return null;
    case 'ok':
    case 'gzip': // gzip members are a .nitro matter: the SWF is the ordinary one
      return furniSwf(lib);
    case 'truncated':
    case 'gzip-truncated': {
      const whole = furniSwf(lib);
      return Buffer.from(whole.subarray(0, Math.floor(whole.length / 2)));
    }
    case 'garbage':
      return kitNoise(1021, it.id);
    case 'bad-json':
      // The Flash counterpart of a bundle with half its JSON: a SWF whose assets document is cut in half.
      return furniSwf(lib, {
        damage: (sym, xml) => (sym.endsWith('_assets') ? xml.slice(0, Math.floor(xml.length / 2)) : xml),
      });
  }
}

/** furnidata.xml first, then one SWF per item (hand-made by classname, then generated ones in order). */
export async function* furniFlashStream(opts: FurniKitOptions = {}): AsyncGenerator<KitFile> {
  const extra = opts.extraFurni ?? 0;
  const libs = new Map<string, AssetLibrary>();
  for (const it of KIT_ITEMS) libs.set(it.classname, it.build());
  yield {
    path: 'gamedata/furnidata.xml',
    data: text(furnidataXml(furnitureData(libs, extra) as unknown as FurnitureData)),
  };
  for (const it of [...KIT_ITEMS].sort((a, b) => (a.classname < b.classname ? -1 : 1))) {
    const data = itemSwf(it, libs.get(it.classname)!);
    if (data) yield { path: flashFurniPath(it.classname, it.revision), data };
  }
  const sprites = new GeneratedSprites();
  for (let i = 1; i <= extra; i++) {
    const spec = generatedSpec(i);
    yield { path: flashFurniPath(spec.classname, spec.revision), data: furniSwf(generatedLibrary(spec, sprites)) };
  }
}

/** Every file of the Flash-layout kit: avatar files, then furnidata.xml, then furni SWFs. */
export async function* flashKitStream(opts: FurniKitOptions = {}): AsyncGenerator<KitFile> {
  for (const f of avatarFlashFiles()) yield f;
  for (const f of await badgeKitFiles('flash')) yield f;
  yield* furniFlashStream(opts);
}
