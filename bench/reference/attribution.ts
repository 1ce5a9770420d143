// Naming the cause of a difference between our render and the reference's, automatically: a figure
// without hd is the placeholder-head difference; otherwise the worn sets are swapped, one after another,
// for a plain control set of their type (hd, ch, lg: the figure keeps its mandatory parts) or removed
// (every other type), keeping each swap that shrinks the difference, until the renders agree: the sets
// swapped by then are the cause. Each swap costs one render on each side, so the caller passes the sets
// most likely to matter first and the search stops as soon as the renders agree.
import { type PixelDiff } from './pixels.js';
import {
  type FigureCatalog,
  type FigureToken,
  type Gender,
  type SampledFigure,
  formatFigure,
  parseFigureTokens,
} from './figures.js';
import { DIRECTIONS, POSES, type Pose } from './poses.js';

export interface Outcome {
  diff: PixelDiff | null;
  /** Our renderer refused the figure (AvatarRenderError code). */
  oursError?: string;
  /** The reference answered with an error or an unreadable image. */
  refError?: string;
}

export type Compare = (figure: string, direction: number, pose: Pose) => Promise<Outcome>;

/** Mandatory set types: swapped for a control set instead of removed, so the figure never loses them. */
const SWAPPED = new Set(['hd', 'ch', 'lg']);

/** Plain control sets per gender (hd, ch, lg) that render the same on both sides in every compared pose. */
export type Controls = Map<Gender, Map<string, FigureToken>>;

/**
 * Finds, per gender, the first hd + ch + lg trio (one-colour sets without hidden layers, lowest ids
 * first, trying at most `budget` trios) that renders within tolerance in every compared direction and
 * pose. A gender without one has its mandatory sets ablated by removal.
 */
export async function findControls(catalog: FigureCatalog, compare: Compare, budget = 40): Promise<Controls> {
  const controls: Controls = new Map();
  for (const gender of ['M', 'F'] as const) {
    const candidates = (type: string) =>
      catalog
        .pool(type, gender)
        .filter((s) => catalog.colourSlots(type, s.id) === 1 && (s.hiddenLayers ?? []).length === 0)
        .sort((a, b) => a.id - b.id)
        .slice(0, 6)
        .map((s) => ({ type, id: s.id, raw: `${type}-${s.id}-${catalog.colours(type)[0] ?? 1}` }));
    const [hds, chs, lgs] = [candidates('hd'), candidates('ch'), candidates('lg')];
    // Lowest ids first (the sets every hotel has): trios in order of the sum of their candidate ranks.
    const trios: FigureToken[][] = [];
    for (let sum = 0; sum <= 15; sum++) {
      for (let i = 0; i < hds.length; i++) {
        for (let j = 0; j < chs.length; j++) {
          const k = sum - i - j;
          if (k >= 0 && k < lgs.length) trios.push([hds[i]!, chs[j]!, lgs[k]!]);
        }
      }
    }
    for (const trio of trios.slice(0, budget)) {
      if (await agreesEverywhere(formatFigure(trio), compare)) {
        controls.set(gender, new Map(trio.map((t) => [t.type, t])));
        break;
      }
    }
  }
  return controls;
}

async function agreesEverywhere(figure: string, compare: Compare): Promise<boolean> {
  // A quick screen on three poses first: most broken trios fail there.
  const quick = POSES.filter((p) => ['std', 'sit', 'headonly'].includes(p.id));
  for (const pose of [...quick, ...POSES.filter((p) => !quick.includes(p))]) {
    for (const d of DIRECTIONS) {
      const o = await compare(figure, d, pose);
      if (!o.diff || o.diff.verdict === 'differing') return false;
    }
  }
  return true;
}

/** `tokens` with token `i` swapped for the control of its type, or removed (null); null when nothing changes. */
export function swapToken(
  tokens: (FigureToken | null)[],
  i: number,
  controls: Map<string, FigureToken> | undefined,
): (FigureToken | null)[] | null {
  const t = tokens[i];
  if (!t) return null;
  const control = SWAPPED.has(t.type) ? controls?.get(t.type) : undefined;
  if (control && control.raw === t.raw) return null;
  const out = tokens.map((x, j) => (j === i ? (control ?? null) : x));
  return out.some((x) => x !== null) ? out : null;
}

/** The cause of a female figure without ch or lg that agrees once our defaults are spelled out. */
export const REFERENCE_MALE_DEFAULTS =
  'reference bug: male defaults for a woman (agrees with our defaults spelled out)';

function missingLabel(fig: SampledFigure): string {
  const what = `figure without ${fig.missing.join('+')}`;
  // The reference picks defaults for gender M whatever the figure's gender (setup.sh header).
  return fig.gender === 'F' ? `${what} (F: reference uses M defaults)` : what;
}

/** Set types in the order figures list them, for stable cause labels. */
const TYPE_ORDER = ['hr', 'hd', 'ch', 'lg', 'sh', 'ha', 'he', 'ea', 'fa', 'ca', 'wa', 'cc', 'cp'];
/** `set ch`, or `sets hr+ch` when several set types are involved. */
function setsLabel(tokens: FigureToken[]): string {
  const types = [...new Set(tokens.map((t) => t.type))];
  types.sort((a, b) => (TYPE_ORDER.indexOf(a) + 1 || 99) - (TYPE_ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b));
  return `${types.length > 1 ? 'sets' : 'set'} ${types.join('+')}`;
}

export interface Attribution {
  cause: string;
  /** Tokens whose swap explains (resolved) or reduces the difference, in the order found. */
  culprits: string[];
  /** The swaps together make the renders agree (within tolerance). */
  resolved: boolean;
  /** Differing pixels left after swapping the culprits. */
  remaining: number;
  /** Swaps rendered. */
  tries: number;
}

/**
 * Attributes a differing comparison. Swaps accumulate: each swap that removes at least a tenth of the
 * remaining difference is kept, and the search stops as soon as the renders agree. `order` lists token
 * indexes to try first (most likely causes); the others follow in figure order.
 */
export async function attribute(
  fig: SampledFigure,
  direction: number,
  pose: Pose,
  base: Outcome,
  compare: Compare,
  controls: Controls,
  order: number[] = [],
  spelledDefaults: string | null = null,
): Promise<Attribution> {
  const none = { culprits: [], resolved: false, remaining: base.diff?.differingPixels ?? 0, tries: 0 };
  if (base.oursError && base.refError)
    return { ...none, cause: `both refused (ours ${base.oursError}, reference ${base.refError})` };
  if (base.oursError) return { ...none, cause: `ours refused (${base.oursError})` };
  if (base.refError) return { ...none, cause: `reference error (${base.refError})` };
  if (fig.missing.includes('hd')) return { ...none, cause: 'figure without hd' };
  // The reference's known bug: male defaults for every gender. The same figure with the client's
  // defaults spelled out must agree, or the difference is something else.
  if (fig.gender === 'F' && spelledDefaults) {
    const o = await compare(spelledDefaults, direction, pose);
    if (o.diff && o.diff.verdict !== 'differing')
      return { ...none, tries: 1, resolved: true, remaining: o.diff.differingPixels, cause: REFERENCE_MALE_DEFAULTS };
  }
  const tokens = parseFigureTokens(fig.figure);
  const all = [...new Set([...order, ...tokens.map((_, i) => i)])];
  let current: (FigureToken | null)[] = tokens;
  let remaining = none.remaining;
  const culprits: number[] = [];
  let tries = 0;
  let resolved = false;
  for (const i of all) {
    const trial = swapToken(current, i, controls.get(fig.gender));
    if (!trial) continue;
    tries++;
    const o = await compare(formatFigure(trial.filter((t): t is FigureToken => t !== null)), direction, pose);
    if (!o.diff) continue;
    if (o.diff.verdict !== 'differing') {
      culprits.push(i);
      remaining = o.diff.differingPixels;
      resolved = true;
      break;
    }
    if (o.diff.differingPixels <= remaining * 0.9 && remaining - o.diff.differingPixels >= 5) {
      culprits.push(i);
      current = trial;
      remaining = o.diff.differingPixels;
    }
  }
  const found = culprits.map((i) => tokens[i]!);
  const result = { culprits: found.map((t) => t.raw), resolved, remaining, tries };
  if (resolved) return { ...result, cause: setsLabel(found) };
  if (fig.missing.length > 0) return { ...result, cause: missingLabel(fig) };
  if (found.length > 0) return { ...result, cause: `${setsLabel(found)} (+ unexplained)` };
  return { ...result, cause: 'unattributed' };
}
