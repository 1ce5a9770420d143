// What /version reports: the commit and build time recorded by `npm run build` (dist/build-info.json),
// or, when running from source (tsx, tests), the same facts taken from git once at startup.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export interface BuildInfo {
  /** Full commit id, or "unknown" when built or run outside a git checkout. */
  commit: string;
  /** ISO timestamp of the build; for a source run, the time the process compiled the code at startup. */
  builtAt: string;
  /** Where the facts came from: the build's record, git at startup, or nothing. */
  source: 'build' | 'git' | 'unknown';
}

export interface BuildInfoOptions {
  /** The build record; defaults to build-info.json one folder above this module (dist/ when built). */
  buildInfoFile?: string;
  /** The checkout to ask git in when there is no build record; defaults to the package root. */
  gitDir?: string;
  now?: () => Date;
}

/** What `builtAt` is, per source: said in /version so a source run's start time is not read as a build time. */
export const BUILT_AT_MEANING: Record<BuildInfo['source'], string> = {
  build: 'when `npm run build` made this build (dist/build-info.json)',
  git: 'when this process started: run from source, no build record; commit is the checkout HEAD at startup',
  unknown: 'when this process started: no build record and no git checkout',
};

const here = fileURLToPath(new URL('.', import.meta.url));
/** Package root: two folders up from both src/server/ and dist/server/. */
export const packageRoot = join(here, '..', '..');

export function readBuildInfo(opts: BuildInfoOptions = {}): BuildInfo {
  const file = opts.buildInfoFile ?? join(here, '..', 'build-info.json');
  const recorded = readRecord(file);
  if (recorded) return { ...recorded, source: 'build' };
  const builtAt = (opts.now ?? (() => new Date()))().toISOString();
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: opts.gitDir ?? packageRoot,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .toString()
      .trim();
    if (/^[0-9a-f]{40,64}$/.test(commit)) return { commit, builtAt, source: 'git' };
  } catch {
    // not a git checkout, or git is not installed
  }
  return { commit: 'unknown', builtAt, source: 'unknown' };
}

function readRecord(file: string): { commit: string; builtAt: string } | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const rec = JSON.parse(text) as { commit?: unknown; builtAt?: unknown };
    if (typeof rec.commit === 'string' && typeof rec.builtAt === 'string') {
      return { commit: rec.commit, builtAt: rec.builtAt };
    }
  } catch {
    // a corrupt record is treated as absent; /version then says where its facts came from
  }
  return undefined;
}

/** The package version from package.json at the package root. */
export function readPackageVersion(root: string = packageRoot): string {
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
