// Room pictures against the Nitro client's own renderer (dev tool, not a test, never in CI): draws each room
// description (the room-reference tool's JSON: heightmap, paint, items, bots) with our renderer at size 64, as
// served (no parameters), and scores it with the tool's compare.mjs against the tool's picture of the same
// description, aligned by the two reports' origins.
//
//   bash ../shared/tools/room-reference/run.sh /tmp/rr/out rooms/*.json          # the client's pictures
//   npm run compare:rooms -- --ref /tmp/rr/out --out /tmp/rr/ours rooms/*.json    # ours, and the table
//
// Options: --furni DIR (bundled/furniture; default the tool's ROOMREF_FURNI or shared nitro-rooms),
// --generic DIR (room.nitro; default shared nitro-rooms), --figures DIR (a Nitro hotel for bots; default
// shared nitro), --json (one line a room). Rows: identical %, within ±3 %, mask IoU, size ours/ref.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadAvatarHotel } from '../src/avatar/index.js';
import { encodeRoomPicture } from '../src/imager/room/room-service.js';
import { loadRoomAssets, renderRoom, roomData, type RoomData } from '../src/room/index.js';

const SHARED = resolve(process.cwd(), '..', 'shared');
const TOOL = process.env.ROOMREF_TOOL ?? join(SHARED, 'tools', 'room-reference');

interface Description {
  heightmap: string | string[];
  door?: { x: number; y: number; dir: number };
  wallHeight?: number;
  floorType?: string | null;
  wallType?: string | null;
  landscapeType?: string | null;
  wallThickness?: number;
  floorThickness?: number;
  hideWalls?: boolean;
  items?: {
    id: number;
    classname: string;
    x?: number;
    y?: number;
    z?: number;
    rot?: number;
    state?: string;
    wall?: string;
  }[];
  bots?: {
    id: number;
    figure: string;
    gender?: string;
    x: number;
    y: number;
    z?: number;
    rot?: number;
    dance?: number;
    effect?: number;
  }[];
}

/** The description as the emulator's rows: an unsent paper is the stored "0.0". */
export function descriptionRoom(d: Description, id = 1): RoomData {
  const rows = Array.isArray(d.heightmap) ? d.heightmap.join('\r') : d.heightmap;
  return roomData({
    id,
    heightmap: rows,
    door: d.door ?? { x: 0, y: 0, dir: 2 },
    floor: d.floorType ?? '0.0',
    wall: d.wallType ?? '0.0',
    landscape: d.landscapeType ?? '0.0',
    wallThickness: d.wallThickness ?? 0,
    floorThickness: d.floorThickness ?? 0,
    wallHeight: d.wallHeight ?? -1,
    hideWalls: d.hideWalls ?? false,
    items: (d.items ?? []).map((i) => ({
      id: i.id,
      classname: i.classname,
      kind: i.wall ? ('wall' as const) : ('floor' as const),
      x: i.x ?? 0,
      y: i.y ?? 0,
      z: i.z ?? 0,
      rot: i.rot ?? 0,
      wallPosition: i.wall ?? '',
      extraData: i.state ?? '',
      width: 1,
      length: 1,
      interactionType: 'default',
    })),
    bots: (d.bots ?? []).map((b) => ({
      id: b.id,
      name: `bot${b.id}`,
      figure: b.figure,
      gender: b.gender === 'F' ? ('F' as const) : ('M' as const),
      x: b.x,
      y: b.y,
      z: b.z ?? 0,
      rot: b.rot ?? 2,
      dance: b.dance ?? 0,
      effect: b.effect ?? 0,
    })),
  });
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      ref: { type: 'string' },
      out: { type: 'string', default: join(tmpdir(), 'room-reference-ours') },
      furni: { type: 'string' },
      generic: { type: 'string' },
      figures: { type: 'string' },
      json: { type: 'boolean', default: false },
      size: { type: 'string', default: '64' },
    },
  });
  if (!values.ref || positionals.length === 0) {
    console.error('usage: compare:rooms --ref <tool output dir> [--out DIR] room.json...');
    process.exit(2);
  }
  const furni = resolve(
    values.furni ?? process.env.ROOMREF_FURNI ?? join(SHARED, 'realdata/nitro-rooms/bundled/furniture'),
  );
  const generic = resolve(values.generic ?? join(SHARED, 'realdata/nitro-rooms/bundled/generic'));
  const figures = resolve(values.figures ?? join(SHARED, 'realdata/nitro'));
  // A hotel folder of links: the furni, the room visualization.
  const hotel = await mkdtemp(join(tmpdir(), 'room-ref-hotel-'));
  await mkdir(join(hotel, 'bundled'), { recursive: true });
  await symlink(furni, join(hotel, 'bundled', 'furniture'));
  await symlink(generic, join(hotel, 'bundled', 'generic'));
  const avatarHotel = existsSync(join(figures, 'gamedata')) ? await loadAvatarHotel(figures) : undefined;
  const assets = await loadRoomAssets(hotel, { ...(avatarHotel ? { avatarHotel } : {}) });
  await mkdir(values.out!, { recursive: true });
  const rows: Record<string, unknown>[] = [];
  for (const file of positionals) {
    const name = basename(file).replace(/\.input\.json$|\.json$/, '');
    const desc = JSON.parse(await readFile(file, 'utf8')) as Description;
    const t0 = performance.now();
    const size = values.size === '32' ? 32 : 64;
    const pic = await renderRoom(descriptionRoom(desc), assets, { size, walls: true, furni: true, bots: true });
    const ms = performance.now() - t0;
    const ours = join(values.out!, `${name}.png`);
    await writeFile(ours, await encodeRoomPicture(pic, undefined));
    await writeFile(join(values.out!, `${name}.report.json`), JSON.stringify(pic.report, null, 1));
    // Size 32 against the client's 64 canvas shown at half scale (a render of scale 50: see the note in
    // docs/rooms.md on the tool's zoom-out capture).
    const refPng = join(values.ref, size === 32 ? `${name}_s50.png` : `${name}.png`);
    if (!existsSync(refPng)) {
      rows.push({ room: name, error: `no ${refPng}` });
      continue;
    }
    const refReport = JSON.parse(await readFile(join(values.ref, `${name}.json`), 'utf8')) as {
      renders: { scale: number; width: number; height: number; origin: [number, number] }[];
    };
    const r64 = refReport.renders.find((r) => r.scale === (size === 32 ? 50 : 64))!;
    const out = execFileSync(
      'node',
      [
        join(TOOL, 'compare.mjs'),
        ours,
        refPng,
        '--our-origin',
        `${pic.report.origin.x},${pic.report.origin.y}`,
        '--ref-origin',
        `${r64.origin[0]},${r64.origin[1]}`,
        '--json',
        '--out',
        join(values.out!, `${name}_vs_ref.png`),
      ],
      {
        encoding: 'utf8',
        env: {
          ...process.env,
          NODE_PATH: join(process.env.ROOMREF_WORK ?? join(tmpdir(), 'room-reference'), 'node_modules'),
        },
      },
    );
    const c = JSON.parse(out.trim().split('\n').pop()!) as Record<string, unknown>;
    rows.push({
      room: name,
      ...c,
      ours: `${pic.width}x${pic.height}`,
      ref: `${r64.width}x${r64.height}`,
      skipped: pic.report.skipped.length,
      ms: Math.round(ms),
    });
  }
  if (values.json) for (const r of rows) console.log(JSON.stringify(r));
  else {
    console.log(
      `load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    for (const r of rows) console.log(JSON.stringify(r));
  }
}

await main();
