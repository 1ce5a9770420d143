// Building one item: the asset file of a base classname → its published files (a still per classname
// and colour row, the catalogue icon, the bundle) and a result per classname. No file I/O here.
import { type AssetLibrary } from '../formats/asset-library.js';
import { writeFurniBundle } from '../furni/bundle.js';
import { furniModelFromLibrary, sizeOf, type FurniModel } from '../furni/model.js';
import { renderRoom, renderIcon, chooseStill, ROOM_SIZE } from '../furni/render.js';
import { encodePngCompact } from '../imaging/png-compact.js';
import { encodeVariant, frameCountOf, renderVariant, sizeOffer } from '../furni/variant.js';
import { variantFileName, type VariantRequest } from '../furni/variant-name.js';

export type ItemStatus = 'ok' | 'failed' | 'skipped';

export interface ClassnameResult {
  classname: string;
  status: ItemStatus;
  /** Why it failed or was skipped. */
  reason?: string;
  /** Things worth knowing that are not failures (no icon, colour id not in the table…). */
  notes?: string[];
  state?: number;
  direction?: number;
}

export interface ItemTask {
  /** Base classname (no `*n`). */
  base: string;
  revision: number;
  /** Colour ids of the `<base>*<n>` rows to publish. */
  variants: number[];
  /** Whether furnidata has a row for the base classname itself (reported; the base still is published either way). */
  baseRow: boolean;
  /** Absolute path of the asset file (.nitro or .swf). */
  assetFile: string;
  layout: 'nitro' | 'flash';
  /** `build --variants`: also publish the reserved names (contract F2.6), every one or the animated ones. */
  prerender?: 'all' | 'animated';
}

export interface ItemOutput {
  /** Path relative to the corpus directory. */
  path: string;
  bytes: Buffer;
}

export const rendersDir = 'furni-renders';
export const thumbsDir = 'catalog-thumbs';
export const bundlesDir = 'hof_furni';

export function renderPath(classname: string): string {
  return `${rendersDir}/${classname}.png`;
}
export function thumbPath(base: string): string {
  return `${thumbsDir}/${base}.png`;
}
export function bundlePath(revision: number, base: string): string {
  return `${bundlesDir}/${revision}/${base}.bundle`;
}

/**
 * The classnames an item publishes stills for: the base and its colour rows. The base is published even
 * when furnidata lists only `<base>*<n>` rows, because clients fall back to it on a variant 404 (contract F2.2).
 */
export function taskClassnames(task: ItemTask): string[] {
  return [task.base, ...task.variants.map((n) => `${task.base}*${n}`)];
}

export type LibraryLoader = (bytes: Uint8Array, file: string) => Promise<AssetLibrary>;

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export type BundleWriter = (model: FurniModel) => Promise<Buffer>;

export async function buildItem(
  task: ItemTask,
  assetBytes: Uint8Array,
  load: LibraryLoader,
  writeBundle: BundleWriter = writeFurniBundle,
): Promise<{ outputs: ItemOutput[]; results: ClassnameResult[] }> {
  const classnames = taskClassnames(task);
  let lib: AssetLibrary;
  try {
    lib = await load(assetBytes, task.assetFile);
  } catch (e) {
    const reason = `asset file unreadable: ${message(e)}`;
    return { outputs: [], results: classnames.map((classname) => ({ classname, status: 'failed', reason })) };
  }
  const outputs: ItemOutput[] = [];
  const results: ClassnameResult[] = [];
  let model;
  try {
    model = furniModelFromLibrary(lib);
  } catch (e) {
    const reason = `asset data invalid: ${message(e)}`;
    return { outputs: [], results: classnames.map((classname) => ({ classname, status: 'failed', reason })) };
  }
  const room = sizeOf(model, ROOM_SIZE);
  const still = chooseStill(model);
  // The base classname is colour 0, as the client treats a classname without `*n`.
  const colours: [string, number][] = [
    [task.base, 0],
    ...task.variants.map((n): [string, number] => [`${task.base}*${n}`, n]),
  ];
  for (const [classname, colorId] of colours) {
    try {
      if (!room) {
        results.push({ classname, status: 'skipped', reason: 'empty render: no size-64 visualization' });
        continue;
      }
      const r = renderRoom(model, { colorId });
      if (!r.image) {
        results.push({
          classname,
          status: 'skipped',
          reason: 'empty render: nothing visible at size 64',
          state: r.state,
          direction: r.direction,
        });
        continue;
      }
      outputs.push({ path: renderPath(classname), bytes: encodePngCompact(r.image) });
      const res: ClassnameResult = { classname, status: 'ok', state: r.state, direction: r.direction };
      if (classname === task.base && !task.baseRow)
        res.notes = [
          'no furnidata row for the base classname: its still is colour 0, published as the fallback for variant 404s',
        ];
      if (classname !== task.base && room.colors[String(colorId)] === undefined)
        res.notes = [`colour ${colorId} is not in the colour table: drawn untinted`];
      results.push(res);
    } catch (e) {
      results.push({ classname, status: 'failed', reason: `render failed: ${message(e)}` });
    }
  }
  const base = results[0]!;
  try {
    const icon = renderIcon(model, 0);
    if (icon) outputs.push({ path: thumbPath(task.base), bytes: encodePngCompact(icon) });
    else (base.notes ??= []).push('no icon: no drawable size-1 icon layer');
  } catch (e) {
    (base.notes ??= []).push(`icon failed: ${message(e)}`);
  }
  // The bundle is what clients animate from: an item without one is failed as a whole and publishes
  // none of its new files (its still and icon would otherwise go out with no bundle behind them).
  try {
    outputs.push({ path: bundlePath(task.revision, task.base), bytes: await writeBundle(model) });
  } catch (e) {
    const reason = `bundle failed: ${message(e)}`;
    return { outputs: [], results: classnames.map((classname) => ({ classname, status: 'failed', reason })) };
  }
  if (still && base.status === 'ok') {
    base.state = still.state;
    base.direction = still.direction;
  }
  if (task.prerender) {
    for (const [classname, colorId] of colours) {
      const res = results.find((r) => r.classname === classname);
      if (res?.status !== 'ok') continue;
      try {
        for (const v of prerenderedVariants(model, task.prerender)) {
          const out = renderVariant(model, colorId, v);
          if (out.ok)
            outputs.push({
              path: `${rendersDir}/${variantFileName(classname, v)}`,
              bytes: await encodeVariant(out.picture, v.animated),
            });
        }
      } catch (e) {
        (res.notes ??= []).push(`variants failed: ${message(e)}`);
      }
    }
  }
  return { outputs, results };
}

/**
 * The reserved names `build --variants` publishes for one classname, so a plain file server answers what
 * `serve furni --variants` would: every size (64; 32), state (auto or each) and direction (auto or each),
 * each distinct frame as a PNG and the loop as an APNG (`all`), or only where the loop has more than one
 * frame (`animated`). The default still itself (size 64, auto, frame 0) is not a variant.
 */
export function prerenderedVariants(model: FurniModel, mode: 'all' | 'animated'): VariantRequest[] {
  const out: VariantRequest[] = [];
  for (const size of [64, 32] as const) {
    const offer = sizeOffer(model, size);
    if (!offer) continue;
    for (const state of [undefined, ...offer.states]) {
      for (const direction of [undefined, ...offer.directions]) {
        const frames = frameCountOf(model, offer, state ?? offer.autoState, direction ?? offer.autoDirection);
        if (mode === 'animated' && frames < 2) continue;
        const pin = { ...(state !== undefined ? { state } : {}), ...(direction !== undefined ? { direction } : {}) };
        for (let frame = 0; frame < frames; frame++) {
          if (size === 64 && state === undefined && direction === undefined && frame === 0) continue;
          out.push({ size, ...pin, frame, animated: false });
        }
        out.push({ size, ...pin, frame: 0, animated: true });
      }
    }
  }
  return out;
}
