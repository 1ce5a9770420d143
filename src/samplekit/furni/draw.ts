// Drawing primitives for the procedural furni: flat-shaded isometric boxes, diamonds and wall panels
// with dark outlines, drawn in furni coordinates (origin = the item's anchor, the centre of its first
// tile; x right, y down). Integer maths only, so the kit is byte-identical on every machine.
import { type RgbaImage, alphaBounds, createImage, cropImage } from '../../imaging/image.js';
import { drawText, textWidth } from '../pixel-font.js';

/** A sprite cut to its art, with the Nitro asset offset: the anchor sits at pixel (x, y) of the image. */
export interface PlacedSprite {
  image: RgbaImage;
  x: number;
  y: number;
}

export type Point = readonly [number, number];

/** 0xRRGGBBAA */
export type Rgba = number;

export const OUTLINE: Rgba = 0x1a1a24ff;

const CANVAS = 320;
const ORIGIN_X = 160;
const ORIGIN_Y = 224;

/** A scratch canvas in furni coordinates; `place()` crops it to its art and returns the asset offset. */
export class FurniCanvas {
  readonly img: RgbaImage = createImage(CANVAS, CANVAS);

  pixel(x: number, y: number, c: Rgba): void {
    const px = x + ORIGIN_X;
    const py = y + ORIGIN_Y;
    if (px < 0 || py < 0 || px >= CANVAS || py >= CANVAS) return;
    const i = (py * CANVAS + px) * 4;
    this.img.data[i] = (c >>> 24) & 0xff;
    this.img.data[i + 1] = (c >>> 16) & 0xff;
    this.img.data[i + 2] = (c >>> 8) & 0xff;
    this.img.data[i + 3] = c & 0xff;
  }

  /** Even-odd scanline fill, sampling pixel centres. */
  fillPolygon(points: readonly Point[], c: Rgba): void {
    let minY = Infinity;
    let maxY = -Infinity;
    for (const [, y] of points) {
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
    for (let y = Math.floor(minY); y <= Math.ceil(maxY); y++) {
      const sy = y + 0.5;
      const xs: number[] = [];
      for (let i = 0; i < points.length; i++) {
        const [x0, y0] = points[i]!;
        const [x1, y1] = points[(i + 1) % points.length]!;
        if ((y0 <= sy && y1 > sy) || (y1 <= sy && y0 > sy)) xs.push(x0 + ((sy - y0) * (x1 - x0)) / (y1 - y0));
      }
      xs.sort((a, b) => a - b);
      for (let k = 0; k + 1 < xs.length; k += 2) {
        for (let x = Math.ceil(xs[k]! - 0.5); x + 0.5 <= xs[k + 1]!; x++) this.pixel(x, y, c);
      }
    }
  }

  line(a: Point, b: Point, c: Rgba): void {
    let x0 = Math.round(a[0]);
    let y0 = Math.round(a[1]);
    const x1 = Math.round(b[0]);
    const y1 = Math.round(b[1]);
    const dx = Math.abs(x1 - x0);
    const dy = -Math.abs(y1 - y0);
    const sx = x0 < x1 ? 1 : -1;
    const sy = y0 < y1 ? 1 : -1;
    let err = dx + dy;
    for (;;) {
      this.pixel(x0, y0, c);
      if (x0 === x1 && y0 === y1) return;
      const e2 = 2 * err;
      if (e2 >= dy) {
        err += dy;
        x0 += sx;
      }
      if (e2 <= dx) {
        err += dx;
        y0 += sy;
      }
    }
  }

  /** Filled polygon with a 1-pixel outline. */
  shape(points: readonly Point[], fill: Rgba, outline: Rgba = OUTLINE): void {
    this.fillPolygon(points, fill);
    for (let i = 0; i < points.length; i++) this.line(points[i]!, points[(i + 1) % points.length]!, outline);
  }

  rect(x: number, y: number, w: number, h: number, fill: Rgba, outline: Rgba | null = OUTLINE): void {
    for (let yy = y; yy < y + h; yy++) for (let xx = x; xx < x + w; xx++) this.pixel(xx, yy, fill);
    if (outline !== null) {
      this.line([x, y], [x + w - 1, y], outline);
      this.line([x, y + h - 1], [x + w - 1, y + h - 1], outline);
      this.line([x, y], [x, y + h - 1], outline);
      this.line([x + w - 1, y], [x + w - 1, y + h - 1], outline);
    }
  }

  /** Text centred on (cx, cy) — the asymmetric mark that makes a mirror or a wrong frame visible. */
  label(text: string, cx: number, cy: number, c: Rgba = OUTLINE, scale = 1): void {
    const w = textWidth(text, scale);
    const h = 5 * scale;
    drawText(this.img, text, ORIGIN_X + cx - Math.floor(w / 2), ORIGIN_Y + cy - Math.floor(h / 2), c, scale);
  }

  /**
   * An isometric box standing on the footprint diamond centred at (cx, cy), half-width `hw`
   * (half-height hw/2), `h` pixels tall, lifted `lift` pixels. Returns the centre of the top face.
   */
  box(cx: number, cy: number, hw: number, h: number, base: Rgba, lift = 0, outline: Rgba = OUTLINE): Point {
    const hh = Math.floor(hw / 2);
    const by = cy - lift;
    const ty = by - h;
    const left: Point[] = [
      [cx - hw, by],
      [cx, by + hh],
      [cx, ty + hh],
      [cx - hw, ty],
    ];
    const right: Point[] = [
      [cx, by + hh],
      [cx + hw, by],
      [cx + hw, ty],
      [cx, ty + hh],
    ];
    const top: Point[] = [
      [cx - hw, ty],
      [cx, ty - hh],
      [cx + hw, ty],
      [cx, ty + hh],
    ];
    if (h > 0) {
      this.shape(left, shade(base, 200), outline);
      this.shape(right, shade(base, 150), outline);
    }
    this.shape(top, base, outline);
    return [cx, ty];
  }

  /** A flat diamond (floor shape: rugs, shadows, tile marks). */
  diamond(cx: number, cy: number, hw: number, fill: Rgba, outline: Rgba | null = OUTLINE): void {
    const hh = Math.floor(hw / 2);
    const pts: Point[] = [
      [cx - hw, cy],
      [cx, cy - hh],
      [cx + hw, cy],
      [cx, cy + hh],
    ];
    if (outline === null) this.fillPolygon(pts, fill);
    else this.shape(pts, fill, outline);
  }

  /** A panel on the left wall (direction 2: rises one pixel for every two to the right). */
  wallPanel(cx: number, cy: number, hw: number, h: number, fill: Rgba, outline: Rgba = OUTLINE): void {
    const hh = Math.floor(hw / 2);
    this.shape(
      [
        [cx - hw, cy + hh],
        [cx + hw, cy - hh],
        [cx + hw, cy - hh - h],
        [cx - hw, cy + hh - h],
      ],
      fill,
      outline,
    );
  }

  /** Crops to the art; an empty canvas gives a blank 1×1 sprite (as real blank frames are). */
  place(): PlacedSprite {
    const b = alphaBounds(this.img);
    if (!b) return blankSprite();
    return { image: cropImage(this.img, b), x: ORIGIN_X - b.x, y: ORIGIN_Y - b.y };
  }
}

/** Draws with `fn` on a fresh canvas and returns the cropped sprite with its offset. */
export function drawSprite(fn: (c: FurniCanvas) => void): PlacedSprite {
  const c = new FurniCanvas();
  fn(c);
  return c.place();
}

/** A real 1×1 fully transparent frame: an asset that exists but shows nothing. */
export function blankSprite(): PlacedSprite {
  return { image: createImage(1, 1), x: 0, y: 0 };
}

/** A 1×1 frame of one colour (0xRRGGBBAA): real "off" frames are near-transparent or single black pixels. */
export function pixelSprite(c: Rgba): PlacedSprite {
  const image = createImage(1, 1);
  image.data.set([(c >>> 24) & 0xff, (c >>> 16) & 0xff, (c >>> 8) & 0xff, c & 0xff]);
  return { image, x: 0, y: 0 };
}

/** 0xRRGGBB plus an alpha into 0xRRGGBBAA. */
export function rgba(rgb: number, a = 255): Rgba {
  return ((rgb << 8) | a) >>> 0;
}

/** Scales RGB by f/255, keeping alpha. */
export function shade(c: Rgba, f: number): Rgba {
  const r = Math.min(255, Math.round((((c >>> 24) & 0xff) * f) / 255));
  const g = Math.min(255, Math.round((((c >>> 16) & 0xff) * f) / 255));
  const b = Math.min(255, Math.round((((c >>> 8) & 0xff) * f) / 255));
  return ((r << 24) | (g << 16) | (b << 8) | (c & 0xff)) >>> 0;
}
