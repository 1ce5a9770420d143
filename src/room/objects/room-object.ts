// What the room needs from each kind of object it draws (floor items, wall items, avatars; one file each in
// this folder): the object's report entry, the sort depth of its location, and its sprites at a tick. A kind
// plans its objects from the room's rows once (bundle, location, direction, state), listing the rows it cannot
// draw; the room then asks each object for its sprites, sorts every sprite by depth and composites them.
import { type RoomSprite } from '../../furni/render.js';
import { type Ink } from '../../imaging/composite.js';
import { type RgbaImage } from '../../imaging/image.js';
import { type LoadedRoomAssets } from '../assets.js';
import { type RoomScale } from '../geometry.js';
import { type Door, type Heightmap } from '../heightmap.js';
import { type RoomMask } from '../masks.js';
import { type RoomBot, type RoomItem, type RoomPet } from '../model.js';
import { type ReportItem, type ReportMask, type SkippedObject } from '../report.js';

/**
 * The animation update items are drawn at, and whether play-once layers hold their last frame; `since`: the
 * updates since an animated room's first frame (avatars play their own loop from there; absent: 0).
 */
export type ItemTick = { tick: number; held: boolean; since?: number };

/** One sprite of an object, placed on screen (room origin at 0, 0), before the room sorts it. */
export interface ObjectSprite {
  image: RgbaImage;
  /** Layer alpha 0-255 (a shadow's 48), mirroring, colour and blend; absent = opaque, unmirrored, plain. */
  alpha?: number;
  flipH?: boolean;
  tint?: number;
  ink?: Ink;
  /** A shadow: drawn, not part of its object's box in the report. */
  shadow?: boolean;
  /** Screen position of the image's top-left. */
  left: number;
  top: number;
  /** Added to the object's depth (RoomSpriteCanvas); smaller = nearer, drawn later. */
  relativeDepth: number;
}

/** An object as drawn at one tick: its sprites, and what they draw (the report's `layers`). */
export interface ObjectFrame {
  sprites: ObjectSprite[];
  layers: string[];
}

/**
 * A furni-like visualization's sprites (a furni's, a pet's: FurnitureVisualization.updateSprite) placed from the
 * object's screen point (sx, sy), with the assets they draw (the shadow drawn, not listed); null when it has none.
 */
export function placeSprites(sprites: readonly RoomSprite[], sx: number, sy: number): ObjectFrame | null {
  if (sprites.length === 0) return null;
  const placed = sprites.map(
    (sp): ObjectSprite => ({
      image: sp.image,
      left: sx + sp.left,
      top: sy + sp.top,
      alpha: sp.alpha,
      ...(sp.flipH ? { flipH: true } : {}),
      tint: sp.tint,
      ink: sp.ink,
      ...(sp.shadow ? { shadow: true } : {}),
      relativeDepth: sp.relativeDepth,
    }),
  );
  return { sprites: placed, layers: sprites.filter((sp) => !sp.shadow).map((sp) => sp.asset) };
}

/** The report's entry of an object, less what the drawing gives (layers, depth, order, box). */
export type ObjectEntry = Omit<ReportItem, 'layers' | 'depth' | 'depthOrder' | 'box'>;

/** One object of the room, planned: everything but its sprites, which it gives per tick. */
export interface RoomObject {
  readonly entry: ObjectEntry;
  /**
   * The sort depth of the object's location (geometry.ts depthOf, plus the door tile's displacement): each of
   * its sprites sorts at this + its relative depth.
   */
  readonly depth: number;
  /** A mask the object cuts in its wall (a window), or the report's line for one it cannot cut. */
  readonly mask?: RoomMask | ReportMask;
  /** The object's sprites at a tick; null: nothing visible to draw. */
  frame(tick: ItemTick): ObjectFrame | null;
  /**
   * Updates after which its sprites repeat in an animated room (1 or absent: it stands still; null: it never
   * repeats).
   */
  period?(tick: ItemTick): number | null;
}

/** What every kind plans its objects from: the room's rows the options draw, and where they go. */
export interface ObjectContext {
  readonly assets: LoadedRoomAssets;
  readonly scale: RoomScale;
  readonly map: Heightmap;
  readonly door: Door | null;
  /** The walls' top: the height of a wall item's tile (wallLocation). */
  readonly wallTop: number;
  /** Whether walls are drawn (a window cuts only a drawn wall). */
  readonly walls: boolean;
  /** The items drawn (none with furni off; at most MAX_DRAWN_ITEMS), floor and wall, in row order. */
  readonly items: readonly RoomItem[];
  /** The bots drawn (none with bots off). */
  readonly bots: readonly RoomBot[];
  /** The pets drawn (none with bots off: the `bots=0` switch takes every unit off). */
  readonly pets: readonly RoomPet[];
  /** An animated room: avatars are drawn with their whole loop (dance, effect). */
  readonly animated?: boolean;
  /** Lists a row that is not drawn, and why. */
  skip(row: SkippedObject): void;
}

/**
 * A kind of room object: its objects in the room, in row order, each planned once; the rows it cannot draw it
 * lists through `ctx.skip`. The room adds the kinds in the client's order (floor items, wall items, bots, pets).
 */
export type ObjectKind = (ctx: ObjectContext) => AsyncIterable<RoomObject>;

/** Heights an item or bot may stand at (the emulators stack to 40 and a few beyond); outside = skipped. */
const MIN_Z = -10;
const MAX_Z = 100;

/** Whether a room point lies over the heightmap (a tile's margin around it): rows out of it are not drawn. */
export function onMap(map: Heightmap, x: number, y: number, z: number): boolean {
  return (
    Number.isFinite(x) &&
    Number.isFinite(y) &&
    Number.isFinite(z) &&
    x >= -1 &&
    y >= -1 &&
    x <= map.width &&
    y <= map.height &&
    z >= MIN_Z &&
    z <= MAX_Z
  );
}

export const OFF_MAP = 'its position lies outside the room (off the heightmap or beyond the heights drawn)';
