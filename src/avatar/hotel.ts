// The loaded avatar model of one hotel: figure data, figure map + lazy libraries, actions,
// geometry, part sets and animations (the hotel's own documents when it has them, else built-in).
import {
  indexActions,
  indexAnimations,
  indexPartSets,
  type ActionIndex,
  type AnimationIndex,
  type PartSetIndex,
} from './actions.js';
import { builtinAnimations } from './builtin/animations.js';
import { builtinGeometry } from './builtin/geometry.js';
import { builtinPartSets } from './builtin/partsets.js';
import { indexFigureData, type FigureIndex } from './figure.js';
import { type AvatarDocuments } from '../formats/gamedata/figure-types.js';
import { AvatarGeometry } from './geometry.js';
import {
  createLibraryCaches,
  libraryCacheKey,
  LibraryStore,
  type LibraryCache,
  type LibraryLoader,
  type PartIndex,
} from './library.js';
import { buildEffectIndex, effectMapRows, EffectIndex } from './effects.js';
import { type EffectAnimationJson, type EffectMapDoc } from '../formats/gamedata/effect-types.js';

export interface AvatarHotel {
  layout: 'nitro' | 'flash' | 'memory';
  figure: FigureIndex;
  libraries: LibraryStore;
  actions: ActionIndex;
  partSets: PartSetIndex;
  animations: AnimationIndex;
  geometry: AvatarGeometry;
  /** Libraries position `sh_` sprites themselves, so size s draws them instead of halving `h`. */
  smallSprites: boolean;
  /** Library with the hand items (`h_crr_ri_<id>_…`), when the hotel has one. */
  itemLibrary: string | undefined;
  /** What identifies the data a render reads (see inputs.ts); empty for a hotel built in memory. */
  digests: HotelDigests;
  /** Avatar effects and dances (EffectMap + effect libraries); empty when the hotel has none. */
  effects: EffectIndex;
  /** The effect libraries (sprites read on first use). */
  effectLibraries: LibraryStore;
  /** Where geometry/part sets/animations came from, for /render and docs. */
  sources: {
    geometry: 'hotel' | 'builtin';
    partSets: 'hotel' | 'builtin';
    animations: 'hotel' | 'builtin';
    drawOrder: 'hotel' | 'geometry';
  };
}

/** Content digests of a hotel loaded from files (SHA-256, hex). */
export interface HotelDigests {
  /** The documents every render reads: actions, geometry, part sets, animations, draw order, small sprites. */
  pose: string;
  /** Figure library name → digest of its file. */
  libraries: ReadonlyMap<string, string>;
  /** Effect library name → digest of its file. */
  effectLibraries: ReadonlyMap<string, string>;
}

export interface AvatarHotelInput extends AvatarDocuments {
  layout: AvatarHotel['layout'];
  /** Names of the libraries the hotel has. */
  libraryNames: Iterable<string>;
  loadLibrary: LibraryLoader;
  libraryCacheBytes?: number;
  /** Which libraries hold which parts (see `indexLibraryParts`); without it, only the figure map says. */
  partIndex?: PartIndex;
  smallSprites?: boolean;
  digests?: HotelDigests;
  /**
   * Library caches to share with other hotels of this thread (keyed by digest, so `digests` is needed);
   * without them the hotel has its own, bounded by `libraryCacheBytes`.
   */
  libraryCaches?: { figure: LibraryCache; effect: LibraryCache };
  effects?: {
    map: EffectMapDoc;
    /** Library name → its `animations` block. */
    animations: Map<string, Record<string, EffectAnimationJson>>;
    /** Library name → its asset and alias names: sprites an effect borrows from another effect's library. */
    assetNames?: Map<string, string[]>;
    loadLibrary: LibraryLoader;
  };
}

export function createAvatarHotel(input: AvatarHotelInput): AvatarHotel {
  const available = new Set(input.libraryNames);
  const digests = input.digests ?? { pose: '', libraries: new Map(), effectLibraries: new Map() };
  const shared = input.digests ? input.libraryCaches : undefined;
  const caches = shared ?? createLibraryCaches(input.libraryCacheBytes);
  // Keyed by content: a library whose file did not change between two hotels is the same entry.
  const libraries = new LibraryStore(input.figureMap, available, input.loadLibrary, {
    partIndex: input.partIndex,
    cache: caches.figure,
    cacheKey: shared && ((n) => libraryCacheKey(n, digests.libraries.get(n))),
  });
  const itemLibrary = available.has('hh_human_item')
    ? 'hh_human_item'
    : [...available].find((n) => /(^|_)item$/.test(n) && !n.includes('_50_'));
  const fx = input.effects;
  const effectLibs = new Set(fx ? fx.animations.keys() : []);
  const effects = fx
    ? buildEffectIndex(effectMapRows(fx.map, effectLibs), fx.animations, fx.assetNames)
    : EffectIndex.empty();
  const effectLibraries = new LibraryStore(
    { libraries: [] },
    effectLibs,
    fx?.loadLibrary ?? (async (n) => Promise.reject(new Error(`no effect library ${n}`))),
    {
      cache: caches.effect,
      cacheKey: shared && ((n) => libraryCacheKey(n, digests.effectLibraries.get(n))),
    },
  );
  return {
    layout: input.layout,
    figure: indexFigureData(input.figureData),
    libraries,
    actions: indexActions(input.actions),
    partSets: indexPartSets(input.partSets ?? builtinPartSets()),
    animations: indexAnimations(input.animations ?? builtinAnimations()),
    geometry: new AvatarGeometry(input.geometry ?? builtinGeometry(), input.drawOrder),
    smallSprites: !!input.smallSprites,
    itemLibrary,
    digests,
    effects,
    effectLibraries,
    sources: {
      geometry: input.geometry ? 'hotel' : 'builtin',
      partSets: input.partSets ? 'hotel' : 'builtin',
      animations: input.animations ? 'hotel' : 'builtin',
      drawOrder: input.drawOrder ? 'hotel' : 'geometry',
    },
  };
}
