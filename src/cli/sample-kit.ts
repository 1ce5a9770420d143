// `hotel-imager sample-kit --out DIR [--furni N] [--contact-sheet FILE.png]`: writes the built-in
// sample kit (Nitro layout) and optionally a contact sheet of every sprite in it.
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { writeSampleKit } from '../samplekit/index.js';
import { buildContactSheet } from '../samplekit/contact-sheet.js';
import { GENERATED_PREFIX } from '../samplekit/furni/index.js';
import { type KitFile } from '../samplekit/kit-file.js';

function count(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n > 99_999) throw new InvalidArgumentError('expected a whole number from 0 to 99999');
  return n;
}

async function* kitFilesOnDisk(dir: string): AsyncGenerator<KitFile> {
  const walk = async function* (d: string): AsyncGenerator<string> {
    for (const e of (await readdir(d, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) yield* walk(p);
      else yield p;
    }
  };
  for await (const p of walk(dir)) if (p.endsWith('.nitro')) yield { path: relative(dir, p), data: await readFile(p) };
}

export function registerSampleKitCommand(program: Command): void {
  program
    .command('sample-kit')
    .description('write the built-in sample asset kit (Nitro layout: gamedata/ and bundled/) to a folder')
    .requiredOption('--out <dir>', 'folder to write the kit to (replaced atomically)')
    .option('--furni <n>', 'add N generated furni for benchmarks (the published scale is about 17000)', count, 0)
    .option('--contact-sheet <file.png>', 'also draw every sprite of the kit on one PNG (legend in <file>.txt)')
    .action(async (o: { out: string; furni: number; contactSheet?: string }) => {
      const started = Date.now();
      const stamp = await writeSampleKit(o.out, { extraFurni: o.furni });
      console.log(`sample kit: ${stamp.files} files in ${o.out} (${Date.now() - started} ms, content ${stamp.contentHash.slice(0, 12)})`);
      if (o.contactSheet) {
        // Generated items repeat a few dozen sprite sets; the first 40 show all of them.
        const skip = (name: string) => name.startsWith(GENERATED_PREFIX) && Number(name.slice(GENERATED_PREFIX.length)) > 40;
        const sheet = await buildContactSheet(kitFilesOnDisk(o.out), { skip });
        const legend = o.contactSheet.replace(/\.png$/i, '') + '.txt';
        await writeFile(o.contactSheet, sheet.png);
        await writeFile(legend, sheet.legend);
        console.log(`contact sheet: ${sheet.sprites} sprites in ${o.contactSheet}, legend in ${legend}`);
      }
    });
}
