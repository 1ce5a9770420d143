// A hotel's group badge data, loaded once and never changed afterwards: a reload builds a new one and
// swaps it in whole (see `loadBadgeHotel`).
import { type GuildElements } from '../formats/guild-elements.js';
import { type RgbaImage } from '../imaging/image.js';

export interface BadgeHotel {
  elements: GuildElements;
  /** Part images by texture name (`badgepart_<name>`). */
  images: ReadonlyMap<string, RgbaImage>;
  /** 16 hex digits: the table and part files by content; part of every badge cache key and ETag. */
  identity: string;
  /** The table file read. */
  elementsFile: string;
  /** Where the images came from (place, images it gave). */
  origins: readonly { place: string; images: number }[];
  /** Every file read (table and parts): what a reload watcher looks at. */
  files: readonly string[];
  /** Part files that could not be read, with why. */
  unreadable: readonly string[];
}
