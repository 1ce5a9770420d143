// What a GIF of ours shows of an RGBA frame (src/imaging/gif.ts): large translucent areas dithered, then
// alpha at or above the threshold opaque in its own colour and the rest transparent (all zero). The
// dither itself is tested in test/imaging/gif.test.ts; here it is the expectation of the HTTP tests.
import { ditherTranslucentAreas } from '../../src/imaging/gif.js';

/** docs/avatar-service.md: alpha ≥ 128 is drawn opaque (a literal here, so a changed threshold fails the tests). */
const THRESHOLD = 128;

export function gifView(rgba: Uint8Array, width: number): Uint8Array {
  const frame = ditherTranslucentAreas({ width, height: rgba.length / 4 / width, data: rgba });
  const out = new Uint8Array(rgba.length);
  for (let i = 0; i < rgba.length; i += 4) {
    if (frame.data[i + 3]! >= THRESHOLD) {
      out.set(frame.data.subarray(i, i + 3), i);
      out[i + 3] = 255;
    }
  }
  return out;
}

/**
 * The GIF's frames against what it should show: exact for a frame of at most 255 colours; a frame of more
 * is drawn through a reduced table (median cut), so there the same pixels must be drawn and colours must
 * stay close on average (mean channel difference at most 3).
 */
export function assertGifShows(
  actual: Uint8Array[],
  expected: Uint8Array[],
  label: string,
  check: (ok: boolean, msg: string) => void,
): void {
  check(actual.length === expected.length, `${label}: ${actual.length} frames, expected ${expected.length}`);
  expected.forEach((want, f) => {
    const got = actual[f]!;
    const colours = new Set<number>();
    for (let i = 0; i < want.length; i += 4)
      if (want[i + 3]) colours.add((want[i]! << 16) | (want[i + 1]! << 8) | want[i + 2]!);
    if (colours.size <= 255) {
      check(Buffer.from(got).equals(Buffer.from(want)), `${label} frame ${f}: exact`);
      return;
    }
    let sum = 0;
    let n = 0;
    for (let i = 0; i < want.length; i += 4) {
      check(got[i + 3] === want[i + 3], `${label} frame ${f}: pixel ${i / 4} drawn alike`);
      if (!want[i + 3]) continue;
      for (let c = 0; c < 3; c++) sum += Math.abs(got[i + c]! - want[i + c]!);
      n += 3;
    }
    check(
      sum / n <= 3,
      `${label} frame ${f} (${colours.size} colours, reduced): mean difference ${(sum / n).toFixed(2)}`,
    );
  });
}
