// Messages between the render pool (main thread) and its worker threads.
import { type AvatarHotelSnapshot } from '../../avatar/index.js';
import { type AvatarRequest } from '../../avatar/request.js';
import { type FurniOutput, type FurniPicture, type FurniPictureRequest } from '../../furni/on-demand.js';
import { type FlatColor } from '../../imaging/image.js';
import { type PetFigure } from '../../pet/figure.js';
import { type PetSize } from '../../pet/picture.js';
import { type RoomAssetsSource, type RoomData, type RoomReport, type RoomRenderOptions } from '../../room/index.js';

/** One hotel generation as a worker builds it: the main thread's reading of the folder. */
export interface HotelLoad {
  generation: number;
  snapshot: AvatarHotelSnapshot;
}

export interface WorkerInit {
  /** This worker's share of the pool's library budget (one cache for every hotel it holds). */
  libraryCacheBytes: number;
  /** The decode budget of the thread that started the pool (a worker thread starts with the default). */
  decodeBudgetBytes: number;
  /** Bytes of the drawings the worker keeps for output-only variants (`crop`, `bg`, `zoom`). */
  drawingCacheBytes: number;
  /** The hotels to hold from the start: the one in service, and any other still in use. */
  hotels: HotelLoad[];
}

/** One avatar render a worker is given. */
export interface AvatarJob {
  kind: 'avatar';
  id: number;
  /** The hotel generation the request was planned and keyed with: it renders with exactly that one. */
  generation: number;
  req: AvatarRequest;
  /** Also return the renderer's description of every drawn layer (for /render). */
  debug: boolean;
}

/** A furni picture held by the main thread (`FurniPicture` with its pixels as bytes). */
export interface FurniPictureData {
  data: Uint8Array;
  width: number;
  height: number;
  originX: number;
  originY: number;
  state: number;
  direction: number;
}

/** The message form of a picture (its pixels as plain bytes); `copy` gives them a buffer of their own. */
export function pictureData(p: FurniPicture, copy: boolean): FurniPictureData {
  const { image, originX, originY, state, direction } = p;
  const data = copy ? new Uint8Array(image.data) : image.data;
  return { data, width: image.width, height: image.height, originX, originY, state, direction };
}

export function pictureOf(d: FurniPictureData): FurniPicture {
  const { data, width, height, originX, originY, state, direction } = d;
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return { image: { width, height, data: bytes }, originX, originY, state, direction };
}

/**
 * Furni on demand: draw `base` from the hotel's bundle folder (read by the worker into its own bounded cache,
 * keyed by the folder's signature) and encode it, or only encode a picture the main thread holds.
 */
export type FurniWork =
  | { draw: { hotelRoot: string; signature: string; base: string; req: FurniPictureRequest }; output: FurniOutput }
  | { picture: FurniPictureData; output: FurniOutput };

export type FurniJob = { kind: 'furni'; id: number } & FurniWork;

/**
 * A room: drawn with the assets of `hotelRoot` (its room.nitro, the bundle folder of that signature) and the
 * hotel generation the bots are drawn with; the picture comes back unencoded (the service encodes it).
 */
export interface RoomWork extends RoomAssetsSource {
  room: RoomData;
  options: RoomRenderOptions;
}

export type RoomJob = { kind: 'room'; id: number; generation: number } & RoomWork;

/**
 * A pet alone (the pet picture): drawn with the library its type names in the pet folder `hotelRoot`
 * (`bundled/pet/`, read by the worker into its own bounded cache, keyed by the folder's signature), at a pose
 * its `actions` name, finished (background, zoom) and encoded.
 */
export interface PetWork {
  hotelRoot: string;
  /** The pet folder's signature (a changed folder is read anew). */
  signature: string;
  figure: PetFigure;
  /** The action tokens in the order sent: the first its library has as a posture, the first it has as a gesture. */
  actions: string[];
  direction: number;
  headDirection: number;
  size: PetSize;
  /** Every distinct frame of the pose's loop (APNG, or GIF), else its first. */
  animated: boolean;
  format: 'png' | 'gif';
  background?: FlatColor;
  /** Nearest-neighbour enlargement 2–4 (lowered when a long loop would pass the frames' byte bound). */
  zoom?: number;
}

export type PetJob = { kind: 'pet'; id: number } & PetWork;

export type RenderJob = AvatarJob | FurniJob | RoomJob | PetJob;

/** Why a pet job drew nothing (the failure's code; its message is the reason). */
export const PET_FAILURES = {
  /** The type names no library, or the library is missing or does not read. */
  noLibrary: 'pet-no-library',
  /** The library has no sprite for the pose. */
  nothing: 'pet-nothing',
  /** The renderer failed on the library. */
  broken: 'pet-broken',
} as const;

/** Why a furni job drew nothing (the failure's code; its message is the reason). */
export const FURNI_FAILURES = {
  /** No bundle of that name in the folder, or one that does not read. */
  noBundle: 'furni-no-bundle',
  /** The item has no view the request names (no size-64 visualization, no icon, nothing visible). */
  nothing: 'furni-nothing',
  /** The renderer failed on the bundle. */
  broken: 'furni-broken',
} as const;

/** Main thread → worker. */
export type PoolMessage =
  | { type: 'render'; jobs: RenderJob[] }
  | ({ type: 'load' } & HotelLoad)
  | { type: 'drop'; generation: number };

/** What a worker tells about itself with every answer: its decoded library bytes (figure and effect libraries). */
export interface WorkerLoad {
  figureLibraryBytes: number;
  effectLibraryBytes: number;
}

/** Worker → main thread. */
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'init-failed'; message: string }
  | { type: 'loaded'; generation: number }
  | { type: 'load-failed'; generation: number; message: string }
  | ({
      type: 'done';
      id: number;
      body: Uint8Array;
      frames: number;
      width: number;
      height: number;
      layers?: unknown[] /** render + encode */;
      /** The frames were a held drawing (only the output steps and the encoder ran). */
      reused: boolean;
      /** A furni job that drew: the picture, for the main thread to keep for other encodings. */
      picture?: FurniPictureData;
      /** A room job: its picture, unencoded (`body` is then empty). */
      room?: {
        width: number;
        height: number;
        rgba: Uint8Array;
        report: RoomReport;
        /**
         * An animated room's frames after the first (frame 0 is `rgba`, sent once), each the rectangle that
         * changed (room/motion.ts FrameRect), and the updates of every frame.
         */
        motion?: {
          frames: { x: number; y: number; width: number; height: number; data: Uint8Array }[];
          updates: number[];
        };
      };
      ms: number;
    } & WorkerLoad)
  | ({ type: 'failed'; id: number; name: string; code: string; message: string } & WorkerLoad);
