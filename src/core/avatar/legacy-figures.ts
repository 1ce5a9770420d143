// Pre-v18 numeric figures in the avatar service: the data they convert through (hotel/legacy-figure.ts),
// held whole and swapped on a reload like the hotel's, the conversion the convert route answers, and the
// rewrite the avatar route applies, so `?figure=1000118001270012900121001` is the picture of the figure
// string it converts to (the same cache entry and bytes as that URL).
import { convertLegacyFigure, isLegacyFigure, type LegacyConversion } from '../../avatar/legacy-figure.js';
import { readLegacyFigureSources, type LegacyFigureSources } from '../../hotel/legacy-figure.js';

export class LegacyFigures {
  private data: LegacyFigureSources = { ok: false, reason: 'not loaded yet', files: [] };
  private counts = { conversions: 0, refused: 0 };

  constructor(
    private readonly assetsDir: string,
    private readonly file?: string,
  ) {}

  /** Reads the data again and puts it in place (a reload that fails leaves numeric figures off, saying why). */
  async reload(): Promise<LegacyFigureSources> {
    this.data = await readLegacyFigureSources(this.assetsDir, this.file);
    return this.data;
  }

  /** The figure string a numeric figure stands for, or why there is none. */
  convert(figure: string): LegacyConversion {
    const data = this.data;
    if (!isLegacyFigure(figure)) return convertLegacyFigure(figure, { entries: [], palettes: [] });
    if (!data.ok) {
      this.counts.refused++;
      return { ok: false, reason: `pre-v18 figures are off on this server: ${data.reason}` };
    }
    this.counts.conversions++;
    return convertLegacyFigure(figure, data);
  }

  /**
   * The avatar query with a numeric `figure` replaced by the figure string it converts to (every other
   * pair keeps its bytes and order); undefined when there is nothing to rewrite.
   */
  rewrite(rawQuery: string): string | undefined {
    if (!rawQuery.includes('figure=')) return undefined;
    const pairs = rawQuery.split('&');
    const at = pairs.findIndex((p) => p.startsWith('figure='));
    if (at < 0) return undefined;
    const value = pairs[at]!.slice('figure='.length);
    if (!isLegacyFigure(value) || !this.data.ok) return undefined;
    const converted = this.convert(value);
    if (!converted.ok) return undefined;
    pairs[at] = `figure=${encodeURIComponent(converted.figure)}`;
    return pairs.join('&');
  }

  /** Every file the data is read from, for the hotel watcher. */
  watchPaths(): string[] {
    return [...this.data.files];
  }

  health(): Record<string, unknown> {
    const d = this.data;
    return d.ok
      ? { enabled: true, entries: d.entries.length, palettes: d.palettes.length, ...this.counts }
      : { enabled: false, reason: d.reason, ...this.counts };
  }
}
