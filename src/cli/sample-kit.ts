// `hotel-imager sample-kit --out DIR [--layout nitro|flash] [--furni N] [--contact-sheet FILE.png]`:
// writes the built-in sample kit (Nitro layout, or the Flash-era layout of SWFs and XML gamedata for
// operators testing a Flash hotel) and optionally a contact sheet of every sprite in it.
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { type Command } from 'commander';
import { type KitLayout, writeSampleKit } from '../samplekit/index.js';
import { buildContactSheet } from '../samplekit/contact-sheet.js';
import { GENERATED_PREFIX } from '../samplekit/furni/index.js';
import { type KitFile } from '../samplekit/kit-file.js';
import { oneOf, wholeNumber } from '../settings/values.js';
import { explainFsError, prepareWritableFolder } from '../util/fs-error.js';
import { addOptions, option, readOptions, UsageError } from './options.js';

export const SAMPLE_KIT_OPTIONS = {
  out: option({
    flag: '--out <dir>',
    env: 'HOTEL_IMAGER_SAMPLE_KIT_OUT',
    help: 'folder to write the kit to (replaced atomically)',
    required: true,
  }),
  layout: option({
    flag: '--layout <layout>',
    env: 'HOTEL_IMAGER_SAMPLE_KIT_LAYOUT',
    help: 'nitro (.nitro bundles, JSON gamedata) or flash (SWF libraries, XML gamedata)',
    parse: oneOf<KitLayout>(['nitro', 'flash']),
    default: 'nitro',
  }),
  furni: option({
    flag: '--furni <n>',
    env: 'HOTEL_IMAGER_SAMPLE_KIT_FURNI',
    help: 'add N generated furni for benchmarks (the published scale is about 17000)',
    parse: wholeNumber({ max: 99_999 }),
    default: 0,
  }),
  contactSheet: option({
    flag: '--contact-sheet <file.png>',
    env: 'HOTEL_IMAGER_SAMPLE_KIT_CONTACT_SHEET',
    help: 'also draw every sprite of the kit on one PNG (legend in <file>.txt)',
    defaultText: 'none',
  }),
};

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
  const cmd = program
    .command('sample-kit')
    .description(
      'write the built-in sample asset kit (Nitro layout: gamedata/ and bundled/; or Flash layout: gamedata/*.xml, ' +
        'gordon/, hof_furni/) to a folder',
    );
  addOptions(cmd, SAMPLE_KIT_OPTIONS).action(async (_o: unknown, command: Command) => {
    const o = readOptions(command, SAMPLE_KIT_OPTIONS);
    // The sheet draws the sprites of .nitro bundles (the Flash kit holds the same sprites).
    if (o.contactSheet && o.layout === 'flash')
      throw new UsageError('--contact-sheet reads .nitro bundles: write the Nitro layout for it (--layout nitro)');
    // The kit is written beside --out and swapped in, so the folder that holds it must be writable.
    const folders = [
      {
        folder: dirname(resolve(o.out)),
        what: 'the folder --out is in',
        flag: '--out',
        env: SAMPLE_KIT_OPTIONS.out.spec.env,
      },
      ...(o.contactSheet
        ? [
            {
              folder: dirname(resolve(o.contactSheet)),
              what: 'the folder of the contact sheet',
              flag: '--contact-sheet',
              env: SAMPLE_KIT_OPTIONS.contactSheet.spec.env,
            },
          ]
        : []),
    ];
    for (const f of folders) await prepareWritableFolder(f);
    try {
      await writeKit(o);
    } catch (e) {
      throw explainFsError(e, folders);
    }
  });
}

async function writeKit(o: {
  out: string;
  layout: KitLayout;
  furni: number;
  contactSheet?: string | undefined;
}): Promise<void> {
  const started = Date.now();
  const stamp = await writeSampleKit(o.out, { extraFurni: o.furni, layout: o.layout });
  console.log(
    `sample kit (${o.layout} layout): ${stamp.files} files in ${o.out} (${Date.now() - started} ms, ` +
      `content ${stamp.contentHash.slice(0, 12)})`,
  );
  if (o.contactSheet) {
    // Generated items repeat a few dozen sprite sets; the first 40 show all of them.
    const skip = (name: string) =>
      name.startsWith(GENERATED_PREFIX) && Number(name.slice(GENERATED_PREFIX.length)) > 40;
    const sheet = await buildContactSheet(kitFilesOnDisk(o.out), { skip });
    const legend = o.contactSheet.replace(/\.png$/i, '') + '.txt';
    await writeFile(o.contactSheet, sheet.png);
    await writeFile(legend, sheet.legend);
    console.log(`contact sheet: ${sheet.sprites} sprites in ${o.contactSheet}, legend in ${legend}`);
  }
}
