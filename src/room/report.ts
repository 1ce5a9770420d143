// What a room render says about its picture besides the pixels: where the room lies in it, its planes and
// masks, every object drawn (with its box and depth order) and every row not drawn, with why.
import { type LoopCut } from './motion.js';
import { type RoomPlane } from './planes.js';

export interface ReportPlane {
  kind: RoomPlane['kind'];
  wall?: 'l' | 'r';
  color: string;
  count: number;
}

/** The kinds of room object the report names (one file of src/room/objects/ each). */
export type ReportKind = 'floor' | 'wall' | 'bot' | 'pet';

export interface ReportItem {
  id: number;
  kind: ReportKind;
  classname: string;
  tile: { x: number; y: number; z: number };
  /** Wall items: the stored position. */
  wallPosition?: string;
  direction: number;
  state: number;
  colorId?: number;
  /**
   * A unit's posture when not standing: a bot's or pet's on a seat or bed, or a pet's stored one (rip), and its
   * status height (the tile's z includes it).
   */
  posture?: { type: string; height: number };
  /** Footprint after rotation (floor items). */
  footprint?: { x: number; y: number };
  /** What was drawn, bottom to top: the furni's or pet's assets, or a bot's figure parts (`<library>:<asset>`). */
  layers: string[];
  /** 0 = drawn first (farthest). */
  depthOrder: number;
  depth: number;
  /** Where the drawn image's top-left lies in the picture, and its size. */
  box: { x: number; y: number; width: number; height: number };
}

/** A mask as the report lists it: the pixels it cut, or why it cut none. */
export interface ReportMask {
  id: string;
  pixelsCut: number;
  reason?: string;
}

/** A row of the room that is not drawn, and why. */
export interface SkippedObject {
  id: number;
  kind: ReportKind;
  classname: string;
  reason: string;
}

export interface RoomReport {
  size: 32 | 64;
  /** Where room point (0, 0, 0) (the centre of tile (0, 0) at height 0) lies in the picture. */
  origin: { x: number; y: number };
  heightmap: { width: number; height: number; tiles: number };
  door: { x: number; y: number; z: number; wall: 'l' | 'r' } | null;
  wallTop: number;
  decorations: { floor: string; wall: string; landscape: string };
  planes: ReportPlane[];
  masks: ReportMask[];
  items: ReportItem[];
  skipped: SkippedObject[];
  /**
   * An animated room's loop (motion.ts): the objects' common period in updates (null: one never repeats), the
   * updates drawn, why fewer (the 5 s cap, the pixel or sprite budget) or null, and its frames' updates.
   */
  motion?: { period: number | null; updates: number; cut: LoopCut | null; frames: number; updatesPerFrame: number[] };
}
