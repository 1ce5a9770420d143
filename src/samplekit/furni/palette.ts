// Flat, clearly distinct colours for the procedural furni (0xRRGGBBAA). Tinted layers are drawn in
// the greys/white so a colour-table tint shows exactly.
import { rgba } from './draw.js';

export const RED = rgba(0xe0403a);
export const ORANGE = rgba(0xf08c28);
export const YELLOW = rgba(0xf2d22e);
export const GREEN = rgba(0x4cb050);
export const TEAL = rgba(0x26a69a);
export const CYAN = rgba(0x40c4e8);
export const BLUE = rgba(0x3f6fd8);
export const PURPLE = rgba(0x8e4fc8);
export const PINK = rgba(0xec6fa8);
export const BROWN = rgba(0x8d5a3b);
export const GREY = rgba(0x9e9e9e);
export const WHITE = rgba(0xf4f4f4);
export const LIGHT = rgba(0xd8d8d8);
export const BLACK = rgba(0x000000);
export const DARK = rgba(0x404048);

/** Colours the generated items cycle through. */
export const CYCLE = [RED, ORANGE, YELLOW, GREEN, TEAL, CYAN, BLUE, PURPLE, PINK, BROWN];
