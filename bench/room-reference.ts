// Room pictures against the Nitro client's own renderer (dev tool, not a test, never in CI): draws each room
// description (the room-reference tool's JSON: heightmap, paint, items, bots) with our renderer at size 64, as
// served (no parameters), and scores it with the tool's compare.mjs against the tool's picture of the same
// description, aligned by the two reports' origins.
//
//   bash ../shared/tools/room-reference/run.sh /tmp/rr/out rooms/*.json          # the client's pictures
//   npm run compare:rooms -- --ref /tmp/rr/out --out /tmp/rr/ours rooms/*.json    # ours, and the table
//
// Options: --furni DIR (bundled/furniture; default the tool's ROOMREF_FURNI or shared nitro-rooms),
// --generic DIR (room.nitro; default shared nitro-rooms), --pets DIR (bundled/pet; default ROOMREF_PETS, else none), --figures DIR (a Nitro hotel for bots; default
// shared nitro), --json (one line a room), --tick N (every item at tick N), --playing (play-once layers at the
// update the tool captures, still playing, not the last frame the client holds: heldFrames false; sorts
// the frame rule's differences from the rest). Rows: identical %, within ±3 %, mask IoU, size ours/ref.
//
// --per-item [--worst N] also scores each item in its box (our report's `items[].box`, with a floor item's
// footprint, where its shadow lies): its pixels there are the ones drawing it changes in ours (the room drawn
// again without it: shadow, glow and window cut included, not what a nearer item hides) and the ones where
// the reference differs by more than ±3 from our empty room while ours drew no item there (what only the
// client drew; shared by the boxes holding it). Of those, the share within ±3 between ours and the
// reference. Items we skipped are scored on that last part around their place, outside the boxes of the
// items ours drew. It lists the N worst items
// (default 25) over all rooms, writes ours | reference | diff crops of them to OUT/items/ and every score
// to OUT/items.json.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadAvatarHotel } from '../src/avatar/index.js';
import { encodeRoomPicture } from '../src/room/index.js';
import { PNG } from 'pngjs';
import { loadRoomAssets, renderRoom, type RoomPicture } from '../src/room/index.js';
import { type Description, descriptionRoom } from '../test/helpers/room-description.js';

const SHARED = resolve(process.cwd(), '..', 'shared');
const TOOL = process.env.ROOMREF_TOOL ?? join(SHARED, 'tools', 'room-reference');

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      ref: { type: 'string' },
      out: { type: 'string', default: join(tmpdir(), 'room-reference-ours') },
      furni: { type: 'string' },
      generic: { type: 'string' },
      figures: { type: 'string' },
      pets: { type: 'string' },
      json: { type: 'boolean', default: false },
      size: { type: 'string', default: '64' },
      tick: { type: 'string', default: '0' },
      playing: { type: 'boolean', default: false },
      'per-item': { type: 'boolean', default: false },
      worst: { type: 'string', default: '25' },
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
  const pets = values.pets ?? process.env.ROOMREF_PETS;
  if (pets) await symlink(resolve(pets), join(hotel, 'bundled', 'pet'));
  const avatarHotel = existsSync(join(figures, 'gamedata')) ? await loadAvatarHotel(figures) : undefined;
  const assets = await loadRoomAssets(hotel, { ...(avatarHotel ? { avatarHotel } : {}) });
  await mkdir(values.out!, { recursive: true });
  const rows: Record<string, unknown>[] = [];
  const itemRows: ItemScore[] = [];
  for (const file of positionals) {
    const name = basename(file).replace(/\.input\.json$|\.json$/, '');
    const desc = JSON.parse(await readFile(file, 'utf8')) as Description;
    const t0 = performance.now();
    const size = values.size === '32' ? 32 : 64;
    const pic = await renderRoom(descriptionRoom(desc), assets, {
      size,
      walls: true,
      furni: true,
      bots: true,
      tick: Number(values.tick),
      heldFrames: !values.playing,
    });
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
    if (values['per-item']) {
      const draw = (d: Description) =>
        renderRoom(descriptionRoom(d), assets, {
          size: 64,
          walls: true,
          furni: true,
          bots: true,
          // The same frames as the room scored (the other items stay as drawn there).
          tick: Number(values.tick),
          heldFrames: !values.playing,
        });
      const ref = PNG.sync.read(await readFile(refPng));
      const scored = await scoreItems(name, pic, await draw({ ...desc, items: [] }), ref, r64.origin, desc, (id) =>
        draw({ ...desc, items: (desc.items ?? []).filter((i) => i.id !== id) }),
      );
      itemRows.push(...scored);
    }
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
  if (values['per-item']) await listWorst(itemRows, Number(values.worst), values.out!, values.json!);
}

export interface ItemScore {
  room: string;
  id: number;
  classname: string;
  kind: string;
  state: number | string;
  direction: number | string;
  /** Our picture's box scored (the item's box with its footprint), in our picture's pixels. */
  box: { x: number; y: number; width: number; height: number };
  /** Pixels the item changes in either picture. */
  pixels: number;
  identicalPct: number;
  withinPct: number;
  onlyOurs: number;
  onlyReference: number;
  note?: string;
}

type Rgba = { width: number; height: number; data: Uint8Array };

const TOL = 3;

function px(img: Rgba, x: number, y: number): number {
  return x < 0 || y < 0 || x >= img.width || y >= img.height ? -1 : (y * img.width + x) * 4;
}

/** Two pixels alike: both transparent, or every channel within TOL (an absent pixel is transparent). */
function alike(a: Rgba, ia: number, b: Rgba, ib: number, tol = TOL): boolean {
  const aa = ia < 0 ? 0 : a.data[ia + 3]!;
  const ba = ib < 0 ? 0 : b.data[ib + 3]!;
  if (aa === 0 || ba === 0) return aa === 0 && ba === 0;
  for (let k = 0; k < 4; k++) if (Math.abs(a.data[ia + k]! - b.data[ib + k]!) > tol) return false;
  return true;
}

function same(a: Rgba, ia: number, b: Rgba, ib: number): boolean {
  const aa = ia < 0 ? 0 : a.data[ia + 3]!;
  const ba = ib < 0 ? 0 : b.data[ib + 3]!;
  if (aa === 0 || ba === 0) return aa === 0 && ba === 0;
  for (let k = 0; k < 4; k++) if (a.data[ia + k] !== b.data[ib + k]) return false;
  return true;
}

/** The screen box of a floor footprint (tiles x..x+fx-1, y..y+fy-1 at height z), in our picture. */
function footprintBox(
  origin: { x: number; y: number },
  t: { x: number; y: number; z: number },
  f: { x: number; y: number },
  up = 0,
) {
  const corners = [
    [t.x - 0.5, t.y - 0.5],
    [t.x + f.x - 0.5, t.y - 0.5],
    [t.x - 0.5, t.y + f.y - 0.5],
    [t.x + f.x - 0.5, t.y + f.y - 0.5],
  ].map(([x, y]) => [origin.x + (x! - y!) * 32, origin.y + (x! + y!) * 16 - t.z * 32]);
  const xs = corners.map((c) => c[0]!);
  const ys = corners.map((c) => c[1]!);
  // A shadow spills a little past the footprint.
  const x = Math.floor(Math.min(...xs)) - 8;
  const y = Math.floor(Math.min(...ys)) - 8 - up;
  return { x, y, width: Math.ceil(Math.max(...xs)) + 8 - x, height: Math.ceil(Math.max(...ys)) + 8 - y };
}

function union(a: ItemScore['box'], b: ItemScore['box']): ItemScore['box'] {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    x,
    y,
    width: Math.max(a.x + a.width, b.x + b.width) - x,
    height: Math.max(a.y + a.height, b.y + b.height) - y,
  };
}

/** Scores each item of a room (ours drawn and skipped) in its box: see the header. */
export async function scoreItems(
  room: string,
  pic: RoomPicture,
  empty: RoomPicture,
  ref: Rgba,
  refOrigin: readonly [number, number],
  desc: Description,
  drawWithout: (id: number) => Promise<RoomPicture>,
): Promise<ItemScore[]> {
  const ours: Rgba = { width: pic.width, height: pic.height, data: pic.rgba };
  const bg: Rgba = { width: empty.width, height: empty.height, data: empty.rgba };
  const o = pic.report.origin;
  // our (x, y) = reference (x - rdx, y - rdy) = empty room (x - edx, y - edy)
  const rdx = Math.round(o.x - refOrigin[0]);
  const rdy = Math.round(o.y - refOrigin[1]);
  const edx = o.x - empty.report.origin.x;
  const edy = o.y - empty.report.origin.y;
  // A skipped item's pixels are only what the client drew outside every box of an item ours drew.
  const drawnBoxes = pic.report.items.map((it) =>
    it.footprint ? union(it.box, footprintBox(o, it.tile, it.footprint)) : it.box,
  );
  const inDrawnBox = (x: number, y: number) =>
    drawnBoxes.some((b) => x >= b.x && y >= b.y && x < b.x + b.width && y < b.y + b.height);
  const score = (
    base: Omit<ItemScore, 'pixels' | 'identicalPct' | 'withinPct' | 'onlyOurs' | 'onlyReference'>,
    without: RoomPicture | undefined,
  ): ItemScore => {
    const wo: Rgba | undefined = without && { width: without.width, height: without.height, data: without.rgba };
    const wdx = without ? o.x - without.report.origin.x : 0;
    const wdy = without ? o.y - without.report.origin.y : 0;
    let pixels = 0;
    let identical = 0;
    let within = 0;
    let onlyOurs = 0;
    let onlyReference = 0;
    const { x: bx, y: by, width, height } = base.box;
    for (let y = by; y < by + height; y++)
      for (let x = bx; x < bx + width; x++) {
        const io = px(ours, x, y);
        const ir = px(ref, x - rdx, y - rdy);
        const ie = px(bg, x - edx, y - edy);
        // The item's pixels in ours (what drawing it changes), and what the client drew where ours drew no item.
        const mine = wo !== undefined && !same(ours, io, wo, px(wo, x - wdx, y - wdy));
        const refOnly =
          same(ours, io, bg, ie) && !alike(ref, ir, bg, ie) && (without !== undefined || !inDrawnBox(x, y));
        if (!mine && !refOnly) continue;
        pixels++;
        if (same(ours, io, ref, ir)) identical++;
        if (alike(ours, io, ref, ir)) within++;
        const ao = io >= 0 && ours.data[io + 3]! > 0;
        const ar = ir >= 0 && ref.data[ir + 3]! > 0;
        if (ao && !ar) onlyOurs++;
        if (ar && !ao) onlyReference++;
      }
    const pct = (n: number) => (pixels === 0 ? 100 : Math.round((n / pixels) * 10000) / 100);
    return { ...base, pixels, identicalPct: pct(identical), withinPct: pct(within), onlyOurs, onlyReference };
  };
  const out: ItemScore[] = [];
  for (const it of pic.report.items) {
    if (it.kind === 'bot') continue;
    const box = it.footprint ? union(it.box, footprintBox(o, it.tile, it.footprint)) : it.box;
    const base = { room, id: it.id, classname: it.classname, kind: it.kind, state: it.state, direction: it.direction };
    out.push(score({ ...base, box }, await drawWithout(it.id)));
  }
  for (const s of pic.report.skipped) {
    if (s.kind === 'bot') continue;
    const d = desc.items?.find((i) => i.id === s.id);
    // A skipped item: what the client drew around its place where ours drew nothing (a wall item: 2 tiles).
    const box = d?.wall
      ? (() => {
          const b = wallBox(o, d.wall);
          return b ?? { x: 0, y: 0, width: 0, height: 0 };
        })()
      : footprintBox(o, { x: d?.x ?? 0, y: d?.y ?? 0, z: d?.z ?? 0 }, { x: 1, y: 1 }, 160);
    out.push({
      ...score(
        {
          room,
          id: s.id,
          classname: s.classname,
          kind: s.kind,
          state: d?.state ?? '',
          direction: d?.rot ?? '',
          box,
        },
        undefined,
      ),
      note: `skipped by ours: ${s.reason}`,
    });
  }
  return out.map((r) => ({ ...r, _ours: ours, _ref: ref, _dx: rdx, _dy: rdy }) as ItemScore);
}

/** Around a wall position (`:w=X,Y l=LX,LY d`): 64 px either side and 160 px above the point, in our picture. */
function wallBox(origin: { x: number; y: number }, wall: string): ItemScore['box'] | undefined {
  const m = /:w=(-?\d+),(-?\d+) l=(-?\d+),(-?\d+) ([lr])/.exec(wall);
  if (!m) return undefined;
  const [wx, wy, lx, ly] = [m[1], m[2], m[3], m[4]].map(Number) as [number, number, number, number];
  const sx = origin.x + (wx - wy) * 32 + (m[5] === 'l' ? lx * 2 - 32 : lx * 2);
  const sy = origin.y + (wx + wy) * 16 + ly * 2 - 100;
  return { x: Math.round(sx - 64), y: Math.round(sy - 160), width: 128, height: 240 };
}

/**
 * ours | reference | diff of one box, each pixel drawn `zoom` times (diff: grey alike, red differs, magenta only
 * ours, cyan only reference).
 */
function crop(r: ItemScore & { _ours?: Rgba; _ref?: Rgba; _dx?: number; _dy?: number }, zoom = 2): PNG | undefined {
  const { _ours: ours, _ref: ref, _dx: dx = 0, _dy: dy = 0 } = r;
  const { x: bx, y: by, width: w, height: h } = r.box;
  if (!ours || !ref || w <= 0 || h <= 0) return undefined;
  const png = new PNG({ width: (w * 3 + 8) * zoom, height: h * zoom });
  png.data.fill(0);
  const put = (x: number, y: number, c: ArrayLike<number>) => {
    for (let sy = 0; sy < zoom; sy++)
      for (let sx = 0; sx < zoom; sx++) {
        const i = ((y * zoom + sy) * png.width + x * zoom + sx) * 4;
        for (let k = 0; k < 4; k++) png.data[i + k] = c[k]!;
      }
  };
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const io = px(ours, bx + x, by + y);
      const ir = px(ref, bx + x - dx, by + y - dy);
      const po = io < 0 ? [0, 0, 0, 0] : ours.data.subarray(io, io + 4);
      const pr = ir < 0 ? [0, 0, 0, 0] : ref.data.subarray(ir, ir + 4);
      put(x, y, po);
      put(w + 4 + x, y, pr);
      const ao = po[3]! > 0;
      const ar = pr[3]! > 0;
      const diff =
        !ao && !ar
          ? [0, 0, 0, 0]
          : ao && !ar
            ? [255, 0, 255, 255]
            : ar && !ao
              ? [0, 255, 255, 255]
              : alike(ours, io, ref, ir)
                ? [160, 160, 160, 255]
                : [255, 0, 0, 255];
      put(2 * w + 8 + x, y, diff);
    }
  return png;
}

async function listWorst(items: ItemScore[], n: number, outDir: string, json: boolean): Promise<void> {
  const scored = items.filter((r) => r.pixels >= 20);
  const worst = [...scored].sort((a, b) => a.withinPct - b.withinPct || b.pixels - a.pixels).slice(0, n);
  const all = scored.reduce((s, r) => s + r.pixels, 0);
  const within = scored.reduce((s, r) => s + (r.pixels * r.withinPct) / 100, 0);
  await mkdir(join(outDir, 'items'), { recursive: true });
  const strip = ({ _ours, _ref, _dx, _dy, ...r }: ItemScore & Record<string, unknown>) => r;
  await writeFile(
    join(outDir, 'items.json'),
    `${JSON.stringify(items.map((r) => strip(r as ItemScore & Record<string, unknown>)))}\n`,
  );
  console.log(
    `per item: ${items.length} items, ${scored.length} with ≥ 20 pixels changed; all their pixels ` +
      `${((within / Math.max(1, all)) * 100).toFixed(2)} % within ±${TOL}; ` +
      `${scored.filter((r) => r.withinPct < 90).length} items under 90 %, ${scored.filter((r) => r.withinPct < 99).length} under 99 %; ` +
      `${items.filter((r) => r.note).length} skipped by ours`,
  );
  console.log(`worst ${worst.length} (within ±${TOL} % of the item's pixels; crops in ${join(outDir, 'items')}):`);
  for (const r of worst) {
    const png = crop(r);
    const file = join(outDir, 'items', `${r.room}-${r.id}.png`);
    if (png) await writeFile(file, PNG.sync.write(png));
    const row = strip(r as ItemScore & Record<string, unknown>);
    if (json) console.log(JSON.stringify(row));
    else
      console.log(
        `${r.withinPct.toFixed(1).padStart(6)} %  ${String(r.pixels).padStart(6)} px  ${r.room} #${r.id} ` +
          `${r.classname} ${r.kind} dir ${r.direction} state ${r.state}  only ours ${r.onlyOurs}, only ref ` +
          `${r.onlyReference}${r.note ? `  (${r.note})` : ''}`,
      );
  }
}

// Run as a script (not when another bench imports descriptionRoom).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
