// How long an animation frame shows: a fraction of a second, as APNG's fcTL holds it (1/6 for the
// spec's 166.67 ms), so encoders get exact times and round them their own way (GIF: centiseconds).
export interface FrameDelay {
  num: number;
  den: number;
}

/** Greatest common divisor of two non-negative integers (gcd(a, 0) = a): exact loop and delay arithmetic. */
export function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** Least common multiple of two positive integers: the length of a loop made of cycles of these lengths. */
export function lcm(a: number, b: number): number {
  return (a / gcd(a, b)) * b;
}

/**
 * Frames with identical pixels one after another become one frame showing for their summed updates (a
 * moving room's, a pet's: identical neighbours merged); the first frame of the loop stays first.
 */
export function mergeIdenticalFrames(
  frames: readonly Buffer[],
  updates: readonly number[],
): {
  frames: Buffer[];
  updates: number[];
} {
  const outFrames: Buffer[] = [];
  const outUpdates: number[] = [];
  frames.forEach((f, i) => {
    const last = outFrames.length - 1;
    if (last >= 0 && outFrames[last]!.equals(f)) outUpdates[last]! += updates[i]!;
    else {
      outFrames.push(f);
      outUpdates.push(updates[i]!);
    }
  });
  return { frames: outFrames, updates: outUpdates };
}
