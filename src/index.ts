// The library API of the hotel-imager package (package.json "exports"): a small, stable facade over the
// internals, which may move under it. Four jobs, each with an example (docs/library.md has them all):
// render an avatar from a hotel folder, build a furni corpus, read a .nitro file, read and write a
// furni bundle. Everything here is plain data in and out: Buffers, strings, numbers, plain objects.
import { animationFrameCount, avatarRequest, AvatarRenderError, CONTENT_TYPES, encodeAvatar, loadAvatarHotel, renderAvatar, shownFrames } from './avatar/index.js';
import { runBuild } from './corpus/run.js';
import { type BundleContent, type BundleManifest, type BundleSprite, readBundleManifest, readBundleSprites, writeBundle as writeBundleBytes } from './formats/furni-bundle.js';
import { readNitroBundle } from './formats/nitro-container.js';
import { parseAvatarQuery } from './server/avatar/params.js';
import { readPackageVersion } from './server/build-info.js';

export { AvatarRenderError };
export type { BundleContent, BundleManifest, BundleSprite };
export type { RgbaImage } from './imaging/image.js';

/** The package version (package.json). */
export const version: string = readPackageVersion();

/**
 * An avatar request in the classic imager's parameter names (the ones `/avatar.png` takes; see
 * docs/avatar-service.md, "Parameters"). Only `figure` is required; numbers may be given as numbers.
 */
export interface AvatarParameters {
  figure: string;
  direction?: number | string;
  head_direction?: number | string;
  size?: 's' | 'm' | 'b' | 'l';
  action?: string;
  gesture?: string;
  headonly?: boolean | string;
  animated?: boolean | string;
  frames?: number | string;
  img_format?: 'png' | 'gif';
  frame_num?: number | string;
  effect?: number | string;
  dance?: number | string;
}

/** A rendered avatar: the bytes `/avatar.png` answers for the same parameters. */
export interface AvatarImage {
  /** PNG, APNG (several frames) or GIF bytes. */
  data: Buffer;
  type: 'image/png' | 'image/gif';
  /** Frames in `data` (1 for a still). */
  frames: number;
  width: number;
  height: number;
}

export interface AvatarImagerOptions {
  /** Decoded figure libraries kept in memory, bytes (default 256 MiB). */
  libraryCacheBytes?: number;
}

/** Renders avatars from one hotel folder, in this thread. */
export interface AvatarImager {
  /**
   * Renders one avatar. `params` is an object of the imager's parameters, or a query string as a page
   * would send it (`'figure=hd-180-1&direction=3'`). Rejects with AvatarRenderError when the hotel
   * cannot draw the figure (an unknown set id), and with a TypeError without a figure.
   */
  render(params: AvatarParameters | string): Promise<AvatarImage>;
}

function queryOf(params: AvatarParameters | string): string {
  if (typeof params === 'string') return params.startsWith('?') ? params.slice(1) : params;
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    q.append(name, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
  return q.toString();
}

/**
 * Opens a hotel's avatar assets (Nitro or Flash layout, as `serve avatar --assets` reads them).
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
  const hotel = await loadAvatarHotel(assetsDir, options.libraryCacheBytes !== undefined ? { libraryCacheBytes: options.libraryCacheBytes } : {});
  return {
    async render(params) {
      const parsed = parseAvatarQuery(queryOf(params));
      if (!parsed.ok || parsed.query.identity.kind !== 'figure') throw new TypeError('an avatar needs a figure (user names are looked up by the service, not here)');
      // The same request the service makes for these parameters, so the bytes are the service's.
      const req = avatarRequest(parsed.query.identity.figure, parsed.query.pose, (r) => animationFrameCount(hotel, r));
      const render = shownFrames(await renderAvatar(hotel, req), req.frameNum);
      const format = req.format ?? 'png';
      const data = await encodeAvatar(render, format);
      return { data, type: CONTENT_TYPES[format] as AvatarImage['type'], frames: render.frames.length, width: render.width, height: render.height };
    },
  };
}

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
  onProgress?: (progress: { done: number; total: number; unchanged: number }) => void;
}

export interface BuildCorpusResult {
  layout: 'nitro' | 'flash';
  /** Items built by this run, and items whose inputs had not changed. */
  built: number;
  unchanged: number;
  /** Items by outcome: ok, failed (reported, skipped), skipped (nothing to draw, no furnidata row, …). */
  ok: number;
  failed: number;
  skipped: number;
  /** What the corpus publishes now. */
  renders: number;
  icons: number;
  bundles: number;
  /** Every item that is not ok, with the reason (also in the corpus's build-report.json). */
  problems: { classname: string; status: 'failed' | 'skipped'; reason: string }[];
}

/**
 * Builds (or updates) a furni corpus: what `hotel-imager build` does.
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
 * The files of a `.nitro` file (Nitro's asset container: JSON, PNG spritesheets), by name. A file that
 * is not a .nitro container rejects with an Error naming what is wrong.
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

/** A furni bundle (docs/bundle-format.md): its manifest and its sprites' pixels. */
export interface FurniBundle {
  manifest: BundleManifest;
  /** Sprite name → pixels and offsets; aliases of one image share its RgbaImage. */
  sprites: Map<string, BundleSprite>;
}

/**
 * Reads a furni bundle (`hof_furni/<revision>/<classname>.bundle` of a corpus), checking its CRC.
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
 * @example
 * import { readFile, writeFile } from 'node:fs/promises';
 * import { readBundle, writeBundle } from 'hotel-imager';
 *
 * const bundle = await readBundle(await readFile('throne.bundle'));
 * bundle.manifest.still = { state: 1, direction: 4 };
 * await writeFile('throne-edited.bundle', await writeBundle(bundle));
 */
export async function writeBundle(bundle: { manifest: BundleContent | BundleManifest; sprites: Map<string, BundleSprite> | [string, BundleSprite][] }): Promise<Buffer> {
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
