// Differential comparison against the reference imager (dev tool, not a test, never in CI): renders a
// seeded sample of figures built from the hotel's FigureData, plus the repro figures of issue 13, in
// directions 1-7 × std, wav, sit, sml, agr, spk and headonly at size m, with our renderer (in process)
// and with the reference (billsonnn/nitro-imager, HTTP, size n = 64x110), compares premultiplied pixels,
// names the cause of each difference and writes sheets (ours | reference | diff) of the worst cases.
//
//   bash ../shared/tools/reference-imager/setup.sh --serve <nitro dir>     # the reference, on :3030/:8700
//   npm run compare:reference -- --assets <nitro dir> [--count 300] [--seed 1] [--out /tmp/compare-reference]
//
// The reference must serve the same asset folder (checked: its FigureData.json and FigureMap.json must be
// byte-identical to ours). See docs/avatar-rendering.md, "Comparing with the reference imager".
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  AvatarRenderError,
  loadAvatarHotel,
  RENDERER_VERSION,
  renderAvatar,
  type AvatarHotel,
  type DrawnLayer,
} from '../src/avatar/index.js';
import { cropImage, type RgbaImage } from '../src/imaging/image.js';
import { decodePngSync } from '../src/imaging/png.js';
import { encodePngCompact } from '../src/imaging/png-compact.js';
import {
  attribute,
  findControls,
  REFERENCE_MALE_DEFAULTS,
  type Compare,
  type Controls,
  type Outcome,
} from './reference/attribution.js';
import {
  FigureCatalog,
  parseFigureTokens,
  REPRO_FIGURES,
  reproFigures,
  sampleFigures,
  type FigureDataJson,
  type FigureMapJson,
  type SampledFigure,
} from './reference/figures.js';
import { comparePremultiplied, diffImage, differingMask, sideBySide, visibleOutside } from './reference/pixels.js';
import { DIRECTIONS, HEAD_WINDOW, ourRequest, POSES, referenceUrl, type Pose } from './reference/poses.js';
import {
  byCause,
  byKind,
  byPose,
  causeByPose,
  causeGroup,
  culpritTypes,
  targetLine,
  topCulprits,
  type CaseResult,
} from './reference/report.js';

const USAGE = `npm run compare:reference -- [options]
  --assets DIR          Nitro asset folder (gamedata/, bundled/figure/); default ../shared/realdata/nitro
                        (env COMPARE_ASSETS). The reference must serve the same folder.
  --reference URL       reference imager (default http://127.0.0.1:3030, env REFERENCE_URL)
  --reference-assets URL  where the reference reads its assets (default http://127.0.0.1:8700)
  --seed N              sample seed (default 1)
  --count N             sampled figures, besides the ${REPRO_FIGURES.length} repro figures (default 300)
  --poses LIST          comma list of ${POSES.map((p) => p.id).join(',')} (default all)
  --directions LIST     comma list of 1-7 (default all)
  --concurrency N       figures in flight (default 6)
  --worst N             sheets of the N worst differing cases, at least 2 per cause (default 40)
  --out DIR             sheets and listings (default /tmp/compare-reference; keep it outside the repo)
  --no-attribute        skip the per-set cause search (faster; causes then figure-level only)`;

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const { values: opts } = parseArgs({
  options: {
    assets: { type: 'string' },
    reference: { type: 'string' },
    'reference-assets': { type: 'string' },
    seed: { type: 'string', default: '1' },
    count: { type: 'string', default: '300' },
    poses: { type: 'string' },
    directions: { type: 'string' },
    concurrency: { type: 'string', default: '6' },
    worst: { type: 'string', default: '40' },
    out: { type: 'string', default: '/tmp/compare-reference' },
    'no-attribute': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

function fail(message: string): never {
  console.error(`compare:reference: ${message}`);
  process.exit(2);
}

function intOption(name: string, v: string, min: number): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) fail(`--${name} must be an integer ≥ ${min}, got "${v}"`);
  return n;
}

if (opts.help) {
  console.log(USAGE);
  process.exit(0);
}

const defaultAssets = join(repoRoot, '..', 'shared', 'realdata', 'nitro');
const assets = resolve(
  opts.assets ??
    process.env.COMPARE_ASSETS ??
    (existsSync(defaultAssets) ? defaultAssets : fail(`no --assets given and ${defaultAssets} is absent\n${USAGE}`)),
);
const refBase = (opts.reference ?? process.env.REFERENCE_URL ?? 'http://127.0.0.1:3030').replace(/\/+$/, '');
const refAssets = (opts['reference-assets'] ?? 'http://127.0.0.1:8700').replace(/\/+$/, '');
const seed = intOption('seed', opts.seed!, 0);
const count = intOption('count', opts.count!, 0);
const concurrency = intOption('concurrency', opts.concurrency!, 1);
const worstCount = intOption('worst', opts.worst!, 0);
const outDir = resolve(opts.out!);
if (outDir === repoRoot || outDir.startsWith(repoRoot + '/'))
  fail(`--out ${outDir} is inside the repository; sheets are real art and must stay outside it`);
const poses = opts.poses
  ? opts.poses.split(',').map((id) => POSES.find((p) => p.id === id.trim()) ?? fail(`unknown pose "${id}"`))
  : POSES;
const directions = opts.directions
  ? opts.directions
      .split(',')
      .map((d) =>
        DIRECTIONS.includes(Number(d)) ? Number(d) : fail(`direction "${d}" is not 1-7 (0 is a known reference bug)`),
      )
  : DIRECTIONS;

async function readLocal(rel: string): Promise<Buffer> {
  try {
    return await readFile(join(assets, rel));
  } catch (e) {
    return fail(`cannot read ${join(assets, rel)}: ${(e as Error).message}`);
  }
}

/** The reference must draw from the same documents as we do, else every difference is meaningless. */
async function checkSameAssets(local: Record<string, Buffer>): Promise<void> {
  for (const [rel, bytes] of Object.entries(local)) {
    let remote: Buffer;
    try {
      const res = await fetch(`${refAssets}/${rel}`, { signal: AbortSignal.timeout(30_000) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      remote = Buffer.from(await res.arrayBuffer());
    } catch (e) {
      return fail(
        `cannot fetch ${refAssets}/${rel} (${(e as Error).message}); is the reference's asset server running? (setup.sh --serve)`,
      );
    }
    if (!remote.equals(bytes))
      fail(`${refAssets}/${rel} differs from ${join(assets, rel)}: the reference serves another asset folder`);
  }
  try {
    await fetch(`${refBase}/`, { signal: AbortSignal.timeout(10_000) });
  } catch (e) {
    fail(`reference imager at ${refBase} does not answer (${(e as Error).message}); start it with setup.sh --serve`);
  }
}

interface Rendered {
  outcome: Outcome;
  ours?: RgbaImage;
  ref?: RgbaImage;
  layers?: DrawnLayer[];
  refOutside?: number;
}

async function fetchReference(url: string): Promise<RgbaImage> {
  let last: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(60_000) });
      const body = new Uint8Array(await res.arrayBuffer());
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return decodePngSync(body);
    } catch (e) {
      last = e;
      // A 500 is the reference's answer for this figure; only transport errors are retried.
      if (String((e as Error).message).startsWith('HTTP ')) break;
    }
  }
  throw last;
}

let refRequests = 0;
let ourRenders = 0;

async function renderBoth(hotel: AvatarHotel, figure: string, direction: number, pose: Pose): Promise<Rendered> {
  const url = referenceUrl(refBase, figure, direction, pose);
  const [ours, ref] = await Promise.allSettled([
    (async () => {
      ourRenders++;
      const r = await renderAvatar(hotel, ourRequest(figure, direction, pose));
      return { image: r.frames[0]!, layers: r.layers };
    })(),
    (async () => {
      refRequests++;
      return fetchReference(url);
    })(),
  ]);
  const outcome: Outcome = { diff: null };
  if (ours.status === 'rejected') {
    const e = ours.reason;
    if (!(e instanceof AvatarRenderError)) throw e;
    // Name the set type when the message gives the set ("… set hd-5153"), so refusals group by type.
    const set = /\bset ([a-z]+)-\d+/.exec(e.message);
    outcome.oursError = set ? `${e.code}: ${set[1]}` : e.code;
  }
  if (ref.status === 'rejected') outcome.refError = (ref.reason as Error).message;
  if (ours.status === 'rejected' || ref.status === 'rejected') return { outcome };
  let refImage = ref.value;
  let refOutside: number | undefined;
  if (pose.headOnly) {
    refOutside = visibleOutside(refImage, HEAD_WINDOW);
    refImage = cropImage(refImage, HEAD_WINDOW);
  }
  outcome.diff = comparePremultiplied(ours.value.image, refImage);
  return { outcome, ours: ours.value.image, ref: refImage, layers: ours.value.layers, refOutside };
}

/** Token indexes, most likely cause first: sets whose drawn sprites cover differing pixels, then sets we drew nothing of. */
function likelyOrder(catalog: FigureCatalog, figure: string, r: Rendered): number[] {
  if (!r.ours || !r.ref || !r.layers) return [];
  const mask = differingMask(r.ours, r.ref);
  const w = r.ours.width;
  const h = r.ours.height;
  const tokens = parseFigureTokens(figure);
  const scored = tokens.map((t, i) => {
    const parts = new Set((catalog.set(t.type, t.id)?.parts ?? []).map((p) => `${p.id}`));
    const types = new Set((catalog.set(t.type, t.id)?.parts ?? []).map((p) => p.type));
    const mine = r.layers!.filter(
      (l) => l.frame === 0 && parts.has(String(l.partId)) && (types.has(l.partType) || types.has(l.drawnPartType)),
    );
    let score = 0;
    for (const l of mine) {
      for (let y = Math.max(0, l.y); y < Math.min(h, l.y + l.height); y++) {
        for (let x = Math.max(0, l.x); x < Math.min(w, l.x + l.width); x++) score += mask[y * w + x]!;
      }
    }
    return { i, score: mine.length === 0 ? -1 : score };
  });
  const covered = scored.filter((s) => s.score > 0).sort((a, b) => b.score - a.score);
  const drewNothing = scored.filter((s) => s.score === -1);
  return [...covered, ...drewNothing].map((s) => s.i);
}

async function pool<T>(items: T[], n: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

function safeName(s: string): string {
  return s.replace(/[^a-zA-Z0-9.-]+/g, '_').slice(0, 120);
}

// ------------------------------------------------------------------------------------------ run
const started = Date.now();
const load0 = loadavg()[0]!;
const local = {
  'gamedata/FigureData.json': await readLocal('gamedata/FigureData.json'),
  'gamedata/FigureMap.json': await readLocal('gamedata/FigureMap.json'),
};
await checkSameAssets(local);
const libraries = new Set(
  (await readdir(join(assets, 'bundled', 'figure'))).filter((f) => f.endsWith('.nitro')).map((f) => f.slice(0, -6)),
);
const catalog = new FigureCatalog(
  JSON.parse(local['gamedata/FigureData.json'].toString('utf8').replace(/^\uFEFF/, '')) as FigureDataJson,
  JSON.parse(local['gamedata/FigureMap.json'].toString('utf8').replace(/^\uFEFF/, '')) as FigureMapJson,
  (name) => libraries.has(name),
);
const hotel = await loadAvatarHotel(assets);
// A hotel with a draworder.xml (Flash, or converted from Flash) draws in its own order; the reference
// reads no draworder.xml and draws in the client geometry's. Differences that vanish with the geometry
// order are that expected difference; the cause search then runs on the geometry order.
const geometryHotel: AvatarHotel | null =
  hotel.sources.drawOrder === 'hotel' ? { ...hotel, geometry: hotel.geometry.withoutDrawOrder() } : null;
const DRAWORDER_CAUSE = "hotel's draworder.xml order (the reference draws in the client geometry's order; expected)";
const figures: SampledFigure[] = [...reproFigures(catalog), ...sampleFigures(catalog, seed, count)];

// Comparisons without images, memoised: ablations and control calibration repeat figures.
const memo = new Map<string, Promise<Outcome>>();
const comparer =
  (h: AvatarHotel, tag: string): Compare =>
  (figure, direction, pose) => {
    const key = `${tag}|${figure}|${direction}|${pose.id}`;
    let p = memo.get(key);
    if (!p) {
      p = renderBoth(h, figure, direction, pose).then((r) => r.outcome);
      memo.set(key, p);
    }
    return p;
  };
/** Comparisons for the cause search: in the geometry's order when the hotel has a draworder.xml. */
const compare: Compare = comparer(geometryHotel ?? hotel, geometryHotel ? 'geometry' : 'hotel');

/**
 * The reference renders a figure without any library another request is still downloading (its
 * AvatarAssetDownloadLibrary answers "not loaded" while LOADING) and caches that PNG on disk. So every
 * figure is requested once, one at a time, before anything runs concurrently: each library is then
 * loaded by a request that waits for it. The warm-up query (frame_num=1) has its own cache key.
 */
async function warmReference(list: SampledFigure[]): Promise<void> {
  for (const [i, fig] of list.entries()) {
    if (i % 25 === 0) process.stderr.write(`\rwarming the reference: ${i}/${list.length} figures   `);
    await fetchReference(`${referenceUrl(refBase, fig.figure, 2, POSES[0]!)}&frame_num=1`).catch(() => undefined);
  }
  process.stderr.write(`\rwarming the reference: ${list.length}/${list.length} figures\n`);
}

const attributeCauses = !opts['no-attribute'];
await warmReference(figures);
const controls: Controls = attributeCauses ? await findControls(catalog, compare) : new Map();

// A figure's culprits in one direction or pose are the likeliest in the next: tried first. Each figure's
// cases run in order in one worker, so what is remembered (and so every cause) is the same on every run.
const culpritMemory = new Map<string, Map<number, number>>();
const caseCount = figures.length * poses.length * directions.length;
const results: CaseResult[] = [];
let done = 0;

async function compareCase(fig: SampledFigure, pose: Pose, direction: number): Promise<CaseResult> {
  const r = await renderBoth(hotel, fig.figure, direction, pose);
  const d = r.outcome.diff;
  const failed = !d;
  const result: CaseResult = {
    figure: fig.figure,
    kind: fig.kind,
    gender: fig.gender,
    missing: fig.missing,
    direction,
    pose: pose.id,
    verdict: d ? d.verdict : 'differing',
    differingPixels: d ? d.differingPixels : 0,
    maxDelta: d ? d.maxDelta : 0,
    refOutsideWindow: r.refOutside,
    referenceUrl: referenceUrl(refBase, fig.figure, direction, pose),
  };
  if (d && d.verdict === 'differing' && geometryHotel) {
    const g = await compare(fig.figure, direction, pose);
    if (g.diff && g.diff.verdict !== 'differing') {
      result.cause = DRAWORDER_CAUSE;
      done++;
      return result;
    }
  }
  if (failed || d.verdict === 'differing') {
    if (attributeCauses || failed || fig.missing.length > 0) {
      const known = culpritMemory.get(fig.figure) ?? new Map<number, number>();
      const remembered = [...known].sort((a, b) => b[1] - a[1]).map(([i]) => i);
      const a = await attribute(
        fig,
        direction,
        pose,
        r.outcome,
        attributeCauses ? compare : async () => ({ diff: null }),
        controls,
        [...remembered, ...likelyOrder(catalog, fig.figure, r)],
        catalog.withClientDefaults(parseFigureTokens(fig.figure), fig.gender),
      );
      const tokens = parseFigureTokens(fig.figure).map((t) => t.raw);
      for (const c of a.culprits) known.set(tokens.indexOf(c), (known.get(tokens.indexOf(c)) ?? 0) + 1);
      culpritMemory.set(fig.figure, known);
      Object.assign(result, { cause: a.cause, culprits: a.culprits, remaining: a.remaining, tries: a.tries });
    } else result.cause = 'not attributed (--no-attribute)';
  }
  done++;
  return result;
}

const progress = setInterval(
  () =>
    process.stderr.write(
      `\r${done}/${caseCount} cases, ${refRequests} reference renders, ${((Date.now() - started) / 1000).toFixed(0)} s   `,
    ),
  2000,
);
await pool(figures, concurrency, async (fig) => {
  for (const pose of poses) for (const direction of directions) results.push(await compareCase(fig, pose, direction));
});
clearInterval(progress);
process.stderr.write('\n');

// Stable order for the listings, whatever the completion order.
const poseIndex = new Map(POSES.map((p, i) => [p.id, i]));
const figureIndex = new Map(figures.map((f, i) => [f.figure, i]));
results.sort(
  (a, b) =>
    figureIndex.get(a.figure)! - figureIndex.get(b.figure)! ||
    poseIndex.get(a.pose)! - poseIndex.get(b.pose)! ||
    a.direction - b.direction,
);

// ------------------------------------------------------------------------------------------ sheets
/**
 * The worst differing cases, varied: the two worst of every cause group (different figures), then the
 * worst overall with at most two per figure, up to `worstCount`.
 */
function worstCases(): CaseResult[] {
  const differing = results
    .filter((r) => r.verdict === 'differing')
    .sort((a, b) => b.differingPixels - a.differingPixels);
  const chosen = new Set<CaseResult>();
  const perCause = new Map<string, Set<string>>();
  const perFigure = new Map<string, number>();
  const take = (r: CaseResult) => {
    chosen.add(r);
    perFigure.set(r.figure, (perFigure.get(r.figure) ?? 0) + 1);
  };
  for (const r of differing) {
    const seen = perCause.get(causeGroup(r.cause)) ?? new Set<string>();
    if (seen.size < 2 && !seen.has(r.figure) && chosen.size < worstCount) {
      take(r);
      seen.add(r.figure);
      perCause.set(causeGroup(r.cause), seen);
    }
  }
  for (const r of differing)
    if (chosen.size < worstCount && !chosen.has(r) && (perFigure.get(r.figure) ?? 0) < 2) take(r);
  return [...chosen].sort((a, b) => b.differingPixels - a.differingPixels);
}

const sheetDir = join(outDir, 'sheets');
await mkdir(sheetDir, { recursive: true });
for (const f of await readdir(sheetDir)) if (/^\d{3}-.*\.png$/.test(f)) await rm(join(sheetDir, f));
const worst = worstCases();
interface ListingEntry {
  sheet: string | null;
  figure: string;
  direction: number;
  pose: string;
  action: string;
  gesture: string;
  headOnly: boolean;
  differingPixels: number;
  maxDelta: number;
  cause: string | undefined;
  culprits: string[];
  remainingAfterSwap: number | null;
  referenceUrl: string;
  ourRequest: ReturnType<typeof ourRequest>;
}
const listing: ListingEntry[] = [];
for (const [n, r] of worst.entries()) {
  const pose = POSES.find((p) => p.id === r.pose)!;
  const again = await renderBoth(hotel, r.figure, r.direction, pose);
  const name = `${String(n + 1).padStart(3, '0')}-${safeName(r.figure)}-d${r.direction}-${r.pose}.png`;
  if (again.ours && again.ref)
    await writeFile(
      join(sheetDir, name),
      encodePngCompact(sideBySide([again.ours, again.ref, diffImage(again.ours, again.ref)], 4)),
    );
  listing.push({
    sheet: again.ours && again.ref ? `sheets/${name}` : null,
    figure: r.figure,
    direction: r.direction,
    pose: r.pose,
    action: pose.action || 'std',
    gesture: pose.gesture || 'std',
    headOnly: pose.headOnly,
    differingPixels: r.differingPixels,
    maxDelta: r.maxDelta,
    cause: r.cause,
    culprits: r.culprits ?? [],
    remainingAfterSwap: r.remaining ?? null,
    referenceUrl: r.referenceUrl,
    ourRequest: ourRequest(r.figure, r.direction, pose),
  });
}

// ------------------------------------------------------------------------------------------ report
const seconds = (Date.now() - started) / 1000;
const controlText = ['M', 'F']
  .map(
    (g) =>
      `${g}: ${controls.get(g as 'M' | 'F') ? [...controls.get(g as 'M' | 'F')!.values()].map((t) => t.raw).join('.') : attributeCauses ? 'none found (mandatory sets ablated by removal)' : '-'}`,
  )
  .join('; ');
const headOutside = results.filter((r) => (r.refOutsideWindow ?? 0) > 0);
const summary = [
  `compare:reference — renderer ${RENDERER_VERSION} vs reference ${refBase} on ${assets} (${libraries.size} libraries)`,
  `${figures.length} figures (${figures.filter((f) => f.kind === 'repro').length} repro + ${figures.length - figures.filter((f) => f.kind === 'repro').length} sampled, seed ${seed}) × ${directions.length} directions × ${poses.length} poses = ${results.length} cases, size m (reference size n); tolerance ±3 premultiplied`,
  `${seconds.toFixed(0)} s, ${refRequests} reference renders, ${ourRenders} of ours, concurrency ${concurrency}; load average ${load0.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} at end`,
  `cause search: ${attributeCauses ? `sets swapped one after another until the renders agree, ${results.reduce((n, r) => n + (r.tries ?? 0), 0)} swaps (controls ${controlText})` : 'off'}`,
  '',
  byPose(
    results,
    poses.map((p) => p.id),
  ),
  '',
  targetLine(results, REFERENCE_MALE_DEFAULTS, geometryHotel ? DRAWORDER_CAUSE : undefined),
  '',
  byKind(results),
  '',
  byCause(results),
  '',
  causeByPose(
    results,
    poses.map((p) => p.id),
  ),
  '',
  culpritTypes(results),
  '',
  topCulprits(results),
  '',
  poses.some((p) => p.headOnly)
    ? `headonly: compared on the reference's 64x110 canvas cropped to ${HEAD_WINDOW.width}x${HEAD_WINDOW.height} at (${HEAD_WINDOW.x},${HEAD_WINDOW.y}); ${headOutside.length} headonly cases have reference pixels outside that window (the reference does not crop; max ${Math.max(0, ...headOutside.map((r) => r.refOutsideWindow!))} px)`
    : '',
  `sheets (ours | reference | diff: red > ±3, orange ±1-3) of ${worst.length} worst cases: ${sheetDir}; listing ${join(outDir, 'worst.json')}; every case ${join(outDir, 'results.jsonl')}`,
].join('\n');
await mkdir(outDir, { recursive: true });
await writeFile(join(outDir, 'summary.txt'), summary + '\n');
await writeFile(join(outDir, 'worst.json'), JSON.stringify(listing, null, 2) + '\n');
await writeFile(
  join(outDir, 'worst.txt'),
  listing
    .map(
      (l, i) =>
        `${i + 1}. ${l.figure} d${l.direction} ${l.pose}: ${l.differingPixels} px (max Δ ${l.maxDelta}) — ${l.cause}${l.culprits.length ? ` [${l.culprits.join(' ')}]` : ''}\n   ${l.referenceUrl}`,
    )
    .join('\n') + '\n',
);
await writeFile(join(outDir, 'results.jsonl'), results.map((r) => JSON.stringify(r)).join('\n') + '\n');
console.log(summary);
