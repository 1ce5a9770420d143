// npm run bench:room-motion — /habbo-imaging/room/<id>.png?animated=1 (APNG) and .gif, cold, on a 93-item room
// built from the sample kit (no real hotel data is committed): a 16 × 16 room, 85 floor items of the kit's
// furni at seeded tiles and rotations, a third of them animated (the LED board, the lamp, the orb, the clock,
// the fan and the sign in their moving states), 8 posters and LED boards on the walls, and a dancing bot.
// Each request has a new bg= so nothing is cached (re-read window 0: the rows are read every time); the
// service runs here with its render workers. Prints the median and p90 of COLD_RUNS requests, the loop, and
// /proc/loadavg. Goal: a cold animated 93-item room within 1.5 s (median) at size 64 on this 2-core machine.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultAvatarConfig } from '../src/core/avatar/config.js';
import { readPngChunks } from '../src/imaging/png-chunks.js';
import { roomData } from '../src/room/model.js';
import { ensureSampleKit } from '../src/samplekit/index.js';
import { startAvatarService } from '../src/server/imager.js';
import { loadAverage, median } from './proc.js';
import { percentile } from './http-load.js';
import { seededRandom } from './reference/figures.js';

const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 15);
const ROOM_ID = 93;
const SIDE = 16;

const FLOOR: [string, string][] = [
  ['kit_chair_4dir', '0'],
  ['kit_crate', '0'],
  ['kit_sofa_colors*3', '0'],
  ['kit_totem_nodir2', '0'],
  ['kit_vase_colors*2', '0'],
  ['kit_lamp_state2', '3'],
  ['kit_orb_blankframe', '0'],
  ['kit_clock_repeat', '1'],
  ['kit_fan_tieframes', '1'],
  ['kit_sign_tieall', '2'],
];

function room() {
  const rand = seededRandom(93);
  const rows = [
    'x'.repeat(SIDE + 1),
    ...Array.from({ length: SIDE }, (_, y) => (y === 4 ? '0' : 'x') + '0'.repeat(SIDE)),
  ];
  const items = [];
  for (let i = 0; i < 85; i++) {
    const [classname, extraData] = FLOOR[i % FLOOR.length]!;
    items.push({
      id: i + 1,
      classname,
      kind: 'floor' as const,
      x: 1 + Math.floor(rand() * SIDE),
      y: 1 + Math.floor(rand() * SIDE),
      z: 0,
      rot: [0, 2, 4, 6][Math.floor(rand() * 4)]!,
      wallPosition: '',
      extraData,
      width: 1,
      length: 1,
      interactionType: 'default',
    });
  }
  for (let i = 0; i < 8; i++)
    items.push({
      id: 86 + i,
      classname: i % 2 ? 'kit_wall_led' : 'kit_wall_poster',
      kind: 'wall' as const,
      x: 0,
      y: 0,
      z: 0,
      rot: 0,
      wallPosition: i < 4 ? `:w=${2 + i * 3},0 l=10,30 r` : `:w=0,${2 + (i - 4) * 3} l=8,34 l`,
      extraData: i % 2 ? '1' : '0',
      width: 1,
      length: 1,
      interactionType: 'default',
    });
  const bot = { id: 1, name: 'Kit', figure: 'hd-180-1.hr-100-61.ch-210-66.lg-270-82.sh-290-80', gender: 'M' as const };
  return roomData({
    id: ROOM_ID,
    heightmap: rows.join('\r'),
    door: { x: 0, y: 4, dir: 2 },
    items,
    bots: [{ ...bot, x: 8, y: 8, z: 0, rot: 4, dance: 1, effect: 0 }],
  });
}

const scratch = await mkdtemp(join(tmpdir(), 'bench-room-motion-'));
try {
  const kit = join(scratch, 'kit');
  await ensureSampleKit(kit);
  await writeFile(join(kit, 'rooms', `${ROOM_ID}.json`), JSON.stringify(room()));
  const svc = await startAvatarService({
    ...defaultAvatarConfig(),
    assetsDir: kit,
    host: '127.0.0.1',
    port: 0,
    logLevel: 'warn',
    checkIntervalMs: 0,
    roomRereadMs: 0,
  });
  try {
    let n = 0;
    const once = async (path: string) => {
      const t = performance.now();
      const res = await fetch(`${svc.url}${path}${path.includes('?') ? '&' : '?'}bg=${(0x100000 + n++).toString(16)}`);
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.toString()}`);
      return { ms: performance.now() - t, body, frames: res.headers.get('x-imager-frames') };
    };
    const first = await once(`/habbo-imaging/room/${ROOM_ID}.png?animated=1`);
    const actl = readPngChunks(first.body).find((c) => c.type === 'acTL');
    console.log(
      `first request (bundles decoded): ${first.ms.toFixed(0)} ms, ${first.frames} frames, ${first.body.length} bytes, acTL ${!!actl}`,
    );
    for (const [name, path] of [
      ['still, size 64', `/habbo-imaging/room/${ROOM_ID}.png`],
      ['APNG, size 64', `/habbo-imaging/room/${ROOM_ID}.png?animated=1`],
      ['GIF, size 64', `/habbo-imaging/room/${ROOM_ID}.gif`],
      ['APNG, size 32', `/habbo-imaging/room/${ROOM_ID}.png?animated=1&size=s`],
    ] as const) {
      const ms: number[] = [];
      let last = first;
      for (let i = 0; i < COLD_RUNS; i++) ms.push((last = await once(path)).ms);
      console.log(
        `${name}: cold median ${median(ms).toFixed(1)} ms, p90 ${percentile(
          [...ms].sort((a, b) => a - b),
          90,
        ).toFixed(1)} ms of ${COLD_RUNS}; ` +
          `${last.frames} frames, ${(last.body.length / 1024).toFixed(0)} KiB; load ${loadAverage()}`,
      );
    }
  } finally {
    await svc.close();
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
