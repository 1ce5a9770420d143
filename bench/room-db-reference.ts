// Rooms as served against the Nitro client's picture of the same database rows (dev tool, not a test, never in
// CI). Seeds a throwaway MariaDB (test/helpers/mariadb.ts: the Arcturus tables) with room descriptions (the
// room-reference tool's JSON: the zoo rooms of `npm run room-zoo`, the tool's examples) as the emulator's rows
// (rooms, room_models_custom, items, items_base, bots; papers '0.0' where a description sends none), starts
// our service in a child on a hotel folder of links (furni, room.nitro, the figure data for bots), fetches
// /habbo-imaging/room/<id>.png as served (no parameters) and the debug page for its origin, exports and
// renders the same rows with the tool (`run.sh --db`, the read-only imager account), and scores each served
// picture with the tool's compare.mjs. It also draws each exported description in-process (as compare:rooms
// does) and says whether the served picture's pixels equal it.
//
//   npm run room-zoo -- --out /tmp/zoo/zoo
//   node --import tsx bench/room-db-reference.ts --out /tmp/zoo/db --furnidata /tmp/zoo/zoo/FurnitureData.json \
//     /tmp/zoo/zoo/rooms/*.json ../shared/tools/room-reference/examples/*.json
//
// Options: --furni DIR (bundled/furniture; default /tmp/quech/bundled/furniture), --generic DIR (room.nitro;
// default shared nitro-rooms), --figures DIR (a Nitro hotel for bots; default shared nitro), --furnidata FILE
// (the FurnitureData.json the client resolves classnames by; rows of the shared nitro-rooms FurnitureData are
// added for classnames it lacks), --json. Everything written goes under --out (keep it outside the checkout).
//
// Rooms already in a database dump: --sql FILE is run as root after the tables are made (a dump's own DROP/CREATE
// TABLE and INSERT statements for rooms, room_models(_custom), items, items_base, bots: the imager account's
// table grants stay), and a positional that is a number is a room id of those rows, exported by the tool's
// export.mjs (the FurnitureData is completed from the exported classnames) instead of seeded:
//   node --import tsx bench/room-db-reference.ts --out /tmp/dbr/dump --sql /tmp/dbr/dump-rooms.sql 50 51 52
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PNG } from 'pngjs';
import { runBench, startChild, stopChild } from './child.js';
import { freePort } from './http-load.js';
import { type Description, descriptionRoom } from '../test/helpers/room-description.js';

const HERE = fileURLToPath(import.meta.url);
const SHARED = resolve(process.cwd(), '..', 'shared');
const TOOL = process.env.ROOMREF_TOOL ?? join(SHARED, 'tools', 'room-reference');
const ROOMREF_WORK = process.env.ROOMREF_WORK ?? join(tmpdir(), 'room-reference');

interface FurniRow {
  id: number;
  classname: string;
  xdim?: number;
  ydim?: number;
  [key: string]: unknown;
}
interface FurnitureData {
  roomitemtypes: { furnitype: FurniRow[] };
  wallitemtypes: { furnitype: FurniRow[] };
}

async function childMain(): Promise<void> {
  const { defaultAvatarConfig } = await import('../src/core/avatar/config.js');
  const { startAvatarService } = await import('../src/server/imager.js');
  const [assetsDir, port, database] = process.argv.slice(3);
  const running = await startAvatarService({
    ...defaultAvatarConfig(),
    assetsDir: assetsDir!,
    host: '127.0.0.1',
    port: Number(port),
    workers: 1,
    logLevel: 'warn',
    checkIntervalMs: 0,
    databaseUrl: database!,
    followSymlinks: true, // the hotel folder is links to the shared data
  });
  process.send?.({ ready: running.url });
}

/** A SQL string literal (CR and LF as escapes: the client would drop a raw CR read from its input). */
const q = (s: string) =>
  `'${s.replace(/\\/g, '\\\\').replace(/'/g, "''").replace(/\r/g, '\\r').replace(/\n/g, '\\n')}'`;

/** The statements that store the rooms as Arcturus rows; item and bot ids are made unique per room. */
function seedSql(rooms: { id: number; name: string; desc: Description }[], fd: FurnitureData): string {
  const dims = new Map<string, FurniRow>();
  for (const r of fd.roomitemtypes.furnitype) dims.set(`s:${r.classname}`, r);
  for (const r of fd.wallitemtypes.furnitype) dims.set(`i:${r.classname}`, r);
  const base = new Map<string, { id: number; type: 's' | 'i'; width: number; length: number }>();
  const stmts: string[] = [];
  const items: string[] = [];
  const bots: string[] = [];
  for (const { id, name, desc } of rooms) {
    const heightmap = Array.isArray(desc.heightmap)
      ? desc.heightmap.join('\r\n')
      : desc.heightmap.replace(/\r/g, '\r\n');
    const door = desc.door ?? { x: 0, y: 0, dir: 2 };
    stmts.push(
      'INSERT INTO rooms (id, name, model, override_model, paper_floor, paper_wall, paper_landscape, ' +
        'thickness_wall, thickness_floor, wall_height, allow_hidewall) VALUES ' +
        `(${id}, ${q(name)}, ${q(`zoo_${id}`)}, '1', ${q(desc.floorType ?? '0.0')}, ${q(desc.wallType ?? '0.0')}, ` +
        `${q(desc.landscapeType ?? '0.0')}, ${desc.wallThickness ?? 0}, ${desc.floorThickness ?? 0}, ` +
        `${desc.wallHeight ?? -1}, '${desc.hideWalls ? 1 : 0}');`,
      'INSERT INTO room_models_custom (id, name, door_x, door_y, door_dir, heightmap) VALUES ' +
        `(${id}, ${q(`zoo_${id}`)}, ${door.x}, ${door.y}, ${door.dir}, ${q(heightmap)});`,
    );
    for (const it of desc.items ?? []) {
      const type = it.wall ? 'i' : 's';
      const key = `${type}:${it.classname}`;
      let b = base.get(key);
      if (!b) {
        const row = dims.get(key);
        b = { id: base.size + 1, type, width: row?.xdim ?? 1, length: row?.ydim ?? 1 };
        base.set(key, b);
      }
      items.push(
        `(${id * 10_000 + it.id}, ${id}, ${b.id}, ${q(it.wall ?? '')}, ${it.x ?? 0}, ${it.y ?? 0}, ${it.z ?? 0}, ` +
          `${it.rot ?? 0}, ${q(it.state ?? '')})`,
      );
    }
    for (const [i, bot] of (desc.bots ?? []).entries())
      bots.push(
        `(${id * 100 + i + 1}, ${id}, ${q(`bot${i + 1}`)}, ${q(bot.figure)}, ${q(bot.gender === 'F' ? 'F' : 'M')}, ` +
          `${bot.x}, ${bot.y}, ${bot.z ?? 0}, ${bot.rot ?? 2}, ${bot.dance ?? 0}, ${bot.effect ?? 0})`,
      );
  }
  const baseRows = [...base.entries()].map(
    ([key, b]) => `(${b.id}, ${b.id}, ${q(key.slice(2))}, ${q(key.slice(2))}, '${b.type}', ${b.width}, ${b.length})`,
  );
  if (baseRows.length > 0)
    stmts.push(
      `INSERT INTO items_base (id, sprite_id, public_name, item_name, type, width, length) VALUES ${baseRows.join(',')};`,
    );
  if (items.length > 0)
    stmts.push(
      `INSERT INTO items (id, room_id, item_id, wall_pos, x, y, z, rot, extra_data) VALUES ${items.join(',')};`,
    );
  if (bots.length > 0)
    stmts.push(
      `INSERT INTO bots (id, room_id, name, figure, gender, x, y, z, rot, dance, effect) VALUES ${bots.join(',')};`,
    );
  return stmts.join('\n');
}

/** The FurnitureData the client resolves by: the given one, plus shared rows for classnames it lacks. */
async function mergedFurnitureData(given: string | undefined, rooms: { desc: Description }[]): Promise<FurnitureData> {
  const fd: FurnitureData = given
    ? (JSON.parse(await readFile(given, 'utf8')) as FurnitureData)
    : { roomitemtypes: { furnitype: [] }, wallitemtypes: { furnitype: [] } };
  const shared = JSON.parse(
    await readFile(join(SHARED, 'realdata/nitro-rooms/gamedata/FurnitureData.json'), 'utf8'),
  ) as FurnitureData;
  const ids = new Set([...fd.roomitemtypes.furnitype, ...fd.wallitemtypes.furnitype].map((r) => r.id));
  const has = (list: FurniRow[], cn: string) => list.some((r) => r.classname === cn);
  for (const { desc } of rooms)
    for (const it of desc.items ?? []) {
      const [mine, theirs] = it.wall
        ? [fd.wallitemtypes.furnitype, shared.wallitemtypes.furnitype]
        : [fd.roomitemtypes.furnitype, shared.roomitemtypes.furnitype];
      if (has(mine, it.classname)) continue;
      const row = theirs.find((r) => r.classname === it.classname);
      if (!row) throw new Error(`${it.classname}: in neither FurnitureData`);
      if (ids.has(row.id)) throw new Error(`${it.classname}: type id ${row.id} is taken`);
      ids.add(row.id);
      mine.push(row);
    }
  return fd;
}

function pixelsEqual(a: Buffer, b: Buffer): boolean {
  const pa = PNG.sync.read(a);
  const pb = PNG.sync.read(b);
  return pa.width === pb.width && pa.height === pb.height && Buffer.compare(pa.data, pb.data) === 0;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      out: { type: 'string', default: join(tmpdir(), 'room-db-reference') },
      furni: { type: 'string', default: '/tmp/quech/bundled/furniture' },
      generic: { type: 'string' },
      figures: { type: 'string' },
      furnidata: { type: 'string' },
      sql: { type: 'string' },
      'first-id': { type: 'string', default: '101' },
      json: { type: 'boolean', default: false },
    },
  });
  if (positionals.length === 0) {
    console.error('usage: room-db-reference [--out DIR] [--furnidata FILE] [--sql FILE] room.json... | room-id...');
    process.exit(2);
  }
  const { MARIADB_SKIP, startMariaDb, IMAGER_PASSWORD, IMAGER_USER, HOTEL_DB } = await import(
    '../test/helpers/mariadb.js'
  );
  if (MARIADB_SKIP) throw new Error(MARIADB_SKIP);
  const out = resolve(values.out!);
  const furni = resolve(values.furni!);
  const generic = resolve(values.generic ?? join(SHARED, 'realdata/nitro-rooms/bundled/generic'));
  const figures = resolve(values.figures ?? join(SHARED, 'realdata/nitro'));
  const firstId = Number(values['first-id']);
  const existingIds = positionals.filter((p) => /^\d+$/.test(p)).map(Number);
  if (existingIds.length > 0 && !values.sql) throw new Error('room ids need --sql (the rows they are in)');
  const files = positionals.filter((p) => !/^\d+$/.test(p));
  const seeded = await Promise.all(
    files.map(async (file, i) => ({
      id: firstId + i,
      name: basename(file).replace(/\.input\.json$|\.json$/, ''),
      desc: JSON.parse(await readFile(file, 'utf8')) as Description,
    })),
  );
  if (seeded.some((r) => existingIds.includes(r.id))) throw new Error('--first-id: seeded room ids meet the given ids');
  await mkdir(join(out, 'ours'), { recursive: true });
  const fdFile = join(out, 'FurnitureData.json');
  // The hotel folder: links to the furni, the room visualization and the figure data (bots).
  const hotel = await mkdtemp(join(tmpdir(), 'room-db-hotel-'));
  await mkdir(join(hotel, 'bundled'), { recursive: true });
  await symlink(furni, join(hotel, 'bundled', 'furniture'));
  await symlink(generic, join(hotel, 'bundled', 'generic'));
  for (const d of ['figure', 'effect'])
    if (existsSync(join(figures, 'bundled', d))) await symlink(join(figures, 'bundled', d), join(hotel, 'bundled', d));
  await symlink(join(figures, 'gamedata'), join(hotel, 'gamedata'));

  const db = await startMariaDb();
  const rows: Record<string, unknown>[] = [];
  const mysqlEnv = {
    ROOMREF_MYSQL: `mariadb -h 127.0.0.1 -P ${db.port} -u ${IMAGER_USER} ${HOTEL_DB}`,
    MYSQL_PWD: IMAGER_PASSWORD,
  };
  try {
    // Rooms of a dump: its rows as they are, exported as the tool exports them (for their classnames).
    const existing: typeof seeded = [];
    if (values.sql) {
      await db.sql(await readFile(resolve(values.sql), 'utf8'));
      const exportDir = join(out, 'export');
      if (existingIds.length > 0)
        execFileSync('node', [join(TOOL, 'export.mjs'), exportDir, ...existingIds.map(String)], {
          env: { ...process.env, ...mysqlEnv },
          stdio: ['ignore', 'ignore', 'inherit'],
        });
      for (const id of existingIds)
        existing.push({
          id,
          name: `db-${id}`,
          desc: JSON.parse(await readFile(join(exportDir, `${id}.json`), 'utf8')) as Description,
        });
    }
    const rooms = [...existing, ...seeded];
    const fd = await mergedFurnitureData(values.furnidata, rooms);
    await writeFile(fdFile, JSON.stringify(fd));
    if (seeded.length > 0) await db.sql(seedSql(seeded, fd));
    // The client's side: the tool exports the same rows (read-only account) and renders them.
    const refDir = join(out, 'ref');
    const tool = spawnSync('bash', [join(TOOL, 'run.sh'), '--db', refDir, ...rooms.map((r) => String(r.id))], {
      encoding: 'utf8',
      env: {
        ...process.env,
        ROOMREF_WORK,
        ROOMREF_FURNI: furni,
        ROOMREF_FURNIDATA: fdFile,
        ROOMREF_GENERIC: generic,
        ROOMREF_NITRO: figures,
        ...mysqlEnv,
      },
      maxBuffer: 64 << 20,
    });
    await writeFile(join(out, 'tool.log'), `${tool.stdout}\n${tool.stderr}`);
    if (tool.status !== 0) throw new Error(`run.sh --db exited ${tool.status}: ${tool.stderr.slice(-2000)}`);

    // Our side: the service on the same rows, as served.
    const service = await startChild(HERE, [hotel, String(await freePort()), db.url]);
    const served = new Map<number, { png: Buffer; origin: { x: number; y: number } | undefined; ms: number }>();
    try {
      for (const r of rooms) {
        const t0 = performance.now();
        const res = await fetch(`${service.url}/habbo-imaging/room/${r.id}.png`);
        const png = Buffer.from(await res.arrayBuffer());
        const ms = performance.now() - t0;
        if (res.status !== 200) throw new Error(`room ${r.id}: ${res.status} ${png.toString('utf8').slice(0, 300)}`);
        const page = await (await fetch(`${service.url}/render/room/${r.id}`)).text();
        const m = /origin \(centre of tile 0,0 at height 0\): (-?[\d.]+), (-?[\d.]+)/.exec(page);
        served.set(r.id, { png, origin: m ? { x: Number(m[1]), y: Number(m[2]) } : undefined, ms });
        await writeFile(join(out, 'ours', `${r.name}.png`), png);
      }
    } finally {
      await stopChild(service.proc);
    }

    // In-process: the exported description drawn as compare:rooms draws it.
    const { loadAvatarHotel } = await import('../src/avatar/index.js');
    const { loadRoomAssets, renderRoom } = await import('../src/room/index.js');
    const { encodeRoomPicture } = await import('../src/room/index.js');
    const avatarHotel = await loadAvatarHotel(figures);
    const assets = await loadRoomAssets(hotel, { avatarHotel });
    for (const r of rooms) {
      const s = served.get(r.id)!;
      const exported = JSON.parse(await readFile(join(refDir, `${r.id}.input.json`), 'utf8')) as Description;
      const pic = await renderRoom(descriptionRoom(exported, r.id), assets, {
        size: 64,
        walls: true,
        furni: true,
        bots: true,
      });
      const inProcess = await encodeRoomPicture(pic, undefined);
      await writeFile(join(out, 'ours', `${r.name}.inprocess.png`), inProcess);
      const refReport = JSON.parse(await readFile(join(refDir, `${r.id}.json`), 'utf8')) as {
        renders: { scale: number; width: number; height: number; origin: [number, number]; unresolved?: unknown[] }[];
        missingAssets?: unknown[];
      };
      const r64 = refReport.renders.find((x) => x.scale === 64)!;
      const ours = join(out, 'ours', `${r.name}.png`);
      const align = s.origin
        ? ['--our-origin', `${s.origin.x},${s.origin.y}`, '--ref-origin', `${r64.origin[0]},${r64.origin[1]}`]
        : ['--search', '8'];
      const cmp = execFileSync(
        'node',
        [
          join(TOOL, 'compare.mjs'),
          ours,
          join(refDir, `${r.id}.png`),
          ...align,
          '--json',
          '--out',
          join(out, 'ours', `${r.name}_vs_ref.png`),
        ],
        { encoding: 'utf8', env: { ...process.env, NODE_PATH: join(ROOMREF_WORK, 'node_modules') } },
      );
      const c = JSON.parse(cmp.trim().split('\n').pop()!) as Record<string, unknown>;
      const sameOrigin = s.origin ? s.origin.x === pic.report.origin.x && s.origin.y === pic.report.origin.y : false;
      rows.push({
        room: r.name,
        id: r.id,
        identicalPct: c.identicalPct,
        withinPct: c.withinPct,
        maskIoU: c.maskIoU,
        offset: c.offset,
        ours: `${PNG.sync.read(s.png).width}x${PNG.sync.read(s.png).height}`,
        ref: `${r64.width}x${r64.height}`,
        origin: s.origin ? `${s.origin.x},${s.origin.y}` : 'not exposed (searched)',
        servedEqualsInProcess: pixelsEqual(s.png, inProcess) && sameOrigin,
        unresolved: r64.unresolved?.length ?? 0,
        missingAssets: refReport.missingAssets?.length ?? 0,
        skipped: pic.report.skipped.length,
        servedMs: Math.round(s.ms),
      });
    }
  } finally {
    await db.stop();
    await rm(hotel, { recursive: true, force: true });
  }
  if (!values.json)
    console.log(
      `load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; served pictures in ${join(out, 'ours')}, the client's in ${join(out, 'ref')}`,
    );
  for (const r of rows) console.log(JSON.stringify(r));
}

runBench(main, childMain);
