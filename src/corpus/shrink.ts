// The guard that keeps a worse input from unpublishing a corpus: a furnidata export that half failed,
// an empty FurnitureData.json or an asset folder copied in part would otherwise take every missing
// item's images off the service at the next build or publish. A run that would unpublish more than
// SHRINK_LIMIT of the published stills, or any still whose asset file is still there (its furnidata
// row went missing, not the item), stops before it changes anything, unless the operator allows it.
import { parseVariantName } from '../furni/variant-name.js';

/** The share of published stills a build or publish may take away without --allow-shrink. */
export const SHRINK_LIMIT = 0.1;

/** A build or publish stopped by the guard (exit 1; nothing was changed). */
export class ShrinkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShrinkError';
  }
}

/**
 * The classnames of the stills a corpus.json lists (`furni-renders/<classname>.png`; reserved variant names left out).
 */
export function publishedStills(paths: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const p of paths) {
    if (!p.startsWith('furni-renders/') || !p.endsWith('.png')) continue;
    const name = p.slice('furni-renders/'.length, -'.png'.length);
    // A reserved name (`x__s32.png`, pre-rendered by `build --variants`) is not a still of its own.
    // Only a name with `__` can be one (checked first: a corpus lists tens of thousands of stills).
    if (!name.includes('__') || parseVariantName(`${name}.png`) === undefined) out.add(name);
  }
  return out;
}

const listed = (names: string[], n = 5) => {
  const sorted = [...names].sort();
  return sorted.slice(0, n).join(', ') + (sorted.length > n ? ` and ${sorted.length - n} more` : '');
};

/**
 * Why a run that takes `lost` of the `published` stills away must stop, or undefined when it may go
 * on. `withAsset` are the lost ones whose asset file is still there (never a removal on purpose).
 */
export function shrinkProblem(published: number, lost: string[], withAsset: string[] = []): string | undefined {
  const tooMany = lost.length > published * SHRINK_LIMIT;
  if (!tooMany && withAsset.length === 0) return undefined;
  const pct = published ? Math.round((lost.length * 1000) / published) / 10 : 0;
  const parts = [
    `it would unpublish ${lost.length} of the ${published} published furni stills (${pct} ` +
      `%${tooMany ? `, more than the ${SHRINK_LIMIT * 100} % a run may remove` : ''})`,
  ];
  if (withAsset.length > 0)
    parts.push(
      `${withAsset.length} of them still have their asset file, only their furnidata row is gone: ${listed(withAsset)}`,
    );
  else parts.push(`for example ${listed(lost)}`);
  return parts.join('; ');
}
