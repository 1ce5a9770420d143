// The library API of the hotel-imager package (package.json "exports"): a small, stable facade over the
// internals, which may move under it. Four jobs, each with an example (docs/library.md has them all):
// render an avatar from a hotel folder, build a furni corpus, read a .nitro file, read and write a
// furni bundle. Everything here is plain data in and out: Buffers, strings, numbers, plain objects.
import {
  animationFrameCount,
  avatarRequest,
  AvatarRenderError,
  CONTENT_TYPES,
  encodeAvatar,
  loadAvatarHotel,
  renderAvatar,
  requestedOutput,
} from './avatar/index.js';
import { runBuild } from './corpus/run.js';
import {
  type BundleContent,
  type BundleManifest,
  type BundleSprite,
  readBundleManifest,
  readBundleSprites,
  writeBundle as writeBundleBytes,
} from './formats/furni-bundle.js';
import { readNitroBundle } from './formats/nitro-container.js';
import { parseAvatarParameters, parseAvatarQuery } from './core/avatar/params.js';
import { readPackageVersion } from './http/build-info.js';

export { AvatarRenderError };
export type { BundleContent, BundleManifest, BundleSprite };
export type { RgbaImage } from './imaging/image.js';

/**
 * The package version, as package.json states it.
 *
 * @example
 * import { version } from 'hotel-imager';
 *
 * console.log(`hotel-imager ${version}`); // "hotel-imager 0.1.0"
 */
export const version: string = readPackageVersion();

/**
 * An avatar request in the classic imager's parameter names (the ones `/avatar.png` takes; see
 * docs/avatar-service.md, "Parameters"). Only `figure` is required; numbers may be given as numbers,
 * switches as booleans. A value the service would ignore is ignored here too.
 *
 * @example
 * const params: AvatarParameters = { figure: 'hd-180-1.ch-210-66', direction: 3, action: 'wav', animated: true };
 */
export interface AvatarParameters {
  /** The figure string (`hd-180-1.ch-210-66…`), at most 4 KiB. */
  figure: string;
  /** Body direction 0-7 (wraps: 9 is 1); default 2. */
  direction?: number | string;
  /** Head direction 0-7; default the body's. */
  head_direction?: number | string;
  /** s (half of m), m, b (same as m), l (double, the default when absent); any other value is m. */
  size?: 's' | 'm' | 'b' | 'l';
  /** Comma-separated actions: `wav`, `sit`, `lay`, `crr=<item id>`, `dance.1`…; unknown ones are dropped. */
  action?: string;
  /** `sml`, `sad`, `agr`, `srp`, `spk`, `eyb`; anything else is none. */
  gesture?: string;
  /** The head alone. */
  headonly?: boolean | string;
  /** The pose's loop as an APNG (or GIF) instead of its still. */
  animated?: boolean | string;
  /** Caps the frames of the loop. */
  frames?: number | string;
  /** `gif` for GIF bytes; PNG otherwise. */
  img_format?: 'png' | 'gif';
  /** One frame (0-based) of the loop, as a still. */
  frame_num?: number | string;
  /** An avatar effect id of the hotel's EffectMap. */
  effect?: number | string;
  /** A dance, 1-4. */
  dance?: number | string;
}

/**
 * A rendered avatar: the bytes `/avatar.png` answers for the same parameters.
 *
 * @example
 * const { data, type, frames } = await imager.render({ figure: 'hd-180-1', action: 'wav', animated: true });
 * // type === 'image/png', frames === 2: `data` is an APNG
 */
export interface AvatarImage {
  /** PNG, APNG (several frames) or GIF bytes. */
  data: Buffer;
  /** The content type of `data`. */
  type: 'image/png' | 'image/gif';
  /** Frames in `data` (1 for a still). */
  frames: number;
  /** Canvas width in pixels (64 for a size-m body). */
  width: number;
  /** Canvas height in pixels (110 for a size-m body). */
  height: number;
}

/**
 * How openAvatarImager keeps the hotel's figure libraries.
 *
 * @example
 * const imager = await openAvatarImager('/srv/hotel', { libraryCacheBytes: 64 * 1024 * 1024 });
 */
export interface AvatarImagerOptions {
  /** Decoded figure libraries kept in memory, bytes (default 256 MiB). */
  libraryCacheBytes?: number;
}

/** Renders avatars from one hotel folder, in this thread. Made by openAvatarImager. */
export interface AvatarImager {
  /**
   * Renders one avatar.
   *
   * @param params - The imager's parameters as an object, or a query string as a page would send it
   *   (`'figure=hd-180-1&direction=3'`, a leading `?` allowed).
   * @returns The image's bytes, type, frame count and size: what `/avatar.png` answers for them.
   * @throws AvatarRenderError (rejects) when the hotel cannot draw the figure; its `code` says why
   *   (`unknown-set`, `bad-figure`, `asset-load`, …).
   * @throws TypeError (rejects) without a figure, or with a figure over 4 KiB; `user=` is not looked up here.
   *
   * @example
   * const still = await imager.render({ figure: 'hd-180-1.ch-210-66', direction: 3 });
   * const wave = await imager.render('figure=hd-180-1.ch-210-66&action=wav&animated=1');
   */
  render(params: AvatarParameters | string): Promise<AvatarImage>;
}

/**
 * The parameters' meaning, as the service gives it to the same values (an object is never turned into a query string).
 */
function parseParameters(params: AvatarParameters | string) {
  if (typeof params === 'string') return parseAvatarQuery(params.startsWith('?') ? params.slice(1) : params);
  const values = new Map<string, string>();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    values.set(name, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
  return parseAvatarParameters(values);
}

/**
 * Opens a hotel's avatar assets (Nitro or Flash layout, as `serve avatar --assets` reads them).
 *
 * @param assetsDir - The hotel's asset folder (Nitro: `gamedata/` + `bundled/figure/`; Flash: the
 *   figure XML files and SWFs).
 * @param options - How many bytes of decoded libraries to keep (AvatarImagerOptions).
 * @returns An AvatarImager whose `render` draws with this hotel; libraries load on first use.
 * @throws Error (rejects) when the folder holds no avatar data it can read, naming the file and why.
 *
 * @example
 * import { writeFile } from 'node:fs/promises';
 * import { openAvatarImager } from 'hotel-imager';
 *
 * const imager = await openAvatarImager('/srv/hotel');
 * const still = await imager.render({ figure: 'hd-180-1.ch-210-66.lg-270-82.sh-290-80', direction: 3, size: 'm' });
 * await writeFile('avatar.png', still.data);
 * const wave = await imager.render('figure=hd-180-1.ch-210-66&action=wav&animated=1'); // APNG
 * const gif = await imager.render({ figure: 'hd-180-1.ch-210-66', action: 'wav', img_format: 'gif' });
 */
export async function openAvatarImager(assetsDir: string, options: AvatarImagerOptions = {}): Promise<AvatarImager> {
  const hotel = await loadAvatarHotel(
    assetsDir,
    options.libraryCacheBytes !== undefined ? { libraryCacheBytes: options.libraryCacheBytes } : {},
  );
  return {
    async render(params) {
      const parsed = parseParameters(params);
      if (!parsed.ok) throw new TypeError(parsed.reason.trim());
      if (parsed.query.identity.kind !== 'figure')
        throw new TypeError('an avatar needs a figure (user names are looked up by the service, not here)');
      // The same request the service makes for these parameters, so the bytes are the service's. An animated
      // request's pose is planned twice, to count its loop and then to draw: the settled request may differ
      // from the one counted (a loop of one frame becomes the still), and a plan costs tens of µs beside the
      // render's milliseconds.
      const req = avatarRequest(parsed.query.identity.figure, parsed.query.pose, (r) => animationFrameCount(hotel, r));
      const render = requestedOutput(await renderAvatar(hotel, req), req);
      const format = req.format ?? 'png';
      const data = await encodeAvatar(render, format);
      return {
        data,
        type: CONTENT_TYPES[format] as AvatarImage['type'],
        frames: render.frames.length,
        width: render.width,
        height: render.height,
      };
    },
  };
}

/**
 * What buildCorpus builds, from where, and how (the flags of `hotel-imager build`).
 *
 * @example
 * const options: BuildCorpusOptions = { assets: '/srv/hotel', out: '/srv/furni-corpus', only: ['throne'], jobs: 1 };
 */
export interface BuildCorpusOptions {
  /** The hotel asset folder (Nitro: gamedata/ + bundled/furniture/; Flash: gamedata/ + hof_furni/). */
  assets: string;
  /** The corpus folder to write (created; an existing corpus is updated incrementally). */
  out: string;
  /** Build only these classnames; the rest of the corpus is kept. */
  only?: string[];
  /** Worker threads (default: one per core; 1 builds in this thread). */
  jobs?: number;
  /** Also write the reserved variant names (contract F2.6): all, the animated ones, or none (default). */
  variants?: 'all' | 'animated' | 'none';
  /** The furnidata file, when it is not where the layout keeps it. */
  furnidata?: string;
  /** The folder of furni asset files, when it is not where the layout keeps it. */
  furniDir?: string;
  /**
   * Go on when the build would unpublish more than 10 % of the stills, or stills whose asset file is
   * still there (what `--allow-shrink` does); without it such a build rejects and changes nothing.
   */
  allowShrink?: boolean;
  /** Called as items finish: items done of the total, of which unchanged (not rebuilt). */
  onProgress?: (progress: { done: number; total: number; unchanged: number }) => void;
}

/**
 * What a buildCorpus run did and what the corpus publishes after it.
 *
 * @example
 * const { renders, failed, problems } = await buildCorpus({ assets: '/srv/hotel', out: '/srv/furni-corpus' });
 */
export interface BuildCorpusResult {
  /** The asset layout that was found. */
  layout: 'nitro' | 'flash';
  /** Items built by this run. */
  built: number;
  /** Items kept as they were, their inputs unchanged. */
  unchanged: number;
  /** Items that are ok, built by this run or unchanged. */
  ok: number;
  /** Items that failed to build: reported in `problems` and left out. */
  failed: number;
  /** Items with nothing to build (nothing to draw, no furnidata row, …), also in `problems`. */
  skipped: number;
  /** Rendered stills the corpus publishes now. */
  renders: number;
  /** Catalogue icons the corpus publishes now. */
  icons: number;
  /** Furni bundles the corpus publishes now. */
  bundles: number;
  /** Every item that is not ok, with the reason (also in the corpus's build-report.json). */
  problems: { classname: string; status: 'failed' | 'skipped'; reason: string }[];
}

/**
 * Builds (or updates) a furni corpus: what `hotel-imager build` does. Incremental (unchanged items are
 * kept) and atomic (a run stopped at any point leaves the previous corpus servable).
 *
 * @param options - Where the assets are, where the corpus goes, and how to build (BuildCorpusOptions).
 * @returns Counts of this run and of the corpus, and every item that is not ok with the reason.
 *   A broken item is reported in `problems`, never thrown.
 * @throws Error (rejects) when the build cannot run at all: no furnidata, an assets folder that is not
 *   a hotel, an output folder that cannot be written.
 *
 * @example
 * import { buildCorpus } from 'hotel-imager';
 *
 * const result = await buildCorpus({ assets: '/srv/hotel', out: '/srv/furni-corpus', jobs: 2 });
 * console.log(`${result.renders} renders, ${result.failed} items failed`);
 * for (const p of result.problems) console.log(p.status, p.classname, p.reason);
 */
export async function buildCorpus(options: BuildCorpusOptions): Promise<BuildCorpusResult> {
  const s = await runBuild({ ...options });
  const c = s.report.counts;
  return {
    layout: s.layout as 'nitro' | 'flash',
    built: s.rebuilt,
    unchanged: s.unchanged,
    ok: c.ok,
    failed: c.failed,
    skipped: c.skipped,
    renders: s.corpus.counts.renders,
    icons: s.corpus.counts.icons,
    bundles: s.corpus.counts.bundles,
    problems: Object.entries(s.report.items)
      .filter(([, e]) => e.status !== 'ok')
      .map(([classname, e]) => ({ classname, status: e.status as 'failed' | 'skipped', reason: e.reason ?? '' })),
  };
}

/**
 * The files of a `.nitro` file (Nitro's asset container: JSON, PNG spritesheets), by name.
 *
 * @param bytes - The whole `.nitro` file.
 * @param name - Named in error messages (default `<buffer>`).
 * @returns File name → its inflated bytes.
 * @throws Error (a NitroBundleError) naming `name`, the byte offset and what is wrong, when the bytes
 *   are not a .nitro container (truncated, a file that does not inflate, trailing bytes).
 *
 * @example
 * import { readFile } from 'node:fs/promises';
 * import { readNitro } from 'hotel-imager';
 *
 * const files = readNitro(await readFile('/srv/hotel/bundled/furniture/throne.nitro'));
 * const asset = JSON.parse(files.get('throne.json')!.toString());
 * console.log([...files.keys()], asset.name);
 */
export function readNitro(bytes: Uint8Array, name = '<buffer>'): Map<string, Buffer> {
  return readNitroBundle(bytes, name);
}

/**
 * A furni bundle (docs/bundle-format.md): its manifest and its sprites' pixels.
 *
 * @example
 * const bundle: FurniBundle = await readBundle(bytes);
 * const { width, height } = bundle.sprites.values().next().value!.image;
 */
export interface FurniBundle {
  /** Everything a client needs to draw and animate the item: sizes, layers, directions, states. */
  manifest: BundleManifest;
  /** Sprite name → pixels and offsets; aliases of one image share its RgbaImage. */
  sprites: Map<string, BundleSprite>;
}

/**
 * Reads a furni bundle (`hof_furni/<revision>/<classname>.bundle` of a corpus), checking its CRC.
 *
 * @param bytes - The whole bundle file.
 * @param name - Named in error messages (default `<buffer>`).
 * @returns Its manifest and its sprites, decoded from the atlas.
 * @throws Error (rejects) naming `name` and what is wrong: a bad header or CRC, an unsupported version,
 *   a manifest or atlas that does not decode.
 *
 * @example
 * import { readFile } from 'node:fs/promises';
 * import { readBundle } from 'hotel-imager';
 *
 * const bundle = await readBundle(await readFile('/srv/furni-corpus/hof_furni/1/throne.bundle'));
 * console.log(bundle.manifest.classname, Object.keys(bundle.manifest.states), bundle.sprites.size);
 */
export async function readBundle(bytes: Uint8Array, name = '<buffer>'): Promise<FurniBundle> {
  const { header, manifest, atlasBytes } = readBundleManifest(bytes, name);
  return { manifest, sprites: await readBundleSprites(manifest, atlasBytes, header, name) };
}

/**
 * Writes a furni bundle: deterministic bytes for the same content. The manifest's `format`, `atlas` and
 * sprite rectangles are made by the writer (the sprites are packed into a new atlas); a bundle read with
 * readBundle and written back gives the same bytes.
 *
 * @param bundle - A manifest (as read, or its content alone) and the sprites, as a Map or entries.
 * @returns The bundle file's bytes.
 * @throws Error (rejects) when the sprites cannot be packed or encoded (an atlas larger than WebP allows).
 *
 * @example
 * import { readFile, writeFile } from 'node:fs/promises';
 * import { readBundle, writeBundle } from 'hotel-imager';
 *
 * const bundle = await readBundle(await readFile('throne.bundle'));
 * bundle.manifest.still = { state: 1, direction: 4 };
 * await writeFile('throne-edited.bundle', await writeBundle(bundle));
 */
export async function writeBundle(bundle: {
  manifest: BundleContent | BundleManifest;
  sprites: Map<string, BundleSprite> | [string, BundleSprite][];
}): Promise<Buffer> {
  const m = bundle.manifest;
  const content: BundleContent = {
    classname: m.classname,
    logicType: m.logicType,
    visualizationType: m.visualizationType,
    logic: m.logic,
    sizes: m.sizes,
    cl: m.cl,
    states: m.states,
    transitions: m.transitions,
    still: m.still,
  };
  return writeBundleBytes(content, [...bundle.sprites]);
}
