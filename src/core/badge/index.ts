// Group badges in the avatar service: loads the hotel's badge data, and gives the service the badge
// core, its /healthz section and a reload. Self-contained: the avatar service hands over its caches and
// mounts the badge routes (src/server/badge/) on `service`, nothing else of it changes.
import { loadBadgeHotel, type BadgeLoadResult, type BadgeSourceOptions } from '../../badge/index.js';
import { join } from 'node:path';
import { DEFAULT_ELEMENT_FILES, FLASH_PARTS_DIR, NITRO_PARTS_PATH } from '../../hotel/badge.js';
import { isDir, isFile } from '../../hotel/files.js';
import { type ImageCache } from '../cache/image-cache.js';
import { type SharedAvatarCache } from '../cache/shared-cache.js';
import { BadgeService } from './badge-service.js';
import { type HotelDatabase } from '../../database/index.js';

export { BadgeService } from './badge-service.js';

export interface BadgeConfig {
  assetsDir: string;
  /** `--badge-parts`: a folder with group_badge.nitro and/or badgepart_* images, searched first. */
  badgePartsDir?: string;
  /** `--badge-elements`: the guilds_elements export (CSV or JSON). */
  badgeElementsFile?: string;
}

export interface BadgeDeps {
  cache: ImageCache;
  shared?: SharedAvatarCache;
  log?: (level: 'info' | 'warn', msg: string, fields: Record<string, unknown>) => void;
  /** The hotel's database: the element table is read from its guilds_elements (no file needed). */
  database?: HotelDatabase;
}

export interface Badges {
  /** What the badge routes answer. */
  service: BadgeService;
  /** The /healthz section. */
  health: () => Record<string, unknown>;
  /** Reads the badge data again and swaps it in (a live reload); resolves to what was loaded. */
  reload: () => Promise<BadgeLoadResult>;
  /**
   * What a reload watcher stats: every file the current data was read from, and the places a table or
   * parts would be found (so a table that appears, or a folder of new part files, is noticed too).
   */
  watchPaths: () => string[];
  /** Logs what is loaded, or why badges are off (once the service's logger exists). */
  announce: () => void;
  /**
   * With a database: asks its cheap version query every `ms` and reloads when the table changed (or first
   * answers after an outage). No-op without one.
   */
  watchDatabase: (ms: number) => void;
  close: () => void;
}

/** What the database's guilds_elements held when it last answered: kept while it is away. */
class DatabaseTable {
  version: string | undefined;
  json: string | undefined;
  constructor(private readonly db: HotelDatabase) {}

  async version_(): Promise<string> {
    const [row] = await this.db.run('guild_elements_version');
    return String(row?.version ?? '');
  }

  /** The rows now, or the last good ones (with why they are not fresh), or why there are none. */
  async read(): Promise<{ json: string } | { error: string }> {
    try {
      const version = await this.version_();
      const rows = await this.db.run('guild_elements');
      this.version = version;
      this.json = JSON.stringify(rows);
    } catch (e) {
      if (this.json === undefined)
        return { error: `the database's guilds_elements cannot be read: ${(e as Error).message}` };
    }
    return { json: this.json as string };
  }
}

const DATABASE_TABLE_NAME = 'guilds_elements (database)';

function sourceOptions(config: BadgeConfig): BadgeSourceOptions {
  return { partsDir: config.badgePartsDir, elementsFile: config.badgeElementsFile };
}

/**
 * Loads the badge data and builds the routes. A table or parts folder the operator named that does not
 * exist stops the start (a typo should not pass for "no badges"); anything else that keeps badges off
 * (no table in the asset folder, no part images, an unreadable table) is logged and reported by /healthz,
 * and the badge route answers 404 with the reason.
 */
export async function openBadges(config: BadgeConfig, deps: BadgeDeps): Promise<Badges> {
  if (config.badgeElementsFile !== undefined && !(await isFile(config.badgeElementsFile))) {
    throw new Error(
      `the badge element table ${config.badgeElementsFile} (--badge-elements, HOTEL_IMAGER_AVATAR_BADGE_ELEMENTS) is ` +
        `not a file`,
    );
  }
  if (config.badgePartsDir !== undefined && !(await isDir(config.badgePartsDir))) {
    throw new Error(
      `the badge parts folder ${config.badgePartsDir} (--badge-parts, HOTEL_IMAGER_AVATAR_BADGE_PARTS) is not a folder`,
    );
  }
  const table = deps.database ? new DatabaseTable(deps.database) : undefined;
  const load = async (): Promise<BadgeLoadResult> => {
    if (!table) return loadBadgeHotel(config.assetsDir, sourceOptions(config));
    const got = await table.read();
    if ('error' in got) return { ok: false, reason: got.error };
    return loadBadgeHotel(config.assetsDir, {
      ...sourceOptions(config),
      elementsTable: { name: DATABASE_TABLE_NAME, json: got.json },
    });
  };
  let watcher: NodeJS.Timeout | undefined;
  const first = await load();
  const report = (data: BadgeLoadResult) => {
    if (data.ok) {
      const h = data.hotel;
      deps.log?.('info', 'badges loaded', {
        identity: h.identity,
        table: h.elementsFile,
        images: h.images.size,
        skippedRows: h.elements.skipped.length,
        unreadable: h.unreadable.length,
      });
    } else deps.log?.('warn', 'badges are off', { reason: data.reason });
  };
  const service = new BadgeService(first, deps);
  const reload = async () => {
    const data = await load();
    service.swap(data);
    report(data);
    return data;
  };
  return {
    service,
    health: () => badgeHealth(service),
    reload,
    watchDatabase: (ms) => {
      if (!table || watcher || ms <= 0) return;
      let busy = false;
      watcher = setInterval(() => {
        if (busy) return;
        busy = true;
        table
          .version_()
          .then((v) => (v !== table.version ? reload() : undefined))
          // Away: the table in service stays; the database client logs the outage once.
          .catch(() => undefined)
          .finally(() => {
            busy = false;
          });
      }, ms);
      watcher.unref();
    },
    close: () => clearInterval(watcher),
    watchPaths: () => {
      const found = service.current.ok ? service.current.hotel.files : [];
      const places = [
        ...DEFAULT_ELEMENT_FILES.map((f) => join(config.assetsDir, f)),
        join(config.assetsDir, NITRO_PARTS_PATH),
        join(config.assetsDir, FLASH_PARTS_DIR),
        ...(config.badgeElementsFile !== undefined ? [config.badgeElementsFile] : []),
        ...(config.badgePartsDir !== undefined ? [config.badgePartsDir] : []),
      ];
      return [...new Set([...found, ...places])];
    },
    announce: () => report(service.current),
  };
}

function badgeHealth(service: BadgeService): Record<string, unknown> {
  const data = service.current;
  const counts = service.stats();
  if (!data.ok) return { enabled: false, reason: data.reason, ...counts };
  const h = data.hotel;
  return {
    enabled: true,
    identity: h.identity,
    table: h.elementsFile,
    bases: h.elements.bases.size,
    symbols: h.elements.symbols.size,
    colors: h.elements.baseColors.size,
    skippedRows: h.elements.skipped.length,
    firstSkippedRow: h.elements.skipped[0] ?? null,
    images: h.images.size,
    origins: h.origins,
    unreadableImages: h.unreadable.length,
    firstUnreadableImage: h.unreadable[0] ?? null,
    ...counts,
  };
}
