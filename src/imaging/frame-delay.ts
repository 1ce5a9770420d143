// How long an animation frame shows: a fraction of a second, as APNG's fcTL holds it (1/6 for the
// spec's 166.67 ms), so encoders get exact times and round them their own way (GIF: centiseconds).
export interface FrameDelay {
  num: number;
  den: number;
}
