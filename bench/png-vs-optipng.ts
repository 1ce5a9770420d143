// Our published PNGs against `optipng -o2` on the same pixels: a sample of a corpus's renders and icons
// is copied to a temporary folder, optipng rewrites the copies (losslessly, in place), and the byte
// totals are compared. optipng is a Debian package, used here only to measure; it is installed with
// apt-get when missing (needs root), else the comparison is skipped with a message.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface OptipngComparison {
  files: number;
  oursBytes: number;
  optipngBytes: number;
  /** ours / optipng: 1.05 = ours 5 % larger. */
  ratio: number;
  /** The same for renders and icons apart. */
  renders: { files: number; ours: number; optipng: number };
  icons: { files: number; ours: number; optipng: number };
}

function haveOptipng(): boolean {
  if (spawnSync('optipng', ['-v'], { stdio: 'ignore' }).status === 0) return true;
  const apt = spawnSync('apt-get', ['install', '-y', '-q', 'optipng'], { stdio: 'ignore' });
  return apt.status === 0 && spawnSync('optipng', ['-v'], { stdio: 'ignore' }).status === 0;
}

/** Every `step`-th file (by name) of a folder, so that at most `max` are taken; `max` 0 takes all. */
function sample(dir: string, max: number): string[] {
  const names = readdirSync(dir)
    .filter((n) => n.endsWith('.png'))
    .sort();
  if (max <= 0 || names.length <= max) return names;
  const step = names.length / max;
  return Array.from({ length: max }, (_, i) => names[Math.floor(i * step)]!);
}

/** Compares up to `max` renders and `max / 2` icons of a corpus (0: all), with `jobs` optipng processes. */
export async function compareWithOptipng(
  corpus: string,
  max: number,
  jobs: number,
): Promise<OptipngComparison | string> {
  if (!haveOptipng()) return 'optipng is not installed and apt-get could not install it: comparison skipped';
  const work = mkdtempSync(join(tmpdir(), 'bench-optipng-'));
  try {
    const groups = {
      renders: sample(join(corpus, 'furni-renders'), max),
      icons: sample(join(corpus, 'catalog-thumbs'), Math.floor(max / 2)),
    };
    const copies: string[] = [];
    const ours = { renders: 0, icons: 0 };
    for (const [kind, names] of Object.entries(groups) as ['renders' | 'icons', string[]][]) {
      const from = join(corpus, kind === 'renders' ? 'furni-renders' : 'catalog-thumbs');
      names.forEach((n, i) => {
        const to = join(work, `${kind}-${i}.png`);
        copyFileSync(join(from, n), to);
        ours[kind] += statSync(to).size;
        copies.push(to);
      });
    }
    // optipng takes many files per run; a few runs side by side use the cores.
    const chunk = Math.ceil(copies.length / Math.max(1, jobs));
    const runs = Array.from({ length: Math.max(1, jobs) }, (_, i) => copies.slice(i * chunk, (i + 1) * chunk)).filter(
      (c) => c.length > 0,
    );
    await Promise.all(
      runs.map(
        (files) =>
          new Promise((done) => spawn('optipng', ['-quiet', '-o2', ...files], { stdio: 'ignore' }).on('close', done)),
      ),
    );
    const optimized = { renders: 0, icons: 0 };
    for (const f of copies) optimized[f.includes('/renders-') ? 'renders' : 'icons'] += statSync(f).size;
    const oursBytes = ours.renders + ours.icons;
    const optipngBytes = optimized.renders + optimized.icons;
    return {
      files: copies.length,
      oursBytes,
      optipngBytes,
      ratio: oursBytes / Math.max(1, optipngBytes),
      renders: { files: groups.renders.length, ours: ours.renders, optipng: optimized.renders },
      icons: { files: groups.icons.length, ours: ours.icons, optipng: optimized.icons },
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
