// npm run bench:flash — times the Flash import on the real Flash layout (../shared/realdata/flash, or
// BENCH_FLASH_DIR): reading every furni and figure SWF into AssetLibraries, parsing the gamedata, and
// the full `convert` to the Nitro layout. Target: the 36 furni + 26 figure SWFs read in a few seconds.
import { readFileSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { readFurniSwf } from '../src/formats/flash/furni-library.js';
import { readFigureSwf } from '../src/formats/flash/figure-library.js';
import { parseAvatarActionsXml, parseFigureDataXml, parseFigureMapXml } from '../src/formats/gamedata/figure-xml.js';
import { parseLegacyFurnidata } from '../src/formats/gamedata/furnidata-txt.js';
import { convertFlashToNitro } from '../src/convert/flash-to-nitro.js';
import { REALDATA } from '../test/helpers/realdata.js';

const root = process.env.BENCH_FLASH_DIR ?? join(REALDATA, 'flash');
if (!existsSync(root)) {
  console.error(`no Flash layout at ${root}; set BENCH_FLASH_DIR`);
  process.exit(1);
}
const swfs = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.swf'))
        .sort()
        .map((f) => join(dir, f))
    : [];

async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const r = await fn();
  console.log(`${label}: ${((performance.now() - t0) / 1000).toFixed(2)} s`);
  return r;
}

const furni = swfs(join(root, 'hof_furni'));
const figures = swfs(join(root, 'gordon'));
await timed(`read ${furni.length} furni SWFs → AssetLibrary`, async () => {
  for (const f of furni) await readFurniSwf(readFileSync(f), f);
});
await timed(`read ${figures.length} figure SWFs → AssetLibrary`, async () => {
  for (const f of figures) await readFigureSwf(readFileSync(f), f);
});
const gd = join(root, 'gamedata');
await timed('parse figuredata, figuremap, actions XML and furnidata.txt', async () => {
  const read = (f: string) => (existsSync(join(gd, f)) ? readFileSync(join(gd, f), 'utf8') : undefined);
  const fd = read('figuredata.xml');
  if (fd) parseFigureDataXml(fd);
  const fm = read('figuremap.xml');
  if (fm) parseFigureMapXml(fm);
  const ac = read('HabboAvatarActions.xml');
  if (ac) parseAvatarActionsXml(ac);
  const txt = read('furnidata.txt');
  if (txt) parseLegacyFurnidata(txt);
});
const out = join(tmpdir(), 'hotel-imager-bench-flash');
rmSync(out, { recursive: true, force: true });
const report = await timed('convert --from flash --to nitro (concurrency 2)', () =>
  convertFlashToNitro({ from: root, to: out }),
);
console.log(
  `converted ${report.figures.length} figure libraries, ${report.furniture.length} furni, ${report.gamedata.length} gamedata documents; ${report.failed.length} failed`,
);
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
rmSync(out, { recursive: true, force: true });
