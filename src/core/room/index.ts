// Rooms in the avatar service: picks where rooms come from (the hotel's database when one is configured, else
// a `rooms/` folder of RoomData files in the assets folder, as the sample kit has), loads the room assets, and
// gives the service the room core, its /healthz section and a reload. Self-contained like the badges: the avatar
// service hands over its caches and mounts the room routes (src/server/room/) on `service`.
import { join } from 'node:path';
import { PET_DIR } from '../../hotel/pet.js';
import { type AvatarHotel } from '../../avatar/index.js';
import { ROOM_FURNI_DIR, ROOM_VISUALIZATION_PATH } from '../../hotel/room.js';
import { isDir } from '../../hotel/files.js';
import { type FurniBundles } from '../../furni/bundles.js';
import { loadRoomAssets, type RoomAssets } from '../../room/index.js';
import { type ImageCache } from '../cache/image-cache.js';
import { type SharedAvatarCache } from '../cache/shared-cache.js';
import { type RoomRenderer, RoomService, type RoomServiceOptions } from './room-service.js';
import { DatabaseRoomSource, FileRoomSource, type RoomQueries, type RoomSource } from './source.js';

export { RoomService } from './room-service.js';

/** The folder of RoomData files (`<id>.json`) read when there is no database: the sample kit's demo room. */
export const ROOM_FILES_DIR = 'rooms';

export interface RoomConfig {
  assetsDir: string;
  /** `--room-thumbnails`: the hotel's stored thumbnails, `<room id>.png`. */
  roomThumbnailsDir?: string;
  roomRereadMs: number;
  roomRenderJobs: number;
  roomMaxItems: number;
  decodeBudgetBytes: number;
}

type Log = (level: 'info' | 'warn' | 'error', msg: string, fields: Record<string, unknown>) => void;

export interface RoomDeps {
  cache: ImageCache;
  shared?: SharedAvatarCache;
  /** The hotel's database client (its `run`), when one is configured. */
  database?: RoomQueries;
  /**
   * The avatar hotel in service (the main thread's, read from the same snapshot as the workers'): its digests
   * name the bots' figures in the assets' identity.
   */
  avatarHotel: () => AvatarHotel;
  /** The furni bundle folder in service (the folder's own when absent). */
  bundles?: () => Promise<FurniBundles>;
  /** Draws a room: the render workers' `renderRoom`; renderRoom on this thread when absent (tools and tests). */
  render?: RoomRenderer;
  log?: Log;
}

export interface Rooms {
  service: RoomService;
  health: () => Record<string, unknown>;
  /** Loads the room assets again (a changed room.nitro, furni folder or avatar hotel) and swaps them in. */
  reload: () => Promise<void>;
  /** What a reload watcher stats. */
  watchPaths: () => string[];
  announce: () => void;
}

async function load(config: RoomConfig, deps: RoomDeps): Promise<RoomAssets> {
  const bundles = await deps.bundles?.();
  return loadRoomAssets(config.assetsDir, {
    decodeBudget: config.decodeBudgetBytes,
    avatarHotel: deps.avatarHotel(),
    ...(bundles ? { bundles } : {}),
  });
}

/**
 * Rooms, or why there are none (no database and no room files; a hotel without a room visualization). A
 * thumbnail folder the operator named that does not exist stops the start: a typo should not pass for
 * "no stored thumbnails".
 */
export async function openRooms(
  config: RoomConfig,
  deps: RoomDeps,
): Promise<{ ok: true; rooms: Rooms } | { ok: false; reason: string }> {
  if (config.roomThumbnailsDir !== undefined && !(await isDir(config.roomThumbnailsDir)))
    throw new Error(
      `the room thumbnail folder ${config.roomThumbnailsDir} (--room-thumbnails, HOTEL_IMAGER_ROOM_THUMBNAILS) ` +
        'is not a folder: give the folder the emulator saves room thumbnails in, or leave the flag out',
    );
  let source: RoomSource;
  if (deps.database) source = new DatabaseRoomSource(deps.database);
  else if (await isDir(join(config.assetsDir, ROOM_FILES_DIR)))
    source = new FileRoomSource(join(config.assetsDir, ROOM_FILES_DIR));
  else
    return {
      ok: false,
      reason: `no database (--database) and no ${ROOM_FILES_DIR}/ folder of room files in ${config.assetsDir}`,
    };
  let assets: RoomAssets;
  try {
    assets = await load(config, deps);
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
  const options: Partial<RoomServiceOptions> = {
    rereadMs: config.roomRereadMs,
    renderJobs: config.roomRenderJobs,
    maxItems: config.roomMaxItems,
  };
  const service = new RoomService(
    {
      source,
      assets: () => assets,
      ...(deps.render ? { render: deps.render } : {}),
      cache: deps.cache,
      shared: deps.shared,
      thumbnailsDir: config.roomThumbnailsDir,
      log: deps.log,
    },
    options,
  );
  let reloadError: string | null = null;
  const rooms: Rooms = {
    service,
    health: () => ({
      enabled: true,
      source: source.kind,
      assetsIdentity: assets.identity,
      rereadMs: service.options.rereadMs,
      maxItems: service.options.maxItems,
      renderJobs: service.options.renderJobs,
      cacheControl: service.cacheControl,
      thumbnails: config.roomThumbnailsDir ?? null,
      reloadError,
      ...service.stats(),
    }),
    reload: async () => {
      try {
        const next = await load(config, deps);
        if (next.identity !== assets.identity) {
          assets = next;
          service.forget();
        }
        reloadError = null;
      } catch (err) {
        // The assets in service stay: a half-copied room.nitro does not take rooms away.
        reloadError = (err as Error).message;
        deps.log?.('warn', 'room assets not reloaded', { error: reloadError });
      }
    },
    watchPaths: () => [
      join(config.assetsDir, ROOM_VISUALIZATION_PATH),
      join(config.assetsDir, ROOM_FURNI_DIR),
      join(config.assetsDir, PET_DIR),
    ],
    announce: () =>
      deps.log?.('info', 'rooms on', {
        source: source.kind,
        assets: assets.identity,
        rereadMs: service.options.rereadMs,
        thumbnails: config.roomThumbnailsDir ?? null,
      }),
  };
  return { ok: true, rooms };
}
