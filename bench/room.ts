// npm run bench:room — /habbo-imaging/room/<id>.png on a 20 × 20 room with 150 items (the sample kit's furni,
// seeded positions, rotations and stacks), the avatar service in a child process:
//   1. cold: the rows read and the room drawn and encoded, every request (re-read window 0, a new bg= each
//      time so no picture is cached), sequential, size 64 and size 32: ms p50 / p90 and the first one alone;
//   2. unchanged, rows read again every request (re-read window 0) and the digest found in memory: wrk;
//   3. unchanged within the re-read window (the default 10 s): no read, the key and the picture in memory: wrk.
// Rows come from a throwaway MariaDB (test/helpers/mariadb.ts) when mariadbd is installed, else from the kit's
// room file (the same room as RoomData JSON). wrk is installed with apt-get when missing. Prints figures only.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBench, startChild, stopChild } from './child.js';
import { ensureWrk, freePort, percentile, wrk } from './http-load.js';
import { loadAverage } from './proc.js';
import { seededRandom } from './reference/figures.js';
import { roomData } from '../src/room/model.js';

const HERE = fileURLToPath(import.meta.url);
const ROOM_ID = 7;
const ITEMS = 150;
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 30);
const WRK_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

async function childMain(): Promise<void> {
  const { defaultAvatarConfig } = await import('../src/core/avatar/config.js');
  const { startAvatarService } = await import('../src/server/imager.js');
  const [assetsDir, port, reread, database] = process.argv.slice(3);
  const running = await startAvatarService({
    ...defaultAvatarConfig(),
    assetsDir: assetsDir!,
    host: '127.0.0.1',
    port: Number(port),
    workers: 1, // avatars are not measured here
    logLevel: 'warn',
    checkIntervalMs: 0,
    roomRereadMs: Number(reread),
    ...(database === '-' ? {} : { databaseUrl: database }),
  });
  process.send?.({ ready: running.url });
}

interface BenchItem {
  classname: string;
  type: 's' | 'i';
  width: number;
  length: number;
}

const FURNI: BenchItem[] = [
  { classname: 'kit_chair_4dir', type: 's', width: 1, length: 1 },
  { classname: 'kit_crate', type: 's', width: 1, length: 1 },
  { classname: 'kit_table_sd', type: 's', width: 2, length: 2 },
  { classname: 'kit_sofa_colors*3', type: 's', width: 2, length: 1 },
  { classname: 'kit_lamp_state2', type: 's', width: 1, length: 1 },
  { classname: 'kit_totem_nodir2', type: 's', width: 1, length: 1 },
  { classname: 'kit_vase_colors*2', type: 's', width: 1, length: 1 },
  { classname: 'kit_wall_poster', type: 'i', width: 1, length: 1 },
];

/** 150 items on a 20 × 20 floor: a wall item in ten, stacks where two land on one tile. */
function benchItems() {
  const rnd = seededRandom(37);
  const heights = new Map<string, number>();
  return Array.from({ length: ITEMS }, (_, i) => {
    const f = i % 10 === 9 ? FURNI[7]! : FURNI[Math.floor(rnd() * 7)]!;
    const x = 1 + Math.floor(rnd() * 19);
    const y = 1 + Math.floor(rnd() * 19);
    const z = heights.get(`${x},${y}`) ?? 0;
    if (f.type === 's') heights.set(`${x},${y}`, z + 1);
    const side = rnd() < 0.5 ? 'l' : 'r';
    const wall = side === 'l' ? `:w=0,${1 + (i % 19)} l=8,40 l` : `:w=${1 + (i % 19)},0 l=8,40 r`;
    return { ...f, id: i + 1, x, y, z, rot: [0, 2, 4, 6][Math.floor(rnd() * 4)]!, wall: f.type === 'i' ? wall : '' };
  });
}

const HEIGHTMAP = ['x'.repeat(21), ...Array.from({ length: 20 }, (_, i) => (i === 9 ? '0' : 'x') + '0'.repeat(20))];

async function seedDatabase(sql: (s: string) => Promise<unknown>): Promise<void> {
  const items = benchItems();
  await sql(`
    INSERT INTO items_base (id, item_name, type, width, length) VALUES
      ${FURNI.map((f, i) => `(${i + 1}, '${f.classname}', '${f.type}', ${f.width}, ${f.length})`).join(',')};
    INSERT INTO rooms (id, name, model, override_model) VALUES (${ROOM_ID}, 'bench', 'model_a', '1');
    INSERT INTO room_models_custom (id, name, door_x, door_y, door_dir, heightmap) VALUES
      (${ROOM_ID}, 'bench', 0, 9, 2, '${HEIGHTMAP.join('\\r\\n')}');
    INSERT INTO items (room_id, item_id, x, y, z, rot, wall_pos, extra_data) VALUES
      ${items
        .map(
          (it) =>
            `(${ROOM_ID}, ${FURNI.findIndex((f) => f.classname === it.classname) + 1}, ${it.x}, ${it.y}, ${it.z}, ${it.rot}, '${it.wall}', '0')`,
        )
        .join(',')};
  `);
}

function roomFile(): string {
  const room = roomData({
    id: ROOM_ID,
    heightmap: HEIGHTMAP.join('\r'),
    door: { x: 0, y: 9, dir: 2 },
    items: benchItems().map((it) => ({
      id: it.id,
      classname: it.classname,
      kind: it.type === 's' ? 'floor' : 'wall',
      x: it.x,
      y: it.y,
      z: it.z,
      rot: it.rot,
      wallPosition: it.wall,
      extraData: '0',
      width: it.width,
      length: it.length,
      interactionType: 'default',
    })),
  });
  return JSON.stringify(room);
}

const wrkRoom = (url: string) => wrk(url, { threads: 2, connections: 32, seconds: WRK_SECONDS });

async function cold(url: string, size: 'm' | 's'): Promise<{ first: number; p50: number; p90: number }> {
  const times: number[] = [];
  for (let i = 0; i <= COLD_RUNS; i++) {
    const bg = (0x100000 + i * 7919 + (size === 's' ? 3 : 0)).toString(16).slice(-6);
    const t = performance.now();
    const res = await fetch(`${url}/habbo-imaging/room/${ROOM_ID}.png?size=${size}&bg=${bg}`);
    await res.arrayBuffer();
    if (res.status !== 200 || res.headers.get('x-imager-cache') !== 'render')
      throw new Error(`cold request answered ${res.status} from ${res.headers.get('x-imager-cache')}`);
    times.push(performance.now() - t);
  }
  const [first, ...rest] = times;
  rest.sort((a, b) => a - b);
  return { first: first!, p50: percentile(rest, 50), p90: percentile(rest, 90) };
}

async function main(): Promise<void> {
  const { ensureSampleKit } = await import('../src/samplekit/index.js');
  const { MARIADB_SKIP, startMariaDb } = await import('../test/helpers/mariadb.js');
  const scratch = await mkdtemp(join(tmpdir(), 'bench-room-'));
  const kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  let database = '-';
  const db = MARIADB_SKIP ? undefined : await startMariaDb();
  if (db) {
    await seedDatabase(db.sql);
    database = db.url;
  } else await writeFile(join(kit, 'rooms', `${ROOM_ID}.json`), roomFile());
  ensureWrk();
  console.log(`rows from: ${db ? 'MariaDB (Arcturus tables)' : 'the kit room file'}; load before: ${loadAverage()}`);
  try {
    const noWindow = await startChild(HERE, [kit, String(await freePort()), '0', database]);
    try {
      for (const size of ['m', 's'] as const) {
        const c = await cold(noWindow.url, size);
        console.log(
          `cold size ${size === 'm' ? 64 : 32} (rows read + drawn + encoded, ${COLD_RUNS} runs): ` +
            `p50 ${c.p50.toFixed(1)} ms, p90 ${c.p90.toFixed(1)} ms (first, furni loading: ${c.first.toFixed(0)} ms)`,
        );
      }
      const url = `${noWindow.url}/habbo-imaging/room/${ROOM_ID}.png`;
      await fetch(url).then((r) => r.arrayBuffer());
      const hit = await wrkRoom(url);
      console.log(
        `unchanged, rows read every request, digest hit: ${hit.rps.toFixed(0)} req/s ` +
          `(p50 ${hit.p50}, p99 ${hit.p99}, non-2xx ${hit.non2xx}; wrk -t2 -c32 ${WRK_SECONDS}s)`,
      );
    } finally {
      await stopChild(noWindow.proc);
    }
    const windowed = await startChild(HERE, [kit, String(await freePort()), '10000', database]);
    try {
      const url = `${windowed.url}/habbo-imaging/room/${ROOM_ID}.png`;
      await fetch(url).then((r) => r.arrayBuffer());
      const hit = await wrkRoom(url);
      console.log(
        `unchanged within the 10 s re-read window: ${hit.rps.toFixed(0)} req/s ` +
          `(p50 ${hit.p50}, p99 ${hit.p99}, non-2xx ${hit.non2xx})`,
      );
    } finally {
      await stopChild(windowed.proc);
    }
  } finally {
    await db?.stop();
    await rm(scratch, { recursive: true, force: true });
  }
  console.log(`load after: ${loadAverage()}`);
}

runBench(main, childMain);
