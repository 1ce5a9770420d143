#!/usr/bin/env bash
# Brings the whole tree to the checked style (biome.jsonc) in one change: the formatter, then Biome's
# safe fixes (type-only imports, regex spaces, …). Run once, on a tree every branch has been merged
# into, and commit the result alone (no other edits in that commit), so `git blame --ignore-rev` can
# skip it. Afterwards `npm run lint` (part of `npm test`) keeps it so.
set -euo pipefail
cd "$(dirname "$0")/.."
biome=node_modules/.bin/biome
if [ ! -x "$biome" ]; then
  echo "error: $biome is missing: npm install (package.json's devDependencies list @biomejs/biome)" >&2
  exit 1
fi
# Twice: on a first pass Biome 2.6.8 lays out a few long type assertions one way and settles on another
# on the next (bench/cdn.ts, test/server/furni/http-helpers.ts), so one pass would not pass its own check.
"$biome" check --write . >/dev/null 2>&1 || true
"$biome" check --write . || true
echo "── what npm run lint says now (anything listed needs a hand) ──"
"$biome" check --error-on-warnings .
