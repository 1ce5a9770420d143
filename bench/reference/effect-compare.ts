// The pure parts of `compare:effects` (bench/compare-effects.ts): how close two renders are (the
// premultiplied verdict of pixels.ts plus the IoU of what each draws), the light test for additive
// sprites, and the table by cause.
import { type RgbaImage } from '../../src/imaging/image.js';
import { comparePremultiplied, TOLERANCE, type PixelDiff } from './pixels.js';
import { textTable } from './report.js';

/** Intersection over union of the drawn pixels (alpha > 0) of two same-size images; 1 when neither draws. */
export function maskIoU(a: RgbaImage, b: RgbaImage): number {
  if (a.width !== b.width || a.height !== b.height) return 0;
  let both = 0;
  let either = 0;
  for (let i = 3; i < a.data.length; i += 4) {
    const x = a.data[i]! > 0;
    const y = b.data[i]! > 0;
    if (x && y) both++;
    if (x || y) either++;
  }
  return either === 0 ? 1 : both / either;
}

export type Band = 'identical' | 'within ±3' | 'IoU ≥ 0.98' | 'IoU 0.90–0.98' | 'IoU < 0.90';
export const BANDS: Band[] = ['identical', 'within ±3', 'IoU ≥ 0.98', 'IoU 0.90–0.98', 'IoU < 0.90'];
const DIFFERING_BANDS: Band[] = BANDS.slice(2);

/** Where a case falls: the verdict when it is not differing, else its mask IoU band. */
export function bandOf(diff: PixelDiff, iou: number): Band {
  if (diff.verdict === 'identical') return 'identical';
  if (diff.verdict === 'within') return 'within ±3';
  return iou >= 0.98 ? 'IoU ≥ 0.98' : iou >= 0.9 ? 'IoU 0.90–0.98' : 'IoU < 0.90';
}

/**
 * ±4 for light: each imager stores a light added over a half-transparent pixel as straight 8-bit colour at
 * its own alpha, and the reference clamps a channel at 255 before dividing by its alpha, so the same light
 * can come back one step further apart than the ±3 of two plain renders.
 */
export const LIGHT_TOLERANCE = TOLERANCE + 1;

/**
 * The two renders composed over a black floor (premultiplied colour only, alpha dropped), compared: for
 * additive (ink 33) sprites over nothing, each imager stores the light differently (ours: alpha = the
 * sprite's brightest channel; the effect reference: alpha = the brightest channel of the sum), but what
 * a light adds is its premultiplied colour, so the same light is the same picture on black.
 */
export function sameOverBlack(a: RgbaImage, b: RgbaImage, tolerance = LIGHT_TOLERANCE): boolean {
  if (a.width !== b.width || a.height !== b.height) return false;
  for (let i = 0; i < a.data.length; i += 4) {
    const aa = a.data[i + 3]!;
    const ba = b.data[i + 3]!;
    for (let c = 0; c < 3; c++) {
      const d = Math.abs(Math.round((a.data[i + c]! * aa) / 255) - Math.round((b.data[i + c]! * ba) / 255));
      if (d > tolerance) return false;
    }
  }
  return true;
}

/**
 * `ours` with the pixels the effect reference's body canvas cannot show taken from `ref`: the reference
 * composes the avatar image on its own 64×110 canvas (nitro-imager's vertical geometry, registration 10 px
 * above its bottom) and moves it by the effect's avatar offset (dx, dy), so a lifted avatar loses what
 * hangs more than 10 px below its registration (skates, a UFO's hull, a snowboard); the client's avatar
 * image is 90×130 (HabboAvatarGeometry, 16 px below). `body` is our render of the avatar alone: only its
 * pixels outside the moved canvas are taken over. Returns undefined when there is none.
 */
export function withoutCutBody(
  ours: RgbaImage,
  ref: RgbaImage,
  body: RgbaImage,
  dx: number,
  dy: number,
): RgbaImage | undefined {
  let cut = 0;
  const out = { width: ours.width, height: ours.height, data: Uint8Array.from(ours.data) } as RgbaImage;
  for (let y = 0; y < ours.height; y++) {
    for (let x = 0; x < ours.width; x++) {
      if (x >= dx && x < 64 + dx && y >= dy && y < 110 + dy) continue;
      const i = (y * ours.width + x) * 4;
      if (body.data[i + 3] === 0) continue;
      out.data.set(ref.data.subarray(i, i + 4), i);
      cut++;
    }
  }
  return cut > 0 ? out : undefined;
}

export interface EffectCase {
  effect: string;
  library: string;
  direction: number;
  tick: number;
  verdict: PixelDiff['verdict'];
  differingPixels: number;
  maxDelta: number;
  iou: number;
  band: Band;
  /** Differing cases: the checked cause, or `unexplained`. */
  cause?: string;
}

export const UNEXPLAINED = 'unexplained';

/**
 * The table by cause: a row per verdict that needs no cause (identical, within ±3), a row per cause of the
 * differing cases (most cases first), `unexplained` last; columns: cases and the IoU bands.
 */
export function causeTable(cases: EffectCase[]): string {
  const rows: (string | number)[][] = [];
  const bandCounts = (cs: EffectCase[]) => DIFFERING_BANDS.map((b) => cs.filter((c) => c.band === b).length || '');
  for (const v of ['identical', 'within'] as const) {
    const n = cases.filter((c) => c.verdict === v).length;
    rows.push([v === 'within' ? 'within ±3' : v, n, '', '', '']);
  }
  const differing = cases.filter((c) => c.verdict === 'differing');
  const causes = new Map<string, EffectCase[]>();
  for (const c of differing) {
    const k = c.cause ?? UNEXPLAINED;
    causes.set(k, [...(causes.get(k) ?? []), c]);
  }
  const named = [...causes]
    .filter(([k]) => k !== UNEXPLAINED)
    .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
  for (const [k, cs] of named) rows.push([k, cs.length, ...bandCounts(cs)]);
  const un = causes.get(UNEXPLAINED) ?? [];
  rows.push([UNEXPLAINED, un.length, ...bandCounts(un)]);
  rows.push(['all', cases.length, ...bandCounts(differing)]);
  return textTable(['', 'cases', ...DIFFERING_BANDS], rows);
}

/** The worst differing cases: lowest IoU first, then most differing pixels; at most one per effect. */
export function worstCases(cases: EffectCase[], limit: number): EffectCase[] {
  const seen = new Set<string>();
  const out: EffectCase[] = [];
  const sorted = cases
    .filter((c) => c.verdict === 'differing')
    .sort(
      (a, b) =>
        a.iou - b.iou ||
        b.differingPixels - a.differingPixels ||
        a.effect.localeCompare(b.effect) ||
        a.direction - b.direction,
    );
  for (const c of sorted) {
    if (seen.has(c.effect)) continue;
    seen.add(c.effect);
    out.push(c);
    if (out.length >= limit) break;
  }
  return out;
}

/** Verdict and IoU of two renders. */
export function compareRenders(ours: RgbaImage, ref: RgbaImage): { diff: PixelDiff; iou: number; band: Band } {
  const diff = comparePremultiplied(ours, ref);
  const iou = maskIoU(ours, ref);
  return { diff, iou, band: bandOf(diff, iou) };
}
