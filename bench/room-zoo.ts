// Zoo rooms (dev script, seeded, deterministic): rooms full of distinct furni picked from a whole Nitro furni
// folder, for measuring our room pictures against the room-reference tool's on many items at once. Reads each
// bundle's logic (dimensions, directions, mask type) and its size-64 visualization (layers' inks, animations,
// colours) with our own parsers, picks N distinct classnames by a seed with quotas for the hard cases (ADD and
// other inks, animated, multi-state, windows, wall items, colour variants), and writes into --out:
//   rooms/zoo-NN.json      room descriptions (the tool's JSON): a 20 × 20 flat floor with a door on the left
//                          wall, the floor items laid out on shelves with a free tile between footprints,
//                          wall items spaced along both walls; rotations from the item's own logic
//                          directions, states from its resting animations
//   FurnitureData.json     every classname used with a type id (colour variants as rows of their own), for
//                          the tool's ROOMREF_FURNIDATA
//   picks.json             why each classname was picked (its categories), for reading the results
//
//   npm run room-zoo -- --out /tmp/zoo/rooms [--furni DIR] [--seed 1] [--count 240] [--per-room 30]
//
// Nothing here is committed output: point --out outside the checkout (the bundles are Sulake's art).
import { type DescriptionItem } from '../test/helpers/room-description.js';
import { furniRow } from '../src/samplekit/furni/furnidata.js';
import { readdir, readFile, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { seededRandom } from './reference/figures.js';
import { readNitroBundle } from '../src/formats/nitro-container.js';
import { type NitroAssetData } from '../src/formats/nitro-asset-types.js';
import {
  furniModelFromLibrary,
  resolveLayer,
  restingStates,
  sizeOf,
  type FurniDefinition,
} from '../src/furni/model.js';
import { readRoomFurni, roomFurniFile } from '../src/hotel/room.js';

/** Room size (tiles of floor) and the door row on the left wall. */
const FLOOR = 20;
const DOOR_Y = 10;

/** Visualizations drawn from data the zoo cannot give (URLs, groups, badges, pets, particle systems). */
const SKIP_VISUALIZATIONS = new Set([
  'furniture_external_image',
  'furniture_guild_customized',
  'furniture_guild_isometric_badge',
  'furniture_badge_display',
  'furniture_youtube',
  'furniture_bb',
  'furniture_isometric_bb',
  'furniture_planet_system',
  'furniture_fireworks',
  'furniture_mannequin',
  'furniture_dynamic_thumbnail',
  'furniture_room_background',
  'furniture_background_color',
  'furniture_brand',
  'furniture_stickie',
  'furniture_gift_wrapped',
  'furniture_gift_wrapped_fireworks',
  'furniture_counter_clock',
  'furniture_score_board',
  'furniture_habbowheel',
  'furniture_cuboid',
  'furniture_vote_counter',
  'furniture_vote_majority',
]);
const SKIP_LOGIC =
  /external_image|guild|badge|room_dimmer|roomdimmer|background_color|mannequin|stickie|postit|present|ecotron_box|crackable|song_disk|pet_|trophy|youtube|ads_|room_bg|bg$/i;

export interface ZooCandidate {
  classname: string;
  kind: 'floor' | 'wall';
  /** Footprint in tiles before rotation (ceil of the logic dimensions; wall items: width along the wall). */
  width: number;
  length: number;
  height: number;
  /** Valid rotations (Arcturus rot, 0-7) from the logic directions. */
  rots: number[];
  /** Resting states (animation ids) of size 64; ["0"] when none. */
  states: number[];
  colors: number[];
  inks: string[];
  animated: boolean;
  multistate: boolean;
  window: boolean;
  logicType: string;
  visualizationType: string;
}

/** What one bundle's JSON says about drawing it in a room, or a reason it is left out. */
export function candidateOf(name: string, data: NitroAssetData): ZooCandidate | string {
  const def: FurniDefinition = furniModelFromLibrary({ name, data, sprites: new Map() }).def;
  const visualizationType = def.visualizationType;
  const logicType = def.logicType;
  if (SKIP_VISUALIZATIONS.has(visualizationType)) return `visualization ${visualizationType}`;
  if (SKIP_LOGIC.test(logicType)) return `logic ${logicType}`;
  const size = sizeOf({ def, sprites: new Map() }, 64);
  if (!size || size.layerCount === 0) return 'no size-64 visualization';
  const assets = Object.keys(data.assets ?? {});
  if (!assets.some((a) => a.includes('_64_'))) return 'no size-64 assets';
  const dirs = def.directions.filter((d) => Number.isInteger(d / 45) && d >= 0 && d < 360);
  const wall =
    dirs.length > 0 && dirs.every((d) => d === 90 || d === 180) && def.dimensions.y < 1 && def.dimensions.z > 0;
  const width = Math.max(1, Math.ceil(def.dimensions.x - 1e-6));
  const length = Math.max(1, Math.ceil(def.dimensions.y - 1e-6));
  if (!wall && (width > 5 || length > 5)) return `footprint ${width}x${length}`;
  if (wall && width > 4) return `wall width ${width}`;
  const inks = new Set<string>();
  for (let l = 0; l < size.layerCount; l++) {
    for (const d of [...size.directions.map((x) => x.id), -1]) {
      const ink = resolveLayer(size, d, l).ink.toUpperCase();
      if (ink !== 'NORMAL' && ink !== 'COPY') inks.add(ink);
    }
  }
  const resting = restingStates(size)
    .map((a) => a.id)
    .filter((id) => id >= 0 && id < 1000)
    .sort((a, b) => a - b);
  const animated = size.animations.some((a) =>
    Object.values(a.layers).some((l) => l.sequences.some((s) => s.frames.length > 1)),
  );
  const maskType = (data.logic as { maskType?: unknown } | undefined)?.maskType;
  return {
    classname: name,
    kind: wall ? 'wall' : 'floor',
    width,
    length: wall ? 1 : length,
    height: def.dimensions.z,
    rots: wall ? [2, 4] : dirs.length > 0 ? [...new Set(dirs.map((d) => d / 45))].sort((a, b) => a - b) : [0],
    states: resting.length > 0 ? resting : [0],
    colors: Object.keys(size.colors)
      .map(Number)
      .filter((c) => Number.isInteger(c) && c > 0)
      .sort((a, b) => a - b),
    inks: [...inks].sort(),
    animated,
    multistate: resting.length > 1,
    window: typeof maskType === 'string' && maskType !== '',
    logicType,
    visualizationType,
  };
}

/** Reads the JSON document of every bundle in the folder (no image decoded), sorted by name. */
async function scan(folder: string): Promise<{ candidates: ZooCandidate[]; skipped: Map<string, number> }> {
  const files = (await readdir(folder)).filter((f) => f.endsWith('.nitro')).sort();
  const candidates: ZooCandidate[] = [];
  const skipped = new Map<string, number>();
  const skip = (why: string) => skipped.set(why, (skipped.get(why) ?? 0) + 1);
  for (const f of files) {
    const name = f.slice(0, -'.nitro'.length);
    if (!/^[A-Za-z0-9_-]+$/.test(name)) {
      skip('name');
      continue;
    }
    try {
      const members = readNitroBundle(await readFile(join(folder, f)), f, (n) => n.endsWith('.json'));
      const json = [...members.values()][0];
      if (!json) {
        skip('no json');
        continue;
      }
      const data = JSON.parse(json.toString('utf8')) as NitroAssetData;
      const dataName = typeof data.name === 'string' && data.name ? data.name : name;
      if (dataName !== name) {
        skip('name differs from file');
        continue;
      }
      const c = candidateOf(name, data);
      if (typeof c === 'string') skip(c.split(' ')[0]!);
      else candidates.push(c);
    } catch {
      skip('unreadable');
    }
  }
  return { candidates, skipped };
}

interface Pick {
  candidate: ZooCandidate;
  /** The classname as placed: `base*N` for a colour variant. */
  classname: string;
  why: string[];
}

/** N distinct classnames: quotas for each hard case first (seeded), then the rest at random. */
function pickClassnames(all: ZooCandidate[], count: number, rnd: () => number): Pick[] {
  const shuffled = [...all];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  const chosen = new Map<string, Pick>();
  const take = (label: string, test: (c: ZooCandidate) => boolean, n: number) => {
    let got = 0;
    for (const c of shuffled) {
      if (got >= n || chosen.size >= count) break;
      if (!test(c)) continue;
      const held = chosen.get(c.classname);
      if (held) {
        if (!held.why.includes(label)) held.why.push(label);
        continue;
      }
      const variant =
        c.colors.length > 0 && (label === 'colour' || rnd() < 0.3)
          ? c.colors[Math.floor(rnd() * c.colors.length)]
          : undefined;
      chosen.set(c.classname, {
        candidate: c,
        classname: variant === undefined ? c.classname : `${c.classname}*${variant}`,
        why: [label],
      });
      got++;
    }
  };
  const q = (f: number) => Math.max(1, Math.round(count * f));
  take('window', (c) => c.window, q(0.05));
  take('wall', (c) => c.kind === 'wall' && !c.window, q(0.15));
  take('ink', (c) => c.inks.length > 0 && c.inks.some((i) => i !== 'ADD'), q(0.04));
  take('ink', (c) => c.inks.includes('ADD'), q(0.12));
  take('animated', (c) => c.animated, q(0.15));
  take('multistate', (c) => c.multistate, q(0.12));
  take('colour', (c) => c.colors.length > 0, q(0.06));
  take('random', () => true, count);
  // The labels every pick qualifies for, not only the quota that took it.
  for (const p of chosen.values()) {
    const c = p.candidate;
    const labels = [
      c.window && 'window',
      c.kind === 'wall' && 'wall',
      c.inks.length > 0 && `ink:${c.inks.join('+')}`,
      c.animated && 'animated',
      c.multistate && 'multistate',
      p.classname.includes('*') && 'colour',
    ].filter((x): x is string => typeof x === 'string');
    p.why = [...new Set([...labels, ...p.why.filter((w) => w === 'random')])];
  }
  return [...chosen.values()].sort((a, b) => (a.classname < b.classname ? -1 : a.classname > b.classname ? 1 : 0));
}

type ZooItem = DescriptionItem & { state: string };

/** Floor items on shelves (a free tile between footprints and rows); the ones that do not fit are returned. */
function layFloor(picks: Pick[], rnd: () => number, firstId: number): { items: ZooItem[]; left: Pick[] } {
  const items: ZooItem[] = [];
  const left: Pick[] = [];
  // Floor tiles are x 1..FLOOR, y 1..FLOOR; keep the door row's first tiles clear.
  let x = 2;
  let y = 2;
  let rowDepth = 0;
  let id = firstId;
  for (const p of picks) {
    const c = p.candidate;
    const rot = c.rots[Math.floor(rnd() * c.rots.length)]!;
    const turned = rot === 2 || rot === 6;
    const w = turned ? c.length : c.width;
    const l = turned ? c.width : c.length;
    if (x + w - 1 > FLOOR) {
      x = 2;
      y += rowDepth + 1;
      rowDepth = 0;
    }
    if (y + l - 1 > FLOOR) {
      left.push(p);
      continue;
    }
    const state = c.states[Math.floor(rnd() * c.states.length)]!;
    items.push({ id: id++, classname: p.classname, x, y, z: 0, rot, state: String(state) });
    x += w + 1;
    rowDepth = Math.max(rowDepth, l);
  }
  return { items, left };
}

/** Wall items along the left wall (x 0) and the right wall (y 0), a free tile between them. */
function layWall(picks: Pick[], rnd: () => number, firstId: number): { items: ZooItem[]; left: Pick[] } {
  const items: ZooItem[] = [];
  const left: Pick[] = [];
  let leftAt = 1; // next free y on the left wall
  let rightAt = 1; // next free x on the right wall
  let id = firstId;
  for (const [i, p] of picks.entries()) {
    const c = p.candidate;
    const state = String(c.states[Math.floor(rnd() * c.states.length)]!);
    const lx = 2 + Math.floor(rnd() * 12);
    // Tall items (windows) sit higher on the wall; +16 in ly is one height unit lower.
    const ly = c.height > 2 ? 20 + Math.floor(rnd() * 10) : 30 + Math.floor(rnd() * 16);
    const onLeft = i % 2 === 0;
    if (onLeft) {
      let at = leftAt;
      // Not across the door's gap in the left wall.
      if (at <= DOOR_Y + 1 && at + c.width - 1 >= DOOR_Y - 1) at = DOOR_Y + 2;
      if (at + c.width - 1 > FLOOR) {
        left.push(p);
        continue;
      }
      items.push({ id: id++, classname: p.classname, wall: `:w=0,${at} l=${lx},${ly} l`, state });
      leftAt = at + c.width + 1;
    } else {
      if (rightAt + c.width - 1 > FLOOR) {
        left.push(p);
        continue;
      }
      items.push({ id: id++, classname: p.classname, wall: `:w=${rightAt},0 l=${lx},${ly} r`, state });
      rightAt += c.width + 1;
    }
  }
  return { items, left };
}

function heightmap(): string[] {
  return [
    'x'.repeat(FLOOR + 1),
    ...Array.from({ length: FLOOR }, (_, i) => (i + 1 === DOOR_Y ? '0' : 'x') + '0'.repeat(FLOOR)),
  ];
}

/** FurnitureData.json rows (the client's schema, as the sample kit writes them) for every classname placed. */
function furnitureData(picks: Pick[]): object {
  const row = (p: Pick, id: number) =>
    furniRow({
      kind: p.candidate.kind,
      id,
      classname: p.classname,
      revision: 1,
      name: p.classname,
      description: p.classname,
      defaultdir: 0,
      xdim: p.candidate.width,
      ydim: p.candidate.length,
      partcolors: [],
      furniline: 'room-zoo',
    });
  const floor = picks.filter((p) => p.candidate.kind === 'floor');
  const wall = picks.filter((p) => p.candidate.kind === 'wall');
  return {
    roomitemtypes: { furnitype: floor.map((p, i) => row(p, 100_001 + i)) },
    wallitemtypes: { furnitype: wall.map((p, i) => row(p, 200_001 + i)) },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      furni: { type: 'string', default: '/tmp/quech/bundled/furniture' },
      seed: { type: 'string', default: '1' },
      count: { type: 'string', default: '240' },
      'per-room': { type: 'string', default: '30' },
    },
  });
  if (!values.out) {
    console.error('usage: room-zoo --out DIR [--furni DIR] [--seed N] [--count N] [--per-room N]');
    process.exit(2);
  }
  const out = resolve(values.out);
  const folder = resolve(values.furni);
  const seed = Number(values.seed);
  const count = Number(values.count);
  const perRoom = Number(values['per-room']);
  const rnd = seededRandom(seed);
  const { candidates, skipped } = await scan(folder);
  console.log(
    `${candidates.length} candidates (${candidates.filter((c) => c.kind === 'wall').length} wall) of the folder; ` +
      `left out: ${[...skipped.entries()].map(([k, v]) => `${k} ${v}`).join(', ')}`,
  );
  // Every pick must load the way rooms load it (src/hotel/room.ts): a bundle that fails is replaced.
  const picks: Pick[] = [];
  const refused = new Set<string>();
  for (let round = 0; picks.length < count && round < 5; round++) {
    const pool = candidates.filter((c) => !refused.has(c.classname) && !picks.some((p) => p.candidate === c));
    for (const p of pickClassnames(pool, count - picks.length, rnd)) {
      const hotelRoot = resolve(folder, '..', '..');
      const file = await roomFurniFile(hotelRoot, p.candidate.classname);
      const lib = file ? await readRoomFurni(hotelRoot, file).catch(() => undefined) : undefined;
      if (!lib || lib.sprites.size === 0) refused.add(p.candidate.classname);
      else picks.push(p);
    }
  }
  picks.sort((a, b) => (a.classname < b.classname ? -1 : a.classname > b.classname ? 1 : 0));
  // Rooms: the picks shuffled (seeded), per-room at a time, wall items in a quarter of each room at most.
  const order = [...picks];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const floorQ = order.filter((p) => p.candidate.kind === 'floor');
  const wallQ = order.filter((p) => p.candidate.kind === 'wall');
  const rooms = Math.ceil(order.length / perRoom);
  const wallPerRoom = Math.ceil(wallQ.length / rooms);
  await mkdir(join(out, 'rooms'), { recursive: true });
  const written: string[] = [];
  let n = 0;
  while (floorQ.length > 0 || wallQ.length > 0) {
    n++;
    const wallPicks = wallQ.splice(0, wallPerRoom);
    const floorPicks = floorQ.splice(0, Math.max(0, perRoom - wallPicks.length));
    const wall = layWall(wallPicks, rnd, 1001);
    const floor = layFloor(floorPicks, rnd, 1);
    wallQ.unshift(...wall.left);
    floorQ.unshift(...floor.left);
    if (wall.items.length === 0 && floor.items.length === 0) throw new Error('an item fits no room');
    const name = `zoo-${String(n).padStart(2, '0')}`;
    const room = {
      description: `zoo room ${n} (seed ${seed}): ${floor.items.length} floor and ${wall.items.length} wall items, all distinct`,
      door: { x: 0, y: DOOR_Y, dir: 2 },
      wallHeight: -1,
      floorType: null,
      wallType: null,
      landscapeType: '0.0',
      wallThickness: 0,
      floorThickness: 0,
      hideWalls: false,
      heightmap: heightmap(),
      items: [...wall.items, ...floor.items],
    };
    await writeFile(join(out, 'rooms', `${name}.json`), `${JSON.stringify(room, null, 1)}\n`);
    written.push(name);
  }
  await writeFile(join(out, 'FurnitureData.json'), JSON.stringify(furnitureData(picks)));
  await writeFile(
    join(out, 'picks.json'),
    `${JSON.stringify(
      picks.map((p) => ({
        classname: p.classname,
        kind: p.candidate.kind,
        why: p.why,
        size: `${p.candidate.width}x${p.candidate.length}`,
        logic: p.candidate.logicType,
        visualization: p.candidate.visualizationType,
        inks: p.candidate.inks,
        states: p.candidate.states,
        rots: p.candidate.rots,
      })),
      null,
      1,
    )}\n`,
  );
  const tally = (label: string) => picks.filter((p) => p.why.some((w) => w.startsWith(label))).length;
  console.log(
    `${picks.length} distinct classnames in ${written.length} rooms (${written[0]}..${written.at(-1)}) in ${join(out, 'rooms')}; ` +
      `wall ${tally('wall')}, window ${tally('window')}, ink ${tally('ink')} (ADD ${picks.filter((p) => p.candidate.inks.includes('ADD')).length}), ` +
      `animated ${tally('animated')}, multistate ${tally('multistate')}, colour variants ${tally('colour')}; ` +
      `${refused.size} refused (bundle did not load)`,
  );
}

await main();
