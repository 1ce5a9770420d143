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
