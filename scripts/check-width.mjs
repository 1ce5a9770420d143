// npm run lint's second half: no line of src/ is wider than the house width (biome.jsonc's lineWidth, 120).
// Biome wraps code at that width but leaves long strings and comments as they are, so they are counted here.
// Usage: node scripts/check-width.mjs [ROOT] (default: the current folder); exit 1 listing every wide line.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const MAX_WIDTH = 120;

function sources(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(p));
    else if (entry.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

const root = process.argv[2] ?? '.';
const wide = [];
for (const file of sources(join(root, 'src')).sort()) {
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, i) => {
    // Characters as an editor counts them (a code point each), as Biome measures the width.
    const width = [...line].length;
    if (width > MAX_WIDTH) wide.push(`${relative(root, file)}:${i + 1}: ${width} characters`);
  });
}
if (wide.length > 0) {
  process.stderr.write(
    `${wide.join('\n')}\n${wide.length} line${wide.length === 1 ? ' is' : 's are'} wider than ${MAX_WIDTH} ` +
      `characters (biome.jsonc lineWidth): wrap ${wide.length === 1 ? 'it' : 'them'} (split a long string ` +
      `into parts joined with +, a comment over two lines)\n`,
  );
  process.exit(1);
}
